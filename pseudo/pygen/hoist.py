"""Which array reads the fast code takes out of a loop.

A short loop of constant bounds over the book's arrays reads the same elements at every turn:

    ДЛЯ m := 1 ДО 5 ВЫПОЛНЯТЬ поле[к[n] + d[о, m]] := кусок[о] ВЕРНУТЬСЯ

reads `к[n]`, the row `d[о]` and `кусок[о]` five times. The fast code reads each once, before the
loop, into a name of its own (`к_n = к[n]`), when

- the loop runs at least once (its bounds are constants), has no loop inside and calls nothing,
  so that nothing it runs changes an array but its own stores;
- the read can fail only as a read of an element never assigned: its array is a plain dict of the
  fast code (rows of rows for several indices; not a `Массив`), and its indices are made of
  constants, `+`, `-`, `*` and names that surely have a value (the function's value parameters,
  the variables of the ДЛЯ around the loop): a division by zero, a variable without a value or a
  `Массив`'s own error before the loop would come before an error the loop makes first;
- the loop neither stores to the read's array (nor any row of it) nor assigns its index names;
- the read is made at every turn: in one of the loop's own statements, before any КОНЧЕНО, not
  in a branch of ЕСЛИ nor after И or ИЛИ.

A read of an element never assigned then fails before the loop rather than in it: a KeyError,
on which the fast code hands over to the exact code (runner.run_program), which fails where the
program does. The exact code reads as the program is written.
"""
from __future__ import annotations

import ast
import re

_CONDITIONAL = (ast.BoolOp, ast.IfExp)  # in a loop that calls nothing, the only parts evaluated on a condition


def hoisted(loop: ast.For, fresh, arrays: set[str], bound: set[str]) -> list[ast.stmt]:
    """The loop, preceded by the reads taken out of it (none if it does not qualify).
    `fresh(base)`: a Python name no other name of the program has; `arrays`: the Python names of
    the plain arrays; `bound`: those of the variables that surely have a value here."""
    if not _qualifies(loop):
        return [loop]
    body = ast.Module(body=loop.body, type_ignores=[])
    assigned = {x.id for x in ast.walk(body) if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load)}
    stored = {array_of(x) for x in ast.walk(body) if isinstance(x, ast.Subscript) and not isinstance(x.ctx, ast.Load)}
    same = Same(arrays - stored, bound - assigned - _names(loop.target))
    reads: dict[str, tuple[str, ast.expr]] = {}  # the read's text → (its name, the read)
    for statement in loop.body:  # each runs at every turn: the body has no break (_qualifies)
        if isinstance(statement, ast.If):
            _replace_in(statement, same, reads, fresh, only="test")
        elif isinstance(statement, ast.Assign | ast.AugAssign | ast.Expr):
            _replace_in(statement, same, reads, fresh)
    before = [ast.copy_location(ast.Assign(targets=[name_at(py, node, ast.Store())], value=node), loop)
              for py, node in reads.values()]
    return [*before, loop]


def _qualifies(loop: ast.For) -> bool:
    if not _turns_at_least_once(loop.iter) or loop.orelse:
        return False
    leaves = ast.Call | ast.For | ast.While | ast.Attribute | ast.Break | ast.Continue | ast.Return | ast.Raise
    return not any(isinstance(x, leaves | ast.Global | ast.Nonlocal) for s in loop.body for x in ast.walk(s))


def _turns_at_least_once(it: ast.expr) -> bool:
    """Is `it` a constant progression of at least one value: `range(1, 8)` or `(1, 2, 3, 4)`?"""
    if isinstance(it, ast.Tuple):
        return bool(it.elts)  # the generator lists only integer constants
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords):
        return False
    bounds = [integer_constant(a) for a in it.args]
    return None not in bounds and bool(range(*bounds))


def integer_constant(e: ast.expr) -> int | None:
    """The integer that `e` writes as a constant (`5`, or `-5`: minus applied to a constant)."""
    match e:
        case ast.Constant(value=int(c)) if type(c) is int:
            return c
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int(c))) if type(c) is int:
            return -c
    return None


class Same:
    """What has the same value at every turn and can fail only as a KeyError: reads of the
    `arrays` (plain, and not stored to in the loop) whose indices are constants, `+`, `-`, `*`
    and the `names` (surely set, and not assigned in the loop)."""

    def __init__(self, arrays: set[str], names: set[str]):
        self.arrays, self.names = arrays, names

    def __call__(self, e: ast.expr) -> bool:
        match e:
            case ast.Constant():
                return True
            case ast.Name(id=name):
                return name in self.names
            case ast.Subscript(value=ast.Name(id=array), slice=index):
                return array in self.arrays and self(index)
            case ast.Subscript(value=ast.Subscript() as row, slice=index):  # rows of rows: a[i][j]
                return self(row) and self(index)
            case ast.BinOp(op=ast.Add() | ast.Sub() | ast.Mult(), left=left, right=right):
                return self(left) and self(right)
            case ast.UnaryOp(op=ast.USub() | ast.UAdd(), operand=operand):
                return self(operand)
        return False


def _replace_in(node: ast.AST, same: Same, reads: dict, fresh, only=None) -> None:
    """Replace in place each outermost read of `node` (of its field `only`, if given) that
    every evaluation of `node` makes and that is the same at every turn."""
    for field, value in ast.iter_fields(node):
        if only is not None and field != only:
            continue
        children = value if isinstance(value, list) else [value]
        for i, child in enumerate(children):
            if not isinstance(child, ast.AST) or isinstance(child, _CONDITIONAL) \
                    or isinstance(child, ast.Compare) and len(child.ops) > 1:  # a chain stops early
                continue
            if isinstance(child, ast.Subscript) and isinstance(child.ctx, ast.Load) and same(child):
                text = ast.unparse(child)
                if text not in reads:
                    reads[text] = (fresh(readable(text)), child)
                replacement = name_at(reads[text][0], child)
                if isinstance(value, list):
                    value[i] = replacement
                else:
                    setattr(node, field, replacement)
            else:
                _replace_in(child, same, reads, fresh)


def array_of(e: ast.expr) -> str | None:
    """The array of a read or store: the name under its subscripts (a row's array too)."""
    while isinstance(e, ast.Subscript):
        e = e.value
    return e.id if isinstance(e, ast.Name) else None


def _names(target: ast.expr) -> set[str]:
    return {x.id for x in ast.walk(target) if isinstance(x, ast.Name)}


def name_at(py: str, where: ast.AST, ctx=None) -> ast.Name:
    """A name at the place of another node of the generated code."""
    return ast.copy_location(ast.Name(id=py, ctx=ctx or ast.Load()), where)


def readable(text: str) -> str:
    """`к[n]` → к_n, `d[поставлена[n]]` → d_поставлена_n."""
    return re.sub(r"\W+", "_", text).strip("_") or "элемент"


def insert_before(node: ast.AST, before: dict[int, dict]) -> None:
    """Each read taken out of a loop (`before`: id of the loop → its text → (its name, the
    read)) made before its loop, in every statement list under `node`."""
    for field in ("body", "orelse", "finalbody", "handlers"):
        stmts = getattr(node, field, None)
        if not isinstance(stmts, list):
            continue
        out = []
        for s in stmts:
            if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                insert_before(s, before)
            for py, row in before.get(id(s), {}).values():
                out.append(ast.copy_location(ast.Assign(targets=[name_at(py, s, ast.Store())], value=row), s))
            out.append(s)
        setattr(node, field, out)
