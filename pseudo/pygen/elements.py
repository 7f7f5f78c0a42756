"""Which elements of one-index arrays the fast code reads once, before a loop.

The search of pentomino reads `конф[n]` and `к[n]` at every turn of its loops, and the loops
call `найти первое свободное поле для (n + 1)` and `ИСКАТЬ (n + 1)`, which write `к` and `конф`,
but only above n. The fast code reads each once, before the outermost loop in which it stays
the same (`конф_n = конф[n]`), when

- its index is made of constants, `+`, `-`, `*` and names that surely have a value and that no
  call can change (the function's value parameters, the variables of the loops around it that
  are locals of the function), none of them assigned in the loop;
- nothing the loop runs can write that element: neither its own stores nor the functions it
  calls. What a function may write is summed up per array (`summaries`): nothing, anything, or
  only the elements `p + c` for c between two bounds (constants, or no bound), p one of its
  value parameters that it never assigns; a call maps p to its argument. `ИСКАТЬ (n)` writes
  `к` and `конф` only at n + 1 and above, so `к[n]` stays the same in its loops. Indices are
  exact numbers, so `n + 1` is never `n`.

An array used other than through subscripts (an element passed as РЕЗ is a `Ячейка` on the
array) is never read early.

The read is then made before the loop even when the loop would not make it (no turn, or a
branch of ЕСЛИ not taken): if the element has no value there, that is a KeyError, on which the
fast code hands over to the exact code (runner.run_program), which runs the program as written,
from the start. So an early read changes how fast a program runs, never what it does. A read
that its own condition guards (`k > 0 and a[k] > 0`, the way a program keeps from reading an
element without a value) is not made early, unless the same element is read unguarded too;
nor is one in a branch of an ЕСЛИ whose test names a variable of its index
(`ЕСЛИ k > 1 ТО s := s + c[k - 1]`), out of the loops around that ЕСЛИ.
"""
from __future__ import annotations

import ast

from .hoist import Same, insert_before, integer_constant, name_at, readable

ANY = "any"  # writes any element
INFINITY = float("inf")


def write_summaries(functions: list[ast.FunctionDef], arrays: set[str]) -> dict[str, dict]:
    """For each function (by Python name): array → ANY or (position of a parameter, lo, hi),
    the elements of `arrays` it may write, itself or through what it calls; a fixed point,
    where a function is summed up again only when one it calls has changed."""
    by_name = {f.name: f for f in functions}
    callers: dict[str, set[str]] = {f.name: set() for f in functions}
    for f in functions:
        for x in ast.walk(f):
            if isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id in by_name:
                callers[x.func.id].add(f.name)
    summaries: dict[str, dict] = {f.name: {} for f in functions}
    pending = dict.fromkeys(by_name)  # an ordered set
    while pending:
        f = by_name[pending.popitem()[0]]
        params = fixed_params(f)
        found = _Writes(arrays, by_name, summaries, params).of(f.body)
        old = summaries[f.name]
        summary = {a: _widened(old.get(a), w if w == ANY else (params.index(w[0]), w[1], w[2]))
                   for a, w in found.items()}
        if summary != old:
            summaries[f.name] = summary
            pending.update(dict.fromkeys(callers[f.name]))
    return summaries


def _widened(old, new):
    """`new` with each bound that moved past `old`'s taken as no bound: a recursion that moves
    its parameter (f(n) calls f(n + 1)) settles in one more pass, not in one pass per step."""
    if old is None or old == ANY or new == ANY or old[0] != new[0]:
        return new
    return new[0], new[1] if new[1] >= old[1] else -INFINITY, new[2] if new[2] <= old[2] else INFINITY


def fixed_params(f: ast.FunctionDef) -> list[str | None]:
    """The parameters of `f` by position; None for one it (or a function inside it) assigns."""
    assigned = {x.id for x in ast.walk(f) if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load)}
    assigned |= {n for x in ast.walk(f) if isinstance(x, ast.Global | ast.Nonlocal) for n in x.names}
    return [a.arg if a.arg not in assigned else None for a in f.args.args]


