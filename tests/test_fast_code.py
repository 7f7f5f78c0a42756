"""The fast code's own devices, held to the interpreter: functions written out in place of
their calls (pygen/inline.py), short loops counted with the run around them, arrays as plain
dicts.
The golden programs of tests/golden/inline/ and tests/golden/runtime/fast_*.pseudo run in
every mode; these tests add what a golden file cannot say: the limits, and the code itself."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import LONG, MODES, ROOT, cli, run_emitted_here, run_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pseudo
from pseudo.errors import StaticError
from pseudo.frontend.source import Source
from pseudo.pygen.emit import python_source
from pseudo.runtime import Limits


def in_every_mode(text: str, limits: Limits | None = None):
    """The interpreter's outcome of `text`, once every mode has printed the same and failed
    (or not) with the same message at the same place."""
    outcomes = {mode: run_text(text, limits=limits, mode=mode) for mode in MODES}
    first = outcomes["interpret"]
    for mode, got in outcomes.items():
        assert (got.stdout, got.error and got.error.render()) == (first.stdout, first.error and first.error.render()), mode
    return first


DEEP = """\
плюс (x) = x + 1
r (n) = ЕСЛИ n = 0 ТО плюс(n) ИНАЧЕ r(n - 1) КОНЕЦ_ЕСЛИ
СООБЩИТЬ r(ГЛУБИНА)
"""


@pytest.mark.parametrize("depth, limit", [(38, 40), (39, 40), (40, 40), (0, 1), (0, 2)])
def test_a_call_written_out_at_the_depth_limit_is_still_a_call(depth, limit):
    """r(ГЛУБИНА) calls плюс at depth ГЛУБИНА + 2; with --max-depth 40 the call of плюс at
    depth 41 is too deep in every mode, though the fast code makes no Python call for it (nor
    for its `x + 1`)."""
    text = DEEP.replace("ГЛУБИНА", str(depth))
    first = in_every_mode(text, Limits(max_depth=limit))
    assert (first.error is not None) == (depth + 2 > limit)


SHALLOW = """\
f (a) = a + 1
ЕСЛИ f(1) > 0 ТО
    ДЛЯ j := 0 ДО 4 ВЫПОЛНЯТЬ СООБЩИТЬ f(j * (j + 1)), q ВЕРНУТЬСЯ
