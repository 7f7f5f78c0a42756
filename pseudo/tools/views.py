"""Views of the trace event stream: text, narration, JSON lines, desk-check table, margin.

Each view is a sink (`view(event)`) with an optional `finish()`; a filter in front of it keeps
the events the user asked for. Views that format events as dicts (text, narration, table,
margin) get them decoded and printed; the JSON lines view and the HTML page (html.py) take the
compact events themselves (`compact = True`) and format them with caches, since they see every
event of a long run. The stepper is built on the same events (stepper.py).
"""
from __future__ import annotations

import sys
from collections import deque
from json.encoder import encode_basestring

from .. import nodes as n
from ..files import AtomicFile, check_output, is_standard_output
from ..runtime.values import BRIEF_BITS, brief, show
from .trace import Decoder, definition_name, index_of, shown, statement_text

ONLY = {"stmts": {"stmt", "expr", "cond"}, "states": {"state"}, "calls": {"call", "return"}, "assign": {"assign"},
        "output": {"output", "input"}}


class Filter:
    """--only, --vars, --from, --to, --depth; on compact events (a plain class: see frontend/raw.py)."""

    def __init__(self, kinds: set[str] | None = None, names: set[str] | None = None, first: int | None = None,
                 last: int | None = None, depth: int | None = None):
        self.kinds, self.names, self.first, self.last, self.depth = kinds, names, first, last, depth

    def empty(self) -> bool:
        return self.kinds is None and self.names is None and self.first is None and self.last is None \
            and self.depth is None

    def taken(self) -> set[str] | None:
        """The kinds of events it may accept (None: every kind): a tracer makes no other."""
        if self.kinds is None and self.names is not None:
            return {"assign"}
        return self.kinds

    def accepts(self, ev: tuple) -> bool:
        kind = ev[1]
        if self.kinds is not None and kind not in self.kinds:
            return False
        if self.names is not None and kind == "assign" and ev[4] not in self.names:
            return False
        if self.names is not None and self.kinds is None and kind != "assign":
            return False
        if self.first is not None and ev[0] < self.first:
            return False
        if self.last is not None and ev[0] > self.last:
            return False
        return self.depth is None or ev[3] <= self.depth


def filtered(view, flt: Filter):
    """The sink that gives a view the events it shows: compact ones to a compact view, else
    decoded with their values printed; every event to a view that filters them itself."""
    if getattr(view, "filters", False):
        flt = Filter()
    if getattr(view, "compact", False):
        if flt.empty():
            return view
        accepts = flt.accepts

        def sink(ev):
            if accepts(ev):
                view(ev)
    else:
        decode, accepts = Decoder(), flt.accepts

        def sink(ev):
            if accepts(ev):
                view(printed(decode(ev)))
    sink.finish = getattr(view, "finish", lambda: None)
    sink.flush = getattr(view, "flush", lambda: None)
    return sink


def printed(e: dict) -> dict:
    """An event with its values shown as every view shows them (`trace.shown`: a string in
    quotes; None stays None; an unset РЕЗ argument is «—»)."""
    out = dict(e)
    for key in ("old", "new", "value"):
        if out.get(key) is not None:
            out[key] = shown(out[key])
    if "args" in out:
        out["args"] = ["—" if a is None else shown(a) for a in out["args"]]
    if out.get("index") is not None:
        out["index"] = [brief(x) for x in out["index"]]
    return out


def target_name(e: dict) -> str:
    return f"{e['name']}[{', '.join(e['index'])}]" if e.get("index") else e["name"]


def call_text(e: dict) -> str:
    """HR(3), or a phrase with its arguments in place: «занять 1, 5»."""
    name, args = e["name"], list(e["args"])
    if e.get("phrase"):
        it = iter(args)
        return "«" + "".join(next(it, "…") if part == "…" else part for part in _split_ellipsis(name[1:-1])) + "»"
    return f"{name}({', '.join(args)})"


