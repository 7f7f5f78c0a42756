"""Trace events: what the interpreter reports, step by step, to a sink.

The interpreter never prints a trace itself: it tells a `Tracer` of each statement, condition,
assignment, call, return and transfer, and the tracer hands each event to a sink — a view
(views.py, html.py) or the stepper's recording.

An event is handed over compact and unformatted, as a tuple

    (step, kind, span, depth, *fields)

whose fields hold the nodes and the program's own values (int, Fraction, bool, str; None where
there is none). Nothing is formatted while the program runs: a view formats what it shows, and
caches what repeats (a statement's text, a place). `Decoder` turns a compact event into the
schema's dict (docs/trace.md, docs/trace.schema.json), its values still typed; views.printed()
shows them as every view does (`shown`: a string in quotes). Every event has:
    step   — its number, from 1
    kind   — stmt | expr | cond | assign | call | return | state | input | output
    file, line, column — where in the program (null for none)
    depth  — call depth (0 in the main program)
and, by kind (the compact fields, then the dict's):
    stmt    (node)                          text — the statement (the header of a compound one)
    expr    (node, role, value)             text — an expression that is a step of its own; role:
                                            body (a function's body begins), then | else (the
                                            branch a conditional expression takes), value (the
                                            function's body gave its value: value; else null)
    cond    (node, value, construct, has_else)
                                            text, value, construct ("ЕСЛИ", "ПОКА"), has_else
    assign  (name, key, old, new, frame)    name, index (list or null), old (null if unset), new,
                                            local, frame — the depth of the call whose local
                                            variable changed (a РЕЗ parameter changes its
                                            caller's), null for a global or an element
    call    (definition, call node, args)   name, args, params, phrase, definition (the key)
    return  (definition, value)             name, value (null for a procedure without РЕЗУЛЬТАТ)
    state   (from, to, condition, how)      how: entry | goto | fall; from: null at entry
    input   (value)                         value
    output  (text)                          text, exactly as written
    end     (outcome, message)              the last event of a JSONL stream: outcome ok | error |
                                            trace-limit; message: the error's text, or null
"""
from __future__ import annotations

import sys

from .. import nodes as n
from ..runtime import io
from ..runtime.values import Массив, Ячейка, brief

KINDS = ("stmt", "expr", "cond", "assign", "call", "return", "state", "input", "output")
STEP, KIND, SPAN, DEPTH = 0, 1, 2, 3  # the positions of the common parts of a compact event


class TraceLimit(Exception):
    """The bound on the number of events was reached: the run stops cleanly."""

    def __init__(self, limit: int):
        super().__init__(limit)
        self.limit = limit


