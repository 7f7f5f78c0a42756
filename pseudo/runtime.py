"""Values, operations, input and output, and the limits every run obeys.

Shared by the interpreter and by the Python that the transpiler emits: the transpiler copies
the definitions a program needs from this file into the emitted module (see transpile.py), so
everything below the imports stays standalone — stdlib only, errors raised through `fail`.
"""
from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass
from fractions import Fraction

from .errors import Interrupted, LimitError, PseudoRuntimeError
from .messages import KINDS


def fail(code: str, span=None, **args) -> PseudoRuntimeError:
    """The error to raise; the emitted Python defines its own `fail` (not copied)."""
    return PseudoRuntimeError(code, span, **args)


MAX_POWER_BITS = 10_000_000
MAX_PAUSE_MS = 10 ** 9
MAX_STRING = 100_000_000


class Unset:
    """The value of a variable that was never assigned."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


class NoValue:
    """What a procedure returns when it never assigns РЕЗУЛЬТАТ."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOVALUE"


UNSET = Unset()
NOVALUE = NoValue()


class PArray(dict):
    """An array of any dimension: a dict keyed by an integer or a tuple of integers."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        super().__init__()
        self.name = name


class Array(PArray):
    """An array of the compiled program: reading a missing element is the runtime error."""
    __slots__ = ()

    def __missing__(self, key):
        raise fail("unset-elem", name=self.name, index=show_key(key))


def store(array, key, value) -> None:
    """array[key] := value when the index is not known to be an integer."""
    array[check_index(key, array)] = value


def kind(value, case: str = "nom") -> str:
    """The kind of a value in words, in a grammatical case: nom, dat (к …) or acc (сравнивать …)."""
    name = type(value).__name__
    return KINDS[case].get(name) or KINDS["nom"].get(name, name)


def show(value) -> str:
    """How СООБЩИТЬ prints a value."""
    if value is True:
        return "ИСТИНА"
    if value is False:
        return "ЛОЖЬ"
    if type(value) is Fraction:
        return f"{value.numerator}/{value.denominator}"
    return str(value)


def described(value) -> str:
    """A value in an error message: a number as printed, anything else with its kind."""
    if _number(value):
        return show(value)
    text = f"«{value}»" if type(value) is str else show(value)
    return f"{kind(value)} {text}"


def show_key(key) -> str:
    return ", ".join(show(k) for k in key) if type(key) is tuple else show(key)


def _number(v) -> bool:
    return type(v) is int or type(v) is Fraction


def _norm(v):
    return v.numerator if type(v) is Fraction and v.denominator == 1 else v


def arith(op: str, a, b, span=None):
    """+ - * / ДЕЛ ОСТ ^ on any values (callers that know both are integers inline + - *)."""
    if type(a) is int and type(b) is int and (op == "+" or op == "-" or op == "*"):
        return a + b if op == "+" else a - b if op == "-" else a * b
    if op == "+" and type(a) is str and type(b) is str:
        if len(a) + len(b) > MAX_STRING:
            raise fail("too-long", span, length=len(a) + len(b))
        return a + b
    if not (_number(a) and _number(b)):
        raise fail("type-binary", span, op=op, left=kind(a, "dat"), right=kind(b, "dat"))
    if op == "+":
        return _norm(a + b)
    if op == "-":
        return _norm(a - b)
    if op == "*":
        return _norm(a * b)
    if op == "^":
        return power(a, b, span)
    if b == 0:
        raise fail("div-zero", span)
    if op == "/":
        if type(a) is int and type(b) is int and a % b == 0:
            return a // b
        return _norm(Fraction(a) / b)
    if op == "ДЕЛ":
        return _norm(a // b)
    return _norm(a % b)  # ОСТ


def power(a, b, span=None):
    if not _number(a):
        raise fail("type-binary", span, op="^", left=kind(a, "dat"), right=kind(b, "dat"))
    if type(b) is not int:
        raise fail("power-exponent", span, kind=kind(b))
    if b < 0:
        if a == 0:
            raise fail("div-zero", span)
        return _norm(Fraction(1) / power(a, -b, span))
    size = abs(a.numerator if type(a) is Fraction else a).bit_length()
    if size > 1 and (size - 1) * b > MAX_POWER_BITS:
        raise fail("too-big", span, detail=f"{show(a)}^{b}")
    return _norm(a ** b)


def negate(a, span=None):
    if _number(a):
        return -a
    raise fail("type-unary", span, op="-", kind=kind(a, "dat"))


_COMPARE = {
    "=": lambda a, b: a == b, "≠": lambda a, b: a != b,
    "<": lambda a, b: a < b, "≤": lambda a, b: a <= b,
    ">": lambda a, b: a > b, "≥": lambda a, b: a >= b,
}


def compare(op: str, a, b, span=None) -> bool:
    if _number(a) and _number(b) or type(a) is str and type(b) is str:
        return _COMPARE[op](a, b)
    if type(a) is bool and type(b) is bool and op in ("=", "≠"):
        return _COMPARE[op](a, b)
    raise fail("type-compare", span, left=kind(a, "acc"), right=kind(b, "acc"))


def truth(value, span=None, op: str | None = None) -> bool:
    """A condition's value, which must be ИСТИНА or ЛОЖЬ."""
    if value is True or value is False:
        return value
    if op:
        raise fail("type-logic", span, op=op, kind=kind(value))
    raise fail("type-cond", span, kind=kind(value))


