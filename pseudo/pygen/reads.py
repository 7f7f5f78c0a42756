"""Reads the fast code makes once, before a loop, rather than at every turn.

The book's searches read the same elements and rows at every turn of their loops: pentomino's
ИСКАТЬ (n) reads `конф[n]`, `к[n]` and the rows `кус[конф[n]]`, `ор[конф[n], i]`; peg
solitaire's РЕШИТЬ the row `доска[r]`; a short loop `ДЛЯ m := 1 ДО 5 ВЫПОЛНЯТЬ поле[к[n] +
d[о, m]] := кусок[о] ВЕРНУТЬСЯ` the row `d[о]` and `кусок[о]`. One pass over each function of
the fast code, once it is written, reads each of them once, into a name of its own, before the
outermost loop in which it stays the same:

    конф_n = конф[n]
    ор_конф_n = ор[конф_n]
    for i in range(1, кусков[конф_n] + 1):
        ор_конф_n_i = ор_конф_n[i]
        for j in …:
            о = ор_конф_n_i[j]

- its indices stay the same: made of constants, `+`, `-`, `*` and names that surely have a
  value and that no call can change (the function's value parameters, the variables of the
  loops around it that are locals of the function, names read before the loop), none of them
  assigned in the loop;
- a row (`ор[конф_n]` of `ор[конф_n][i][j]`) is one object for the whole run — made when
  first asked for, filled, never replaced — so it may be read before any loop;
- an element must be one nothing the loop runs can write: neither its own stores nor the
  functions it calls. What a function may write is summed up per array (`write_summaries`):
  nothing, anything, or — for one index — only the elements `p + c` for c between two bounds,
  p one of its value parameters that it never assigns; a call maps p to its argument.
  `ИСКАТЬ (n)` writes `к` and `конф` only at n + 1 and above, so `к[n]` stays the same in its
  loops. Indices are exact numbers, so `n + 1` is never `n`. An array reached other than by
  its elements (an element passed as РЕЗ: a `Ячейка` on it) is never read early.

The read is then made before the loop even when the loop would not make it (no turn, or a
branch of ЕСЛИ not taken). An element without a value is ПУСТО in a list, which fails only
where the program uses it; in a dict it is a KeyError, on which the fast code hands over to the
exact code (runtime/runner.py), which runs the program as written, from the start: an early read
changes how fast a program runs, never what it does. So as not to hand over needlessly, a read
its own condition guards (`k > 0 and a[k] > 0`) is not made early unless the same element is
read unguarded too, nor one in a branch of an ЕСЛИ whose test names a variable of its index
(`ЕСЛИ k > 1 ТО s := s + c[k - 1]`), out of the loops around that ЕСЛИ.
"""
from __future__ import annotations

import ast
import copy
import re

from ..runtime.exact import is_made_row
from .expressions import grown_row
from .syntax import integer_constant, name_at

ANY = "any"  # writes any element
READ_EARLY = ("dict", "list", "grown", "nested")  # the layouts of arrays whose reads may be made early
INFINITY = float("inf")


def take_out_of_loops(gen, written: list) -> None:
    """Every function of the fast code (`written`: (its BodyCode, the function)), in place."""
    functions = [fn for _, fn in written]
    arrays = {gen.names.var(a): gen.facts.index_counts[a] for a, layout in gen.layouts.items()
              if layout in READ_EARLY}
    nested = {gen.names.var(a) for a, layout in gen.layouts.items() if layout == "nested"}
    grown = {gen.names.var(a): lambda row, a=a: _grown(gen, a, row) for a, layout in gen.layouts.items()
             if layout == "grown"}
    shared = shared_arrays(functions, arrays)
    summaries = write_summaries(functions, arrays)
    by_name = {fn.name: fn for fn in functions}
    for code, fn in written:
        own = {gen.names.var(x) for x in code.locals - set(code.cells) - set(code.refs)}
        params = {gen.names.var(p) for p in code.value_params()} & own
        _OutOfLoops(fn, gen.names.fresh, arrays, shared, _Writes(arrays, by_name, summaries, fixed_params(fn)),
                    params, own, nested, grown)


def read_once_in_tests(gen, functions: list[ast.FunctionDef]) -> None:
    """In the test of an if or a while that calls nothing, an element or a row of an array read
    more than once is read once, where the test first reads it, and taken from there after:
    pentomino's `поле[к_n + d[о][2]] == 0 and поле[к_n + d[о][3]] == 0 and …` becomes
    `поле[к_n + (d_о := d[о])[2]] == 0 and поле[к_n + d_о[3]] == 0 and …`. Nothing in such a test
    can change an array or an index between its reads. The first read must be made whenever a
    later one is: it stands in the test's first operand (of И, ИЛИ), which has no condition of
    its own."""
    arrays = {gen.names.var(a) for a, layout in gen.layouts.items() if layout in READ_EARLY}
    for fn in functions:
        for node in ast.walk(fn):
            if isinstance(node, ast.If | ast.While):
                _read_once(node, arrays, gen.names.fresh)


