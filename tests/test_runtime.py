"""The runtime: values, the operator table and its checked functions, input."""
import ast
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pseudo.runtime.io import read_value
from pseudo.runtime.ops import NEGATION, OPERATORS, прогрессия, степень_целых
from pseudo.runtime.values import HUGE_BITS, MAX_BITS, MAX_DIGITS, Failure, Пересмотр, digits, show


def op(symbol, a, b):
    return OPERATORS[symbol].function(a, b)


def test_show():
    assert [show(v) for v in (True, False, Fraction(7, 2), -3, "с")] == ["ИСТИНА", "ЛОЖЬ", "7/2", "-3", "с"]


def test_exact_division_and_floor_operations():
    assert op("/", 12, 4) == 3 and type(op("/", 12, 4)) is int
    assert op("/", 7, 2) == Fraction(7, 2)
    assert op("ДЕЛ", -7, 2) == -4 and op("ОСТ", -7, 3) == 2
    assert op("+", Fraction(1, 2), Fraction(1, 2)) == 1 and type(op("+", Fraction(1, 2), Fraction(1, 2))) is int


@pytest.mark.parametrize("symbol,a,b,code", [("/", 1, 0, "div-zero"), ("+", "a", 1, "type-concat"), ("-", "a", 1, "type-binary"),
                                              ("*", True, 2, "type-binary"), ("^", 10, 10 ** 9, "too-big"),
                                              ("ОСТ", 5, 0, "div-zero"), ("^", 2, "3", "power-exponent")])
def test_operator_errors(symbol, a, b, code):
    with pytest.raises(Failure) as e:
        op(symbol, a, b)
    assert e.value.code == code


def test_equality_across_kinds_is_false_and_order_refuses_them():
    assert op("<", Fraction(1, 2), 1)
    assert op("=", 1, "1") is False and op("≠", "да", 50) is True
    with pytest.raises(Failure):
        op("<", 1, "1")
    with pytest.raises(Failure):
        op("<", True, False)


SAMPLES = {"int": [-7, 0, 1, 3, 12], "num": [-7, 0, 3, Fraction(1, 2), Fraction(-5, 3)],
           "str": ["", "а", "б", "аб"], "bool": [True, False]}


@pytest.mark.parametrize("symbol", sorted(OPERATORS))
def test_the_python_operator_is_exact_for_the_kinds_the_table_names(symbol):
    """Where the table says Python's own operator is exact, it gives the checked value, or
    fails where the check fails (ZeroDivisionError is the language's «деление на ноль»)."""
    operator = OPERATORS[symbol]
    if operator.python is None:
        assert not operator.exact
        return
    a_, b_ = ast.Name("a", ast.Load()), ast.Name("b", ast.Load())
    python_op = getattr(ast, operator.python)()
    text = ast.unparse(ast.Compare(a_, [python_op], [b_]) if operator.comparison else ast.BinOp(a_, python_op, b_))
    for kind in operator.exact:
        for a in SAMPLES[kind]:
            for b in SAMPLES[kind]:
                try:
                    expected = operator.function(a, b)
                except Failure as f:
                    assert f.code == "div-zero"
                    with pytest.raises(ZeroDivisionError):
                        eval(text, {"a": a, "b": b})
                    continue
                got = eval(text, {"a": a, "b": b})
                assert got == expected and type(got) is type(expected), (symbol, a, b)
    assert NEGATION.function(Fraction(1, 2)) == -Fraction(1, 2)


@pytest.mark.parametrize("symbol", sorted(OPERATORS))
def test_where_the_table_lets_code_that_tests_types_use_python_s_operator_it_never_raises(symbol):
    """Operator.python_types (what the closures ask, testing the operands' types as they run):
    for two operands of one of its types, Python's operator gives the checked value and raises
    nothing — that code turns only the language's failures into reports."""
    operator = OPERATORS[symbol]
    a_, b_ = ast.Name("a", ast.Load()), ast.Name("b", ast.Load())
    for t in operator.python_types([3]):
        python_op = getattr(ast, operator.python)()
        text = ast.unparse(ast.Compare(a_, [python_op], [b_]) if operator.comparison else ast.BinOp(a_, python_op, b_))
        for a in SAMPLES[t.__name__]:
            for b in SAMPLES[t.__name__]:
                got = eval(text, {"a": a, "b": b})
                assert got == operator.function(a, b) and type(got) is type(operator.function(a, b)), (symbol, a, b)


