"""The evaluator: the resolved tree is compiled once into nested Python closures.

Each expression becomes `ev(frame) -> value` and each statement `ex(frame) -> signal`,
where `signal` is None, EXIT (КОНЧЕНО) or a `Transfer` to a label. Dispatch on node types
happens once, at compile time, never while the program runs; integer arithmetic has an
inlined fast path. Locals live in a per-call list (`frame`), scalar globals in one list,
and arrays (always global) in dicts captured directly by the closures.

Without a tracer, each block without labels is then written as one Python function
(fastblock) and each pure expression as another (fastexpr); these fall back on the closures
for anything unusual, so the closures remain the definition of what a program does.
"""
from __future__ import annotations

import operator

from . import nodes as n
from .automaton import build
from .errors import PseudoRuntimeError
from .fastblock import compile_block
from .fastexpr import compile_pure
from .runtime import (
    NOVALUE,
    UNSET,
    Input,
    Machine,
    Output,
    PArray,
    arith,
    check_index,
    compare,
    for_range,
    negate,
    show,
    show_key,
    truth,
)
from .trace import Tracer, shown, statement_text

EXIT = "КОНЧЕНО"
RESULT = "РЕЗУЛЬТАТ"
ENTRY_LABEL = "ПРОГРАММА"


class StopProgram(Exception):
    """КОНЕЦ_РАБОТЫ or the final state Я."""


class Transfer:
    """A goto in flight: which block owns the label and which segment it starts."""
    __slots__ = ("index", "label", "owner")

    def __init__(self, label: str):
        self.label, self.owner, self.index = label, None, 0


class Ref:
    """A РЕЗ argument: reads and writes go to the caller's variable or element, which a
    trace names (`name`, `index`, `local`)."""
    __slots__ = ("get", "index", "local", "name", "set")

    def __init__(self, get, set_, name: str, index=None, local: bool = False):
        self.get, self.set = get, set_
        self.name, self.index, self.local = name, index, local


class CompiledDef:
    """A definition's invoke(args, span), and for calls written out by fastblock its body and
    frame: `body(frame)`, how many unset locals follow the parameters, where РЕЗУЛЬТАТ is."""
    __slots__ = ("body", "definition", "invoke", "pad", "result_slot")

    def __init__(self, definition: n.Definition):
        self.definition = definition
        self.invoke = self.body = None
        self.pad = len(definition.locals) - len(definition.params)
        self.result_slot = definition.locals.index(RESULT) if RESULT in definition.locals else None


class Stats:
    """How many times each state was entered and each definition called (`run --stats`)."""

    def __init__(self):
        self.states: dict[tuple[str | None, str], int] = {}
        self.calls: dict[str, int] = {}


