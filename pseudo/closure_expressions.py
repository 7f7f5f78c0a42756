"""The expressions of the closures the views run on (closures.py): each a function `f(v)`,
`v` being the call's variables. An expression of operators, elements and logic is one Python
function, which the code generator writes in its mode for these closures (pygen/tested.py: no
frame from one node to the next); a call, a builtin's and a conditional expression are
closures. An operator is Python's own for the operand kinds the runtime's table allows
(Operator.python_types), the table's checked function for any other."""
from __future__ import annotations

import operator

from . import nodes as n
from .pygen.tested import expression_function
from .runtime import io
from .runtime.library import BUILTINS
from .runtime.ops import индекс, условие
from .runtime.values import Failure, fail


class Expressions:
    """The closures of expressions, keys and operands (a part of ClosureInterpreter)."""

    def key(self, e: n.Index):
        """key(v): the key of an element, checked: an integer, or a tuple of them (of two or
        three, written out: no list, and the check of integers here, a call less)."""
        array, span, checked, several = self.arrays[e.name], e.span, self.checked, len(e.indices) > 1
        indices, unset = self.operands(e.indices)
        if len(indices) in (2, 3):
            first, second, third = (indices + [None])[:3]

            def key_of_few(v):
                try:
                    k = (first(v), second(v)) if third is None else (first(v), second(v), third(v))
                except KeyError as missing:
                    raise unset(missing) from None
                for i in k:
                    if type(i) is not int:
                        return checked(индекс, k, span, array)
                return k
            return key_of_few

        def key(v):
            try:
                k = tuple([i(v) for i in indices]) if several else indices[0](v)
            except KeyError as missing:
                raise unset(missing) from None
            return k if type(k) is int else checked(индекс, k, span, array)
        return key

    def operands(self, exprs) -> tuple[list, object]:
        """The closures of operands that one closure evaluates in turn, and `unset(KeyError)`.
        A local variable among them is read by operator.itemgetter — a call of C, no frame of
        Python —, whose KeyError that closure turns by unset() into the failure of the first
        operand of that name (a variable once set stays set: the first is the one unset);
        None for a KeyError of another (no operand of its name)."""
        closures, first = [], {}
        for e in exprs:
            if self.scope_of(e) == "local":
                closures.append(operator.itemgetter(e.name))
                first.setdefault(e.name, e)
            else:
                closures.append(self.expr(e))
        placed = self.placed

        def unset(missing: KeyError):
            e = first.get(missing.args[0])
            return missing if e is None else placed(fail("unset-var", name=e.name), e.span)
        return closures, unset

    # ---- expressions ----

    def expr(self, e: n.Expr):
        return self.EXPR[type(e)](self, e)

    def _expr_Const(self, e: n.Const):
        value = e.value
        return lambda v: value

    def _expr_Var(self, e: n.Var):
        name, span, placed, scope = e.name, e.span, self.placed, self.scope_of(e)
        if scope == "ref":  # the caller's variable or element
            def through(v):
                try:
                    return v[name].значение
                except Failure as f:
                    raise placed(f, span) from None
            return through
        place = None if scope == "local" else self.globals

        def variable(v):
            try:
                return (v if place is None else place)[name]
            except KeyError:
                raise placed(fail("unset-var", name=name), span) from None
        return variable

    def _expr_BuiltinCall(self, e: n.BuiltinCall):
        function = io.ввод_кончился if e.name == "ввод кончился" else BUILTINS[e.name][0]
        args, span, placed = [self.expr(a) for a in e.args], e.span, self.placed
        look = self.look() if e.name == "ввод кончился" else None  # (it may wait for input)

        def builtin(v):
            values = [a(v) for a in args]
            if look is not None:
                look()
            try:
                return function(*values)
            except Failure as f:
                raise placed(f, span) from None
        return builtin

    def written(self, e: n.Expr):
        """An expression of operators, indices, comparisons and logic: one function, written by
        the code generator (pygen/tested.py)."""
        return expression_function(self, e)

    _expr_Index = _expr_Binary = _expr_Compare = _expr_Logical = _expr_Not = _expr_Unary = written

    def _expr_IfExpr(self, e: n.IfExpr):
        cond, then, else_ = self.expr(e.cond), self.expr(e.then), self.expr(e.else_)
        span, checked, tracer, counter = e.cond.span, self.checked, self.tracer, self.counter

        def if_expr(v):
            value = cond(v)
            if counter is not None:  # counted: the condition, then the branch taken, a step of its own
                counter.count += 1
                taken = checked(условие, value, span)
                counter.count += 1
                return then(v) if taken else else_(v)
            if tracer is None:
                return then(v) if checked(условие, value, span) else else_(v)
            tracer.condition(e.cond, value, "ЕСЛИ", True)  # traced: the branch taken, a step of its own
            taken = checked(условие, value, span)
            tracer.expression(e.then if taken else e.else_, "then" if taken else "else")
            return then(v) if taken else else_(v)
        return if_expr