def shared_arrays(functions: list[ast.FunctionDef], arrays: set[str]) -> set[str]:
    """The `arrays` a function may reach other than by subscripts: one some element of which is
    passed as РЕЗ (`Ячейка(a, k, 'a')`), or the array itself handed to anything."""
    subscripted = {id(x.value) for f in functions for x in ast.walk(f) if isinstance(x, ast.Subscript)}
    return {x.id for f in functions for x in ast.walk(f)
            if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load) and x.id in arrays and id(x) not in subscripted}


class _Writes:
    """The elements of `arrays` that code may write, relative to `params` (name → offsets)."""

    def __init__(self, arrays: set[str], by_name: dict, summaries: dict, params: list[str | None]):
        self.arrays, self.by_name, self.summaries = arrays, by_name, summaries
        self.params = {p for p in params if p is not None}

    def of(self, nodes: list[ast.AST]) -> dict[str, object]:
        found: dict[str, object] = {}
        for node in nodes:
            self._visit(node, self.params, found)
        return found

    def _visit(self, node: ast.AST, params: set[str], found: dict) -> None:
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            params = set()  # a function inside: its names are not the parameters
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name) and node.value.id in self.arrays:
            _add(found, node.value.id, _relative(node.slice, params))
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in self.arrays:
            _add(found, node.id, None)  # the array itself replaced
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.by_name:
            for array, w in self.summaries[node.func.id].items():
                if w == ANY or w[0] >= len(node.args):
                    _add(found, array, None)
                    continue
                at = _relative(node.args[w[0]], params)
                _add(found, array, at and (at[0], at[1] + w[1], at[1] + w[2]))
        for child in ast.iter_child_nodes(node):
            self._visit(child, params, found)


def _relative(index: ast.expr, params: set[str]) -> tuple[str, int, int] | None:
    """`p`, `p + c`, `c + p`, `p - c` for a parameter p: (p, c, c); else None."""
    match index:
        case ast.Name(id=p) if p in params:
            return p, 0, 0
        case ast.BinOp(left=ast.Name(id=p), op=ast.Add() | ast.Sub() as op, right=c) if p in params:
            c = integer_constant(c)
            return None if c is None else (p, c, c) if isinstance(op, ast.Add) else (p, -c, -c)
        case ast.BinOp(left=c, op=ast.Add(), right=ast.Name(id=p)) if p in params:
            c = integer_constant(c)
            return None if c is None else (p, c, c)
    return None


def _add(found: dict, array: str, at: tuple[str, int, int] | None) -> None:
    """Join a write at `at` (None: anywhere) into `found`."""
    old = found.get(array)
    if old == ANY or at is None or old is not None and old[0] != at[0]:
        found[array] = ANY
        return
    found[array] = at if old is None else (at[0], min(old[1], at[1]), max(old[2], at[2]))


