"""Input and output: СООБЩИТЬ, ПРОЧЕСТЬ and the screen phrases.

The streams of the run in progress are held here (`start_io`); the program's statements call
the functions at the end of this module.
"""
import os
import time

from .limits import random_state, проверить_пределы
from .values import (
    LINES_READ,
    MAX_BITS,
    MAX_DIGITS,
    WORDS_READ,
    Пересмотр,
    described,
    fail,
    is_fraction,
    is_number,
    norm,
    show,
    дробь,
)

MAX_PAUSE_MS = 10 ** 9
# The characters of standard input a run reads; each line is kept for a run begun again
# (restart_io), so an input without end (`yes |`, /dev/zero) stops here, at a few hundred MB.
MAX_INPUT = 10_000_000


class Output:
    """СООБЩИТЬ: values joined by one space; a trailing comma keeps the line open, and the
    next value printed on it is preceded by one space."""

    def __init__(self, stream, replaying=False):
        self.stream = stream
        self.replaying = replaying  # the run begun again: what was printed is not printed twice
        self.written = 0  # characters written, for a run begun again
        self.open = False
        self.ended_open = False
        self.framed = False  # something was written since the last «очистить экран»
        self.pauses = 0  # «пауза» waited
        isatty = getattr(stream, "isatty", None)
        try:
            self.screen = bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"
        except (OSError, ValueError):  # a closed stream
            self.screen = False

    def emit(self, text):
        self.written += len(text)
        self.stream.write(text)

    def write(self, values, newline):
        text = show(values[0]) if len(values) == 1 else " ".join(map(show, values))  # one value: the common case
        if self.open and values:
            text = " " + text
        if newline:
            text += "\n"
        self.written += len(text)
        self.stream.write(text)
        self.open = not newline and (self.open or bool(values))
        self.framed = True

    # The screen phrases. On a terminal they redraw in place; elsewhere (a file, a pipe, a
    # test) they degrade to plain lines: a frame is separated from the next by an empty line.

    def clear(self):
        """«очистить экран»: an empty screen, the cursor at line 1, column 1."""
        if self.screen:
            self.emit("\x1b[H\x1b[2J")
        else:
            if self.open:
                self.emit("\n")
            if self.framed:
                self.emit("\n")
        self.open = self.framed = False

    def cursor(self, line, column):
        """«курсор в строку l, столбец c»: the next output starts there (1-based)."""
        if self.screen:
            self.emit(f"\x1b[{line};{column}H")
        elif self.open:
            self.emit("\n")
        self.open = False

    def pause(self, ms, check):
        """«пауза n»: n milliseconds on a terminal, calling `check` (limits, Ctrl-C) as it waits;
        no wait elsewhere, so that pipes and tests run at full speed."""
        if not self.screen or self.replaying and self.stream.skip:
            return
        self.stream.flush()
        self.pauses += 1
        end = time.monotonic() + min(ms, MAX_PAUSE_MS) / 1000  # longer waits end at the time limit
        while (left := end - time.monotonic()) > 0:
            time.sleep(min(left, 0.05))
            check()

    def finish(self):
        self.ended_open = self.open  # its line is ended here (after a ^C a terminal shows)
        if self.open:
            self.emit("\n")
            self.open = False
        self.stream.flush()


class Skipping:
    """The stream of a run begun again: the first `skip` characters were printed already."""

    def __init__(self, stream, skip):
        self.stream, self.skip = stream, skip

    def write(self, text):
        if self.skip >= len(text):
            self.skip -= len(text)
            return
        text, self.skip = text[self.skip:], 0
        self.stream.write(text)

    def flush(self):
        self.stream.flush()


def read_value(token):
    """ПРОЧЕСТЬ: a token that reads as a number becomes a number — an integer (`-12`), a
    decimal (`2.5` or `2,5`) or a fraction (`7/2`), of any Unicode decimal digits —; any other
    token, a string."""
    sign = token[:1] if token[:1] in ("+", "-") else ""
    digits = token[len(sign):]
    if digits.isdecimal():
        _check_digits(len(digits), digits)
        return _sized(int(token), len(digits))
    for mark in ".,/":
        whole, found, part = digits.partition(mark)
        if found and whole.isdecimal() and part.isdecimal():
            count = len(whole) + len(part)
            if mark == "/":
                _check_digits(count, whole, part)
                return _sized(norm(дробь(int(sign + whole), int(part))), count) if int(part) else token
            # (whole·10^k + part) / 10^k, its trailing zeros dropped first (1,5000 is 1,5): reduced, the
            # denominator keeps at least 2^k or 5^k, so past MAX_BITS digits after the point it is too long
            part = part.rstrip("0")
            _check_digits(count, whole + part)
            if len(part) > MAX_BITS:
                raise _number_too_big(count)
            scale = 10 ** len(part)
            return _sized(norm(дробь(int(sign + whole) * scale + int(sign + (part or "0")), scale)), count)
    return token


