"""Values of the language: how they print, what kind they are, arrays, РЕЗ cells, and the
error a running program raises.

The values are Python's own: int (unbounded), Fraction (exact), bool, str. A procedure that
never assigns РЕЗУЛЬТАТ gives None, which no expression may use.
"""
import sys
from fractions import Fraction

from .messages import KINDS, RUNTIME_HINTS, RUNTIME_MESSAGES

MAX_POWER_BITS = 10_000_000
MAX_STRING = 100_000_000


class Failure(Exception):
    """A runtime error of the program: a message code and its arguments. Where it happened
    (`place`) and the pseudo call stack (`stack`) are added by whoever runs the program: the
    interpreter from its tree, the compiled program from the Python traceback."""

    def __init__(self, code, args):
        super().__init__(code)
        self.code, self.args_ = code, args
        self.place = None
        self.stack = []

    def text(self):
        return RUNTIME_MESSAGES[self.code].format(**self.args_)

    def hint(self):
        hint = RUNTIME_HINTS.get(self.code)
        return hint.format(**self.args_) if hint else None


def fail(code, **args):
    """The Failure to raise: `raise fail("div-zero")`."""
    return Failure(code, args)


class КонецРаботы(Exception):
    """КОНЕЦ_РАБОТЫ, or the final state Я: the program ends normally."""


def конец_работы():
    raise КонецРаботы


class Пересмотр(Exception):
    """The fast code met what it does not handle — a value read of another kind than it took
    it to be, its step count at the limit, Python's recursion limit —: the program begins
    again with the exact code, rereading its input and not printing again what it printed
    (runner.run_program)."""


class Кончено(Exception):
    """КОНЧЕНО where a Python `break` cannot reach its loop (from a state function)."""


def show(value):
    """How СООБЩИТЬ prints a value."""
    if value is True:
        return "ИСТИНА"
    if value is False:
        return "ЛОЖЬ"
    if type(value) is Fraction:
        return f"{value.numerator}/{value.denominator}"
    return str(value)


def kind(value, case="nom"):
    """The kind of a value in words, in a grammatical case: nom, dat (к …) or acc (сравнивать …)."""
    name = type(value).__name__
    return KINDS[case].get(name) or KINDS["nom"].get(name, name)


def described(value):
    """A value in an error message: a number as printed, anything else with its kind."""
    if is_number(value):
        return show(value)
    text = f"«{value}»" if type(value) is str else show(value)
    return f"{kind(value)} {text}"


def show_key(key):
    """An array index as written between the brackets: 3, or 2, 5."""
    return ", ".join(show(k) for k in key) if type(key) is tuple else show(key)


def is_number(value):
    return type(value) is int or type(value) is Fraction


def norm(value):
    """A fraction that is whole becomes an integer: 6/3 is 2."""
    return value.numerator if type(value) is Fraction and value.denominator == 1 else value


class Массив(dict):
    """An array of any dimension: a dict keyed by an integer or a tuple of integers, created
    empty and filled by assignments to its elements."""
    __slots__ = ("name",)

    def __init__(self, name):
        super().__init__()
        self.name = name

    def __missing__(self, key):
        raise fail("unset-elem", name=self.name, index=show_key(key))


class Ячейка:
    """A РЕЗ argument: a place (a dict of variables, or an array) and the key in it. Reading a
    place that has no value is the error of the variable or element it names."""
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

    def или_ничего(self):
        """The value, or None when the place has none (a procedure's РЕЗУЛЬТАТ at its end)."""
        return self.место.get(self.ключ)


def забыть(переменные, имена):
    """Before the program begins again: the variables the first run left have no value."""
    for имя in имена:
        переменные.pop(имя, None)


def значение(результат, имя):
    """A procedure's value used in an expression: the procedure must have assigned РЕЗУЛЬТАТ."""
    if результат is None:
        raise fail("no-value", name=имя)
    return результат


sys.set_int_max_str_digits(0)  # integers are unbounded, and print whole
