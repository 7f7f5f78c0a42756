"""The operators: one table, one checked function each.

Each checked function gives the language's value or raises its error for any operands. The
table also says which Python operator computes the same thing, and for which operand kinds:
where the code generator can prove (or guard) those kinds it writes the Python operator,
elsewhere a call of the checked function (Operator.python_for): the code generator from the
kinds the analysis proves; in its mode for the closures the views run on (pygen/tested.py),
from the types the code tests as it runs (Operator.python_types). The reference interpreter always calls the
checked function.
"""
import math

from .values import (
    MAX_BITS,
    MAX_STRING,
    ПУСТО,
    Пересмотр,
    brief,
    described,
    described_acc,
    fail,
    is_fraction,
    is_number,
    kind,
    norm,
    slip_of_reading,
    дробь,
)

# The size limit (MAX_BITS) is met by every operation whose result can grow past its operands: a
# power; a product of two numbers longer than SMALL_FACTOR bits (a product by a shorter one grows
# a few bits a step, as a sum grows by one, and the steps bound it); a sum, difference, product or
# quotient of fractions, whose parts are products of its operands' parts. The check is made before
# the work, from the operands' lengths: a result too large is refused at once, not after minutes.
SMALL_FACTOR = 64
# A power of a base of at most 64 bits to an exponent under 15,000 is never too large: the first case
# of степень_целых (its lowest base named too: a negated name would be computed at every call).
SMALL_POWER_BASE, SMALL_POWER_EXPONENT = 1 << 64, 15_000
SMALL_POWER_LOWEST = -SMALL_POWER_BASE


def _binary_error(op, a, b):
    return fail("type-binary", op=op, left=kind(a, "dat"), right=kind(b, "dat"), **slip_of_reading(a, b))


def _too_big(a, b, sign):
    return fail("too-big", detail=f"{brief(a)} {sign} {brief(b)}")


def _product_too_big(p, q):
    """Would a product of integers of p and q bits, both longer than SMALL_FACTOR, surely pass
    MAX_BITS (it has at least p + q − 1)?"""
    return p > SMALL_FACTOR and q > SMALL_FACTOR and p + q - 1 > MAX_BITS


def _parts_too_big(*pairs):
    """Does any of the products (x, y) of a fraction's parts pass the limit?"""
    return any(_product_too_big(x.bit_length(), y.bit_length()) for x, y in pairs)


def _fraction_sum_too_big(a, b):
    """a ± b = (na·db ± nb·da) / (da·db)."""
    return (is_fraction(a) or is_fraction(b)) and _parts_too_big(
        (a.numerator, b.denominator), (b.numerator, a.denominator), (a.denominator, b.denominator))


def сложить(a, b):
    """a + b: numbers, or strings joined."""
    if type(a) is int and type(b) is int:
        return a + b
    if type(a) is str and type(b) is str:
        if len(a) + len(b) > MAX_STRING:
            raise fail("too-long", length=len(a) + len(b))
        return a + b
    if is_number(a) and is_number(b):
        if _fraction_sum_too_big(a, b):
            raise _too_big(a, b, "+")
        return norm(a + b)
    if type(a) is str and is_number(b) or is_number(a) and type(b) is str:  # 'n = ' + n
        slip = slip_of_reading(a, b)
        raise fail("type-binary" if slip["read_into"] else "type-concat", op="+", left=kind(a, "dat"),
                   right=kind(b, "dat"), **slip)
    raise _binary_error("+", a, b)


def вычесть(a, b):
    if type(a) is int and type(b) is int:
        return a - b
    if is_number(a) and is_number(b):
        if _fraction_sum_too_big(a, b):
            raise _too_big(a, b, "-")
        return norm(a - b)
    raise _binary_error("-", a, b)


def умножить(a, b):
    if type(a) is int and type(b) is int:
        if _product_too_big(a.bit_length(), b.bit_length()):
            raise _too_big(a, b, "*")
        return a * b
    if is_number(a) and is_number(b):
        if _parts_too_big((a.numerator, b.numerator), (a.denominator, b.denominator)):
            raise _too_big(a, b, "*")
        return norm(a * b)
    raise _binary_error("*", a, b)


def разделить(a, b):
    """a / b, exact: an integer when b divides a, a fraction otherwise."""
    if not (is_number(a) and is_number(b)):
        raise _binary_error("/", a, b)
    if b == 0:
        raise fail("div-zero")
    if type(a) is int and type(b) is int:
        if a % b == 0:
            return a // b
    elif _parts_too_big((a.numerator, b.denominator), (a.denominator, b.numerator)):
        raise _too_big(a, b, "/")
    return norm(дробь(a, b))


