"""`pseudo trace --html`: one self-contained page (no network) that replays a trace.

The page is data plus one script. The data object (its format in docs/trace.md, «Страница для
других программ») holds the program's files, their highlighted lines, and the events encoded
as one flat array of integers, with every string — a value, a name, a statement's text, a piece
of output — kept once in a table. The script (`SCRIPT`, the global `PseudoTrace`; it and the
style `STYLE` are files of pseudo/tools/page/, inlined into the page) is the whole page:
`PseudoTrace.show(element, data)` builds the page inside any element from such an object, so
another host (a browser playground) feeds it its own data.

While the program runs, an event costs a few integers in an array: a trace of a million events
takes tens of megabytes, and the page is written in pieces, never held whole in memory.
"""
from __future__ import annotations

import html
import json
import pkgutil
from array import array

from ..files import AtomicFile
from ..runtime.values import show_key
from .trace import definition_name, shown, statement_end, statement_text

try:  # the lexer of the language; without it the page shows the source uncoloured
    from .highlight import KINDS as TOKEN_KINDS
    from .highlight import tokens as _tokens
except ImportError:  # pragma: no cover - the lexer ships with pseudo
    TOKEN_KINDS, _tokens = (), None

# the codes of the kinds of events in the flat array, and the integers that follow each code
STMT, COND, ASSIGN, CALL, RETURN, STATE, INPUT, OUTPUT, EXPR = range(9)
HOW = {"entry": 0, "goto": 1, "fall": 2}
ROLE = {"body": 0, "then": 1, "else": 2, "value": 3}  # of an expr event
CHUNK = 1 << 16  # integers written at a time


def _lines(source) -> list[str]:
    """A file's lines, without the empty one after its last line break."""
    lines = source.lines
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


def _end_on_line(span) -> int:
    """Where the span ends on its first line (exclusive): a span over several lines is marked to
    the end of its first."""
    return span.end_column if span.end_line == span.line else len(span.source.line(span.line)) + 1


class TraceData:
    """A sink that encodes compact events into the page's data; `write(out)` writes the data
    object as JSON to anything with a `write(str)`."""

    compact = True

    def __init__(self, sources: dict, main_file: str, title: str):
        self.sources = sources
        self.title = title
        self.files = [main_file] + sorted(f for f in sources if f != main_file)
        self.file_index = {f: i for i, f in enumerate(self.files)}
        self.codes = array("i")
        self.strings: dict[str, int] = {}
        self.places: dict[int, tuple] = {}  # id(node or span) → (it, index in place_list)
        self.place_list: list[list] = []
        self.defs: dict[int, tuple] = {}  # id(definition) → (it, index)
        self.def_list: list[list] = []
        self.calls: dict[tuple, int] = {}  # (definition, argument strings) → index
        self.call_list: list[list] = []
        self.end: dict | None = None

    # ---- tables ----

    def string(self, text: str) -> int:
        index = self.strings.get(text)
        if index is None:
            index = self.strings[text] = len(self.strings)
        return index

    def _place(self, key, span, end: int | None, text: str | None) -> int:
        known = self.places.get(id(key))
        if known is not None and known[0] is key:
            return known[1]
        if span is None:
            entry = [0, 0, 0, 0, -1]
        else:
            entry = [self.file_index.get(span.filename, 0), span.line, span.column, end or _end_on_line(span),
                     -1 if text is None else self.string(text)]
        self.places[id(key)] = (key, len(self.place_list))
        self.place_list.append(entry)
        return len(self.place_list) - 1

    def place(self, span) -> int:
        return -1 if span is None else self._place(span, span, None, None)

    def statement(self, s) -> int:
        return self._place(s, s.span, statement_end(s), statement_text(s))

    def definition(self, d, key: str) -> int:
        known = self.defs.get(id(d))
        if known is not None and known[0] is d:
            return known[1]
        span = d.span
        self.def_list.append([self.string(definition_name(d)), [self.string(p.name) for p in d.params],
                              1 if d.is_phrase else 0, self.string(key),
                              self.file_index.get(span.filename, 0) if span else 0, span.line if span else 0])
        self.defs[id(d)] = (d, len(self.def_list) - 1)
        return len(self.def_list) - 1

    # ---- events ----

    def __call__(self, ev: tuple) -> None:
        kind, codes = ev[1], self.codes
        if kind == "stmt" or kind == "expr":
            s = ev[4]
            known = self.places.get(id(s))
            place = known[1] if known is not None and known[0] is s else self.statement(s)
            if kind == "stmt":
                codes.extend((STMT, place, ev[3]))
            else:
                codes.extend((EXPR, place, ev[3], ROLE[ev[5]], -1 if ev[6] is None else self.string(shown(ev[6]))))
        elif kind == "assign":
            key = ev[5]
            index = -1 if key is None else self.string(show_key(key))
            frame = ev[8]
            codes.extend((ASSIGN, self.place(ev[2]), ev[3], self.string(ev[4]), index, self.string(shown(ev[7])),
                          -1 if frame is None else frame))
        elif kind == "cond":
            codes.extend((COND, self.place(ev[2]), ev[3], self.string(shown(ev[5]))))
        elif kind == "call":
            d, e = ev[4], ev[5]
            signature = (self.definition(d, e.name), *(-1 if a is None else self.string(shown(a)) for a in ev[6]))
            call = self.calls.get(signature)
            if call is None:
                call = self.calls[signature] = len(self.call_list)
                self.call_list.append(list(signature))
            codes.extend((CALL, self.place(ev[2]), ev[3], call))
        elif kind == "return":
            codes.extend((RETURN, self.place(ev[2]), ev[3], -1 if ev[5] is None else self.string(shown(ev[5]))))
        elif kind == "state":
            codes.extend((STATE, self.place(ev[2]), ev[3], -1 if ev[4] is None else self.string(ev[4]),
                          self.string(ev[5]), -1 if ev[6] is None else self.string(ev[6]), HOW.get(ev[7], 1)))
        elif kind == "input":
            codes.extend((INPUT, self.place(ev[2]), ev[3], self.string(shown(ev[4]))))
        elif kind == "output":
            codes.extend((OUTPUT, self.place(ev[2]), ev[3], self.string(ev[4])))

    def ended(self, outcome: str, error=None, limit: int | None = None) -> None:
        """How the run ended: ok, error (its message and place) or trace-limit."""
        self.end = {"outcome": outcome, "limit": limit, "message": None, "file": 0, "line": 0, "column": 0,
                    "end_column": 0}
        if error is not None:
            first = error.first
            self.end["message"] = first.text
            span = first.span
            if span is not None:  # the whole failing part is marked, as the caret marks it
                self.end.update(file=self.file_index.get(span.filename, 0), line=span.line, column=span.column,
                                end_column=max(_end_on_line(span), span.column + 1))

    # ---- the data object ----

    def highlighted(self) -> list | None:
        """Each line of each file as a flat list [kind, text, kind, text, …] (kinds: indices
        into TOKEN_KINDS); None without the lexer."""
        if _tokens is None:
            return None
        kinds = {k: i for i, k in enumerate(TOKEN_KINDS)}
        files = []
        for f in self.files:
            lines: list[list] = [[]]
            for kind, piece in _tokens("\n".join(_lines(self.sources[f]))):
                for i, part in enumerate(piece.split("\n")):
                    if i:
                        lines.append([])
                    if part:
                        lines[-1] += [kinds.get(kind, -1), part]
            files.append(lines)
        return files

    def write(self, out) -> None:
        """The data object as JSON, in pieces (`<` written as \\u003c: the text may stand in a
        <script> element)."""
        def dumps(value) -> str:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
        head = {"version": 1, "title": self.title, "files": self.files,
                "sources": [_lines(self.sources[f]) for f in self.files]}
        tokens = self.highlighted()
        if tokens is not None:
            head.update(kinds=list(TOKEN_KINDS), tokens=tokens)
        head.update(strings=list(self.strings), places=self.place_list, defs=self.def_list, calls=self.call_list,
                    end=self.end or {"outcome": "ok", "limit": None, "message": None, "file": 0, "line": 0,
                                     "column": 0, "end_column": 0})
        out.write(dumps(head)[:-1] + ',"events":[')
        codes = self.codes
        for start in range(0, len(codes), CHUNK):
            if start:
                out.write(",")
            out.write(",".join(map(str, codes[start:start + CHUNK])))
        out.write("]}")


