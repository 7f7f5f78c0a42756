"""queens_recursive.pseudo — программа на языке книги Ж. Арсака, переведённая pseudo на Python.

Запуск: python3 queens_recursive.py (стандартный ввод — для ПРОЧЕСТЬ).
"""

import os
import re
import sys
import threading
import time
from fractions import Fraction

# ---- вспомогательные функции pseudo: значения, ввод и вывод, шаги и пределы ----


MAX_PAUSE_MS = 10 ** 9


class Unset:
    """The value of a variable that was never assigned."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset()


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


ПРЕДЕЛ_ШАГОВ = 1_000_000_000


ПРЕДЕЛ_ГЛУБИНЫ = 100_000


ПРЕДЕЛ_ВРЕМЕНИ = 3600.0


СЛЕДИТЬ_КАЖДЫЕ = 1 << 14


шаги = 0


граница = СЛЕДИТЬ_КАЖДЫЕ


срок = float("inf")


прервано = False


СООБЩЕНИЯ = {}


KINDS = {}


class ОшибкаВыполнения(Exception):
    """A runtime error of the program: a message code and its arguments."""

    def __init__(self, code, args):
        super().__init__(code)
        self.code, self.args_ = code, args

    def текст(self):
        return СООБЩЕНИЯ[self.code].format(**self.args_)


def fail(code, span=None, **args):
    return ОшибкаВыполнения(code, args)


class КонецРаботы(Exception):
    """КОНЕЦ_РАБОТЫ or the final state Я."""


def шаг():
    """One step: a loop iteration, a call or a transfer (the same count as the interpreter)."""
    global шаги
    шаги += 1
    if шаги > граница:
        проверить_пределы()


def проверить_пределы():
    global граница
    if прервано:
        raise fail("interrupted")
    if шаги > ПРЕДЕЛ_ШАГОВ:
        raise fail("step-limit", limit=ПРЕДЕЛ_ШАГОВ)
    if time.monotonic() > срок:
        raise fail("time-limit", limit=ПРЕДЕЛ_ВРЕМЕНИ)
    граница = min(шаги + СЛЕДИТЬ_КАЖДЫЕ, ПРЕДЕЛ_ШАГОВ)


ВЫВОД = Output(sys.stdout)


ВВОД = Input(sys.stdin, ВЫВОД)


def сообщить(*значения, перевод_строки=True):
    ВЫВОД.write(list(значения), перевод_строки)


def выполнить(главная, файл, строки):
    """Run the program as `pseudo run` does: limits, a deep stack, errors in Russian.

    `строки` maps the lines of this file to the lines of the .pseudo program."""
    global срок, прервано, граница
    срок = time.monotonic() + ПРЕДЕЛ_ВРЕМЕНИ
    sys.setrecursionlimit(ПРЕДЕЛ_ГЛУБИНЫ + 200)
    threading.stack_size(512 * 1024 * 1024)
    исход = []

    def поток():
        try:
            try:
                roomy_call(главная)
            finally:
                ВЫВОД.finish()
        except КонецРаботы:
            pass
        except BrokenPipeError:  # the reader went away (`| head`): not an error
            sys.stdout = None
        except BaseException as e:  # noqa: BLE001 - reported below, in the main thread
            исход.append(e)

    работа = threading.Thread(target=поток, daemon=True)
    работа.start()
    try:
        while работа.is_alive():
            работа.join(0.1)
    except KeyboardInterrupt:
        прервано = True
        граница = -1
        работа.join(2.0)
        исход.append(KeyboardInterrupt())
    if исход:
        sys.exit(сообщить_об_ошибке(исход[0], файл, строки))


def сообщить_об_ошибке(ошибка, файл, строки):
    """Print the error as file:line: ошибка: text, with the program's line; the exit code."""
    tb, строка = ошибка.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == __file__:
            строка = строки.get(tb.tb_lineno, строка)
        tb = tb.tb_next
    if isinstance(ошибка, KeyboardInterrupt) or getattr(ошибка, "code", None) == "interrupted":
        текст, код = "выполнение прервано (Ctrl-C)", 130
    elif isinstance(ошибка, ОшибкаВыполнения):
        текст, код = ошибка.текст(), 70
    elif isinstance(ошибка, ZeroDivisionError):
        текст, код = "деление на ноль", 70
    elif isinstance(ошибка, RecursionError):
        текст, код = f"превышена глубина рекурсии ({ПРЕДЕЛ_ГЛУБИНЫ} вызовов)", 70
    elif isinstance(ошибка, NameError):
        имя = str(ошибка).split("'")[1] if "'" in str(ошибка) else "?"
        текст, код = f"переменная {имя.rstrip('_')} не получила значения", 70
    else:
        текст, код = f"внутренняя ошибка: {ошибка!r}", 70
    место = f"{файл}:{строка}" if строка else файл
    print(f"{место}: ошибка: {текст}", file=sys.stderr)
    try:
        with open(файл, encoding="utf-8") as исходник:
            print(f"{строка:5} | {исходник.read().splitlines()[строка - 1]}", file=sys.stderr)
    except (OSError, IndexError, TypeError):
        pass
    return код


