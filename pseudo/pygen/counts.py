"""The fast code's count of steps, made cheaper once a function is written.

The fast code counts steps in two globals of its module: `счёт_шагов += w`, then, when the count
passes `рубеж`, `рубеж = пределы(счёт_шагов)` looks at the limits (Ctrl-C, time, steps). Two
passes over a written function make that cheaper without changing what is counted:
- `merge_counts`: two counts in a row become one; the counts a call makes at most once are made
  at its start, at once;
- `counted_in_locals`: a loop keeps its count in a local variable, which Python reads and writes
  faster than a global, and writes it back where it ends. Where it calls what counts (a
  definition of the program, a function of its own), the statements that call are a stretch
  that counts in the global: the local is written back before it and read again after it —
  pentomino's ИСКАТЬ counts its turns in a local and hands the count over only around the
  calls of a piece that fits. A loop that can leave other than by its end or `break` (`return`,
  `raise`, inside `try`), or a stretch that calls and may `break` or `continue`, is left as it
  is: its count would be lost; so is one that calls at every turn (a stretch not inside an
  if), which would hand its count over at every turn. The boundary stays the global `рубеж`,
  read at each count: a Ctrl-C sets it to -1, and the loop stops at its next step, where the
  interpreter does.
"""
from __future__ import annotations

import ast

from .syntax import name_at

COUNTING = frozenset({"войти", "выйти", "шаг"})  # the runtime's functions that count steps


def count_of(stmts: list, i: int, steps: str) -> int | None:
    """The weight of a count (`счёт_шагов += w` and its look at the boundary) at stmts[i]."""
    if i + 1 >= len(stmts):
        return None
    add, look = stmts[i], stmts[i + 1]
    if isinstance(add, ast.AugAssign) and isinstance(add.target, ast.Name) and add.target.id == steps \
            and isinstance(look, ast.If) and isinstance(look.test, ast.Compare) \
            and isinstance(look.test.left, ast.Name) and look.test.left.id == steps:
        return add.value.value
    return None


def merge_counts(fn: ast.FunctionDef, steps: str) -> ast.FunctionDef:
    """Two counts in a row become one, of both weights (a call's entry, then the count of a
    loop before it); and where the function counts at its start, the counts it makes at most
    once a call — outside its loops — are made there, at once."""
    first = next((i for i in range(len(fn.body)) if count_of(fn.body, i, steps) is not None), None)
    if first is not None:
        fn.body[first].value = ast.Constant(count_of(fn.body, first, steps) + _take_counts(fn.body, steps, first + 2))
    for node in ast.walk(fn):
        for field_ in ("body", "orelse"):
            stmts = getattr(node, field_, None)
            if not isinstance(stmts, list):
                continue
            i = 0
            while i < len(stmts):
                first, second = count_of(stmts, i, steps), count_of(stmts, i + 2, steps)
                if first is not None and second is not None:
                    stmts[i].value = ast.Constant(first + second)
                    del stmts[i + 2:i + 4]
                    continue
                i += 1
    return fn


def _take_counts(stmts: list, steps: str, i: int = 0) -> int:
    """Remove the counts of stmts[i:] that run at most once (not in a loop or a nested
    function); their weight."""
    taken = 0
    while i < len(stmts):
        weight = count_of(stmts, i, steps)
        if weight is not None:
            taken += weight
            del stmts[i:i + 2]
            continue
        if isinstance(stmts[i], ast.If):
            taken += _take_counts(stmts[i].body, steps) + _take_counts(stmts[i].orelse, steps)
            if not stmts[i].body:
                stmts[i].body = [ast.Pass()]
        i += 1
    return taken


def counted_in_locals(fn: ast.FunctionDef, steps: str, fresh, callable_: frozenset[str]) -> ast.FunctionDef:
    """Each outermost loop of `fn` that counts and may count in a local does (see the module's
    docstring); `fresh(base)` names the local; `callable_`: the names a call in such a loop may
    name (the runtime's functions that do not count, and Python's builtins)."""
    names: list[str] = []

    def local_name() -> str:
        if not names:
            names.append(fresh("шагов"))
        return names[0]
    _in_lists(fn, steps, local_name, callable_)
    return fn


def _in_lists(node: ast.AST, steps: str, local_name, callable_) -> None:
    for field_ in ("body", "orelse", "finalbody"):
        stmts = getattr(node, field_, None)
        if not isinstance(stmts, list):
            continue
        i = 0
        while i < len(stmts):
            s = stmts[i]
            if isinstance(s, ast.While | ast.For) and _may_count_in_locals(s, steps, callable_):
                local = local_name()
                stretches = _Stretches(steps, local, callable_)
                stretches.loop(s)
                load = ast.Assign(targets=[name_at(local, s, ast.Store())], value=name_at(steps, s))
                back = ast.Assign(targets=[name_at(steps, s, ast.Store())], value=name_at(local, s))
                stmts[i:i + 1] = [ast.copy_location(load, s), s, ast.copy_location(back, s)]  # at the loop's place
                i += 3
                continue
            if not isinstance(s, ast.FunctionDef | ast.ClassDef | ast.Lambda):
                _in_lists(s, steps, local_name, callable_)
            i += 1


