"""The AST: one small class per construct, each with the span of the source it comes from.

Expressions and statements are resolved: phrases are already `Call`s of their definitions,
labels named alone are already `Goto`s. A node's fields are listed in `fields`; nodes are not
changed once built (`rewrite` builds new ones) and compare equal when their fields are equal,
wherever they stand. They are plain classes with slots rather than dataclasses: a program is
loaded at every start, and building thirty dataclasses is most of an import's time; each
class's constructor is written out when its first node is made (`_constructor`).
"""
from __future__ import annotations

import re

from .frontend.source import Span


class Node:
    __slots__ = ("span",)
    fields: tuple[str, ...] = ()
    defaults: tuple[tuple[str, object], ...] = ()  # (field, value) of the fields that may be left out

    def __init__(self, span: Span | None):
        self.span = span

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__init__ = _first_init

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.fields)

    def __hash__(self) -> int:
        return hash((type(self).__name__, *(_hashable(getattr(self, f)) for f in self.fields)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.fields)})"

    def replace(self, **changes) -> Node:
        return type(self)(self.span, **{f: changes.get(f, getattr(self, f)) for f in self.fields})


def _first_init(self, span, *args, **named):
    """A class's first node writes the class's constructor (not every class is used at a start)."""
    cls = type(self)
    cls.__init__ = _constructor(cls.fields, dict(cls.defaults))
    cls.__init__(self, span, *args, **named)


def _constructor(fields: tuple[str, ...], defaults: dict[str, object]):
    """`__init__(self, span, field, …, field=default)`, written out for each class: a long
    program makes hundreds of thousands of nodes, and a loop over the fields cost twice as much."""
    params = "".join(f", {f}=_defaults[{f!r}]" if f in defaults else f", {f}" for f in fields)
    body = "".join(f"\n    self.{f} = {f}" for f in fields)
    namespace = {"_defaults": defaults}
    exec(f"def __init__(self, span{params}):\n    self.span = span{body}", namespace)  # noqa: S102 - our own text
    return namespace["__init__"]


def _hashable(value):
    return id(value) if isinstance(value, dict) else value


# ---- expressions ----

class Const(Node):
    # value: int | Fraction | bool | str
    __slots__ = fields = ("value",)


class Var(Node):
    # name: str
    __slots__ = fields = ("name",)


class Index(Node):
    # name: str
    # indices: tuple[Expr, ...]
    __slots__ = fields = ("name", "indices")


class Call(Node):
    # name: str # the definition's key: a procedure's name or a phrase's «pattern»
    # args: tuple[Expr, ...]
    __slots__ = fields = ("name", "args")


class BuiltinCall(Node):
    """A built-in function (ДЛИНА(s), СЛУЧАЙНОЕ(n) …) or the condition «ввод кончился»."""
    # name: str # as the runtime's library names it: "ДЛИНА", …, "ввод кончился"
    # args: tuple[Expr, ...]
    __slots__ = fields = ("name", "args")


class Unary(Node):
    # op: str # "-"
    # operand: Expr
    __slots__ = fields = ("op", "operand")


class Binary(Node):
    # op: str # + - * / ДЕЛ ОСТ ^
    # left: Expr
    # right: Expr
    __slots__ = fields = ("op", "left", "right")


class Compare(Node):
    # op: str # = ≠ < ≤ > ≥
    # left: Expr
    # right: Expr
    __slots__ = fields = ("op", "left", "right")


class Logical(Node):
    # op: str # И ИЛИ
    # left: Expr
    # right: Expr
    __slots__ = fields = ("op", "left", "right")


class Not(Node):
    # operand: Expr
    __slots__ = fields = ("operand",)


class IfExpr(Node):
    # cond: Expr
    # then: Expr
    # else_: Expr
    __slots__ = fields = ("cond", "then", "else_")


Expr = Const | Var | Index | Call | BuiltinCall | Unary | Binary | Compare | Logical | Not | IfExpr
Target = Var | Index


# ---- statements ----

class Assign(Node):
    # target: Target
    # value: Expr
    __slots__ = fields = ("target", "value")


class CallStmt(Node):
    # call: Call
    __slots__ = fields = ("call",)


class If(Node):
    # cond: Expr
    # then: Block
    # else_: Block | None
    __slots__ = fields = ("cond", "then", "else_")


class While(Node):
    # cond: Expr
    # body: Block
    __slots__ = fields = ("cond", "body")


class For(Node):
    # var: str
    # start: Expr
    # step: Expr | None
    # stop: Expr
    # body: Block
    __slots__ = fields = ("var", "start", "step", "stop", "body")


class Loop(Node):
    """ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ without a header: runs until КОНЧЕНО."""
    # body: Block
    __slots__ = fields = ("body",)


class Exit(Node):
    """КОНЧЕНО: leave the innermost endless loop."""
    __slots__ = ()


