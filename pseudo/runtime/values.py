"""Values of the language: how they print, what kind they are, arrays, РЕЗ cells, and the
error a running program raises.

The values are Python's own: int (unbounded), fractions.Fraction (exact), bool, str. A
procedure that never assigns РЕЗУЛЬТАТ gives None, which no expression may use.

The module `fractions` (with `decimal` and `re` behind it) is imported when the first
fraction is made (`дробь`): a program that never divides unevenly does not pay for it at its
start. Until then no value can be a fraction (`is_fraction`).
"""
import sys

from .messages import KIND_WORDS, KINDS, RUNTIME_HINTS, RUNTIME_MESSAGES

# The longest integer (or part of a fraction) an operation may make: about 300,000 digits. At this
# length the slowest single operation Python cannot interrupt (a fraction's gcd, a long division)
# takes under a second in CPython 3.11; at ten times the length it took a minute.
MAX_BITS = 1_000_000
MAX_DIGITS = 301_030  # the decimal digits of the longest integer, 2^MAX_BITS − 1: MAX_BITS × log10(2), rounded up
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
        code = ("line-read" if self.args_.get("line") else "word-read") if self.args_.get("read_into") else \
            "kind-word" if self.code == "unset-var" and self.args_["name"] in KIND_WORDS else self.code
        hint = RUNTIME_HINTS.get(code)
        return hint.format(**self.args_) if hint else None


def fail(code, **args):
    """The Failure to raise: `raise fail("div-zero")`."""
    return Failure(code, args)


WORDS_READ = {}  # a word ПРОЧЕСТЬ read (a string) → the variable or element it was read into
LINES_READ = {}  # a line ПРОЧЕСТЬ СТРОКУ read → the same


def slip_of_reading(a, b=0):
    """The arguments `read` and `read_into` of an error about values of the wrong kind: when
    one of them is a word ПРОЧЕСТЬ read and the other a number (or there is no other: an
    index), the reader typed a word where a number was wanted; the message says so, and its
    hint is ВИД. A line ПРОЧЕСТЬ СТРОКУ read is a string even when it holds digits (`line`):
    the hint is ЧИСЛО."""
    for word, other in ((a, b), (b, a)):
        if type(word) is str and word in WORDS_READ and is_number(other):
            into = WORDS_READ[word]
            return {"read": f": строку «{brief_string(word)}» дало ПРОЧЕСТЬ {into} — там набрано не число",
                    "read_into": into}
        if type(word) is str and word in LINES_READ and is_number(other):
            into = LINES_READ[word]
            return {"read": f": строку «{brief_string(word)}» дало ПРОЧЕСТЬ СТРОКУ {into} — это строка, "
                            "даже если в ней цифры", "read_into": into, "line": True}
    return {"read": "", "read_into": None}


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


class Пусто:
    """What an element of an array kept as a Python list holds until the program assigns it
    (the one object ПУСТО). Every use of it — in an operation, a comparison, a condition, as
    an index, printed — hands over to the exact code (runtime.runner), which reports the read
    of an element never assigned where the program makes it; a copy of it, which no operation
    sees, is checked where it is made (`задано`)."""
    __slots__ = ()

    def _hand_over(self, *_):
        raise Пересмотр

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = __bool__ = __index__ = __int__ = \
        __str__ = __format__ = __neg__ = __pos__ = __abs__ = __iter__ = __len__ = __contains__ = _hand_over
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __floordiv__ = __rfloordiv__ = __mod__ = \
        __rmod__ = __truediv__ = __rtruediv__ = __pow__ = __rpow__ = _hand_over

    def __repr__(self):
        return "ПУСТО"


ПУСТО = Пусто()


GROWN_CELLS = 1 << 20  # the most elements an array of the fast code kept as a growing list holds


