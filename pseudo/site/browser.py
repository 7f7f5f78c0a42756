"""What the playground's worker calls inside Pyodide: the command line itself, so that output,
messages and exit codes are exactly those of `pseudo` in a terminal.

A run talks to the page as a terminal would: what the program prints is sent as it is
printed (`PageStream`), and what it reads comes from the page (`PageInput`) — from the input
box, as from a file given with `<`, or, when the box is empty, from lines the pupil types
at the program's request. The page is a screen (its output stream is a terminal, so the
screen phrases draw in place and «пауза» waits) and its typed input is echoed by the page,
as a terminal echoes it. Messages that name command-line options or Ctrl-C name the page's
own limits and its Stop button instead.
"""
from __future__ import annotations

import contextlib
import io
import json
import sys
import time

from ..cli import main
from ..runtime.messages import reworded

PAGE_MESSAGES = {
    "step-limit": "превышен предел шагов песочницы ({limit}){hot}",
    "time-limit": "превышен предел времени песочницы ({limit} с)",
    "depth-limit": "превышена глубина рекурсии ({limit} вызовов): в песочнице это предел, глубже стек браузера "
                   "не пускает",
    "interrupted": "выполнение прервано кнопкой «Стоп»",
}
"""The runtime's messages as the page says them (keys of runtime/messages.py RUNTIME_MESSAGES)."""

PAGE_HINTS = {
    "step-limit": "похоже, программа не кончается: посмотрите, что должно остановить повторение{where}; "
                  "остановить её раньше можно кнопкой «Стоп»",
    "depth-limit": "похоже, рекурсия не кончается: у определения должен быть случай, в котором оно не вызывает "
                   "себя (ЕСЛИ n = 0 ТО 1 ИНАЧЕ …)",
    "still-running": "если она зациклилась, остановите её кнопкой «Стоп» и посмотрите, что должно остановить "
                     "повторение; если ей просто нужно много времени, подождите: её остановит предел времени "
                     "песочницы ({time} с) или шагов ({steps})",
}
"""The runtime's hints that name command-line options, as the page says them (RUNTIME_HINTS)."""

PAGE_PHRASES = [
    ("pseudo: прервано (Ctrl-C)", "pseudo: прервано кнопкой «Стоп»"),
    ("; увеличьте --max-events", ": больше песочница не записывает"),
    ("(подробности: запустите ещё раз с --debug)",
     "(кнопка «Ссылка» запишет программу в адрес страницы: приложите его к сообщению)"),
]
"""What the command line itself prints about its options, and what the page prints instead."""

FLUSHES = 16  # a stream sends each write at once, up to this many in WINDOW seconds, then gathers
WINDOW = 0.02


class NeedInput(BaseException):
    """The program reads, the page has no line for it yet, and the worker cannot wait for one
    (no shared memory): the run ends here, and the page runs it again, from the start, with
    the lines typed so far once the pupil has typed the next."""


class PageStream(io.TextIOBase):
    """The program's output or messages, sent to the page as they are written. `skip`: the
    first characters were shown by an earlier run of the same program (and the same input)."""

    def __init__(self, page, name: str, skip: int = 0, screen: bool = False):
        self.page, self.name, self.skip, self.screen = page, name, skip, screen
        self.written = 0
        self.pending: list[str] = []
        self.window, self.sent = 0.0, 0
        self.cut = False  # the run waits for input it will get only when run again: nothing more is shown

    def isatty(self) -> bool:
        return self.screen

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.cut or not text:
            return len(text)
        self.written += len(text)
        if self.skip:
            shown = text[self.skip:]
            self.skip = max(0, self.skip - len(text))
            if not shown:
                return len(text)
            text = shown
        if self.name == "err":
            for command_line, page in PAGE_PHRASES:
                text = text.replace(command_line, page)
        self.pending.append(text)
        now = time.monotonic()
        if now - self.window >= WINDOW:
            self.window, self.sent = now, 0
        if self.sent < FLUSHES:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.page.write(self.name, "".join(self.pending))
            self.pending.clear()
            self.sent += 1


class PageInput(io.TextIOBase):
    """Standard input: the input box's text, read as a file (to its end); or, with no text,
    the lines the pupil types — replayed first (`typed`: each ends with "\n", and "" is an end
    of input, Ctrl+D), then asked for."""

    def __init__(self, page, text: str | None, typed, streams, stop_at_read: bool = False):
        self.page, self.streams, self.stop_at_read = page, streams, stop_at_read
        self.file = io.StringIO(text) if text is not None else None
        self.typed = list(typed)

    def isatty(self) -> bool:
        return self.file is None  # the page echoes what is typed, as a terminal does

    def readable(self) -> bool:
        return True

    def readline(self, size=-1) -> str:
        if self.file is not None:
            return self.file.readline(size)
        if self.typed:
            return self.typed.pop(0)
        for stream in self.streams:
            stream.flush()  # the question is on the page before the answer is asked for
        if self.stop_at_read:
            raise KeyboardInterrupt
        kind, text = self.page.read()
        if kind == "line":
            return text
        if kind == "eof":
            return ""
        if kind == "stop":
            raise KeyboardInterrupt
        for stream in self.streams:
            stream.cut = True
        raise NeedInput


def run(argv: list[str], page, stdin: str | None = None, typed=(), skip=(0, 0), stop_at_read=False) -> dict:
    """`pseudo ARGV` as the page shows it: output and messages sent to `page.write(name, text)`
    as written, input from `stdin` (a file's text) or typed lines (`page.read()` gives
    [kind, text]: "line", "eof", "stop", or "later" when the page cannot wait). Gives {code}
    and the characters written to each stream; {input: true} when the run ended to wait for
    a line (NeedInput)."""
    out = PageStream(page, "out", skip[0], screen=True)
    err = PageStream(page, "err", skip[1])
    reader = PageInput(page, stdin, _list(typed), (out, err), stop_at_read)
    result = {"input": False}
    try:
        result["code"] = _main(list(argv), reader, out, err)
    except NeedInput:
        result.update(code=None, input=True)
    finally:
        out.flush()
        err.flush()
    result["written"] = [out.written, err.written]
    return result


def command(argv: list[str], stdin: str = "") -> dict:
    """`pseudo ARGV` with `stdin` as its standard input, its output kept: {code, out, err}
    (the checks while typing, the trace page and the diagram)."""
    out, err = io.StringIO(), io.StringIO()
    code = _main(list(argv), io.StringIO(stdin), out, err)
    text = err.getvalue()
    for command_line, page in PAGE_PHRASES:
        text = text.replace(command_line, page)
    return {"code": code, "out": out.getvalue(), "err": text}


def check_task(data: str, name: str, max_depth: int, page) -> dict:
    """«Проверить»: the program `name` on the visible tests of the task `data` (JSON, a link's),
    as `pseudo test` runs them (site/task.py); `page.tested(json)` after each test."""
    from .task import check
    return check(json.loads(data), name, int(max_depth), lambda found: page.tested(json.dumps(found, ensure_ascii=False)))


def _main(argv: list[str], stdin, out, err) -> int:
    old_in = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), page_messages():
            try:
                return main(argv)
            except SystemExit as e:  # argparse's usage errors
                return e.code if isinstance(e.code, int) else 64
    finally:
        sys.stdin = old_in


def page_messages():
    """The runtime's messages and hints as the page says them, while a command runs."""
    return reworded(PAGE_MESSAGES, PAGE_HINTS)


def _list(values) -> list:
    """A JavaScript array (a proxy) or a Python sequence, as a list of str."""
    return list(values.to_py()) if hasattr(values, "to_py") else list(values)