def дел(a, b):
    """a ДЕЛ b: the floor of the quotient."""
    if not (is_number(a) and is_number(b)):
        raise _binary_error("ДЕЛ", a, b)
    if b == 0:
        raise fail("div-zero")
    return norm(a // b)


def ост(a, b):
    """a ОСТ b: the remainder of ДЕЛ, with the sign of b."""
    if not (is_number(a) and is_number(b)):
        raise _binary_error("ОСТ", a, b)
    if b == 0:
        raise fail("div-zero")
    return norm(a % b)


def степень(a, b):
    """a ^ b: an integer exponent; a result too large to hold is an error, not a hang."""
    if not is_number(a):
        raise _binary_error("^", a, b)
    if type(b) is not int:
        raise fail("power-exponent", kind=kind(b))
    if b < 0:
        if a == 0:
            raise fail("div-zero")
        return norm(дробь(1, степень(a, -b)))
    parts = (a.numerator, a.denominator) if is_fraction(a) else (a,)
    if any(_power_too_big(p, b) for p in parts):  # of a fraction, its denominator too: (1/2)^b is 1/2^b
        base = f"({brief(a)})" if is_fraction(a) or a < 0 else brief(a)
        raise fail("too-big", detail=f"{base}^{brief(b)}")
    return norm(a ** b)


def степень_целых(a, b):
    """a ^ b where the fast code takes both to be integers, and the power too: a negative
    exponent (a fraction) or a power too large to hold hands over to the exact code. A base of
    at most 64 bits to an exponent under 15,000 — the book's 2 ^ k — is never too large
    ((64 − 1) · 15,000 < MAX_BITS) and is not measured."""
    if 0 <= b < SMALL_POWER_EXPONENT and SMALL_POWER_LOWEST < a < SMALL_POWER_BASE:
        return a ** b
    if b < 0 or _power_too_big(a, b):
        raise Пересмотр
    return a ** b


def _power_too_big(a, b):
    """Would the integer a to the exponent b ≥ 0 have more than MAX_BITS bits? Exactly so, and
    before the power is made: |a|^b has ⌊b·log2|a|⌋ + 1 bits, which only a power within a bit
    of the limit needs computing to tell."""
    a = abs(a)
    bits = a.bit_length()
    if bits <= 1 or b == 0 or bits * b <= MAX_BITS:  # 0, 1, or at most bits·b bits
        return False
    if (bits - 1) * b >= MAX_BITS:  # at least (bits − 1)·b + 1 bits
        return True
    estimate = b * math.log2(a)  # within a millionth of a bit here
    if abs(estimate - MAX_BITS) > 1:
        return estimate > MAX_BITS
    return (a ** b).bit_length() > MAX_BITS  # at most MAX_BITS + 2 bits: quick to make


def минус(a):
    """−a."""
    if is_number(a):
        return -a
    raise fail("type-unary", op="-", kind=kind(a, "dat"))


def _comparable(a, b):
    return is_number(a) and is_number(b) or type(a) is str and type(b) is str


def _compare_error(a, b):
    return fail("type-compare", left=described_acc(a), right=described_acc(b), **slip_of_reading(a, b))


def равно(a, b):
    """a = b: values of different kinds are simply unequal (a number typed where «да» was
    expected); integers and fractions compare as numbers."""
    if _comparable(a, b) or type(a) is bool and type(b) is bool:
        return a == b
    if a is ПУСТО or b is ПУСТО:  # an element never assigned is no value: the exact code reports it
        raise Пересмотр
    return False


def не_равно(a, b):
    return not равно(a, b)


def меньше(a, b):
    if _comparable(a, b):
        return a < b
    raise _compare_error(a, b)


def не_больше(a, b):
    if _comparable(a, b):
        return a <= b
    raise _compare_error(a, b)


def больше(a, b):
    if _comparable(a, b):
        return a > b
    raise _compare_error(a, b)


def не_меньше(a, b):
    if _comparable(a, b):
        return a >= b
    raise _compare_error(a, b)


def условие(value):
    """The value of a condition of ЕСЛИ, ПОКА or a conditional expression: ИСТИНА or ЛОЖЬ."""
    if value is True or value is False:
        return value
    raise fail("type-cond", kind=kind(value))


def логическое(value, op):
    """An operand of И, ИЛИ or НЕ: ИСТИНА or ЛОЖЬ."""
    if value is True or value is False:
        return value
    raise fail("type-logic", op=op, kind=kind(value))


def индекс(key, array):
    """An array index: an integer, or a tuple of integers (ИСТИНА is not 1)."""
    if type(key) is int:
        return key
    for k in key if type(key) is tuple else (key,):
        if type(k) is not int:
            if is_fraction(k):
                raise fail("fraction-index", name=array.name, value=described(k), top=k.numerator,
                           bottom=k.denominator, whole=k.numerator // k.denominator)
            raise fail("bad-index", name=array.name, value=described(k), **slip_of_reading(k))
    return key


def прогрессия(start, step, stop):
    """The values of ДЛЯ: an arithmetic progression, its bounds evaluated once. Its first case
    for a step of 1 the closures the views run on write out (a call less at each loop entered,
    1 % of a search's instructions); the reference interpreter calls this, and
    tests/test_closures.py holds the two to each other."""
    if type(start) is int and type(stop) is int and type(step) is int and step != 0:
        return range(start, stop + 1, step) if step > 0 else range(start, stop - 1, step)
    for v in (start, step, stop):
        if not is_number(v):
            raise fail("type-for", value=described(v), **slip_of_reading(v))
    if step == 0:  # the hint's step: the one that goes from the start towards the stop
        raise fail("for-zero-step", start=brief(start), stop=brief(stop), meant=1 if start <= stop else -1)
    return _fractions(start, step, stop)


def _fractions(v, step, stop):
    while (v <= stop) if step > 0 else (v >= stop):
        yield norm(v)
        v = v + step


KIND_TYPES = {"int": int, "str": str, "bool": bool}  # the kinds that are one Python type each ("num" is two)


class Operator:
    """One operator of the language. `python` (an `ast` operator class name) computes the same
    value and raises the same error as `function` when every operand is of a kind in `exact`:
    "int"; "num" (an integer or a fraction); "str"; "bool" — and, for an operator with
    `small_factor`, only where an operand is an integer constant of at most SMALL_FACTOR bits
    (a product the size limit never refuses). `python_error`: where `function` fails, `python`
    raises a Python exception (ZeroDivisionError), which report.py makes the language's error.
    `gives`: the kind of the result for each pair of operand kinds that has a value (the others
    fail); "natural" is an integer constant ≥ 0."""
    __slots__ = ("comparison", "exact", "function", "gives", "python", "python_error", "small_factor", "symbol")

    def __init__(self, symbol, function, python, exact, comparison=False, small_factor=False, gives=None,
                 python_error=False):
        self.symbol, self.function, self.python = symbol, function, python
        self.exact, self.comparison, self.small_factor = exact, comparison, small_factor
        self.gives, self.python_error = gives or {}, python_error

    def __repr__(self):
        return f"Operator({self.symbol!r})"

    def python_for(self, kinds, constants=()) -> bool:
        """Does `python` give this operator's value and error for operands of `kinds` (a set
        of the kinds above; integers and fractions mixed as numbers)? `constants`: the values
        of the operands known as the code is written (an integer constant short enough makes
        a product one the size limit never refuses)."""
        if self.python is None:
            return False
        if self.small_factor and not any(type(c) is int and c.bit_length() <= SMALL_FACTOR for c in constants):
            return False
        if kinds <= {"int", "num"} and "num" in self.exact:
            return True
        return len(kinds) == 1 and next(iter(kinds)) in self.exact

    def python_types(self, constants=()) -> frozenset:
        """For code that tests the types of the values it meets, and whose errors are only
        Failures (not `python_error`'s, which report.py translates for the compiled code): the
        Python types for which `python` may be used on two operands of that same type (a
        fraction, of no type of its own among the kinds, takes the checked function)."""
        if self.python_error:
            return frozenset()
        return frozenset(t for kind, t in KIND_TYPES.items() if self.python_for({kind}, constants))


def _op(symbol, function, python=None, exact=(), comparison=False, small_factor=False, gives=None,
        python_error=False):
    return Operator(symbol, function, python, frozenset(exact), comparison, small_factor, gives, python_error)


def _arithmetic(integers="int", **more):
    """The kinds an arithmetic operator gives: `integers` of two integers, a number of any other
    two numbers; `more` (kind pairs written "left_right") besides."""
    gives = {(a, b): "num" for a in ("int", "num") for b in ("int", "num")}
    gives["int", "int"] = integers
    return {**gives, **{tuple(pair.split("_")): kind for pair, kind in more.items()}}


ORDERED = ("int", "num", "str")
OPERATORS = {op.symbol: op for op in (
    # strings join through the check: their length is bounded
    _op("+", сложить, "Add", ["int"], gives=_arithmetic(str_str="str")),
    _op("-", вычесть, "Sub", ["int"], gives=_arithmetic()),
    # a product of two long numbers is checked
    _op("*", умножить, "Mult", ["int"], small_factor=True, gives=_arithmetic()),
    _op("/", разделить, gives=_arithmetic("num")),  # exact: never Python's float division
    # ZeroDivisionError is the language's «деление на ноль» (report.py)
    _op("ДЕЛ", дел, "FloorDiv", ["int"], gives=_arithmetic(), python_error=True),
    _op("ОСТ", ост, "Mod", ["int"], gives=_arithmetic(), python_error=True),
    # bounded: the check refuses a result too large to hold; a negative exponent makes a fraction
    _op("^", степень, gives=_arithmetic("num", int_natural="int")),
    _op("=", равно, "Eq", ORDERED + ("bool",), comparison=True),
    _op("≠", не_равно, "NotEq", ORDERED + ("bool",), comparison=True),
    _op("<", меньше, "Lt", ORDERED, comparison=True),
    _op("≤", не_больше, "LtE", ORDERED, comparison=True),
    _op(">", больше, "Gt", ORDERED, comparison=True),
    _op("≥", не_меньше, "GtE", ORDERED, comparison=True),
)}
NEGATION = _op("-", минус, "USub", ["int", "num"])