class HtmlView(TraceData):
    """The page: `finish()` writes it to `path`, whole or not at all."""

    def __init__(self, path, sources: dict, main_file: str, title: str, inputs=()):
        super().__init__(sources, main_file, title)
        self.path = path
        self.inputs = inputs

    def finish(self) -> None:
        out = AtomicFile(self.path, self.inputs)
        try:
            write_page(out, self.title, self.write)
        except BaseException:
            out.discard()
            raise
        out.commit()


def write_page(out, title: str, write_data) -> None:
    """The whole page: style, the data (written by `write_data(out)`), the script."""
    out.write(PAGE_HEAD.replace("__TITLE__", html.escape(title)))
    out.write('<script type="application/json" id="trace-data">')
    write_data(out)
    out.write("</script>\n<script>\n")
    out.write(SCRIPT)
    out.write(PAGE_START)


PAGE_HEAD = """<!DOCTYPE html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Трассировка: __TITLE__</title>
<style>
html, body { margin: 0; height: 100%; }
__STYLE__
</style>
</head>
<body>
<div id="trace"></div>
"""

PAGE_START = """
window.pseudoTrace = PseudoTrace.show(document.getElementById("trace"),
  JSON.parse(document.getElementById("trace-data").textContent));
</script>
</body>
</html>
"""


def _asset(name: str) -> str:
    """A file of the page (pseudo/tools/page/), read by the module's own loader: from a
    checkout, an install or a zip archive alike (pseudo/tools is a namespace package, which
    importlib.resources cannot read inside a zip archive)."""
    return pkgutil.get_data(__name__, "page/" + name).decode("utf-8")


STYLE = _asset("trace.css")  # the page's style: its rules under the class .pt, and how it prints
SCRIPT = _asset("trace.js")  # the page's script: the global PseudoTrace

PAGE_HEAD = PAGE_HEAD.replace("__STYLE__", STYLE.strip())

__all__ = ["SCRIPT", "STYLE", "HtmlView", "TraceData", "write_page"]
