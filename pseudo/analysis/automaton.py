"""The automaton of a body: its states (labelled segments), the transfers between them, and
what the checker, `pseudo graph` and the transpiler need to know about them.

A state runs from its label to the next label. Its edges are the transfers it contains
(labelled with the whole condition that leads to them: every ЕСЛИ around the transfer, its
condition in a ТО branch, the condition's negation in an ИНАЧЕ branch — `x > 0 И x ОСТ 2 = 0`,
`k ≠ 9` —, and the condition of a ПОКА whose body holds it), the final state Я, and — when
some path reaches its end without a transfer — the fall-through into the next state (or the
end of the body).
"""
from __future__ import annotations

from collections import deque
from functools import cached_property

from .. import nodes as n
from ..errors import Diagnostic, diagnostic
from ..messages import hint

FINAL = "Я"
END = "конец"
START = "начало"
ENTRY_LABEL = "ПРОГРАММА"


class Edge:
    """`kind`: "goto", "final" (Я or КОНЕЦ_РАБОТЫ), "fall" (no transfer: the next state)."""

    def __init__(self, source: str, target: str, condition: str | None, kind: str, span=None):
        self.source, self.target, self.condition, self.kind, self.span = source, target, condition, kind, span


class State:
    def __init__(self, name: str, span, stmts: tuple, edges: list[Edge] | None = None):
        self.name, self.span, self.stmts = name, span, stmts
        self.edges: list[Edge] = [] if edges is None else edges


class Automaton:
    """`owner`: the definition, or None for the main program. (Plain classes: see frontend/raw.py.)"""

    def __init__(self, owner: str | None, states: list[State], entry: str):
        self.owner, self.states, self.entry = owner, states, entry

    @property
    def edges(self) -> list[Edge]:
        return [e for s in self.states for e in s.edges]

    def state(self, name: str) -> State | None:
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, State]:
        by_name: dict[str, State] = {}
        for s in self.states:
            by_name.setdefault(s.name, s)  # the first of a name, as a search from the start finds
        return by_name


def build(owner: str | None, block: n.Block, entry_label: str | None = None) -> Automaton:
    """The automaton of a block with labels; it starts at `entry_label` if the block has that
    label (the main program's ПРОГРАММА), else at its first statement."""
    segments: list[tuple[str, object, list]] = [(START, block.span, [])]
    for s in block.stmts:
        if isinstance(s, n.Label):
            segments.append((s.name, s.span, []))
        else:
            segments[-1][2].append(s)
    if not segments[0][2]:
        segments.pop(0)
    names = [name for name, _, _ in segments]
    targets = {*names, FINAL, END}
    entry = entry_label if entry_label in names else names[0]
    states = []
    for i, (name, span, stmts) in enumerate(segments):
        state = State(name, span, tuple(stmts))
        completes = _collect(state, state.stmts, (), inside_loop=False)
        state.edges = [e for e in state.edges if e.target in targets]
        if completes:
            following = names[i + 1] if i + 1 < len(names) else END
            state.edges.append(Edge(name, following, None, "fall", span))
        states.append(state)
    return Automaton(owner, states, entry)


def own_transfers(stmts) -> list:
    """The Goto and Stop nodes of a statement list, not counting those inside a nested block
    that has labels of its own (that block is an automaton of its own)."""
    out = []
    for s in stmts:
        if isinstance(s, n.Goto | n.Stop):
            out.append(s)
        for block in n.blocks(s):
            if not n.has_labels(block):
                out.extend(own_transfers(block.stmts))
    return out


def has_nested_labels(stmts) -> bool:
    return any(isinstance(x, n.Label) for s in stmts for b in n.blocks(s) for x in n.walk(b))


def _collect(state: State, stmts, path: tuple, inside_loop: bool) -> bool:
    """Add the edges of a statement list reached along `path` (the conditions that hold there:
    (expression, true or false) pairs); tell whether control can reach its end."""
    return all(_EDGES[type(s)](state, s, path, inside_loop) for s in stmts)


def _edges_Goto(state: State, s: n.Goto, path: tuple, inside_loop: bool) -> bool:
    state.edges.append(Edge(state.name, s.label, condition_text(path), "goto", s.span))
    return False


def _edges_Stop(state: State, s: n.Stop, path: tuple, inside_loop: bool) -> bool:
    state.edges.append(Edge(state.name, FINAL, condition_text(path), "final", s.span))
    return False


def _edges_Exit(state: State, s: n.Exit, path: tuple, inside_loop: bool) -> bool:
    return False


def _edges_If(state: State, s: n.If, path: tuple, inside_loop: bool) -> bool:
    then_done = _collect(state, s.then.stmts, (*path, (s.cond, True)), inside_loop)
    else_done = _collect(state, s.else_.stmts, (*path, (s.cond, False)), inside_loop) if s.else_ is not None else True
    return then_done or else_done


def _edges_While(state: State, s: n.While, path: tuple, inside_loop: bool) -> bool:
    _collect(state, s.body.stmts, (*path, (s.cond, True)), True)
    return True