КОНЕЦ_ЕСЛИ
"""


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 8])
def test_a_small_depth_limit_leaves_the_runtime_room(depth):
    """The fast code's recursion limit is the program's; handing over to the exact code, and
    what that needs, runs with room of its own (it met Python's limit at --max-depth 5)."""
    first = in_every_mode(SHALLOW, Limits(max_depth=depth))
    assert first.error is not None and "q не получила значения" in first.error.render()


def emitted(text: str, limits: bool = True) -> str:
    return python_source(pseudo.load(Source(text, "t.pseudo")), "t.pseudo", limits=limits)


@pytest.fixture
def loops_kept(monkeypatch):
    """The fast code with its short loops of constant values kept as loops (pygen/unrolled.py
    writes them out), for the tests of what is counted or read before a loop."""
    monkeypatch.setattr("pseudo.pygen.generate.write_out_short_loops", lambda fn: fn)


def test_prose_conditions_are_written_out_in_the_loop():
    code = emitted("«место (k), (i) свободно» = кол[i] И д1[k + i]\n"
                   "HR (k) = ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ ЕСЛИ место k, i свободно ТО СООБЩИТЬ i КОНЕЦ_ЕСЛИ ВЕРНУТЬСЯ\n"
                   "ДЛЯ j := 1 ДО 16 ВЫПОЛНЯТЬ кол[j] := ИСТИНА; д1[j] := j ОСТ 2 = 0 ВЕРНУТЬСЯ\nHR(1)\n")
    assert "if кол[i] and д1[k + i]:" in code


@pytest.mark.parametrize("text", [
    "f (x, y) = x > 0 И y > 0\nСООБЩИТЬ f(a, b)\n",  # y is read only if x > 0: b would not be
    "f (x) = x + 1\nСООБЩИТЬ f(СЛУЧАЙНОЕ(6))\n",  # an argument that acts keeps its time
    "g := 1\nf (x) = x + g\nh (g) = СООБЩИТЬ f(1)\nh(2)\n",  # g is h's parameter there
])
def test_calls_that_cannot_be_written_out_stay_calls(text):
    fast = emitted(text).split("ОСТАЛЬНОЕ = ")[0].replace("def f(", "")
    assert re.search(r"(?<!\w)f\(", fast)


def test_a_short_loop_of_constant_bounds_is_counted_with_the_run_around_it():
    code = emitted("ДЛЯ j := 1 ДО 8 ВЫПОЛНЯТЬ СООБЩИТЬ j ВЕРНУТЬСЯ\nДЛЯ j := 1 ДО 100000 ВЫПОЛНЯТЬ x := j ВЕРНУТЬСЯ\n")
    main = code.split("def главная():")[1].split("ОСТАЛЬНОЕ = ")[0]
    assert main.count("счёт_шагов +=") == 1  # once at the start, with the short loop
    assert len(re.findall(r"(?<!_)шагов \+= 1\n", main)) == 1  # once a turn of the long one (in a local)
    # and is written out, a copy of its body a value (pygen/unrolled.py)
    assert "".join(f"    j = {j}\n    сообщить(j)\n" for j in range(1, 9)) in main


def test_a_loop_that_calls_nothing_that_counts_counts_in_locals():
    """Its count goes back to the global where it ends; a loop that calls a definition (which
    counts) keeps counting in the global."""
    code = emitted("f (n) =\n    i := 0\n    ПОКА i < n ВЫПОЛНЯТЬ i := i + 1; СООБЩИТЬ i ВЕРНУТЬСЯ\n"
                   "    РЕЗУЛЬТАТ := i\n"
                   "ДЛЯ j := 1 ДО 100000 ВЫПОЛНЯТЬ СООБЩИТЬ f(j) ВЕРНУТЬСЯ\n")
    f_code, main = code.split("ОСТАЛЬНОЕ = ")[0].split("def f(")[1].split("def главная(")
    assert "шагов = счёт_шагов\n    while i < n:\n        шагов += 1\n        if шагов > рубеж:" in f_code
    assert "        i = i + 1\n        сообщить(i)\n    счёт_шагов = шагов\n" in f_code
    assert "шагов =" not in main and "счёт_шагов += 2" in main  # a turn and the call


LOOP_THAT_COUNTS = """\
def f():
    while x:
        счёт_шагов += 1
        if счёт_шагов > рубеж:
            рубеж = пределы(счёт_шагов)
        {}
"""


@pytest.mark.parametrize("inside, local", [
    ("x = сложить(x, 1)", True), ("x = len(y)", True), ("break", True), ("__pseudo_comment__('x')", True),
    ("x = y.get(1) or y.setdefault(1, {})", True),
    ("return 1", False), ("raise E", False), ("if g(x):\n            break", False), ("g(x)", False),
    ("войти()", False), ("y.f()", False), ("if x:\n            g(x)\n            break", True),
    ("try:\n            x = 1\n        finally:\n            pass", False),
])
def test_only_a_loop_left_at_its_end_counts_in_locals(inside, local):
    import ast

    from pseudo.pygen.counts import counted_in_locals
    from pseudo.pygen.generate import Generator
    loaded = pseudo.load(Source("СООБЩИТЬ 1\n", "t.pseudo"))
    callable_ = Generator(loaded.program, loaded.facts, "t.pseudo").calls_that_do_not_count()
    fn = ast.parse(LOOP_THAT_COUNTS.format(inside)).body[0]
    text = ast.unparse(counted_in_locals(fn, "счёт_шагов", lambda base: base, callable_))
    assert ("шагов = счёт_шагов" in text and text.endswith("счёт_шагов = шагов")) == local
    assert ("счёт_шагов += 1" in text) != local


@pytest.mark.parametrize("inside", ["if x:\n            g(x)", "if x:\n            войти()",
                                    "if x:\n            y.f()", "if x:\n            g(x)\n            h(x)"])
def test_a_loop_that_calls_what_counts_on_some_turns_hands_its_local_count_over_around_the_calls(inside):
    """The statements that call what counts count in the global: the local is written back
    before them and read again after them, once for a run of them. A loop that calls at every
    turn keeps counting in the global (`g(x)` in test_only_a_loop_left_at_its_end_counts_in_locals)."""
    import ast

    from pseudo.pygen.counts import counted_in_locals
    from pseudo.pygen.generate import Generator
    loaded = pseudo.load(Source("СООБЩИТЬ 1\n", "t.pseudo"))
    callable_ = Generator(loaded.program, loaded.facts, "t.pseudo").calls_that_do_not_count()
    fn = ast.parse(LOOP_THAT_COUNTS.format(inside)).body[0]
    text = ast.unparse(counted_in_locals(fn, "счёт_шагов", lambda base: base, callable_))
    around = "\n".join(x.strip() for x in inside.split("\n")[1:])
    assert text.startswith("def f():\n    шагов = счёт_шагов\n    while x:\n        шагов += 1\n"), text
    assert text.endswith("счёт_шагов = шагов"), text
    assert text.replace("    ", "").count(f"счёт_шагов = шагов\n{around}\nшагов = счёт_шагов") == 1, text


def test_without_limits_the_fast_code_still_hands_over(tmp_path):
    """`pseudo py --no-limits`: an element the fast code's dict lacks is still the exact
    code's error, not a KeyError."""
    path = tmp_path / "miss.py"
    loaded = pseudo.load(Source("a[1] := 1\nСООБЩИТЬ a[1]\nСООБЩИТЬ a[2]\n", "miss.pseudo"))
    path.write_text(python_source(loaded, "miss.pseudo", limits=False), encoding="utf-8")
    result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, encoding="utf-8",
                            check=False)
    assert (result.returncode, result.stdout) == (70, "1\n")
    assert result.stderr.startswith("miss.pseudo:3:10: ошибка: элемент a[2] не получил значения")


def test_a_function_of_a_used_file_keeps_its_place_and_call(tmp_path):
    """A function from another file is not written out in place (its places are that file's):
    the error is at its line, with its call on the stack, in every mode and in the emitted file."""
    (tmp_path / "lib.pseudo").write_text("{ библиотека }\n\n\nдоля (x) = 10 / x\n", encoding="utf-8")
    main = tmp_path / "main.pseudo"
    main.write_text("ИСПОЛЬЗОВАТЬ 'lib.pseudo'\nДЛЯ k := 2 ШАГ -1 ДО 0 ВЫПОЛНЯТЬ СООБЩИТЬ доля(k) ВЕРНУТЬСЯ\n",
                    encoding="utf-8")
    emitted = tmp_path / "main.py"
    assert cli("py", "-q", str(main), "-o", str(emitted)).returncode == 0
    results = [cli("run", "-q", mode, "--no-cache", str(main)) for mode in ("--interpret", "--compiled")]
    results.append(subprocess.run([sys.executable, str(emitted)], capture_output=True, text=True, encoding="utf-8",
                                  check=False))
    for result in results:
        assert (result.returncode, result.stdout) == (70, "5\n10\n")
        assert re.match(r".*lib\.pseudo:4:12: ошибка: деление на ноль\n", result.stderr)
        assert re.search(r"доля\(0\)\s+— вызов в .*main\.pseudo:2", result.stderr)
    assert results[0].stderr == results[1].stderr


