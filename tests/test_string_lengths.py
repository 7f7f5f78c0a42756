"""The limit of a string's length in the readable emitted file, which has no limit of steps or
time: a join that may pass it is the runtime's checked `сложить`, the others Python's `+`
(analysis/lengths.py), which takes a string read to be at most the input limit (runtime.io.MAX_INPUT)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import MODES, PROGRAMS, run_emitted_here, run_source

import pseudo
from pseudo.analysis.lengths import GROWTH, Lengths
from pseudo.frontend.source import Source
from pseudo.pygen.emit import program_part, python_source
from pseudo.runtime.values import MAX_STRING


def readable(text: str) -> str:
    return program_part(python_source(pseudo.load(Source(text, "t.pseudo")), "t.pseudo"))


def lengths(text: str) -> Lengths:
    return Lengths(pseudo.load(Source(text, "t.pseudo")).program)


@pytest.mark.parametrize("line, code", [
    ("s := 'ab' + 'c'", "s = 'ab' + 'c'"),  # literals
    ("ПРОЧЕСТЬ СТРОКУ s\nСООБЩИТЬ '«' + s + '»'", "сообщить('«' + s + '»')"),  # a line read, and literals
    ("ПРОЧЕСТЬ СТРОКУ s\nt := s + s\nСООБЩИТЬ t + t + t", "сообщить(t + t + t)"),  # six lines read at most
    ("n := 5\nСООБЩИТЬ 'n = ' + СТРОКА(n)", "сообщить('n = ' + СТРОКА(n))"),  # the text of a number
    ("s := 'ab'\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + s ВЕРНУТЬСЯ", "s = сложить(s, s)"),  # doubles
    ("s := ''\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + '. ' ВЕРНУТЬСЯ\nt := s + '!'",
     "s = s + '. '"),  # built up a few characters at a time
    ("s := ''\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + '. ' ВЕРНУТЬСЯ\nt := s + '!'",
     "t = сложить(s, '!')"),  # ... but of no known length
    ("a[1] := ''\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ a[1] := a[1] + СИМВОЛ('xyz', 2) ВЕРНУТЬСЯ",
     "a[1] = a[1] + СИМВОЛ('xyz', 2)"),  # an element built up a character at a time
    ("ПРОЧЕСТЬ СТРОКУ w\ns := ''\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + w ВЕРНУТЬСЯ",
     "s = сложить(s, w)"),  # a piece that may be long
    ("s := ''\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + 'x'; s := s + s ВЕРНУТЬСЯ",
     "s = сложить(s, 'x')"),  # built up, and doubled too
    ("s := 'ab'\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ t := s + s; s := t ВЕРНУТЬСЯ", "t = сложить(s, s)"),  # through another
    ("ДОБАВИТЬ(РЕЗ x) = x := x + x\ns := 'ab'\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ ДОБАВИТЬ(s) ВЕРНУТЬСЯ",
     "x.значение = сложить(x.значение, x.значение)"),  # through РЕЗ
    ("Д(x) = x + x\ns := 'ab'\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := Д(s) ВЕРНУТЬСЯ",
     "return сложить(x, x)"),  # through a function's value
])
def test_the_readable_code_joins_with_plus_only_what_cannot_pass_the_limit(line, code):
    assert code in readable(line + "\n")


def test_a_bound_that_keeps_growing_is_unknown():
    """A cycle through two variables grows the bounds a little at each round: widened."""
    found = lengths("x := ''\ny := ''\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ x := y + 'a'; y := x ВЕРНУТЬСЯ\n")
    assert found.table[(None, "x")] == found.table[(None, "y")] == MAX_STRING
    assert max(found.grown.values()) == GROWTH + 1
    steady = lengths("x := 'ab'\ny := x + x\nz := y + y + ПОДСТРОКА(x, 1, 1)\n")
    assert (steady.table[(None, "y")], steady.table[(None, "z")]) == (4, 10)


def test_a_string_built_up_from_one_that_may_be_long_is_joined_by_the_runtime():
    """Built up a few characters at a time from a line read (at most MAX_INPUT): `+`; from a
    string of unknown length, the millions of joins the limit is far from are not known."""
    assert "s = s + 'x'" in readable("ПРОЧЕСТЬ СТРОКУ s\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + 'x' ВЕРНУТЬСЯ\n")
    doubled = "ПРОЧЕСТЬ СТРОКУ s\ns := s + s\nДЛЯ i := 1 ДО 9 ВЫПОЛНЯТЬ s := s + 'x' ВЕРНУТЬСЯ\n"
    assert "s = сложить(s, 'x')" in readable(doubled)


def test_nims_message_with_the_line_typed_stays_a_plain_join():
    """The line a player typed is at most MAX_INPUT characters: joined to the message by `+`."""
    part = program_part(python_source(pseudo.load(Source.from_file(PROGRAMS / "nim.pseudo")), "nim.pseudo"))
    assert "а набрано «' + набрано + '»')" in part
    assert "слово_ввода[слов_ввода] = слово_ввода[слов_ввода] + знак_ввода" in part


DOUBLING = """ПРОЧЕСТЬ СТРОКУ имя
СООБЩИТЬ 'Привет, ' + имя + '!'
s := имя
ДЛЯ i := 1 ДО 40 ВЫПОЛНЯТЬ
    s := s + s
ВЕРНУТЬСЯ
СООБЩИТЬ ДЛИНА(s)
"""


def test_a_doubling_string_stops_at_the_limit_in_every_mode_and_file(tmp_path):
    """`pseudo run`, `run --interpret`, the exact code, the file with limits and the readable
    file (run by python3 under a cap of its memory: 1.5 GB, where a doubling once took 23 GB)
    stop at the same join with the same error: no string past the limit is made."""
    source = Source(DOUBLING, "t.pseudo")
    outcomes = {(o.stdout, o.error.render()) for o in (run_source(source, "мир\n", None, mode=m) for m in MODES)}
    assert len(outcomes) == 1
    stdout, expected = outcomes.pop()
    assert stdout == "Привет, мир!\n"
    assert expected.startswith("t.pseudo:5:10: ошибка: слишком длинная строка (100663296 символов)")
    with_limits = python_source(pseudo.load(source), "t.pseudo", limits=True)
    assert run_emitted_here(with_limits, tmp_path / "limits.py", "мир\n") == (stdout, expected + "\n", 70)
    path = tmp_path / "t.py"
    path.write_text(python_source(pseudo.load(source), "t.pseudo"), encoding="utf-8")

    capped = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29)); "
              "resource.setrlimit(resource.RLIMIT_CPU, (120, 120)); os.execv(sys.executable, sys.argv[1:])")
    (tmp_path / "in").write_text("мир\n", encoding="utf-8")  # past 1.5 GB, a MemoryError: the test fails
    with open(tmp_path / "in", "rb") as stdin, open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
        child = subprocess.Popen([sys.executable, "-I", "-c", capped, sys.executable, "-I", str(path)],
                                 stdin=stdin, stdout=out, stderr=err)
        child.wait(timeout=120)
    got = (tmp_path / "out").read_text(encoding="utf-8"), (tmp_path / "err").read_text(encoding="utf-8")
    assert (child.returncode, *got) == (70, stdout, expected + "\n")
