"""The code generator's mode for the closures the views run on (closure_expressions.py): an
expression of operators, elements, comparisons and logic as one Python function `f(v)`, `v`
being the call's variables, with no call from one node to the next.

The kinds are not proven here, as they are for ExpressionCode: each operand's type is tested
as the code runs, and Python's operator is taken where the runtime's table allows it for the
types met (Operator.python_types; the operator's node is ExpressionCode's, `operation`), the
table's checked function elsewhere. Each node's statements do what its own closure would, in
the same order, with the same runtime calls, each failure placed at the same node (a `try` at
the node, the frame's `placed`; `checked` places the runtime's). A call, a builtin's, a
conditional expression and a РЕЗ parameter's value are the frame's closures, called from the
code. No text of the program is in the code: its names, values, places and closures are the
function's globals, under names of the code's own (`k3`).
"""
from __future__ import annotations

import ast

from .. import nodes as n
from ..runtime.ops import NEGATION, OPERATORS, индекс, логическое
from ..runtime.values import Failure, fail
from .expressions import operation
from .syntax import assign, function, name

NESTED = 15  # blocks of Python one function may nest (И, ИЛИ); Python allows 20
FILENAME = "<pseudo: an expression>"


def expression_function(frame, e: n.Expr):
    """`f(v)`: the value of `e`. `frame`: the closures' maker (its `scope_of`, `globals`,
    `arrays`, `placed`, `checked`, and `expr`, a node's own closure)."""
    code = TestedCode(frame)
    return code.compiled(code.write(e, 1))


def assignment_function(frame, value: n.Expr, target: n.Index):
    """`f(v)`: (x, the key of the element), for `m[i] := x` — x first, then the key, checked."""
    code = TestedCode(frame)
    x = code.write(value, 1)
    key = code.key(target, 1, code.value(frame.arrays[target.name]))
    return code.compiled(ast.Tuple(elts=[x, key], ctx=ast.Load()))


def _chain(e: n.Expr, op: str) -> list:
    """The operands of a chain of И (or of ИЛИ), in the order they are evaluated."""
    if type(e) is n.Logical and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]


def _is(a: ast.expr, b: ast.expr, not_: bool = False) -> ast.Compare:
    return ast.Compare(left=a, ops=[ast.IsNot() if not_ else ast.Is()], comparators=[b])


def _either(*tests: ast.expr) -> ast.expr:
    return tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.Or(), values=list(tests))


def _both(*tests: ast.expr) -> ast.expr:
    return tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=list(tests))


def _call(func: ast.expr, *args: ast.expr, **keywords: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[ast.keyword(arg=k, value=x) for k, x in keywords.items()])


def _type(a: ast.expr) -> ast.Call:
    return _call(name("type"), a)


def _reraised(exception: ast.expr) -> ast.Raise:
    """`raise exception from None`"""
    return ast.Raise(exc=exception, cause=ast.Constant(None))


