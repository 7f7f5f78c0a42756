"""Facts about a resolved program, computed once after name binding and read by every later
stage — the checker, the interpreter, the code generator and `pseudo graph`:

- each body's locals (parameters first, then ДЛЯ variables and РЕЗУЛЬТАТ) and РЕЗ parameters;
- whether a procedure surely assigns РЕЗУЛЬТАТ, which definitions may give no value, which
  are recursive;
- the automaton of every block that has labels (its states and transfers);
- the program's arrays, with how many indices each is used with, and the bounds of their
  indices (bounds.py); the globals each definition may assign; the variables only the main
  program touches;
- the kinds of values (kinds.py), and the bounds of the lengths of strings (lengths.py);
- the ПОКА that cannot end, and whether a ДЛЯ's variable may change under it (loops.py).
"""
from __future__ import annotations

from functools import cached_property

from .. import nodes as n
from ..runtime.names import RESULT
from .automaton import ENTRY_LABEL, Automaton, build
from .bounds import Bounds, assigned_by
from .kinds import Kinds
from .lengths import Lengths
from .loops import endless_loops, loop_variable_reassigned


class Body:
    """The main program (key None) or one definition: its `code` (an expression for a
    function), its locals and `refs`, the parameters passed by reference (РЕЗ)."""
    __slots__ = ("code", "definition", "key", "locals", "refs")

    def __init__(self, key: str | None, definition: n.Definition | None, code: n.Block | n.Expr,
                 locals: tuple[str, ...], refs: frozenset[str]):
        self.key, self.definition, self.code, self.locals, self.refs = key, definition, code, locals, refs


