"""Views of the trace event stream: text, narration, JSON lines, desk-check table, margin.

Each view is a sink (`view(event)`) with an optional `finish()`; a filter in front of it keeps
the events the user asked for. Views that format events as dicts (text, narration, table,
margin) get them decoded and printed; the JSON lines view and the HTML page (html.py) take the
compact events themselves (`compact = True`) and format them with caches, since they see every
event of a long run. The stepper is built on the same events (stepper.py).
"""
from __future__ import annotations

import os
import stat
import sys
from collections import deque
from json.encoder import encode_basestring

from ..files import AtomicFile
from ..runtime.values import show
from .trace import Decoder, definition_name, index_of, statement_text

ONLY = {"stmts": {"stmt", "cond"}, "states": {"state"}, "calls": {"call", "return"}, "assign": {"assign"},
        "output": {"output", "input"}}


class Filter:
    """--only, --vars, --from, --to, --depth; on compact events (a plain class: see frontend/raw.py)."""

    def __init__(self, kinds: set[str] | None = None, names: set[str] | None = None, first: int | None = None,
                 last: int | None = None, depth: int | None = None):
        self.kinds, self.names, self.first, self.last, self.depth = kinds, names, first, last, depth

    def empty(self) -> bool:
        return self.kinds is None and self.names is None and self.first is None and self.last is None \
            and self.depth is None

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
    decoded with their values printed."""
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
    """An event with its values as СООБЩИТЬ prints them (None stays None; an unset РЕЗ
    argument is «—»)."""
    out = dict(e)
    for key in ("old", "new", "value"):
        if out.get(key) is not None:
            out[key] = show(out[key])
    if "args" in out:
        out["args"] = ["—" if a is None else show(a) for a in out["args"]]
    if out.get("index") is not None:
        out["index"] = [show(x) for x in out["index"]]
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
    (AtomicFile) — except a device or a pipe (`-o /dev/null`, a named pipe), written directly:
    never replaced by a regular file."""
    if not path or path == "-":
        return sys.stdout
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        return open(path, "w", encoding="utf-8")  # closed by the command
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
        self.stream.write(f"{e['step']:>7} {line} │ {'  ' * e['depth']}{text}\n")

    def describe(self, e: dict) -> str | None:
        kind = e["kind"]
        if kind == "stmt":
            return e["text"]
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
            cond = e["condition"]
            why = "" if not cond else ", иначе" if cond == "ИНАЧЕ" else f", потому что {cond}"
            return f"Переход из состояния {e['from']} в состояние {e['to']}{why}"
        if kind == "input":
            return f"  Прочитано значение {e['value']}"
        if kind == "output":
            return f"  Выводится: «{_shown_text(e['text'])}»"
        return None


# ---- JSON lines ----

_JSON_TRUE, _JSON_FALSE = encode_basestring(show(True)), encode_basestring(show(False))


def _json_value(v) -> str:
    """A typed value as the JSON string of its printed form (null for none)."""
    t = type(v)
    if t is int:
        return f'"{v}"'
    if t is bool:
        return _JSON_TRUE if v else _JSON_FALSE
    if v is None:
        return "null"
    return encode_basestring(v if t is str else show(v))


def _json_index(key) -> str:
    """An element's key as the JSON list of its indices (null for a variable)."""
    if key is None:
        return "null"
    if type(key) is int:
        return f'["{key}"]'
    return "[" + ", ".join(_json_value(v) for v in index_of(key)) + "]"


BATCH = 512  # events per write to a stream that is not a terminal


