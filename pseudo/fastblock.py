"""Blocks of statements compiled to one Python function each, for the interpreter.

The closures of the interpreter pay one Python call per statement, block, loop and
expression. For a block without labels this module writes one function instead: ЕСЛИ, ПОКА
and ДЛЯ become Python's if, while and for, assignments and procedure calls are written out,
and pure expressions are computed inline as in fastexpr. The generated code decides nothing
itself that the closures decide:
  - an expression that leaves the common case (an unset variable, a fraction, a missing
    element, …) is evaluated again by its plain closure, which computes it or reports the error;
  - an element assignment whose index is not a plain integer is done by the closure's store;
  - ДЛЯ takes its values from the same `for_range`, a condition that is not logical goes to
    the same `truth`, steps are counted at the same places with the same checkpoint;
  - every other statement (ПРОЧЕСТЬ, СООБЩИТЬ, КОНЧЕНО, goto, …) is its ordinary closure,
    and a signal it returns (КОНЧЕНО, a transfer) leaves the function as it leaves a block;
  - a statement whose own blocks hold labels keeps its closure (those blocks are automata).
One difference is a matter of resources: the generated code needs fewer Python frames per
pseudo call, so a program nested so deeply that the closures reach Python's recursion limit
(the «nesting-limit» error, as under `trace` or `--stats`) may run to its end here.
"""
from __future__ import annotations

from . import nodes as n
from .fastexpr import GIVE_UP, _Generator, _GiveUp, _NotPure
from .runtime import NOVALUE, UNSET, for_range, truth

# Statements nested deeper keep their closures: each level may open a loop and a try, and
# Python allows 20 nested blocks in one function.
MAX_NESTING = 6
SILENT = (n.Assign, n.CallStmt, n.Print, n.Read, n.Screen, n.Stop)  # never return a signal


def compile_block(stmts, host):
    """A function fr → signal for the statements, or None to keep the closures.

    `host` is the interpreter: its names (local_index, ref_params, globals, arrays), its
    machine, and its closures for statements and expressions."""
    gen = _BlockGenerator(host)
    try:
        gen.block(stmts, 1)
        namespace = {"_GiveUp": _GiveUp, "UNSET": UNSET, "NOVALUE": NOVALUE, "G": host.globals, "M": host.m,
                     "STACK": host.m.stack, "MAX_DEPTH": host.m.limits.max_depth,
                     "for_range": for_range, "truth": truth, **gen.arrays, **gen.objects}
        exec("\n".join(["def block(fr):"] + gen.lines), namespace)  # noqa: S102 - generated above, from the tree
    except (SyntaxError, RecursionError, MemoryError):
        return None
    return namespace["block"]


def _has_labels(s) -> bool:
    """Labels in a block directly inside `s`: that block is a state block, kept as closures."""
    blocks = [s.then, s.else_] if isinstance(s, n.If) else [s.body] if isinstance(s, (n.While, n.For)) else []
    return any(isinstance(x, n.Label) for b in blocks if b is not None for x in b.stmts)