class Facts:
    def __init__(self, program: n.Program, walked: dict | None = None):
        """`walked`: the nodes of some bodies, already listed (`nodes.walk` of each, by the
        body's id, with the body), as the resolver's binding of names leaves them."""
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
        # each body's nodes in the order of the text, walked once for every stage that reads them
        self.nodes: dict[str | None, list[n.Node]] = {key: _listed(body.code, walked or {})
                                                      for key, body in self.bodies.items()}
        arrays, calls = _arrays_and_calls(self.nodes, program.definitions)
        self.arrays = tuple(sorted(arrays))
        self.calls = calls
        self.may_give_nothing = giving_nothing(program.definitions)
        self.recursive = recursive_definitions(program, calls)

    @cached_property
    def index_counts(self) -> dict[str, int]:
        """Each array always used with the same number of indices, and that number."""
        counts: dict[str, set] = {}
        for nodes in self.nodes.values():
            for x in nodes:
                if isinstance(x, n.Index):
                    counts.setdefault(x.name, set()).add(len(x.indices))
        return {array: min(c) for array, c in counts.items() if len(c) == 1}

    @cached_property
    def bounds(self) -> Bounds:
        """The bounds of the integers the program computes, and of its arrays' indices."""
        return Bounds(self.program, self.assigned_globals)

    @cached_property
    def assigned_globals(self) -> dict[str, frozenset[str]]:
        """The globals each definition may assign, itself or through what it calls (a fixed
        point over the calls)."""
        own = {key: assigned_by(self.nodes[key], self.program.definitions)[0] - set(d.locals)
               for key, d in self.program.definitions.items()}
        changed = True
        while changed:
            changed = False
            for key, mine in own.items():
                more = set().union(*(own[c] for c in self.calls[key])) - mine if self.calls[key] else set()
                if more:
                    mine |= more
                    changed = True
        return {key: frozenset(v) for key, v in own.items()}

    @cached_property
    def main_locals(self) -> frozenset[str]:
        """Variables only the main program touches, read there (a variable only ever assigned
        stays global: a local nothing reads is dead code); none when the main program has
        labels (its states share its variables), none passed as РЕЗ (their cells are on the
        module's globals)."""
        program = self.program
        if any(isinstance(x, n.Label) for x in self.nodes[None]):
            return frozenset()
        elsewhere = set()
        for key, d in program.definitions.items():
            for x in self.nodes[key]:
                if isinstance(x, n.Var | n.Index) and x.name not in d.locals:
                    elsewhere.add(x.name)
                elif isinstance(x, n.For) and x.var not in d.locals:
                    elsewhere.add(x.var)
        by_ref = {a.name for _, a in ref_arguments(self.nodes[None], program)}
        targets = {id(t) for x in self.nodes[None] if isinstance(x, n.Assign | n.Read)
                   for t in ([x.target] if isinstance(x, n.Assign) else x.targets)}
        read = {x.name for x in self.nodes[None] if isinstance(x, n.Var) and id(x) not in targets}
        loop_vars = {x.var for x in self.nodes[None] if isinstance(x, n.For)}
        mine = {x.name for x in self.nodes[None] if isinstance(x, n.Var)} | loop_vars
        return frozenset((mine & (read | loop_vars)) - elsewhere - by_ref)

    def exit_needs_raise(self, body: n.Block, outlined: bool) -> bool:
        """Does a КОНЧЕНО of this endless loop stand where a jump out of the loop cannot
        reach it: inside an inner ПОКА or ДЛЯ, in a block with labels (its states), or in a
        block written as a function of its own (`outlined`)?"""
        def search(block: n.Block, inside: bool) -> bool:
            inside = inside or self.automaton(block) is not None
            for s in block.stmts:
                if isinstance(s, n.Exit) and inside:
                    return True
                if isinstance(s, n.Loop):
                    continue  # its КОНЧЕНО are its own
                deeper = inside or isinstance(s, n.While | n.For)
                if any(search(b, deeper) for b in n.blocks(s)):
                    return True
            return False
        return search(body, outlined)

    def dispatch_depth(self, a: Automaton) -> int:
        """How many state functions deep an automaton's code can go (its own, and nested ones)."""
        deepest = 0
        for state in a.states:
            for s in state.stmts:
                for x in n.walk(s):
                    if isinstance(x, n.Block) and self.automaton(x) is not None:
                        deepest = max(deepest, self.dispatch_depth(self.automaton(x)))
        return 1 + deepest

    @cached_property
    def kinds(self) -> Kinds:
        """The kinds of values, assuming nothing of the input."""
        return Kinds(self.program)

    @cached_property
    def guarded_kinds(self) -> Kinds:
        """The kinds of values when each value read is of the kind its variable is used as."""
        return Kinds(self.program, guarded=True)

    @cached_property
    def lengths(self) -> Lengths:
        """The most characters each string can have."""
        return Lengths(self.program)

    @cached_property
    def endless(self) -> dict:
        """id of each ПОКА that cannot end → its loops.EndlessLoop."""
        return endless_loops(self.program, self.nodes)

    @cached_property
    def watchable(self) -> bool:
        """Can a run be watched for a state that comes back (no ДЛЯ's variable changes under
        it: runtime/limits.py)?"""
        return not loop_variable_reassigned(self.program, self.nodes)

    def automaton(self, block: n.Block) -> Automaton | None:
        return self.automata.get(id(block))

    def top_automata(self) -> list[Automaton]:
        """The automata of whole bodies (the main program's, a definition's): what `pseudo
        graph` draws and the checker warns about."""
        return [a for body in self.bodies.values() if isinstance(body.code, n.Block)
                for a in [self.automaton(body.code)] if a is not None]


def ref_arguments(nodes, program: n.Program):
    """(call, argument) for every variable passed as РЕЗ among `nodes`."""
    for x in nodes:
        if isinstance(x, n.Call) and x.name in program.definitions:
            for a, p in zip(x.args, program.definitions[x.name].params):
                if p.by_ref and isinstance(a, n.Var):
                    yield x, a


def nesting(block: n.Block) -> int:
    """How deep a block nests compound statements (a ВЫПОЛНЯТЬ loop counts two: its `try`)."""
    deepest = 0
    for s in block.stmts:
        extra = 2 if isinstance(s, n.Loop) else 1
        for inner in n.blocks(s):
            deepest = max(deepest, extra + nesting(inner))
    return deepest


