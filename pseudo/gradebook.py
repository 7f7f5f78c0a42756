"""What checking found, for people: a test's lines for `pseudo test`, and the class's results
for `pseudo grade` — a table for the terminal, CSV for a spreadsheet, a page with each failure's
expected and received output side by side.

Everything a program or its file name brings (its output, its messages, the pupil's name)
reaches the page only escaped.
"""
from __future__ import annotations

import html
import os

from .runtime.io import plural
from .runtime.report import printable
from .tasks import Difference, Task, Test

MARKS = {"passed": "+", "failed": "−", "error": "!", "limit": "∞", None: "·"}
WORDS = {"passed": "пройден", "failed": "неверный вывод", "error": "ошибка выполнения", "limit": "превышен предел",
         None: "не выполнялся"}
LEGEND = "+ пройден, − неверный вывод, ! ошибка выполнения, ∞ превышен предел, · не выполнялся"
COMPILE_WORDS = {"syntax": "программа не разобрана", "refused": "программа отклонена", "error": "программа не проверена"}


class Pupil:
    """One program's results: the compilation's, then each test's (by test name)."""

    def __init__(self, name: str, path: str):
        self.name, self.path = name, path
        self.error: str | None = None  # the program did not compile, or could not be checked
        self.status = None  # then why: "syntax", "refused", "error"
        self.warnings: list[str] = []
        self.results: dict[str, dict] = {}

    def take(self, message: dict) -> None:
        """A message of judge.check about this program."""
        if message["kind"] == "compiled":
            self.error, self.status, self.warnings = message["error"], message["status"], message["warnings"]
        else:
            self.results[message["test"]] = message

    def passed(self) -> int:
        return sum(r["status"] == "passed" for r in self.results.values())

    def first_failure(self, task: Task) -> str:
        """One line: what went wrong first ("" when nothing did)."""
        if self.error is not None:
            return f"{COMPILE_WORDS[self.status]}: {self.error.splitlines()[0]}"
        for test in task.tests:
            found = self.results.get(test.name)
            if found is None:
                return f"{test.name}: не выполнялся"
            if found["status"] != "passed":
                return f"{test.name}: {summary(found)}"
        return ""


def summary(found: dict) -> str:
    """A test's result in one line."""
    if found["status"] == "passed":
        return "пройден"
    if found["status"] == "failed":
        return f"неверный вывод, {found['detail']}"
    if found["status"] == "limit":
        return found["detail"]
    return f"{WORDS[found['status']]}: {found['detail']}"


def pupil_names(paths: list[str]) -> list[str]:
    """Each pupil named after the file; two files of one name are told apart by their folders."""
    stems = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    return [stem if stems.count(stem) == 1 else os.path.splitext(os.path.normpath(path))[0]
            for stem, path in zip(stems, paths)]


# ---- pseudo test ----

def test_label(test: Test) -> str:
    return f"{test.name} (скрытый)" if test.hidden else test.name


def test_lines(test: Test, found: dict, width: int = 0, same_as: str | None = None) -> list[str]:
    """What `pseudo test` prints of one test: a line (its name in `width` characters), and
    under a failure what differs; an error met before in test `same_as` is not shown again.
    What the program printed reaches the terminal only as text (printable), never as its
    escape sequences."""
    return [printable(line) for line in _test_lines(test, found, width, same_as)]


def _test_lines(test: Test, found: dict, width: int, same_as: str | None) -> list[str]:
    name = test_label(test).ljust(width)
    status = found["status"]
    if status == "passed":
        return [f"  {name}  пройден"]
    if status == "limit":
        return [f"  {name}  {found['detail']}"]
    lines = [f"  {name}  {'не пройден' if status == 'failed' else 'ошибка выполнения'}"
             + (f" — {Difference.from_dict(found['diff']).where()}" if status == "failed" else "")]
    if test.input:
        first, *more = _input_lines(test.input)
        lines += [f"        ввод:      {first}", *(f"                   {line}" for line in more)]
    if status == "failed":
        diff = Difference.from_dict(found["diff"])
        if diff.note and diff.expected == diff.received:
            lines.append(f"        {diff.note}")
        else:
            lines.append(f"        ожидалось: {_shown(diff.expected)}")
            lines.append(f"        получено:  {_shown(diff.received)}" + (f" ({diff.note})" if diff.note else ""))
    elif same_as is not None:
        lines.append(f"        та же ошибка, что в тесте {same_as}")
    else:
        lines += ["        " + line for line in found["message"].splitlines()]
    return lines


