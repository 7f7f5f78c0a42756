"""The IPython extension: `%load_ext pseudo`, then a cell that begins with `%%pseudo` is a program.

    %%pseudo [ПАРАМЕТРЫ] [ИМЯ]     the rest of the cell is the program (ИМЯ names it in messages,
                                   and ИСПОЛЬЗОВАТЬ is relative to it; by default ячейка.pseudo)
    %pseudo [ПАРАМЕТРЫ] ФАЙЛ       run a file (so does a %%pseudo cell with nothing under it)
    %pseudo --example ИМЯ          run one of the book's programs shipped with pseudo (pseudo/examples.py)

The options are those of `pseudo run` (--compiled, --interpret, --stats, --max-steps, --max-depth,
--time-limit, -q, and whatever else the command has, --seed included), or with --trace those of
`pseudo trace`: the trace page is shown in the notebook, in a frame, or a text view with
--explain, --margin or --format. They are read by the command line's own parser, and the
command's own code runs: a cell shows what the command shows. Only the program's text comes
from the cell, and standard input from its comments `{ ввод: … }`, a line each (as in
tests/golden), or from --input ТЕКСТ. The output appears as it is printed; warnings and errors,
with the caret under their place, go to the cell's error stream. Nothing raises: the notebook
goes on with the next cell.

`run_magic` does the work with explicit streams and display function, so it runs without IPython.
"""
from __future__ import annotations

import argparse
import html
import io
import re
import sys
import tempfile
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from .errors import EXIT_OK, EXIT_RUNTIME, EXIT_USAGE
from .runtime.messages import reworded

CELL_NAME = "ячейка.pseudo"
INPUT = re.compile(r"\{\s*ввод:[ ]?(.*?)\s*\}", re.DOTALL)  # the golden files' `{ ввод: … }`
PAGE_HEIGHT = 640  # pixels of the trace page's frame

NOTEBOOK_HINTS = {
    "read-eof": "каждое чтение берёт из ввода новое значение: в ячейке ввод — комментарии {{ ввод: … }}, по строке "
                "на комментарий (или --input ТЕКСТ в строке %%pseudo); дайте программе столько значений, сколько "
                "она читает, или читайте, пока НЕ ввод кончился",
    "still-running": "если она зациклилась, остановите её кнопкой ■ блокнота (прервать ядро; в режиме команд — "
                     "I, I) и посмотрите, что должно остановить повторение; если ей просто нужно много времени, "
                     "подождите: её остановит предел времени ({time} с, --time-limit) или шагов ({steps}, "
                     "--max-steps)",
}
"""The runtime's hints that name the terminal's ways (input from a file or the keyboard, Ctrl-C),
as a notebook's cell says them (keys of runtime/messages.py RUNTIME_HINTS)."""

MAGIC_HELP = """\
Ячейка %%pseudo — программа на языке книги; %pseudo ФАЙЛ выполняет файл. Параметры — как у
pseudo run (с --trace — как у pseudo trace). Ввод для ПРОЧЕСТЬ — комментарии { ввод: … } в ячейке,
по строке на комментарий, или --input ТЕКСТ."""


def load_ipython_extension(ipython) -> None:
    """`%load_ext pseudo`: register the %pseudo line magic and the %%pseudo cell magic."""
    ipython.register_magic_function(pseudo_magic, magic_kind="line_cell", magic_name="pseudo")


def pseudo_magic(line: str, cell: str | None = None) -> None:
    """%pseudo and %%pseudo (see the module's docstring)."""
    run_magic(line, cell, stdout=sys.stdout, stderr=sys.stderr, show_html=_display_html)


def _display_html(markup: str) -> None:
    from IPython.display import HTML, display
    display(HTML(markup))