class JsonlView:
    """--format jsonl: one event per line, streamed, exactly as `json.dumps(event,
    ensure_ascii=False)` writes the event's dict. What repeats — a statement with its place, a
    condition's text, a call's definition — is encoded once and kept (by the node's identity,
    checked). Lines go out in batches, one write per BATCH events, except to a terminal, which
    sees each line at once; flush() and finish() write out what is kept."""

    compact = True

    def __init__(self, stream):
        self.stream = stream
        self.lines: list[str] = []
        isatty = getattr(stream, "isatty", None)
        self.batch = 1 if isatty is not None and isatty() else BATCH
        self.places: dict[int, tuple] = {}  # id(span) → (span, '"file": …, "line": …, "column": …')
        self.stmts: dict[int, tuple] = {}  # id(node) → (node, head, tail)
        self.conds: dict[int, tuple] = {}  # id(node) → (node, its text encoded)
        self.calls: dict[int, tuple] = {}  # id(call node) → (node, name part, rest)
        self.names: dict[int, tuple] = {}  # id(definition) → (definition, its name encoded)

    def flush(self) -> None:
        self.finish()
        flush = getattr(self.stream, "flush", None)
        if flush is not None:
            flush()

    def finish(self) -> None:
        if self.lines:
            self.stream.write("".join(self.lines))
            self.lines.clear()

    def place(self, span) -> str:
        known = self.places.get(id(span))
        if known is None or known[0] is not span:
            if span is None:
                text = '"file": null, "line": null, "column": null'
            else:
                text = f'"file": {encode_basestring(span.filename)}, "line": {span.line}, "column": {span.column}'
            known = self.places[id(span)] = (span, text)
        return known[1]

    def name(self, d) -> str:
        known = self.names.get(id(d))
        if known is None or known[0] is not d:
            known = self.names[id(d)] = (d, encode_basestring(definition_name(d)))
        return known[1]

    def __call__(self, ev: tuple) -> None:
        self.lines.append(self.line(ev))
        if len(self.lines) >= self.batch:
            self.finish()

    def line(self, ev: tuple) -> str:
        kind = ev[1]
        if kind == "stmt":
            s = ev[4]
            known = self.stmts.get(id(s))
            if known is None or known[0] is not s:
                known = self.stmts[id(s)] = (s, f', "kind": "stmt", {self.place(ev[2])}, "depth": ',
                                             f', "text": {encode_basestring(statement_text(s))}}}\n')
            return f'{{"step": {ev[0]}{known[1]}{ev[3]}{known[2]}'
        head = f'{{"step": {ev[0]}, "kind": "{kind}", {self.place(ev[2])}, "depth": {ev[3]}'
        if kind == "assign":
            frame = ev[8]
            local = '"local": false, "frame": null' if frame is None else f'"local": true, "frame": {frame}'
            return (f'{head}, "name": {encode_basestring(ev[4])}, "index": {_json_index(ev[5])}, '
                    f'"old": {_json_value(ev[6])}, "new": {_json_value(ev[7])}, {local}}}\n')
        if kind == "cond":
            e = ev[4]
            known = self.conds.get(id(e))
            if known is None or known[0] is not e:
                known = self.conds[id(e)] = (e, encode_basestring(e.span.full_text()))
            return (f'{head}, "text": {known[1]}, "value": {_json_value(ev[5])}, '
                    f'"construct": "{ev[6]}", "has_else": {"true" if ev[7] else "false"}}}\n')
        if kind == "call":
            d, e = ev[4], ev[5]
            known = self.calls.get(id(e))
            if known is None or known[0] is not e:
                params = ", ".join(encode_basestring(p.name) for p in d.params)
                known = self.calls[id(e)] = (
                    e, f', "name": {self.name(d)}, "args": [',
                    (f'], "params": [{params}], "phrase": {"true" if d.is_phrase else "false"}, '
                     f'"definition": {encode_basestring(e.name)}}}\n'))
            args = ", ".join('"—"' if a is None else _json_value(a) for a in ev[6])
            return f"{head}{known[1]}{args}{known[2]}"
        if kind == "return":
            return f'{head}, "name": {self.name(ev[4])}, "value": {_json_value(ev[5])}}}\n'
        if kind == "output":
            return f'{head}, "text": {encode_basestring(ev[4])}}}\n'
        if kind == "input":
            return f'{head}, "value": {_json_value(ev[4])}}}\n'
        if kind == "state":
            return (f'{head}, "from": {_json_value(ev[4])}, "to": {encode_basestring(ev[5])}, '
                    f'"condition": {_json_value(ev[6])}, "how": "{ev[7]}"}}\n')
        return f'{head}, "outcome": "{ev[4]}", "message": {_json_value(ev[5])}}}\n'  # end


