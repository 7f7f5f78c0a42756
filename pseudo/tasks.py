"""A task: a folder a teacher writes by hand, and how a program's output is compared with a test's.

    задача/
      README.md        the statement (Markdown; optional here)
      task.toml        optional: title, hidden tests, limits, the comparison
      tests/NAME.in    a test's standard input (optional: no input)
      tests/NAME.out   its expected standard output
      solution.pseudo  optional: the teacher's own solution

`read_task` reads and checks the whole folder before anything runs: every fault in it (a
malformed task.toml, an unknown key, a value of the wrong type, a `.in` without its `.out`, no
tests) is reported at once, each with its file and line, as a `TaskError` (exit 64).
`difference` compares an output with the expected one in the task's mode and gives the first
place they differ. `for_pupils` is what a pupil may see of a task — the statement and the
visible tests — as plain data (the playground packs it into a link).
"""
from __future__ import annotations

import os
import re
import stat

from .errors import EXIT_USAGE, Diagnostic, PseudoError
from .files import io_words
from .messages import byte_place, encoding_hint, not_utf8

TASK_FILE = "task.toml"
STATEMENT = "README.md"
SOLUTION = "solution.pseudo"
TESTS = "tests"
COMPARE = ("exact", "lines", "numbers")
TIME_LIMIT = 2.0  # seconds per run when task.toml gives none: pseudo run's hour is no grading limit
KEYS = ("title", "hidden", "max_steps", "time_limit", "compare")


class TaskError(PseudoError):
    """Faults of a task folder, each naming its file and line: a usage error (exit 64)."""

    exit_code = EXIT_USAGE


class Test:
    """One test: its name (the files' stem), standard input and the expected standard output
    (text, line ends as a program reads and writes them), whether pupils' checks skip it."""
    __slots__ = ("expected", "hidden", "input", "name")

    def __init__(self, name: str, input: str, expected: str, hidden: bool = False):
        self.name, self.input, self.expected, self.hidden = name, input, expected, hidden

    def __repr__(self) -> str:
        return f"Test({self.name!r}, hidden={self.hidden})"


class Task:
    """A task folder read and checked: `limits()` are those of every run of it."""

    def __init__(self, folder: str, title: str, statement: str, tests: list[Test], max_steps: int | None,
                 time_limit: float, compare: str, solution: str | None):
        self.folder, self.title, self.statement, self.tests = folder, title, statement, tests
        self.max_steps, self.time_limit, self.compare, self.solution = max_steps, time_limit, compare, solution
        self._answers: set | None = None  # the identities of the files a pupil's program may not use

    @property
    def visible(self) -> list[Test]:
        return [t for t in self.tests if not t.hidden]

    def limits(self):
        from .runtime import Limits
        defaults = Limits()
        return Limits(max_steps=self.max_steps or defaults.max_steps, max_depth=defaults.max_depth,
                      time_limit=self.time_limit)

    def files(self) -> list[str]:
        """Every file of the task that grading reads: no output may replace one of them."""
        found = [os.path.join(self.folder, name) for name in (TASK_FILE, STATEMENT, SOLUTION)]
        tests = os.path.join(self.folder, TESTS)
        found += [os.path.join(tests, name) for name in _listdir(tests)]
        return [path for path in found if os.path.isfile(path)]

    def is_answer(self, path: str) -> bool:
        """Is this file one a pupil's program may not be, nor read through ИСПОЛЬЗОВАТЬ: a test
        (its expected output above all), task.toml or the teacher's solution — by any name
        (a link to one is one)?"""
        if self._answers is None:
            statement = os.path.join(self.folder, STATEMENT)
            self._answers = {_identity(name) for name in self.files() if name != statement} - {None}
        return _identity(path) in self._answers


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def for_pupils(task: Task) -> dict:
    """What a pupil sees of a task, as plain data: its title, statement, comparison, limits and
    visible tests (never the hidden ones, nor the solution)."""
    limits = task.limits()
    return {"title": task.title, "statement": task.statement, "compare": task.compare,
            "max_steps": limits.max_steps, "time_limit": limits.time_limit,
            "tests": [{"name": t.name, "input": t.input, "expected": t.expected} for t in task.visible]}


# ---- reading a task folder ----

