"""The expressions of the closures the views run on (closures.py): each a function `f(v)`,
`v` being the call's variables. An expression of operators, elements and logic is one Python
function whose code Code writes (no frame from one node to the next); a call, a builtin's and
a conditional expression are closures. An operator is Python's own for the operand kinds the
runtime's table allows (Operator.python_types), the table's checked function for any other."""
from __future__ import annotations

import ast
import operator

from . import nodes as n
from .runtime import io
from .runtime.library import BUILTINS
from .runtime.ops import NEGATION, OPERATORS, индекс, логическое, условие
from .runtime.values import Failure, fail

NESTED = 15  # blocks of Python one function of Code may nest (И, ИЛИ)


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
        """An expression of operators, indices, comparisons and logic: one function, its code
        written by Code."""
        return Code(self).function(e)

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


def _chain(e: n.Expr, op: str) -> list:
    """The operands of a chain of И (or of ИЛИ), in the order they are evaluated."""
    if type(e) is n.Logical and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]


def _python(op, a: str, b: str) -> str:
    """`a + b`: the operator table's Python operator (an `ast` class name) on two names."""
    left, right, python = ast.Name(a), ast.Name(b), getattr(ast, op.python)()
    return ast.unparse(ast.Compare(left, [python], [right]) if op.comparison else ast.BinOp(left, python, right))