class TestedCode:
    """The statements of one function, node by node. Each node's arm appends the statements
    that compute it to the block being written (`depth` blocks deep) and gives the name that
    holds its value."""

    def __init__(self, frame):
        self.frame, self.temporaries = frame, 0
        self.blocks: list[list] = [[]]  # the block being written, innermost last
        self.values = {"placed": frame.placed, "checked": frame.checked, "fail": fail, "Failure": Failure,
                       "index": индекс, "truth": логическое}  # the function's globals

    def compiled(self, result: ast.expr):
        body = [*self.blocks[0], ast.Return(value=result)]
        module = ast.fix_missing_locations(ast.Module(body=[function("expression", ["v"], body)], type_ignores=[]))
        exec(compile(module, FILENAME, "exec"), self.values)  # noqa: S102 - only names made here
        return self.values["expression"]

    def write(self, e: n.Expr, depth: int) -> ast.Name:
        return self.WRITE[type(e)](self, e, depth)

    def value(self, value) -> ast.Name:
        """The name the code reads `value` by."""
        key = f"k{len(self.values)}"
        self.values[key] = value
        return name(key)

    def temporary(self) -> str:
        self.temporaries += 1
        return f"t{self.temporaries}"

    def add(self, statement: ast.stmt) -> None:
        self.blocks[-1].append(statement)

    def block(self, write) -> list:
        """The statements `write()` appends, as a block of their own."""
        self.blocks.append([])
        write()
        return self.blocks.pop()

    def named(self, t: str, value: ast.expr) -> ast.Name:
        """`t = value`"""
        self.add(assign(name(t, ctx=ast.Store()), value))
        return name(t)

    def guarded(self, t: str, value: ast.expr, caught: str, handler: ast.stmt) -> ast.Name:
        """`try: t = value / except caught [as f]: handler`"""
        self.add(ast.Try(body=[assign(name(t, ctx=ast.Store()), value)],
                         handlers=[ast.ExceptHandler(type=name(caught), name="f" if caught == "Failure" else None,
                                                     body=[handler])], orelse=[], finalbody=[]))
        return name(t)

    def _tested_Const(self, e: n.Const, depth: int) -> ast.Name:
        return self.value(e.value)

    def _tested_Var(self, e: n.Var, depth: int) -> ast.Name:
        scope = self.frame.scope_of(e)
        if scope == "ref":
            return self.closure(e, depth)
        place = name("v") if scope == "local" else self.value(self.frame.globals)
        variable = self.value(e.name)
        unset = _call(name("fail"), ast.Constant("unset-var"), name=self.value(e.name))
        return self.guarded(self.temporary(), ast.Subscript(value=place, slice=variable, ctx=ast.Load()), "KeyError",
                            _reraised(_call(name("placed"), unset, self.value(e.span))))

    def _tested_Index(self, e: n.Index, depth: int) -> ast.Name:
        """An element: its key, then read."""
        array, span = self.value(self.frame.arrays[e.name]), self.value(e.span)
        key = self.key(e, depth, array)
        return self.guarded(self.temporary(), ast.Subscript(value=array, slice=key, ctx=ast.Load()), "Failure",
                            _reraised(_call(name("placed"), name("f"), span)))

    def key(self, e: n.Index, depth: int, array: ast.Name) -> ast.Name:
        """The key of an element, checked: an integer, or a tuple of them."""
        span, key = self.value(e.span), self.temporary()
        indices = [self.write(x, depth) for x in e.indices]
        unsure = [i for i, x in zip(indices, e.indices) if not (type(x) is n.Const and type(x.value) is int)]
        self.named(key, indices[0] if len(indices) == 1 else ast.Tuple(elts=indices, ctx=ast.Load()))
        checked = assign(name(key, ctx=ast.Store()), _call(name("checked"), name("index"), name(key), span, array))
        if len(indices) > 3:  # (a tuple is never an integer: the check)
            self.add(checked)
        elif unsure:
            self.add(ast.If(test=_either(*(_is(_type(i), name("int"), not_=True) for i in unsure)), body=[checked],
                            orelse=[]))
        return name(key)

    def _tested_Binary(self, e: n.Binary, depth: int) -> ast.Name:
        op = OPERATORS[e.op]
        fast = op.python_types([x.value for x in (e.left, e.right) if type(x) is n.Const])
        a, b, t = self.write(e.left, depth), self.write(e.right, depth), self.temporary()
        otherwise = _call(name("checked"), self.value(op.function), a, self.value(e.span), b)
        if not fast:
            return self.named(t, otherwise)
        if type(e.right) is n.Const and type(e.right.value) in fast:  # `n + 1`, `поле[x] = 0`
            test = _is(_type(a), name(type(e.right.value).__name__))
        elif fast == {int}:
            test = _both(_is(_type(a), name("int")), _is(_type(b), name("int")))
        else:  # (integers, the commonest kind, tested first)
            among = ast.Compare(left=_type(a), ops=[ast.In()], comparators=[self.value(fast)])
            test = _both(_is(_type(a), _type(b)), _either(_is(_type(a), name("int")), among) if int in fast else among)
        return self.named(t, ast.IfExp(test=test, body=operation(op, a, b), orelse=otherwise))

    _tested_Compare = _tested_Binary

    def _tested_Logical(self, e: n.Logical, depth: int) -> ast.Name:
        """`a И b И c`: the operands in turn, up to the first that decides (ЛОЖЬ for И, ИСТИНА
        for ИЛИ), in a loop of one turn that the deciding one breaks — one block deeper for a
        chain of one operator however long, however bracketed. Past NESTED blocks, the chain
        is a function of its own."""
        if depth > NESTED:
            return self.closure(e, depth, expression_function(self.frame, e))
        decisive, op, t = e.op == "ИЛИ", self.value(e.op), self.temporary()

        def turn():
            for part in _chain(e, e.op):
                x = self.write(part, depth + 1)  # (a truth value: no call)
                truth = _call(name("checked"), name("truth"), x, self.value(part.span), op)
                test = _either(_is(x, ast.Constant(decisive)),
                               _both(_is(x, ast.Constant(not decisive), not_=True),
                                     _is(truth, ast.Constant(decisive))))
                self.add(ast.If(test=test, body=[assign(name(t, ctx=ast.Store()), ast.Constant(decisive)), ast.Break()],
                                orelse=[]))
            self.named(t, ast.Constant(not decisive))
            self.add(ast.Break())
        self.add(ast.While(test=ast.Constant(True), body=self.block(turn), orelse=[]))
        return name(t)

    def _tested_Not(self, e: n.Not, depth: int) -> ast.Name:
        a, t = self.write(e.operand, depth), self.temporary()
        truth = _call(name("checked"), name("truth"), a, self.value(e.operand.span), self.value("НЕ"))
        test = _either(_is(a, ast.Constant(True)), _is(a, ast.Constant(False)))
        return self.named(t, ast.UnaryOp(op=ast.Not(), operand=ast.IfExp(test=test, body=a, orelse=truth)))

    def _tested_Unary(self, e: n.Unary, depth: int) -> ast.Name:
        a, t = self.write(e.operand, depth), self.temporary()
        test = _either(*(_is(_type(a), name(kind.__name__)) for kind in NEGATION.python_types()))  # (integers)
        checked = _call(name("checked"), self.value(NEGATION.function), a, self.value(e.span))
        return self.named(t, ast.IfExp(test=test, body=ast.UnaryOp(op=ast.USub(), operand=a), orelse=checked))

    def closure(self, e: n.Expr, depth: int, closure=None) -> ast.Name:
        """A node whose closure the code calls: the frame's (`closure`: another one for it)."""
        return self.named(self.temporary(), _call(self.value(closure or self.frame.expr(e)), name("v")))

    _tested_Call = _tested_BuiltinCall = _tested_IfExpr = closure


TestedCode.WRITE = n.arms("code, expressions tested as they run", TestedCode, "_tested_")
