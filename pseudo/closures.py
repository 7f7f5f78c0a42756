"""The evaluator the views run on (`run --interpret`, `run --stats`, `trace`, `step`): the
tree made once into Python closures.

It does what the reference evaluator (interpreter.py) does — the same runtime calls in the
same order, the same steps, each failure placed at the same node with the same call stack,
the same events told to a tracer — but decides once, when a body is first run, what the tree
walk decides at every node: which code runs it, whether a name is local, global or РЕЗ,
whether a tracer listens. A node is a closure `f(v)`, `v` being the call's variables; an
expression's closures are closure_expressions.py's. tests/test_closures.py holds the two to each
other (docs/architecture.md, «Two evaluators»).
"""
from __future__ import annotations

from . import nodes as n
from .analysis import RESULT
from .closure_expressions import Expressions
from .interpreter import EXIT, SITE, Frame, Goto, Interpreter, StateReader
from .pygen.tested import assignment_function
from .runtime import io, limits
from .runtime.ops import прогрессия, условие
from .runtime.values import Failure, КонецРаботы, Массив, Ячейка

# The statements whose closures count their own event in the counted form (stmt()).
COUNTS_ITSELF = frozenset({n.Assign, n.CallStmt, n.If, n.While, n.For, n.Loop, n.Exit, n.Goto, n.Label})