def _shown(line: str | None) -> str:
    return "конец вывода" if line is None else f"«{line}»"


def _input_lines(text: str) -> list[str]:
    """A test's input as it is when it is short (a count and the numbers a pupil types, each
    line in «»), else how long it is."""
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= 3 and all(len(line) <= 60 for line in lines):
        return [f"«{line}»" for line in lines]
    return [f"{plural(len(lines), 'строка', 'строки', 'строк')}, {plural(len(text), 'знак', 'знака', 'знаков')}"]


# ---- pseudo grade: the table ----

def table(task: Task, pupils: list[Pupil], width: int | None = None) -> str:
    """The class's results for the terminal: pupil, tests passed, a mark per test, the first
    failure (cut to `width` characters, when given); names and outputs only as text (printable)."""
    head = ["ученик", "пройдено", "тесты", "первая ошибка"]
    rows = [[printable(p.name), f"{p.passed()} из {len(task.tests)}", marks(task, p), printable(p.first_failure(task))]
            for p in pupils]
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(3)]
    lines = []
    for row in [head, *rows]:
        line = "  ".join([row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].ljust(widths[2]), row[3]])
        line = line.rstrip()
        if width and len(line) > width:
            line = line[:width - 1] + "…"
        lines.append(line)
    perfect = sum(p.passed() == len(task.tests) for p in pupils)
    lines += ["", f"тесты: {LEGEND}", f"все тесты прошли {perfect} из {len(pupils)}"]
    return "\n".join(lines) + "\n"


def marks(task: Task, pupil: Pupil) -> str:
    return "".join(MARKS[pupil.results.get(t.name, {}).get("status")] for t in task.tests)


# ---- CSV ----

