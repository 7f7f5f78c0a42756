"""Facts about a resolved program, computed once after name binding and read by every later
stage — the checker, the interpreter, the code generator and `pseudo graph`:

- each body's locals (parameters first, then ДЛЯ variables and РЕЗУЛЬТАТ) and РЕЗ parameters;
- whether a procedure surely assigns РЕЗУЛЬТАТ, which definitions may give no value, which
  are recursive;
- the automaton of every block that has labels (its states and transfers);
- the kinds of values (kinds.py), and the program's arrays.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .. import nodes as n
from .automaton import ENTRY_LABEL, Automaton, build
from .kinds import Kinds

RESULT = "РЕЗУЛЬТАТ"


@dataclass(frozen=True)
class Body:
    """The main program (key None) or one definition."""
    key: str | None
    definition: n.Definition | None
    code: n.Block | n.Expr  # an expression for a function
    locals: tuple[str, ...]
    refs: frozenset[str]  # parameters passed by reference (РЕЗ)


class Facts:
    def __init__(self, program: n.Program):
        self.program = program
        self.bodies: dict[str | None, Body] = {None: Body(None, None, program.main, (), frozenset())}
        for key, d in program.definitions.items():
            self.bodies[key] = Body(key, d, d.body, d.locals, frozenset(p.name for p in d.params if p.by_ref))
        self.automata: dict[int, Automaton] = {}  # id of a block with labels → its automaton
        self.body_automata: dict[str | None, list[Automaton]] = {}  # each body's, outermost first
        for key, body in self.bodies.items():
            self.body_automata[key] = []
            for block in _labelled_blocks(body.code):
                entry = ENTRY_LABEL if block is program.main else None
                self.automata[id(block)] = build(body.key, block, entry)
                self.body_automata[key].append(self.automata[id(block)])
        self.arrays = tuple(sorted({x.name for root in n.bodies(program) for x in n.walk(root)
                                    if isinstance(x, n.Index)}))
        self.may_give_nothing = frozenset(k for k in program.definitions if self._may_give_nothing(k, set()))
        self.recursive = recursive_definitions(program)

    @cached_property
    def kinds(self) -> Kinds:
        """The kinds of values, assuming nothing of the input."""
        return Kinds(self.program)

    @cached_property
    def guarded_kinds(self) -> Kinds:
        """The kinds of values when each value read is of the kind its variable is used as."""
        return Kinds(self.program, guarded=True)

    def automaton(self, block: n.Block) -> Automaton | None:
        return self.automata.get(id(block))

    def top_automata(self) -> list[Automaton]:
        """The automata of whole bodies (the main program's, a definition's): what `pseudo
        graph` draws and the checker warns about."""
        return [a for body in self.bodies.values() if isinstance(body.code, n.Block)
                for a in [self.automaton(body.code)] if a is not None]

    def _may_give_nothing(self, key: str, seen: set) -> bool:
        """May a call of the definition end without a value (a procedure whose РЕЗУЛЬТАТ is
        not surely assigned, or a function that gives what such a procedure gives)?"""
        d = self.program.definitions.get(key)
        if d is None:  # a call of an undefined name: an error the checker reports
            return False
        if d.is_function:
            if isinstance(d.body, n.Call) and d.body.name not in seen:
                return self._may_give_nothing(d.body.name, seen | {key})
            return False
        return not surely_assigns_result(d.body.stmts)


def surely_assigns_result(stmts) -> bool:
    """Is РЕЗУЛЬТАТ surely assigned when the statements end?"""
    for s in stmts:
        if isinstance(s, n.Assign) and isinstance(s.target, n.Var) and s.target.name == RESULT:
            return True
        if isinstance(s, n.If) and s.else_ is not None and surely_assigns_result(s.then.stmts) \
                and surely_assigns_result(s.else_.stmts):
            return True
    return False


def recursive_definitions(program: n.Program) -> frozenset[str]:
    """The definitions that can call themselves, directly or through others."""
    calls = {key: {x.name for x in n.walk(d.body) if isinstance(x, n.Call) and x.name in program.definitions}
             for key, d in program.definitions.items()}
    out = set()
    for key, callees in calls.items():
        seen, todo = set(), list(callees)
        while todo:
            x = todo.pop()
            if x == key:
                out.add(key)
                break
            if x not in seen:
                seen.add(x)
                todo.extend(calls[x])
    return frozenset(out)


def _labelled_blocks(code) -> list[n.Block]:
    if not isinstance(code, n.Block):
        return []
    found = [code] if n.has_labels(code) else []
    for s in code.stmts:
        for block in n.blocks(s):
            found += _labelled_blocks(block)
    return found


def analyse(program: n.Program) -> Facts:
    return Facts(program)