class ElementsOutOfLoops:
    """Reads of elements taken out of the loops of one function; `placed`: the names read
    before each loop (id of the loop → names), for the rows taken out after (rows.py)."""

    def __init__(self, fn: ast.FunctionDef, fresh, arrays: set[str], summaries: dict, by_name: dict,
                 params: set[str], locals_: set[str]):
        self.fresh, self.arrays = fresh, arrays
        self.params, self.locals = params, locals_
        self.writes = _Writes(arrays, by_name, summaries, fixed_params(fn))
        self.before: dict[int, dict[str, tuple[str, ast.expr]]] = {}
        self.placed: dict[int, set[str]] = {}
        self.guards: list[tuple[int, set[str]]] = []  # each ЕСЛИ around: how many loops are around it, its test's names
        self.statements(fn.body, [])
        insert_before(fn, self.before)

    def statements(self, stmts: list, loops: list) -> None:
        for s in stmts:
            self.statement(s, loops)

    def statement(self, s: ast.stmt, loops: list) -> None:
        """`loops`: the loops around `s`, outermost first: (loop, names steady in it, its writes,
        names surely set in it)."""
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return
        if isinstance(s, ast.For | ast.While):
            around = loops[-1][3] if loops else self.params
            inside = around
            parts: list[ast.AST] = [s.test] if isinstance(s, ast.While) else [s.iter, s.target]
            if isinstance(s, ast.For):
                self.expressions(s, loops)  # its iter, evaluated once, before the loop
                if isinstance(s.target, ast.Name) and s.target.id in self.locals:
                    inside = around | {s.target.id}
            assigned = {x.id for x in ast.walk(s) if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load)}
            within = loops + [(s, around - assigned, self.writes.of(parts + s.body), inside)]
            if isinstance(s, ast.While):
                self.expressions(s, within)
            self.statements(s.body, within)
            self.statements(s.orelse, loops)
            return
        self.expressions(s, loops)
        if isinstance(s, ast.If):
            self.guards.append((len(loops), {x.id for x in ast.walk(s.test) if isinstance(x, ast.Name)}))
            self.statements(s.body, loops)
            self.statements(s.orelse, loops)
            self.guards.pop()
            return
        for _, value in ast.iter_fields(s):
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, ast.stmt):
                    self.statement(item, loops)
                elif isinstance(item, ast.excepthandler):
                    self.statements(item.body, loops)

    def expressions(self, node: ast.AST, loops: list, guarded: bool = False) -> None:
        """Replace the element reads in the expressions directly under `node`. `guarded`: they
        are evaluated only on a condition of the same expression (after И or ИЛИ, in a branch of
        `… if … else …`), the way a program keeps from reading an element that has no value
        (`k > 0 and a[k] > 0`): such a read is made early only if an earlier one of the same
        element already is."""
        for field, value in ast.iter_fields(node):
            for i, item in enumerate(value if isinstance(value, list) else [value]):
                if not isinstance(item, ast.expr):
                    continue
                inner = guarded or isinstance(node, ast.BoolOp) and i > 0 \
                    or isinstance(node, ast.IfExp) and field != "test"
                loop = self._loop_for(item, loops)
                text = ast.unparse(item) if loop is not None else None
                if loop is None or inner and text not in self.before.get(id(loop), {}):
                    self.expressions(item, loops, inner)
                    continue
                taken = self.before.setdefault(id(loop), {})
                if text not in taken:
                    taken[text] = (self.fresh(readable(text)), item)
                    self.placed.setdefault(id(loop), set()).add(taken[text][0])
                replacement = name_at(taken[text][0], item)
                if isinstance(value, list):
                    value[i] = replacement
                else:
                    setattr(node, field, replacement)

    def _loop_for(self, e: ast.expr, loops: list) -> ast.stmt | None:
        """The outermost loop before which the element read `e` can be made, if any."""
        if not (isinstance(e, ast.Subscript) and isinstance(e.ctx, ast.Load) and isinstance(e.value, ast.Name)
                and e.value.id in self.arrays):
            return None
        array = e.value.id
        names = {x.id for x in ast.walk(e.slice) if isinstance(x, ast.Name)}
        for depth, (loop, steady, writes, _) in enumerate(loops):
            if any(inside > depth and names & tested for inside, tested in self.guards):
                continue  # an ЕСЛИ in the loop tests the index: `ЕСЛИ k > 1 ТО … c[k - 1]`
            if Same(set(), steady)(e.slice) and _untouched(writes.get(array), _relative(e.slice, steady)):
                return loop
        return None


def _untouched(written, index: tuple[str, int, int] | None) -> bool:
    """Do writes `written` (None, ANY or (p, lo, hi)) surely miss the element at `index`?"""
    if written is None:
        return True
    if written == ANY or index is None or written[0] != index[0]:
        return False
    return not written[1] <= index[1] <= written[2]
