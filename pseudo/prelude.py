"""Support code of the emitted Python: steps and limits, output and input, РЕЗ cells, the
runner. Like runtime.py, every top-level definition here is copied into an emitted module
when the program needs it (transpile.py computes which), so it must stay standalone.
Names are Russian where the emitted program calls them, so that it reads like the book.
"""
# ruff: noqa: F821 - the names below come from runtime.py in the emitted module
import sys
import threading
import time

ПРЕДЕЛ_ШАГОВ = 1_000_000_000
ПРЕДЕЛ_ГЛУБИНЫ = 100_000
ПРЕДЕЛ_ВРЕМЕНИ = 3600.0
СЛЕДИТЬ_КАЖДЫЕ = 1 << 14
шаги = 0
граница = СЛЕДИТЬ_КАЖДЫЕ
срок = float("inf")
прервано = False
СООБЩЕНИЯ = {}  # filled by the transpiler with the messages the program may need
KINDS = {}  # likewise: kinds of values, in Russian, by grammatical case


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


class Кончено(Exception):
    """КОНЧЕНО from inside a nested loop: leaves the endless loop around it."""


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


def прочесть(имя):
    значение = ВВОД.next()
    if значение is UNSET:
        raise fail("read-eof", name=имя)
    return значение


def очистить_экран():
    ВЫВОД.clear()


def курсор(строка, столбец):
    ВЫВОД.cursor(строка, столбец)


def пауза(миллисекунды):
    ВЫВОД.pause(миллисекунды, проверить_пределы)


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