def read_task(folder: str) -> Task:
    """The task in `folder`; raises TaskError listing every fault found in it."""
    if not os.path.isdir(folder):
        text = f"папки задачи {folder} нет" if not os.path.exists(folder) else f"{folder} — не папка задачи"
        raise TaskError([_fault(text, None, "задача — это папка: tests/ИМЯ.in и ИМЯ.out, task.toml, README.md")])
    faults: list[Diagnostic] = []
    settings = _settings(os.path.join(folder, TASK_FILE), faults)
    tests = _tests(folder, faults)
    hidden = _hidden(settings, {t.name for t in tests}, faults)
    statement = os.path.join(folder, STATEMENT)
    statement = _text(statement, faults) if os.path.isfile(statement) else ""
    if faults:
        raise TaskError(faults)
    for test in tests:
        test.hidden = test.name in hidden
    solution = os.path.join(folder, SOLUTION)
    value = {key: given for key, (given, _) in settings.items()}
    return Task(folder, value.get("title", os.path.basename(os.path.realpath(folder))), statement, tests,
                value.get("max_steps"), value.get("time_limit", TIME_LIMIT), value.get("compare", "exact"),
                solution if os.path.isfile(solution) else None)


def _settings(path: str, faults: list) -> dict:
    """task.toml's keys, each with the span of its line: {key: (value, span)}."""
    if not os.path.exists(path):
        return {}
    text = _text(path, faults)
    if text is None:
        return {}
    import tomllib
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        faults.append(_toml_fault(path, text, str(e)))
        return {}
    settings = {}
    for key, value in table.items():
        span = _key_span(path, text, key)
        if key not in KEYS:
            faults.append(_fault(f"неизвестный ключ «{key}»", span, _nearest(key, KEYS, "можно: " + ", ".join(KEYS))))
            continue
        problem = _CHECKS[key](value)
        if problem:
            faults.append(_fault(f"{key}: {problem}", span))
            continue
        settings[key] = (float(value) if key == "time_limit" else value, span)
    return settings


def _title(value) -> str | None:
    return None if isinstance(value, str) and value.strip() else "нужна непустая строка в кавычках"


def _hidden_names(value) -> str | None:
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return None
    return 'нужен список имён тестов в кавычках: hidden = ["03", "04"]'


def _max_steps(value) -> str | None:
    if type(value) is int and value > 0:
        return None
    return "нужно целое положительное число шагов: max_steps = 1_000_000"


MAX_TIME_LIMIT = 3600  # pseudo run's own limit: a longer run of one test is a slip (1e308 would not wait)


def _time_limit(value) -> str | None:
    if type(value) in (int, float) and 0 < value <= MAX_TIME_LIMIT:
        return None
    return f"нужно положительное число секунд, не больше {MAX_TIME_LIMIT}: time_limit = 2"


def _compare(value) -> str | None:
    if value in COMPARE:
        return None
    shown = f"«{value}»" if isinstance(value, str) else "не строка"
    return f"{shown} — нет такого способа сравнения; можно: " + ", ".join(f'"{c}"' for c in COMPARE)


_CHECKS = {"title": _title, "hidden": _hidden_names, "max_steps": _max_steps, "time_limit": _time_limit,
           "compare": _compare}


def _hidden(settings: dict, names: set[str], faults: list) -> set[str]:
    if "hidden" not in settings:
        return set()
    listed, span = settings["hidden"]
    for name in listed:
        if name not in names:
            place = _item_span(span, name)
            known = ", ".join(sorted(names, key=natural)) or "тестов нет"
            faults.append(_fault(f"hidden: теста «{name}» нет в папке {TESTS}/", place,
                                 _nearest(name, names, f"есть: {known}")))
    return set(listed)


def _tests(folder: str, faults: list) -> list[Test]:
    where = os.path.join(folder, TESTS)
    if not os.path.isdir(where):
        faults.append(_fault(f"в папке задачи {folder} нет папки {TESTS}/ с тестами", None,
                             f"положите в {TESTS}/ пары файлов ИМЯ.in (ввод) и ИМЯ.out (ожидаемый вывод)"))
        return []
    files = _listdir(where)
    inputs = {n[:-3] for n in files if n.endswith(".in")}
    outputs = {n[:-4] for n in files if n.endswith(".out")}
    for name in sorted(inputs - outputs, key=natural):
        faults.append(_fault(f"у теста {os.path.join(where, name + '.in')} нет ожидаемого вывода {name}.out", None,
                             f"создайте {os.path.join(where, name + '.out')}: точный вывод программы на этом вводе"))
    if not outputs:
        if not inputs:
            faults.append(_fault(f"в папке {where} нет тестов", None,
                                 "тест — файл ИМЯ.out с ожидаемым выводом и, если программа читает ввод, ИМЯ.in"))
        return []
    tests = []
    for name in sorted(outputs, key=natural):
        expected = _text(os.path.join(where, name + ".out"), faults)
        given = _text(os.path.join(where, name + ".in"), faults) if name in inputs else ""
        if expected is not None and given is not None:
            tests.append(Test(name, given, expected))
    return tests


