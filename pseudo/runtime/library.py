"""The built-in functions (DIALECT.md, «Built-in functions»): called like the program's own,
with Russian names; a definition, variable or array of the program with the same name hides
one. Each checks its arguments and fails in the language's words.
"""
from .io import read_value, ввод_кончился
from .limits import generator
from .values import brief, brief_string, described, digits, fail, is_fraction, is_number, kind, show, дробь

# name → (the Python function, the least and the greatest number of arguments; None: any)
BUILTINS = {}


def builtin(name, least, most):
    def register(function):
        BUILTINS[name] = (function, least, most)
        return function
    return register


INPUT_ENDED = "ввод кончился"  # the condition the book writes as prose, a built-in without arguments
builtin(INPUT_ENDED, 0, 0)(ввод_кончился)


def _argument(name, value, wanted, check):
    if not check(value):
        raise fail("builtin-kind", name=name, wanted=wanted, value=described(value))
    return value


def _string(name, value):
    return _argument(name, value, "строку", lambda v: type(v) is str)


def _integer(name, value):
    return _argument(name, value, "целое число", lambda v: type(v) is int)


def _number(name, value):
    return _argument(name, value, "число", is_number)


# ---- random numbers (their seed is the run's: limits.start_random) ----

@builtin("СЛУЧАЙНОЕ", 1, 1)
def СЛУЧАЙНОЕ(n):
    """A random integer from 1 to n."""
    if type(n) is not int or n < 1:
        raise fail("builtin-range", name="СЛУЧАЙНОЕ", detail=f"нужно целое число от 1, а получено {described(n)}")
    return generator().randint(1, n)


# ---- strings ----

@builtin("ДЛИНА", 1, 1)
def ДЛИНА(s):
    return len(_string("ДЛИНА", s))


@builtin("СИМВОЛ", 2, 2)
def СИМВОЛ(s, i):
    """The i-th character of s, counting from 1."""
    s, i = _string("СИМВОЛ", s), _integer("СИМВОЛ", i)
    if not 1 <= i <= len(s):
        raise fail("builtin-range", name="СИМВОЛ", detail=f"в строке «{brief_string(s)}» нет символа номер {brief(i)}")
    return s[i - 1]


@builtin("ПОДСТРОКА", 3, 3)
def ПОДСТРОКА(s, i, n):
    """n characters of s from the i-th on."""
    s, i, n = _string("ПОДСТРОКА", s), _integer("ПОДСТРОКА", i), _integer("ПОДСТРОКА", n)
    if n < 0 or not 1 <= i <= len(s) + 1 or i + n - 1 > len(s):
        raise fail("builtin-range", name="ПОДСТРОКА",
                   detail=f"в строке «{brief_string(s)}» ({len(s)} символов) нет {brief(n)} символов с номера {brief(i)}")
    return s[i - 1:i - 1 + n]


@builtin("СТРОКА", 1, 1)
def СТРОКА(x):
    """The text that СООБЩИТЬ x would print."""
    return show(x)


@builtin("ЧИСЛО", 1, 1)
def ЧИСЛО(s):
    """The number s reads as, the way ПРОЧЕСТЬ reads a token."""
    if is_number(s):
        return s
    s = _string("ЧИСЛО", s)
    value = read_value(s.strip()) if s.strip() else s
    if not is_number(value):
        raise fail("builtin-range", name="ЧИСЛО", detail=f"строка «{brief_string(s)}» — не число")
    return value


# ---- kinds ----

@builtin("ВИД", 1, 1)
def ВИД(x):
    """The kind of a value in words: so a program can check what was typed."""
    if x is True or x is False:
        return "логическое"
    if type(x) is int:
        return "целое"
    if type(x) is str:
        return "строка"
    if is_fraction(x):
        return "дробь"
    raise fail("builtin-kind", name="ВИД", wanted="значение", value=described(x))  # pragma: no cover - no other value reaches it


# ---- numbers ----

@builtin("АБС", 1, 1)
def АБС(x):
    return abs(_number("АБС", x))


@builtin("ЦЕЛ", 1, 1)
def ЦЕЛ(x):
    """The largest integer not above x."""
    x = _number("ЦЕЛ", x)
    return x if type(x) is int else x.numerator // x.denominator


def _extreme(name, values, pick):
    if all(is_number(v) for v in values) or all(type(v) is str for v in values):
        return pick(values)
    first = next(v for v in values if is_number(v) != is_number(values[0]) or type(v) is not type(values[0]))
    raise fail("builtin-mixed", name=name, left=kind(values[0], "acc"), right=kind(first, "acc"))


@builtin("МИН", 1, None)
def МИН(*values):
    return _extreme("МИН", values, min)


@builtin("МАКС", 1, None)
def МАКС(*values):
    return _extreme("МАКС", values, max)


@builtin("ДЕСЯТИЧНОЕ", 2, 2)
def ДЕСЯТИЧНОЕ(x, k):
    """x written with k digits after the decimal point, rounded half away from zero."""
    x, k = дробь(_number("ДЕСЯТИЧНОЕ", x)), _integer("ДЕСЯТИЧНОЕ", k)
    if not 0 <= k <= 1000:
        raise fail("builtin-range", name="ДЕСЯТИЧНОЕ", detail=f"знаков после точки — от 0 до 1000, а не {brief(k)}")
    scaled = abs(x) * 10 ** k
    units = scaled.numerator // scaled.denominator
    if scaled - units >= дробь(1, 2):
        units += 1
    sign = "-" if x < 0 and units else ""
    written = digits(units).rjust(k + 1, "0")
    return sign + (written[:-k] + "." + written[-k:] if k else written)