def test_reads_the_same_at_every_turn_are_taken_out_of_a_short_loop(loops_kept):
    """pygen/reads.py: the reads a loop of constant bounds makes at every turn, of arrays it does
    not store to, indexed by constants and by variables that surely have a value, are made once
    before it; a read in a branch or after И, of an array the loop stores to, with the loop's
    variable or a global in its index, or in a loop that may not run, stays in the loop. (The
    golden program tests/golden/runtime/fast_hoisted_reads.pseudo runs in every mode.)"""
    code = emitted("a[1] := 5; d[1, 1] := 1\n"
                   "p (k) = ДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ b[k + a[1]] := d[k, m] + a[k]; c[m] := m > 5 И a[8] > 0 ВЕРНУТЬСЯ\n"
                   "p(1)\nДЛЯ m := 1 ДО 2 ВЫПОЛНЯТЬ a[m] := a[1] + 1 ВЕРНУТЬСЯ\n"
                   "n := 3\nДЛЯ m := 1 ДО n ВЫПОЛНЯТЬ b[m] := a[1] ВЕРНУТЬСЯ\n"
                   "k := 1\nДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ b[m] := a[k] ВЕРНУТЬСЯ\n")
    fast = code.split("ОСТАЛЬНОЕ = ")[0]
    procedure, main = fast.split("def p(k):")[1].split("def главная():")
    assert "    a_1 = a[1]\n    d_k = d[k]\n    a_k = a[k]\n    for m in (1, 2, 3):\n" in procedure
    assert "b[k + a_1] = d_k[m] + a_k" in procedure and "c[m] = m > 5 and a[8] > 0" in procedure
    assert "a[m] = a[1] + 1" in main  # the loop stores to a
    # bounds not constant: it may not run at all; the read is made before the loop all the same,
    # which stores nothing into `a` (an element without a value is ПУСТО, checked where it is copied)
    assert re.search(r"(a_1_) = a\[1\]\n(.*\n)*?\s+for m in range\(1, n \+ 1\):\n(.*\n)*?\s+b\[m\] = задано\(\1\)\n",
                     main)  # an element of a list copied: checked where the program copies it
    assert "b[m] = задано(a[k])\n" in main  # k is global: it may have no value


@pytest.mark.parametrize("text", [
    # an element of a Массив (an array used with one and with two indices): its own error
    "a[1, 1] := 1\na[1] := 5\nz := 0\nДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ\n  b[m] := m ДЕЛ z\n  c[m] := a[9]\nВЕРНУТЬСЯ\n",
    # an index with ДЕЛ: its own division by zero
    "a[1] := 5\nz := 0\nДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ\n  b[m] := m ДЕЛ z\n  c[m] := a[1 ДЕЛ z]\nВЕРНУТЬСЯ\n",
    # an index variable that may have no value
    ("f(n) =\n  ЕСЛИ n > 5 ТО k := 1 КОНЕЦ_ЕСЛИ\n  ДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ\n    b[m] := m ДЕЛ (n - n)\n"
     "    c[m] := a[k]\n  ВЕРНУТЬСЯ\na[1] := 5\nf(1)\n"),
    # two reads that may fail, in the order Python evaluates an assignment: the value first
    "a[1] := 5\nz := 0\nДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ\n  b[a[1] + a[2]] := u[3] - a[z ДЕЛ z]\nВЕРНУТЬСЯ\n",
])
def test_a_read_taken_out_of_a_loop_fails_only_where_the_program_fails(text):
    """A read the fast code takes out of a loop (pygen/reads.py) may fail only as a read of an
    element never assigned, on which the exact code takes over: an error the loop meets first
    in its first turn is the one reported, in every mode."""
    assert in_every_mode(text).error is not None


RECURSIVE = """\
обход (n) =
    СООБЩИТЬ n
    ЕСЛИ n > 0 ТО
        ДЛЯ i := 1 ДО ШИРЬ ВЫПОЛНЯТЬ обход(n - 1) ВЕРНУТЬСЯ
    КОНЕЦ_ЕСЛИ
фиб (n) = ЕСЛИ n < 2 ТО n ИНАЧЕ фиб(n - 1) + фиб(n - 2) КОНЕЦ_ЕСЛИ
чёт (n) = ЕСЛИ n = 0 ТО ИСТИНА ИНАЧЕ нечёт(n - 1) КОНЕЦ_ЕСЛИ
нечёт (n) = ЕСЛИ n = 0 ТО ЛОЖЬ ИНАЧЕ чёт(n - 1) КОНЕЦ_ЕСЛИ
через (n) = фиб(n) + 1
выбор (n) =
    ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ
        ЕСЛИ i = 2 И n > 0 ТО выбор(n - 1) КОНЕЦ_ЕСЛИ
        СООБЩИТЬ n, i
    ВЕРНУТЬСЯ
"""


def test_a_recursive_call_is_counted_by_its_caller(loops_kept):
    """The fast code counts a call of a recursive definition before the statement that makes
    it, not at the definition's entry; a short ДЛЯ that calls at every turn counts its calls
    once, before it (the knight's search: a call off the board then counts nothing)."""
    code = emitted(RECURSIVE.replace("ШИРЬ", "8") + "обход(2)\nСООБЩИТЬ фиб(5), чёт(4)\nвыбор(2)\n")
    fast = code.split("ОСТАЛЬНОЕ = ")[0]
    walk = fast.split("def обход(")[1].split("\ndef ")[0]
    assert walk.index("if n > 0:") < walk.index("счёт_шагов +=") < walk.index("for i in (1, 2, 3, 4, 5, 6, 7, 8):")
    assert walk.count("счёт_шагов +=") == 1
    choice = fast.split("def выбор(")[1].split("\ndef ")[0]  # a call under ЕСЛИ counts where it is made
    assert re.search(r"if i == 2 and n > 0:\n\s+счёт_шагов \+= \d+\n.*\n.*\n\s+выбор\(n - 1\)", choice)