class Tracer:
    """Numbers the events, keeps the call depth, enforces the bound, hands events to the sink.

    `window`: which events the sink takes, when it says so before they are made (views.Filter:
    kinds, steps from and to, depth): the others are numbered and not made. Each event tests
    `keeps[kind]`, which changes only at the window's edges — a step number, met as the bound
    is (`mark`), or a call that crosses the depth. A call below the window's depth is told, and
    its body then tells nothing: it adds its events to `count` itself, and looks at the count
    (`look`) at each step and call, before the program waits, and as it fails or ends."""

    def __init__(self, sink, max_events: int | None = None, window=None):
        self.sink = sink
        self.max_events = max_events
        self.limit = sys.maxsize if max_events is None else max_events
        self.count = 0
        self.depth = 0
        self.current = None  # span of the statement being run (for input and output events)
        self.callers: list = []  # the statement of each call in progress
        self.frames: list = []  # the variables of each call in progress (a РЕЗ cell names one of them)
        self.conditions: dict[int, dict] = {}  # per automaton: goto span → its condition
        # A view that formats its events a batch at a time (views.JsonlView) is handed them
        # through its list `pending`, and told to write them out every `batch` events; one
        # test of the count, against `mark`, serves that, the bound and the window's steps.
        pending = getattr(sink, "pending", None)
        self.batch = sink.batch if pending is not None and sink.batch > 1 else None
        self.emit = pending.append if self.batch is not None else sink
        self.flush_at = self.batch or sys.maxsize
        self.window = window
        self.kinds = window.taken() if window is not None else None
        self.keeps = dict.fromkeys(KINDS, True)
        self.edge = sys.maxsize  # the count at which the window next opens or closes
        self.deepest = window.depth if window is not None and window.depth is not None else -sys.maxsize  # (none)
        self.counted_below = sys.maxsize if self.deepest < 0 else self.deepest  # a call from this depth on: counted
        self._reopen()

    def _step(self) -> int:
        """The number of a new event. (The frequent events — statement, condition, assignment,
        call, return, expression — write these three lines out: a Python call less for each.)"""
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        return self.count

    def _at_mark(self) -> None:
        """The bound is reached, a batch is complete, or the window opens or closes."""
        if self.count >= self.limit:
            self.count = self.limit  # (past it, when a call below the window ends: see look)
            raise TraceLimit(self.limit)
        self._passed()

    def look(self) -> None:
        """Below the window, the count looked at: past the bound, the run stops as it would
        have at the bound's event — nothing the program did since shows (it wrote nothing:
        an output event looks at the count as it is made; it waits for no input, fails or
        ends before it looks); past a batch, the batch written."""
        if self.count > self.limit:
            self.count = self.limit
            raise TraceLimit(self.limit) from None
        if self.count > self.mark:
            self._passed()

    def _passed(self) -> None:
        """The mark met (or passed, below the window): a batch written, the window's next edge."""
        if self.count >= self.flush_at:
            self.sink.finish()
            self.flush_at += self.batch * ((self.count - self.flush_at) // self.batch + 1)
        self._reopen()

    def _reopen(self) -> None:
        """Which kinds of events the sink takes from the next one on; the next mark."""
        w = self.window
        if w is not None:
            following = self.count + 1
            inside = (w.first is None or following >= w.first) and (w.last is None or following <= w.last) \
                and (w.depth is None or self.depth <= w.depth)
            for kind in KINDS:
                self.keeps[kind] = inside and (self.kinds is None or kind in self.kinds)
            self.edge = w.first - 1 if w.first is not None and following < w.first else \
                w.last if w.last is not None and following <= w.last else sys.maxsize
        self.mark = min(self.limit, self.flush_at, self.edge)

    # ---- what the interpreter tells ----

    def statement(self, s: n.Stmt) -> None:
        span = self.current = s.span
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        if self.keeps["stmt"]:
            self.emit((self.count, "stmt", span, self.depth, s))

    def expression(self, e: n.Expr, role: str, value=None) -> None:
        """A step inside an expression: a function's body begun (role "body") or done ("value",
        its value), the branch a conditional expression takes ("then", "else")."""
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        if self.keeps["expr"]:
            self.emit((self.count, "expr", e.span, self.depth, e, role, value))

    def condition(self, e: n.Expr, value, construct: str, has_else: bool) -> None:
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        if self.keeps["cond"]:
            self.emit((self.count, "cond", e.span, self.depth, e, value, construct, has_else))

    def assign(self, target: n.Target, key, old, new, local: bool) -> None:
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        if self.keeps["assign"]:
            self.emit((self.count, "assign", target.span, self.depth, target.name, key, old, new,
                       self.depth if local else None))

    def assign_through(self, target: n.Target, cell, new, local: bool) -> None:
        """An assignment to a РЕЗ parameter: the change of the caller's variable or element."""
        step = self._step()
        if not self.keeps["assign"]:
            return
        place = cell.место
        key = cell.ключ if isinstance(place, Массив) else None
        frame = None
        if local:  # a local variable of a call in progress: which one
            frame = next((d + 1 for d in range(len(self.frames) - 1, -1, -1) if self.frames[d] is place), None)
        self.emit((step, "assign", target.span, self.depth, cell.имя, key, place.get(cell.ключ), new, frame))

    def call(self, d: n.Definition, e: n.Call, args: dict, body=None) -> None:
        """A call; with `body`, a function's, then the step into its body (`expression(body,
        "body")` written out: a Python call less)."""
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        if self.keeps["call"]:
            # the arguments as a trace shows them: a РЕЗ one by the value it refers to (None: unset)
            values = [a.место.get(a.ключ) if type(a) is Ячейка else a for a in args.values()]
            self.emit((self.count, "call", e.span, self.depth, d, e, values))
        self.depth += 1
        if self.depth == self.deepest + 1:  # the window closes below its depth
            self._reopen()
        self.callers.append(self.current)
        self.frames.append(args)
        if body is not None:
            if self.count >= self.mark:
                self._at_mark()
            self.count += 1
            if self.keeps["expr"]:
                self.emit((self.count, "expr", body.span, self.depth, body, "body", None))

    def returned(self, d: n.Definition, e: n.Call, value, body=None) -> None:
        """A return; with `body`, a function's, after the step out of its body with its value."""
        if body is not None:
            if self.count >= self.mark:
                self._at_mark()
            self.count += 1
            if self.keeps["expr"]:
                self.emit((self.count, "expr", body.span, self.depth, body, "value", value))
        self.current = self.callers.pop()  # what the caller prints next belongs to its own statement
        self.frames.pop()
        self.depth -= 1
        if self.depth == self.deepest:  # and opens again
            self._reopen()
        if self.count >= self.mark:
            self._at_mark()
        self.count += 1
        if self.keeps["return"]:
            self.emit((self.count, "return", e.span, self.depth, d, value))

    def state(self, a, source: int | None, target: int, how: str, goto=None) -> None:
        step = self._step()
        if not self.keeps["state"]:
            return
        condition = None
        if goto is not None:
            if id(a) not in self.conditions:
                self.conditions[id(a)] = {(x.span.line, x.span.column): x.condition for x in a.edges if x.span}
            condition = self.conditions[id(a)].get((goto.span.line, goto.span.column))
        self.emit((step, "state", a.states[target].span, self.depth,
                   None if source is None else a.states[source].name, a.states[target].name, condition, how))

    def attach(self) -> None:
        """Input and output events: the text exactly as written, the values as read. Called
        once the run's streams exist; the screen phrases then print as plain lines."""
        tracer, out, inp = self, io.ВЫВОД, io.ВВОД
        stream, next_value = out.stream, inp.next

        class TracedStream:
            def write(self, text):
                step = tracer._step()
                if tracer.keeps["output"]:
                    tracer.emit((step, "output", tracer.current, tracer.depth, text))
                return stream.write(text)

            def flush(self):
                flush = getattr(tracer.sink, "flush", None)
                if flush is not None:  # a trace shown as it goes: up to date before the program waits
                    flush()
                return stream.flush()

        def traced_next(*whole_line):
            value = next_value(*whole_line)
            if value is not None:
                step = tracer._step()
                if tracer.keeps["input"]:
                    tracer.emit((step, "input", tracer.current, tracer.depth, value))
            return value
        out.stream, inp.next = TracedStream(), traced_next
        out.screen = False


def end_event(step: int, outcome: str, error=None) -> tuple:
    """How the run ended: after the last event of a stream, so that its reader knows it is whole."""
    span = error.first.span if error is not None else None
    return (step, "end", span, 0, outcome, error.first.text if error is not None else None)


def shown(value) -> str:
    """A value as every view of a trace shows it (docs/trace.md, «Значения»): a string in
    quotes, as the program would write it — '', '  ', '5' against the number 5 (in double
    quotes when it holds a single one) —; a number or a truth value as СООБЩИТЬ prints it, a
    huge number by its ends, as messages show it (values.brief)."""
    if type(value) is str:
        return f'"{value}"' if "'" in value and '"' not in value else f"'{value}'"
    return brief(value)


def index_of(key) -> list | None:
    """An array element's key as the list of its indices (None for a variable)."""
    if key is None:
        return None
    return list(key) if type(key) is tuple else [key]


class Decoder:
    """Compact events as the schema's dicts, their values still typed. Keeps the text of each
    statement once (by the node's identity: the nodes live as long as the loaded program)."""

    def __init__(self):
        self.texts: dict[int, tuple] = {}

    def text(self, s) -> str:
        known = self.texts.get(id(s))
        if known is None or known[0] is not s:
            known = self.texts[id(s)] = (s, statement_text(s))
        return known[1]

    def __call__(self, ev: tuple) -> dict:
        step, kind, span, depth = ev[0], ev[1], ev[2], ev[3]
        out = {"step": step, "kind": kind,
               "file": span.filename if span is not None else None,
               "line": span.line if span is not None else None,
               "column": span.column if span is not None else None,
               "depth": depth}
        if kind == "stmt":
            out["text"] = self.text(ev[4])
        elif kind == "expr":
            out.update(text=self.text(ev[4]), role=ev[5], value=ev[6])
        elif kind == "cond":
            out.update(text=n.whole_span(ev[4]).full_text(), value=ev[5], construct=ev[6], has_else=ev[7])
        elif kind == "assign":
            out.update(name=ev[4], index=index_of(ev[5]), old=ev[6], new=ev[7], local=ev[8] is not None,
                       frame=ev[8])
        elif kind == "call":
            d, e = ev[4], ev[5]
            out.update(name=definition_name(d), args=list(ev[6]), params=[p.name for p in d.params],
                       phrase=d.is_phrase, definition=e.name)
        elif kind == "return":
            out.update(name=definition_name(ev[4]), value=ev[5])
        elif kind == "state":
            out.update({"from": ev[4], "to": ev[5], "condition": ev[6], "how": ev[7]})
        elif kind == "input":
            out["value"] = ev[4]
        elif kind == "output":
            out["text"] = ev[4]
        elif kind == "end":
            out.update(outcome=ev[4], message=ev[5])
        return out


def decoded(events) -> list[dict]:
    """A recording of compact events as dicts."""
    decode = Decoder()
    return [decode(ev) for ev in events]


def statement_text(s) -> str:
    """How a statement reads in a trace: its own text, or the header of a compound one
    (`ЕСЛИ k = 8 ТО`, `ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ`); an expression that is a step (an expr
    event), its whole text."""
    if isinstance(s, n.EXPR_NODES):
        return n.whole_span(s).full_text()
    header = {n.If: ("cond", "ТО"), n.While: ("cond", "ВЫПОЛНЯТЬ"), n.For: ("stop", "ВЫПОЛНЯТЬ")}
    if type(s) in header:
        field, word = header[type(s)]
        return f"{s.span.to(n.whole_span(getattr(s, field))).full_text()} {word}"
    if isinstance(s, n.Loop):
        return "ВЫПОЛНЯТЬ"
    return s.span.full_text()


def statement_end(s) -> int:
    """The column just after a statement on its first line, as the trace shows it: the end of
    a simple statement, of the header of a compound one (`ЕСЛИ k = 8 ТО`), of the line when
    the statement goes on below."""
    span = n.whole_span(s) if isinstance(s, n.EXPR_NODES) else s.span
    line = span.source.line(span.line)
    header = {n.If: ("cond", "ТО"), n.While: ("cond", "ВЫПОЛНЯТЬ"), n.For: ("stop", "ВЫПОЛНЯТЬ")}
    if type(s) in header:
        field, word = header[type(s)]
        part = n.whole_span(getattr(s, field))
        if part.end_line != span.line:
            return len(line) + 1
        at = line.find(word, part.end_column - 1)
        return at + len(word) + 1 if at >= 0 else part.end_column
    if isinstance(s, n.Loop):
        return span.column + len("ВЫПОЛНЯТЬ")
    return span.end_column if span.end_line == span.line else len(line) + 1


def spelled(name: str) -> str:
    """A name as it may be typed: a phrase without its quotes, brackets and commas, so that
    «занять (k), (i)» is «занять k, i» or just «занять»."""
    return " ".join(name.translate(str.maketrans("«»()…,", "      ")).split())


def named(program: n.Program, typed: str) -> set[str]:
    """The keys of the definitions a typed name names: HR, «занять (k), (i)» for «занять»."""
    return {key for key, d in program.definitions.items()
            if spelled(typed) in (spelled(key), spelled(definition_name(d)))}


def definition_name(d: n.Definition) -> str:
    """HR, or a phrase as it reads with its parameters elided: «занять …, …»."""
    if not d.is_phrase:
        return d.name
    params = {p.name for p in d.params}
    return "«" + " ".join("…" if w in params else w for w in d.words).replace(" ,", ",") + "»"