def _check_digits(count, *written):
    """A number read from text meets the size limit too — and one whose integers, as written
    (`written`), have more digits than the longest integer (MAX_DIGITS) is refused before it is
    converted, which takes time quadratic in its digits (CPython 3.11: a third of a second for
    300,000). `count`: its digits, for the message."""
    if any(len(w.lstrip("0")) > MAX_DIGITS for w in written):
        raise _number_too_big(count)


def _sized(value, count):
    """The number read, if none of its integers is longer than MAX_BITS (as many digits as
    the longest integer may still be more)."""
    parts = (value.numerator, value.denominator) if is_fraction(value) else (value,)
    if any(p.bit_length() > MAX_BITS for p in parts):
        raise _number_too_big(count)
    return value


def _number_too_big(count):
    return fail("too-big", detail=f"число из {count:,} цифр".replace(",", " "))


class Input:
    """ПРОЧЕСТЬ: whitespace-separated tokens of standard input; ПРОЧЕСТЬ СТРОКУ: a line.

    A prompt left open (`СООБЩИТЬ 'Ваш ход:',`) is flushed before reading. On a terminal the
    user's Enter ends that line; when the input is not a terminal nothing is echoed, so the
    line is ended here — the output reads the same either way. Every line read from the
    stream is kept, so that a run begun again reads them again (`restart_io`)."""

    def __init__(self, stream, output):
        self.stream = stream
        self.output = output
        self.waiting = False  # blocked in the stream's readline: no step comes until a line does
        self.line = ""  # the current line, without its line break
        self.pending = []  # its tokens not read yet, the next one last
        self.used = 0  # its tokens read
        self.lines = []  # every line read from the stream so far
        self.count = 0  # values read (tokens and lines)
        self.read = 0  # characters read from the stream: kept, so bounded (MAX_INPUT)
        self.reads = {}  # reads of each variable or element, by the text that names it
        isatty = getattr(stream, "isatty", None)
        try:
            self.echoes = bool(isatty and isatty())
        except (OSError, ValueError):
            self.echoes = False
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:  # a byte that is not UTF-8 reaches readline, which tells its line and column
            reconfigure(errors="surrogateescape")

    def readline(self):
        """The next line of the stream without its line break, or None at the end of input.
        What is read is kept for a run begun again: an input without end (`yes |`, a line of
        /dev/zero) stops at MAX_INPUT characters, not when memory runs out."""
        self.waiting = True
        try:
            line = self.stream.readline(MAX_INPUT - self.read + 1)
        finally:
            self.waiting = False
        if not line:
            return None
        self.read += len(line)
        if self.read > MAX_INPUT:
            raise fail("input-too-long", length=f"{MAX_INPUT:,}".replace(",", " "))
        if not self.lines and line.startswith("\ufeff"):  # the byte-order mark Notepad saves first
            line = line[1:]
        self.lines.append(line)
        if not line.isascii():
            self.check_encoding(line)
        if line.endswith("\n"):
            line = line[:-2] if line.endswith("\r\n") else line[:-1]
        self.line, self.pending, self.used = line, line.split()[::-1], 0
        return line

    def check_encoding(self, line):
        """A byte that is not UTF-8 (kept by surrogateescape) fails where a person finds it."""
        try:
            line.encode("utf-8")
        except UnicodeEncodeError as e:
            raise fail("bad-input", where=f" (строка {len(self.lines)}, столбец {e.start + 1})") from None

    def fill(self):
        """Read lines until a token is pending; False at the end of input."""
        while not self.pending:
            if self.readline() is None:
                return False
        return True

    def next(self, whole_line=False):
        """The next value from standard input — a token, or with `whole_line` a line as a
        string —, or None at the end of input."""
        if self.output.open:
            self.output.stream.flush()
        if whole_line:
            value = self.rest_of_line()
        else:
            value = self.next_token()
        if value is None:
            return None
        if self.output.open and not self.echoes:
            self.output.emit("\n")
        self.output.open = False
        self.count += 1
        return value

    def next_token(self):
        if not self.fill():
            return None
        self.used += 1
        return read_value(self.pending.pop())

    def rest_of_line(self):
        """ПРОЧЕСТЬ СТРОКУ: the rest of the current line if a token is left on it (after the
        blanks that end the tokens read), otherwise the next line, as typed."""
        if self.pending:
            rest = self.line if not self.used else self.line.split(None, self.used)[-1]
        else:
            rest = self.readline()
        self.pending = []
        return rest

    def position(self):
        """Where the input stands: lines read, tokens left on the current one."""
        return len(self.lines), len(self.pending)