def short_call_text(e: dict, width: int = 50) -> str:
    """A call as call_text() writes it; a phrase longer than `width` keeps its first word and
    each argument with the word before it, the other words elided: «искать … строке 1 после 0
    … величине 0»."""
    text = call_text(e)
    if len(text) <= width or not e.get("phrase"):
        return text
    args, words = iter(e["args"]), []  # (word, is an argument)
    for part in _split_ellipsis(e["name"][1:-1]):
        words += [(next(args, "…"), True)] if part == "…" else [(w, False) for w in part.split()]
    kept = {0} | {k for i, (_, arg) in enumerate(words) if arg for k in (i - 1, i)}
    out: list[str] = []
    for i, (word, _) in enumerate(words):
        if i in kept:
            out.append(word)
        elif out[-1] != "…":
            out.append("…")
    return "«" + " ".join(out).replace(" ,", ",") + "»"


def _split_ellipsis(text: str) -> list[str]:
    parts = text.split("…")
    out = []
    for i, part in enumerate(parts):
        out.append(part)
        if i < len(parts) - 1:
            out.append("…")
    return out


def _shown_text(text: str) -> str:
    return text.replace("\n", "⏎")


def open_trace_output(path: str | None, inputs):
    """Where a trace is written: standard output (no path, or `-`), or a file written whole
    (AtomicFile) — except a device, a pipe or /dev/stdout (`-o /dev/null`), written directly:
    never replaced by a regular file."""
    if not path or path == "-":
        return sys.stdout
    if is_standard_output(path):  # named: it may lead to an input (`-o /dev/stdout >> p.pseudo`)
        check_output(path, inputs)
        return sys.stdout
    return AtomicFile(path, inputs)