# ---- the desk-check table ----

SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


class _Row:
    def __init__(self, step: int, line: int | None, depth: int, call: str):
        self.step, self.line, self.depth, self.call = step, line, depth, call
        self.cells: dict = {}
        self.output = ""


class TableView:
    """--format table: a column per variable, a row per statement that changed something;
    a value is shown only where it changes — the classic paper exercise. Each row says the
    call depth and the call it runs in, with its arguments (`HR(3)`); a local variable that
    lives in several calls at once (HR's `i` in HR(1), HR(2), …) has a column per call depth —
    `i₁`, `i₂` —, and a procedure's parameters get their values in these columns when it is
    called. A phrase's arguments are read in the call column (`«занять 1, 5»`)."""

    def __init__(self, stream):
        self.stream = stream
        self.columns: list[tuple] = []  # (name, frame): frame None for a global or an array
        self.known: set[tuple] = set()
        self.frames: dict[str, set] = {}  # name → the frames it lives in (None: global)
        self.rows: list[_Row] = []
        self.row: _Row | None = None
        self.calls: list[str] = []  # the call in progress at each depth

    def _cell(self, name: str, frame, value: str) -> None:
        key = (name, frame)
        if key not in self.known:
            self.known.add(key)
            self.columns.append(key)
            self.frames.setdefault(name, set()).add(frame)
        self.row.cells[key] = value

    def _new_row(self, e: dict) -> _Row:
        return _Row(e["step"], e["line"], e["depth"], self.calls[-1] if self.calls else "")

    def __call__(self, e: dict) -> None:
        kind = e["kind"]
        if kind == "stmt":
            self.row = self._new_row(e)
            return
        if self.row is None:
            self.row = self._new_row(e)
        if kind == "assign":
            if e.get("index"):
                self._cell(e["name"] + "[…]", None, f"[{', '.join(e['index'])}]={e['new']}")
            else:
                self._cell(e["name"], e.get("frame"), e["new"])
        elif kind == "output":
            self.row.output += _shown_text(e["text"])
        elif kind == "call":
            text = call_text(e)
            if not e.get("phrase"):
                for name, value in zip(e["params"], e["args"]):
                    self._cell(name, e["depth"] + 1, value)
            self.calls.append(text)
            if not e.get("phrase") and e["params"]:
                self._keep()
            return
        elif kind == "return":
            if self.calls:
                self.calls.pop()
            return
        else:
            return
        self._keep()

    def _keep(self) -> None:
        if not self.rows or self.rows[-1] is not self.row:
            self.rows.append(self.row)

    def heading(self, key: tuple) -> str:
        name, frame = key
        if frame is not None and len(self.frames.get(name, ())) > 1:
            return name + str(frame).translate(SUBSCRIPT)
        return name

    def finish(self) -> None:
        heads = ["шаг", "стр.", "глуб.", "вызов"] + [self.heading(c) for c in self.columns] + ["вывод"]
        table = [[str(r.step), str(r.line or ""), str(r.depth), r.call,
                  *[r.cells.get(c, "") for c in self.columns], r.output] for r in self.rows]
        widths = [max([len(h)] + [len(row[i]) for row in table]) for i, h in enumerate(heads)]
        line = lambda cells: " │ ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
        self.stream.write(line(heads) + "\n")
        self.stream.write("─┼─".join("─" * w for w in widths) + "\n")
        for row in table:
            self.stream.write(line(row) + "\n")
        split = [c for c in self.columns if self.heading(c) != c[0]]
        if split:
            name, frame = split[0]
            self.stream.write(f"\n{self.heading(split[0])} — переменная {name} вызова на глубине {frame}; "
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
