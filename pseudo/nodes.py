"""The AST: frozen dataclasses, each with the span of the source it comes from.

Expressions and statements are resolved: phrases are already `Call`s of their definitions,
labels named alone are already `Goto`s.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from fractions import Fraction

from .frontend.source import Span


@dataclass(frozen=True)
class Node:
    span: Span = field(compare=False, repr=False)


# ---- expressions ----

@dataclass(frozen=True)
class Const(Node):
    value: int | Fraction | bool | str


@dataclass(frozen=True)
class Var(Node):
    name: str


@dataclass(frozen=True)
class Index(Node):
    name: str
    indices: tuple[Expr, ...]


@dataclass(frozen=True)
class Call(Node):
    name: str  # the definition's key: a procedure's name or a phrase's «pattern»
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "-"
    operand: Expr


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * / ДЕЛ ОСТ ^
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Node):
    op: str  # = ≠ < ≤ > ≥
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Logical(Node):
    op: str  # И ИЛИ
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Node):
    operand: Expr


@dataclass(frozen=True)
class IfExpr(Node):
    cond: Expr
    then: Expr
    else_: Expr


Expr = Const | Var | Index | Call | Unary | Binary | Compare | Logical | Not | IfExpr
Target = Var | Index


# ---- statements ----

@dataclass(frozen=True)
class Assign(Node):
    target: Target
    value: Expr


@dataclass(frozen=True)
class CallStmt(Node):
    call: Call


@dataclass(frozen=True)
class If(Node):
    cond: Expr
    then: Block
    else_: Block | None


@dataclass(frozen=True)
class While(Node):
    cond: Expr
    body: Block


@dataclass(frozen=True)
class For(Node):
    var: str
    start: Expr
    step: Expr | None
    stop: Expr
    body: Block


@dataclass(frozen=True)
class Loop(Node):
    """ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ without a header: runs until КОНЧЕНО."""
    body: Block


@dataclass(frozen=True)
class Exit(Node):
    """КОНЧЕНО: leave the innermost endless loop."""


@dataclass(frozen=True)
class Print(Node):
    args: tuple[Expr, ...]
    newline: bool  # False for the trailing-comma form


@dataclass(frozen=True)
class Read(Node):
    targets: tuple[Target, ...]


@dataclass(frozen=True)
class Screen(Node):
    """A screen phrase: «очистить экран», «курсор в строку (l), столбец (c)», «пауза (n)»."""
    op: str  # "clear", "cursor", "pause"
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Stop(Node):
    """КОНЕЦ_РАБОТЫ, or the final state Я."""


@dataclass(frozen=True)
class Label(Node):
    name: str


@dataclass(frozen=True)
class Goto(Node):
    label: str
    explicit: bool  # ПЕРЕЙТИ К, as opposed to the label named alone


Stmt = Assign | CallStmt | If | While | For | Loop | Exit | Print | Read | Screen | Stop | Label | Goto


@dataclass(frozen=True)
class Block(Node):
    stmts: tuple[Stmt, ...]


# ---- definitions and the program ----

@dataclass(frozen=True)
class Param(Node):
    name: str
    by_ref: bool  # РЕЗ


@dataclass(frozen=True)
class Definition(Node):
    name: str  # procedure name, or «pattern» for a phrase
    params: tuple[Param, ...]
    body: Block | Expr  # an expression body makes a function
    locals: tuple[str, ...]  # parameters first, then ДЛЯ variables and РЕЗУЛЬТАТ
    is_phrase: bool = False
    words: tuple[str, ...] = ()  # a phrase's words and parameters, for readable names

    @property
    def is_function(self) -> bool:
        return not isinstance(self.body, Block)


@dataclass(frozen=True)
class Comment(Node):
    text: str


@dataclass(frozen=True)
class Program(Node):
    definitions: dict[str, Definition] = field(hash=False)
    main: Block
    comments: tuple[Comment, ...] = ()


EXPR_NODES = (Const, Var, Index, Call, Unary, Binary, Compare, Logical, Not, IfExpr)
STMT_NODES = (Assign, CallStmt, If, While, For, Loop, Exit, Print, Read, Screen, Stop, Label, Goto)


def children(node: Node):
    """The child nodes of a node, in source order."""
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, Node))


def blocks(s: Node) -> list[Block]:
    """The blocks a statement holds: ЕСЛИ's branches, a loop's body; none for the others."""
    match s:
        case If(then=then, else_=else_):
            return [then] if else_ is None else [then, else_]
        case While(body=body) | For(body=body) | Loop(body=body):
            return [body]
    return []


def has_labels(block: Block) -> bool:
    return any(isinstance(s, Label) for s in block.stmts)


def bodies(program: Program) -> list:
    """The main program and every definition's body: the roots to walk for the whole program."""
    return [program.main] + [d.body for d in program.definitions.values()]


def walk(node: Node):
    """The node and all its descendants, depth first."""
    yield node
    for child in children(node):
        yield from walk(child)


def rewrite(node, fn):
    """Rebuild a tree bottom-up; `fn(node)` returns the node to put in its place."""
    if not isinstance(node, Node):
        return node
    changes = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, Node):
            new = rewrite(value, fn)
        elif isinstance(value, tuple) and any(isinstance(v, Node) for v in value):
            new = tuple(rewrite(v, fn) for v in value)
        else:
            continue
        if new is not value:
            changes[f.name] = new
    return fn(replace(node, **changes) if changes else node)
