"""What the playground's worker calls inside Pyodide: the command line itself, with the
program and its input in the browser's memory, so that output, messages and exit codes are
exactly those of `pseudo` in a terminal."""
from __future__ import annotations

import contextlib
import io
import sys

from ..cli import main
from ..tools.highlight import to_html

FOLDER = "/work"  # the examples (and their lib/) are unpacked here; the edited program is written here too


def command(argv: list[str], stdin: str = "") -> dict:
    """`pseudo ARGV` with `stdin` as its standard input: {code, out, err}."""
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse's usage errors
                code = e.code if isinstance(e.code, int) else 64
    finally:
        sys.stdin = old_in
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}


def highlight(text: str) -> str:
    """The program as HTML coloured by the same token rules as the Pygments lexer."""
    return to_html(text)


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()