class ClosureInterpreter(Expressions, Interpreter):
    """The reference evaluator's state (its globals, arrays, call stack, the place of the
    statement being run) and its placing of failures, with the tree made into closures."""

    def __init__(self, program: n.Program, facts, tracer=None, stats=None):
        super().__init__(program, facts, tracer, stats)
        self.codes: dict[str, list] = {}  # definition → [its body's closure, its counted form], each made at its first call
        self.counter = None  # the tracer whose events the body being made counts (its counted form)
        self.scope = facts.bodies[None]  # the body being made into closures

    def run(self) -> None:
        self.main = Frame(self.facts.bodies[None], {}, None)
        try:
            self.compiled(None)(self.main.values)
        except КонецРаботы:
            pass

    def describe(self, fr: tuple) -> str:
        """A call as a report shows it (a tuple on the stack, not a Frame: it costs a fifth)."""
        return super().describe(Frame(*fr))

    def compiled(self, key: str | None, counted: bool = False):
        """The closure of a body: of a function, its value; of a procedure, it runs it.
        `counted`: the form a call below a trace's window runs, which tells the tracer of no
        event, but counts each in the tracer's `count` (the untraced closures, and `counter`)."""
        outer, self.scope, tracer, counter = self.scope, self.facts.bodies[key], self.tracer, self.counter
        if counted:
            self.tracer, self.counter = None, tracer
        code = self.scope.code  # of `f (x) = g(x)`, g's call: f gives what g gives, even nothing
        closure = self.block(code) if isinstance(code, n.Block) else \
            self.call(code, want_value=False) if isinstance(code, n.Call) else self.expr(code)
        self.scope, self.tracer, self.counter = outer, tracer, counter
        return closure

    def counted(self, name: str, values: dict):
        """A call below the trace's window (the tracer told of it): its body's counted form.
        That form looks at the count only at each step and call, so it may be past the bound
        of events when the run fails or ends there: then the bound stops the run, as it would
        have at its event (Tracer.look)."""
        run = self.made(name, 1)
        if self.stats is not None:
            self.stats.calls[name] += 1
        try:
            return run(values)
        except (Failure, КонецРаботы):
            self.tracer.look()
            raise

    def made(self, name: str, form: int):
        """The body of `name` in `form` (0: its own, 1: its counted form), made at its first
        call — one never called costs nothing —, its count of calls begun then (the table of
        statistics lists them in the order of first calls)."""
        code = self.codes.setdefault(name, [None, None])
        if code[form] is None:
            code[form] = self.compiled(name, counted=form == 1)
            if self.stats is not None:
                self.stats.calls.setdefault(name, 0)
        return code[form]

    # ---- blocks and statements ----

    def block(self, block: n.Block):
        """A block: None when it ends, else the signal that ends it (EXIT, a Goto)."""
        automaton = self.automata.get(id(block))
        if automaton is not None:
            return self.states(automaton)
        return self.sequence(block.stmts)

    def sequence(self, stmts: tuple):
        """Statements run in turn; with a tracer, told of each as it begins (counted, below its
        window: by the statement's closure, stmt()). One or two statements, the commonest
        blocks, are written out: no loop."""
        closures, tracer = [self.stmt(s) for s in stmts], self.tracer
        if tracer is not None:
            pairs = list(zip(stmts, closures))

            def traced(v):
                for s, run in pairs:
                    tracer.statement(s)
                    signal = run(v)
                    if signal is not None:
                        return signal
                return None
            return traced
        if len(closures) == 1:
            return closures[0]
        if len(closures) == 2:
            first, second = closures

            def two(v):
                signal = first(v)
                return signal if signal is not None else second(v)
            return two

        def run(v):
            for s in closures:
                signal = s(v)
                if signal is not None:
                    return signal
            return None
        return run

    def states(self, a):
        """A block with labels: its states run in turn until a transfer picks another."""
        index = {s.name: i for i, s in enumerate(a.states)}
        entry, last = index[a.entry], len(a.states) - 1
        bodies = [self.sequence(state.stmts) for state in a.states]
        spans = [state.span for state in a.states]
        keys = [(a.owner, state.name) for state in a.states]
        tracer, stats, placed, counter = self.tracer, self.stats, self.placed, self.counter

        def run(v):
            i = entry
            if tracer is not None:
                tracer.state(a, None, i, "entry", None)
            elif counter is not None:
                counter.count += 1
            while True:
                if stats is not None:
                    stats.states[keys[i]] = stats.states.get(keys[i], 0) + 1
                signal = bodies[i](v)
                if signal is None:  # the state ends without a transfer: the next one in the text
                    if i == last:
                        return None
                    if tracer is not None:
                        tracer.state(a, i, i + 1, "fall", None)
                    elif counter is not None:
                        counter.count += 1
                    i += 1
                elif type(signal) is Goto and signal.label in index:
                    target = index[signal.label]
                    span = spans[target]  # where the step is (SITE, read by ClosureStateReader)
                    try:
                        limits.шаг()
                    except Failure as f:
                        raise placed(f, span) from None
                    if tracer is not None:
                        tracer.state(a, i, target, "goto", signal.node)
                    elif counter is not None:  # (a transfer: where a run may go on without end)
                        counter.count += 1
                        if counter.count > counter.mark:
                            counter.look()
                    i = target
                else:
                    return signal
        return run

    def stmt(self, s: n.Stmt):
        """A statement's closure: it notes `where`, and places a failure not placed yet there.
        In the counted form it counts the statement's event as it begins: the commonest kinds
        in their own closure (a frame less), the others in one around it."""
        closure, counter = self.STMT[type(s)](self, s), self.counter
        if counter is None or type(s) in COUNTS_ITSELF:
            return closure

        def counted(v):
            counter.count += 1
            return closure(v)
        return counted

    def _stmt_Assign(self, s: n.Assign):
        target, span, placed = s.target, s.span, self.placed
        name, scope = target.name, self.scope_of(target)
        if self.tracer is None and scope == "element":  # `m[i] := x`: x and the key by one function
            array, both, counter = self.arrays[name], assignment_function(self, s.value, target), self.counter

            def assign_element(v):
                self.where = span
                if counter is not None:
                    counter.count += 1
                try:
                    x, k = both(v)
                    if counter is not None:
                        counter.count += 1
                    array[k] = x
                except Failure as f:
                    raise placed(f, span) from None
            return assign_element
        value = self.expr(s.value)
        if scope in ("local", "global"):  # stored here (and told), not by store(): a call less
            glob, tracer, counter = None if scope == "local" else self.globals, self.tracer, self.counter

            def assign_variable(v):
                self.where = span
                if counter is not None:
                    counter.count += 1
                try:
                    x, place = value(v), v if glob is None else glob
                    if tracer is not None:
                        tracer.assign(target, None, place.get(name), x, glob is None)
                    elif counter is not None:
                        counter.count += 1
                    place[name] = x
                except Failure as f:
                    raise placed(f, span) from None
            return assign_variable
        store, counter = self.store(target), self.counter

        def assign(v):
            self.where = span
            if counter is not None:
                counter.count += 1
            try:
                store(v, value(v))
            except Failure as f:
                raise placed(f, span) from None
        return assign

    def _stmt_CallStmt(self, s: n.CallStmt):
        return self.call(s.call, want_value=False, statement=s.span)

    def _stmt_If(self, s: n.If):
        cond, has_else = s.cond, s.else_ is not None
        value, then = self.expr(cond), self.block(s.then)
        else_ = self.block(s.else_) if has_else else None
        span, cond_span, placed, checked, tracer = s.span, cond.span, self.placed, self.checked, self.tracer
        counter = self.counter

        def if_(v):
            self.where = span
            if counter is not None:
                counter.count += 1
            try:
                c = value(v)
                if tracer is not None:
                    tracer.condition(cond, c, "ЕСЛИ", has_else)
                elif counter is not None:
                    counter.count += 1
                if c is True or c is not False and checked(условие, c, cond_span):  # (a truth value: no call)
                    return then(v)
                return else_(v) if else_ is not None else None
            except Failure as f:
                raise placed(f, span) from None
        return if_

    def _stmt_While(self, s: n.While):
        cond, value, body = s.cond, self.expr(s.cond), self.block(s.body)
        span, cond_span, placed, checked, tracer = s.span, cond.span, self.placed, self.checked, self.tracer
        counter, step = self.counter, limits.шаг
        endless = self.facts.endless.get(id(s))  # a loop whose condition nothing in it can change
        if endless is not None:
            names = [self.expr(n.Var(cond_span, name)) for name in endless.variables]

        def while_(v):
            self.where = span
            if counter is not None:
                counter.count += 1
            try:
                while True:
                    c = value(v)
                    if tracer is not None:
                        tracer.condition(cond, c, "ПОКА", False)
                    elif counter is not None:  # (a step: where a run may go on without end)
                        counter.count += 1
                        if counter.count > counter.mark:
                            counter.look()
                    if c is not True and (c is False or not checked(условие, c, cond_span)):  # (as ЕСЛИ's)
                        return None
                    step()
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
        by, step = self.expr(s.step) if s.step is not None else None, limits.шаг  # (ШАГ; a step of the limits)
        fixed, last_fixed = (x.value if type(x) is n.Const else None for x in (s.start, s.stop))  # `ДЛЯ m := 1 ДО 5`: no call
        variable, name, span, placed, counter = n.Var(s.span, s.var), s.var, s.span, self.placed, self.counter
        quiet = self.tracer is None and self.scope_of(variable) == "local"  # stored here, not by store()
        store, body = self.store(variable), self.block(s.body)
        events = 1 if quiet else 0  # counted: the assignment's event (store() counts its own)

        def for_(v):
            self.where = span
            if counter is not None:
                counter.count += 1
            try:
                first = start(v) if fixed is None else fixed
                if by is None:  # integers by 1, the commonest: прогрессия's first case, a call less (ops.py)
                    last = stop(v) if last_fixed is None else last_fixed
                    values = range(first, last + 1) if type(first) is int and type(last) is int else \
                        прогрессия(first, 1, last)
                else:
                    values = прогрессия(first, by(v), stop(v))
                for value in values:
                    if quiet:
                        v[name] = value
                    else:
                        store(v, value)
                    if counter is not None:  # (and a step: a long loop looks at the count)
                        counter.count += events
                        if counter.count > counter.mark:
                            counter.look()
                    step()
                    signal = body(v)
                    if signal is not None:
                        return signal
                return None
            except Failure as f:
                raise placed(f, span) from None
        return for_

    def _stmt_Loop(self, s: n.Loop):
        body, span, placed, counter = self.block(s.body), s.span, self.placed, self.counter

        def loop(v):
            self.where = span
            if counter is not None:
                counter.count += 1
            try:
                while True:
                    limits.шаг()
                    if counter is not None and counter.count > counter.mark:
                        counter.look()
                    signal = body(v)
                    if signal is EXIT:
                        return None
                    if signal is not None:
                        return signal
            except Failure as f:
                raise placed(f, span) from None
        return loop

    def _stmt_Exit(self, s: n.Exit):
        return self.signal(s.span, EXIT)

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
        span, placed, whole_line, look = s.span, self.placed, s.whole_line, self.look()

        def read(v):
            self.where = span
            look()  # (before the program waits for its input)
            try:
                for name, store in targets:
                    store(v, (io.прочесть_строку_целиком if whole_line else io.прочесть)(name))
            except Failure as f:
                raise placed(f, span) from None
        return read

    def _stmt_Screen(self, s: n.Screen):
        args, op, span, placed, checked = [(self.expr(a), a.span) for a in s.args], s.op, s.span, self.placed, self.checked
        look = self.look()

        def screen(v):
            self.where = span
            look()  # (before a pause)
            try:
                if op == "clear":
                    io.очистить_экран()
                elif op == "cursor":
                    io.курсор(*(checked(io.место_курсора, a(v), where) for a, where in args))
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
        return self.signal(s.span, Goto(s))

    def _stmt_Label(self, s: n.Label):  # pragma: no cover - state blocks split at labels
        return self.signal(s.span, None)

    def look(self):
        """look(): in the counted form, before the program waits (for input, in a pause), the
        count looked at as the tracer would (a bound of events past stops the run first)."""
        counter = self.counter
        if counter is None:
            return lambda: None

        def look():
            if counter.count > counter.mark:
                counter.look()
        return look

    def signal(self, span, signal):
        """A statement that only ends its block: КОНЧЕНО (EXIT), a transfer (a Goto)."""
        counter = self.counter

        def give(v):
            self.where = span
            if counter is not None:
                counter.count += 1
            return signal
        return give

    # ---- variables ----

    def scope_of(self, e: n.Expr) -> str | None:
        """What a name is in the body made: "element", "ref" (РЕЗ), "local", "global"; else None."""
        if isinstance(e, n.Index):
            return "element"
        if not isinstance(e, n.Var):
            return None
        if e.name in self.scope.refs:
            return "ref"
        return "local" if e.name in self.scope.locals else "global"

    def store(self, target: n.Target):
        """store(v, value): the assignment of a variable or an element, told to the tracer."""
        tracer, scope, name, glob, counter = self.tracer, self.scope_of(target), target.name, self.globals, self.counter
        if scope == "element":
            array, key = self.arrays[name], self.key(target)

            def element(v, value):
                k = key(v)
                if tracer is not None:
                    tracer.assign(target, k, array.get(k), value, False)
                elif counter is not None:
                    counter.count += 1
                array[k] = value
            return element
        if scope == "ref":  # the caller's variable or element
            def through(v, value):
                cell = v[name]
                if tracer is not None:
                    tracer.assign_through(target, cell, value, cell.место is not glob
                                          and not isinstance(cell.место, Массив))
                elif counter is not None:
                    counter.count += 1
                cell.значение = value
            return through
        local = scope == "local"

        def variable(v, value):
            place = v if local else glob
            if tracer is not None:
                tracer.assign(target, None, place.get(name), value, local)
            elif counter is not None:
                counter.count += 1
            place[name] = value
        return variable

    # ---- calls ----

    def call(self, e: n.Call, want_value: bool = True, statement=None):
        """A call's closure: the arguments, the callee's body (made at its first call), its value.
        `statement`: the span of the statement the call is, which it notes as `where` (every
        failure of a call is placed at the call or inside it)."""
        d, name, span, placed = self.program.definitions[e.name], e.name, e.span, self.placed
        pairs = list(zip(e.args, d.params))
        values, unset = self.operands([a for a, p in pairs if not p.by_ref])
        args = [(p.name, self.cell(a) if p.by_ref else values.pop(0)) for a, p in pairs]
        arity, ((p1, a1), (p2, a2)) = len(args), (args + [(None, None)] * 2)[:2]
        body, code, given, made = self.facts.bodies[name], self.codes.setdefault(name, [None, None]), self.given, self.made
        stack, push, pop, enter = self.stack, self.stack.append, self.stack.pop, limits.войти_на_глубину
        tracer, function, calls = self.tracer, d.body if d.is_function else None, self.stats and self.stats.calls
        counter, form = self.counter, 0 if self.counter is None else 1  # (the counted form calls the counted form)
        events = 1 if function is None else 2  # before its body: the call, a function's step into the body; after: the return
        counted, gives = calls is not None or counter is not None, want_value and statement is None and function is not None
        if tracer is not None:
            return self.traced_call(e, d, want_value, statement, args, unset)

        def call(v):
            if statement is not None:
                self.where = statement
                if counter is not None:
                    counter.count += 1
            try:  # the values of the parameters (a dict written out for the commonest arities)
                values = {p1: a1(v)} if arity == 1 else {p1: a1(v), p2: a2(v)} if arity == 2 else \
                    {parameter: arg(v) for parameter, arg in args}
            except KeyError as missing:
                raise unset(missing) from None
            try:
                enter(len(stack))  # (the depth is the stack's)
            except Failure as f:
                raise placed(f, span) from None
            push((body, values, e))
            run = code[form]
            if run is None:
                run = made(name, form)
            if counted:  # (run --stats, or below a trace's window; else one test, not three)
                if calls is not None:
                    calls[name] += 1
                if counter is not None:  # (a call is where a run may go on without end: the count looked at)
                    if counter.count > counter.mark:
                        counter.look()
                    counter.count += events
                value = run(values)
                if counter is not None:
                    counter.count += events
            else:
                value = run(values)
            pop()
            if gives:  # a function's value, the commonest: one test, not three
                return value if value is not None else given(e, value, True)
            if statement is not None:
                return None  # a statement's closure gives a signal or None
            return given(e, values.get(RESULT) if function is None else value, want_value)
        return call

    def traced_call(self, e: n.Call, d: n.Definition, want_value: bool, statement, args: list, unset):
        """call() told to the tracer: the call and its return; below the trace's window, the
        callee's counted form."""
        name, span, placed, tracer, stack = e.name, e.span, self.placed, self.tracer, self.stack
        body, calls = self.facts.bodies[name], self.stats and self.stats.calls
        function = d.body if d.is_function else None  # (a function's body: a step in, and out with its value, told with the call)
        below = tracer.counted_below  # the depth of the calls only counted

        def call(v):
            if statement is not None:
                self.where = statement
            try:
                values = {parameter: arg(v) for parameter, arg in args}
            except KeyError as missing:
                raise unset(missing) from None
            try:
                limits.войти_на_глубину(len(stack))
            except Failure as f:
                raise placed(f, span) from None
            stack.append((body, values, e))
            tracer.call(d, e, values, function)
            if tracer.depth > below:  # below the trace's window
                value = self.counted(name, values)
            else:
                run = self.made(name, 0)
                if calls is not None:
                    calls[name] += 1
                value = run(values)
            if function is None:
                value = values.get(RESULT)
            stack.pop()
            tracer.returned(d, e, value, function)
            value = self.given(e, value, want_value)
            return value if statement is None else None
        return call

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

    _expr_Call = call  # a call in an expression must give a value


class ClosureStateReader(StateReader):
    """The watch's reader of a run on closures (interpreter.StateReader): the closure that
    made the step — a loop's, a block of states' (a transfer), a call's (its entry) — holds
    the place of the step as SITE; the call in progress is the top of the stack, as a
    Frame made for it at the first look that finds it there."""

    def __init__(self, interpreter: ClosureInterpreter):
        super().__init__(interpreter)
        self.frames: dict[int, tuple] = {}  # id of a call on the stack → (the call, its Frame), kept

    @staticmethod
    def site(frame, at_step: bool):
        return frame.f_locals[SITE]

    def call(self, frame) -> Frame:
        it = self.interpreter
        if not it.stack:
            return it.main
        entry = it.stack[-1]  # (kept with its Frame: its id is not another's)
        return self.frames.setdefault(id(entry), (entry, Frame(*entry)))[1]


ClosureInterpreter.STMT = n.arms("closures, statements", ClosureInterpreter, "_stmt_")
ClosureInterpreter.EXPR = n.arms("closures, expressions", ClosureInterpreter, "_expr_")

__all__ = ["ClosureInterpreter", "ClosureStateReader"]