class Replay:
    """The input of a run begun again: the lines the first run read, then the stream."""

    def __init__(self, lines, stream):
        self.lines, self.stream = lines[::-1], stream

    def readline(self, size=-1):
        return self.lines.pop() if self.lines else self.stream.readline(size)


ВЫВОД = ВВОД = None  # the run's streams: set by start_io


def start_io(stdin, stdout):
    """The streams of a new run."""
    global ВЫВОД, ВВОД
    WORDS_READ.clear()
    LINES_READ.clear()
    ВЫВОД = Output(stdout)
    ВВОД = Input(stdin, ВЫВОД)
    return ВЫВОД, ВВОД


def waiting_for_input():
    """Is the run blocked reading its input (where Ctrl-C need not wait for its next step)?"""
    return ВВОД is not None and ВВОД.waiting


def surroundings():
    """What a state of the run holds besides the program's variables: where the input stands,
    what was printed, where the random numbers stand."""
    return ВВОД.position(), ВЫВОД.written, ВЫВОД.open, random_state()


def ended_on_open_line():
    """Did the run's output end on a line it left open (ended then by finish_io)?"""
    return ВЫВОД is not None and ВЫВОД.ended_open


def finish_io():
    ВЫВОД.finish()


def restart_io():
    """The streams for the run begun again: the input read so far is read again, the output
    printed so far is not printed again."""
    global ВЫВОД, ВВОД
    old_out, old_in = ВЫВОД, ВВОД
    ВЫВОД = Output(Skipping(old_out.stream, old_out.written), replaying=True)
    ВЫВОД.screen = old_out.screen
    ВВОД = Input(Replay(old_in.lines, old_in.stream), ВЫВОД)
    ВВОД.echoes = old_in.echoes


def прочесть_целое(имя):
    """ПРОЧЕСТЬ of a value the code takes to be an integer."""
    значение = прочесть(имя)
    if type(значение) is not int:
        raise Пересмотр
    return значение


def прочесть_строку(имя):
    """ПРОЧЕСТЬ of a value the code takes to be a string."""
    значение = прочесть(имя)
    if type(значение) is not str:
        raise Пересмотр
    return значение


# ---- what the program's statements call ----

def сообщить(*значения, перевод_строки=True):
    """СООБЩИТЬ a, b, c (перевод_строки=False: with a trailing comma)."""
    ВЫВОД.write(значения, перевод_строки)


def прочесть(имя):
    """One value of ПРОЧЕСТЬ for the variable or element `имя`."""
    return _read(имя, False)


def прочесть_строку_целиком(имя):
    """ПРОЧЕСТЬ СТРОКУ: one line of input, as typed, for the variable or element `имя`."""
    return _read(имя, True)


def _read(имя, whole_line):
    reads = ВВОД.reads[имя] = ВВОД.reads.get(имя, 0) + 1
    значение = ВВОД.next(whole_line)
    if значение is None:
        held = ВВОД.count
        raise fail("read-eof", name=имя, what="ПРОЧЕСТЬ СТРОКУ" if whole_line else "ПРОЧЕСТЬ",
                   value="строки" if whole_line else "значения", nth=reads,
                   held=_all_read(held) if held else "ввод был пуст")
    if type(значение) is str:
        (LINES_READ if whole_line else WORDS_READ)[значение] = имя
    return значение


def _all_read(held):
    """«это 4-е чтение x, а во вводе было всего 4 значения» reads as a contradiction: the other
    reads took values too."""
    if held == 1:
        return "во вводе было всего одно значение, и оно уже прочитано"
    return f"во вводе было всего {plural(held, 'значение', 'значения', 'значений')}, и все они уже прочитаны"


def plural(count, one, few, many):
    """`4 значения`: a count with its noun in the form Russian wants after it."""
    if count % 10 == 1 and count % 100 != 11:
        word = one
    elif count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        word = few
    else:
        word = many
    return f"{count} {word}"


def ввод_кончился():
    """«ввод кончился»: standard input holds no more tokens."""
    return not ВВОД.fill()


def очистить_экран():
    ВЫВОД.clear()


def курсор(строка, столбец):
    ВЫВОД.cursor(строка, столбец)


def место_курсора(значение):
    """A line or column of «курсор в строку …, столбец …»: an integer from 1."""
    if type(значение) is not int or значение < 1:
        raise fail("screen-cursor", value=described(значение))
    return значение


def пауза(миллисекунды):
    ВЫВОД.pause(миллисекунды, проверить_пределы)


def длительность(значение):
    """The argument of «пауза …»: a number of milliseconds, not negative."""
    if not is_number(значение) or значение < 0:
        raise fail("screen-pause", value=described(значение))
    return значение
