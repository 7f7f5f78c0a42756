"""Short loops of a few constant values written out in the fast code, a copy of the body a value.

`ДЛЯ m := 1 ДО 5 ВЫПОЛНЯТЬ поле[к[n] + d[о, m]] := кусок[о] ВЕРНУТЬСЯ` is, in the fast code,
`for m in (1, 2, 3, 4, 5): …` (body.py lists the values of a short loop of constant bounds).
Its turns are counted with the run around it (weights.py), so the loop itself only assigns `m`
and jumps back: written out, it assigns `m` and runs a copy of its body for each value, in the
same order —

    m = 1
    поле[к_n + d_о[m]] = кусок_о
    m = 2
    …

— the same assignments of the same variable (it keeps the last value after, as the loop
leaves it), the same statements at the same places of the program, without the tuple's
iterator, its test and its jump (pentomino: 2 % fewer instructions in all). A loop whose
body may leave it (`break`, `continue`), holds a loop or a function of its own, or would make
more than SIZE nodes of code written out, stays a loop. The readable code keeps its loops.
"""
from __future__ import annotations

import ast
import copy

SIZE = 240  # at most this many nodes of code in all the copies of a body


def write_out_short_loops(fn: ast.FunctionDef) -> ast.FunctionDef:
    """Every loop of `fn` over a tuple of constants that can be written out is, in place."""
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and any(_written_out(s) for s in stmts):
                setattr(node, field, [x for s in stmts for x in (_copies(s) if _written_out(s) else [s])])
    return fn


def _written_out(s: ast.stmt) -> bool:
    if not (isinstance(s, ast.For) and isinstance(s.target, ast.Name) and isinstance(s.iter, ast.Tuple)
            and not s.orelse and all(_constant(v) for v in s.iter.elts)):
        return False
    inside = [x for b in s.body for x in ast.walk(b)]
    if any(isinstance(x, ast.Break | ast.Continue | ast.For | ast.While | ast.FunctionDef | ast.Lambda
                      | ast.ClassDef | ast.Try) for x in inside):
        return False
    return len(inside) * len(s.iter.elts) <= SIZE


def _constant(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) or isinstance(e, ast.UnaryOp) and isinstance(e.operand, ast.Constant)


def _copies(loop: ast.For) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for value in loop.iter.elts:
        target = ast.copy_location(ast.Name(id=loop.target.id, ctx=ast.Store()), loop.target)
        out.append(ast.copy_location(ast.Assign(targets=[target], value=copy.deepcopy(value)), loop))
        out += copy.deepcopy(loop.body)
    return out