class Code:
    """An expression written as the body of one Python function `f(v)`, compiled once: node by
    node what a closure of its own would do — its operands in the same order, Python's
    operator where Operator.python_types allows it, the same runtime call where not, each failure
    placed at the same node — with no call from one node to the next. A call, a builtin's
    or a conditional expression in it (which tell the tracer of steps) is its closure, called
    from the code; so is a РЕЗ parameter's value. Each node's arm writes the lines that
    compute it, at `depth`, and gives the name that holds its value. No text of the program
    is in the code: its names, values, places and closures are the function's globals, under
    names of the code's own (`k3`)."""

    def __init__(self, maker: Expressions):
        self.maker, self.lines, self.temporaries = maker, [], 0
        self.values = {"placed": maker.placed, "checked": maker.checked, "fail": fail, "Failure": Failure,
                       "index": индекс, "truth": логическое}  # the function's globals

    def function(self, e: n.Expr):
        return self.compiled(self.write(e, 1))

    def assignment(self, value: n.Expr, target: n.Index):
        """`m[i] := x`: x, then the element's key, checked — one function gives both."""
        x = self.write(value, 1)
        return self.compiled(f"{x}, {self.key(target, 1, self.value(self.maker.arrays[target.name]))}")

    def compiled(self, result: str):
        source = "\n".join(["def expression(v):", *self.lines, f"    return {result}\n"])
        exec(compile(source, "<pseudo: an expression>", "exec"), self.values)  # noqa: S102 - only names made here
        return self.values["expression"]

    def write(self, e: n.Expr, depth: int) -> str:
        return self.WRITE[type(e)](self, e, depth)

    def value(self, value) -> str:
        """The name the code reads `value` by."""
        name = f"k{len(self.values)}"
        self.values[name] = value
        return name

    def temporary(self) -> str:
        self.temporaries += 1
        return f"t{self.temporaries}"

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def _write_Const(self, e: n.Const, depth: int) -> str:
        return self.value(e.value)

    def _write_Var(self, e: n.Var, depth: int) -> str:
        scope = self.maker.scope_of(e)
        if scope == "ref":
            return self.closure(e, depth)
        t, place = self.temporary(), "v" if scope == "local" else self.value(self.maker.globals)
        self.line(depth, "try:")
        self.line(depth + 1, f"{t} = {place}[{self.value(e.name)}]")
        self.line(depth, "except KeyError:")
        self.line(depth + 1, f"raise placed(fail('unset-var', name={self.value(e.name)}), {self.value(e.span)}) from None")
        return t

    def _write_Index(self, e: n.Index, depth: int) -> str:
        """An element: its key, then read."""
        array, span = self.value(self.maker.arrays[e.name]), self.value(e.span)
        key, t = self.key(e, depth, array), self.temporary()
        self.line(depth, "try:")
        self.line(depth + 1, f"{t} = {array}[{key}]")
        self.line(depth, "except Failure as f:")
        self.line(depth + 1, f"raise placed(f, {span}) from None")
        return t

    def key(self, e: n.Index, depth: int, array: str) -> str:
        """The key of an element, checked: an integer, or a tuple of them."""
        span, key = self.value(e.span), self.temporary()
        indices = [self.write(x, depth) for x in e.indices]
        unsure = [i for i, x in zip(indices, e.indices) if not (type(x) is n.Const and type(x.value) is int)]
        self.line(depth, f"{key} = {indices[0] if len(indices) == 1 else '(' + ', '.join(indices) + ')'}")
        if len(indices) > 3:  # (a tuple is never an integer: the check)
            self.line(depth, f"{key} = checked(index, {key}, {span}, {array})")
        elif unsure:
            self.line(depth, f"if {' or '.join(f'type({i}) is not int' for i in unsure)}:")
            self.line(depth + 1, f"{key} = checked(index, {key}, {span}, {array})")
        return key

    def _write_Binary(self, e: n.Binary, depth: int) -> str:
        op = OPERATORS[e.op]
        fast = op.python_types([x.value for x in (e.left, e.right) if type(x) is n.Const])
        a, b, t = self.write(e.left, depth), self.write(e.right, depth), self.temporary()
        otherwise = f"checked({self.value(op.function)}, {a}, {self.value(e.span)}, {b})"
        if not fast:
            self.line(depth, f"{t} = {otherwise}")
            return t
        if type(e.right) is n.Const and type(e.right.value) in fast:  # `n + 1`, `поле[x] = 0`
            test = f"type({a}) is {type(e.right.value).__name__}"
        elif fast == {int}:
            test = f"type({a}) is int and type({b}) is int"
        else:  # (integers, the commonest kind, tested first)
            test = f"type({a}) is type({b}) and ({'type(' + a + ') is int or ' if int in fast else ''}type({a}) in {self.value(fast)})"
        self.line(depth, f"{t} = {_python(op, a, b)} if {test} else {otherwise}")
        return t

    _write_Compare = _write_Binary

    def _write_Logical(self, e: n.Logical, depth: int) -> str:
        """`a И b И c`: the operands in turn, up to the first that decides (ЛОЖЬ for И, ИСТИНА
        for ИЛИ), in a loop of one turn that the deciding one breaks — one block deeper for a
        chain of one operator however long, however bracketed. Past NESTED blocks (Python
        allows 20), the chain is a function of its own."""
        if depth > NESTED:
            return self.closure(e, depth, Code(self.maker).function(e))
        decisive, op, t = e.op == "ИЛИ", self.value(e.op), self.temporary()
        self.line(depth, "while True:")
        for part in _chain(e, e.op):
            x = self.write(part, depth + 1)  # (a truth value: no call)
            self.line(depth + 1, f"if {x} is {decisive} or {x} is not {not decisive} and "
                                 f"checked(truth, {x}, {self.value(part.span)}, {op}) is {decisive}:")
            self.line(depth + 2, f"{t} = {decisive}")
            self.line(depth + 2, "break")
        self.line(depth + 1, f"{t} = {not decisive}")
        self.line(depth + 1, "break")
        return t

    def _write_Not(self, e: n.Not, depth: int) -> str:
        a, t = self.write(e.operand, depth), self.temporary()
        self.line(depth, f"{t} = not ({a} if {a} is True or {a} is False else "
                         f"checked(truth, {a}, {self.value(e.operand.span)}, {self.value('НЕ')}))")
        return t

    def _write_Unary(self, e: n.Unary, depth: int) -> str:
        a, t = self.write(e.operand, depth), self.temporary()
        test = " or ".join(f"type({a}) is {kind.__name__}" for kind in NEGATION.python_types())  # (integers)
        self.line(depth, f"{t} = -{a} if {test} else checked({self.value(NEGATION.function)}, {a}, "
                         f"{self.value(e.span)})")
        return t

    def closure(self, e: n.Expr, depth: int, closure=None) -> str:
        """A node whose closure the code calls: its own (`closure`: another one for it)."""
        t = self.temporary()
        self.line(depth, f"{t} = {self.value(closure or self.maker.EXPR[type(e)](self.maker, e))}(v)")
        return t

    _write_Call = _write_BuiltinCall = _write_IfExpr = closure


Code.WRITE = n.arms("closures, expressions written as code", Code, "_write_")
