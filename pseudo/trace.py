"""Trace events: what the interpreter reports, step by step, to a sink.

The interpreter never prints a trace itself: when a `Tracer` is attached it compiles its
closures with hooks that call `Tracer.emit`, which hands each event (a dict) to a sink. Without
a tracer the closures are compiled as usual, with no hook at all, so tracing costs nothing.

Event schema (docs/trace.md, docs/trace.schema.json). Every event has:
    step   — its number, from 1
    kind   — stmt | cond | assign | call | return | state | input | output
    file, line, column — where in the program (null for none)
    depth  — call depth (0 in the main program)
and, by kind:
    stmt    text                       the statement (the header of a compound one)
    cond    text, value, construct,    the condition, ИСТИНА/ЛОЖЬ, "ЕСЛИ" or "ПОКА",
            has_else                   whether the ЕСЛИ has an ИНАЧЕ
    assign  name, index, old, new,     index: list of values or null; old: null if unset;
            local                      local: a parameter, ДЛЯ variable or РЕЗУЛЬТАТ
    call    name, args, params, phrase args as printed, the parameters' names; phrase: a phrase
    return  name, value                value: null for a procedure without РЕЗУЛЬТАТ
    state   from, to, condition, how   how: entry | goto | fall; from: null at entry
    input   value
    output  text                       exactly what was written
    end     outcome, message           the last event of a JSONL stream: outcome ok | error |
                                       trace-limit; message: the error's text, or null
Values are strings as СООБЩИТЬ prints them.
"""
from __future__ import annotations

from .runtime import show

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
        self.condition = None  # the condition of the transfer being made (for state events)

    def emit(self, kind: str, span, **fields) -> None:
        if self.max_events is not None and self.count >= self.max_events:
            raise TraceLimit(self.max_events)
        self.count += 1
        self.sink(event(self.count, kind, span, self.depth, **fields))


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
    from . import nodes as n
    header = {n.If: ("cond", "ТО"), n.While: ("cond", "ВЫПОЛНЯТЬ"), n.For: ("stop", "ВЫПОЛНЯТЬ")}
    if type(s) in header:
        field, word = header[type(s)]
        return f"{s.span.to(getattr(s, field).span).full_text()} {word}"
    if isinstance(s, n.Loop):
        return "ВЫПОЛНЯТЬ"
    return s.span.full_text()


def shown(value) -> str | None:
    from .runtime import UNSET
    return None if value is UNSET else show(value)
