"""Goto elimination: an automaton's states become structured code — `while True` loops with
`continue` and `break`, and states inlined where they are used.

The method is the book's own: a state is an equation whose right side ends in transfers,
and a transfer is replaced by the text of the state it names (substitution). A state that can
come back to itself without passing through a loop already open becomes a loop:
`while True:` around its text, where a transfer back to it is `continue`. A transfer to an
enclosing loop's head leaves the inner loop with `break`; this works when every `break` of
a loop goes to the same place, which then follows the loop. States reached from several
places are not copied: an automaton that would need a copy (such as the queens automata,
whose loop И–СБ is entered both at И and at СБ) is written with functions instead.

A state reached from several places would be written once for each: instead, when a state
would be written a second time — or a transfer leaves a loop of the program itself, or one loop
has two different exits — the caller writes the automaton as one function per state that
others reach from several places, each holding the states only it leads to, and a loop that
runs them (automata.py).

The result is a tree of plans, independent of Python's ast: the transpiler renders it.
"""
from __future__ import annotations

from .. import nodes as n
from ..analysis.automaton import END, FINAL, Automaton, has_nested_labels


class CannotStructure(Exception):
    """The automaton needs the dispatch loop."""


class Jump:
    """How a transfer is rendered at the point where it stands: `kind` "continue", "break",
    "final" (Я: end of program), "end" (end of the body) or "inline" (with the target state's
    `plan`). (Plain classes: see frontend/raw.py.)"""

    def __init__(self, kind: str, target: str, plan: list | None = None):
        self.kind, self.target, self.plan = kind, target, plan


class Loop:
    """`while True:` around a state's plan, then what follows its `break`s."""

    def __init__(self, state: str, body: list, after: list):
        self.state, self.body, self.after = state, body, after


class StateCode:
    """A state's own statements; its transfers map to Jumps by identity of the Goto node
    (`jumps`: id(Goto or Stop or the state's fall-through) → Jump); `fall`: where control goes
    when the statements end without a transfer."""

    def __init__(self, state: str, stmts: tuple, jumps: dict, fall: Jump | None):
        self.state, self.stmts, self.jumps, self.fall = state, stmts, jumps, fall


class Structurer:
    def __init__(self, automaton: Automaton):
        self.a = automaton
        self.names = [s.name for s in automaton.states]
        self.succ = {s.name: {e.target for e in s.edges} for s in automaton.states}
        self.written: set[str] = set()
        for s in automaton.states:
            if _goto_inside_loop(s.stmts):
                raise CannotStructure(f"переход изнутри цикла в состоянии {s.name}")
            if has_nested_labels(s.stmts):
                raise CannotStructure(f"метки внутри блока в состоянии {s.name}")

    def plan(self) -> list:
        return self._state(self.a.entry, [], {})

    def _state(self, name: str, heads: list[str], exits: dict) -> list:
        """The plan for control arriving at `name` inside the loops `heads` (innermost last).

        `exits` maps each open loop to the set of targets its `break`s go to."""
        if name in self.written:
            raise CannotStructure(f"состояние {name} понадобилось бы дважды")
        self.written.add(name)
        if self._cycles(name, heads):
            exits[name] = set()
            body = self._code(name, heads + [name], exits)
            targets = exits.pop(name)
            if len(targets) > 1:
                raise CannotStructure(f"из цикла {name} несколько выходов")
            after = self._transfer(targets.pop(), heads, exits) if targets else []
            return [Loop(name, body, after)]
        return self._code(name, heads, exits)

    def _code(self, name: str, heads: list[str], exits: dict) -> list:
        state = self.a.state(name)
        jumps = {}
        for node in _transfers(state.stmts):
            target = node.label if isinstance(node, n.Goto) else FINAL
            jumps[id(node)] = self._jump(target, heads, exits)
        fall = None
        if any(e.kind == "fall" for e in state.edges):
            nxt = next(e.target for e in state.edges if e.kind == "fall")
            fall = self._jump(nxt, heads, exits)
        return [StateCode(name, state.stmts, jumps, fall)]

    def _transfer(self, target: str, heads: list[str], exits: dict) -> list:
        jump = self._jump(target, heads, exits)
        return jump.plan if jump.kind == "inline" else [jump]

    def _jump(self, target: str, heads: list[str], exits: dict) -> Jump:
        if target == FINAL:
            return Jump("final", target)
        if target == END:
            return Jump("end", target)
        if heads and target == heads[-1]:
            return Jump("continue", target)
        if target in heads:
            exits[heads[-1]].add(target)
            return Jump("break", target)
        return Jump("inline", target, self._state(target, heads, exits))

    def _cycles(self, name: str, heads: list[str]) -> bool:
        """Can control leave `name` and come back without passing an open loop's head?"""
        seen, stack = set(), [t for t in self.succ[name] if t not in heads]
        while stack:
            x = stack.pop()
            if x == name:
                return True
            if x in seen or x in heads or x in (FINAL, END):
                continue
            seen.add(x)
            stack.extend(self.succ.get(x, ()))
        return False


def _transfers(stmts) -> list:
    """The Goto and Stop nodes of a state, in order, outside nested definitions."""
    out = []
    for s in stmts:
        for node in n.walk(s):
            if isinstance(node, n.Goto | n.Stop):
                out.append(node)
    return out


def _goto_inside_loop(stmts) -> bool:
    return any(_GOTO_INSIDE_LOOP[type(s)](s) for s in stmts)


def _goto_in_loop_If(s: n.If) -> bool:
    return _goto_inside_loop(s.then.stmts) or s.else_ is not None and _goto_inside_loop(s.else_.stmts)


def _goto_in_loop_While(s) -> bool:
    return any(isinstance(x, n.Goto) for x in n.walk(s))


def _goto_in_loop_Assign(s) -> bool:
    return False


_goto_in_loop_For = _goto_in_loop_Loop = _goto_in_loop_While
_goto_in_loop_CallStmt = _goto_in_loop_Exit = _goto_in_loop_Print = _goto_in_loop_Read = _goto_in_loop_Screen = \
    _goto_in_loop_Stop = _goto_in_loop_Label = _goto_in_loop_Goto = _goto_in_loop_Assign
_GOTO_INSIDE_LOOP = n.arms("structuring, a goto inside a loop", globals(), "_goto_in_loop_")
