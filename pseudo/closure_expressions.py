"""The expressions of the closures the views run on (closures.py): a node is a closure
`f(v)`, `v` being the call's variables; an operator is Python's own for the operand kinds the
runtime's table names (Operator.exact), the table's checked function for any other."""
from __future__ import annotations

import operator

from . import nodes as n
from .runtime import io
from .runtime.library import BUILTINS
from .runtime.ops import NEGATION, OPERATORS, SMALL_FACTOR, индекс, логическое, условие
from .runtime.values import Failure, fail

# The Python operators the operator table names, and the kinds of its `exact` as Python types
# ("num" takes fractions in, which Python's operators would not normalise: left to the check).
PYTHON = {"Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Eq": operator.eq,
          "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt, "GtE": operator.ge}
TYPES = {"int": int, "str": str, "bool": bool}


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

    def sum_index(self, x: n.Expr):
        """An index `a + b` or `a - b` (`поле[к[n] + d[о, m]]`), the commonest after a variable,
        for the closure of its element to compute itself, a frame less: the closures of its
        operands (of the right one None when it is an integer constant, `fixed`), whether it
        adds, its checked function, its span and unset(); None for any other index."""
        if type(x) is not n.Binary or x.op not in ("+", "-"):
            return None
        (left, right), unset = self.operands([x.left, x.right])
        fixed = x.right.value if type(x.right) is n.Const and type(x.right.value) is int else None
        return left, right if fixed is None else None, fixed, x.op == "+", OPERATORS[x.op].function, x.span, unset

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

    def _expr_Index(self, e: n.Index):
        """An element's closure. Its key is computed and checked here, a call less, for the
        commonest shapes: one index — a sum (element_at_sum), a local variable (`занят[p]`),
        any other —, two or three (`d[о, m]`, a constant second `d[о, 2]`, `ор[q, i, j]`)."""
        array, span, placed, checked = self.arrays[e.name], e.span, self.placed, self.checked
        indices, unset = self.operands(e.indices)
        local = [x.name if self.scope_of(x) == "local" else None for x in e.indices]
        if len(indices) == 1 and self.sum_index(e.indices[0]) is not None:
            return self.element_at_sum(e)
        if len(indices) == 1:
            index, name = indices[0], local[0]

            def element(v):
                try:
                    k = index(v) if name is None else v[name]
                except KeyError as missing:
                    raise unset(missing) from None
                if type(k) is not int:
                    k = checked(индекс, k, span, array)
                try:
                    return array[k]
                except Failure as f:
                    raise placed(f, span) from None
            return element
        if len(indices) == 2:
            (first, second), (a, b), last = indices, local, e.indices[1]
            fixed = last.value if type(last) is n.Const and type(last.value) is int else None

            def element_of_two(v):
                try:
                    k = (first(v) if a is None else v[a],
                         fixed if fixed is not None else second(v) if b is None else v[b])
                except KeyError as missing:
                    raise unset(missing) from None
                if type(k[0]) is not int or type(k[1]) is not int:
                    k = checked(индекс, k, span, array)
                try:
                    return array[k]
                except Failure as f:
                    raise placed(f, span) from None
            return element_of_two
        if len(indices) == 3:
            first, second, third = indices

            def element_of_three(v):
                try:
                    k = (first(v), second(v), third(v))
                except KeyError as missing:
                    raise unset(missing) from None
                if type(k[0]) is not int or type(k[1]) is not int or type(k[2]) is not int:
                    k = checked(индекс, k, span, array)
                try:
                    return array[k]
                except Failure as f:
                    raise placed(f, span) from None
            return element_of_three
        key = self.key(e)

        def element_of_several(v):
            try:
                return array[key(v)]
            except Failure as f:
                raise placed(f, span) from None
        return element_of_several

    def element_at_sum(self, e: n.Index, compared=None):
        """`поле[к[n] + d[о, m]]`: the sum of its index computed here (sum_index), a call less;
        and, with `compared`, the comparison with a constant it is the left of (`поле[x] = 0`):
        (Python's operator, the constant, the kind it takes, the checked function, its span)."""
        array, span, placed, checked = self.arrays[e.name], e.span, self.placed, self.checked
        left, right, fixed, adds, function, where, unset = self.sum_index(e.indices[0])

        def element_at_sum(v):  # (and again in compared_at_sum: a call less)
            try:
                a, b = left(v), fixed if right is None else right(v)
            except KeyError as missing:
                raise unset(missing) from None
            if type(a) is int and type(b) is int:
                k = a + b if adds else a - b
            else:  # the runtime's sum, then its check as an index
                k = checked(индекс, checked(function, a, where, b), span, array)
            try:
                return array[k]
            except Failure as f:
                raise placed(f, span) from None
        if compared is None:
            return element_at_sum
        python, constant, kind, compare, compared_at = compared

        def compared_at_sum(v):
            try:
                a, b = left(v), fixed if right is None else right(v)
            except KeyError as missing:
                raise unset(missing) from None
            if type(a) is int and type(b) is int:
                k = a + b if adds else a - b
            else:
                k = checked(индекс, checked(function, a, where, b), span, array)
            try:
                x = array[k]
            except Failure as f:
                raise placed(f, span) from None
            return python(x, constant) if type(x) is kind else checked(compare, x, compared_at, constant)
        return compared_at_sum

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

    def _expr_Unary(self, e: n.Unary):
        operand, function, span, checked = self.expr(e.operand), NEGATION.function, e.span, self.checked

        def negation(v):
            a = operand(v)
            return -a if type(a) is int else checked(function, a, span)
        return negation

    def _expr_Binary(self, e: n.Binary):
        op = OPERATORS[e.op]
        (left, right), unset = self.operands([e.left, e.right])
        function, span, checked = op.function, e.span, self.checked
        python = PYTHON.get(op.python)
        if op.small_factor and not any(type(x) is n.Const and type(x.value) is int and x.value.bit_length()
                                       <= SMALL_FACTOR for x in (e.left, e.right)):
            python = None  # `x * y`: a product of two long numbers meets the size limit
        fast = frozenset(TYPES[k] for k in op.exact if k in TYPES) if python is not None else ()
        if type(e.right) is n.Const and type(e.right.value) in fast:  # `n + 1`, `поле[x] = 0`
            b, kind = e.right.value, type(e.right.value)
            if type(e.left) is n.Index and len(e.left.indices) == 1 and self.sum_index(e.left.indices[0]):
                return self.element_at_sum(e.left, (python, b, kind, function, span))  # `поле[x + i] = 0`
            name = e.left.name if self.scope_of(e.left) == "local" else None  # (read here, a call less)

            def with_constant(v):
                try:
                    a = left(v) if name is None else v[name]
                except KeyError as missing:
                    raise unset(missing) from None
                return python(a, b) if type(a) is kind else checked(function, a, span, b)
            return with_constant
        if fast == {int}:
            def integers(v):
                try:
                    a, b = left(v), right(v)
                except KeyError as missing:
                    raise unset(missing) from None
                return python(a, b) if type(a) is int and type(b) is int else checked(function, a, span, b)
            return integers

        number = int if int in fast else None  # (`x <= n`: integers, the commonest kind, tested first)

        def kinds(v):  # (no kind of `fast`: always the checked function)
            try:
                a, b = left(v), right(v)
            except KeyError as missing:
                raise unset(missing) from None
            t = type(a)
            return python(a, b) if t is type(b) and (t is number or t in fast) else checked(function, a, span, b)
        return kinds

    _expr_Compare = _expr_Binary

    def _expr_Logical(self, e: n.Logical):
        """`a И b И c`: the operands in turn, up to the first that decides (ЛОЖЬ for И, ИСТИНА
        for ИЛИ) — one closure for a whole chain of one operator, however it is bracketed."""
        decisive, op, checked = e.op == "ИЛИ", e.op, self.checked
        going_on = not decisive
        parts = [(self.expr(x), x.span) for x in _chain(e, op)]
        if len(parts) == 2:  # written out: a loop costs more than it saves
            (left, left_span), (right, right_span) = parts

            def pair(v):
                a = left(v)
                if a is decisive:
                    return decisive
                if a is not going_on:
                    checked(логическое, a, left_span, op)
                b = right(v)
                if b is decisive or b is going_on:
                    return b
                return checked(логическое, b, right_span, op)
            return pair

        def logical(v):
            for part, span in parts:
                x = part(v)
                if x is decisive:
                    return decisive
                if x is not going_on:  # not a truth value: the runtime's error
                    checked(логическое, x, span, op)
            return going_on
        return logical

    def _expr_Not(self, e: n.Not):
        operand, span, checked = self.expr(e.operand), e.operand.span, self.checked

        def not_(v):
            a = operand(v)
            return not (a if a is True or a is False else checked(логическое, a, span, "НЕ"))
        return not_

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


def _chain(e: n.Expr, op: str) -> list:
    """The operands of a chain of И (or of ИЛИ), in the order they are evaluated."""
    if type(e) is n.Logical and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]
