from fractions import Fraction

import pytest

from pseudo.errors import PseudoRuntimeError
from pseudo.runtime import arith, compare, for_range, read_value, show


def test_show():
    assert [show(v) for v in (True, False, Fraction(7, 2), -3, "с")] == ["ИСТИНА", "ЛОЖЬ", "7/2", "-3", "с"]


def test_exact_division_and_floor_operations():
    assert arith("/", 12, 4, None) == 3 and type(arith("/", 12, 4, None)) is int
    assert arith("/", 7, 2, None) == Fraction(7, 2)
    assert arith("ДЕЛ", -7, 2, None) == -4 and arith("ОСТ", -7, 3, None) == 2
    assert arith("+", Fraction(1, 2), Fraction(1, 2), None) == 1


@pytest.mark.parametrize("op,a,b,code", [("/", 1, 0, "div-zero"), ("+", "a", 1, "type-binary"),
                                          ("*", True, 2, "type-binary"), ("^", 10, 10 ** 9, "too-big")])
def test_arith_errors(op, a, b, code):
    with pytest.raises(PseudoRuntimeError) as e:
        arith(op, a, b, None)
    assert e.value.code == code


def test_compare_refuses_mixed_kinds():
    assert compare("<", Fraction(1, 2), 1, None)
    with pytest.raises(PseudoRuntimeError):
        compare("=", 1, "1", None)
    with pytest.raises(PseudoRuntimeError):
        compare("<", True, False, None)


def test_for_range_is_an_arithmetic_progression():
    assert list(for_range(1, 2, 7, None)) == [1, 3, 5, 7]
    assert list(for_range(3, -1, 1, None)) == [3, 2, 1]
    assert list(for_range(0, Fraction(1, 2), 1, None)) == [0, Fraction(1, 2), 1]
    with pytest.raises(PseudoRuntimeError):
        list(for_range(1, 0, 3, None))


def test_read_value():
    assert read_value("42") == 42 and read_value("-3") == -3
    assert read_value("1,5") == Fraction(3, 2) and read_value("2/4") == Fraction(1, 2)
    assert read_value("слово") == "слово" and read_value("1/0") == "1/0"
