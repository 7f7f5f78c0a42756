"""Loops that cannot end (DIALECT.md, «Programs that do not end»), found in the text.

A ПОКА whose condition reads only variables and elements that nothing in its body can change
— no assignment, ПРОЧЕСТЬ, ДЛЯ or РЕЗ argument names them, no call of a definition that may
assign them —, and whose body cannot leave it otherwise — no transfer, КОНЧЕНО or
КОНЕЦ_РАБОТЫ, no call of a definition that may end the program — never ends once its
condition holds: `i := 1; ПОКА i ≤ 10 ВЫПОЛНЯТЬ s := s + i ВЕРНУТЬСЯ`. The checker warns at
such a loop; a run that finishes its body once with the condition still true stops there,
in every mode (its condition cannot have changed).

Also whether a ДЛЯ's variable may be assigned while the loop runs: the run's watch for a
state that comes back (runtime/limits.py) cannot tell the turns of such a loop apart — which
turn it is lives in Python's iterator, not in a variable — and stays off for the program.
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime.library import INPUT_ENDED

IMPURE = {"СЛУЧАЙНОЕ", INPUT_ENDED}  # built-ins whose value is not a function of the variables


class EndlessLoop:
    """A ПОКА that cannot end: the variables its condition reads (their values are shown when
    it stops), its condition's text, and «i не меняется» («i и t[…] не меняются»)."""
    __slots__ = ("cond", "unchanged", "variables")

    def __init__(self, shown: list[str], variables: tuple[str, ...], cond: str):
        self.variables, self.cond = variables, cond
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " и " + shown[-1]
        self.unchanged = f"{listed} {'не меняется' if len(shown) == 1 else 'не меняются'}"


class Effects:
    """What a call of each definition may do, through the definitions it calls: the global
    variables and the arrays it may assign, and whether it may end the program."""

    def __init__(self, program: n.Program):
        defs = program.definitions
        own: dict[str, tuple[set[str], bool, set[str]]] = {}
        for key, d in defs.items():
            written, stops, calls = set(), False, set()
            for x in n.walk(d.body):
                if isinstance(x, n.Stop):
                    stops = True
                elif isinstance(x, n.Call) and x.name in defs:
                    calls.add(x.name)
                written |= {name for name in n.assigned(x, defs) if name not in d.locals}
            own[key] = written, stops, calls
        self.writes = {key: set(w) for key, (w, _, _) in own.items()}
        self.stops = {key: s for key, (_, s, _) in own.items()}
        changed = True
        while changed:  # through the calls, to a fixed point
            changed = False
            for key, (_, _, calls) in own.items():
                for callee in calls:
                    if not self.writes[callee] <= self.writes[key] or self.stops[callee] > self.stops[key]:
                        self.writes[key] |= self.writes[callee]
                        self.stops[key] |= self.stops[callee]
                        changed = True


def endless_loops(program: n.Program, nodes: dict) -> dict[int, EndlessLoop]:
    """id of each ПОКА that cannot end → what its messages say; `nodes`: each body's nodes
    (Facts.nodes)."""
    effects = None
    found = {}
    for key, listed in nodes.items():
        d = program.definitions.get(key) if key is not None else None
        for x in listed:
            if isinstance(x, n.While):
                effects = effects or Effects(program)
                read = _unchanged(x, d, program.definitions, effects)
                if read:
                    shown = [e.name if isinstance(e, n.Var) else f"{e.name}[…]" for e in read]
                    variables = tuple(e.name for e in read if isinstance(e, n.Var))
                    found[id(x)] = EndlessLoop(shown, variables, n.whole_span(x.cond).full_text())
    return found


def _unchanged(loop: n.While, d: n.Definition | None, defs: dict, effects: Effects) -> list[n.Var | n.Index]:
    """The first read of each variable and array of the loop's condition, if nothing in the
    body can change them and the body cannot leave the loop; [] otherwise."""
    read: dict[str, n.Var | n.Index] = {}
    for x in n.walk(loop.cond):
        if isinstance(x, n.Call) or isinstance(x, n.BuiltinCall) and x.name in IMPURE:
            return []
        if isinstance(x, n.Var | n.Index):
            read.setdefault(x.name, x)
    if not read:
        return []  # ПОКА ИСТИНА: endless on purpose
    names = list(read)
    local = set(d.locals) if d is not None else set()
    refs = {p.name for p in d.params if p.by_ref} if d is not None else set()
    wanted = set(names)
    writes_ref = writes_global = False
    for x in n.walk(loop.body):
        if isinstance(x, n.Goto | n.Stop | n.Exit | n.Label):
            return []
        written = n.assigned(x, defs)
        if isinstance(x, n.Call) and x.name in defs:
            if effects.stops[x.name]:
                return []
            written = written + sorted(effects.writes[x.name])
        if wanted.intersection(written):
            return []
        writes_ref |= any(w in refs for w in written)
        writes_global |= any(w not in local for w in written)
    # a РЕЗ parameter may be a global, an element or another РЕЗ parameter under another name
    if wanted & refs and (writes_ref or writes_global) or writes_ref and any(w not in local for w in names):
        return []
    return list(read.values())


def loop_variable_reassigned(program: n.Program, nodes: dict) -> bool:
    """Can some ДЛЯ's variable be assigned while the loop runs, other than by the loop?"""
    effects = None
    for key, listed in nodes.items():
        d = program.definitions.get(key) if key is not None else None
        refs = {p.name for p in d.params if p.by_ref} if d is not None else set()
        for x in listed:
            if not isinstance(x, n.For):
                continue
            if x.var in refs:
                return True  # the caller's variable: anything may assign it
            global_var = d is None or x.var not in d.locals
            for y in n.walk(x.body):
                written = n.assigned(y, program.definitions)
                if isinstance(y, n.Call) and y.name in program.definitions and global_var:
                    effects = effects or Effects(program)
                    written = written + sorted(effects.writes[y.name])
                if x.var in written:
                    return True
    return False
