"""queens_automaton_1.pseudo — программа на языке книги Ж. Арсака, переведённая pseudo на Python.

Запуск: python3 queens_automaton_1.py (стандартный ввод — для ПРОЧЕСТЬ).
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


def конец_работы():
    raise КонецРаботы


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


def значение(результат, имя):
    """A procedure's value used in an expression: it must have assigned РЕЗУЛЬТАТ."""
    if результат is None:
        raise fail("no-value", name=имя)
    return результат


class Ячейка:
    """A РЕЗ argument: the place (the program's variables or an array) and the key in it."""
    __slots__ = ("имя", "ключ", "место")

    def __init__(self, место, ключ, имя):
        self.место, self.ключ, self.имя = место, ключ, имя

    @property
    def значение(self):
        try:
            return self.место[self.ключ]
        except KeyError:
            raise fail("unset-var", name=self.имя) from None

    @значение.setter
    def значение(self, новое):
        self.место[self.ключ] = новое


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


СООБЩЕНИЯ = {'depth-limit': 'превышена глубина рекурсии ({limit} вызовов); увеличьте её параметром --max-depth', 'div-zero': 'деление на ноль', 'interrupted': 'выполнение прервано (Ctrl-C)', 'no-value': '{name} не вернула значения (РЕЗУЛЬТАТ не присвоен)', 'screen-cursor': 'строка и столбец курсора — целые числа от 1, а получено {value}', 'screen-pause': 'пауза — неотрицательное число миллисекунд, а получено {value}', 'step-limit': 'превышен предел шагов ({limit}); увеличьте его параметром --max-steps', 'time-limit': 'превышен предел времени ({limit} с); увеличьте его параметром --time-limit', 'unset-elem': 'элемент {name}[{index}] не получил значения', 'unset-var': 'переменная {name} не получила значения'}
KINDS = {'nom': {'int': 'целое число', 'Fraction': 'дробь', 'bool': 'логическое значение', 'str': 'строка', 'PArray': 'массив', 'NoValue': 'отсутствие значения'}, 'dat': {'int': 'целому числу', 'Fraction': 'дроби', 'bool': 'логическому значению', 'str': 'строке'}, 'acc': {'int': 'целое число', 'Fraction': 'дробь', 'bool': 'логическое значение', 'str': 'строку'}}
sys.set_int_max_str_digits(0)


# ---- программа ----

c = Array('c')
д1 = Array('д1')
д2 = Array('д2')
кол = Array('кол')
# Восемь ферзей, итеративное решение: автомат, первая полная версия.
# Ж. Арсак, «Программирование игр и головоломок», глава о восьми ферзях.
# Состояния: ПРОГРАММА (пуск), С (самое общее: k − 1 ферзей стоят), СОК (на строке k
# есть место), СБ (строка k блокирована или исследована), С8 (8 ферзей стоят), Я (конец).
#
# Текст автомата — как напечатан в книге, с её допусками: минус «−» (U+2212) и фраза
# с прописным первым словом «ИСКАТЬ первое свободное поле …»; pseudo принимает их
# с предупреждением.
# Исправлений против печатного текста нет.
#
# Выводит те же 92 решения в том же порядке, что и queens_recursive.pseudo.

def главная():
    global k
    # состояние ПРОГРАММА
    k = 1
    инициализировать_игру()
    шаг()
    # состояние С: цикл
    while True:
        # состояние С
        if k == 9:
            шаг()
            # состояние С8
            выписать_решение()
            найти_место_ферзя(Ячейка(globals(), 'i', 'i'), 8)
            освободить(8, i)  # noqa: F821
            k = 8
            шаг()
            # состояние СБ: цикл
            while True:
                # состояние СБ
                k = k - 1
                if k == 0:
                    конец_работы()
                else:
                    найти_место_ферзя(Ячейка(globals(), 'i', 'i'), k)
                    освободить(k, i)  # noqa: F821
                    искать_первое_свободное_поле_на_строке_расположенное_правее_и_придать_значение_этого_поля_величине(k, i, Ячейка(globals(), 'i', 'i'))  # noqa: F821
                    if нет_таких_полей():
                        шаг()
                        continue
                    else:
                        шаг()
                        # состояние СОК
                        занять(k, i)  # noqa: F821
                        k = k + 1
                        шаг()
                        break
            continue
        else:
            искать_первое_свободное_поле_на_строке_и_придать_значение_этого_поля_величине(k, Ячейка(globals(), 'i', 'i'))
            if нет_таких_полей():
                шаг()
                # состояние СБ: цикл
                while True:
                    # состояние СБ
                    k = k - 1
                    if k == 0:
                        конец_работы()
                    else:
                        найти_место_ферзя(Ячейка(globals(), 'i', 'i'), k)
                        освободить(k, i)  # noqa: F821
                        искать_первое_свободное_поле_на_строке_расположенное_правее_и_придать_значение_этого_поля_величине(k, i, Ячейка(globals(), 'i', 'i'))  # noqa: F821
                        if нет_таких_полей():
                            шаг()
                            continue
                        else:
                            шаг()
                            # состояние СОК
                            занять(k, i)  # noqa: F821
                            k = k + 1
                            шаг()
                            break
                continue
            else:
                шаг()
                # состояние СОК
                занять(k, i)  # noqa: F821
                k = k + 1
                шаг()
                continue
# Доска восьми ферзей и прозаические операции книги, общие для трёх версий автомата
# (queens_automaton_1, _2, _3). Только определения: файл подключают через ИСПОЛЬЗОВАТЬ.
#
# c[k]    — столбец ферзя на строке k;
# кол[i]  — столбец i свободен;
# д1[s]   — свободна диагональ, на которой k + i = s;
# д2[d]   — свободна диагональ, на которой k − i + 9 = d;
# найдено — последний поиск свободного поля был удачен.

def инициализировать_игру():
    шаг()
    for j in range(1, 9):
        шаг()
        кол[j] = True
    for j in range(2, 17):
        шаг()
        д1[j] = True
        д2[j] = True

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
# Поиск: первое свободное поле строки k правее столбца j; его номер — в x.

def искать_первое_свободное_поле_на_строке_после_и_придать_значение_этого_поля_величине(k, j, x):
    global найдено
    шаг()
    x.значение = j + 1
    while x.значение <= 8 and (not место_свободно(k, x.значение)):
        шаг()
        x.значение = x.значение + 1
    найдено = x.значение <= 8
# Те же поиски в словах первой версии программы.

def искать_первое_свободное_поле_на_строке_и_придать_значение_этого_поля_величине(k, x):
    шаг()
    return искать_первое_свободное_поле_на_строке_после_и_придать_значение_этого_поля_величине(k, 0, x)

def искать_первое_свободное_поле_на_строке_расположенное_правее_и_придать_значение_этого_поля_величине(k, j, x):
    шаг()
    return искать_первое_свободное_поле_на_строке_после_и_придать_значение_этого_поля_величине(k, j, x)

def нет_таких_полей():
    шаг()
    return not найдено

def таких_полей_нет():
    шаг()
    return not найдено

def найти_место_ферзя(i, k):
    шаг()
    i.значение = c[k]


# строки этого файла → строки программы queens_automaton_1.pseudo, для сообщений об ошибках
СТРОКИ = {398: 1, 399: 1, 400: 1, 401: 1, 414: 15, 415: 15, 417: 15, 418: 15, 419: 16, 421: 15, 423: 16, 424: 29, 426: 29, 427: 30, 428: 31, 429: 32, 430: 22, 432: 32, 434: 22, 435: 23, 436: 23, 438: 24, 439: 24, 440: 25, 441: 26, 442: 22, 443: 26, 445: 21, 447: 21, 448: 21, 449: 16, 450: 21, 451: 32, 453: 17, 454: 18, 455: 22, 457: 18, 459: 22, 460: 23, 461: 23, 463: 24, 464: 24, 465: 25, 466: 26, 467: 22, 468: 26, 470: 21, 472: 21, 473: 21, 474: 16, 475: 21, 476: 18, 478: 21, 480: 21, 481: 21, 482: 16, 483: 21, 493: 10, 494: 10, 495: 11, 496: 11, 497: 11, 498: 12, 499: 12, 500: 13, 501: 13, 503: 16, 504: 16, 505: 16, 507: 18, 508: 18, 509: 19, 510: 20, 511: 20, 512: 20, 514: 22, 515: 22, 516: 23, 517: 23, 518: 23, 520: 25, 521: 25, 522: 26, 523: 26, 524: 26, 525: 27, 528: 30, 529: 30, 530: 30, 531: 31, 532: 32, 533: 32, 534: 32, 535: 33, 538: 36, 539: 36, 540: 37, 542: 39, 543: 39, 544: 40, 546: 42, 547: 42, 548: 42, 550: 43, 551: 43, 552: 43, 554: 45, 555: 45, 556: 45}

if __name__ == "__main__":
    выполнить(главная, 'queens_automaton_1.pseudo', СТРОКИ)