class Print(Node):
    # args: tuple[Expr, ...]
    # newline: bool # False for the trailing-comma form
    __slots__ = fields = ("args", "newline")


class Read(Node):
    # targets: tuple[Target, ...]
    # whole_line: bool # ПРОЧЕСТЬ СТРОКУ: each target gets a line of input, as a string
    __slots__ = fields = ("targets", "whole_line")
    defaults = (("whole_line", False),)


class Screen(Node):
    """A screen phrase: «очистить экран», «курсор в строку (l), столбец (c)», «пауза (n)»."""
    # op: str # "clear", "cursor", "pause"
    # args: tuple[Expr, ...]
    __slots__ = fields = ("op", "args")


class Stop(Node):
    """КОНЕЦ_РАБОТЫ, or the final state Я."""
    __slots__ = ()


class Label(Node):
    # name: str
    __slots__ = fields = ("name",)


class Goto(Node):
    # label: str
    # explicit: bool # ПЕРЕЙТИ К, as opposed to the label named alone
    __slots__ = fields = ("label", "explicit")


Stmt = Assign | CallStmt | If | While | For | Loop | Exit | Print | Read | Screen | Stop | Label | Goto


class Block(Node):
    # stmts: tuple[Stmt, ...]
    __slots__ = fields = ("stmts",)


# ---- definitions and the program ----

class Param(Node):
    # name: str
    # by_ref: bool # РЕЗ
    __slots__ = fields = ("name", "by_ref")


class Definition(Node):
    # name: str # procedure name, or «pattern» for a phrase
    # params: tuple[Param, ...]
    # body: Block | Expr # an expression body makes a function
    # locals: tuple[str, ...] # parameters first, then ДЛЯ variables and РЕЗУЛЬТАТ
    # is_phrase: bool
    # words: tuple[str, ...] # a phrase's words and parameters, for readable names
    __slots__ = fields = ("name", "params", "body", "locals", "is_phrase", "words")
    defaults = (("is_phrase", False), ("words", ()))

    @property
    def is_function(self) -> bool:
        return not isinstance(self.body, Block)


class Comment(Node):
    # text: str
    __slots__ = fields = ("text",)


class Program(Node):
    # definitions: dict[str, Definition] — by key: a procedure's name, a phrase's «pattern»
    # main: Block
    # comments: tuple[Comment, ...]
    __slots__ = fields = ("definitions", "main", "comments")
    defaults = (("comments", ()),)


EXPR_NODES = (Const, Var, Index, Call, BuiltinCall, Unary, Binary, Compare, Logical, Not, IfExpr)
STMT_NODES = (Assign, CallStmt, If, While, For, Loop, Exit, Print, Read, Screen, Stop, Label, Goto)


class NoArm(TypeError):
    """A stage met a node class it has no arm for: a construct was added and this stage not told."""


ARMS: list[Arms] = []  # every table of arms made, for tests/test_architecture.py to hand each an unknown class


class Arms(dict):
    """Node class → the function that handles it in one stage; a class without one fails loudly.
    The one form of dispatch on node classes: made once per stage by `arms`, read by a dict get."""

    def __init__(self, stage: str, methods: dict, prefix: str = "", leaves: tuple = ()):
        super().__init__(methods)
        self.stage, self.prefix, self.leaves = stage, prefix, leaves  # leaves: classes handled before the table
        ARMS.append(self)

    def __missing__(self, cls):
        raise NoArm(f"{self.stage}: no arm for the node class {cls.__name__}")


def arms(stage: str, namespace, prefix: str, leaves: tuple = ()) -> Arms:
    """The arms of a stage: each function of `namespace` (a class, with its bases, or a module's
    globals()) named `prefix` and a node class's name (`_expr_Binary`), keyed by that class. A
    name after the prefix that is no node class is an error here, at import. `leaves`: the
    classes the stage handles itself before it looks in the table."""
    names = namespace if isinstance(namespace, dict) else {name: getattr(namespace, name) for name in dir(namespace)}
    table = {}
    for name, f in names.items():
        if name.startswith(prefix):
            if name.removeprefix(prefix) not in _CLASSES:
                raise TypeError(f"{stage}: {name} names no node class")
            table[_CLASSES[name.removeprefix(prefix)]] = f
    return Arms(stage, table, prefix, leaves)


def children(node: Node) -> list[Node]:
    """The child nodes of a node, in source order."""
    out = []
    for f in node.fields:
        value = getattr(node, f)
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, tuple):
            out += [v for v in value if isinstance(v, Node)]
    return out


def blocks(s) -> list[Block]:
    """The blocks a statement holds, in their order: ЕСЛИ's branches, a loop's body; none for the
    others (the raw tree's statements too, frontend.raw). Read from the fields, so a new
    statement's blocks are found without being listed."""
    out = []
    for f in getattr(s, "fields", ()):
        value = getattr(s, f)
        if isinstance(value, Block):
            out.append(value)
    return out