class Interpreter:
    def __init__(self, program: n.Program, machine: Machine, output: Output, input_: Input,
                 stats: Stats | None = None, tracer: Tracer | None = None):
        self.program, self.m, self.out, self.inp = program, machine, output, input_
        self.stats = stats
        self.tracer = tracer
        self.goto_conditions: dict[tuple[int, int], str | None] = {}
        if tracer is not None:
            self._trace_streams(tracer)
        self.owner: str | None = None
        self.globals: list = []
        self.plain_only = False
        self.global_index: dict[str, int] = {}
        self.arrays: dict[str, PArray] = {}
        self.defs = {key: CompiledDef(d) for key, d in program.definitions.items()}
        self.local_index: dict[str, int] = {}
        self.ref_params: set[str] = set()
        self.transfers: dict[str, Transfer] = {}
        for key, cd in self.defs.items():
            self.owner = key
            cd.invoke = self._compile_definition(cd)
            if stats is not None:
                cd.invoke = self._counted(key, cd.invoke)
            if tracer is not None:
                cd.invoke = self._traced_call(cd.definition, cd.invoke)
        self.local_index, self.ref_params, self.transfers, self.owner = {}, set(), {}, None
        self.main = self._block(program.main, entry=ENTRY_LABEL)

    def _trace_streams(self, tracer: Tracer) -> None:
        """Output and input events: the text exactly as written, the values as read."""
        stream, next_value = self.out.stream, self.inp.next

        class TracedStream:
            def write(self, text):
                tracer.emit("output", tracer.current, text=text)
                return stream.write(text)

            def flush(self):
                return stream.flush()

        def traced_next():
            value = next_value()
            if value is not UNSET:
                tracer.emit("input", tracer.current, value=show(value))
            return value
        self.out.stream, self.inp.next = TracedStream(), traced_next
        self.out.screen = False  # a traced run shows the screen phrases as plain lines

    def run(self) -> None:
        try:
            self.main(None)
        except StopProgram:
            pass
        finally:
            self.out.finish()

    # ---- names ----

    def _global(self, name: str) -> int:
        if name not in self.global_index:
            self.global_index[name] = len(self.globals)
            self.globals.append(UNSET)
        return self.global_index[name]

    def _array(self, name: str) -> PArray:
        if name not in self.arrays:
            self.arrays[name] = PArray(name)
        return self.arrays[name]

    # ---- definitions ----

    def _compile_definition(self, cd: CompiledDef):
        d = cd.definition
        self.local_index = {name: i for i, name in enumerate(d.locals)}
        self.ref_params = {p.name for p in d.params if p.by_ref}
        self.transfers = {}
        m, stack = self.m, self.m.stack
        max_depth = m.limits.max_depth
        pad = [UNSET] * cd.pad
        result_slot = cd.result_slot
        is_function = d.is_function
        if is_function and isinstance(d.body, n.Call):
            # `f (x) = g(x)`: f gives back whatever g gives, even nothing (g a procedure)
            body = self._call(d.body, expect_value=False)
        else:
            body = self._expr(d.body) if is_function else self._block(d.body)
        cd.body = body

        def invoke(args, span):
            if len(stack) >= max_depth:
                raise m.depth_exceeded(span)
            frame = args + pad if pad else args
            stack.append((d, span, frame))
            m.steps += 1
            if m.steps > m.check_at:
                m.checkpoint(span)
            value = body(frame)
            stack.pop()
            if is_function:
                return value
            if result_slot is None or frame[result_slot] is UNSET:
                return NOVALUE
            return frame[result_slot]
        return invoke

    def _counted(self, key: str, invoke):
        calls = self.stats.calls
        calls[key] = 0

        def counted(args, span):
            calls[key] += 1
            return invoke(args, span)
        return counted

    def _traced_call(self, d: n.Definition, invoke):
        tracer, name, params = self.tracer, definition_name(d), [p.name for p in d.params]

        def traced(args, span):
            tracer.emit("call", span, name=name, args=[_shown_arg(a) for a in args], params=params,
                        phrase=d.is_phrase)
            tracer.depth += 1
            caller = tracer.current
            value = invoke(args, span)
            tracer.current = caller  # what the caller prints next belongs to its own statement
            tracer.depth -= 1
            tracer.emit("return", span, name=name, value=None if value is NOVALUE else show(value))
            return value
        return traced

    # ---- blocks and statements ----

    def _block(self, block: n.Block, entry: str | None = None):
        stmts = [s for s in block.stmts]
        if any(isinstance(s, n.Label) for s in stmts):
            return self._state_block(stmts, entry)
        if self.tracer is None and not self.plain_only and stmts:
            fast = compile_block(stmts, self)
            if fast is not None:
                return fast
        code = [self._stmt(s) for s in stmts]
        if not code:
            return lambda fr: None
        if len(code) == 1:
            return code[0]
        if len(code) == 2:
            a, b = code

            def run2(fr):
                r = a(fr)
                if r is not None:
                    return r
                return b(fr)
            return run2

        def run(fr):
            for ex in code:
                r = ex(fr)
                if r is not None:
                    return r
        return run

    def _state_block(self, stmts: list, entry: str | None):
        """A block with labels: segments that run in turn until a transfer picks another."""
        segments: list[list] = [[]]
        spans = [None]
        owner = object()
        for s in stmts:
            if isinstance(s, n.Label):
                t = self._transfer(s.name)
                t.owner, t.index = owner, len(segments)
                segments.append([])
                spans.append(s.span)
            else:
                segments[-1].append(s)
        if self.tracer is not None:
            edges = build(self.owner, n.Block(stmts[0].span, tuple(stmts))).edges
            self.goto_conditions.update({(e.span.line, e.span.column): e.condition for e in edges if e.span})
        code = [[self._stmt(s) for s in seg] for seg in segments]
        start = self.transfers[entry].index if entry in self.transfers and self.transfers[entry].owner is owner else 0
        if start == 0 and not code[0]:
            start = 1  # no statements before the first label: the program starts in that state
        m, count = self.m, len(code)
        names = ["начало"] + [s.name for s in stmts if isinstance(s, n.Label)]
        counts, keys = None, None
        if self.stats is not None:  # `run --stats`: count entries into each state
            counts = self.stats.states
            keys = [(self.owner, name) for name in names]
            for key in keys[0 if code[0] else 1:]:
                counts.setdefault(key, 0)
        tr = self.tracer

        def run(fr):
            i = start
            if tr is not None:
                tr.emit("state", spans[i], **{"from": None, "to": names[i], "condition": None, "how": "entry"})
            while i < count:
                if counts is not None:
                    counts[keys[i]] += 1
                for ex in code[i]:
                    r = ex(fr)
                    if r is not None:
                        break
                else:
                    i += 1
                    if tr is not None and i < count:
                        tr.emit("state", spans[i], **{"from": names[i - 1], "to": names[i], "condition": None,
                                                       "how": "fall"})
                    continue
                if r.__class__ is Transfer and r.owner is owner:
                    m.steps += 1
                    if m.steps > m.check_at:
                        m.checkpoint(spans[r.index])
                    if tr is not None:
                        tr.emit("state", spans[r.index], **{"from": names[i], "to": names[r.index],
                                                             "condition": tr.condition, "how": "goto"})
                    i = r.index
                    continue
                return r
        return run

    def _transfer(self, label: str) -> Transfer:
        if label not in self.transfers:
            self.transfers[label] = Transfer(label)
        return self.transfers[label]

    def _stmt(self, s: n.Stmt):
        ex = getattr(self, "_stmt_" + type(s).__name__)(s)
        if self.tracer is None or isinstance(s, n.Label):
            return ex
        tracer, span, text = self.tracer, s.span, statement_text(s)

        def traced(fr):
            tracer.current = span
            tracer.emit("stmt", span, text=text)
            return ex(fr)
        return traced

    def _stmt_Assign(self, s: n.Assign):
        if self.tracer is not None:
            value, store = self._expr(s.value), self._traced_store(s.target)
            return lambda fr: store(fr, value(fr))
        return self._assigner(s.target, self._expr(s.value))

    def _traced_store(self, target: n.Target):
        """An assignment that reports the old and the new value."""
        tracer, span, name = self.tracer, target.span, target.name
        if isinstance(target, n.Index):
            arr, key = self._array(name), self._key(target.indices)

            def store_elem(fr, v):
                k = check_index(key(fr), arr, span)
                old = arr.get(k, UNSET)
                arr[k] = v
                tracer.emit("assign", span, name=name, index=[show(x) for x in (k if type(k) is tuple else (k,))],
                            old=shown(old), new=show(v), local=False)
            return store_elem
        store, peek = self._assigner(target, None), self._peek(name)
        local = name in self.local_index
        if name in self.ref_params:  # РЕЗ: the change is the caller's variable's or element's
            slot = self.local_index[name]

            def store_through(fr, v):
                ref, old = fr[slot], peek(fr)
                store(fr, v)
                tracer.emit("assign", span, name=ref.name, index=ref.index, old=shown(old), new=show(v),
                            local=ref.local)
            return store_through

        def store_var(fr, v):
            old = peek(fr)
            store(fr, v)
            tracer.emit("assign", span, name=name, index=None, old=shown(old), new=show(v), local=local)
        return store_var

    def _peek(self, name: str):
        """The current value of a variable, or UNSET, without failing."""
        if name in self.ref_params:
            slot = self.local_index[name]

            def through_ref(fr):
                try:
                    return fr[slot].get()
                except PseudoRuntimeError:
                    return UNSET
            return through_ref
        if name in self.local_index:
            slot = self.local_index[name]
            return lambda fr: fr[slot]
        slot, g = self._global(name), self.globals
        return lambda fr: g[slot]

    def _traced_cond(self, cond, e: n.Expr, construct: str, has_else: bool = False):
        tracer, span, text = self.tracer, e.span, e.span.full_text()

        def traced(fr):
            value = cond(fr)
            tracer.emit("cond", span, text=text, value=show(value), construct=construct, has_else=has_else)
            return value
        return traced

    def _stmt_CallStmt(self, s: n.CallStmt):
        call = self._call(s.call, expect_value=False)

        def ex(fr):
            call(fr)
        return ex

    def _stmt_If(self, s: n.If):
        cond, then = self._expr(s.cond), self._block(s.then)
        if self.tracer is not None:
            cond = self._traced_cond(cond, s.cond, "ЕСЛИ", s.else_ is not None)
        else_ = self._block(s.else_) if s.else_ is not None else None
        span = s.cond.span

        def ex(fr):
            c = cond(fr)
            if c is True:
                return then(fr)
            if c is False:
                return else_(fr) if else_ is not None else None
            truth(c, span)
        return ex

    def _stmt_While(self, s: n.While):
        cond, body, m, span = self._expr(s.cond), self._block(s.body), self.m, s.span
        if self.tracer is not None:
            cond = self._traced_cond(cond, s.cond, "ПОКА")

        def ex(fr):
            while True:
                c = cond(fr)
                if c is not True:
                    if c is False:
                        return None
                    truth(c, span)
                m.steps += 1
                if m.steps > m.check_at:
                    m.checkpoint(span)
                r = body(fr)
                if r is not None:
                    return r
        return ex

    def _stmt_Loop(self, s: n.Loop):
        body, m, span = self._block(s.body), self.m, s.span

        def ex(fr):
            while True:
                m.steps += 1
                if m.steps > m.check_at:
                    m.checkpoint(span)
                r = body(fr)
                if r is not None:
                    return None if r is EXIT else r
        return ex

    def _stmt_Exit(self, s: n.Exit):
        return lambda fr: EXIT

    def _stmt_For(self, s: n.For):
        start, stop = self._expr(s.start), self._expr(s.stop)
        step = self._expr(s.step) if s.step is not None else (lambda fr: 1)
        body, m, span = self._block(s.body), self.m, s.span
        if s.var in self.local_index and s.var not in self.ref_params and self.tracer is None:  # kept tight
            slot = self.local_index[s.var]

            def ex(fr):
                for v in for_range(start(fr), step(fr), stop(fr), span):
                    fr[slot] = v
                    m.steps += 1
                    if m.steps > m.check_at:
                        m.checkpoint(span)
                    r = body(fr)
                    if r is not None:
                        return r
            return ex
        target = n.Var(span, s.var)
        store = self._traced_store(target) if self.tracer is not None else self._assigner(target, None)

        def ex_store(fr):
            for v in for_range(start(fr), step(fr), stop(fr), span):
                store(fr, v)
                m.steps += 1
                if m.steps > m.check_at:
                    m.checkpoint(span)
                r = body(fr)
                if r is not None:
                    return r
        return ex_store

    def _stmt_Print(self, s: n.Print):
        args, out, newline = [self._expr(a) for a in s.args], self.out, s.newline

        def ex(fr):
            out.write([a(fr) for a in args], newline)
        return ex

    def _stmt_Read(self, s: n.Read):
        inp = self.inp
        store = self._traced_store if self.tracer is not None else (lambda t: self._assigner(t, None))
        targets = [(store(t), t) for t in s.targets]

        m = self.m

        def ex(fr):
            m.where = s.span  # so that Ctrl-C while waiting for input says where
            for assign, target in targets:
                value = inp.next()
                if value is UNSET:
                    raise PseudoRuntimeError("read-eof", s.span, name=target.span.text())
                assign(fr, value)
        return ex

    def _stmt_Screen(self, s: n.Screen):
        args, out, m, span = [self._expr(a) for a in s.args], self.out, self.m, s.span
        if s.op == "clear":
            return lambda fr: out.clear()
        spans = tuple(a.span for a in s.args)  # an error points at the argument
        if s.op == "cursor":
            line, column = args
            return lambda fr: out.cursor(line(fr), column(fr), spans)
        ms = args[0]
        return lambda fr: out.pause(ms(fr), lambda: m.checkpoint(span), spans[0])

    def _stmt_Stop(self, s: n.Stop):
        def ex(fr):
            raise StopProgram
        return ex

    def _stmt_Goto(self, s: n.Goto):
        transfer = self._transfer(s.label)
        if self.tracer is not None:  # the state event names the condition that chose this transfer
            tracer, condition = self.tracer, self.goto_conditions.get((s.span.line, s.span.column))

            def traced(fr):
                tracer.condition = condition
                return transfer
            return traced
        return lambda fr: transfer

    def _stmt_Label(self, s: n.Label):  # pragma: no cover - labels split state blocks
        return lambda fr: None

    # ---- assignment ----

    def _assigner(self, target: n.Target, value):
        """With `value` a closure: a statement. With None: a function (frame, value) for ПРОЧЕСТЬ."""
        if isinstance(target, n.Index):
            arr, key, span = self._array(target.name), self._key(target.indices), target.span

            def set_elem(fr, v):
                k = key(fr)
                arr[k if type(k) is int else check_index(k, arr, span)] = v
            store = set_elem
        elif target.name in self.ref_params:
            slot = self.local_index[target.name]

            def store(fr, v):
                fr[slot].set(v)
        elif target.name in self.local_index:
            slot = self.local_index[target.name]

            def store(fr, v):
                fr[slot] = v
        else:
            slot, g = self._global(target.name), self.globals

            def store(fr, v):
                g[slot] = v
        if value is None:
            return store
        if isinstance(target, n.Var) and target.name in self.local_index and target.name not in self.ref_params:
            slot = self.local_index[target.name]

            def assign_local(fr):
                fr[slot] = value(fr)
            return assign_local
        if isinstance(target, n.Var) and target.name not in self.ref_params:
            gslot, g = self._global(target.name), self.globals

            def assign_global(fr):
                g[gslot] = value(fr)
            return assign_global
        def assign(fr):
            store(fr, value(fr))
        return assign

    def _key(self, indices):
        parts = [self._expr(e) for e in indices]
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:  # boards: the common case, without a generator
            first, second = parts
            return lambda fr: (first(fr), second(fr))
        return lambda fr: tuple(p(fr) for p in parts)

    # ---- expressions ----

    def _plain(self, build):
        """build() with plain closures only: no compiled expressions or blocks inside."""
        outer, self.plain_only = self.plain_only, True
        try:
            return build()
        finally:
            self.plain_only = outer

    def _expr(self, e: n.Expr):
        build = getattr(self, "_expr_" + type(e).__name__)
        if self.plain_only or self.tracer is not None or isinstance(e, (n.Const, n.Var, n.Call)):
            return build(e)
        slow = self._plain(lambda: build(e))  # the parts of this expression become its closure
        fast = compile_pure(e, self.local_index, self.ref_params, lambda name: (self._global(name), self.globals),
                            self._array, slow)
        return fast or slow

    def _expr_Const(self, e: n.Const):
        value = e.value
        return lambda fr: value

    def _expr_Var(self, e: n.Var):
        name, span = e.name, e.span
        if name in self.ref_params:
            slot = self.local_index[name]

            def through_ref(fr):
                try:
                    return fr[slot].get()
                except PseudoRuntimeError as err:  # the caller's variable is unset: say so where it is read
                    raise PseudoRuntimeError(err.code, span, **err.args_) from None
            return through_ref
        if name in self.local_index:
            slot = self.local_index[name]

            def local(fr):
                v = fr[slot]
                if v is UNSET:
                    raise PseudoRuntimeError("unset-var", span, name=name)
                return v
            return local
        slot, g = self._global(name), self.globals

        def global_(fr):
            v = g[slot]
            if v is UNSET:
                raise PseudoRuntimeError("unset-var", span, name=name)
            return v
        return global_

    def _expr_Index(self, e: n.Index):
        arr, key, span = self._array(e.name), self._key(e.indices), e.span

        def checked(fr):
            k = check_index(key(fr), arr, span)  # an integer index: ИСТИНА is not 1
            try:
                return arr[k]
            except KeyError:
                raise PseudoRuntimeError("unset-elem", span, name=arr.name, index=show_key(k)) from None
        return checked  # the common case is compiled with the whole expression (fastexpr)

    def _expr_Call(self, e: n.Call):
        return self._call(e, expect_value=True)

    def _call(self, e: n.Call, expect_value: bool):
        cd = self.defs[e.name]
        params = cd.definition.params
        args = [self._ref(a) if p.by_ref else self._expr(a) for a, p in zip(e.args, params)]
        span = e.span
        if not expect_value:
            if len(args) == 0:
                return lambda fr: cd.invoke([], span)
            if len(args) == 1:
                a0, = args
                return lambda fr: cd.invoke([a0(fr)], span)
            if len(args) == 2:
                a0, a1 = args
                return lambda fr: cd.invoke([a0(fr), a1(fr)], span)
            return lambda fr: cd.invoke([a(fr) for a in args], span)

        no_value = self._no_value(e)
        if len(args) == 0:
            def call0(fr):
                r = cd.invoke([], span)
                if r is NOVALUE:
                    raise no_value()
                return r
            return call0
        if len(args) == 1:
            a0, = args

            def call1(fr):
                r = cd.invoke([a0(fr)], span)
                if r is NOVALUE:
                    raise no_value()
                return r
            return call1
        if len(args) == 2:
            a0, a1 = args

            def call2(fr):
                r = cd.invoke([a0(fr), a1(fr)], span)
                if r is NOVALUE:
                    raise no_value()
                return r
            return call2

        def call(fr):
            r = cd.invoke([a(fr) for a in args], span)
            if r is NOVALUE:
                raise no_value()
            return r
        return call

    def _no_value(self, e: n.Call):
        """The error of a procedure called for a value: a function making it."""
        span, name = e.span, e.name
        return lambda: PseudoRuntimeError("no-value", span, name=name)

    def _ref(self, e: n.Expr):
        """A closure making the Ref for a РЕЗ argument."""
        if isinstance(e, n.Var) and e.name in self.ref_params:
            slot = self.local_index[e.name]
            return lambda fr: fr[slot]
        read = self._expr(e)
        store = self._assigner(e, None)
        if isinstance(e, n.Index):
            arr, key, span = self._array(e.name), self._key(e.indices), e.span

            def elem_ref(fr):
                k = check_index(key(fr), arr, span)

                def get():
                    try:
                        return arr[k]
                    except KeyError:
                        raise PseudoRuntimeError("unset-elem", span, name=arr.name, index=show_key(k)) from None
                index = [show(x) for x in (k if type(k) is tuple else (k,))]
                return Ref(get, lambda v: arr.__setitem__(k, v), arr.name, index)
            return elem_ref
        name, local = e.name, e.name in self.local_index
        return lambda fr: Ref(lambda: read(fr), lambda v: store(fr, v), name, None, local)

    def _expr_Unary(self, e: n.Unary):
        operand, span = self._expr(e.operand), e.span

        def neg(fr):
            v = operand(fr)
            if type(v) is int:
                return -v
            return negate(v, span)
        return neg

    def _expr_Binary(self, e: n.Binary):
        return self._binary(e.op, self._expr(e.left), self._expr(e.right), e.span, e.right)

    def _binary(self, op, left, right, span, right_node):
        if op == "+":
            if isinstance(right_node, n.Const) and type(right_node.value) is int:
                c = right_node.value

                def add_const(fr):
                    a = left(fr)
                    if type(a) is int:
                        return a + c
                    return arith(op, a, c, span)
                return add_const

            def add(fr):
                a, b = left(fr), right(fr)
                if type(a) is int and type(b) is int:
                    return a + b
                return arith(op, a, b, span)
            return add
        if op == "-":
            def sub(fr):
                a, b = left(fr), right(fr)
                if type(a) is int and type(b) is int:
                    return a - b
                return arith(op, a, b, span)
            return sub
        if op == "*":
            def mul(fr):
                a, b = left(fr), right(fr)
                if type(a) is int and type(b) is int:
                    return a * b
                return arith(op, a, b, span)
            return mul

        def general(fr):
            return arith(op, left(fr), right(fr), span)
        return general

    def _expr_Compare(self, e: n.Compare):
        left, right, span, op = self._expr(e.left), self._expr(e.right), e.span, e.op
        fast = {"=": operator.eq, "≠": operator.ne, "<": operator.lt, "≤": operator.le,
                ">": operator.gt, "≥": operator.ge}[op]
        if op == "=":
            def eq(fr):
                a, b = left(fr), right(fr)
                kind_ = type(a)
                if kind_ is type(b) and (kind_ is int or kind_ is str):  # boards of numbers or of letters
                    return a == b
                return compare(op, a, b, span)
            return eq

        def cmp(fr):
            a, b = left(fr), right(fr)
            kind_ = type(a)
            if kind_ is type(b) and (kind_ is int or kind_ is str):
                return fast(a, b)
            return compare(op, a, b, span)
        return cmp

    def _expr_Logical(self, e: n.Logical):
        left, right, op = self._expr(e.left), self._expr(e.right), e.op
        lspan, rspan = e.left.span, e.right.span
        decisive = op == "ИЛИ"  # ИЛИ stops at ИСТИНА, И stops at ЛОЖЬ

        def logical(fr):
            a = left(fr)
            if a is decisive:
                return a
            if a is not (not decisive):
                truth(a, lspan, op)
            b = right(fr)
            if b is True or b is False:
                return b
            return truth(b, rspan, op)
        return logical

    def _expr_Not(self, e: n.Not):
        operand, span = self._expr(e.operand), e.operand.span

        def not_(fr):
            v = operand(fr)
            if v is True:
                return False
            if v is False:
                return True
            return truth(v, span, "НЕ")
        return not_

    def _expr_IfExpr(self, e: n.IfExpr):
        cond, then, else_, span = self._expr(e.cond), self._expr(e.then), self._expr(e.else_), e.cond.span

        def if_expr(fr):
            c = cond(fr)
            if c is True:
                return then(fr)
            if c is False:
                return else_(fr)
            return truth(c, span)
        return if_expr



def definition_name(d: n.Definition) -> str:
    """HR, or a phrase as it reads with its parameters elided: «занять …, …»."""
    if not d.is_phrase:
        return d.name
    params = {p.name for p in d.params}
    return "«" + " ".join("…" if w in params else w for w in d.words).replace(" ,", ",") + "»"


def _shown_arg(value) -> str:
    """An argument as a trace shows it; a РЕЗ argument by the value it refers to."""
    if isinstance(value, Ref):
        try:
            return show(value.get())
        except PseudoRuntimeError:
            return "—"
    return show(value)