@settings(max_examples=40 if not LONG else 2000, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(width=st.integers(0, 4), depth=st.integers(0, 5), steps=st.integers(1, 600),
       call=st.sampled_from(["обход(ГЛУБ)", "СООБЩИТЬ фиб(ГЛУБ)", "СООБЩИТЬ чёт(ГЛУБ), через(ГЛУБ)",
                             "выбор(ГЛУБ)", "j := 0\nПОКА фиб(j) < ГЛУБ * 3 ВЫПОЛНЯТЬ j := j + 1 ВЕРНУТЬСЯ\nСООБЩИТЬ j",
                             "С: ЕСЛИ фиб(ГЛУБ) > 2 ТО К КОНЕЦ_ЕСЛИ\nСООБЩИТЬ 'С'\nК: СООБЩИТЬ 'К'",
                             "j := 0\nС: j := j + 1\nЕСЛИ фиб(j) < ГЛУБ * 2 ТО С КОНЕЦ_ЕСЛИ\nСООБЩИТЬ j"]))
def test_recursive_calls_counted_by_callers_stop_at_the_step_the_interpreter_does(width, depth, steps, call):
    """Whatever the step limit, every mode prints the same and stops at the same step with
    the same message."""
    text = RECURSIVE.replace("ШИРЬ", str(width)) + call.replace("ГЛУБ", str(depth)) + "\n"
    limits = Limits(max_steps=steps, max_depth=100, time_limit=20)
    assert not isinstance(in_every_mode(text, limits).error, StaticError)


@pytest.mark.parametrize("first, made", [
    # a row of the fast code's nested dicts, read before the loop, is made if it is missing
    # (and no dict is built when it is not)
    ("доска[-1, 1] := 0", r"доска\.get\(I\) or доска\.setdefault\(I, \{\}\)"),
    # of a list of rows that grows (the first index never negative): the same
    ("доска[1, 1] := 0", r"доска\[I\] if I < len\(доска\) else вырастить\(доска, I, \(4,\)\)"),
])
def test_a_row_that_stays_the_same_is_read_once_before_the_loop(first, made, loops_kept):
    """`доска[r]` — the row of an array of two indices — is read before the loop over c, even
    though the loop calls a procedure that stores into the array; a row whose index the loop
    changes, or that a call may change (a global), stays where it is (pygen/reads.py)."""
    text = ("«поставить (r), (c)» = доска[r, c] := r * c; g := g + 1\n"
            "f (k) =\n"
            "    ДЛЯ r := 1 ДО 3 ВЫПОЛНЯТЬ\n"
            "        ДЛЯ c := 1 ДО 3 ВЫПОЛНЯТЬ поставить r, c; СООБЩИТЬ доска[r, c], доска[k, c], доска[g, c] ВЕРНУТЬСЯ\n"
            "    ВЕРНУТЬСЯ\n"
            f"g := 1; {first}; f(1)\n")
    f_code = emitted(text).split("ОСТАЛЬНОЕ = ")[0].split("def f(")[1].split("\ndef ")[0]
    row = {i: made.replace("I", i) for i in "kr"}
    assert re.search(rf"доска_k = {row['k']}\n\s+for r in \(1, 2, 3\):\n\s+доска_r = {row['r']}\n\s+for c in \(1, 2, 3\):",
                     f_code), f_code
    got = in_every_mode(text)  # поставить 1, 1 makes g 2: доска[2, 1] is read before it is assigned
    assert "элемент доска[2, 1] не получил значения" in got.error.render()
    assert "сообщить(доска_r[c], доска_k[c], доска[g][c])" in f_code


@settings(max_examples=40 if not LONG else 3000, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(index=st.sampled_from(["p", "p + i", "i - 1", "2 * p - j", "g", "i"]),
       change=st.sampled_from(["", "p := p + 1", "g := g + 1", "i := i + 1", "сдвиг(p)"]),
       loop=st.sampled_from(["ДЛЯ j := 1 ДО 3 ВЫПОЛНЯТЬ", "j := 0\n    ПОКА j < 3 ВЫПОЛНЯТЬ j := j + 1",
                             "ДЛЯ j := p ДО p + 2 ВЫПОЛНЯТЬ"]),
       start=st.integers(-1, 3))
def test_rows_taken_out_of_loops_read_what_the_program_reads(index, change, loop, start):
    """Whatever the row's index and whatever the loop changes (a parameter, a global, the
    outer loop's variable, the array through a call), every mode prints the same, and
    fails the same way on an element never assigned."""
    text = ("сдвиг (x) = а[x, 2] := а[x, 2] + 10; g := g + 1\n"
            "f (p) =\n"
            "  ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ\n"
            f"    {loop}\n"
            f"      {change}\n"
            f"      СООБЩИТЬ i, j, а[{index}, j]\n"
            f"      а[{index}, j + 1] := а[{index}, j] + 1\n"
            "    ВЕРНУТЬСЯ\n"
            "  ВЕРНУТЬСЯ\n"
            "g := 0\n"
            "ДЛЯ x := -3 ДО 9 ВЫПОЛНЯТЬ ДЛЯ y := -3 ДО 9 ВЫПОЛНЯТЬ а[x, y] := x * 100 + y ВЕРНУТЬСЯ ВЕРНУТЬСЯ\n"
            f"f({start})\nСООБЩИТЬ а[1, 3], g\n")
    first = in_every_mode(text, Limits(max_steps=100_000, max_depth=50, time_limit=20))
    assert not isinstance(first.error, StaticError), first.error


def test_the_main_programs_poka_jumps_back_with_continue():
    """CPython 3.11 specialises a function's code only after eight calls or many backward jumps
    that count; the end of `while` jumps back without counting, so the main program's ПОКА
    ends with `continue`. A definition's loops, run by calls, need nothing."""
    code = emitted("f (n) =\n    ПОКА n > 0 ВЫПОЛНЯТЬ n := n - 1 ВЕРНУТЬСЯ\n    РЕЗУЛЬТАТ := n\n"
                   "i := 0\nПОКА i < 10 ВЫПОЛНЯТЬ i := i + f(i) + 1 ВЕРНУТЬСЯ\nСООБЩИТЬ i\n")
    fast = code.split("ОСТАЛЬНОЕ = ")[0]
    main = fast.split("def главная():")[1]
    assert re.search(r"while i < 10:\n(.*\n)*?\s+i = i \+ f\(i\) \+ 1\n\s+# .*\n\s+continue\n", main), main
    assert "continue" not in fast.split("def f(")[1].split("def главная")[0]


def test_a_loop_bound_past_two_to_the_63rd_is_written():
    """The number of turns of a ДЛЯ of constant bounds is computed, not taken as len(range(…)),
    which Python refuses past 2**63."""
    text = ("ДЛЯ i := 1 ДО 100000000000000000000000000000 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\n"
            "  ЕСЛИ i = 3 ТО КОНЕЦ_РАБОТЫ КОНЕЦ_ЕСЛИ\nВЕРНУТЬСЯ\n")
    got = in_every_mode(text)
    assert (got.stdout, got.error) == ("1\n2\n3\n", None)


@pytest.mark.parametrize("bounds, listed", [
    ("1 ДО 4", "(1, 2, 3, 4)"), ("-1 ДО 1", "(-1, 0, 1)"), ("3 ШАГ -2 ДО -3", "(3, 1, -1, -3)"),
    ("0 ШАГ 3 ДО 20", "(0, 3, 6, 9, 12, 15, 18)"), ("1 ДО 8", "(1, 2, 3, 4, 5, 6, 7, 8)"),
    ("1 ДО 9", None), ("5 ДО 5", None), ("5 ДО 4", None)])
def test_a_short_loop_of_constant_bounds_lists_its_values(bounds, listed):
    """A ДЛЯ of constant integer bounds and two to eight turns goes through a tuple of its
    values (no range object to make at each start); any other stays `range`. The fast code
    writes such a loop out, a copy of its body a value (pygen/unrolled.py). Every mode prints
    the same values."""
    text = f"ДЛЯ i := {bounds} ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ\nСООБЩИТЬ 'конец'\n"
    readable = emitted(text, limits=False).split("def главная():")[1]
    loop = re.search(r"for i in (.*):\n", readable).group(1)
    assert loop == listed if listed else loop.startswith("range("), loop
    start, step, stop = re.match(r"(-?\d+) (?:ШАГ (-?\d+) )?ДО (-?\d+)", bounds).groups()
    start, step, stop = int(start), int(step or 1), int(stop)
    fast = emitted(text).split("def главная():")[1].split("ОСТАЛЬНОЕ = ")[0]
    if listed:
        assert "for i in" not in fast
        assert "".join(f"    i = {i}\n    сообщить(i)\n" for i in range(start, stop + (1 if step > 0 else -1), step)) \
            in fast, fast
    else:
        assert re.search(r"for i in range\(", fast), fast
    expected = "".join(f"{i}\n" for i in range(start, stop + (1 if step > 0 else -1), step)) + "конец\n"
    got = in_every_mode(text)
    assert (got.stdout, got.error) == (expected, None)


SEARCH = """\
найти (n) = к[n] := к[n - 1] + 1
искать (n) =
    ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ
        СООБЩИТЬ n, i, к[n], к[n + СДВИГ]
        ЕСЛИ n < 3 ТО найти(n + 1); искать(n + 1) КОНЕЦ_ЕСЛИ
    ВЕРНУТЬСЯ
ДЛЯ x := 0 ДО 9 ВЫПОЛНЯТЬ к[x] := 0 ВЕРНУТЬСЯ
искать(1)
"""


def test_an_element_no_call_can_write_is_read_once_before_the_loop(loops_kept):
    """`искать (n)` writes `к` only at n + 1 and above (through `найти (n + 1)` and itself), so
    `к[n]` is read once, before its loop; `к[n + 1]` and `к[n + 2]` stay in the loop
    (pygen/reads.py). Every mode prints the same."""
    for shift, early in (("", True), (" + 1", False), (" + 2", False), (" - 1", True), (" + -1", True)):
        text = SEARCH.replace(" + СДВИГ", shift)
        f_code = emitted(text).split("ОСТАЛЬНОЕ = ")[0].split("def искать(")[1].split("\ndef ")[0]
        before, loop = f_code.split("for i in (1, 2):")
        assert re.search(r"(к_n\w*) = к\[n\]\n", before) and "к[n]" not in loop, f_code
        assert early == (f"к[n{shift}]" in before) or not shift, f_code
        assert in_every_mode(text).error is None


@settings(max_examples=40 if not LONG else 3000, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(index=st.sampled_from(["p", "p + 1", "p - 1", "p + 2", "i", "g", "p + i", "2 * p"]),
       write=st.integers(-2, 2), step=st.integers(-1, 1),
       change=st.sampled_from(["", "пиши(p)", "пиши(p + 1)", "пиши(p - 2)", "глубже(p, 3)", "глубже(p + 1, 2)",
                               "а[p + 1] := а[p + 1] + 5", "а[i] := 0", "p := p + 1", "g := g + 1",
                               "добавь(а[p])", "добавь(а[p - 1])"]),
       loop=st.sampled_from(["ДЛЯ j := 1 ДО 3 ВЫПОЛНЯТЬ", "j := 0\n    ПОКА j < 3 ВЫПОЛНЯТЬ j := j + 1",
                             "ДЛЯ j := 1 ДО а[p] ДЕЛ 50 ВЫПОЛНЯТЬ"]),
       start=st.sampled_from([-1, 0, 1, 3, 70]))
def test_elements_read_before_loops_are_what_the_program_reads(index, write, step, change, loop, start):
    """Whatever the loop writes, itself or through calls (at offsets of the parameter, in a
    recursion that moves up or down, through a РЕЗ parameter), every mode prints the same, and
    fails the same way on an element never assigned."""
    text = (f"пиши (q) = а[q + {write}] := а[q + {write}] + 1; g := g + 1\n"
            f"глубже (q, d) = ЕСЛИ d > 0 ТО пиши(q); глубже(q + {step}, d - 1) КОНЕЦ_ЕСЛИ\n"
            "добавь (РЕЗ x) = x := x + 1000\n"
            "f (p) =\n"
            "  ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ\n"
            f"    {loop}\n"
            f"      {change}\n"
            f"      СООБЩИТЬ i, j, а[{index}]\n"
            "    ВЕРНУТЬСЯ\n"
            "  ВЕРНУТЬСЯ\n"
            "g := 0\n"
            "ДЛЯ x := -30 ДО 60 ВЫПОЛНЯТЬ а[x] := 100 + x ВЕРНУТЬСЯ\n"
            f"f({start})\nСООБЩИТЬ g\n")
    first = in_every_mode(text, Limits(max_steps=100_000, max_depth=50, time_limit=20))
    assert not isinstance(first.error, StaticError), first.error


def test_a_read_its_esli_guards_stays_in_the_loop(loops_kept):
    """`ЕСЛИ k > 1 ТО … c[k - 1]`: the program keeps from reading c[0]; read before the loop,
    it would have no value and the whole run would go again in the exact code. A read the
    ЕСЛИ does not guard (`c[k + 1]`) still leaves the loop."""
    text = ("f (k) =\n  s := 0\n  ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n"
            "    ЕСЛИ k > 1 ТО s := s + c[k - 1] КОНЕЦ_ЕСЛИ\n    s := s + i + c[k + 1]\n  ВЕРНУТЬСЯ\n"
            "  РЕЗУЛЬТАТ := s\n"
            "ДЛЯ j := 1 ДО 10 ВЫПОЛНЯТЬ c[j] := j ВЕРНУТЬСЯ\nСООБЩИТЬ f(1), f(3)\n")
    f_code = emitted(text).split("ОСТАЛЬНОЕ = ")[0].split("def f(")[1].split("\ndef ")[0]
    before, loop = f_code.split("for i in (1, 2, 3):")
    assert "c[k + 1]" in before and "c[k - 1]" in loop, f_code
    got = in_every_mode(text)
    assert (got.stdout, got.error) == ("12 24\n", None)


def test_what_a_function_may_write_settles_in_a_few_passes(monkeypatch, loops_kept):
    """Definitions round a circle, each writing at its parameter and calling the next with
    `p + 1`: each is summed up a few times (again only when one it calls changed, and a bound
    that moves becomes no bound), not once per definition of the circle: translating was
    quadratic in their number."""
    from pseudo.pygen import reads
    n = 100
    text = "\n".join([f"f{i} (p) =\n    a[p] := {i}\n    ЕСЛИ p < 5 ТО f{(i + 1) % n}(p + 1) КОНЕЦ_ЕСЛИ\n"
                      f"    ДЛЯ j := 1 ДО 3 ВЫПОЛНЯТЬ СООБЩИТЬ a[p - 1] ВЕРНУТЬСЯ" for i in range(n)] + ["f0(1)"])
    calls = []
    real = reads._Writes.joined
    monkeypatch.setattr(reads._Writes, "joined", lambda self, own, sites: calls.append(1) or real(self, own, sites))
    f_code = emitted(text).split("ОСТАЛЬНОЕ = ")[0].split("def f7(")[1].split("\ndef ")[0]
    assert len(calls) <= 5 * (n + 1), len(calls)
    assert re.search(r"a_p_1\w* = a\[p - 1\]\n\s+for j in \(1, 2, 3\):", f_code), f_code  # f7 writes only at p and above


def test_the_limits_are_not_looked_at_on_every_call(monkeypatch):
    """A call of peg solitaire's search counts 12,405 steps at once (from above: most it never
    takes), close to the first window of 16,384: the window between two looks at the limits
    widens while looks come often, and the whole search looks a few times, not at every second
    call (10,138 looks before). The step limit still hands over at the very step."""
    import io

    from pseudo import runtime
    looks = []
    real = runtime.пределы
    monkeypatch.setattr(runtime, "пределы", lambda count: looks.append(count) or real(count))
    loaded = pseudo.load(Source.from_file(ROOT / "programs" / "peg_solitaire.pseudo"))
    out = io.StringIO()
    pseudo.run(loaded, stdin=io.StringIO("0\n"), stdout=out, mode="compiled")
    assert out.getvalue().endswith("ПРОВЕРОК: 391865\n")
    assert 0 < len(looks) < 200, len(looks)


@pytest.mark.parametrize("factor", ["3", "-(2 ^ 64) + 1", "2 ^ 64", "2 ^ 600000"])
def test_a_product_of_a_short_integer_is_pythons_and_of_two_long_ones_is_refused(factor):
    # x := ДЛИНА('') + …: an integer the analysis does not bound
    text = f"f (a, b) = a * b\nx := ДЛИНА('') + {factor}\nСООБЩИТЬ f(x, x) > 0\nСООБЩИТЬ f(x, 7) ОСТ 10\n"
    assert "a * b if -18446744073709551616 < a < 18446744073709551616 else умножить(a, b)" in emitted(text)
    outcome = in_every_mode(text)
    assert (outcome.error is not None) == (factor == "2 ^ 600000")
    if outcome.error:
        assert outcome.error.render().startswith("t.pseudo:1:12: ошибка: слишком большое число")


@pytest.mark.parametrize(("text", "plain"), [
    # factors the analysis bounds: Python's own *, in the readable file too; an element
    # without a value still fails where the program uses it
    (("ДЛЯ t := 1 ДО 3 ВЫПОЛНЯТЬ ма[t] := t - 2 ВЕРНУТЬСЯ\nДЛЯ t := 1 ДО 4 ВЫПОЛНЯТЬ фр[t] := t ВЕРНУТЬСЯ\n"
      "ДЛЯ t := 1 ДО 4 ВЫПОЛНЯТЬ СООБЩИТЬ ма[t] * фр[t] ВЕРНУТЬСЯ\n"), "ма[t] * фр[t]"),
    ("f (k) = k * k\nДЛЯ i := -5 ДО 5 ВЫПОЛНЯТЬ СООБЩИТЬ f(i) ВЕРНУТЬСЯ\n", "k * k"),
    # a factor that grows without bound (a power by a loop) stays checked, and meets the limit
    ("x := 3\nДЛЯ i := 1 ДО 25 ВЫПОЛНЯТЬ x := x * x ВЕРНУТЬСЯ\nСООБЩИТЬ x ОСТ 10\n", None),
])
def test_a_product_of_bounded_factors_is_pythons_in_the_readable_and_the_fast_code(text, plain):
    readable = python_source(pseudo.load(Source(text, "t.pseudo")), "t.pseudo").split("# ==== среда")[0]
    if plain:
        assert plain in readable and "умножить" not in readable, readable
    else:
        assert "умножить(x, x)" in readable
    outcome = in_every_mode(text)
    assert (outcome.error is not None) == ("ма" in text or plain is None)


@pytest.mark.parametrize("text", [
    # a product that grows by itself on every pass of the analysis, then times an unbounded
    # factor (it once raised OverflowError in the analysis: an internal error for `pseudo run`)
    "ф (x) = x * 2 + 1\nm[1] := 1\nm[0] := (m[0] * ф(m[0]))\n",
    f"x := {10 ** 400}\ni := 1\nПОКА i < 5 ВЫПОЛНЯТЬ i := i * 3 ВЕРНУТЬСЯ\nСООБЩИТЬ x * i ОСТ 7, x - i > 0\n",
])
def test_huge_bounds_are_taken_as_unbounded(text):
    """The bounds stay within ±2⁶³: the analysis never multiplies a huge integer by an infinity."""
    outcome = in_every_mode(text)
    assert outcome.error is None or "не получил значения" in outcome.error.render()


@pytest.mark.parametrize("test", ["0 = m[0]", "m[0] = ИСТИНА", "m[0] <> 'a'", "-ЕСЛИ 0 = m[0] ТО 0 ИНАЧЕ 1 КОНЕЦ_ЕСЛИ"])
def test_an_element_never_assigned_is_an_error_in_an_equality_of_other_kinds(test, tmp_path):
    """`0 = m[0]` of a list element never assigned: not ЛОЖЬ (values of different kinds are
    unequal, but an unset element is no value) — the read's error, in every mode and in both
    emitted files (found by the long profile of the agreement tests)."""
    text = f"m[1] := 5\nСООБЩИТЬ {test}\n"
    outcome = in_every_mode(text)
    assert outcome.error.render().startswith("t.pseudo:2:") and "элемент m[0] не получил значения" in outcome.error.render()
    for limits in (False, True):
        emitted_text = python_source(pseudo.load(Source(text, "t.pseudo")), "t.pseudo", limits=limits)
        assert "не получил значения" in run_emitted_here(emitted_text, tmp_path / "t.py")[1]


def test_the_row_of_a_row_is_read_before_the_loops_it_stays_the_same_in(loops_kept):
    """`ор[q, i, j]` in loops over i and j: the row `ор[q]` is read before the loop over i,
    the row `ор[q, i]` before the loop over j, from it."""
    text = ("g (q) =\n"
            "    ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ\n"
            "        ДЛЯ j := 1 ДО 2 ВЫПОЛНЯТЬ СООБЩИТЬ ор[q, i, j] ВЕРНУТЬСЯ\n"
            "    ВЕРНУТЬСЯ\n"
            "ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ ДЛЯ j := 1 ДО 2 ВЫПОЛНЯТЬ ор[ДЛИНА('') + 1, i, j] := 10 * i + j ВЕРНУТЬСЯ ВЕРНУТЬСЯ\n"
            "g(1)\ng(2)\n")
    g_code = emitted(text).split("ОСТАЛЬНОЕ = ")[0].split("def g(")[1].split("\ndef ")[0]
    assert re.search(r"ор_q = ор\.get\(q\) or ор\.setdefault\(q, \{\}\)\n\s+for i in .*:\n"
                     r"\s+ор_q_i = ор_q\.get\(i\) or ор_q\.setdefault\(i, \{\}\)\n\s+for j in", g_code), g_code
    outcome = in_every_mode(text)
    assert outcome.stdout.startswith("11\n12\n21\n22\n") and outcome.error is not None


@pytest.mark.parametrize("test, shared", [
    ("d[k, 1] = 0 И d[k, 2] = 0 И d[k, 3] = 0", "if (d_k := d[k])[1] == 0 and d_k[2] == 0 and d_k[3] == 0:"),
    ("d[k, 1] = 0 ИЛИ d[k, 1] = 2", "if (d_k_1 := d[k][1]) == 0 or d_k_1 == 2:"),
    ("x = 0 И d[k, 1] = 0 И d[k, 2] = 0", None),  # its first read is made on a condition
    ("d[k, 1] = ф(1) И d[k, 2] = 0", None),  # a call might change what it reads
])
def test_an_array_read_twice_in_a_test_is_read_once_where_the_test_first_reads_it(tmp_path, test, shared):
    text = (f"ф (x) =\n    СООБЩИТЬ x\n    РЕЗУЛЬТАТ := x * 2\nПРОЧЕСТЬ k\nx := 0\nd[k, 1] := 0; d[k, 2] := 0; d[k, 3] := 0\n"
            f"ЕСЛИ {test} ТО СООБЩИТЬ 'да' ИНАЧЕ СООБЩИТЬ 'нет' КОНЕЦ_ЕСЛИ\n")
    main = emitted(text).split("def главная(")[1].split("ОСТАЛЬНОЕ = ")[0]
    if shared:
        assert shared in main, main
    else:
        assert ":=" not in main, main
    (tmp_path / "t.pseudo").write_text(text, encoding="utf-8")
    runs = [cli("run", "-q", mode, str(tmp_path / "t.pseudo"), stdin="3\n") for mode in ("--interpret", "--compiled")]
    assert runs[0].returncode == runs[1].returncode == 0
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.endswith("да\n" if shared else "\n")


@pytest.mark.parametrize("exponent", ["k", "k - 1", "k * 1000", "k * 5000", "-k", "f(k)", "u", "ЦЕЛ(k / 2)"])
@pytest.mark.parametrize("base", ["2", "3", "18446744073709551615", "18446744073709551616"])
def test_a_power_of_a_constant_base_is_pythons_for_a_small_exponent(base, exponent):
    """`2 ^ k` in the fast code: `2 ** k` when 0 ≤ k < 15,000, the runtime's `степень_целых`
    for any other exponent (a fraction, or a power too large to hold: the exact code takes
    over); a base past 64 bits is always the call. An exponent more than a variable is computed
    once, where the call computed it. Every mode prints and fails the same."""
    text = (f"f (x) =\n    СООБЩИТЬ 'f', x\n    РЕЗУЛЬТАТ := x\nЕСЛИ 1 > 2 ТО u := 1 КОНЕЦ_ЕСЛИ\nДЛЯ k := 0 ДО 4 ВЫПОЛНЯТЬ\n"
            f"    s := {base} ^ ({exponent})\n    СООБЩИТЬ k, ДЛИНА(СТРОКА(s)), s ОСТ 1000\nВЕРНУТЬСЯ\n")
    got = in_every_mode(text)
    if exponent == "u":
        assert "переменная u не получила значения" in got.error.render()
    else:
        assert got.stdout.startswith("f 0\n" if exponent == "f(k)" else "0 ")
        assert got.error is None or "слишком большое число" in got.error.render()  # 2⁶⁴ ^ 20,000
    main = emitted(text).split("def главная():")[1].split("ОСТАЛЬНОЕ = ")[0]
    if base == "18446744073709551616":
        assert "**" not in main
    elif exponent in ("k", "u"):
        assert f"{base} ** {exponent} if 0 <= {exponent} < 15000 else степень_целых({base}, {exponent})" in main, main
    else:
        assert re.search(rf"{re.escape(base)} \*\* (степень\w*) if 0 <= \(\1 := .*\) < 15000 else степень_целых\("
                         rf"{re.escape(base)}, \1\)", main), main


GROWN = """\
«добавить (x), (y)» =
    всего := всего + 1
    ДЛЯ m := 1 ДО 3 ВЫПОЛНЯТЬ d[всего, m] := x * m + y ВЕРНУТЬСЯ
обнулить (РЕЗ z) = z := 0
всего := 0
добавить 1, 2; добавить 3, 4
ДЛЯ о := 1 ДО всего ВЫПОЛНЯТЬ СООБЩИТЬ d[о, 1], d[о, 2], d[о, 3] ВЕРНУТЬСЯ
"""


@pytest.mark.parametrize("then, error", [
    ("", None),
    ("СООБЩИТЬ d[всего + 1, 1]", "не получил значения"),  # past the rows: an IndexError, handed over
    ("d[5, 2] := 7\nСООБЩИТЬ d[5, 2]\nСООБЩИТЬ d[4, 2]", "не получил значения"),  # a row made, never assigned
    ("x := d[4, 3]", "не получил значения"),  # an element copied: checked (задано)
    ("d[3000000, 1] := 5\nСООБЩИТЬ d[3000000, 1]", None),  # too many rows for a list: the exact code keeps it
    ("обнулить(d[2, 2])\nСООБЩИТЬ d[2, 2]\nобнулить(d[9, 3])\nСООБЩИТЬ d[9, 3]", None),  # a cell of an element
])
def test_an_array_whose_first_index_has_no_upper_bound_is_a_list_of_rows_that_grows(then, error):
    """`d[о, m]`, о never negative but without an upper bound (counting what the program
    found), m between bounds: the fast code keeps rows of a list that grows where an element
    is stored (`вырастить`); the readable code keeps its dict of dicts. A row past the list, an
    element never assigned, an element copied, an index too large for a list: each the same
    outcome in every mode."""
    text = GROWN + then + "\n"
    fast = emitted(text).split("ОСТАЛЬНОЕ = ")[0]
    assert "d = []" in fast and re.search(r"\(d\[всего\] if всего < len\(d\) else вырастить\(d, всего, \(4,\)\)\)\[m\] = ",
                                          fast), fast
    assert "d = {}" in emitted(text, limits=False)
    got = in_every_mode(text)
    assert got.stdout.startswith("3 4 5\n7 10 13\n"), got.stdout
    assert (error in got.error.render()) if error else got.error is None, got.error and got.error.render()


NAME_AND_NUMBER = ("ПРОЧЕСТЬ имя, n\ns := 0\nДЛЯ i := 1 ДО 1000 ВЫПОЛНЯТЬ s := s + i ОСТ n ВЕРНУТЬСЯ\n"
                   "СООБЩИТЬ имя, s\n")
READ_AGAIN = ("«прочесть целое (РЕЗ x)» =\n    ПРОЧЕСТЬ x\n    ПОКА ВИД(x) ≠ 'целое' ВЫПОЛНЯТЬ\n"
              "        СООБЩИТЬ 'нужно целое, а набрано «' + СТРОКА(x) + '»:',\n        ПРОЧЕСТЬ x\n    ВЕРНУТЬСЯ\n"
              "прочесть целое n\ns := 0\nДЛЯ i := 1 ДО n ВЫПОЛНЯТЬ s := s + i * n ВЕРНУТЬСЯ\nСООБЩИТЬ s\n")


@pytest.mark.parametrize("text, stdin, printed, reads", [
    (NAME_AND_NUMBER, "Анна 5", "Анна 2000\n", ["прочесть('имя')", "прочесть_целое('n')"]),
    (NAME_AND_NUMBER, "7 5", "7 2000\n", ["прочесть('имя')", "прочесть_целое('n')"]),
    (READ_AGAIN, "пять 5", "нужно целое, а набрано «пять»:\n75\n", ["прочесть('x')"]),
], ids=["word", "number", "read-again"])
def test_a_value_read_is_guarded_as_an_integer_only_where_the_program_counts_with_it(
        monkeypatch, tmp_path, text, stdin, printed, reads):
    """A name typed for a variable only printed is no reason to run the whole program again
    in the exact code (3–4 times slower); nor is a word the program itself reads again until
    ВИД says it is an integer. A read N the program counts with keeps its guard: the fast
    code takes it to be an integer. Every mode prints the same."""
    from pseudo.runtime import runner
    handed = []
    real = runner._handed_over
    monkeypatch.setattr(runner, "_handed_over", lambda e, hands_over: handed.append(e) or real(e, hands_over))
    for mode in MODES:
        got = run_text(text, stdin, mode=mode)
        assert (got.stdout, got.error) == (printed, None), mode
    assert handed == []
    for limits in (False, True):
        source = emitted(text, limits=limits)
        assert all(f"= {read}" in source for read in reads), source.split("# ==== среда")[0]
        assert run_emitted_here(source, tmp_path / "t.py", stdin) == (printed, "", 0)