def _read_once(node: ast.If | ast.While, arrays: set[str], fresh) -> None:
    test = node.test
    if any(isinstance(x, ast.Call | ast.NamedExpr | ast.IfExp | ast.Lambda | ast.comprehension) for x in ast.walk(test)):
        return
    first = test.values[0] if isinstance(test, ast.BoolOp) else test
    if any(isinstance(x, ast.BoolOp) or isinstance(x, ast.Compare) and len(x.ops) > 1 for x in ast.walk(first)):
        return
    parents = {id(test): (node, "test", 0)}  # id of a node → (its parent, the field, the place in it)
    for parent in ast.walk(test):
        for field, value in ast.iter_fields(parent):
            for i, child in enumerate(value if isinstance(value, list) else [value]):
                parents[id(child)] = (parent, field, i)
    reads = [x for x in _evaluated(test) if isinstance(x, ast.Subscript) and isinstance(x.ctx, ast.Load)
             and _chain(x)[1] in arrays]
    in_first = {id(x) for x in ast.walk(first)}
    inside_shared: set[int] = set()
    for read in sorted((x for x in reads if id(x) in in_first), key=lambda x: -len(ast.unparse(x))):
        if id(read) in inside_shared:
            continue
        text = ast.unparse(read)
        same = [x for x in reads if id(x) not in inside_shared and ast.unparse(x) == text]
        if len(same) < 2:
            continue
        name = fresh(_readable(text))
        for i, x in enumerate(same):  # in the order Python evaluates them: the first is in `first`
            inside_shared |= {id(y) for y in ast.walk(x)}
            taken = ast.NamedExpr(target=name_at(name, x, ast.Store()), value=x) if i == 0 else name_at(name, x)
            parent, field, index = parents[id(x)]
            if isinstance(getattr(parent, field), list):
                getattr(parent, field)[index] = ast.copy_location(taken, x)
            else:
                setattr(parent, field, ast.copy_location(taken, x))


def _evaluated(e: ast.AST) -> list[ast.AST]:
    """The nodes of an expression without calls in the order Python evaluates them (each after its parts)."""
    out = []
    for child in ast.iter_child_nodes(e):
        out += _evaluated(child)
    return out + [e]


def shared_arrays(functions: list[ast.FunctionDef], arrays: dict[str, int]) -> set[str]:
    """The `arrays` a function may reach other than by their elements: one some element or row
    of which is handed to anything (passed as РЕЗ: `Ячейка(a, k)`, `Ячейка(a[i], j)`)."""
    whole = set()  # ids of the nodes that are whole elements, or parts of them
    for f in functions:
        for x in ast.walk(f):
            if isinstance(x, ast.Subscript):
                chain, root = _chain(x)
                if root in arrays and len(chain) == arrays[root]:
                    whole |= {id(c) for c in chain} | {id(_below(chain[-1]))}
                    whole |= {id(c.func) for c in chain if is_made_row(c)}
                    whole |= {id(y) for c in chain if _is_grown_row(c) for y in ast.walk(c)
                              if isinstance(y, ast.Subscript | ast.Name) and _chain(y)[1] == root}
    out = set()
    for f in functions:
        for x in ast.walk(f):
            if isinstance(x, ast.Name | ast.Subscript) and id(x) not in whole:
                _, root = _chain(x) if isinstance(x, ast.Subscript) else ([], x.id)
                if root in arrays and isinstance(x.ctx, ast.Load):
                    out.add(root)
    return out


def _below(level: ast.expr) -> ast.expr:
    if isinstance(level, ast.Subscript):
        return level.value
    return level.body.value if _is_grown_row(level) else level.func.value


def _chain(e: ast.expr) -> tuple[list[ast.expr], str | None]:
    """The levels of `a[i][j]…` (or of `a.setdefault(i, {})[j]`, a row made where it is
    missing; of `(a[i] if i < len(a) else вырастить(a, i, …))[j]`, a row grown), outermost
    first, and the name under them."""
    chain = []
    while True:
        if isinstance(e, ast.Subscript):
            chain.append(e)
            e = e.value
        elif is_made_row(e):
            chain.append(e)
            e = e.func.value
        elif _is_grown_row(e):
            chain.append(e)
            e = e.body.value
        else:
            return chain, e.id if isinstance(e, ast.Name) else None


