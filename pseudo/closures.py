"""The evaluator the views run on: the tree made once into Python closures.

`run --interpret`, `run --stats`, `trace` and `step` run on it. It does what the reference
evaluator (interpreter.py) does — the same runtime calls in the same order, the same steps
counted, each failure placed at the same node with the same call stack, the same events told
to a tracer — but it decides once, when a body is first run, what the tree walk decides at
every node: which code runs the node, whether a name is a local, a global or a РЕЗ parameter,
whether a tracer listens and statistics are kept. Each node becomes a closure `f(v)`, `v`
being the variables of the call in progress; an operator whose operands are of a kind for
which the runtime's operator table names a Python operator (ops.Operator.exact) is that
operator, any other operand goes to the table's checked function.

tests/test_closures.py holds the two evaluators to each other: output, errors and every event
of every trace, on the book's programs, the golden programs and random ones.
"""
from __future__ import annotations

import operator

from . import nodes as n
from .analysis import RESULT
from .interpreter import EXIT, Frame, Goto, Interpreter, StateReader
from .runtime import io, limits
from .runtime.library import BUILTINS
from .runtime.ops import NEGATION, OPERATORS, индекс, логическое, прогрессия, условие
from .runtime.values import Failure, КонецРаботы, Массив, Ячейка, fail