def natural(name: str) -> list:
    """The order of test names a person expects: 2 before 10."""
    return [(0, int(part), part) if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name)]


def _listdir(folder: str) -> list[str]:
    try:
        return sorted(name for name in os.listdir(folder) if not name.startswith("."))
    except OSError:
        return []


MAX_TEST_BYTES = 40 * 1024 * 1024  # the runtime reads at most 10,000,000 characters of input


def _text(path: str, faults: list) -> str | None:
    """A text file of the task as a program reads its input (runtime/io.py): UTF-8, a
    byte-order mark dropped, \\r\\n read as \\n and a lone \\r kept. A folder, a device or a
    pipe named as a test (/dev/zero linked as 02.in, a fifo) is a fault, not read: reading it
    would not end."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            faults.append(_fault(f"{path} — это папка, а не файл теста", None))
            return None
        if not stat.S_ISREG(mode):
            faults.append(_fault(f"{path} — это не файл, а устройство или канал", None))
            return None
        with open(path, "rb") as f:
            data = f.read(MAX_TEST_BYTES + 1)
    except OSError as e:
        faults.append(_fault(f"не удалось прочесть {path}: {io_words(e)}", None))
        return None
    if len(data) > MAX_TEST_BYTES:
        faults.append(_fault(f"файл {path} больше {MAX_TEST_BYTES // 1024 // 1024} МБ — это не тест", None))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line, column = byte_place(data, e.start)
        faults.append(_fault(f"файл {path} {not_utf8(data, e.start)}",
                             _span(path, data.decode("utf-8", "replace"), line, column, 1), encoding_hint(data, "файл")))
        return None
    return text.replace("\r\n", "\n")


# ---- where a fault of task.toml is ----

def _span(path: str, text: str, line: int, column: int, width: int):
    from .frontend.source import Source, Span
    return Span(Source(text, path), line, column, line, column + max(1, width))


def _fault(text: str, span, hint: str | None = None) -> Diagnostic:
    return Diagnostic("error", "task", text, span, hint)


TOML_WORDS = {  # tomllib's messages in the words of the rest of pseudo
    "Invalid value": "неверное значение", "Cannot overwrite a value": "ключ задан второй раз",
    "Unterminated string": "строка не закрыта кавычкой", "Illegal character": "недопустимый знак",
    "Expected '=' after a key in a key/value pair": "после ключа нужен знак «=»",
    "Invalid statement": "непонятная строка", "Cannot declare": "таблица объявлена второй раз",
    "Unclosed array": "список не закрыт «]»",
}


def _toml_fault(path: str, text: str, message: str) -> Diagnostic:
    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    lines = text.split("\n")
    if found:
        line, column = int(found[1]), int(found[2])
    else:  # "(at end of document)": the last line that has anything on it
        line = max((i + 1 for i, x in enumerate(lines) if x.strip()), default=1)
        column = len(lines[line - 1]) + 1 if lines else 1
    detail = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)$", "", message)
    words = next((ru for en, ru in TOML_WORDS.items() if detail.startswith(en)), None)
    text_ru = f"{TASK_FILE} не читается как TOML: {words or detail}"
    return _fault(text_ru, _span(path, text, line, column, 1),
                  'каждая строка — «ключ = значение», строки в кавычках: title = "Сумма чисел"')


def _key_span(path: str, text: str, key: str):
    """The span of a top-level key (or a table [key]) in task.toml's text."""
    quoted = re.escape(key)
    pattern = re.compile(rf"""^\s*(\[+\s*)?(["']?){quoted}\2\s*[=.\]]""")
    for number, line in enumerate(text.split("\n"), 1):
        found = pattern.match(line)
        if found:
            start = found.end(1) if found.group(1) else len(line) - len(line.lstrip())
            return _span(path, text, number, start + 1, len(key) + 2 * len(found[2]))
    return None


def _item_span(span, item: str):
    """The span of a quoted item of a list from its key's line on (a list may go on for lines)."""
    if span is None:
        return None
    source = span.source
    for number in range(span.line, len(source.lines) + 1):
        line = source.line(number)
        for quote in ('"', "'"):
            at = line.find(f"{quote}{item}{quote}")
            if at >= 0:
                return _span(source.filename, source.text, number, at + 1, len(item) + 2)
    return span


def _nearest(word: str, choices, otherwise: str) -> str:
    """The choice the word likely means: one it begins (time → time_limit), or the closest."""
    import difflib
    close = [c for c in choices if c.startswith(word)] or difflib.get_close_matches(word, list(choices), n=1)
    return f"может быть, «{close[0]}»?" if close else otherwise