def _edges_For(state: State, s: n.For, path: tuple, inside_loop: bool) -> bool:
    _collect(state, s.body.stmts, path, True)
    return True


def _edges_Loop(state: State, s: n.Loop, path: tuple, inside_loop: bool) -> bool:
    _collect(state, s.body.stmts, path, True)
    return _exits(s.body)


def _edges_Assign(state: State, s, path: tuple, inside_loop: bool) -> bool:
    return True  # control goes on


_edges_CallStmt = _edges_Print = _edges_Read = _edges_Screen = _edges_Label = _edges_Assign


NEGATED = {"=": "≠", "≠": "=", "<": "≥", "≥": "<", ">": "≤", "≤": ">"}


def condition_text(path: tuple) -> str | None:
    """The conditions of a path joined by И, as the language writes them (None: no condition);
    a false one negated: a comparison by its opposite (`k ≠ 9`), a name or a call by НЕ
    (`НЕ готово`), anything else by НЕ and brackets — a phrase too: «НЕ нет таких полей»
    reads as a double negation, `НЕ (нет таких полей)` does not."""
    parts = []
    for e, holds in path:
        text, loose = _text(e), isinstance(e, n.Logical) and e.op == "ИЛИ"
        if not holds:
            if isinstance(e, n.Compare) and e.op in NEGATED:
                text = f"{_text(e.left)} {NEGATED[e.op]} {_text(e.right)}"
            elif isinstance(e, n.Not):
                text, loose = _text(e.operand), isinstance(e.operand, n.Logical) and e.operand.op == "ИЛИ"
            else:
                text, loose = (f"НЕ {text}" if _term(e) else f"НЕ ({text})"), False
        parts.append(f"({text})" if loose and len(path) > 1 else text)
    return " И ".join(parts) or None


def _term(e) -> bool:
    """Is `e` one term, which НЕ needs no brackets for: a name, an element, a constant, a call
    of a function (not a phrase: its words would read as the sentence НЕ begins)?"""
    return isinstance(e, n.Var | n.Index | n.Const) or \
        isinstance(e, n.Call | n.BuiltinCall) and not e.name.startswith("«") and " " not in e.name


def _text(e) -> str:
    return n.whole_span(e).full_text()


def _exits(body: n.Block) -> bool:
    """Does КОНЧЕНО leave this endless loop (not an inner one)?"""
    return any(_EXITS[type(s)](s) for s in body.stmts)


def _exits_Exit(s: n.Exit) -> bool:
    return True


def _exits_If(s: n.If) -> bool:
    return _exits(s.then) or s.else_ is not None and _exits(s.else_)


def _exits_While(s) -> bool:
    return _exits(s.body)


def _exits_Loop(s) -> bool:
    return False  # КОНЧЕНО in an inner endless loop leaves that loop


_exits_For = _exits_While
_exits_Assign = _exits_CallStmt = _exits_Print = _exits_Read = _exits_Screen = _exits_Stop = _exits_Goto = \
    _exits_Label = _exits_Loop
_EDGES = n.arms("automaton, the edges", globals(), "_edges_")
_EXITS = n.arms("automaton, КОНЧЕНО", globals(), "_exits_")


def check(machines: list[Automaton]) -> list[Diagnostic]:
    """Warnings about states: fall-through, unreachable, never reaching the end."""
    out: list[Diagnostic] = []
    for a in machines:
        ends_at_final = any(e.kind == "final" for e in a.edges)  # a program that ends at Я ends there only
        for s in a.states:
            for e in s.edges:
                if e.kind == "fall" and e.target != END:
                    nxt = a.state(e.target)
                    out.append(diagnostic("warning", "state-falls", nxt.span,
                                          hint("state-falls", name=s.name, next=e.target), name=s.name,
                                          next=e.target))
                elif e.kind == "fall" and s.name != START and a.owner is None and ends_at_final:  # С8 without СБ
                    out.append(diagnostic("warning", "state-ends", s.span, hint("state-ends"), name=s.name))
        reached = _reach(a, [a.entry], forward=True)
        for s in a.states:
            if s.name not in reached:
                out.append(diagnostic("warning", "state-unreachable", s.span, hint("state-unreachable", name=s.name),
                                      name=s.name, entry=a.entry))
        finishing = _reach(a, [FINAL, END], forward=False)
        for s in a.states:
            if s.name in reached and s.name not in finishing:
                out.append(diagnostic("warning", "state-no-exit", s.span, hint("state-no-exit", name=s.name),
                                      name=s.name))
    return out


def _reach(a: Automaton, start: list[str], forward: bool) -> set[str]:
    adjacency: dict[str, set[str]] = {}
    for e in a.edges:
        src, dst = (e.source, e.target) if forward else (e.target, e.source)
        adjacency.setdefault(src, set()).add(dst)
    seen, queue = set(start), deque(start)
    while queue:
        for nxt in adjacency.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen
