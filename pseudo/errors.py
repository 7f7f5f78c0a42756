"""Diagnostics and the error hierarchy; every user-facing error carries a span.

User errors (syntax, static, runtime) are `PseudoError`s; a bug of pseudo itself is any other
exception, reported as an internal error. Every message is drawn by the runtime's `render`,
so a runtime error reads the same from the interpreter, the compiled program and an emitted
file.
"""
from __future__ import annotations

from .messages import message
from .runtime.report import Place, stack_lines
from .runtime.report import render as render_place

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at every start
if TYPE_CHECKING:
    from .frontend.source import Span

EXIT_OK, EXIT_USAGE, EXIT_STATIC, EXIT_UNAVAILABLE, EXIT_RUNTIME, EXIT_INTERRUPTED = 0, 64, 65, 69, 70, 130


class Diagnostic:
    """One message about the program: its severity ("error" or "warning"), a stable code,
    the text, the span it is about (None: the whole program) and a hint."""
    __slots__ = ("code", "hint", "severity", "span", "text")

    def __init__(self, severity: str, code: str, text: str, span: Span | None, hint: str | None = None):
        self.severity, self.code, self.text, self.span, self.hint = severity, code, text, span, hint

    def _fields(self) -> tuple:
        return (self.severity, self.code, self.text, self.span, self.hint)

    def __eq__(self, other) -> bool:
        return type(other) is Diagnostic and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Diagnostic(severity={!r}, code={!r}, text={!r}, span={!r}, hint={!r})".format(*self._fields())

    def render(self) -> str:
        return render(self.severity, self.text, self.span, self.hint)


def diagnostic(severity: str, code: str, span: Span | None, hint: str | None = None, **args) -> Diagnostic:
    return Diagnostic(severity, code, message(code, **args), span, hint)


def place_of(span: Span | None) -> Place | None:
    if span is None:
        return None
    return Place(span.filename, span.line, span.column, span.end_line, span.end_column)


def render(severity: str, text: str, span: Span | None, hint: str | None = None, extra=()) -> str:
    """file:line:col: severity: text, the line with a caret under the span, the hint."""
    line = span.source.line(span.line) if span is not None else None
    return render_place(severity, text, place_of(span), line, hint, extra)


class PseudoError(Exception):
    """An error in the user's program. Subclasses fix the exit code."""

    exit_code = EXIT_STATIC

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
    """An error while the program runs (exit 70, 130 for Ctrl-C): the runtime's message, its
    place in the program and the pseudo call stack (outermost first)."""

    exit_code = EXIT_RUNTIME

    def __init__(self, code: str, span: Span | None, hint: str | None, text: str, stack: list[str]):
        super().__init__([Diagnostic("error", code, text, span, hint)])
        self.code = code
        self.stack = stack
        if code == "interrupted":
            self.exit_code = EXIT_INTERRUPTED

    def render(self) -> str:
        d = self.first
        return render(d.severity, d.text, d.span, d.hint, stack_lines(self.stack))