# The Python operators the operator table names, and the kinds of its `exact` as Python types
# ("num" takes fractions in, which Python's operators would not normalise: left to the check).
PYTHON = {"Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Eq": operator.eq,
          "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt, "GtE": operator.ge}
TYPES = {"int": int, "str": str, "bool": bool}


class ClosureInterpreter(Interpreter):
    """The reference evaluator's state (its globals, arrays, call stack, the place of the
    statement being run) and its placing of failures, with the tree made into closures."""

    def __init__(self, program: n.Program, facts, tracer=None, stats=None):
        super().__init__(program, facts, tracer, stats)
        self.codes: dict[str, list] = {}  # definition → [its body's closure], made at its first call
        self.scope = facts.bodies[None]  # the body being made into closures

    def run(self) -> None:
        self.main = Frame(self.facts.bodies[None], {}, None)
        try:
            self.compiled(None)(self.main.values)
        except КонецРаботы:
            pass

    def compiled(self, key: str | None):
        """The closure of a body: of a function, its value; of a procedure, it runs it."""
        self.scope = body = self.facts.bodies[key]
        if key is None:
            return self.block(body.code)
        d = body.definition
        if not d.is_function:
            return self.block(d.body)
        if isinstance(d.body, n.Call):  # `f (x) = g(x)`: f gives what g gives, even nothing
            return self.call(d.body, want_value=False)
        return self.expr(d.body)

    # ---- blocks and statements ----

    def block(self, block: n.Block):
        """A block: None when it ends, else the signal that ends it (EXIT, a Goto)."""
        automaton = self.automata.get(id(block))
        if automaton is not None:
            return self.states(automaton)
        return self.sequence([self.stmt(s) for s in block.stmts])

    @staticmethod
    def sequence(stmts: list):
        if len(stmts) == 1:
            return stmts[0]

        def run(v):
            for s in stmts:
                signal = s(v)
                if signal is not None:
                    return signal
            return None
        return run

    def states(self, a):
        """A block with labels: its states run in turn until a transfer picks another."""
        index = {s.name: i for i, s in enumerate(a.states)}
        entry, last = index[a.entry], len(a.states) - 1
        bodies = [self.sequence([self.stmt(s) for s in state.stmts]) if state.stmts else None
                  for state in a.states]
        spans = [state.span for state in a.states]
        keys = [(a.owner, state.name) for state in a.states]
        tracer, stats, placed = self.tracer, self.stats, self.placed

        def run(v):
            i = entry
            if tracer is not None:
                tracer.state(a, None, i, "entry", None)
            while True:
                if stats is not None:
                    stats.states[keys[i]] = stats.states.get(keys[i], 0) + 1
                signal = bodies[i](v) if bodies[i] is not None else None
                if signal is None:  # the state ends without a transfer: the next one in the text
                    if i == last:
                        return None
                    if tracer is not None:
                        tracer.state(a, i, i + 1, "fall", None)
                    i += 1
                elif type(signal) is Goto and signal.label in index:
                    target = index[signal.label]
                    span = spans[target]  # where the step is (ClosureStateReader)
                    try:
                        limits.шаг()
                    except Failure as f:
                        raise placed(f, span) from None
                    if tracer is not None:
                        tracer.state(a, i, target, "goto", signal.node)
                    i = target
                else:
                    return signal
        return run

    def stmt(self, s: n.Stmt):
        """A statement's closure: it notes where the run is, and a failure not placed yet is
        placed at the statement; with a tracer, told of it first."""
        run = self.STMT[type(s)](self, s)
        tracer = self.tracer
        if tracer is None:
            return run

        def traced(v):
            tracer.statement(s)
            return run(v)
        return traced

    def _stmt_Assign(self, s: n.Assign):
        value, span, placed, name = self.expr(s.value), s.span, self.placed, s.target.name
        if self.tracer is None and self.scope_of(s.target) == "local":  # stored here: a call less
            def assign_local(v):
                self.where = span
                try:
                    v[name] = value(v)
                except Failure as f:
                    raise placed(f, span) from None
            return assign_local
        if self.tracer is None and self.scope_of(s.target) == "global":
            glob = self.globals

            def assign_global(v):
                self.where = span
                try:
                    glob[name] = value(v)
                except Failure as f:
                    raise placed(f, span) from None
            return assign_global
        if self.tracer is None and isinstance(s.target, n.Index):
            array, key = self.arrays[name], self.key(s.target)

            def assign_element(v):
                self.where = span
                try:
                    x = value(v)
                    array[key(v)] = x
                except Failure as f:
                    raise placed(f, span) from None
            return assign_element
        store = self.store(s.target)

        def assign(v):
            self.where = span
            try:
                store(v, value(v))
            except Failure as f:
                raise placed(f, span) from None
        return assign

    def _stmt_CallStmt(self, s: n.CallStmt):
        call, span, placed = self.call(s.call, want_value=False), s.span, self.placed

        def call_stmt(v):
            self.where = span
            try:
                call(v)
            except Failure as f:
                raise placed(f, span) from None
        return call_stmt

    def _stmt_If(self, s: n.If):
        cond, has_else = s.cond, s.else_ is not None
        value, then = self.expr(cond), self.block(s.then)
        else_ = self.block(s.else_) if has_else else None
        span, cond_span, placed, checked, tracer = s.span, cond.span, self.placed, self.checked, self.tracer

        def if_(v):
            self.where = span
            try:
                c = value(v)
                if tracer is not None:
                    tracer.condition(cond, c, "ЕСЛИ", has_else)
                if c is True:
                    return then(v)
                if c is not False:  # not a truth value: the runtime's error
                    checked(условие, c, cond_span)
                return else_(v) if else_ is not None else None
            except Failure as f:
                raise placed(f, span) from None
        return if_

    def _stmt_While(self, s: n.While):
        cond, value, body = s.cond, self.expr(s.cond), self.block(s.body)
        span, cond_span, placed, checked, tracer = s.span, cond.span, self.placed, self.checked, self.tracer
        endless = self.facts.endless.get(id(s))  # a loop whose condition nothing in it can change
        if endless is not None:
            names = [self.expr(n.Var(cond_span, name)) for name in endless.variables]

        def while_(v):
            self.where = span
            try:
                while True:
                    c = value(v)
                    if tracer is not None:
                        tracer.condition(cond, c, "ПОКА", False)
                    if c is not True:
                        if c is not False:  # not a truth value: the runtime's error
                            checked(условие, c, cond_span)
                        return None
                    limits.шаг()
                    signal = body(v)
                    if signal is not None:
                        return signal
                    if endless is not None:  # its condition cannot have changed: it still holds
                        checked(limits.цикл_не_кончится, endless.cond, cond_span, endless.unchanged,
                                endless.variables, [name(v) for name in names])
            except Failure as f:
                raise placed(f, span) from None
        return while_

    def _stmt_For(self, s: n.For):
        start, stop = self.expr(s.start), self.expr(s.stop)
        step = self.expr(s.step) if s.step is not None else None
        variable = n.Var(s.span, s.var)
        local = self.tracer is None and self.scope_of(variable) == "local"  # stored here: a call less
        store, body, span, placed = self.store(variable), self.block(s.body), s.span, self.placed
        name = s.var

        def for_(v):
            self.where = span
            try:
                first = start(v)
                values = прогрессия(first, 1 if step is None else step(v), stop(v))
                for value in values:
                    if local:
                        v[name] = value
                    else:
                        store(v, value)
                    limits.шаг()
                    signal = body(v)
                    if signal is not None:
                        return signal
                return None
            except Failure as f:
                raise placed(f, span) from None
        return for_

    def _stmt_Loop(self, s: n.Loop):
        body, span, placed = self.block(s.body), s.span, self.placed

        def loop(v):
            self.where = span
            try:
                while True:
                    limits.шаг()
                    signal = body(v)
                    if signal is EXIT:
                        return None
                    if signal is not None:
                        return signal
            except Failure as f:
                raise placed(f, span) from None
        return loop

    def _stmt_Exit(self, s: n.Exit):
        span = s.span

        def exit_(v):
            self.where = span
            return EXIT
        return exit_

    def _stmt_Print(self, s: n.Print):
        args, newline, span, placed = [self.expr(a) for a in s.args], s.newline, s.span, self.placed

        def print_(v):
            self.where = span
            try:
                io.сообщить(*[a(v) for a in args], перевод_строки=newline)
            except Failure as f:
                raise placed(f, span) from None
        return print_

    def _stmt_Read(self, s: n.Read):
        targets = [(t.span.text(), self.store(t)) for t in s.targets]
        span, placed, whole_line = s.span, self.placed, s.whole_line

        def read(v):
            self.where = span
            try:
                for name, store in targets:
                    store(v, (io.прочесть_строку_целиком if whole_line else io.прочесть)(name))
            except Failure as f:
                raise placed(f, span) from None
        return read

    def _stmt_Screen(self, s: n.Screen):
        args = [(self.expr(a), a.span) for a in s.args]
        op, span, placed, checked = s.op, s.span, self.placed, self.checked

        def screen(v):
            self.where = span
            try:
                if op == "clear":
                    io.очистить_экран()
                elif op == "cursor":
                    line, column = (checked(io.место_курсора, a(v), where) for a, where in args)
                    io.курсор(line, column)
                else:
                    io.пауза(checked(io.длительность, args[0][0](v), args[0][1]))
            except Failure as f:
                raise placed(f, span) from None
        return screen

    def _stmt_Stop(self, s: n.Stop):
        span = s.span

        def stop(v):
            self.where = span
            raise КонецРаботы
        return stop

    def _stmt_Goto(self, s: n.Goto):
        span, signal = s.span, Goto(s)

        def goto(v):
            self.where = span
            return signal
        return goto

    def _stmt_Label(self, s: n.Label):  # pragma: no cover - state blocks split at labels
        def label(v):
            self.where = s.span
        return label

    # ---- variables ----

    def scope_of(self, e: n.Expr) -> str | None:
        """What a name is in the body being made: "element", "ref" (a РЕЗ parameter), "local",
        "global"; None for another expression."""
        if isinstance(e, n.Index):
            return "element"
        if not isinstance(e, n.Var):
            return None
        if e.name in self.scope.refs:
            return "ref"
        return "local" if e.name in self.scope.locals else "global"

    def store(self, target: n.Target):
        """store(v, value): the assignment of a variable or an element."""
        tracer, scope = self.tracer, self.scope_of(target)
        if scope == "element":
            array, key = self.arrays[target.name], self.key(target)
            if tracer is None:
                def element(v, value):
                    array[key(v)] = value
                return element

            def traced_element(v, value):
                k = key(v)
                tracer.assign(target, k, array.get(k), value, False)
                array[k] = value
            return traced_element
        name, glob = target.name, self.globals
        if scope == "ref":  # the caller's variable or element
            def through(v, value):
                cell = v[name]
                if tracer is not None:
                    tracer.assign_through(target, cell, value, cell.место is not glob
                                          and not isinstance(cell.место, Массив))
                cell.значение = value
            return through
        local = scope == "local"
        if tracer is None:
            if local:
                def set_local(v, value):
                    v[name] = value
                return set_local

            def set_global(v, value):
                glob[name] = value
            return set_global

        def traced_variable(v, value):
            place = v if local else glob
            tracer.assign(target, None, place.get(name), value, local)
            place[name] = value
        return traced_variable

    def key(self, e: n.Index):
        """key(v): the key of an element, checked: an integer, or a tuple of them."""
        array, span, checked = self.arrays[e.name], e.span, self.checked
        indices = [self.expr(i) for i in e.indices]
        if len(indices) == 1:
            index = indices[0]

            def one(v):
                k = index(v)
                return k if type(k) is int else checked(индекс, k, span, array)
            return one
        if len(indices) == 2:
            first, second = indices

            def two(v):
                k = (first(v), second(v))
                return k if type(k[0]) is int and type(k[1]) is int else checked(индекс, k, span, array)
            return two

        def several(v):
            return checked(индекс, tuple([i(v) for i in indices]), span, array)
        return several

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
        unset = self.unset(e)
        if scope == "local":
            def local(v):
                try:
                    return v[name]
                except KeyError:
                    raise unset() from None
            return local
        glob = self.globals

        def global_(v):
            try:
                return glob[name]
            except KeyError:
                raise unset() from None
        return global_

    def unset(self, e: n.Var):
        """unset(): the failure of reading a variable that has no value, placed at it."""
        name, span, placed = e.name, e.span, self.placed
        return lambda: placed(fail("unset-var", name=name), span)

    def _expr_Index(self, e: n.Index):
        array, span, placed, checked = self.arrays[e.name], e.span, self.placed, self.checked
        if len(e.indices) == 2:  # `доска[r, c]`: its key made and checked here, a call less
            first, second = (self.expr(i) for i in e.indices)

            def element_of_two(v):
                k = (first(v), second(v))
                if type(k[0]) is not int or type(k[1]) is not int:
                    k = checked(индекс, k, span, array)
                try:
                    return array[k]
                except Failure as f:
                    raise placed(f, span) from None
            return element_of_two
        if len(e.indices) > 2:
            key = self.key(e)

            def element_of_several(v):
                try:
                    return array[key(v)]
                except Failure as f:
                    raise placed(f, span) from None
            return element_of_several
        index = e.indices[0]
        if self.scope_of(index) == "local":  # `к[n]`: the variable read here, a call less
            name, unset = index.name, self.unset(index)

            def element_at_local(v):
                try:
                    k = v[name]
                except KeyError:
                    raise unset() from None
                if type(k) is not int:
                    k = checked(индекс, k, span, array)
                try:
                    return array[k]
                except Failure as f:
                    raise placed(f, span) from None
            return element_at_local
        index = self.expr(index)

        def element(v):
            k = index(v)
            if type(k) is not int:
                k = checked(индекс, k, span, array)
            try:
                return array[k]
            except Failure as f:
                raise placed(f, span) from None
        return element

    def _expr_BuiltinCall(self, e: n.BuiltinCall):
        span, placed = e.span, self.placed
        if e.name == "ввод кончился":
            def input_ended(v):
                try:
                    return io.ввод_кончился()
                except Failure as f:
                    raise placed(f, span) from None
            return input_ended
        function, args = BUILTINS[e.name][0], [self.expr(a) for a in e.args]

        def builtin(v):
            values = [a(v) for a in args]
            try:
                return function(*values)
            except Failure as f:
                raise placed(f, span) from None
        return builtin

    def _expr_Unary(self, e: n.Unary):
        operand, function, span, placed = self.expr(e.operand), NEGATION.function, e.span, self.placed

        def negation(v):
            a = operand(v)
            if type(a) is int:
                return -a
            try:
                return function(a)
            except Failure as f:
                raise placed(f, span) from None
        return negation

    def _expr_Binary(self, e: n.Binary):
        op = OPERATORS[e.op]
        left, right, function, span, placed = self.expr(e.left), self.expr(e.right), op.function, e.span, self.placed
        python = PYTHON.get(op.python)
        fast = frozenset(TYPES[k] for k in op.exact if k in TYPES) if python is not None else ()
        if type(e.right) is n.Const and type(e.right.value) in fast and self.scope_of(e.left) == "local":
            b, kind, name, unset = e.right.value, type(e.right.value), e.left.name, self.unset(e.left)

            def local_with_constant(v):  # `x >= 1`, `n + 1`: the variable read here, two calls less
                try:
                    a = v[name]
                except KeyError:
                    raise unset() from None
                if type(a) is kind:
                    return python(a, b)
                try:
                    return function(a, b)
                except Failure as f:
                    raise placed(f, span) from None
            return local_with_constant
        if type(e.right) is n.Const and type(e.right.value) in fast:  # `поле[x] = 0`
            b, kind = e.right.value, type(e.right.value)

            def with_constant(v):
                a = left(v)
                if type(a) is kind:
                    return python(a, b)
                try:
                    return function(a, b)
                except Failure as f:
                    raise placed(f, span) from None
            return with_constant
        if fast == {int}:
            def integers(v):
                a, b = left(v), right(v)
                if type(a) is int and type(b) is int:
                    return python(a, b)
                try:
                    return function(a, b)
                except Failure as f:
                    raise placed(f, span) from None
            return integers
        if fast:
            def kinds(v):
                a, b = left(v), right(v)
                t = type(a)
                if t is type(b) and t in fast:
                    return python(a, b)
                try:
                    return function(a, b)
                except Failure as f:
                    raise placed(f, span) from None
            return kinds

        def checked(v):
            a, b = left(v), right(v)
            try:
                return function(a, b)
            except Failure as f:
                raise placed(f, span) from None
        return checked

    _expr_Compare = _expr_Binary

    def _expr_Logical(self, e: n.Logical):
        decisive = e.op == "ИЛИ"  # ИЛИ stops at ИСТИНА, И at ЛОЖЬ
        left, right, op, checked = self.expr(e.left), self.expr(e.right), e.op, self.checked
        left_span, right_span = e.left.span, e.right.span

        def logical(v):
            a = left(v)
            if a is not True and a is not False:
                a = checked(логическое, a, left_span, op)
            if a is decisive:
                return decisive
            b = right(v)
            if b is True or b is False:
                return b
            return checked(логическое, b, right_span, op)
        return logical

    def _expr_Not(self, e: n.Not):
        operand, span, checked = self.expr(e.operand), e.operand.span, self.checked

        def not_(v):
            a = operand(v)
            if a is True or a is False:
                return not a
            return not checked(логическое, a, span, "НЕ")
        return not_

    def _expr_IfExpr(self, e: n.IfExpr):
        cond, then, else_ = self.expr(e.cond), self.expr(e.then), self.expr(e.else_)
        span, checked, tracer = e.cond.span, self.checked, self.tracer

        def if_expr(v):
            value = cond(v)
            if tracer is None:
                return then(v) if checked(условие, value, span) else else_(v)
            tracer.condition(e.cond, value, "ЕСЛИ", True)  # traced: the branch taken, a step of its own
            taken = checked(условие, value, span)
            tracer.expression(e.then if taken else e.else_, "then" if taken else "else")
            return then(v) if taken else else_(v)
        return if_expr

    # ---- calls ----

    def call(self, e: n.Call, want_value: bool = True):
        """A call's closure: the arguments, the callee's body (made at its first call), its value."""
        d = self.program.definitions[e.name]
        args = [(p.name, self.cell(a) if p.by_ref else self.expr(a)) for a, p in zip(e.args, d.params)]
        body, code = self.facts.bodies[e.name], self.codes.setdefault(e.name, [None])
        stack, span, placed, name = self.stack, e.span, self.placed, e.name
        procedure = not d.is_function
        if self.tracer is not None or self.stats is not None:
            return self.watched_call(e, d, args, body, code, want_value)

        push, pop, enter, leave = stack.append, stack.pop, limits.войти, limits.выйти
        arity = len(args)
        (p1, a1), (p2, a2) = (args + [(None, None)] * 2)[:2]

        def call(v):
            if arity == 1:  # the values of the parameters (a dict written out: the commonest arities)
                values = {p1: a1(v)}
            elif arity == 2:
                values = {p1: a1(v), p2: a2(v)}
            else:
                values = {}
                for parameter, arg in args:
                    values[parameter] = arg(v)
            try:
                enter()
            except Failure as f:
                raise placed(f, span) from None
            push(Frame(body, values, e))
            value = (code[0] or self.made(name, code))(values)
            if procedure:
                value = values.get(RESULT)
            pop()
            leave()
            if want_value and value is None:
                raise placed(fail("no-value", name=name), span)
            return value
        return call

    def watched_call(self, e: n.Call, d: n.Definition, args: list, body, code: list, want_value: bool):
        """A call told to the tracer, or counted by the statistics."""
        stack, stats, tracer, span, placed, name = self.stack, self.stats, self.tracer, e.span, self.placed, e.name
        function = d.body if d.is_function else None

        def call(v):
            values = {}
            for parameter, arg in args:
                values[parameter] = arg(v)
            try:
                limits.войти()
            except Failure as f:
                raise placed(f, span) from None
            stack.append(Frame(body, values, e))
            if stats is not None:
                stats.calls[name] = stats.calls.get(name, 0) + 1
            run = code[0] or self.made(name, code)
            if tracer is None:
                value = run(values)
            else:
                tracer.call(d, e, values)
                if function is None:
                    value = run(values)
                else:  # a function: its value is its expression's (a step in, a step out)
                    tracer.expression(function, "body")
                    value = run(values)
                    tracer.expression(function, "value", value)
            if function is None:
                value = values.get(RESULT)
            stack.pop()
            limits.выйти()
            if tracer is not None:
                tracer.returned(d, e, value)
            if want_value and value is None:
                raise placed(fail("no-value", name=name), span)
            return value
        return call

    def made(self, key: str, code: list):
        """A definition's closure, made at its first call (a body never called costs nothing)."""
        scope = self.scope
        try:
            code[0] = self.compiled(key)
        finally:
            self.scope = scope
        return code[0]

    def cell(self, a: n.Expr):
        """cell(v): a РЕЗ argument, the cell of the caller's variable or element."""
        name, scope = a.name, self.scope_of(a)
        if scope == "element":
            array, key = self.arrays[name], self.key(a)
            return lambda v: Ячейка(array, key(v), name)
        if scope == "ref":  # passed on: the same cell
            return lambda v: v[name]
        if scope == "local":
            return lambda v: Ячейка(v, name, name)
        glob = self.globals
        return lambda v: Ячейка(glob, name, name)

    def _expr_Call(self, e: n.Call):
        return self.call(e)


class ClosureStateReader(StateReader):
    """The watch's reader of a run on closures (interpreter.StateReader): the closure that
    made the step — a loop's, a block of states' (a transfer), a call's (its entry) — holds
    the place of the step as `span`; the call in progress is the top of the stack."""

    @staticmethod
    def site(frame, at_step: bool):
        return frame.f_locals["span"]

    def call(self, frame) -> Frame:
        it = self.interpreter
        return it.stack[-1] if it.stack else it.main


def _table(prefix: str) -> dict:
    """Node class → the method that makes its closure."""
    return {getattr(n, name.removeprefix(prefix)): method
            for name, method in vars(ClosureInterpreter).items() if name.startswith(prefix)}


ClosureInterpreter.STMT = _table("_stmt_")
ClosureInterpreter.EXPR = _table("_expr_")

__all__ = ["ClosureInterpreter", "ClosureStateReader"]