def _is_grown_row(e: ast.expr) -> bool:
    """`a[i] if … else f(a, i, …)`: the row of a list of rows that grows, made if it is missing
    (pygen/expressions.grown_row)."""
    return isinstance(e, ast.IfExp) and isinstance(e.body, ast.Subscript) and isinstance(e.body.value, ast.Name) \
        and isinstance(e.orelse, ast.Call) and bool(e.orelse.args) and isinstance(e.orelse.args[0], ast.Name) \
        and e.orelse.args[0].id == e.body.value.id


def _key(level: ast.expr) -> ast.expr:
    """The index a level of a chain takes: `i` of `a[i]`, of `a.setdefault(i, {})`, of a row grown."""
    if isinstance(level, ast.Subscript):
        return level.slice
    return level.body.slice if _is_grown_row(level) else level.args[0]


# ---- what functions may write ----

def write_summaries(functions: list[ast.FunctionDef], arrays: dict[str, int]) -> dict[str, dict]:
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
    params = {f.name: fixed_params(f) for f in functions}
    writes = {f.name: _Writes(arrays, by_name, summaries, params[f.name]) for f in functions}
    sites = {f.name: writes[f.name].sites(f.body) for f in functions}  # each function walked once
    pending = dict.fromkeys(by_name)  # an ordered set
    while pending:
        f = by_name[pending.popitem()[0]]
        found = writes[f.name].joined(*sites[f.name])
        old, params_of_f = summaries[f.name], params[f.name]
        summary = {a: _widened(old.get(a), w if w == ANY else (params_of_f.index(w[0]), w[1], w[2]))
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


class _Writes:
    """The elements of `arrays` that code may write, relative to `params` (name → offsets)."""

    def __init__(self, arrays: dict[str, int], by_name: dict, summaries: dict, params: list[str | None]):
        self.arrays, self.by_name, self.summaries = arrays, by_name, summaries
        self.params = {p for p in params if p is not None}

    def of(self, nodes: list[ast.AST]) -> dict[str, object]:
        return self.joined(*self.sites(nodes))

    def sites(self, nodes: list[ast.AST]) -> tuple[dict[str, object], list]:
        """What `nodes` write themselves, and their calls of the functions summed up: (callee,
        each argument relative to the parameters, or None)."""
        own: dict[str, object] = {}
        calls: list = []
        for node in nodes:
            self._visit(node, self.params, own, calls)
        return own, calls

    def joined(self, own: dict[str, object], calls: list) -> dict[str, object]:
        """What code with these sites may write, given what each function it calls may."""
        found = dict(own)
        for callee, args in calls:
            for array, w in self.summaries[callee].items():
                if w == ANY or w[0] >= len(args):
                    _add(found, array, None)
                    continue
                at = args[w[0]]
                _add(found, array, at and (at[0], at[1] + w[1], at[1] + w[2]))
        return found

    def _visit(self, node: ast.AST, params: set[str], own: dict, calls: list) -> None:
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            params = set()  # a function inside: its names are not the parameters
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            chain, root = _chain(node)
            if root in self.arrays:
                _add(own, root, _relative(node.slice, params) if len(chain) == 1 else None)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in self.arrays:
            _add(own, node.id, None)  # the array itself replaced
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.by_name:
            calls.append((node.func.id, [_relative(a, params) for a in node.args]))
        for child in ast.iter_child_nodes(node):
            self._visit(child, params, own, calls)


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


def _untouched(written, index: tuple[str, int, int] | None) -> bool:
    """Do writes `written` (None, ANY or (p, lo, hi)) surely miss the element at `index`?"""
    if written is None:
        return True
    if written == ANY or index is None or written[0] != index[0]:
        return False
    return not written[1] <= index[1] <= written[2]


# ---- the pass ----

class _Loop:
    """A loop around the code being read: the names steady in it, what it may write, and the
    names surely set in it (for the loops inside)."""
    __slots__ = ("inside", "node", "steady", "writes")

    def __init__(self, node, steady: set[str], writes: dict, inside: set[str]):
        self.node, self.steady, self.writes, self.inside = node, steady, writes, inside


class _OutOfLoops:
    def __init__(self, fn: ast.FunctionDef, fresh, arrays: dict[str, int], shared: set[str], writes: _Writes,
                 params: set[str], locals_: set[str], nested: set[str], grown: dict):
        self.fresh, self.arrays, self.shared, self.writes, self.nested_arrays = fresh, arrays, shared, writes, nested
        self.grown = grown  # the arrays of rows that grow → the row made if it is missing
        self.locals = locals_ - {x for s in ast.walk(fn) if isinstance(s, ast.Global | ast.Nonlocal) for x in s.names}
        self.params = params & self.locals
        self.nested = any(isinstance(x, ast.FunctionDef | ast.Lambda) for s in fn.body for x in ast.walk(s))
        self.before: dict[int, dict[str, tuple[str, ast.expr]]] = {}  # id(loop) → a read's text → (name, read)
        self.guards: list[tuple[int, set[str]]] = []  # each ЕСЛИ around: how many loops are around it, its test's names
        self.statements(fn.body, [])
        _insert_before(fn, self.before)

    def statements(self, stmts: list, loops: list[_Loop]) -> None:
        for s in stmts:
            self.statement(s, loops)

    def statement(self, s: ast.stmt, loops: list[_Loop]) -> None:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return  # its names are its own
        if isinstance(s, ast.For | ast.While):
            around = loops[-1].inside if loops else self.params
            inside = set(around)
            parts: list[ast.AST] = [s.test] if isinstance(s, ast.While) else [s.iter, s.target]
            if isinstance(s, ast.For):
                self.expressions(s, loops)  # its iter, evaluated once, before the loop
                if isinstance(s.target, ast.Name) and s.target.id in self.locals:
                    inside.add(s.target.id)
            assigned = {x.id for x in ast.walk(s) if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load)}
            within = loops + [_Loop(s, set(around) - assigned, self.writes.of(parts + s.body), inside)]
            if isinstance(s, ast.While):
                self.expressions(s, within)
            self.statements(s.body, within)
            self.statements(s.orelse, loops)
            return
        self.expressions(s, loops)
        if isinstance(s, ast.If):
            self.guards.append((len(loops), _names(s.test)))
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

    def expressions(self, node: ast.AST, loops: list[_Loop], guarded: bool = False) -> None:
        """Replace the reads in the expressions directly under `node`. `guarded`: they are
        evaluated only on a condition of the same expression (after И or ИЛИ, in a branch of
        `… if … else …`)."""
        if not loops:
            return
        for field, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items):
                if not isinstance(item, ast.expr):
                    continue
                inner = guarded or isinstance(node, ast.BoolOp) and i > 0 \
                    or isinstance(node, ast.IfExp) and field != "test"
                replacement = self.visit(item, loops, inner)
                if replacement is None:
                    continue
                if isinstance(value, list):
                    value[i] = replacement
                else:
                    setattr(node, field, replacement)

    def visit(self, e: ast.expr, loops: list[_Loop], guarded: bool) -> ast.Name | None:
        """The name `e` is read into before a loop, if it is a read that can be; the reads
        inside it replaced first (so that `ор[конф[n]]` reads the row of a name read before)."""
        chain, root = _chain(e) if isinstance(e, ast.Subscript) or is_made_row(e) else ([], None)
        if root not in self.arrays:
            self.expressions(e, loops, guarded)
            return None
        for c in chain:  # the indices first; the rows under it are read below
            if _is_grown_row(c):
                continue  # its index is a name, read in its test and its row
            index = self.visit(_key(c), loops, guarded)
            if index is not None:
                if isinstance(c, ast.Subscript):
                    c.slice = index
                else:
                    c.args[0] = index
        if isinstance(e, ast.Subscript) and not isinstance(e.ctx, ast.Load):  # a store: its row may be read early
            if len(chain) > 1:
                self.row(e, chain, root, loops, guarded)
            return None
        return self.read(e, chain, root, loops, guarded)

    def read(self, e: ast.expr, chain: list, root: str, loops: list[_Loop], guarded: bool) -> ast.Name | None:
        """`e` (an element or a row) read before the outermost loop it may be, or else its row."""
        found = self.placed(e, chain, root, loops, guarded)
        if found is None and len(chain) > 1:
            self.row(e, chain, root, loops, guarded)
        return found

    def row(self, e: ast.expr, chain: list, root: str, loops: list[_Loop], guarded: bool) -> None:
        """The row under `e` read before a loop, if it can be (a row of its row, if not)."""
        row = self.read(_below(e), chain[1:], root, loops, guarded)
        if row is None:
            return
        if isinstance(e, ast.Subscript):
            e.value = row
        else:
            e.func.value = row

    def placed(self, e: ast.expr, chain: list, root: str, loops: list[_Loop], guarded: bool) -> ast.Name | None:
        element = len(chain) == self.arrays[root]
        if element and (root in self.shared or self.nested):
            return None
        text = ast.unparse(e if isinstance(e, ast.Subscript) else _unmade(e))
        indices = set().union(*(_names(_key(c)) for c in chain))
        for depth, loop in enumerate(loops):
            taken = self.before.get(id(loop.node), {})
            if text in taken:
                return name_at(taken[text][0], e)
            if not all(_same(_key(c), loop.steady) for c in chain):
                continue
            if element:
                if guarded or any(inside > depth and indices & tested for inside, tested in self.guards):
                    continue  # the program keeps from reading it: `k > 0 and a[k] > 0`, `ЕСЛИ k > 1 ТО … c[k - 1]`
                if not _untouched(loop.writes.get(root), _relative(e.slice, loop.steady) if len(chain) == 1 else None):
                    continue
            if not element and len(chain) > 1 and isinstance(e, ast.Subscript):
                self.row(e, chain, root, loops, guarded)  # its own row read before the loops it stays in
            # a row of nested dicts read early is made if it is missing: a store into it may come later
            value = _made(e) if not element and root in self.nested_arrays else e
            if not element and root in self.grown and isinstance(e, ast.Subscript) and len(chain) == 1:
                value = self.grown[root](e)
            read = self.fresh(_readable(text))
            self.before.setdefault(id(loop.node), {})[text] = (read, value)
            for inner in loops[depth:]:  # read before this loop: a steady name there and inside
                inner.steady.add(read)
                inner.inside.add(read)
            return name_at(read, e)
        return None


