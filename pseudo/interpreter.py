"""The reference evaluator: runs the resolved tree, statement by statement.

`exec` runs a statement and `eval` computes an expression, one small method per node class
(constants and variables, the commonest, `eval` reads itself).
What each operation does — its value, its error — is the runtime's (pseudo.runtime), the same
functions the compiled program calls, so the two cannot disagree; the interpreter only adds
where an error happened: a runtime failure takes the span of the node being evaluated, and
the call stack of the calls in progress.

It is `pseudo.run`'s mode "reference". The views — `pseudo run --interpret`, `trace`, `step`,
`run --stats` — run on closures.py, which keeps this evaluator's state and placing of failures
and is held to it event for event (tests/test_closures.py). A Tracer, when given, is told of
every statement, condition, assignment, call, return, transfer, input and output,
and of the steps inside expressions: a function's body begun and its value, the branch a
conditional expression takes.
"""
from __future__ import annotations

from . import nodes as n
from .analysis import RESULT, Facts
from .analysis.automaton import Automaton
from .runtime import io, limits
from .runtime.library import BUILTINS
from .runtime.limits import frozen
from .runtime.ops import NEGATION, OPERATORS, индекс, логическое, прогрессия, условие
from .runtime.report import kept_stack, shown_argument, stack_entry
from .runtime.values import Failure, КонецРаботы, Массив, Ячейка, fail

EXIT = "КОНЧЕНО"  # the signal of КОНЧЕНО: leave the innermost endless loop
# The locals the run's watch reads in the function that made a step or began a call (StateReader,
# closures.ClosureStateReader): the place of the step, the loop statement, the call, the call in
# progress. Every such function binds them (tests/test_architecture.py).
SITE, STATEMENT, CALL, FRAME = "span", "s", "e", "fr"


class Goto:
    """The signal of a transfer: the state block that owns the label runs it next."""
    __slots__ = ("label", "node")

    def __init__(self, node: n.Goto):
        self.label, self.node = node.label, node


class Frame:
    """One call in progress: its locals (a name absent has no value yet) and the call."""
    __slots__ = ("body", "call", "values")

    def __init__(self, body, values: dict, call: n.Call | None):
        self.body, self.values, self.call = body, values, call


class Stats:
    """How many times each state was entered and each definition called (`run --stats`)."""

    def __init__(self):
        self.states: dict[tuple[str | None, str], int] = {}
        self.calls: dict[str, int] = {}