def test_python_s_operator_is_refused_where_the_size_limit_or_a_python_error_needs_the_check():
    product, floor = OPERATORS["*"], OPERATORS["ДЕЛ"]
    assert product.python_for({"int"}, [3]) and product.python_types([3]) == {int}
    assert not product.python_for({"int"}) and not product.python_for({"int"}, [1 << 70]) and not product.python_types()
    assert floor.python_for({"int"}) and not floor.python_types()  # ZeroDivisionError: the compiled code's report
    assert OPERATORS["<"].python_for({"int", "num"}) and not OPERATORS["="].python_for({"int", "str"})
    assert OPERATORS["="].python_types() == {int, str, bool} and NEGATION.python_types() == {int}


@pytest.mark.parametrize("symbol", [s for s in sorted(OPERATORS) if not OPERATORS[s].comparison])
def test_the_kinds_an_operator_gives_are_those_of_its_values(symbol):
    """`gives` (what the kinds analysis reads): for each pair of operand kinds it names, every
    value is of the kind it says ("num": an integer or a fraction; "natural": an integer ≥ 0);
    for a pair it does not name, the operator fails."""
    operator = OPERATORS[symbol]
    kinds = {**SAMPLES, "natural": [b for b in SAMPLES["int"] if b >= 0]}
    of_kind = {"int": lambda v: type(v) is int, "num": lambda v: type(v) is int or type(v) is Fraction,
               "str": lambda v: type(v) is str}
    for left in ("int", "num", "str", "bool"):
        for right in ("int", "num", "str", "bool", "natural"):
            gives, values = operator.gives.get((left, right)), 0
            for a in kinds[left]:
                for b in kinds[right]:
                    try:
                        value = operator.function(a, b)
                    except Failure:
                        continue  # no value (a zero divisor, a fractional exponent of a negative number, …)
                    values += 1
                    if gives is not None:
                        assert of_kind[gives](value), (symbol, a, b, value)
                    elif right != "natural":
                        pytest.fail(f"{symbol}: {a!r}, {b!r} gives {value!r}, of no kind the table names")
            assert values or gives is None, (symbol, left, right)


@pytest.mark.parametrize("a, b", [(2, 0), (2, 999), (-3, 7), (0, 5), (1, 10 ** 9), (-1, 10 ** 9 + 1),
                                  ((1 << 64) - 1, 14_999), (-(1 << 64) + 1, 14_998), (1 << 64, 15_000),
                                  ((1 << 1000) - 1, 1002), (2, MAX_BITS), (2, MAX_BITS + 1), (2, -1), (1, -1)])
def test_a_power_of_integers_is_the_checked_power_or_hands_over(a, b):
    """The fast code's a ^ b (its small cases not measured): the power, where the checked ^
    gives an integer to an exponent not negative; otherwise the exact code takes over."""
    try:
        checked = op("^", a, b)
    except Failure:
        checked = None
    if type(checked) is int and b >= 0:
        assert степень_целых(a, b) == checked
    else:
        with pytest.raises(Пересмотр):
            степень_целых(a, b)


def test_the_progression_of_ДЛЯ():
    assert list(прогрессия(1, 2, 7)) == [1, 3, 5, 7]
    assert list(прогрессия(3, -1, 1)) == [3, 2, 1]
    assert list(прогрессия(0, Fraction(1, 2), 1)) == [0, Fraction(1, 2), 1]
    with pytest.raises(Failure):
        list(прогрессия(1, 0, 3))


def test_read_value():
    assert read_value("42") == 42 and read_value("-3") == -3
    assert read_value("1,5") == Fraction(3, 2) and read_value("2/4") == Fraction(1, 2)
    assert read_value("слово") == "слово" and read_value("1/0") == "1/0" and read_value("1/00") == "1/00"


@pytest.mark.parametrize("a, b", [(2, MAX_BITS - 1), (2, MAX_BITS), (3, 630_929), (3, 630_930), (-3, 630_930),
                                  (Fraction(1, 3), 630_929), (Fraction(1, 3), 630_930), ((1 << 999) + 1, 1001),
                                  ((1 << 500) - 1, 2001), (10, 301_029), (10, 301_030)])