# ---- comparing outputs ----

class Difference:
    """The first place where a program's output differs from the expected: the line (from 1)
    in the expected and in the received output, and what stands there (None: the output
    ended); `note` says what an invisible difference is."""
    __slots__ = ("expected", "expected_line", "note", "received", "received_line")

    def __init__(self, expected_line: int, received_line: int, expected: str | None, received: str | None,
                 note: str = ""):
        self.expected_line, self.received_line = expected_line, received_line
        self.expected, self.received, self.note = expected, received, note

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict) -> Difference:
        return cls(data["expected_line"], data["received_line"], data["expected"], data["received"], data["note"])

    def where(self) -> str:
        if self.expected_line == self.received_line:
            return f"строка {self.received_line}"
        return f"строка {self.received_line} (в ожидаемом выводе — {self.expected_line})"

    def text(self) -> str:
        """One line: where, and what was expected and received there."""
        expected = "конец вывода" if self.expected is None else f"«{self.expected}»"
        received = "конец вывода" if self.received is None else f"«{self.received}»"
        if self.note and self.expected == self.received:
            return f"{self.where()}: {self.note}"
        note = f" ({self.note})" if self.note else ""
        return f"{self.where()}: ожидалось {expected}, получено {received}{note}"


SHOWN = 80  # characters of a differing line shown around the first difference


def difference(mode: str, expected: str, received: str) -> Difference | None:
    """None when `received` is right in this comparison mode ("exact", "lines", "numbers")."""
    if mode == "numbers":
        return _numbers(expected, received)
    if mode == "lines":
        return _lines(_trimmed(expected), _trimmed(received))
    return None if expected == received else _lines(_with_ends(expected), _with_ends(received))


def _trimmed(text: str) -> list[str]:
    """The lines without the blanks at their ends, and without empty lines at the end."""
    lines = [line.rstrip(" \t") for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _with_ends(text: str) -> list[str]:
    """The lines each with its \\n (the last may have none)."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _lines(expected: list[str], received: list[str]) -> Difference | None:
    for i in range(max(len(expected), len(received))):
        a = expected[i] if i < len(expected) else None
        b = received[i] if i < len(received) else None
        if a == b:
            continue
        note = ""
        if a is not None and b is not None:
            if a.rstrip("\n") == b.rstrip("\n"):
                note = ("в конце вывода нет перевода строки" if a.endswith("\n") else
                        "в ожидаемом выводе нет перевода строки в конце; в выводе он есть")
            elif a.rstrip(" \t\n") == b.rstrip(" \t\n"):
                note = "разница в пробелах в конце строки"
            elif "".join(a.split()) == "".join(b.split()):  # «сумма:  6»: a space beside СООБЩИТЬ's own
                column = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b))) + 1
                note = f"разница только в пробелах, с {column}-го знака"
        a, b = _window(*(x if x is None else x.rstrip("\n") for x in (a, b)))
        return Difference(i + 1, i + 1, a, b, note)
    return None


def _window(a: str | None, b: str | None) -> tuple[str | None, str | None]:
    """Long lines cut to SHOWN characters around their first difference."""
    if a is None or b is None or max(len(a), len(b)) <= SHOWN:
        cut = [x if x is None or len(x) <= SHOWN else x[:SHOWN] + "…" for x in (a, b)]
        return cut[0], cut[1]
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, first - SHOWN // 2)

    def cut(x: str) -> str:
        return ("…" if start else "") + x[start:start + SHOWN] + ("…" if start + SHOWN < len(x) else "")
    return cut(a), cut(b)


def _tokens(text: str) -> list[tuple[int, str]]:
    return [(number, token) for number, line in enumerate(text.split("\n"), 1) for token in line.split()]


def _numbers(expected: str, received: str) -> Difference | None:
    """The outputs' tokens compared in order, those that read as numbers by value (as ПРОЧЕСТЬ
    reads them: 2.5, 2,5 and 5/2 are the same number)."""
    from .runtime.io import read_value
    a, b = _tokens(expected), _tokens(received)
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x is not None and y is not None:
            vx, vy = read_value(x[1]), read_value(y[1])
            if x[1] == y[1] or (type(vx) is not str and type(vy) is not str and vx == vy):
                continue
        last_a = a[-1][0] + 1 if a else 1
        last_b = b[-1][0] + 1 if b else 1
        return Difference(x[0] if x else last_a, y[0] if y else last_b, x[1] if x else None, y[1] if y else None)
    return None