def _made(row: ast.expr) -> ast.expr:
    """`a[i][j]`, a row of nested dicts, as `(r.get(j) or r.setdefault(j, {}))`, r being `a[i]`
    made the same way: the row, made if it is missing, with no dict built when it is not
    (`setdefault(j, {})` builds one at every read). The indices are steady names and
    constants: reading them twice costs nothing."""
    if isinstance(row, ast.Subscript):
        got = ast.Call(func=ast.Attribute(value=_made(row.value), attr="get", ctx=ast.Load()), args=[row.slice],
                       keywords=[])
        made = ast.Call(func=ast.Attribute(value=_made(row.value), attr="setdefault", ctx=ast.Load()),
                        args=[copy.deepcopy(row.slice), ast.Dict(keys=[], values=[])], keywords=[])
        return ast.copy_location(ast.BoolOp(op=ast.Or(), values=[got, made]), row)
    return row


def _unmade(row: ast.expr) -> ast.expr:
    """`a.setdefault(i, {})`, or a row grown, as the subscript `a[i]` it stands for (to name it)."""
    if is_made_row(row):
        return ast.Subscript(value=_unmade(row.func.value), slice=row.args[0], ctx=ast.Load())
    return row.body if _is_grown_row(row) else row


def _grown(gen, array: str, row: ast.Subscript) -> ast.expr:
    """The row `a[i]` of a list of rows that grows, read early: made if it is missing (its
    index is a steady name or a constant: read twice, it costs nothing)."""
    made = grown_row(row.value, row.slice, copy.deepcopy(row.slice), gen.row_sizes[array], gen.names.rt)
    return ast.fix_missing_locations(ast.copy_location(made, row))


