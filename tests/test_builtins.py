"""The built-in functions against Python's own operations, and СЛУЧАЙНОЕ the same in every
mode for a seed."""
from __future__ import annotations

import io
import subprocess
import sys
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pseudo
from pseudo.errors import PseudoRuntimeError
from pseudo.frontend.source import Source
from pseudo.pygen.emit import python_source
from pseudo.runtime import Limits
from pseudo.runtime.library import ДЕСЯТИЧНОЕ, ДЛИНА, ПОДСТРОКА, СИМВОЛ, СТРОКА, ЧИСЛО
from pseudo.runtime.values import Failure

TEXT = st.text(alphabet=st.sampled_from("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВabcxyz0123456789 .,!?-"),
               max_size=12)
MODES = ("interpret", "compiled", "exact")


def run_all(text: str, seed: int | None = None) -> list[tuple]:
    loaded = pseudo.load(Source(text, "встроенные.pseudo"))
    out = []
    for mode in MODES:
        stream = io.StringIO()
        try:
            pseudo.run(loaded, stdout=stream, mode=mode, limits=Limits(seed=seed))
            out.append((stream.getvalue(), None))
        except PseudoRuntimeError as e:
            out.append((stream.getvalue(), e.render()))
    return out


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(-3, 15), st.integers(-2, 15))
def test_string_builtins_are_pythons_string_operations(s, i, k):
    assert ДЛИНА(s) == len(s)
    if 1 <= i <= len(s):
        assert СИМВОЛ(s, i) == s[i - 1]
    else:
        try:
            СИМВОЛ(s, i)
            raise AssertionError("no error")
        except Failure as f:
            assert f.code == "builtin-range"
    if k >= 0 and 1 <= i <= len(s) + 1 and i + k - 1 <= len(s):
        assert ПОДСТРОКА(s, i, k) == s[i - 1:i - 1 + k]
    else:
        try:
            ПОДСТРОКА(s, i, k)
            raise AssertionError("no error")
        except Failure as f:
            assert f.code == "builtin-range"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(-10**30, 10**30), st.fractions(max_denominator=1000)), st.integers(0, 12))
def test_number_builtins(x, k):
    assert ЧИСЛО(СТРОКА(x)) == x
    text = ДЕСЯТИЧНОЕ(x, k)
    value = Fraction(text)
    assert abs(value - Fraction(x)) <= Fraction(1, 2 * 10 ** k)  # rounded to k digits
    whole, _, digits = text.lstrip("-").partition(".")
    assert len(digits) == k and whole.isdigit()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.integers(0, 14), st.integers(0, 6))
def test_string_builtins_agree_in_every_mode(s, i, k):
    program = (f"s := '{s}'\nСООБЩИТЬ ДЛИНА(s), '[' + ПОДСТРОКА(s, МАКС(1, МИН({i}, ДЛИНА(s) + 1)), 0) + ']'\n"
               f"СООБЩИТЬ СИМВОЛ(s, {i})\nСООБЩИТЬ ПОДСТРОКА(s, {i}, {k})\n")
    results = run_all(program)
    assert results[0] == results[1] == results[2], program
    lines = results[0][0].splitlines()
    assert lines[0] == f"{len(s)} []"
    if 1 <= i <= len(s):
        assert lines[1] == s[i - 1] or s[i - 1] == " "


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(1, 1000))
def test_random_numbers_are_the_same_in_every_mode_for_a_seed(seed, n):
    program = f"ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ СООБЩИТЬ СЛУЧАЙНОЕ({n}), ВЕРНУТЬСЯ\nСООБЩИТЬ\n"
    results = run_all(program, seed)
    assert results[0] == results[1] == results[2]
    numbers = [int(x) for x in results[0][0].split()]
    assert len(numbers) == 8 and all(1 <= x <= n for x in numbers)


def test_random_numbers_of_an_emitted_file_follow_its_seed(tmp_path):
    program = "ДЛЯ i := 1 ДО 5 ВЫПОЛНЯТЬ СООБЩИТЬ СЛУЧАЙНОЕ(100), ВЕРНУТЬСЯ\nСООБЩИТЬ\n"
    path = tmp_path / "случай.py"
    path.write_text(python_source(pseudo.load(Source(program, "случай.pseudo")), "случай.pseudo"), encoding="utf-8")
    emitted = subprocess.run([sys.executable, "-I", str(path), "--seed", "2026"], capture_output=True, text=True,
                             encoding="utf-8", check=True).stdout
    assert emitted == run_all(program, 2026)[0][0]
    other = subprocess.run([sys.executable, "-I", str(path), "--seed", "7"], capture_output=True, text=True,
                           encoding="utf-8", check=True).stdout
    assert other != emitted


def test_a_kind_of_vid_written_without_quotes_is_told_to_be_quoted():
    """`ВИД(n) = целое` reads a variable целое that has no value: the warning and the error
    in every mode say that ВИД gives a string, not «присвойте целое значение»."""
    text = "n := 5\nЕСЛИ ВИД(n) = целое ТО СООБЩИТЬ n КОНЕЦ_ЕСЛИ\n"
    quoted = "пишите его в кавычках — ВИД(x) = 'целое'"
    warning, = [w for w in pseudo.load(Source(text, "вид.pseudo")).warnings if w.code == "never-assigned"]
    assert quoted in warning.hint
    for output, error in run_all(text):
        assert output == "" and "переменная целое не получила значения" in error and quoted in error
        assert "присвойте целое" not in error
    unquoted = run_all("ЕСЛИ ВИД(1) = цело ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n")[0][1]  # any other name: as before
    assert "присвойте цело значение до этого места" in unquoted