class Interpreter:
    def __init__(self, program: n.Program, facts: Facts, tracer=None, stats: Stats | None = None):
        self.program, self.facts, self.tracer, self.stats = program, facts, tracer, stats
        self.globals: dict = {}
        self.automata = facts.automata  # id(block) → its automaton, for the blocks with labels
        self.arrays = {name: Массив(name) for name in facts.arrays}
        self.stack: list[Frame] = []  # the calls in progress, outermost first
        self.where = None  # the span of the statement being run
        if stats is not None:  # every state is listed, the ones never entered with 0
            for a in facts.top_automata():
                for state in a.states:
                    stats.states.setdefault((a.owner, state.name), 0)

    def run(self) -> None:
        """The main program, to its end, КОНЕЦ_РАБОТЫ or the final state Я."""
        main = Frame(self.facts.bodies[None], {}, None)
        try:
            self.exec_block(self.program.main, main)
        except КонецРаботы:
            pass

    # ---- errors ----

    def placed(self, failure: Failure, span) -> Failure:
        """A failure gets the place of the innermost node that was being evaluated, and the
        call stack at that moment."""
        if failure.place is None:
            failure.place = span
            failure.stack = self.call_stack()
        return failure

    def call_stack(self) -> list:
        """The calls in progress, described — of a long recursion only those the report shows
        (report.kept_stack): a failure at a depth of 100,000 unwinds in the time of its calls."""
        return kept_stack(self.stack, self.describe)

    def describe(self, fr: Frame) -> str:
        d = fr.body.definition
        values = [shown_argument(fr.values.get(p.name)) for p in d.params]
        return stack_entry(d.name, {p.name for p in d.params}, d.words, values, fr.call.span)

    def checked(self, function, value, span, *more):
        """function(value, …) of the runtime, a failure placed at `span`."""
        try:
            return function(value, *more)
        except Failure as f:
            raise self.placed(f, span) from None

    def step(self, span) -> None:
        try:
            limits.шаг()
        except Failure as f:
            raise self.placed(f, span) from None

    # ---- blocks and statements ----

    def exec_block(self, block: n.Block, fr: Frame):
        """Run a block; None when it ends, else the signal that ends it (EXIT, a Goto)."""
        automaton = self.automata.get(id(block))
        if automaton is not None:
            return self.exec_states(automaton, fr)
        for s in block.stmts:
            signal = self.exec(s, fr)
            if signal is not None:
                return signal
        return None

    def exec_states(self, a: Automaton, fr: Frame):
        """A block with labels: its states run in turn until a transfer picks another."""
        index = {s.name: i for i, s in enumerate(a.states)}
        i = index[a.entry]
        self.on_state(a, None, i, "entry")
        while True:
            if self.stats is not None:
                key = (a.owner, a.states[i].name)
                self.stats.states[key] = self.stats.states.get(key, 0) + 1
            signal = None
            for s in a.states[i].stmts:
                signal = self.exec(s, fr)
                if signal is not None:
                    break
            if signal is None:  # the state ends without a transfer: the next one in the text
                if i + 1 == len(a.states):
                    return None
                self.on_state(a, i, i + 1, "fall")
                i += 1
            elif isinstance(signal, Goto) and signal.label in index:
                target = index[signal.label]
                self.step(a.states[target].span)
                self.on_state(a, i, target, "goto", signal.node)
                i = target
            else:
                return signal

    def exec(self, s: n.Stmt, fr: Frame):
        self.where = s.span
        if self.tracer is not None:
            self.tracer.statement(s)
        try:
            return self.EXEC[type(s)](self, s, fr)
        except Failure as f:
            raise self.placed(f, s.span) from None

    def _exec_Assign(self, s: n.Assign, fr: Frame):
        self.store(s.target, self.eval(s.value, fr), fr)

    def _exec_CallStmt(self, s: n.CallStmt, fr: Frame):
        self.call(s.call, fr, want_value=False)

    def _exec_If(self, s: n.If, fr: Frame):
        if self.condition(s.cond, fr, "ЕСЛИ", s.else_ is not None):
            return self.exec_block(s.then, fr)
        if s.else_ is not None:
            return self.exec_block(s.else_, fr)
        return None

    def _exec_While(self, s: n.While, fr: Frame):
        endless = self.facts.endless.get(id(s))
        while self.condition(s.cond, fr, "ПОКА"):
            limits.шаг()  # a limit it meets is placed at the loop by exec()
            signal = self.exec_block(s.body, fr)
            if signal is not None:
                return signal
            if endless is not None:  # its condition cannot have changed: it still holds
                values = [self.eval(n.Var(s.cond.span, name), fr) for name in endless.variables]
                self.checked(limits.цикл_не_кончится, endless.cond, s.cond.span, endless.unchanged,
                             endless.variables, values)
        return None

    def _exec_For(self, s: n.For, fr: Frame):
        start = self.eval(s.start, fr)
        step = self.eval(s.step, fr) if s.step is not None else 1
        values = прогрессия(start, step, self.eval(s.stop, fr))
        variable = n.Var(s.span, s.var)
        for value in values:
            self.store(variable, value, fr)
            limits.шаг()  # a limit it meets is placed at the loop by exec()
            signal = self.exec_block(s.body, fr)
            if signal is not None:
                return signal
        return None

    def _exec_Loop(self, s: n.Loop, fr: Frame):
        while True:
            limits.шаг()  # a limit it meets is placed at the loop by exec()
            signal = self.exec_block(s.body, fr)
            if signal is EXIT:
                return None
            if signal is not None:
                return signal

    def _exec_Exit(self, s: n.Exit, fr: Frame):
        return EXIT

    def _exec_Print(self, s: n.Print, fr: Frame):
        io.сообщить(*[self.eval(a, fr) for a in s.args], перевод_строки=s.newline)

    def _exec_Read(self, s: n.Read, fr: Frame):
        read = io.прочесть_строку_целиком if s.whole_line else io.прочесть
        for target in s.targets:
            self.store(target, read(target.span.text()), fr)

    def _exec_Screen(self, s: n.Screen, fr: Frame):
        if s.op == "clear":
            io.очистить_экран()
        elif s.op == "cursor":
            line, column = (self.checked(io.место_курсора, self.eval(a, fr), a.span) for a in s.args)
            io.курсор(line, column)
        else:
            io.пауза(self.checked(io.длительность, self.eval(s.args[0], fr), s.args[0].span))

    def _exec_Stop(self, s: n.Stop, fr: Frame):
        raise КонецРаботы

    def _exec_Goto(self, s: n.Goto, fr: Frame):
        return Goto(s)

    def _exec_Label(self, s: n.Label, fr: Frame):  # pragma: no cover - state blocks split at labels
        return None

    def condition(self, e: n.Expr, fr: Frame, construct: str, has_else: bool = False) -> bool:
        value = self.eval(e, fr)
        if self.tracer is not None:
            self.tracer.condition(e, value, construct, has_else)
        try:
            return условие(value)
        except Failure as f:
            raise self.placed(f, e.span) from None

    # ---- variables ----

    def store(self, target: n.Target, value, fr: Frame) -> None:
        if isinstance(target, n.Index):
            array = self.arrays[target.name]
            key = self.key(target, fr, array)
            if self.tracer is not None:
                self.tracer.assign(target, key, array.get(key), value, False)
            array[key] = value
            return
        name = target.name
        if name in fr.body.refs:  # РЕЗ: the caller's variable or element
            cell = fr.values[name]
            if self.tracer is not None:
                self.tracer.assign_through(target, cell, value, cell.место is not self.globals
                                           and not isinstance(cell.место, Массив))
            cell.значение = value
            return
        place = fr.values if name in fr.body.locals else self.globals
        if self.tracer is not None:
            self.tracer.assign(target, None, place.get(name), value, place is fr.values)
        place[name] = value

    def key(self, e: n.Index, fr: Frame, array):
        """The key of an element, checked: an integer, or a tuple of them."""
        if len(e.indices) == 1:
            key = self.eval(e.indices[0], fr)
            if type(key) is int:
                return key
        else:
            key = tuple([self.eval(i, fr) for i in e.indices])
        return self.checked(индекс, key, e.span, array)

    # ---- expressions ----

    LEAVES = (n.Const, n.Var)  # evaluated by eval() itself, with no method of their own

    def eval(self, e: n.Expr, fr: Frame):
        # Constants and variables, more than half of the nodes a run evaluates, are read here
        # rather than by a method of their own: a Python call less for each.
        if type(e) is n.Const:
            return e.value
        try:
            if type(e) is n.Var:
                if e.name in fr.body.refs:  # РЕЗ: the caller's variable or element
                    return fr.values[e.name].значение
                place = fr.values if e.name in fr.body.locals else self.globals
                if e.name not in place:
                    raise fail("unset-var", name=e.name)
                return place[e.name]
            return self.EVAL[type(e)](self, e, fr)
        except Failure as f:
            raise self.placed(f, e.span) from None

    def _eval_Index(self, e: n.Index, fr: Frame):
        array = self.arrays[e.name]
        return array[self.key(e, fr, array)]

    def _eval_BuiltinCall(self, e: n.BuiltinCall, fr: Frame):
        return BUILTINS[e.name][0](*[self.eval(a, fr) for a in e.args])

    def _eval_Unary(self, e: n.Unary, fr: Frame):
        return NEGATION.function(self.eval(e.operand, fr))

    def _eval_Binary(self, e: n.Binary, fr: Frame):
        return OPERATORS[e.op].function(self.eval(e.left, fr), self.eval(e.right, fr))

    _eval_Compare = _eval_Binary

    def _eval_Logical(self, e: n.Logical, fr: Frame):
        decisive = e.op == "ИЛИ"  # ИЛИ stops at ИСТИНА, И at ЛОЖЬ
        part = e.left
        try:
            if логическое(self.eval(part, fr), e.op) is decisive:
                return decisive
            part = e.right
            return логическое(self.eval(part, fr), e.op)
        except Failure as f:
            raise self.placed(f, part.span) from None

    def _eval_Not(self, e: n.Not, fr: Frame):
        return not self.checked(логическое, self.eval(e.operand, fr), e.operand.span, "НЕ")

    def _eval_IfExpr(self, e: n.IfExpr, fr: Frame):
        if self.tracer is None:
            return self.eval(e.then if self.checked(условие, self.eval(e.cond, fr), e.cond.span) else e.else_, fr)
        value = self.eval(e.cond, fr)  # traced: the condition, then the branch taken, a step of its own
        self.tracer.condition(e.cond, value, "ЕСЛИ", True)
        then = self.checked(условие, value, e.cond.span)
        self.tracer.expression(e.then if then else e.else_, "then" if then else "else")
        return self.eval(e.then if then else e.else_, fr)

    # ---- calls ----

    def call(self, e: n.Call, fr: Frame, want_value: bool = True):
        d = self.program.definitions[e.name]
        args = {}
        for a, p in zip(e.args, d.params):
            args[p.name] = self.cell(a, fr) if p.by_ref else self.eval(a, fr)
        try:
            limits.войти_на_глубину(len(self.stack))  # (the depth is the stack's: no выйти() after)
        except Failure as f:
            raise self.placed(f, e.span) from None
        callee = Frame(self.facts.bodies[e.name], args, e)
        self.stack.append(callee)
        if self.stats is not None:
            self.stats.calls[e.name] = self.stats.calls.get(e.name, 0) + 1
        if self.tracer is not None:
            self.tracer.call(d, e, args)
        if isinstance(d.body, n.Block):
            self.exec_block(d.body, callee)
            value = callee.values.get(RESULT)
        else:  # a function: its value is its expression's (traced: a step in, a step out)
            if self.tracer is not None:
                self.tracer.expression(d.body, "body")
            if isinstance(d.body, n.Call):  # `f (x) = g(x)`: f gives what g gives, even nothing
                value = self.call(d.body, callee, want_value=False)
            else:
                value = self.eval(d.body, callee)
            if self.tracer is not None:
                self.tracer.expression(d.body, "value", value)
        self.stack.pop()
        if self.tracer is not None:
            self.tracer.returned(d, e, value)
        return self.given(e, value, want_value)

    def given(self, e: n.Call, value, want_value: bool):
        """The value of a call: none where one is wanted is the failure «no-value» at the call."""
        if want_value and value is None:
            raise self.placed(fail("no-value", name=e.name), e.span)
        return value

    def cell(self, a: n.Expr, fr: Frame) -> Ячейка:
        """A РЕЗ argument: the cell of the caller's variable or element."""
        if isinstance(a, n.Index):
            array = self.arrays[a.name]
            return Ячейка(array, self.key(a, fr, array), a.name)
        if a.name in fr.body.refs:  # passed on: the same cell
            return fr.values[a.name]
        return Ячейка(fr.values if a.name in fr.body.locals else self.globals, a.name, a.name)

    _eval_Call = call  # a call in an expression must give a value

    # ---- the tracer's view of states ----

    def on_state(self, a: Automaton, source: int | None, target: int, how: str, goto=None) -> None:
        if self.tracer is not None:
            self.tracer.state(a, source, target, how, goto)


