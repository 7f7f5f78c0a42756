"""Views of the trace event stream: text, narration, JSON lines, desk-check table, margin.

Each view is a sink (`view(event)`) with an optional `finish()`; a filter in front of it keeps
the events the user asked for. The HTML page and the stepper are built on the same events
(html.py, stepper.py).
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field

from ..runtime.values import show

ONLY = {"stmts": {"stmt", "cond"}, "states": {"state"}, "calls": {"call", "return"}, "assign": {"assign"},
        "output": {"output", "input"}}


@dataclass
class Filter:
    """--only, --vars, --from, --to, --depth."""
    kinds: set[str] | None = None
    names: set[str] | None = None
    first: int | None = None
    last: int | None = None
    depth: int | None = None

    def accepts(self, e: dict) -> bool:
        if self.kinds is not None and e["kind"] not in self.kinds:
            return False
        if self.names is not None and e["kind"] == "assign" and e["name"] not in self.names:
            return False
        if self.names is not None and self.kinds is None and e["kind"] not in ("assign",):
            return False
        if self.first is not None and e["step"] < self.first:
            return False
        if self.last is not None and e["step"] > self.last:
            return False
        return self.depth is None or e["depth"] <= self.depth


def filtered(view, flt: Filter):
    """The sink that gives a view the events it shows, their values printed."""
    def sink(e):
        if flt.accepts(e):
            view(printed(e))
    sink.finish = getattr(view, "finish", lambda: None)
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


# ---- text ----

class TextView:
    """`pseudo trace`: step, line, what happened, indented by call depth."""

    def __init__(self, stream):
        self.stream = stream

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


class JsonlView:
    """--format jsonl: one event per line, streamed."""

    def __init__(self, stream):
        self.stream = stream

    def __call__(self, e: dict) -> None:
        self.stream.write(json.dumps(e, ensure_ascii=False) + "\n")


# ---- the desk-check table ----

@dataclass
class _Row:
    step: int
    line: int | None
    cells: dict = field(default_factory=dict)
    output: str = ""


class TableView:
    """--format table: a column per variable, a row per statement that changed something;
    a value is shown only where it changes — the classic paper exercise."""

    def __init__(self, stream):
        self.stream = stream
        self.columns: list[str] = []
        self.rows: list[_Row] = []
        self.row: _Row | None = None

    def __call__(self, e: dict) -> None:
        if e["kind"] == "stmt":
            self.row = _Row(e["step"], e["line"])
            return
        if self.row is None:
            self.row = _Row(e["step"], e["line"])
        if e["kind"] == "assign":
            column = e["name"] + ("[…]" if e.get("index") else "")
            if column not in self.columns:
                self.columns.append(column)
            value = f"[{', '.join(e['index'])}]={e['new']}" if e.get("index") else e["new"]
            self.row.cells[column] = value
        elif e["kind"] == "output":
            self.row.output += _shown_text(e["text"])
        else:
            return
        if not self.rows or self.rows[-1] is not self.row:
            self.rows.append(self.row)

    def finish(self) -> None:
        heads = ["шаг", "стр."] + self.columns + ["вывод"]
        table = [[str(r.step), str(r.line or ""), *[r.cells.get(c, "") for c in self.columns], r.output]
                 for r in self.rows]
        widths = [max([len(h)] + [len(row[i]) for row in table]) for i, h in enumerate(heads)]
        line = lambda cells: " │ ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
        self.stream.write(line(heads) + "\n")
        self.stream.write("─┼─".join("─" * w for w in widths) + "\n")
        for row in table:
            self.stream.write(line(row) + "\n")


# ---- the margin ----

class MarginView:
    """--margin: the program's text with, at the right of each line, the last values
    assigned there, as KuMir shows them."""

    KEEP = 3

    def __init__(self, stream, source):
        self.stream = stream
        self.source = source
        self.values: dict[int, deque] = {}

    def __call__(self, e: dict) -> None:
        if e["kind"] == "assign" and e["file"] == self.source.filename:
            self.values.setdefault(e["line"], deque(maxlen=self.KEEP)).append(f"{target_name(e)}={e['new']}")

    def finish(self) -> None:
        width = min(60, max((len(x.rstrip()) for x in self.source.lines), default=0))
        for number, text in enumerate(self.source.lines, start=1):
            text = text.rstrip()
            values = self.values.get(number)
            if values:
                self.stream.write(f"{number:>4}  {text.ljust(width)}  │ {'  '.join(values)}\n")
            else:
                self.stream.write(f"{number:>4}  {text}\n".rstrip() + "\n")