def вырастить(строки, i, длины):
    """The row `строки[i]` of an array the fast code keeps as a list of rows that grows (its first
    index never negative, unbounded; the others bounded: `длины`, the rows' lengths), made with
    every row before it, each full of ПУСТО, when the list is shorter. An array that would
    pass GROWN_CELLS elements hands over to the exact code, which keeps any index."""
    width = 1
    for длина in длины:
        width *= длина
    if (i + 1) * width > GROWN_CELLS:
        raise Пересмотр
    size = min(max(i + 1, 2 * len(строки)), GROWN_CELLS // width)  # doubling: a row at a time costs little
    строки.extend(_row(длины) for _ in range(size - len(строки)))
    return строки[i]


def _row(длины):
    return [ПУСТО] * длины[0] if len(длины) == 1 else [_row(длины[1:]) for _ in range(длины[0])]


def задано(значение):
    """An element copied as it is (assigned, passed, given back): it must have a value."""
    if значение is ПУСТО:
        raise Пересмотр
    return значение


def show(value):
    """How СООБЩИТЬ prints a value."""
    kind_of = type(value)
    if kind_of is int:
        return str(value) if value.bit_length() < HUGE_BITS else _huge_digits(value)
    if kind_of is str:
        return value
    if value is True:
        return "ИСТИНА"
    if value is False:
        return "ЛОЖЬ"
    if is_fraction(value):
        return f"{digits(value.numerator)}/{digits(value.denominator)}"
    return str(value)  # ПУСТО refuses: the exact code reports the element it comes from


HUGE_BITS = 1 << 17  # from about 40,000 digits on, str() is slower than `_huge_digits`


def digits(n):
    """An integer in decimal digits."""
    return str(n) if n.bit_length() < HUGE_BITS else _huge_digits(n)


def _huge_digits(n):
    """The digits of a huge integer in time close to linear: str() takes time quadratic in
    their number (2^10,000,000 took minutes). The binary halves are joined in decimal
    arithmetic, whose multiplication is fast for long numbers."""
    import decimal
    context = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    powers = {}

    def power(bits):  # 2 ** bits, exactly
        if bits not in powers:
            powers[bits] = (context.power(decimal.Decimal(2), bits) if bits <= 4096 else
                            context.multiply(power(bits // 2), power(bits - bits // 2)))
        return powers[bits]

    def convert(m, bits):  # 0 <= m < 2 ** bits
        if bits <= 4096:
            return decimal.Decimal(m)
        half = bits // 2
        high = context.multiply(convert(m >> half, bits - half), power(half))
        return context.add(high, convert(m & ((1 << half) - 1), half))
    text = str(convert(abs(n), n.bit_length()))
    return "-" + text if n < 0 else text


BRIEF = 200  # the digits of a number, the characters of a string, a message or a view shows whole
BRIEF_BITS = 664  # an integer of at most so many bits has at most BRIEF digits
BRIEF_ENDS = 20  # of a longer one: the digits (characters) kept at each end
_FIVES = {}  # 5 ** t for the last few t: the first digits of huge integers of about one length


def brief(value):
    """A value as a message or a trace view shows it: as СООБЩИТЬ prints it, but an integer
    (or a part of a fraction) of more than BRIEF digits by its first and last digits and
    their count. The digits in between are never written: for a number near the size limit
    that takes a second, and a view may show thousands."""
    if type(value) is int:
        return _brief_integer(value)
    if is_fraction(value):
        return f"{_brief_integer(value.numerator)}/{_brief_integer(value.denominator)}"
    return show(value)


def brief_string(text):
    """A string quoted in a message: whole, or by its ends and its length."""
    if len(text) <= BRIEF:
        return text
    return f"{text[:BRIEF_ENDS]}…{text[-BRIEF_ENDS:]} ({_counted(len(text), 'символ', 'символа', 'символов')})"


def _brief_integer(n):
    if n.bit_length() <= BRIEF_BITS:
        return str(n)
    m = abs(n)
    count = digit_count(m)
    if count <= BRIEF:
        return str(n)
    cut = count - BRIEF_ENDS
    if cut not in _FIVES:
        if len(_FIVES) >= 8:
            _FIVES.clear()
        _FIVES[cut] = 5 ** cut
    head = (m >> cut) // _FIVES[cut]  # m // 10 ** cut, as floor((m / 2^cut) / 5^cut)
    tail = m % 10 ** BRIEF_ENDS
    sign = "-" if n < 0 else ""
    return f"{sign}{head}…{tail:0{BRIEF_ENDS}d} ({_counted(count, 'цифра', 'цифры', 'цифр')})"


def digit_count(m):
    """The number of decimal digits of a positive integer, without writing them: from its
    logarithm, checked against the power of ten when the logarithm is too near a whole number
    to decide."""
    import math
    log = math.log10(m)
    whole = math.floor(log)
    if log - whole < 1e-6 or whole + 1 - log < 1e-6:
        whole = whole - 1 if m < 10 ** whole else whole + 1 if m >= 10 ** (whole + 1) else whole
    return whole + 1


def _counted(k, one, few, many):
    """«3 010 300 цифр»: the number with the noun in its Russian form."""
    form = one if k % 10 == 1 and k % 100 != 11 else few if 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14 else many
    return f"{k:,} {form}".replace(",", " ")


def kind(value, case="nom"):
    """The kind of a value in words, in a grammatical case: nom, dat (к …) or acc (сравнивать …)."""
    if value is ПУСТО:  # an element never assigned met a check: the exact code reports the read
        raise Пересмотр
    name = type(value).__name__
    return KINDS[case].get(name) or KINDS["nom"].get(name, name)


def described(value):
    """A value in an error message: a number as printed, anything else with its kind."""
    if is_number(value):
        return brief(value)
    return f"{kind(value)} {_quoted(value)}"


def described_acc(value):
    """A value in «нельзя сравнивать …»: its kind in the accusative, then the value."""
    return f"{kind(value, 'acc')} {_quoted(value)}"


def _quoted(value):
    """A value in a message: a string in quotes; a long one, or a huge number, by its ends."""
    return f"«{brief_string(value)}»" if type(value) is str else brief(value)


def show_key(key):
    """An array index as written between the brackets: 3, or 2, 5."""
    return ", ".join(brief(k) for k in key) if type(key) is tuple else brief(key)


def is_number(value):
    return type(value) is int or is_fraction(value)


_Fraction = None  # fractions.Fraction, kept once the module is loaded (by дробь or by anyone)


def is_fraction(value):
    global _Fraction
    if _Fraction is None:
        fractions = sys.modules.get("fractions")
        if fractions is None:  # not loaded: no value can be a fraction
            return False
        _Fraction = fractions.Fraction
    return type(value) is _Fraction


def дробь(a, b=1):
    """The exact fraction a / b (a and b integers or fractions, b not 0)."""
    global _Fraction
    if _Fraction is None:
        from fractions import Fraction
        _Fraction = Fraction
    return _Fraction(a, b)


def norm(value):
    """A fraction that is whole becomes an integer: 6/3 is 2."""
    return value.numerator if is_fraction(value) and value.denominator == 1 else value


class Массив(dict):
    """An array of any dimension: a dict keyed by an integer or a tuple of integers, created
    empty and filled by assignments to its elements."""
    __slots__ = ("name",)

    def __init__(self, name):
        super().__init__()
        self.name = name

    def __missing__(self, key):
        raise fail("unset-elem", name=self.name, index=show_key(key))


def целый_индекс(value):
    """An index the fast code cannot prove an integer: anything else hands over to the exact
    code, which reports it."""
    if type(value) is not int:
        raise Пересмотр
    return value


class Ячейка:
    """A РЕЗ argument: a place (a dict of variables, or an array) and the key in it. Reading a
    place that has no value is the error of the variable or element it names (an element of
    an array of the fast code, `имя` None, hands over to the exact code)."""
    __slots__ = ("имя", "ключ", "место")

    def __init__(self, место, ключ, имя):
        self.место, self.ключ, self.имя = место, ключ, имя

    @property
    def значение(self):
        try:
            value = self.место[self.ключ]
        except KeyError:
            if self.имя is None:
                raise Пересмотр from None
            raise fail("unset-var", name=self.имя) from None
        if value is ПУСТО:
            raise Пересмотр
        return value

    @значение.setter
    def значение(self, новое):
        self.место[self.ключ] = новое

    def или_ничего(self):
        """The value, or None when the place has none (a procedure's РЕЗУЛЬТАТ at its end)."""
        if type(self.место) is list:
            value = self.место[self.ключ]
            return None if value is ПУСТО else value
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