class StateReader:
    """The interpreter's state, read for the run's watch (runtime/limits.py, Watch) from the
    Python frame that made the step: a loop's method (the loop, STATEMENT), `step` (a transfer:
    the state it enters, SITE) or `call` (the entry of a call, CALL); the call in progress is
    FRAME there. It compares what the exact code's reader compares — the call in progress, the
    place of the step, its variables, the globals and arrays, input, output and random numbers
    —, so both stop at the same look."""

    def __init__(self, interpreter: Interpreter):
        self.interpreter = interpreter

    @staticmethod
    def site(frame, at_step: bool):
        here = frame.f_locals
        return here[SITE] if frame.f_code is STEP else here[STATEMENT].span if at_step else here[CALL].span

    @staticmethod
    def call(frame) -> Frame:
        """The call in progress (a transfer's: the block of states is one frame up)."""
        return frame.f_back.f_locals[FRAME] if frame.f_code is STEP else frame.f_locals[FRAME]

    def snapshot(self, frame):
        span, fr = self.site(frame, True), self.call(frame)
        count, it = [0], self.interpreter
        values = [tuple((name, frozen(v, count)) for name, v in names.items()) for names in (it.globals, fr.values)]
        arrays = tuple((name, frozen(a, count)) for name, a in it.arrays.items())
        place = (span.filename, span.line, span.column, span.end_line, span.end_column)
        return (fr, place, *values, arrays, io.surroundings()), count[0]

    def variables(self, frame) -> dict:
        """The globals' values and the call's, by name (a РЕЗ parameter by the value it reaches)."""
        fr = self.call(frame)
        return {name: v.или_ничего() if isinstance(v, Ячейка) else v
                for names in (self.interpreter.globals, fr.values) for name, v in names.items()}


Interpreter.EXEC = n.arms("interpreter, statements", Interpreter, "_exec_")  # looked up once, not by name at each node
Interpreter.EVAL = n.arms("interpreter, expressions", Interpreter, "_eval_", Interpreter.LEAVES)
STEP = Interpreter.step.__code__

__all__ = ["CALL", "EXIT", "FRAME", "SITE", "STATEMENT", "Goto", "Interpreter", "StateReader", "Stats"]