def _may_count_in_locals(loop: ast.stmt, steps: str, callable_) -> bool:
    """Does the loop leave only by its end or `break`, and count outside the stretches that call?"""
    for x in ast.walk(loop):
        if isinstance(x, ast.Return | ast.Raise | ast.Try | ast.TryStar | ast.Global | ast.Nonlocal | ast.Yield
                      | ast.YieldFrom | ast.Await | ast.FunctionDef | ast.Lambda | ast.ClassDef):
            return False
    probe = _Stretches(steps, steps, callable_)
    probe.loop(loop, rewrite=False)
    return probe.possible and probe.counts_outside


def _counts_not(x: ast.AST, callable_) -> bool:
    """A call that counts no steps: of a runtime function that does not count, of Python's, or a
    row of a dict of dicts (`.get`, `.setdefault`)."""
    if isinstance(x.func, ast.Name):
        return x.func.id in callable_
    return isinstance(x.func, ast.Attribute) and x.func.attr in ("get", "setdefault")


class _Stretches:
    """The count of a loop in the local `local`: every statement that calls nothing that counts
    counts in it; a run of statements that call (each containing a call that counts) is a
    stretch, before which the local is written back to the global `steps` and after which it is
    read again; an if or a loop whose test calls nothing that counts is entered, and its bodies
    cut the same way. `possible`: no stretch may `break` or `continue` (it would skip the read
    after it), and none is made at every turn of a loop; `counts_outside`: some count is made in
    the local."""

    def __init__(self, steps: str, local: str, callable_):
        self.steps, self.local, self.callable_ = steps, local, callable_
        self.possible, self.counts_outside, self.rewrite = True, False, True

    def calls(self, node: ast.AST) -> bool:
        return any(isinstance(x, ast.Call) and not _counts_not(x, self.callable_) for x in ast.walk(node))

    def loop(self, loop: ast.stmt, rewrite: bool = True) -> None:
        self.rewrite = rewrite
        self.enter(loop)

    def enter(self, s: ast.stmt) -> None:
        """An if or a loop whose head calls nothing that counts: its head counts in the local, its bodies are cut."""
        heads = [s.target, s.iter] if isinstance(s, ast.For) else [s.test]
        for head in heads:
            self.local_count(head)
        s.body = self.cut(s.body, every_turn=not isinstance(s, ast.If))
        s.orelse = self.cut(s.orelse)

    def local_count(self, node: ast.AST) -> None:
        for x in ast.walk(node):
            if isinstance(x, ast.Name) and x.id == self.steps:
                self.counts_outside = True
                if self.rewrite:
                    x.id = self.local

    def cut(self, stmts: list[ast.stmt], every_turn: bool = False) -> list[ast.stmt]:
        """The statements of a body, its stretches marked; `every_turn`: the body of a loop. A
        count just before a stretch is made in it (it would be handed over at once)."""
        calling = []
        for i, s in enumerate(stmts):
            head = [s.iter] if isinstance(s, ast.For) else [s.test] if isinstance(s, ast.If | ast.While) else None
            entered = head is not None and not (calling and calling[-1]) and not any(self.calls(h) for h in head)
            calling.append(self.calls(s) and not entered)
        for i in range(len(stmts)):
            if calling[i] and (i == 0 or not calling[i - 1]):
                j = i - 2
                while j >= 0 and not calling[j] and count_of(stmts, j, self.steps) is not None:
                    calling[j] = calling[j + 1] = True
                    j -= 2
        if every_turn and any(calling):
            self.possible = False
        out: list[ast.stmt] = []
        stretch: list[ast.stmt] = []
        for s, calls in zip(stmts, calling):
            if calls:
                stretch.append(s)
                continue
            out += self.stretch(stretch)
            stretch = []
            if self.calls(s):
                self.enter(s)
            else:
                self.local_count(s)
            out.append(s)
        return out + self.stretch(stretch)

    def stretch(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        if not stmts:
            return []
        if any(isinstance(x, ast.Break | ast.Continue) for s in stmts for x in ast.walk(s)):
            self.possible = False
        if not self.rewrite:
            return stmts
        back = ast.Assign(targets=[name_at(self.steps, stmts[0], ast.Store())], value=name_at(self.local, stmts[0]))
        again = ast.Assign(targets=[name_at(self.local, stmts[-1], ast.Store())], value=name_at(self.steps, stmts[-1]))
        return [ast.copy_location(back, stmts[0]), *stmts, ast.copy_location(again, stmts[-1])]