def check_index(key, array, span=None):
    if type(key) is int:
        return key
    for k in key if type(key) is tuple else (key,):
        if type(k) is not int:
            raise fail("bad-index", span, name=array.name, kind=kind(k))
    return key


def for_range(start, step, stop, span=None):
    """The values of ДЛЯ: an arithmetic progression, bounds evaluated once."""
    if type(start) is int and type(stop) is int and step == 1 and type(step) is int:
        return range(start, stop + 1)  # the common case, first
    for v in (start, step, stop):
        if not _number(v):
            raise fail("type-for", span, kind=kind(v))
    if step == 0:
        raise fail("for-zero-step", span)
    if type(start) is int and type(step) is int and type(stop) is int:
        return range(start, stop + 1, step) if step > 0 else range(start, stop - 1, step)
    return _progression(start, step, stop)


def _progression(v, step, stop):
    while (v <= stop) if step > 0 else (v >= stop):
        yield _norm(v)
        v = v + step


# ---- input and output ----

class Output:
    """СООБЩИТЬ: values joined by one space; a trailing comma keeps the line open, and the
    next value printed on it is preceded by one space."""

    def __init__(self, stream):
        self.stream = stream
        self.open = False
        self.framed = False  # something was written since the last «очистить экран»
        isatty = getattr(stream, "isatty", None)
        self.screen = bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"

    def write(self, values: list, newline: bool) -> None:
        text = " ".join(map(show, values))
        if self.open and values:
            text = " " + text
        self.stream.write(text + "\n" if newline else text)
        self.open = not newline and (self.open or bool(values))
        self.framed = True

    # The screen phrases. On a terminal they redraw in place; elsewhere (a file, a pipe, a
    # test) they degrade to plain lines: a frame is separated from the next by an empty line.

    def clear(self) -> None:
        """«очистить экран»: an empty screen, the cursor at line 1, column 1."""
        if self.screen:
            self.stream.write("\x1b[H\x1b[2J")
        else:
            if self.open:
                self.stream.write("\n")
            if self.framed:
                self.stream.write("\n")
        self.open = self.framed = False

    def cursor(self, line, column, spans=(None, None)) -> None:
        """«курсор в строку l, столбец c»: the next output starts there (1-based). An error
        names the argument (`arg`), placed at its span when the caller knows it."""
        for arg, value in enumerate((line, column)):
            if type(value) is not int or value < 1:
                raise fail("screen-cursor", spans[arg], value=described(value), arg=arg)
        if self.screen:
            self.stream.write(f"\x1b[{line};{column}H")
        elif self.open:
            self.stream.write("\n")
        self.open = False

    def pause(self, ms, check, span=None) -> None:
        """«пауза n»: n milliseconds on a terminal, calling `check` (limits, Ctrl-C) as it waits;
        no wait elsewhere, so that pipes and tests run at full speed."""
        if not _number(ms) or ms < 0:
            raise fail("screen-pause", span, value=described(ms), arg=0)
        if not self.screen:
            return
        self.stream.flush()
        end = time.monotonic() + min(ms, MAX_PAUSE_MS) / 1000  # longer waits end at the time limit
        while (left := end - time.monotonic()) > 0:
            time.sleep(min(left, 0.05))
            check()

    def finish(self) -> None:
        if self.open:
            self.stream.write("\n")
            self.open = False
        self.stream.flush()


