"""Building the Python `ast` the generator writes: nodes placed at the program's text, comments
carried through the tree, integers written as Python writes them."""
from __future__ import annotations

import ast

from ..frontend.source import Span

COMMENT = "__pseudo_comment__"
# The attribute of a definition nested in the exact code that names the file it comes from (the
# positions of an emitted file are found per file; the exact code is one function of them all).
SOURCE_FILE = "pseudo_source_file"
WRITTEN_OUT = "pseudo_written_out"  # marks a function's code written out in place of a call: it keeps its places


def at(node, span: Span | None):
    """Give a generated node the position of the program text it comes from."""
    if span is not None:
        col, end_col = span.utf8_columns()
        node.lineno, node.col_offset = span.line, col
        node.end_lineno, node.end_col_offset = span.end_line, end_col
    return node


def entry_position(node, span: Span):
    """Column 1 of a definition's header, zero wide: an error there is reported at the call."""
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = span.line, 0, span.line, 0
    return node


def name(id_: str, span=None, ctx=None):
    return at(ast.Name(id=id_, ctx=ctx or ast.Load()), span)


def name_at(py: str, where: ast.AST, ctx=None) -> ast.Name:
    """A name at the place of another node of the generated code."""
    return ast.copy_location(ast.Name(id=py, ctx=ctx or ast.Load()), where)


def call(func: str, args, span=None, keywords=()):
    return at(ast.Call(func=name(func, span), args=list(args), keywords=list(keywords)), span)


def statement(value: ast.expr, span=None) -> ast.stmt:
    return at(ast.Expr(value), span)


def assign(target: ast.expr, value: ast.expr, span=None) -> ast.stmt:
    return at(ast.Assign(targets=[target], value=value), span)


def attribute(value: ast.expr, attr: str, span=None, ctx=None):
    return at(ast.Attribute(value=value, attr=attr, ctx=ctx or ast.Load()), span)


def function(name_: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[], kw_defaults=[],
                         defaults=[])
    fn = ast.FunctionDef(name=name_, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        fn.type_params = []
    return fn


def comment(text: str) -> ast.stmt:
    """A comment travels through the tree as a call of a marker name; emit.py writes it as `#`
    lines, and code compiled in memory drops it (`strip_comments`)."""
    return ast.Expr(ast.Call(func=ast.Name(id=COMMENT, ctx=ast.Load()), args=[ast.Constant(text)], keywords=[]))


def is_comment(s) -> bool:
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id == COMMENT)


class _StripComments(ast.NodeTransformer):
    def generic_visit(self, node):
        super().generic_visit(node)
        for field_ in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field_, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                kept = [s for s in stmts if not is_comment(s)]
                setattr(node, field_, kept or ([ast.Pass()] if field_ == "body" else []))
        return node


def strip_comments(module: ast.Module) -> ast.Module:
    return _StripComments().visit(module)


def integer(value: int) -> ast.expr:
    """An integer as Python writes it: a negative one is `-` applied to a constant."""
    return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-value)) if value < 0 else ast.Constant(value)


def integer_constant(e: ast.expr) -> int | None:
    """The integer that `e` writes as a constant (`5`, or `-5`: minus applied to a constant)."""
    match e:
        case ast.Constant(value=int(c)) if type(c) is int:
            return c
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int(c))) if type(c) is int:
            return -c
    return None


def place_of(span: Span) -> tuple:
    return (span.filename, span.line, span.column, span.end_line, span.end_column)