def run_magic(line: str, cell: str | None, stdout, stderr, show_html=None) -> int:
    """Run the magic's program; what a user sees goes to stdout, stderr and show_html (a
    function given the HTML of the trace page's frame). Returns the command line's exit code.

    The command line's own code runs (`pseudo run` or `pseudo trace`, with the options parsed by
    its parser), so a cell shows exactly what the command shows; only the program's text comes
    from the cell and standard input from its `{ ввод: … }` comments."""
    from . import cli
    try:
        args = _parse(line, stdout, stderr)
    except SystemExit as e:  # --help, or a wrong option: the parser has said why
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    text = cell if cell is not None and cell.strip() else None
    if args.example:
        if text is not None or args.file:
            print("%pseudo: ошибка: --example — уже программа: ячейка под ним пуста, и файл не называют", file=stderr)
            return EXIT_USAGE
        found = _example(args.example, stderr)
        if found is None:
            return EXIT_USAGE
        args.file = found
    if text is not None:
        args.file = args.file or CELL_NAME
    elif not args.file:
        print("pseudo: ошибка: пустая ячейка: напишите программу под строкой %%pseudo или назовите файл: "
              "%pseudo ФАЙЛ", file=stderr)
        return EXIT_USAGE
    stdin = io.StringIO(args.input if args.input is not None else _cell_input(text or ""))
    args.command = "trace" if args.trace else "run"
    folder = page = None
    if args.trace and not (args.margin or args.explain or args.format != "text"):
        args.html = True  # the page, in a frame of the notebook
        if not args.output:
            folder = tempfile.TemporaryDirectory()
            args.output = str(Path(folder.name) / "trace.html")
        page = args.output
    messages = io.StringIO() if folder is not None else stderr  # less the line naming the temporary page
    try:
        with _streams(stdin, stdout, messages), _program_text(args.file, text), reworded(hints=NOTEBOOK_HINTS):
            code = cli.run_command(args, interrupted="прервано")
        if folder is not None:
            said = f"pseudo: страница трассировки записана в {page}\n"
            stderr.write(messages.getvalue().replace(said, ""))
        if page is not None and code in (EXIT_OK, EXIT_RUNTIME) and Path(page).is_file():
            frame = page_frame(Path(page).read_text(encoding="utf-8"), Path(args.file).name)
            if show_html is not None:
                show_html(frame)
    finally:
        if folder is not None:
            folder.cleanup()
    return code


@contextmanager
def _streams(stdin, stdout, stderr):
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            yield
    finally:
        sys.stdin = saved


@contextmanager
def _program_text(name: str, text: str | None):
    """While the command runs, the program named `name` is the cell's text (the files it uses
    are still read from disk, relative to the notebook's folder)."""
    if text is None:
        yield
        return
    from .api import given_texts
    with given_texts({name: text}):
        yield


# ---- options: the command line's own parser ----

def parser(trace: bool) -> argparse.ArgumentParser:
    """The parser of `pseudo run` (or `pseudo trace`) from the command line, with the program
    file made optional and the magic's own --trace and --input."""
    from .commands.arguments import build_parser
    cell = "имя программы ячейки в сообщениях (по умолчанию ячейка.pseudo) или файл, если ячейка пуста"
    p = build_parser(cell).commands["trace" if trace else "run"]
    p.prog = "%%pseudo --trace" if trace else "%%pseudo"
    p.description = MAGIC_HELP
    magic = p.add_argument_group("ячейка")
    magic.add_argument("--trace", action="store_true",
                       help="показать работу программы по шагам: страницу трассировки (параметры — как у pseudo "
                            "trace; --explain, --margin, --format — текстом)")
    magic.add_argument("--example", metavar="ИМЯ",
                       help="программа книги из тех, что ставятся вместе с pseudo: nim, queens_recursive, … "
                            "(их копирует в папку pseudo examples ПАПКА)")
    magic.add_argument("--input", metavar="ТЕКСТ",
                       help="стандартный ввод программы (без этого параметра — строки комментариев "
                            "«{ ввод: … }» в ячейке)")
    return p


def _parse(line: str, stdout, stderr) -> argparse.Namespace:
    import shlex
    try:
        words = shlex.split(line)
    except ValueError as e:
        print(f"%%pseudo: ошибка: {e}", file=stderr)
        raise SystemExit(EXIT_USAGE) from None
    with redirect_stdout(stdout), redirect_stderr(stderr):  # help and usage errors where the user looks
        return parser("--trace" in words).parse_args(words)


def _example(name: str, stderr) -> str | None:
    """The file of a book program shipped with pseudo (`nim` or `nim.pseudo`), or None, said why."""
    from .examples import files, folder
    where = folder()
    names = sorted(n[:-len(".pseudo")] for n in files() if n.endswith(".pseudo") and "/" not in n)
    stem = name.removesuffix(".pseudo")
    if stem not in names:
        print(f"%pseudo: ошибка: программы книги «{name}» нет; есть: {', '.join(names)}", file=stderr)
        return None
    if where is None:
        print("%pseudo: ошибка: программы книги внутри архива: скопируйте их в папку (pseudo examples ПАПКА) "
              "и назовите файл", file=stderr)
        return None
    return str(where / f"{stem}.pseudo")


def _cell_input(text: str) -> str:
    """The lines of `{ ввод: … }` comments, in order."""
    return "".join(m.group(1) + "\n" for m in INPUT.finditer(text))


def page_frame(page: str, title: str, height: int = PAGE_HEIGHT) -> str:
    """The trace page inside a frame of the notebook: a whole document in `srcdoc`, so it needs no
    file or server, and its script and style stay apart from the notebook's."""
    return (f'<div class="pseudo-trace"><iframe title="Трассировка: {html.escape(title)}" '
            f'style="width: 100%; height: {height}px; border: 1px solid #ccc" '
            f'srcdoc="{html.escape(page, quote=True)}"></iframe></div>')


__all__ = ["load_ipython_extension", "page_frame", "parser", "pseudo_magic", "run_magic"]