def test_a_power_is_refused_exactly_when_it_passes_the_size_limit(a, b):
    """language.md §12: no power longer than MAX_BITS bits (3 ^ 630,930 has 1,000,001): not
    a bound from below, which let 3 ^ 1,000,000 through. The fast code's power hands over
    exactly there."""
    parts = (a.numerator, a.denominator) if isinstance(a, Fraction) else (a,)
    too_big = any((abs(p) ** b).bit_length() > MAX_BITS for p in parts)
    if too_big:
        with pytest.raises(Failure) as e:
            op("^", a, b)
        assert e.value.code == "too-big"
    else:
        assert op("^", a, b) == a ** b
    if isinstance(a, int):
        if too_big:
            with pytest.raises(Пересмотр):
                степень_целых(a, b)
        else:
            assert степень_целых(a, b) == a ** b


@pytest.mark.parametrize("token", ["9" * MAX_DIGITS, "9" * (MAX_DIGITS - 1), "1" + "0" * (MAX_DIGITS - 1),
                                   "-" + "9" * (MAX_DIGITS + 1), "1/" + "7" * MAX_DIGITS, "0," + "5" * MAX_DIGITS,
                                   "0," + "0" * MAX_DIGITS + "1", "1" * 2_000_000, "0," + "0" * 2_000_000 + "1",
                                   "1," + "0" * 2_000_000, "0," + str(5 ** 400_000).rjust(400_000, "0")])
def test_a_number_read_is_refused_exactly_when_it_passes_the_size_limit(token):
    """ПРОЧЕСТЬ and ЧИСЛО refuse a number longer than MAX_BITS bits, one of more digits than
    the longest integer has before converting it (2,000,000 digits took 15 s)."""
    import time
    value = {"1," + "0" * 2_000_000: Fraction(1), "0," + str(5 ** 400_000).rjust(400_000, "0"): Fraction(1, 2 ** 400_000)}.get(
        token, Fraction(token.replace(",", ".")) if len(token) <= MAX_DIGITS + 3 else None)
    fits = value is not None and max(value.numerator.bit_length(), value.denominator.bit_length()) <= MAX_BITS
    started = time.process_time()
    if fits:
        assert read_value(token) == value
    else:
        with pytest.raises(Failure) as e:
            read_value(token)
        assert e.value.code == "too-big"
    if len(token) > 2 * MAX_DIGITS:
        assert time.process_time() - started < 0.2


def test_the_digits_of_the_longest_integer_are_those_of_its_bits():
    assert len(str((1 << MAX_BITS) - 1)) == MAX_DIGITS


_INTEGER, _DECIMAL, _FRACTION = (re.compile(p) for p in (r"[+-]?\d+", r"[+-]?\d+[.,]\d+", r"[+-]?\d+/\d+"))


def _read_as_documented(token):
    """ПРОЧЕСТЬ as the language reference states it, in regular expressions."""
    if _INTEGER.fullmatch(token):
        return int(token)
    if _DECIMAL.fullmatch(token) or _FRACTION.fullmatch(token) and int(token.rpartition("/")[2]) != 0:
        value = Fraction(token.replace(",", "."))
        return value.numerator if value.denominator == 1 else value
    return token


@settings(max_examples=3000, derandomize=True)
@given(st.text(alphabet="0123456789+-.,/ ١٢a", max_size=9))
def test_read_value_reads_a_token_as_the_reference_says(token):
    expected, got = _read_as_documented(token), read_value(token)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("bits", [HUGE_BITS - 1, HUGE_BITS, 3 * HUGE_BITS + 7])
def test_huge_integers_print_as_str_prints_them(bits):
    value = random.Random(bits).getrandbits(bits) | 1 << (bits - 1)
    assert digits(value) == str(value) and digits(-value) == str(-value)
    assert show(Fraction(value, 3 * value + 1)) == f"{value}/{3 * value + 1}"


_place = st.tuples(st.integers(1, 10_000), st.integers(0, 300), st.integers(1, 10_000), st.integers(0, 300))


@given(st.dictionaries(_place, st.tuples(st.sampled_from(["a.pseudo", "б.pseudo"]), _place), max_size=50))
def test_the_positions_an_emitted_file_keeps_as_text_read_back_the_same(positions):
    """report.encode_positions writes each line as its step from the one before; any table,
    in any order, reads back as it was."""
    from pseudo.runtime.report import decode_positions, encode_positions
    files = ["a.pseudo", "б.pseudo"]
    positions = {key: (f, *place) for key, (f, place) in positions.items()}
    back = decode_positions(encode_positions(positions, files), files)
    assert back == positions and list(back) == list(positions)