_INT = re.compile(r"[+-]?\d+")
_DEC = re.compile(r"[+-]?\d+[.,]\d+")
_FRAC = re.compile(r"[+-]?\d+/\d+")


def read_value(token: str):
    """ПРОЧЕСТЬ: a token that reads as a number becomes a number."""
    if _INT.fullmatch(token):
        return int(token)
    if _DEC.fullmatch(token) or _FRAC.fullmatch(token) and not token.endswith("/0"):
        return _norm(Fraction(token.replace(",", ".")))
    return token


class Input:
    """ПРОЧЕСТЬ: whitespace-separated tokens of standard input.

    A prompt left open (`СООБЩИТЬ 'Ваш ход:',`) is flushed before reading. On a terminal the
    user's Enter ends that line; when the input is not a terminal nothing is echoed, so the
    line is ended here — the output reads the same either way."""

    def __init__(self, stream, output: Output):
        self.stream = stream
        self.output = output
        self.pending: list[str] = []
        isatty = getattr(stream, "isatty", None)
        self.echoes = bool(isatty and isatty())

    def next(self):
        """The next value from standard input, or UNSET at the end of input."""
        if self.output.open:
            self.output.stream.flush()
        while not self.pending:
            line = self.stream.readline()
            if not line:
                return UNSET
            self.pending = line.split()[::-1]
        if self.output.open and not self.echoes:
            self.output.stream.write("\n")
        self.output.open = False
        return read_value(self.pending.pop())


# ---- the frame stack ----

ROOMY_SLOTS = 1 << 17


def roomy_call(fn):
    """fn(), called from a frame that reserves about 1 MB of CPython's frame stack.

    CPython keeps Python frames in 16 KB chunks and frees a chunk as soon as the frame at its
    start returns, so a search whose depth swings across a chunk boundary maps and unmaps
    memory on every call there (100 times slower calls, measured on 3.11 to 3.13). A frame
    with a large value stack gets a chunk of its own with room to spare, and the program's
    frames live in that room."""
    def roomy(f):
        return f()
    try:
        roomy.__code__ = roomy.__code__.replace(co_stacksize=ROOMY_SLOTS)
    except (AttributeError, TypeError, ValueError):  # not CPython: nothing to work around
        pass
    return roomy(fn)


# ---- limits ----

@dataclass
class Limits:
    max_steps: int = 1_000_000_000
    max_depth: int = 100_000
    time_limit: float = 3600.0


class Machine:
    """Counts steps (loop iterations, calls, transfers) and enforces the limits.

    Callers do `m.steps += 1; if m.steps > m.check_at: m.checkpoint(span)`: one comparison
    per step covers the step limit, the time limit and Ctrl-C.
    """

    CHECK_EVERY = 1 << 14

    def __init__(self, limits: Limits):
        self.limits = limits
        self.steps = 0
        self.check_at = min(self.CHECK_EVERY, limits.max_steps)
        self.deadline = time.monotonic() + limits.time_limit
        self.interrupted = False
        self.stack: list[tuple] = []  # (definition, call span, frame) per active call
        self.where = None  # span of the last checkpoint

    def checkpoint(self, span) -> None:
        self.where = span
        if self.interrupted:
            raise Interrupted("interrupted", span)
        if self.steps > self.limits.max_steps:
            raise LimitError("step-limit", span, limit=self.limits.max_steps)
        if time.monotonic() > self.deadline:
            raise LimitError("time-limit", span, limit=self.limits.time_limit)
        self.check_at = min(self.steps + self.CHECK_EVERY, self.limits.max_steps)

    def interrupt(self) -> None:
        self.interrupted = True
        self.check_at = -1

    def depth_exceeded(self, span):
        return LimitError("depth-limit", span, limit=self.limits.max_depth)


sys.set_int_max_str_digits(0)