def _same(e: ast.expr, steady: set[str]) -> bool:
    """Is `e` the same at every turn: constants, `+`, `-`, `*` and the `steady` names?"""
    match e:
        case ast.Constant():
            return True
        case ast.Name(id=name):
            return name in steady
        case ast.BinOp(op=ast.Add() | ast.Sub() | ast.Mult(), left=left, right=right):
            return _same(left, steady) and _same(right, steady)
        case ast.UnaryOp(op=ast.USub() | ast.UAdd(), operand=operand):
            return _same(operand, steady)
    return False


def _names(e: ast.expr) -> set[str]:
    return {x.id for x in ast.walk(e) if isinstance(x, ast.Name)}


def _readable(text: str) -> str:
    """`к[n]` → к_n, `d[поставлена[n]]` → d_поставлена_n."""
    return re.sub(r"\W+", "_", text).strip("_") or "элемент"


def _insert_before(node: ast.AST, before: dict[int, dict]) -> None:
    """Each read taken out of a loop (`before`: id of the loop → its text → (its name, the
    read)) made before its loop, in every statement list under `node`."""
    for field in ("body", "orelse", "finalbody", "handlers"):
        stmts = getattr(node, field, None)
        if not isinstance(stmts, list):
            continue
        out = []
        for s in stmts:
            if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                _insert_before(s, before)
            for py, read in before.get(id(s), {}).values():
                out.append(ast.copy_location(ast.Assign(targets=[name_at(py, s, ast.Store())], value=read), s))
            out.append(s)
        setattr(node, field, out)