СООБЩЕНИЯ = {'depth-limit': 'превышена глубина рекурсии ({limit} вызовов); увеличьте её параметром --max-depth', 'div-zero': 'деление на ноль', 'interrupted': 'выполнение прервано (Ctrl-C)', 'screen-cursor': 'строка и столбец курсора — целые числа от 1, а получено {value}', 'screen-pause': 'пауза — неотрицательное число миллисекунд, а получено {value}', 'step-limit': 'превышен предел шагов ({limit}); увеличьте его параметром --max-steps', 'time-limit': 'превышен предел времени ({limit} с); увеличьте его параметром --time-limit', 'unset-elem': 'элемент {name}[{index}] не получил значения', 'unset-var': 'переменная {name} не получила значения'}
KINDS = {'nom': {'int': 'целое число', 'Fraction': 'дробь', 'bool': 'логическое значение', 'str': 'строка', 'PArray': 'массив', 'NoValue': 'отсутствие значения'}, 'dat': {'int': 'целому числу', 'Fraction': 'дроби', 'bool': 'логическому значению', 'str': 'строке'}, 'acc': {'int': 'целое число', 'Fraction': 'дробь', 'bool': 'логическое значение', 'str': 'строку'}}
sys.set_int_max_str_digits(0)


# ---- программа ----

c = Array('c')
д1 = Array('д1')
д2 = Array('д2')
кол = Array('кол')
# Восемь ферзей, рекурсивное решение.
# Ж. Арсак, «Программирование игр и головоломок», глава о восьми ферзях:
# процедура HR (k) напечатана ниже строка в строку, с её строками без отступа
# и с кириллической «к» в HR(к + 1).
#
# Исправления против печатного текста:
# 1. заголовок «HR (k =» — потеряна скобка; здесь «HR (k) =».
#
# Выводит все 92 решения, по одному в строке: столбцы ферзей c[1] … c[8].

def HR(k):
    шаг()
    for i in range(1, 9):
        шаг()
        if место_свободно(k, i):
            занять(k, i)
            if k == 8:
                выписать_решение()
            else:
                HR(k + 1)
            освободить(k, i)
# Прозаические операции книги. Поле (k, i) — строка k, столбец i.
# кол[i]  — столбец i свободен;
# д1[s]   — свободна диагональ, на которой k + i = s;
# д2[d]   — свободна диагональ, на которой k − i + 9 = d.

def место_свободно(k, i):
    шаг()
    return кол[i] and д1[k + i] and д2[k - i + 9]

def занять(k, i):
    шаг()
    c[k] = i
    кол[i] = False
    д1[k + i] = False
    д2[k - i + 9] = False

def освободить(k, i):
    шаг()
    кол[i] = True
    д1[k + i] = True
    д2[k - i + 9] = True

def выписать_решение():
    шаг()
    for j in range(1, 9):
        шаг()
        сообщить(c[j], перевод_строки=False)
    сообщить()

def инициализировать_игру():
    шаг()
    for j in range(1, 9):
        шаг()
        кол[j] = True
    for j in range(2, 17):
        шаг()
        д1[j] = True
        д2[j] = True

def главная():
    # Пуск: ни один ферзь ещё не стоит на доске.
    инициализировать_игру()
    HR(1)


# строки этого файла → строки программы queens_recursive.pseudo, для сообщений об ошибках
СТРОКИ = {368: 1, 369: 1, 370: 1, 371: 1, 382: 11, 383: 11, 384: 12, 385: 12, 386: 13, 387: 14, 388: 15, 389: 15, 391: 16, 392: 18, 398: 27, 399: 27, 400: 27, 402: 29, 403: 29, 404: 30, 405: 31, 406: 31, 407: 31, 409: 33, 410: 33, 411: 34, 412: 34, 413: 34, 415: 36, 416: 36, 417: 37, 418: 37, 419: 37, 420: 38, 422: 40, 423: 40, 424: 41, 425: 41, 426: 41, 427: 42, 428: 42, 429: 43, 430: 43, 432: 47, 434: 47, 435: 48}

if __name__ == "__main__":
    выполнить(главная, 'queens_recursive.pseudo', СТРОКИ)
