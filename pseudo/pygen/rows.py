"""Which rows of arrays of several indices the fast code takes out of loops.

The fast code keeps an array of several indices as rows of rows (`Строки`): `доска[r][c]` reads
the row `доска[r]`, then its element. A row, once made, stays the same object for the whole run
(it is made when first asked for and never replaced: elements are stored into it), and asking
for it never fails. So where its indices stay the same during a loop, the row is read once,
before the loop, whatever the loop calls:

    for r in range(1, 8):
        доска_r = доска[r]
        for c in range(1, 8):
            if not РЕЗУЛЬТАТ and доска_r[c] == КОЛЫШЕК:

when the row's indices are made of constants, `+`, `-`, `*` and names that surely have a value
and that no call can change: the function's value parameters and the variables of the loops
around it that are locals of the function, none of them assigned in the loop. The row is read
before the outermost loop in which that holds. A row asked for before a loop that then does not
use it is made empty; nothing sees it (the exact code, which reports the errors, has arrays of
its own).
"""
from __future__ import annotations

import ast

from .hoist import Same, array_of, insert_before, name_at, readable


def rows_out_of_loops(fn: ast.FunctionDef, fresh, arrays: set[str], params: set[str], locals_: set[str],
                      placed: dict[int, set[str]] | None = None) -> None:
    """Take the rows out of the loops of `fn` in place. `fresh(base)`: a new Python name;
    `arrays`: the Python names of the arrays kept as rows of rows; `params`: the value
    parameters; `locals_`: the names that are locals of `fn` (a loop's variable must be one);
    `placed`: the names assigned just before a loop, once (id of the loop → names: the
    elements read before it, elements.py), which a row read in the loop may use."""
    shared = {n for x in ast.walk(fn) if isinstance(x, ast.Nonlocal | ast.Global) for n in x.names}
    rows = _Rows(fresh, arrays, params - shared, locals_ - shared, placed or {})
    rows.statements(fn.body, [])
    if rows.before:
        insert_before(fn, rows.before)


class _Loop:
    def __init__(self, node: ast.For | ast.While, around: set[str]):
        self.node = node
        self.assigned = {x.id for x in ast.walk(node) if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load)}
        # the names surely set around the loop that no call can change, and not assigned in it
        self.steady = Same(set(), around - self.assigned)


class _Rows:
    def __init__(self, fresh, arrays: set[str], params: set[str], locals_: set[str], placed: dict[int, set[str]]):
        self.fresh, self.arrays, self.params, self.locals, self.placed = fresh, arrays, params, locals_, placed
        self.before: dict[int, dict[str, tuple[str, ast.expr]]] = {}  # id(loop) → a row's text → (name, row)

    def statements(self, stmts: list, loops: list[tuple[_Loop, set[str]]]) -> None:
        for s in stmts:
            self.statement(s, loops)

    def statement(self, s: ast.stmt, loops: list[tuple[_Loop, set[str]]]) -> None:
        """`loops`: the loops around `s`, outermost first, each with the names surely set in it."""
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return  # its names are its own
        if isinstance(s, ast.For | ast.While):
            around = (loops[-1][1] if loops else self.params) | self.placed.get(id(s), set())
            inside = around
            if isinstance(s, ast.For):
                self.expression(s.iter, loops)  # evaluated once, before the loop
                if isinstance(s.target, ast.Name) and s.target.id in self.locals:
                    inside = around | {s.target.id}
            within = loops + [(_Loop(s, around), inside)]
            if isinstance(s, ast.While):
                self.expression(s.test, within)
            self.statements(s.body, within)
            self.statements(s.orelse, loops)
            return
        for value in (v for _, v in ast.iter_fields(s)):
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, ast.stmt):
                    self.statement(item, loops)
                elif isinstance(item, ast.excepthandler):
                    self.statements(item.body, loops)
                elif isinstance(item, ast.expr):
                    self.expression(item, loops)

    def expression(self, e: ast.expr, loops: list[tuple[_Loop, set[str]]]) -> None:
        """Replace in `e` each row that some loop around it reads the same at every turn."""
        for field, value in ast.iter_fields(e):
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.expr):
                        self.expression(item, loops)
                continue
            if not isinstance(value, ast.expr):
                continue
            if field == "value" and isinstance(e, ast.Subscript) and isinstance(value, ast.Subscript) \
                    and array_of(value) in self.arrays:
                loop = next((lp for lp, _ in loops if all(lp.steady(i) for i in _indices(value))), None)
                if loop is not None:
                    text = ast.unparse(value)
                    taken = self.before.setdefault(id(loop.node), {})
                    if text not in taken:
                        taken[text] = (self.fresh(readable(text)), value)
                    e.value = name_at(taken[text][0], value)
                    continue
            self.expression(value, loops)


def _indices(row: ast.Subscript) -> list[ast.expr]:
    out = []
    while isinstance(row, ast.Subscript):
        out.append(row.slice)
        row = row.value
    return out