class _BlockGenerator(_Generator):
    def __init__(self, host):
        super().__init__(host.local_index, host.ref_params, lambda name: (host._global(name), host.globals),
                         host._array)
        self.host = host
        self.objects: dict[str, object] = {}
        self.constant_ints: set[str] = set()  # integer constants of the statements: known in every expression

    def region(self) -> None:
        super().region()
        self.ints |= self.constant_ints

    def object(self, prefix: str, value) -> str:
        """A name in the generated function's namespace for a closure, a span or a definition."""
        name = f"{prefix}{len(self.objects)}"
        self.objects[name] = value
        return name

    # ---- statements ----

    def block(self, stmts, depth: int) -> None:
        if not stmts:
            self.line(depth, "pass")
        for s in stmts:
            self.stmt(s, depth)

    def stmt(self, s, depth: int) -> None:
        if depth <= MAX_NESTING and not _has_labels(s):
            match s:
                case n.Assign(target=n.Var(name=name)) if name not in self.ref_params:
                    return self.assign_var(name, s.value, depth)
                case n.Assign(target=n.Index()):
                    return self.assign_elem(s, depth)
                case n.CallStmt(call=call):
                    return self.call(call, depth, value=False)
                case n.If():
                    return self.if_(s, depth)
                case n.While():
                    return self.while_(s, depth)
                case n.For() if s.var not in self.ref_params:
                    return self.for_(s, depth)
        self.closure(s, depth)

    def closure(self, s, depth: int) -> None:
        """The statement's own closure; a signal it returns leaves the block."""
        name = self.object("S", self.host._stmt(s))
        if isinstance(s, SILENT):
            self.line(depth, f"{name}(fr)")
            return
        r = self.temp()
        self.line(depth, f"{r} = {name}(fr)")
        self.line(depth, f"if {r} is not None: return {r}")

    def line(self, depth: int, text: str) -> None:
        """A line of statement code; `expr(e, depth)` writes at depth + 1, inside a try."""
        self.lines.append("    " * depth + text)

    def target(self, name: str) -> str:
        if name in self.locals:
            return f"fr[{self.locals[name]}]"
        return f"G[{self.global_slot(name)[0]}]"

    def assign_var(self, name: str, value, depth: int) -> None:
        v = self.value(value, depth)
        self.line(depth, f"{self.target(name)} = {v}")

    def assign_elem(self, s: n.Assign, depth: int) -> None:
        """Value first, then the index, as the closure does; an unusual index goes to its store."""
        v = self.value(s.value, depth)
        store = self.object("E", self.host._plain(lambda: self.host._assigner(s.target, None)))
        mark = len(self.lines)
        self.region()
        try:
            self.line(depth, "try:")
            keys = [self.expr(i, depth) for i in s.target.indices]
        except _NotPure:
            del self.lines[mark:]
            self.line(depth, f"{store}(fr, {v})")
            return
        array = self.array_name(s.target.name)
        key = keys[0] if len(keys) == 1 else "(" + ", ".join(keys) + ")"
        self.require_ints(keys, depth)
        self.line(depth, f"except {GIVE_UP}:")
        self.line(depth + 1, f"{store}(fr, {v})")
        self.line(depth, "else:")
        self.line(depth + 1, f"{array}[{key}] = {v}")

    def if_(self, s: n.If, depth: int) -> None:
        c = self.value(s.cond, depth)
        self.line(depth, f"if {c} is True:")
        self.block(s.then.stmts, depth + 1)
        if s.else_ is not None:
            self.line(depth, f"elif {c} is False:")
            self.block(s.else_.stmts, depth + 1)
            self.line(depth, "else:")
        else:
            self.line(depth, f"elif {c} is not False:")
        self.line(depth + 1, f"truth({c}, {self.object('P', s.cond.span)})")

    def while_(self, s: n.While, depth: int) -> None:
        span = self.object("P", s.span)
        self.line(depth, "while True:")
        c = self.value(s.cond, depth + 1)
        self.line(depth + 1, f"if {c} is not True:")
        self.line(depth + 2, f"if {c} is False: break")
        self.line(depth + 2, f"truth({c}, {span})")
        self.step(span, depth + 1)
        self.block(s.body.stmts, depth + 1)

    def for_(self, s: n.For, depth: int) -> None:
        span = self.object("P", s.span)
        start = self.value(s.start, depth)
        step = self.value(s.step, depth) if s.step is not None else "1"
        stop = self.value(s.stop, depth)
        v = self.temp()
        values = f"for_range({start}, {step}, {stop}, {span})"
        if s.step is None:  # the common case, as in for_range itself
            tests = " and ".join(f"type({x}) is int" for x in (start, stop) if x not in self.constant_ints)
            fast = f"range({start}, {stop} + 1)"
            values = f"{fast} if {tests} else {values}" if tests else fast
        self.line(depth, f"for {v} in {values}:")
        self.line(depth + 1, f"{self.target(s.var)} = {v}")
        self.step(span, depth + 1)
        self.block(s.body.stmts, depth + 1)

    def step(self, span: str, depth: int) -> None:
        self.line(depth, "M.steps += 1")
        self.line(depth, f"if M.steps > M.check_at: M.checkpoint({span})")

    # ---- expressions in statements ----

    def value(self, e, depth: int) -> str:
        """A temporary holding e's value: pure expressions inline, calls written out, the rest
        by their closures."""
        if isinstance(e, n.Call):
            return self.call(e, depth, value=True)
        if isinstance(e, n.Const) and type(e.value) in (int, str, bool):
            t = self.temp()
            self.line(depth, f"{t} = {e.value!r}")
            if type(e.value) is int:
                self.constant_ints.add(t)
            return t
        mark = len(self.lines)
        self.region()
        try:
            self.line(depth, "try:")
            result = self.checked(self.expr(e, depth), depth)
        except _NotPure:
            del self.lines[mark:]
            t = self.temp()
            self.line(depth, f"{t} = {self.object('X', self.host._expr(e))}(fr)")
            return t
        t = self.temp()
        self.line(depth + 1, f"{t} = {result}")
        self.line(depth, f"except {GIVE_UP}:")
        self.line(depth + 1, f"{t} = {self.object('X', self.host._plain(lambda: self.host._expr(e)))}(fr)")
        return t

    def call(self, e: n.Call, depth: int, value: bool) -> str | None:
        """The definition's invoke, with the arguments evaluated left to right as in `_call`."""
        cd = self.host.defs[e.name]
        args = []
        for a, p in zip(e.args, cd.definition.params):
            if p.by_ref:
                t = self.temp()
                self.line(depth, f"{t} = {self.object('R', self.host._ref(a))}(fr)")
                args.append(t)
            else:
                args.append(self.value(a, depth))
        d, span = self.object("D", cd), self.object("P", e.span)
        call = f"{d}.invoke([{', '.join(args)}], {span})"
        if value and self.inlinable(cd.definition):
            inlined = self.inline(cd.definition, args, call, depth)
            if inlined is not None:
                return inlined
        if self.writable(cd.definition):
            return self.invoke(e, cd, args, d, span, depth, value)
        if not value:
            self.line(depth, call)
            return None
        t = self.temp()
        self.line(depth, f"{t} = {call}")
        self.line(depth, f"if {t} is NOVALUE: raise {self.object('N', self.host._no_value(e))}()")
        return t

    # ---- small functions written out at the call ----

    def writable(self, d: n.Definition) -> bool:
        """A call that can be written out: not counted by `run --stats` (its invoke is wrapped),
        and not `f (x) = g(x)`, which gives back whatever g gives."""
        return self.host.stats is None and not (d.is_function and isinstance(d.body, n.Call))

    def inlinable(self, d: n.Definition) -> bool:
        """A function whose body is one expression over its parameters and globals."""
        return (self.writable(d) and d.is_function and not any(p.by_ref for p in d.params)
                and set(d.locals) == {p.name for p in d.params})

    def inline(self, d: n.Definition, args: list[str], call: str, depth: int) -> str | None:
        """Code computing the body here, with the call as its fallback; None if the body is not pure.

        The call would count one step, check the limits only when that step reaches
        `check_at`, and fail at the depth limit: in those cases, as on any unusual value, the
        generated code makes the call instead, so the steps, the errors and the stack are the call's."""
        mark, saved = len(self.lines), (self.locals, self.ref_params, self.bound)
        self.locals, self.ref_params, self.bound = {}, set(), dict(zip((p.name for p in d.params), args))
        self.region()
        try:
            self.line(depth, "try:")
            self.line(depth + 1, "if len(STACK) >= MAX_DEPTH or M.steps >= M.check_at: raise _GiveUp")
            result = self.checked(self.expr(d.body, depth), depth)
        except _NotPure:
            del self.lines[mark:]
            return None
        finally:
            self.locals, self.ref_params, self.bound = saved
        t = self.temp()
        self.line(depth + 1, f"{t} = {result}")
        self.line(depth, f"except {GIVE_UP}:")
        self.line(depth + 1, f"{t} = {call}")
        self.line(depth, "else:")
        self.line(depth + 1, "M.steps += 1")
        return t

    def invoke(self, e: n.Call, cd, args: list[str], d: str, span: str, depth: int, value: bool) -> str | None:
        """The interpreter's invoke written out: depth check, frame, call stack, step, body."""
        frame = self.temp()
        self.line(depth, f"if len(STACK) >= MAX_DEPTH: raise M.depth_exceeded({span})")
        self.line(depth, f"{frame} = [{', '.join(args + ['UNSET'] * cd.pad)}]")
        self.line(depth, f"STACK.append(({d}.definition, {span}, {frame}))")
        self.step(span, depth)
        t = self.temp()
        self.line(depth, f"{t} = {d}.body({frame})")
        self.line(depth, "STACK.pop()")
        if not value:
            return None
        if not cd.definition.is_function:  # a procedure gives back РЕЗУЛЬТАТ, when it set it
            self.line(depth, f"{t} = {frame}[{cd.result_slot}]" if cd.result_slot is not None else f"{t} = UNSET")
            self.line(depth, f"if {t} is UNSET: raise {self.object('N', self.host._no_value(e))}()")
        return t
