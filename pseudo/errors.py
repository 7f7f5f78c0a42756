"""Diagnostics and the error hierarchy; every user-facing error carries a span.

User errors (syntax, static, runtime) are `PseudoError`s; a bug of pseudo itself is an
`InternalError` and is reported as such.
"""
from __future__ import annotations

from dataclasses import dataclass

from .messages import HINTS, RUNTIME_HINTS, message
from .source import Span

EXIT_OK, EXIT_USAGE, EXIT_STATIC, EXIT_UNAVAILABLE, EXIT_RUNTIME, EXIT_INTERRUPTED = 0, 64, 65, 69, 70, 130

SEVERITY_WORDS = {"error": "ошибка", "warning": "предупреждение"}


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    code: str
    text: str
    span: Span | None
    hint: str | None = None

    def render(self) -> str:
        return render(self.severity, self.text, self.span, self.hint)


def diagnostic(severity: str, code: str, span: Span | None, hint: str | None = None, **args) -> Diagnostic:
    return Diagnostic(severity, code, message(code, **args), span, hint)


def render(severity: str, text: str, span: Span | None, hint: str | None = None,
           extra: list[str] | None = None) -> str:
    """file:line:col: severity: text, then the line with a caret under the span, then a hint."""
    word = SEVERITY_WORDS.get(severity, severity)
    if span is None:
        lines = [f"{word}: {text}"]
    else:
        lines = [f"{span.filename}:{span.line}:{span.column}: {word}: {text}"]
        lines += caret_lines(span)
    lines += extra or []
    if hint:
        lines.append(f"  подсказка: {hint}")
    return "\n".join(lines)


WINDOW = 100  # characters of a long line shown around the caret


def caret_lines(span: Span) -> list[str]:
    src = "".join(ch if ch == "\t" or ch.isprintable() else "�" for ch in span.source.line(span.line))
    column = span.column
    end = span.end_column if span.end_line == span.line else len(src) + 1
    if len(src) > WINDOW:  # keep a window around the caret
        start = max(0, min(column - 1 - WINDOW // 2, len(src) - WINDOW))
        src = ("…" if start else "") + src[start:start + WINDOW] + ("…" if start + WINDOW < len(src) else "")
        shift = start - (1 if start else 0)
        column, end = column - shift, min(end - shift, len(src) + 1)
    gutter = f"{span.line:5} | "
    prefix = "".join("\t" if ch == "\t" else " " for ch in src[:column - 1])
    width = max(1, min(end, len(src) + 1) - column)
    return [gutter + src, " " * (len(gutter) - 2) + "| " + prefix + "^" + "~" * (width - 1)]


class PseudoError(Exception):
    """An error in the user's program. Subclasses fix the exit code."""

    exit_code = EXIT_STATIC
    kind = "ошибка"

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__(diagnostics[0].text if diagnostics else "")

    @property
    def first(self) -> Diagnostic:
        return self.diagnostics[0]

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class StaticError(PseudoError):
    """Syntax or static error: the program does not run (exit 65)."""


def static_error(code: str, span: Span | None, hint: str | None = None, **args) -> StaticError:
    return StaticError([diagnostic("error", code, span, hint, **args)])


class PseudoRuntimeError(PseudoError):
    """An error while the program runs (exit 70); carries the pseudo call stack."""

    exit_code = EXIT_RUNTIME

    def __init__(self, code: str, span: Span | None, hint: str | None = None, **args):
        if hint is None and code in RUNTIME_HINTS:  # the same hint whichever mode raised it
            hint = HINTS[code]
        super().__init__([diagnostic("error", code, span, hint, **args)])
        self.code = code
        self.args_ = args
        self.stack: list[str] = []

    def render(self) -> str:
        d = self.first
        extra = (["  стек вызовов (последний вызов внизу; в скобках — текущие значения параметров):"]
                 + [f"    {s}" for s in self.stack]) if self.stack else []
        return render(d.severity, d.text, d.span, d.hint, extra)


class LimitError(PseudoRuntimeError):
    """A runtime limit was reached (steps, time, recursion depth)."""


class Interrupted(PseudoRuntimeError):
    exit_code = EXIT_INTERRUPTED


class InternalError(Exception):
    """A bug in pseudo itself, never the user's fault."""
