"""Trace events: what the interpreter reports, step by step, to a sink.

The interpreter never prints a trace itself: it tells a `Tracer` of each statement, condition,
assignment, call, return and transfer, and the tracer hands each event (a dict) to a sink — a
view (views.py, html.py) or the stepper's recording. Values in events are the program's own
values (int, Fraction, bool, str; None where there is none); views print them.

Event schema (docs/trace.md, docs/trace.schema.json). Every event has:
    step   — its number, from 1
    kind   — stmt | cond | assign | call | return | state | input | output
    file, line, column — where in the program (null for none)
    depth  — call depth (0 in the main program)
and, by kind:
    stmt    text                       the statement (the header of a compound one)
    cond    text, value, construct,    the condition, its value, "ЕСЛИ" or "ПОКА",
            has_else                   whether the ЕСЛИ has an ИНАЧЕ
    assign  name, index, old, new,     index: list of values or null; old: null if unset;
            local                      local: a parameter, ДЛЯ variable or РЕЗУЛЬТАТ
    call    name, args, params, phrase, args; the parameters' names; phrase: a phrase;
            definition                 definition: the definition's key
    return  name, value                value: null for a procedure without РЕЗУЛЬТАТ
    state   from, to, condition, how   how: entry | goto | fall; from: null at entry
    input   value
    output  text                       exactly what was written
    end     outcome, message           the last event of a JSONL stream: outcome ok | error |
                                       trace-limit; message: the error's text, or null
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime import io
from ..runtime.values import Массив

KINDS = ("stmt", "cond", "assign", "call", "return", "state", "input", "output")


class TraceLimit(Exception):
    """The bound on the number of events was reached: the run stops cleanly."""

    def __init__(self, limit: int):
        super().__init__(limit)
        self.limit = limit


class Tracer:
    """Numbers the events, keeps the call depth, enforces the bound, hands events to the sink."""

    def __init__(self, sink, max_events: int | None = None):
        self.sink = sink
        self.max_events = max_events
        self.count = 0
        self.depth = 0
        self.current = None  # span of the statement being run (for input and output events)
        self.callers: list = []  # the statement of each call in progress
        self.conditions: dict[int, dict] = {}  # per automaton: goto span → its condition

    def emit(self, kind: str, span, **fields) -> None:
        if self.max_events is not None and self.count >= self.max_events:
            raise TraceLimit(self.max_events)
        self.count += 1
        self.sink(event(self.count, kind, span, self.depth, **fields))

    # ---- what the interpreter tells ----

    def statement(self, s: n.Stmt) -> None:
        self.current = s.span
        self.emit("stmt", s.span, text=statement_text(s))

    def condition(self, e: n.Expr, value, construct: str, has_else: bool) -> None:
        self.emit("cond", e.span, text=e.span.full_text(), value=value, construct=construct, has_else=has_else)

    def assign(self, target: n.Target, key, old, new, local: bool) -> None:
        index = None if key is None else list(key) if type(key) is tuple else [key]
        self.emit("assign", target.span, name=target.name, index=index, old=old, new=new, local=local)

    def assign_through(self, target: n.Target, cell, new, local: bool) -> None:
        """An assignment to a РЕЗ parameter: the change of the caller's variable or element."""
        array = isinstance(cell.место, Массив)
        index = (list(cell.ключ) if type(cell.ключ) is tuple else [cell.ключ]) if array else None
        self.emit("assign", target.span, name=cell.имя, index=index, old=cell.место.get(cell.ключ), new=new,
                  local=local)

    def call(self, d: n.Definition, e: n.Call, args: dict) -> None:
        values = [value_of(args[p.name]) for p in d.params]
        self.emit("call", e.span, name=definition_name(d), args=values, params=[p.name for p in d.params],
                  phrase=d.is_phrase, definition=e.name)
        self.depth += 1
        self.callers.append(self.current)

    def returned(self, d: n.Definition, e: n.Call, value) -> None:
        self.current = self.callers.pop()  # what the caller prints next belongs to its own statement
        self.depth -= 1
        self.emit("return", e.span, name=definition_name(d), value=value)

    def state(self, a, source: int | None, target: int, how: str, goto=None) -> None:
        condition = None
        if goto is not None:
            if id(a) not in self.conditions:
                self.conditions[id(a)] = {(x.span.line, x.span.column): x.condition for x in a.edges if x.span}
            condition = self.conditions[id(a)].get((goto.span.line, goto.span.column))
        self.emit("state", a.states[target].span, **{
            "from": None if source is None else a.states[source].name, "to": a.states[target].name,
            "condition": condition, "how": how})

    def attach(self) -> None:
        """Input and output events: the text exactly as written, the values as read. Called
        once the run's streams exist; the screen phrases then print as plain lines."""
        tracer, out, inp = self, io.ВЫВОД, io.ВВОД
        stream, next_value = out.stream, inp.next

        class TracedStream:
            def write(self, text):
                tracer.emit("output", tracer.current, text=text)
                return stream.write(text)

            def flush(self):
                return stream.flush()

        def traced_next():
            value = next_value()
            if value is not None:
                tracer.emit("input", tracer.current, value=value)
            return value
        out.stream, inp.next = TracedStream(), traced_next
        out.screen = False


def value_of(argument):
    """An argument as a trace shows it; a РЕЗ argument by the value it refers to (None: unset)."""
    if hasattr(argument, "ключ"):
        return argument.место.get(argument.ключ)
    return argument


def event(step: int, kind: str, span, depth: int, **fields) -> dict:
    return {"step": step, "kind": kind,
            "file": span.filename if span is not None else None,
            "line": span.line if span is not None else None,
            "column": span.column if span is not None else None,
            "depth": depth, **fields}


def end_event(step: int, outcome: str, error=None) -> dict:
    """How the run ended: after the last event of a stream, so that its reader knows it is whole."""
    return event(step, "end", error.first.span if error is not None else None, 0,
                 outcome=outcome, message=error.first.text if error is not None else None)


def statement_text(s) -> str:
    """How a statement reads in a trace: its own text, or the header of a compound one
    (`ЕСЛИ k = 8 ТО`, `ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ`)."""
    header = {n.If: ("cond", "ТО"), n.While: ("cond", "ВЫПОЛНЯТЬ"), n.For: ("stop", "ВЫПОЛНЯТЬ")}
    if type(s) in header:
        field, word = header[type(s)]
        return f"{s.span.to(getattr(s, field).span).full_text()} {word}"
    if isinstance(s, n.Loop):
        return "ВЫПОЛНЯТЬ"
    return s.span.full_text()


def definition_name(d: n.Definition) -> str:
    """HR, or a phrase as it reads with its parameters elided: «занять …, …»."""
    if not d.is_phrase:
        return d.name
    params = {p.name for p in d.params}
    return "«" + " ".join("…" if w in params else w for w in d.words).replace(" ,", ",") + "»"