def assigned(x: Node, definitions: dict, scalars: bool = False) -> list[str]:
    """The variables and arrays a node itself assigns: its target, ПРОЧЕСТЬ's targets, a ДЛЯ's
    variable, the РЕЗ arguments of a call of one of `definitions` (the program's); with
    `scalars`, the variables only (not an array whose element is assigned)."""
    return _ASSIGNED[type(x)](x, definitions, scalars)


def _assigned_Assign(x: Assign, definitions: dict, scalars: bool) -> list[str]:
    return [] if scalars and not isinstance(x.target, Var) else [x.target.name]


def _assigned_Read(x: Read, definitions: dict, scalars: bool) -> list[str]:
    return [t.name for t in x.targets if not scalars or isinstance(t, Var)]


def _assigned_For(x: For, definitions: dict, scalars: bool) -> list[str]:
    return [x.var]


def _assigned_Call(x: Call, definitions: dict, scalars: bool) -> list[str]:
    d = definitions.get(x.name)
    kinds = Var if scalars else (Var, Index)
    return [] if d is None else [a.name for a, p in zip(x.args, d.params) if p.by_ref and isinstance(a, kinds)]


def _assigns_nothing(x: Node, definitions: dict, scalars: bool) -> list[str]:
    return []


_assigned_Block = _assigned_Const = _assigned_Var = _assigned_Index = _assigned_BuiltinCall = _assigned_Unary = \
    _assigned_Binary = _assigned_Compare = _assigned_Logical = _assigned_Not = _assigned_IfExpr = _assigned_CallStmt = \
    _assigned_If = _assigned_While = _assigned_Loop = _assigned_Exit = _assigned_Print = _assigned_Screen = \
    _assigned_Stop = _assigned_Label = _assigned_Goto = _assigns_nothing


def has_labels(block: Block) -> bool:
    return any(isinstance(s, Label) for s in block.stmts)


def bodies(program: Program) -> list:
    """The main program and every definition's body: the roots to walk for the whole program."""
    return [program.main] + [d.body for d in program.definitions.values()]


def walk(node: Node):
    """The node and all its descendants, depth first, in source order. A stack, not recursion:
    the checks walk every body several times, and nested generators cost a frame per level."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        below = children(node)
        if below:
            below.reverse()
            push(below)


_END_IF = re.compile(r"\s*КОНЕЦ[_ ]ЕСЛИ")
_CLOSING = re.compile(r"\s*\)")
_STRINGS = re.compile(r"'[^']*'|\"[^\"]*\"")


def whole_span(e: Node) -> Span:
    """All the text of an expression, for showing it. Its span leaves out the brackets that
    close it — `НЕ (a = 1` for `НЕ (a = 1)`, `a И (b ИЛИ c` —: it reaches over them. A function's
    body written as ЕСЛИ … ТО … ИНАЧЕ … КОНЕЦ_ЕСЛИ has the span of its ЕСЛИ alone (that of
    the statement it was read as): it reaches over its else branch to its КОНЕЦ_ЕСЛИ."""
    span = e.span
    if type(e) is IfExpr and (span.end_line, span.end_column) < (e.else_.span.end_line, e.else_.span.end_column):
        last = whole_span(e.else_)
        found = _after(last, _END_IF)
        return span.to(found or last)
    text = _STRINGS.sub("", span.full_text())
    for _ in range(text.count("(") - text.count(")")):
        span = span.to(_after(span, _CLOSING) or span)
    return span


def _after(span: Span, pattern) -> Span | None:
    """The span after `span` that `pattern` matches from its end, over line breaks; None if none."""
    source, line, column = span.source, span.end_line, span.end_column
    rest = source.line(line)[column - 1:]
    while not rest.strip() and line < len(source.lines):
        line, column = line + 1, 1
        rest = source.line(line)
    found = pattern.match(rest)
    return Span(source, line, column + found.end(), line, column + found.end()) if found else None


def rewrite(node, fn):
    """Rebuild a tree bottom-up; `fn(node)` returns the node to put in its place. A node none of
    whose children changed is kept, not copied."""
    if not isinstance(node, Node):
        return node
    changes = {}
    for f in node.fields:
        value = getattr(node, f)
        if isinstance(value, Node):
            new = rewrite(value, fn)
        elif isinstance(value, tuple) and value:
            items = [rewrite(v, fn) for v in value]
            new = value if all(a is b for a, b in zip(items, value)) else tuple(items)
        else:
            continue
        if new is not value:
            changes[f] = new
    return fn(node.replace(**changes) if changes else node)


_CLASSES = {c.__name__: c for c in list(globals().values()) if isinstance(c, type) and issubclass(c, Node)}
_ASSIGNED = arms("the variables a node assigns", globals(), "_assigned_")
