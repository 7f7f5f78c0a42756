"""The code of expressions: operators, elements of arrays, calls, РЕЗ cells.

What each operation does is the runtime's: where the kinds of the operands are known (the
analysis) and the runtime's operator table says Python's operator gives the same value and the
same error for them, the code uses it; elsewhere it calls the runtime's checked function. The
readable code joins two strings with `+` where together they cannot pass the limit of a
string's length (analysis/lengths.py): its file runs without pseudo's limits of steps and time,
and a string that doubles meets that limit there too, with the same error.
"""
from __future__ import annotations

import ast
import copy

from .. import nodes as n
from ..analysis.kinds import BOOL, INT, STR
from ..runtime.library import BUILTINS
from ..runtime.ops import NEGATION, OPERATORS, SMALL_FACTOR, SMALL_POWER_BASE, SMALL_POWER_EXPONENT
from .inline import acts as _acts
from .syntax import WRITTEN_OUT, at, attribute, call, name, place_of

CHAIN = 40  # a chain of operations longer than this is computed in parts (`(t := …, …)[-1]`)
ROWS = ("list", "grown", "nested")  # the layouts of arrays indexed a level at a time: `a[i][j]`
LISTS = ("list", "grown")  # the layouts whose elements are ПУСТО until assigned


def grown_row(rows: ast.Name, key: ast.expr, first: ast.expr, sizes: list[int], rt) -> ast.IfExp:
    """`rows[key] if first < len(rows) else вырастить(rows, key, sizes)`: the row of a list of
    rows that grows, made if it is missing (`first`: the key where it is computed; `rt`: the
    Python name of a word of the runtime or of Python)."""
    def again(node):
        return ast.copy_location(copy.deepcopy(node), node)
    length = ast.Call(func=ast.Name(id=rt("len"), ctx=ast.Load()), args=[again(rows)], keywords=[])
    short = ast.Compare(left=first, ops=[ast.Lt()], comparators=[length])
    grow = ast.Call(func=ast.Name(id=rt("вырастить"), ctx=ast.Load()),
                    args=[again(rows), again(key), ast.Tuple(elts=[ast.Constant(x) for x in sizes], ctx=ast.Load())],
                    keywords=[])
    return ast.IfExp(test=short, body=ast.Subscript(value=rows, slice=again(key), ctx=ast.Load()), orelse=grow)


def operation(op, left: ast.expr, right: ast.expr) -> ast.expr:
    """`left + right`: the operator table's Python operator of `op` on two operands."""
    if op.comparison:
        return ast.Compare(left=left, ops=[getattr(ast, op.python)()], comparators=[right])
    return ast.BinOp(left=left, op=getattr(ast, op.python)(), right=right)


def made_row(rows: ast.expr, key: ast.expr) -> ast.expr:
    """`rows.setdefault(key, {})`: the row of a nested dict, made if it is missing."""
    return ast.Call(func=ast.Attribute(value=rows, attr="setdefault", ctx=ast.Load()),
                    args=[key, ast.Dict(keys=[], values=[])], keywords=[])