def csv_text(task: Task, pupils: list[Pupil]) -> str:
    """A row per pupil: name, file, passed, total, each test's result, the first failure."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["ученик", "файл", "пройдено", "всего", *(t.name for t in task.tests), "первая ошибка"])
    for p in pupils:
        writer.writerow([_cell(p.name), _cell(p.path), p.passed(), len(task.tests),
                         *(WORDS[p.results.get(t.name, {}).get("status")] for t in task.tests),
                         _cell(p.first_failure(task))])
    return "\ufeff" + out.getvalue()  # the byte-order mark: spreadsheets then read UTF-8 as such


def _cell(text: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula (`=`, `+`, `-`, `@` first)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# ---- the page ----

STYLE = """
body { font: 20px/1.45 system-ui, "DejaVu Sans", sans-serif; margin: 1.2em 2em; color: #111; background: #fff; }
h1 { font-size: 1.6em; margin: 0 0 .3em; } h2 { font-size: 1.3em; margin: 1.6em 0 .4em; border-top: 3px solid #333;
padding-top: .4em; } h3 { font-size: 1.1em; margin: 1.2em 0 .4em; white-space: pre-wrap; }
table.results { border-collapse: collapse; margin: .6em 0; width: 100%; }
.results td:last-child { overflow-wrap: anywhere; white-space: pre-wrap; }  /* «сумма:  6» keeps its two spaces */
.results th, .results td { border: 1px solid #888; padding: .2em .5em; text-align: left; vertical-align: top; }
.results td.num { text-align: right; white-space: nowrap; }
.results td.mark { text-align: center; font: bold 1.1em ui-monospace, "DejaVu Sans Mono", monospace; padding: .2em .35em; }
.results td.mark a { color: inherit; text-decoration: none; display: block; }
.passed { background: #cdeccd; } .failed { background: #f6c9c6; } .error { background: #fbd9a5; }
.limit { background: #dccdf3; } .none { background: #e6e6e6; }
pre { font: 17px/1.35 ui-monospace, "DejaVu Sans Mono", monospace; margin: 0; white-space: pre-wrap;
overflow-wrap: anywhere; }
pre.message, pre.input { background: #f4f4f4; border-left: 5px solid #c60; padding: .5em .8em; margin: .4em 0; }
pre.input { border-left-color: #888; }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.side pre { border: 1px solid #888; padding: .4em .6em; min-height: 1.4em; }
.side h4 { margin: .2em 0; font-size: 1em; }
.n { color: #666; user-select: none; }
mark { background: #ffe066; outline: 2px solid #c00; }
.legend, .note { color: #444; }
@media print { body { font-size: 12pt; } pre { font-size: 10pt; } }
"""
SHOWN_LINES = 60  # lines of an output shown on the page: around the difference, or the last ones


def page(task: Task, pupils: list[Pupil]) -> str:
    """The whole page: the table (each mark a link to its failure), then each failure."""
    e = html.escape
    title = f"Задача «{task.title}»: результаты"
    out = [(f'<!DOCTYPE html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n'
           f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{e(title)}</title>\n'
           f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>{e(title)}</h1>\n"),
           (f'<p class="legend">тестов: {len(task.tests)} (скрытых: {sum(t.hidden for t in task.tests)}); '
           f"сравнение: {e(task.compare)}; {e(LEGEND)}</p>\n"),
           '<table class="results">\n<tr><th>ученик</th><th>пройдено</th>',
           "".join(f"<th>{e(t.name)}</th>" for t in task.tests), "<th>первая ошибка</th></tr>\n"]
    for number, p in enumerate(pupils, 1):
        cells = []
        for t in task.tests:
            status = p.results.get(t.name, {}).get("status")
            mark = e(MARKS[status])
            if status not in (None, "passed"):
                mark = f'<a href="#p{number}-{e(t.name)}">{mark}</a>'
            cells.append(f'<td class="mark {status or "none"}" title="{e(WORDS[status])}">{mark}</td>')
        out.append(f'<tr><td><a href="#p{number}">{e(p.name)}</a></td><td class="num">{p.passed()} из '
                   f'{len(task.tests)}</td>{"".join(cells)}<td>{e(p.first_failure(task))}</td></tr>\n')
    out.append("</table>\n")
    for number, p in enumerate(pupils, 1):
        out.append(_pupil_section(task, p, number))
    out.append("</body>\n</html>\n")
    return "".join(out)


def _pupil_section(task: Task, p: Pupil, number: int) -> str:
    e = html.escape
    out = [(f'<h2 id="p{number}">{e(p.name)}: {p.passed()} из {len(task.tests)}</h2>\n'
           f'<p class="note">{e(p.path)}</p>\n')]
    if p.error is not None:
        out.append(f"<p>{e(COMPILE_WORDS[p.status])}:</p>\n<pre class=\"message\">{e(p.error)}</pre>\n")
        return "".join(out)
    if p.warnings:
        warnings = "\n".join(p.warnings)
        out.append(f'<details><summary>предупреждения: {len(p.warnings)}</summary>\n'
                   f'<pre class="message">{e(warnings)}</pre></details>\n')
    if p.passed() == len(task.tests):
        out.append("<p>Все тесты пройдены.</p>\n")
    for test in task.tests:
        found = p.results.get(test.name)
        if found is None or found["status"] == "passed":
            continue
        diff = Difference.from_dict(found["diff"]) if found["diff"] else None
        hidden = " (скрытый)" if test.hidden else ""
        out.append(f'<h3 id="p{number}-{e(test.name)}">тест {e(test.name)}{hidden}: {e(summary(found))}</h3>\n')
        if test.input:
            out.append(f"<p>ввод:</p>\n<pre class=\"input\">{_numbered(test.input, None, tail=False)}</pre>\n")
        if found["status"] in ("error", "limit") and found["message"]:
            out.append(f"<pre class=\"message\">{e(found['message'])}</pre>\n")
        expected, received = (diff.expected_line, diff.received_line) if diff else (None, None)
        out.append('<div class="side">\n'
                   f'<div><h4>ожидалось</h4><pre>{_numbered(test.expected, expected)}</pre></div>\n'
                   f'<div><h4>получено</h4><pre>{_numbered(found["output"], received)}</pre></div>\n'
                   "</div>\n")
    return "".join(out)


def _numbered(text: str, focus: int | None, tail: bool = True) -> str:
    """The lines of a text numbered, the line `focus` marked; a long one shown around it, or
    without a focus, its end (the output of a run an error stopped) or its start (`tail` False)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    around = (len(lines) if tail else 0) if focus is None else focus - 1 + SHOWN_LINES // 2
    start = max(0, min(around, len(lines)) - SHOWN_LINES)
    end = min(len(lines), start + SHOWN_LINES)
    width = len(str(end))
    out = [f'<span class="n">… строк выше: {start}</span>'] if start else []
    for number in range(start + 1, end + 1):
        line = f'<span class="n">{number:>{width}} </span>{html.escape(lines[number - 1])}'
        out.append(f"<mark>{line}</mark>" if number == focus else line)
    if focus is not None and focus > len(lines):
        out.append(f'<mark><span class="n">{focus:>{width}} </span><i>(конец вывода)</i></mark>')
    if end < len(lines):
        out.append(f'<span class="n">… строк ниже: {len(lines) - end}</span>')
    return "\n".join(out)