class NoOutput:
    """The program's standard output when the trace itself goes there: the trace holds it."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


# ---- text ----

BRANCH = {"then": "ТО ", "else": "ИНАЧЕ "}  # the branch a conditional expression takes


INDENT_LEVELS = 24  # calls deeper than this are indented no further, their depth written


def indent(depth: int) -> str:
    """Two spaces a call depth, to INDENT_LEVELS: the trace of a recursion that does not end (some
    100 000 calls deep when it stops) stays as long as its events, not as their square."""
    if depth <= INDENT_LEVELS:
        return "  " * depth
    return "  " * INDENT_LEVELS + f"[глубина {depth}] "


class TextView:
    """`pseudo trace`: step, line, what happened, indented by call depth."""

    def __init__(self, stream):
        self.stream = stream
        self.flush = getattr(stream, "flush", lambda: None)

    def __call__(self, e: dict) -> None:
        text = self.describe(e)
        if text is None:
            return
        line = f"{e['line']:>4}" if e["line"] is not None else "    "
        self.stream.write(f"{e['step']:>7} {line} │ {indent(e['depth'])}{text}\n")

    def describe(self, e: dict) -> str | None:
        kind = e["kind"]
        if kind == "stmt":
            return e["text"]
        if kind == "expr":  # a function's value is told by its return
            return None if e["role"] == "value" else f"{BRANCH.get(e['role'], '')}{e['text']}"
        if kind == "cond":
            return f"  ? {e['text']} → {e['value']}"
        if kind == "assign":
            target = target_name(e)
            return f"  {target} := {e['new']}" if e["old"] is None else f"  {target}: {e['old']} → {e['new']}"
        if kind == "call":
            return f"→ {call_text(e)}"
        if kind == "return":
            return f"← {e['name']}" + (f" = {e['value']}" if e["value"] is not None else "")
        if kind == "state":
            if e["how"] == "entry":
                return f"▶ {e['to']}"
            why = f"  ({e['condition']})" if e["condition"] else "  (без перехода)" if e["how"] == "fall" else ""
            return f"{e['from']} → {e['to']}{why}"
        if kind == "input":
            return f"  ввод: {e['value']}"
        if kind == "output":
            return f"  вывод: «{_shown_text(e['text'])}»"
        return None


class ExplainView(TextView):
    """--explain: each step narrated in plain Russian."""

    def describe(self, e: dict) -> str | None:
        kind = e["kind"]
        if kind == "stmt":
            return f"Строка {e['line']}: {e['text']}"
        if kind == "expr":
            if e["role"] == "body":
                return f"Строка {e['line']}: вычисляется значение функции, {e['text']}"
            if e["role"] in BRANCH:
                return f"  Вычисляется ветвь {BRANCH[e['role']].strip()}: {e['text']}"
            return None
        if kind == "cond":
            true = e["value"] == "ИСТИНА"
            if e["construct"] == "ПОКА":
                verdict = "истина, ещё один круг цикла" if true else "ложь, цикл окончен"
            elif true:
                verdict = "истина, выполняется ветвь ТО"
            else:
                verdict = "ложь, переход к ИНАЧЕ" if e.get("has_else") else "ложь, ветвь ТО пропускается"
            if e["value"] not in ("ИСТИНА", "ЛОЖЬ"):
                verdict = f"получено {e['value']}, а нужно ИСТИНА или ЛОЖЬ"
            return f"  Проверяется условие {e['text']}: {verdict}"
        if kind == "assign":
            was = f" (было {e['old']})" if e["old"] is not None else ""
            return f"  {target_name(e)} получает значение {e['new']}{was}"
        if kind == "call":
            what = "фразы" if e.get("phrase") else ""
            return f"Вызов {what + ' ' if what else ''}{call_text(e)}: глубина {e['depth'] + 1}"
        if kind == "return":
            value = f": значение {e['value']}" if e["value"] is not None else ""
            return f"Возврат из {e['name']}{value}"
        if kind == "state":
            if e["how"] == "entry":
                return f"Работа начинается в состоянии {e['to']}"
            if e["how"] == "fall":
                return f"Состояние {e['from']} кончилось без перехода: дальше состояние {e['to']}"
            why = f", потому что {e['condition']}" if e["condition"] else ""
            return f"Переход из состояния {e['from']} в состояние {e['to']}{why}"
        if kind == "input":
            return f"  Прочитано значение {e['value']}"
        if kind == "output":
            return f"  Выводится: «{_shown_text(e['text'])}»"
        return None


# ---- JSON lines ----
#
# The lines are built as UTF-8 bytes: the parts that repeat are encoded once, and a batch
# goes to the file as it is — encoding 26 MB of mostly Cyrillic text at each write took a
# tenth of a long trace.

def _text(s: str) -> bytes:
    """A JSON string, as UTF-8 (a lone surrogate of undecodable input becomes «?», as on the
    terminal)."""
    return encode_basestring(s).encode("utf-8", "replace")


_JSON_TRUE, _JSON_FALSE = _text(show(True)), _text(show(False))
_CONSTRUCT = {c: _text(c) for c in ("ЕСЛИ", "ПОКА")}  # the constructs whose conditions are traced


_INTEGERS: dict[int, bytes] = {}  # the integers met so far, encoded (a program's are few and repeat)


def _json_value(v) -> bytes:
    """A typed value as the JSON string of its shown form (`trace.shown`; null for none)."""
    t = type(v)
    if t is int:
        known = _INTEGERS.get(v)
        if known is None:
            known = b'"%d"' % v if v.bit_length() <= BRIEF_BITS else _text(brief(v))
            if len(_INTEGERS) < 100_000:
                _INTEGERS[v] = known
        return known
    if t is bool:
        return _JSON_TRUE if v else _JSON_FALSE
    if v is None:
        return b"null"
    return _text(shown(v))


def _json_text(s: str | None) -> bytes:
    """A text that is not a value (a state's name, a message) as a JSON string, or null."""
    return b"null" if s is None else _text(s)


def _json_argument(v) -> bytes:
    """An argument of a call: an unset РЕЗ argument is «—»."""
    return _text("—") if v is None else _json_value(v)


def _json_index(key) -> bytes:
    """An element's key as the JSON list of its indices (null for a variable)."""
    if key is None:
        return b"null"
    if type(key) is int:
        return b'["%d"]' % key
    return b"[" + b", ".join(map(_json_value, index_of(key))) + b"]"


def _binary(stream):
    """The binary file under a UTF-8 text stream, with what its text layer holds written
    first; None for a stream with no such file (the lines are then written decoded)."""
    text = getattr(stream, "stream", stream)  # an AtomicFile's own file
    buffer = getattr(text, "buffer", None)
    if buffer is None or (getattr(text, "encoding", "") or "").lower().replace("-", "") != "utf8":
        return None
    text.flush()
    return buffer


BATCH = 512  # events per write to a stream that is not a terminal


class JsonlView:
    """--format jsonl: one event per line, streamed, exactly as `json.dumps(event,
    ensure_ascii=False)` writes the event's dict, in UTF-8. Events wait in `pending` and are
    formatted a batch at a time, one write per BATCH events, except to a terminal, which sees
    each line at once; flush() and finish() write out what waits. (The tracer appends to
    `pending` itself and calls finish() at each BATCH: trace.Tracer.) What does not change
    between two events of one node — the kind, the place, a statement's text, a call's
    definition — is encoded once per node and kept (by the node's identity, checked)."""

    compact = True

    def __init__(self, stream):
        self.stream = stream
        self.pending: list[tuple] = []
        isatty = getattr(stream, "isatty", None)
        self.batch = 1 if isatty is not None and isatty() else BATCH
        # a terminal sees each line at once through the text layer; elsewhere, bytes to the file
        self.binary = None if self.batch == 1 else _binary(stream)
        # the frequent kinds → {id(node or span): (node or span, …the encoded parts of its lines)}
        self.known: dict[str, dict[int, tuple]] = {kind: {} for kind in ("stmt", "assign", "call", "return", "cond",
                                                                        "expr")}

    def __call__(self, ev: tuple) -> None:
        self.pending.append(ev)
        if len(self.pending) >= self.batch:
            self.finish()

    def flush(self) -> None:
        self.finish()
        flush = getattr(self.stream, "flush", None)
        if flush is not None:
            flush()

    def finish(self) -> None:
        if self.pending:
            lines = b"".join(map(self.line, self.pending))
            self.pending.clear()
            if self.binary is not None:
                self.binary.write(lines)
            else:
                self.stream.write(lines.decode("utf-8"))

    def head(self, kind: str, span) -> bytes:
        """`, "kind": …, "file": …, "line": …, "column": …, "depth": ` — between step and depth."""
        if span is None:
            return b', "kind": "%b", "file": null, "line": null, "column": null, "depth": ' % kind.encode()
        return b', "kind": "%b", "file": %b, "line": %d, "column": %d, "depth": ' % (
            kind.encode(), _text(span.filename), span.line, span.column)

    def line(self, ev: tuple) -> bytes:
        kind = ev[1]
        if kind == "stmt":  # (node): all but step and depth are the statement's
            s = ev[4]
            known = self.known["stmt"].get(id(s))
            if known is None or known[0] is not s:
                known = self.known["stmt"][id(s)] = (
                    s, self.head("stmt", ev[2]), b', "text": %b}\n' % _text(statement_text(s)))
            return b'{"step": %d%b%d%b' % (ev[0], known[1], ev[3], known[2])
        if kind == "assign":  # (name, key, old, new, frame): the target's span and name kept
            span, name = ev[2], ev[4]
            known = self.known["assign"].get(id(span))
            if known is None or known[0] is not span or known[1] != name:
                known = self.known["assign"][id(span)] = (
                    span, name, self.head("assign", span), b', "name": %b, "index": ' % _text(name))
            if ev[8] is None:
                return b'{"step": %d%b%d%b%b, "old": %b, "new": %b, "local": false, "frame": null}\n' % (
                    ev[0], known[2], ev[3], known[3], _json_index(ev[5]), _json_value(ev[6]), _json_value(ev[7]))
            return b'{"step": %d%b%d%b%b, "old": %b, "new": %b, "local": true, "frame": %d}\n' % (
                ev[0], known[2], ev[3], known[3], _json_index(ev[5]), _json_value(ev[6]), _json_value(ev[7]), ev[8])
        if kind == "call":  # (definition, call node, args): all but the arguments kept by the call
            d, e = ev[4], ev[5]
            known = self.known["call"].get(id(e))
            if known is None or known[0] is not e:
                params = b", ".join(_text(p.name) for p in d.params)
                known = self.known["call"][id(e)] = (
                    e, self.head("call", ev[2]), b', "name": %b, "args": [' % _text(definition_name(d)),
                    b'], "params": [%b], "phrase": %b, "definition": %b}\n' % (
                        params, b"true" if d.is_phrase else b"false", _text(e.name)))
            return b'{"step": %d%b%d%b%b%b' % (
                ev[0], known[1], ev[3], known[2], b", ".join(map(_json_argument, ev[6])), known[3])
        if kind == "return":  # (definition, value): kept by the call's span
            span, d = ev[2], ev[4]
            known = self.known["return"].get(id(span))
            if known is None or known[0] is not span or known[1] is not d:
                known = self.known["return"][id(span)] = (
                    span, d, self.head("return", span), b', "name": %b, "value": ' % _text(definition_name(d)))
            return b'{"step": %d%b%d%b%b}\n' % (ev[0], known[2], ev[3], known[3], _json_value(ev[5]))
        if kind == "cond":  # (node, value, construct, has_else): kept by the condition
            e = ev[4]
            known = self.known["cond"].get(id(e))
            if known is None or known[0] is not e:
                known = self.known["cond"][id(e)] = (
                    e, self.head("cond", ev[2]), b', "text": %b, "value": ' % _text(n.whole_span(e).full_text()))
            return b'{"step": %d%b%d%b%b, "construct": %b, "has_else": %b}\n' % (
                ev[0], known[1], ev[3], known[2], _json_value(ev[5]), _CONSTRUCT[ev[6]], b"true" if ev[7] else b"false")
        if kind == "expr":  # (node, role, value): kept by the expression
            e = ev[4]
            known = self.known["expr"].get(id(e))
            if known is None or known[0] is not e:
                known = self.known["expr"][id(e)] = (
                    e, self.head("expr", ev[2]), b', "text": %b, "role": "' % _text(statement_text(e)))
            return b'{"step": %d%b%d%b%b", "value": %b}\n' % (
                ev[0], known[1], ev[3], known[2], ev[5].encode(), _json_value(ev[6]))
        head = b'{"step": %d%b%d' % (ev[0], self.head(kind, ev[2]), ev[3])  # the rare kinds
        if kind == "output":
            return b'%b, "text": %b}\n' % (head, _text(ev[4]))
        if kind == "input":
            return b'%b, "value": %b}\n' % (head, _json_value(ev[4]))
        if kind == "state":
            return b'%b, "from": %b, "to": %b, "condition": %b, "how": "%b"}\n' % (
                head, _json_text(ev[4]), _text(ev[5]), _json_text(ev[6]), ev[7].encode())
        return b'%b, "outcome": "%b", "message": %b}\n' % (head, ev[4].encode(), _json_text(ev[5]))  # end


# ---- the desk-check table ----

SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


class _Row:
    def __init__(self, step: int, line: int | None, depth: int, call: str):
        self.step, self.line, self.depth, self.call = step, line, depth, call
        self.cells: dict = {}
        self.output = ""


class TableView:
    """--format table: a column per variable, a row per step that changed something; a value
    is shown only where it changes — the classic paper exercise. Each row says the call depth
    and the call it runs in, with its arguments (`HR(3)`). A local variable that lives in
    several calls at once (HR's `i` in HR(1), HR(2), …) has a column per call depth — `i₁`,
    `i₂` —, and a procedure's parameters get their values in these columns when it is called,
    in a row of the call's own (its depth and call; the line where the call is written): the
    call event comes at the caller's depth, and the caller's row is not the new call's.
    A phrase's arguments are read in the call column (`«занять 1, 5»`).

    The view filters the events itself (`filters`), since the call column needs every call:
    --from, --to and --depth keep the rows of the events in the window, --only the cells of
    these kinds. Narrowed to some names (--vars), the table has a column per name — the row's
    depth and call say whose it is — and a row where one of them changed.

    A table has at most MAX_COLUMNS columns of values: deep recursion would give each depth
    columns of its own, rows times columns would not fit in memory, and the table ends at
    the row that would need one more (`cut`, its step), with a note of how to narrow it."""

    filters = True
    MAX_COLUMNS = 60

    def __init__(self, stream, flt: Filter | None = None):
        self.stream = stream
        self.flt = flt or Filter()
        self.names = self.flt.names  # None: every name
        self.columns: list[tuple] = []  # (name, frame): frame None for a global, an array or a narrowed column
        self.known: set[tuple] = set()
        self.frames: dict[str, set] = {}  # name → the frames it lives in (None: global)
        self.rows: list[_Row] = []
        self.row: _Row | None = None
        self.calls: list[str] = []  # the call in progress at each depth
        self.callers: list[_Row | None] = []  # the row of the statement that made each call in progress
        self.cut: int | None = None  # the step at which the table ended, full

    def _shows(self, e: dict, kind: str, depth: int | None = None) -> bool:
        """Is a change of this event's kind, at this depth, in the window asked for?"""
        f = self.flt
        return (f.kinds is None or kind in f.kinds) and (f.first is None or e["step"] >= f.first) and \
            (f.last is None or e["step"] <= f.last) and (f.depth is None or (e["depth"] if depth is None else depth) <= f.depth)

    def _cell(self, name: str, frame, value: str) -> None:
        if self.names is not None:  # narrowed: one column per name, the row says whose
            frame = frame if frame is not None and frame != self.row.depth else None
        key = (name, frame)
        if key not in self.known:
            if len(self.columns) == self.MAX_COLUMNS:
                self.cut = self.row.step
                return
            self.known.add(key)
            self.columns.append(key)
            self.frames.setdefault(name, set()).add(frame)
        self.row.cells[key] = value

    def _new_row(self, e: dict, depth: int | None = None, call: str | None = None) -> _Row:
        return _Row(e["step"], e["line"], e["depth"] if depth is None else depth,
                    (self.calls[-1] if self.calls else "") if call is None else call)

    def __call__(self, e: dict) -> None:
        kind = e["kind"]
        if self.cut is not None:
            return
        if kind in ("stmt", "expr"):
            self.row = self._new_row(e)
            return
        if self.row is None:
            self.row = self._new_row(e)
        if kind == "call":
            self._call(e)
        elif kind == "return":
            if self.calls:
                self.calls.pop()
                caller = self.callers.pop()
                if caller is not None:  # what the caller's statement does next is a row of its own
                    self.row = _Row(e["step"], caller.line, caller.depth, caller.call)
        elif kind == "assign" and self._shows(e, "assign") and (self.names is None or e["name"] in self.names):
            if e.get("index"):
                self._cell(e["name"] + "[…]", None, f"[{', '.join(e['index'])}]={e['new']}")
            else:
                self._cell(e["name"], e.get("frame"), e["new"])
            self._keep()
        elif kind == "output" and self._shows(e, "output") and self.names is None:
            self.row.output += _shown_text(e["text"])
            self._keep()

    def _call(self, e: dict) -> None:
        text = short_call_text(e)
        self.callers.append(self.row)
        depth = e["depth"] + 1
        params = [] if e.get("phrase") or not self._shows(e, "call", depth) else \
            [(name, value) for name, value in zip(e["params"], e["args"]) if self.names is None or name in self.names]
        if params:  # the parameters are the new call's, one deeper than the statement that calls: its row
            self.row = self._new_row(e, depth, text)
        for name, value in params:
            self._cell(name, depth, value)
        if params:
            self._keep()
        self.calls.append(text)

    def _keep(self) -> None:
        if self.cut is None and (not self.rows or self.rows[-1] is not self.row):
            self.rows.append(self.row)

    def heading(self, key: tuple) -> str:
        name, frame = key
        if frame is not None and (self.names is not None or len(self.frames.get(name, ())) > 1):
            return name + str(frame).translate(SUBSCRIPT)
        return name

    def finish(self) -> None:
        output = self.names is None
        heads = ["шаг", "стр.", "глуб.", "вызов"] + [self.heading(c) for c in self.columns] + ["вывод"] * output
        table = [[str(r.step), str(r.line or ""), str(r.depth), r.call,
                  *[r.cells.get(c, "") for c in self.columns], *[r.output] * output] for r in self.rows]
        widths = [max([len(h)] + [len(row[i]) for row in table]) for i, h in enumerate(heads)]
        line = lambda cells: " │ ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
        self.stream.write(line(heads) + "\n")
        self.stream.write("─┼─".join("─" * w for w in widths) + "\n")
        for row in table:
            self.stream.write(line(row) + "\n")
        if self.cut is not None:
            self.stream.write(f"\nтаблица оборвана на шаге {self.cut}: в ней уже {self.MAX_COLUMNS} столбцов значений "
                              "(у каждой глубины рекурсии — свои); сузьте её: --depth N (вызовы не глубже N) "
                              "или --vars ИМЕНА (по столбцу на имя)\n")
        split = [c for c in self.columns if self.heading(c) != c[0]]
        if split:
            name, frame = split[0]
            self.stream.write(f"\n{self.heading(split[0])} — переменная {name} вызова на глубине {frame}; "
                              "вызов — процедура или фраза, в которой выполняется строка, с её аргументами\n")
        elif self.names is not None and any(r.call for r in self.rows):
            self.stream.write("\nзначение — переменной того вызова, что указан в строке;\n"
                              "вызов — процедура или фраза, в которой выполняется строка, с её аргументами\n")


# ---- the margin ----

class MarginView:
    """--margin: the program's text with, at the right of each line, the last values
    assigned there, as KuMir shows them; on a definition's header line, the arguments of its
    last calls (`k=3`). The program's output follows the text."""

    KEEP = 3

    def __init__(self, stream, source, headers: dict | None = None):
        self.stream = stream
        self.source = source
        self.headers = headers or {}  # definition key → its header line in this file
        self.values: dict[int, deque] = {}
        self.output: list[str] = []

    def _note(self, line: int, text: str) -> None:
        self.values.setdefault(line, deque(maxlen=self.KEEP)).append(text)

    def __call__(self, e: dict) -> None:
        kind = e["kind"]
        if kind == "assign" and e["file"] == self.source.filename:
            self._note(e["line"], f"{target_name(e)}={e['new']}")
        elif kind == "call" and e["params"] and e.get("definition") in self.headers:
            self._note(self.headers[e["definition"]], ", ".join(f"{p}={a}" for p, a in zip(e["params"], e["args"])))
        elif kind == "output":
            self.output.append(e["text"])

    def finish(self) -> None:
        width = min(60, max((len(x.rstrip()) for x in self.source.lines), default=0))
        for number, text in enumerate(self.source.lines, start=1):
            text = text.rstrip()
            values = self.values.get(number)
            if values:
                self.stream.write(f"{number:>4}  {text.ljust(width)}  │ {'  '.join(values)}\n")
            else:
                self.stream.write(f"{number:>4}  {text}\n".rstrip() + "\n")
        output = "".join(self.output)
        if output:
            self.stream.write("\n── вывод программы ──\n" + output + ("" if output.endswith("\n") else "\n"))


def header_lines(program, filename: str) -> dict:
    """Each definition of a file by its key → the line of its header (for --margin)."""
    return {key: d.span.line for key, d in program.definitions.items()
            if d.span is not None and d.span.filename == filename}


__all__ = [
    "ONLY",
    "ExplainView",
    "Filter",
    "JsonlView",
    "MarginView",
    "NoOutput",
    "TableView",
    "TextView",
    "call_text",
    "definition_name",
    "filtered",
    "header_lines",
    "open_trace_output",
    "printed",
    "target_name",
]