class ExpressionCode:
    """The expressions of a body (a mixin of BodyCode, which holds `gen`, `key`, `names`,
    `kinds`, `refs`, `cells`, `locals`, `arguments`, `loop_vars` and `substitutes`)."""

    def rt(self, word: str) -> str:
        """The Python name of a runtime word (runtime.names): the program's names come first."""
        return self.names.rt(word)

    def cond(self, e: n.Expr) -> ast.expr:
        value = self.expr(e)
        if self.kinds.expr(e, self.key) == BOOL:
            return value
        return call(self.rt("условие"), [value], e.span)

    def expr(self, e: n.Expr, copied: bool = False) -> ast.expr:
        """The code of `e`; `copied`: its value is kept as it is (assigned, passed, given back),
        not looked at by an operation, so an element of a list is checked there (`задано`)."""
        if id(e) in self.substitutes:
            return at(name(self.substitutes[id(e)].id), e.span)
        spine = _left_spine(e, self.substitutes)
        if len(spine) > CHAIN:
            return at(self.chain(spine), e.span)
        spine = _right_spine(e, self.substitutes)
        if len(spine) > CHAIN:
            return at(self.right_chain(spine), e.span)
        if copied and isinstance(e, n.IfExpr):
            code = self._expr_IfExpr(e, copied=True)
        else:
            code = self.EXPR[type(e)](self, e)
        if copied and isinstance(e, n.Index) and self.gen.layout(e.name) in LISTS:
            code = call(self.rt("задано"), [at(code, e.span)], e.span)
            self.gen.checked = True
        return code if getattr(code, WRITTEN_OUT, False) else at(code, e.span)

    def chain(self, spine: list) -> ast.expr:
        """A long chain computed in parts, left to right, each part named as it is computed:
        `(t1 := a + b + …, t2 := t1 + …, …, t2 + … + z)[-1]` — the order of evaluation is
        the chain's own, and no part nests deeper than Python's parser allows."""
        parts = []
        for cut in spine[CHAIN::CHAIN][::-1]:  # from the innermost part out
            value = at(self.EXPR[type(cut)](self, cut), cut.span)
            temp = self.names.fresh("часть")
            parts.append(at(ast.NamedExpr(target=name(temp, cut.span, ast.Store()), value=value), cut.span))
            self.substitutes[id(cut)] = name(temp)
        root = spine[0]
        parts.append(at(self.EXPR[type(root)](self, root), root.span))
        last = at(ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1)), root.span)
        return ast.Subscript(value=at(ast.Tuple(elts=parts, ctx=ast.Load()), root.span), slice=last, ctx=ast.Load())

    def right_chain(self, spine: list) -> ast.expr:
        """A long chain nested on its right, `a + (b + (… + z))`, computed in parts: the left
        operands first, in turn, then the innermost operand, then the operations from the
        innermost out, a part of them at a time, each part named — Python's own order of
        evaluation, with no part nested deeper than its parser allows."""
        parts = []

        def named(node, value):
            temp = self.names.fresh("часть")
            parts.append(at(ast.NamedExpr(target=name(temp, node.span, ast.Store()), value=at(value, node.span)),
                            node.span))
            self.substitutes[id(node)] = name(temp)

        for level in spine:  # an element of a list is checked where it is read if what follows acts
            named(level.left, self.expr(level.left, copied=_acts(level.right, self.gen.acting)))
        named(spine[-1].right, self.expr(spine[-1].right))
        for cut in spine[CHAIN::CHAIN][::-1]:  # from the innermost part out
            named(cut, self.EXPR[type(cut)](self, cut))
        root = spine[0]
        parts.append(at(self.EXPR[type(root)](self, root), root.span))
        last = at(ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1)), root.span)
        return ast.Subscript(value=at(ast.Tuple(elts=parts, ctx=ast.Load()), root.span), slice=last, ctx=ast.Load())

    def _expr_Const(self, e: n.Const):
        v = e.value
        if type(v) is int and v < 0:
            return at(ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-v)), e.span)
        if type(v) not in (int, str, bool):  # a fraction
            return call(self.rt("дробь"), [ast.Constant(v.numerator), ast.Constant(v.denominator)], e.span)
        return ast.Constant(v)

    def _expr_Var(self, e: n.Var):
        if e.name in self.arguments:
            return self.arguments[e.name]()
        return self.variable(e, ast.Load())

    def variable(self, v: n.Var, ctx) -> ast.expr:
        """A variable as Python reads or writes it: a name, or the value of a cell."""
        if v.name in self.refs:
            return attribute(name(self.names.var(v.name), v.span), "значение", v.span, ctx)
        if v.name in self.cells:
            return attribute(name(self.cells[v.name], v.span), "значение", v.span, ctx)
        return name(self.names.var(v.name), v.span, ctx)

    # ---- arrays ----

    def _expr_Index(self, e: n.Index):
        return self.element(e, ast.Load())

    def element(self, e: n.Index, ctx) -> ast.expr:
        """An element: `a[k]` or `a[i, j]` of a dict or a `Массив`, `a[i][j]` of rows of rows."""
        if self.gen.layout(e.name) in ROWS:
            rows, last = self.row_of(e, making=isinstance(ctx, ast.Store))
            return at(ast.Subscript(value=rows, slice=last, ctx=ctx), e.span)
        return at(ast.Subscript(value=name(self.names.var(e.name), e.span), slice=self.key_of(e), ctx=ctx), e.span)

    def indices(self, e: n.Index) -> list[ast.expr]:
        """Each index, checked to be an integer where its kind is not known (`целый_индекс`)."""
        return [code if self.kinds.expr(i, self.key) == INT else call(self.rt("целый_индекс"), [code], i.span)
                for i, code in zip(e.indices, self.operands(e.indices))]

    def row_of(self, e: n.Index, making: bool = False) -> tuple[ast.expr, ast.expr]:
        """The last level of rows of rows that holds the element, and its key there: (`a[i]`,
        `j`) for `a[i, j]`. Nested dicts make a missing row where an element is stored
        (`a.setdefault(i, {})`: `making`), a list that grows its rows (`grown_row`); a read of
        a missing row is a KeyError, or an IndexError."""
        rows = name(self.names.var(e.name), e.span)
        keys = self.indices(e)
        layout = self.gen.layout(e.name)
        for level, k in enumerate(keys[:-1]):
            if making and layout == "nested":
                rows = made_row(rows, k)
            elif making and layout == "grown" and level == 0:
                rows = self.grown_row(rows, k, e)
            else:
                rows = ast.Subscript(value=rows, slice=k, ctx=ast.Load())
            rows = at(rows, e.span)
        return rows, keys[-1]

    def grown_row(self, rows: ast.Name, key: ast.expr, e: n.Index) -> ast.expr:
        """The row `a[i]` of an array kept as a list of rows that grows, made where an element is
        stored: `a[i] if i < len(a) else вырастить(a, i, (6,))` (an index more than a variable
        named where it is computed, in the place and order of the plain `a[i]`)."""
        first = key
        if not isinstance(key, ast.Name | ast.Constant):
            temp = self.names.fresh("строка")
            first = at(ast.NamedExpr(target=name(temp, e.span, ast.Store()), value=key), e.span)
            key = name(temp, e.span)
        return grown_row(rows, key, first, self.gen.row_sizes[e.name], self.rt)

    def key_of(self, e: n.Index) -> ast.expr:
        """The key of an element in a dict (`k`, or the tuple `i, j`); a `Массив`'s is checked
        by `индекс` unless its indices are surely integers."""
        if self.gen.layout(e.name) == "dict":
            keys = self.indices(e)
            return keys[0] if len(keys) == 1 else ast.Tuple(elts=keys, ctx=ast.Load())
        parts = [self.expr(i) for i in e.indices]
        key = parts[0] if len(parts) == 1 else ast.Tuple(elts=parts, ctx=ast.Load())
        if all(self.kinds.expr(i, self.key) == INT for i in e.indices):
            return key
        return call(self.rt("индекс"), [key, name(self.names.var(e.name), e.span)], e.span)

    def cell(self, a: n.Expr) -> ast.expr:
        """A РЕЗ argument: the cell of a variable or an array element."""
        span = a.span
        if isinstance(a, n.Index) and self.gen.layout(a.name) in ROWS:
            return call(self.rt("Ячейка"), [*self.row_of(a, making=True), ast.Constant(None)], span)
        if isinstance(a, n.Index):
            plain = self.gen.layout(a.name) == "dict"  # the fast code's: a miss hands over
            return call(self.rt("Ячейка"), [name(self.names.var(a.name), span), self.key_of(a),
                                            ast.Constant(None if plain else a.name)], span)
        if a.name in self.refs:  # passed on: the same cell
            return name(self.names.var(a.name), span)
        if a.name in self.cells:
            return name(self.cells[a.name], span)
        return call(self.rt("Ячейка"), [call(self.rt("globals"), [], span), ast.Constant(self.names.var(a.name)),
                                        ast.Constant(a.name)], span)

    # ---- calls ----

    def _expr_Call(self, e: n.Call):
        code = self.call(e, value=True)
        if e.name in self.gen.facts.may_give_nothing:
            return call(self.rt("значение"), [code, ast.Constant(e.name)], e.span)
        return code

    def call(self, e: n.Call, value: bool) -> ast.expr:
        d = self.gen.program.definitions[e.name]
        plan = None
        if value and self.gen.inlining:
            plan = self.gen.inlining.plan(e, self.locals | set(self.arguments), self.value_params() | set(self.loop_vars))
        if plan is not None:
            return self.inline(e, d, plan)
        args = [self.cell(a) if p.by_ref else self.expr(a, copied=True) for a, p in zip(e.args, d.params)]
        return at(ast.Call(func=name(self.names.defs[e.name], e.span), args=args, keywords=[]), e.span)

    def inline(self, e: n.Call, d: n.Definition, plan: dict[str, str]) -> ast.expr:
        """The function's expression in place of its call (inline.py); each parameter stands
        for its argument's code, a named argument read after its first use."""
        arguments = {}
        for param, arg in zip(d.params, e.args):
            if plan[param.name] == "named":
                arguments[param.name] = self.named_once(arg, self.names.fresh(f"{self.names.var(param.name)}_"))
            else:
                arguments[param.name] = lambda arg=arg: self.expr(arg)
        code = type(self)(self.gen, e.name, arguments).expr(d.body)
        python = self.names.defs[e.name]
        # an error in the function's nodes, or in its arguments (evaluated in the order the
        # expression uses them, not from left to right), is the exact code's to report
        self.gen.exact_places.update({place_of(x.span): python for root in (d.body, *e.args) for x in n.walk(root)})
        setattr(code, WRITTEN_OUT, True)
        return code

    def named_once(self, arg: n.Expr, temp: str):
        """The code of an argument: `(temp := …)` where it is first used, `temp` after."""
        used = []

        def code():
            if used:
                return name(temp, arg.span)
            used.append(True)
            return at(ast.NamedExpr(target=name(temp, arg.span, ast.Store()), value=self.expr(arg)), arg.span)
        return code

    def _expr_BuiltinCall(self, e: n.BuiltinCall):
        function = BUILTINS[e.name][0].__name__  # the runtime's function: ввод_кончился for «ввод кончился»
        return call(self.rt(function), self.operands(e.args), e.span)

    def operands(self, args) -> list[ast.expr]:
        """The code of operands evaluated in turn and then used together (an operator's, a
        runtime function's arguments). An element of a list without a value is ПУСТО, which
        fails only where it is used: if what is evaluated after it may act (a call of the
        program's, which may print), the element is checked where it is read (`задано`); if it
        may only fail, an error there is the exact code's to report (Generator.exact_places),
        which meets the element first."""
        out = []
        for i, a in enumerate(args):
            later = args[i + 1:]
            acts = any(_acts(b, self.gen.acting) for b in later)
            out.append(self.expr(a, copied=acts))
            if not acts and later and self.may_be_unset(a):
                self.gen.exact_places.update({place_of(x.span): "" for b in later for x in n.walk(b)})
        return out

    def may_be_unset(self, e: n.Expr) -> bool:
        """May `e` give an element of a list that has no value (ПУСТО)?"""
        if isinstance(e, n.IfExpr):
            return self.may_be_unset(e.then) or self.may_be_unset(e.else_)
        return isinstance(e, n.Index) and self.gen.layout(e.name) in LISTS

    # ---- operators ----

    def _expr_Unary(self, e: n.Unary):
        operand = self.expr(e.operand)
        if self.kinds.exact(NEGATION, [e.operand], self.key):
            return ast.UnaryOp(op=ast.USub(), operand=operand)
        return call(self.rt(NEGATION.function.__name__), [operand], e.span)

    def _expr_Binary(self, e: n.Binary):
        op = OPERATORS[e.op]
        left, right = self.operands([e.left, e.right])
        if self.kinds.guarded_power(e, self.key):  # a power of integers, taken to be an integer
            return self.power(e, left, right)
        joined = self.gen.readable and e.op == "+" and self.kinds.expr(e.left, self.key) == STR \
            and self.kinds.expr(e.right, self.key) == STR and self.gen.facts.lengths.joined(e, self.key)
        if not joined and not self.kinds.exact(op, [e.left, e.right], self.key) and not self.bounded_product(e):
            checked = call(self.rt(op.function.__name__), [left, right], e.span)
            return self.tested_product(e, left, right, checked) or checked
        return operation(op, left, right)

    _expr_Compare = _expr_Binary

    def power(self, e: n.Binary, left: ast.expr, right: ast.expr) -> ast.expr:
        """`степень_целых(a, b)`; in the fast code, where `a` is a constant of at most 64 bits
        (the book's 2 ^ k), the first case of that function written out: `a ** b` when
        0 ≤ b < 15,000, the call only for any other exponent — pentomino's `2 ^ ниже[x]` cost a
        call at every node of its search. An exponent more than a variable is named where it is
        computed (`(b := …)`), in the place and order the call computes it."""
        checked = call(self.rt("степень_целых"), [left, right], e.span)
        if self.gen.mode != "fast" or not isinstance(e.left, n.Const) or type(e.left.value) is not int \
                or not -SMALL_POWER_BASE < e.left.value < SMALL_POWER_BASE:
            return checked
        exponent, again = right, right
        if not isinstance(e.right, n.Var | n.Const):
            temp = self.names.fresh("степень")
            exponent = at(ast.NamedExpr(target=name(temp, e.right.span, ast.Store()), value=right), e.right.span)
            again = name(temp, e.right.span)
            checked.args[1] = name(temp, e.right.span)
        small = ast.Compare(left=ast.Constant(0), ops=[ast.LtE(), ast.Lt()],
                            comparators=[exponent, ast.Constant(SMALL_POWER_EXPONENT)])
        power = at(ast.BinOp(left=left, op=ast.Pow(), right=again), e.span)
        return ast.IfExp(test=at(small, e.span), body=power, orelse=checked)

    def bounded_product(self, e: n.Binary) -> bool:
        """Is `e` a product of integers whose factors the analysis bounds so that the size limit
        never refuses it (`ма[t] * фр[p, m]`, both between -1 and 5)? (The exact code checks
        every product.)"""
        return self.gen.fast and OPERATORS[e.op].small_factor and self.kinds.expr(e.left, self.key) == INT \
            and self.kinds.expr(e.right, self.key) == INT and self.gen.facts.bounds.short_product(e)

    def tested_product(self, e: n.Binary, left: ast.expr, right: ast.expr, checked: ast.expr):
        """The fast code's product of two integers: Python's own where the left one, a variable
        read twice at no cost, is at most SMALL_FACTOR bits long (the size limit refuses only a
        product of two longer ones), the checked function elsewhere — `умножить(N, N)` costs a
        call at every node of a search."""
        if self.gen.mode != "fast" or not OPERATORS[e.op].small_factor or not isinstance(e.left, n.Var) \
                or self.kinds.expr(e.left, self.key) != INT or self.kinds.expr(e.right, self.key) != INT:
            return None
        bound = ast.Constant(1 << SMALL_FACTOR)
        short = ast.Compare(left=ast.UnaryOp(op=ast.USub(), operand=bound), ops=[ast.Lt(), ast.Lt()],
                            comparators=[self.expr(e.left), bound])
        return ast.IfExp(test=at(short, e.span), body=at(ast.BinOp(left=left, op=ast.Mult(), right=right), e.span),
                         orelse=checked)

    def _expr_Logical(self, e: n.Logical):
        parts = []
        for side in (e.left, e.right):
            value = self.logical_operand(side, e.op)
            same = isinstance(side, n.Logical) and side.op == e.op and isinstance(value, ast.BoolOp)
            parts.extend(value.values if same and side is e.left else [value])
        return ast.BoolOp(op=ast.Or() if e.op == "ИЛИ" else ast.And(), values=parts)

    def logical_operand(self, e: n.Expr, op: str) -> ast.expr:
        value = self.expr(e)
        if self.kinds.expr(e, self.key) == BOOL:
            return value
        return call(self.rt("логическое"), [value, ast.Constant(op)], e.span)

    def _expr_Not(self, e: n.Not):
        return ast.UnaryOp(op=ast.Not(), operand=self.logical_operand(e.operand, "НЕ"))

    def _expr_IfExpr(self, e: n.IfExpr, copied: bool = False):
        return ast.IfExp(test=self.cond(e.cond), body=self.expr(e.then, copied), orelse=self.expr(e.else_, copied))


ExpressionCode.EXPR = n.arms("code, expressions", ExpressionCode, "_expr_")


def _right_spine(e, computed: dict) -> list:
    """The operations down the right side of a chain `a + (b - (c * …))`, the outermost first,
    up to a part already computed."""
    spine = []
    while isinstance(e, n.Binary) and id(e) not in computed:
        spine.append(e)
        e = e.right
    return spine


def _left_spine(e, computed: dict) -> list:
    """The operations down the left side of a chain `a + b - c * …`, the outermost first, up
    to a part already computed."""
    spine = []
    while isinstance(e, n.Binary | n.Compare) and id(e) not in computed:
        spine.append(e)
        e = e.left
    return spine