def giving_nothing(defs: dict[str, n.Definition]) -> frozenset[str]:
    """The definitions a call of which may end without a value: a procedure whose РЕЗУЛЬТАТ is
    not surely assigned, and a function that gives what such a procedure gives (its body a call
    of it, or of such a function). Each chain of functions is followed once; one that comes
    back to itself gives nothing of the kind."""
    known: dict[str, bool] = {}
    for key in defs:
        path, on_path, k = [], set(), key
        while k not in known:
            d = defs.get(k)
            if d is None or k in on_path:  # undefined (the checker's error), or a circle of functions
                value = False
                break
            if not d.is_function:
                value = not surely_assigns_result(d.body.stmts)
                break
            if not isinstance(d.body, n.Call):
                value = False
                break
            path.append(k)
            on_path.add(k)
            k = d.body.name
        else:
            value = known[k]
        known.update(dict.fromkeys(path, value))
        if k in defs and k not in known:
            known[k] = value
    return frozenset(k for k in defs if known[k])


def surely_assigns_result(stmts) -> bool:
    """Is РЕЗУЛЬТАТ surely assigned when the statements end? Not if a label or a transfer
    comes first: a transfer may jump past the assignment."""
    for s in stmts:
        if any(isinstance(x, n.Label | n.Goto) for x in n.walk(s)):
            return False
        if isinstance(s, n.Assign) and isinstance(s.target, n.Var) and s.target.name == RESULT:
            return True
        if isinstance(s, n.If) and s.else_ is not None and surely_assigns_result(s.then.stmts) \
                and surely_assigns_result(s.else_.stmts):
            return True
    return False


def recursive_definitions(program: n.Program, calls: dict[str, set[str]] | None = None) -> frozenset[str]:
    """The definitions that can call themselves, directly or through others: those on a cycle
    of the call graph (`calls`: each definition's callees, found here if not given)."""
    if calls is None:
        bodies = {key: n.walk(d.body) for key, d in program.definitions.items()}
        calls = _arrays_and_calls(bodies, program.definitions)[1]
    return frozenset(_on_cycles(calls))


def _arrays_and_calls(bodies: dict, definitions: dict) -> tuple[set[str], dict[str, set[str]]]:
    """The names used as arrays, and each definition's calls of definitions, from the nodes of
    each body (the main program's under None)."""
    arrays: set[str] = set()
    calls: dict[str, set[str]] = {key: set() for key in definitions}
    for key, nodes in bodies.items():
        for x in nodes:
            if isinstance(x, n.Index):
                arrays.add(x.name)
            elif key is not None and isinstance(x, n.Call) and x.name in calls:
                calls[key].add(x.name)
    return arrays, calls


def _on_cycles(graph: dict[str, set[str]]) -> set[str]:
    """The vertices that lie on a cycle: Tarjan's strongly connected components, with a stack of
    its own instead of recursion, in time linear in the size of the graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: set[str] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        work.append((v, iter(graph[v])))

    for root in graph:
        if root in index:
            continue
        work: list = []
        visit(root)
        while work:
            v, callees = work[-1]
            for w in callees:
                if w not in index:
                    visit(w)
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    component = _pop_component(stack, on_stack, v)
                    if len(component) > 1 or v in graph[v]:
                        out.update(component)
    return out


def _pop_component(stack: list[str], on_stack: set[str], root: str) -> list[str]:
    component = []
    while True:
        w = stack.pop()
        on_stack.discard(w)
        component.append(w)
        if w == root:
            return component


def _labelled_blocks(code) -> list[n.Block]:
    if not isinstance(code, n.Block):
        return []
    found = [code] if n.has_labels(code) else []
    for s in code.stmts:
        for block in n.blocks(s):
            found += _labelled_blocks(block)
    return found


def _listed(root: n.Node, walked: dict) -> list[n.Node]:
    known = walked.get(id(root))
    return known[1] if known is not None and known[0] is root else list(n.walk(root))


def analyse(program: n.Program, walked: dict | None = None) -> Facts:
    return Facts(program, walked)
