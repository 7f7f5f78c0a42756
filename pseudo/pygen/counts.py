"""The fast code's count of steps, made cheaper once a function is written.

The fast code counts steps in two globals of its module: `счёт_шагов += w`, then, when the count
passes `рубеж`, `рубеж = пределы(счёт_шагов)` looks at the limits (Ctrl-C, time, steps). Two
passes over a written function make that cheaper without changing what is counted:
- `merge_counts`: two counts in a row become one; the counts a call makes at most once are made
  at its start, at once;
- `counted_in_locals`: a loop that calls nothing that counts (no definition of the program, no
  function of its own) keeps its count in a local variable, which Python reads and writes faster
  than a global, and writes it back where it ends. A loop that can leave other than by its end
  or `break` (`return`, `raise`, inside `try`) is left as it is: its count would be lost. The
  boundary stays the global `рубеж`, read at each count: a Ctrl-C sets it to -1, and the loop
  stops at its next step, where the interpreter does.
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
                _rename(s, steps, local)
                load = ast.Assign(targets=[name_at(local, s, ast.Store())], value=name_at(steps, s))
                back = ast.Assign(targets=[name_at(steps, s, ast.Store())], value=name_at(local, s))
                stmts[i:i + 1] = [ast.copy_location(load, s), s, ast.copy_location(back, s)]  # at the loop's place
                i += 3
                continue
            if not isinstance(s, ast.FunctionDef | ast.ClassDef | ast.Lambda):
                _in_lists(s, steps, local_name, callable_)
            i += 1


def _may_count_in_locals(loop: ast.stmt, steps: str, callable_) -> bool:
    counts = False
    for x in ast.walk(loop):
        if isinstance(x, ast.Return | ast.Raise | ast.Try | ast.TryStar | ast.Global | ast.Nonlocal | ast.Yield
                      | ast.YieldFrom | ast.Await | ast.FunctionDef | ast.Lambda | ast.ClassDef):
            return False
        if isinstance(x, ast.Call) and not (isinstance(x.func, ast.Name) and x.func.id in callable_):
            return False
        if isinstance(x, ast.Name) and x.id == steps:
            counts = True
    return counts


def _rename(root: ast.AST, old: str, new: str) -> None:
    for x in ast.walk(root):
        if isinstance(x, ast.Name) and x.id == old:
            x.id = new
