"""Programs that do not end (DIALECT.md, «Programs that do not end») are answered in seconds,
with their cause, in every mode — and a program that ends is never taken for one.

- a ПОКА whose condition nothing in its body can change: a warning, and a stop at its second
  turn (analysis/loops.py; golden tests/golden/runtime/endless_while.pseudo);
- a run that comes back to the same point in the same state: a stop there (runtime/limits.py,
  Watch), tested here with the watch starting early and looking often;
- the step limit names the line that took the most steps; Ctrl-C shows where the program was;
- a run that goes on for seconds without reading, printing or pausing is told, once, where it
  is (a loop whose state never comes back: `x := x + 1`).
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time

import pytest
from conftest import LONG, MODES, ROOT, cli, run_text
from hypothesis import HealthCheck, given, settings
from terminal import Terminal
from test_agreement import programs

import pseudo
from pseudo import execute
from pseudo.errors import PseudoRuntimeError, StaticError
from pseudo.frontend.source import Source
from pseudo.pygen.emit import python_source
from pseudo.runtime import Limits, limits


@contextlib.contextmanager
def watching_early(after: int = 1 << 10, every: int = 97):
    """The watch from the `after`th step, looking every `every` steps (a short test program
    comes back long before the 2^20 steps a run waits)."""
    saved = limits.WATCH_AFTER, limits.CHECK_EVERY
    limits.WATCH_AFTER, limits.CHECK_EVERY = after, every
    try:
        yield
    finally:
        limits.WATCH_AFTER, limits.CHECK_EVERY = saved


def outcome(text: str, mode: str, max_steps: int = 2_000_000, stdin: str = ""):
    """(output, the first line of the error or None) of a run."""
    loaded = pseudo.load(Source(text, "п.pseudo"))
    out = io.StringIO()
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, mode=mode, limits=Limits(max_steps=max_steps))
    except PseudoRuntimeError as e:
        return out.getvalue(), e.render()
    return out.getvalue(), None


# ---- the ПОКА whose condition cannot change (static) ----

ENDLESS = {
    "plain": "i := 1; s := 0\nПОКА i ≤ 10 ВЫПОЛНЯТЬ s := s + i ВЕРНУТЬСЯ\n",
    "an element": "t[1] := 0; k := 1\nПОКА t[k] = 0 ВЫПОЛНЯТЬ u[k] := 1 ВЕРНУТЬСЯ\n",
    "a local": "f (n) =\n    ПОКА n > 0 ВЫПОЛНЯТЬ f(n - 1) ВЕРНУТЬСЯ\nf(2)\n",
    "a call that changes others": "g =\n    s := s + 1\ni := 1; s := 0\nПОКА i < 3 ВЫПОЛНЯТЬ g ВЕРНУТЬСЯ\n",
}
ENDING = {
    "assigned": "i := 1\nПОКА i ≤ 3 ВЫПОЛНЯТЬ i := i + 1 ВЕРНУТЬСЯ\n",
    "read": "i := 1\nПОКА i ≠ 0 ВЫПОЛНЯТЬ ПРОЧЕСТЬ i ВЕРНУТЬСЯ\n",
    "a РЕЗ argument": "inc (РЕЗ x) = x := x + 1\ni := 1\nПОКА i ≤ 3 ВЫПОЛНЯТЬ inc(i) ВЕРНУТЬСЯ\n",
    "a call that assigns it": "g =\n    i := i + 1\ni := 1\nПОКА i ≤ 3 ВЫПОЛНЯТЬ g ВЕРНУТЬСЯ\n",
    "a call that ends the program": "g =\n    КОНЕЦ_РАБОТЫ\ni := 1\nПОКА i ≤ 3 ВЫПОЛНЯТЬ g ВЕРНУТЬСЯ\n",
    "КОНЧЕНО": "i := 1\nВЫПОЛНЯТЬ\n    ПОКА i ≤ 3 ВЫПОЛНЯТЬ КОНЧЕНО ВЕРНУТЬСЯ\nВЕРНУТЬСЯ\n",
    "a transfer": "i := 1\nА: ПОКА i ≤ 3 ВЫПОЛНЯТЬ Б ВЕРНУТЬСЯ\nБ: i := 5\n",
    "a ДЛЯ of its variable": "i := 1\nПОКА i ≤ 3 ВЫПОЛНЯТЬ ДЛЯ i := 4 ДО 5 ВЫПОЛНЯТЬ ВЕРНУТЬСЯ ВЕРНУТЬСЯ\n",
    "random numbers": "i := 1\nПОКА СЛУЧАЙНОЕ(2) = 1 ВЫПОЛНЯТЬ i := 1 ВЕРНУТЬСЯ\n",
    "the end of input": "ПОКА НЕ ввод кончился ВЫПОЛНЯТЬ ПРОЧЕСТЬ x ВЕРНУТЬСЯ\n",
    "a РЕЗ parameter and a global": "f (РЕЗ x) =\n    ПОКА x < 3 ВЫПОЛНЯТЬ g := g + 1 ВЕРНУТЬСЯ\ng := 0\nf(g)\n",
    "two РЕЗ parameters": "f (РЕЗ x, РЕЗ y) =\n    ПОКА x < 3 ВЫПОЛНЯТЬ y := y + 1 ВЕРНУТЬСЯ\na := 0\nf(a, a)\n",
    "ПОКА ИСТИНА": "ПОКА ИСТИНА ВЫПОЛНЯТЬ КОНЕЦ_РАБОТЫ ВЕРНУТЬСЯ\n",
}


@pytest.mark.parametrize("name", ENDLESS)
def test_a_loop_whose_condition_cannot_change_is_warned_about_and_stops_at_its_second_turn(name):
    loaded = pseudo.load(Source(ENDLESS[name], "п.pseudo"))
    assert [w.code for w in loaded.warnings] == ["endless-while"]
    for mode in MODES:
        _, error = outcome(ENDLESS[name], mode)
        assert "цикл не кончится" in error and "не меня" in error, (mode, error)


@pytest.mark.parametrize("name", ENDING)
def test_a_loop_whose_condition_may_change_is_not(name):
    try:
        loaded = pseudo.load(Source(ENDING[name], "п.pseudo"))
    except StaticError as e:
        pytest.fail(e.render())
    assert "endless-while" not in [w.code for w in loaded.warnings]
    for mode in MODES:
        _, error = outcome(ENDING[name], mode, stdin="1 0\n")
        assert error is None or "не кончится" not in error, (mode, error)


def test_the_warning_names_the_variables_and_the_condition():
    warnings = pseudo.load(Source(ENDLESS["plain"], "п.pseudo")).warnings
    assert warnings[0].text == "i не меняется в цикле «ПОКА i ≤ 10»: если условие верно в начале, цикл не кончится"
    assert "i := i + 1" in warnings[0].hint


# ---- a state that comes back ----

CYCLES = {  # name: (program, the place it stops at, values it shows)
    "ПОКА, где условие меняется только иногда": (
        "i := 1\nПОКА i ≤ 10 ВЫПОЛНЯТЬ\n    ЕСЛИ i ОСТ 2 = 0 ТО i := i + 1 КОНЕЦ_ЕСЛИ\nВЕРНУТЬСЯ\n", "2:1", "(i = 1)"),
    "автомат": (
        "x := 0\nА: ЕСЛИ x > 5 ТО Я ИНАЧЕ x := x + 1 КОНЕЦ_ЕСЛИ\n   ЕСЛИ x = 3 ТО x := 2 КОНЕЦ_ЕСЛИ\n   Б\nБ: А\n",
        "2:1", "(x = 2)"),
    "цикл, который зовёт процедуру с циклом": (
        ("показать (n) =\n    ДЛЯ k := 1 ДО 3 ВЫПОЛНЯТЬ t[k] := n ВЕРНУТЬСЯ\nшаг (x) = (x * 2) ОСТ 7\nx := 1\n"
         "ПОКА x ≠ 0 ВЫПОЛНЯТЬ\n    показать(x)\n    x := шаг(x)\nВЕРНУТЬСЯ\n"), "5:1", "(x = "),
    "цикл в процедуре с РЕЗ": (
        ("ждать (РЕЗ v) =\n    ВЫПОЛНЯТЬ\n        ЕСЛИ v = 10 ТО КОНЧЕНО КОНЕЦ_ЕСЛИ\n        v := (v + 2) ОСТ 6\n"
         "    ВЕРНУТЬСЯ\na := 1\nждать(a)\n"), "2:5", "v = "),
    "автомат в процедуре": (
        ("f (n) =\n    С: ЕСЛИ n > 100 ТО Я КОНЕЦ_ЕСЛИ\n       n := (n + 1) ОСТ 4\n       ЕСЛИ n = 0 ТО Д ИНАЧЕ С "
         "КОНЕЦ_ЕСЛИ\n    Д: n := 1; С\nf(1)\n"), "5:5", "(n = 0)"),
}


@pytest.mark.parametrize("name", CYCLES)
def test_a_state_that_comes_back_stops_the_run_with_the_same_message_in_every_mode(name):
    text, place, values = CYCLES[name]
    with watching_early():
        results = [outcome(text, mode) for mode in MODES]
    assert results[0] == results[1] == results[2], results
    error = results[0][1]
    assert "программа зациклилась" in error and f"п.pseudo:{place}" in error and values in error, error


@pytest.mark.parametrize("max_steps", [1_000_000, 100_000, 10_000])
def test_a_state_that_comes_back_is_told_before_a_step_limit_below_the_watch_s_start(max_steps):
    """The watch begins by half the step limit: a limit under its 2^20 steps (a task's) stopped
    a repeating program at the limit, «превышен предел шагов», in every mode."""
    text = "А: s := 0; Б\nБ: s := 1; А\n"
    results = [outcome(text, mode, max_steps=max_steps) for mode in MODES]
    assert results[0] == results[1] == results[2], results
    assert "программа зациклилась" in results[0][1], results[0][1]


NOT_CYCLES = {
    "вывод растёт": "ВЫПОЛНЯТЬ СООБЩИТЬ 'a', ВЕРНУТЬСЯ\n",
    "случайные числа": "ВЫПОЛНЯТЬ x := СЛУЧАЙНОЕ(2) ВЕРНУТЬСЯ\n",
    "счётчик": "x := 0; y := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := (x + 1) ОСТ 3; y := y + 1 ВЕРНУТЬСЯ\n",
    "ввод": "ВЫПОЛНЯТЬ ПРОЧЕСТЬ x; x := 0 ВЕРНУТЬСЯ\n",
}
ENDING_LATE = {  # states that look alike, but the run ends
    "ДЛЯ, чья переменная меняется в теле": (
        "s := 0\nДЛЯ i := 1 ДО 3000 ВЫПОЛНЯТЬ\n    i := 0\n    ДЛЯ j := 1 ДО 3 ВЫПОЛНЯТЬ s := 1 ВЕРНУТЬСЯ\nВЕРНУТЬСЯ\n"
        "СООБЩИТЬ 'конец'\n"),
    "значение, которое ждёт в выражении": (
        "f = x\ng =\n    x := 0\n    ДЛЯ j := 1 ДО 50 ВЫПОЛНЯТЬ y := 1 ВЕРНУТЬСЯ\n    РЕЗУЛЬТАТ := 1\n"
        "x := 0; n := 0\nПОКА n < 300 ВЫПОЛНЯТЬ n := f + g + n ВЕРНУТЬСЯ\nСООБЩИТЬ 'конец'\n"),
    "рекурсия, которая возвращается": (
        "f (n) = ЕСЛИ n = 0 ТО 0 ИНАЧЕ f(n - 1) КОНЕЦ_ЕСЛИ\nДЛЯ k := 1 ДО 2000 ВЫПОЛНЯТЬ x := f(5) ВЕРНУТЬСЯ\n"
        "СООБЩИТЬ 'конец'\n"),
}


@pytest.mark.parametrize("name", NOT_CYCLES)
def test_a_run_whose_output_input_or_random_numbers_move_on_is_not_a_cycle(name):
    with watching_early():
        for mode in MODES:
            _, error = outcome(NOT_CYCLES[name], mode, max_steps=30_000, stdin="1 " * 40_000)
            assert error is not None and "зациклилась" not in error, (mode, error)


@pytest.mark.parametrize("name", ENDING_LATE)
def test_a_run_that_ends_is_never_stopped_as_a_cycle(name):
    with watching_early(after=64, every=7):
        for mode in MODES:
            assert outcome(ENDING_LATE[name], mode) == ("конец\n", None), mode


@settings(max_examples=300 if LONG else 60, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_random_programs_stopped_as_cycles_never_end_and_every_mode_says_the_same(text):
    """Random programs (test_agreement's), watched from their 64th step and looked at every 7
    steps: every mode stops at the same look; and a program stopped as a cycle, run again
    unwatched for ten times as long, never ends."""
    try:
        pseudo.load(Source(text, "п.pseudo"))
    except StaticError:
        return
    with watching_early(after=64, every=7):
        results = [outcome(text, mode, max_steps=3_000) for mode in MODES]
    assert results[0] == results[1] == results[2], text
    if results[0][1] is not None and "зациклилась" in results[0][1]:
        with watching_early(after=10 ** 9):
            _, error = outcome(text, "compiled", max_steps=30_000)
        assert error is not None and "предел шагов" in error, (text, error)


def test_the_endless_loop_of_the_issue_stops_at_once_in_every_mode_and_the_emitted_file(tmp_path):
    """The static check's loop, and one only the run can see, at the real start of the watch
    (in the file with limits: the readable file counts no steps, and Ctrl-C stops it)."""
    seen = "i := 1\nПОКА i ≤ 10 ВЫПОЛНЯТЬ\n    ЕСЛИ i ОСТ 2 = 0 ТО i := i + 1 КОНЕЦ_ЕСЛИ\nВЕРНУТЬСЯ\n"
    path = tmp_path / "п.pseudo"
    path.write_text(seen, encoding="utf-8")
    assert cli("py", "-q", "--limits", str(path), "-o", str(tmp_path / "п.py")).returncode == 0
    for argv in (["-m", "pseudo", "run", "-q", str(path)], [str(tmp_path / "п.py")]):
        started = time.monotonic()
        result = subprocess.run([sys.executable, *argv], capture_output=True, text=True, encoding="utf-8",
                                cwd=ROOT, timeout=60, check=False)
        assert result.returncode == 70 and "программа зациклилась" in result.stderr and "(i = 1)" in result.stderr
        assert time.monotonic() - started < 20


# ---- the step limit, Ctrl-C ----

def test_the_step_limit_names_the_line_that_took_the_most_steps():
    text = "n := 0\nх (k) = k + 1\nПОКА n ≥ 0 ВЫПОЛНЯТЬ\n    n := х(n)\nВЕРНУТЬСЯ\n"
    errors = {run_text(text, limits=Limits(max_steps=100_000), mode=mode).error.render() for mode in MODES}
    assert len(errors) == 1, errors
    error = errors.pop()
    assert "превышен предел шагов (100000); больше всего шагов — в строке " in error
    assert "подсказка: похоже, программа не кончается" in error and "только если" in error


def test_ctrl_c_in_a_terminal_starts_its_own_line_and_shows_the_call(tmp_path):
    path = tmp_path / "п.pseudo"
    path.write_text("спросить (n) =\n    СООБЩИТЬ 'число:',\n    ПРОЧЕСТЬ x\nспросить(7)\n", encoding="utf-8")
    for argv in (["run"], ["run", "--interpret"]):
        with Terminal([sys.executable, "-m", "pseudo", *argv, str(path)], width=250, cwd=str(ROOT)) as term:
            term.wait_for("число:")
            term.send("C-c")
            screen, code, _ = term.wait()
        lines = [line for line in screen if line]
        assert code == 130
        assert lines[0].startswith("число:^C") and lines[1].endswith("п.pseudo:3:5: ошибка: выполнение прервано (Ctrl-C)")
        assert "спросить(7)" in lines[-1]


INTERRUPTED_AT = {  # Python run with a Ctrl-C at a known point of an emitted file's start, then the file
    "compiling the runtime": (
        "import builtins\nreal = builtins.compile\n"
        "def compile(source, filename, *rest, **named):\n"
        "    if filename == sys.argv[0] and isinstance(source, str) and source.startswith('\\n\\n'):  # код_среды's, of the runtime's text\n"
        "        raise KeyboardInterrupt\n"
        "    return real(source, filename, *rest, **named)\n"
        "builtins.compile = compile\n"),
    "reading its options": (  # the file imports argparse only for options
        "import types\nclass Interrupted(types.ModuleType):\n"
        "    def __getattr__(self, name):\n        raise KeyboardInterrupt\n"
        "sys.modules['argparse'] = Interrupted('argparse')\n"),
}


@pytest.mark.parametrize("limits", [False, True], ids=["readable", "limits"])
@pytest.mark.parametrize("point", INTERRUPTED_AT)
def test_ctrl_c_as_an_emitted_file_starts_is_told_as_a_run_tells_it(tmp_path, point, limits):
    """Compiling the runtime takes a tenth of a second when no bytecode is kept: a Ctrl-C then,
    or while the options are read, is the run's message and exit code, not a traceback."""
    from pseudo.runtime.messages import RUNTIME_MESSAGES
    path = tmp_path / "п.py"
    loaded = pseudo.load(Source("СООБЩИТЬ 'начало'\n", "п.pseudo"))
    path.write_text(python_source(loaded, "п.pseudo", limits=limits), encoding="utf-8")
    start = f"import runpy, sys\nsys.argv = sys.argv[1:]\n{INTERRUPTED_AT[point]}runpy.run_path(sys.argv[0], run_name='__main__')\n"
    result = subprocess.run([sys.executable, "-c", start, str(path), "--seed", "1"], capture_output=True, text=True,
                            encoding="utf-8", env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, timeout=60,
                            check=False)
    assert (result.returncode, result.stdout, result.stderr) == (130, "", f"ошибка: {RUNTIME_MESSAGES['interrupted']}\n")


# ---- a run that goes on quietly is told where it is ----

GROWING = "x := 1\nПОКА x > 0 ВЫПОЛНЯТЬ\n    x := x + 1\nВЕРНУТЬСЯ\n"  # no state comes back


def told(text: str, mode: str, stdin=None, time_limit: float = 1.0):
    """(the notices written, the first line of the error) of a run stopped by its time limit,
    told after 0.2 s of quiet."""
    notices = io.StringIO()
    try:
        execute.run(pseudo.load(Source(text, "п.pseudo")), stdin=stdin or io.StringIO(""), stdout=io.StringIO(),
                   mode=mode, limits=Limits(time_limit=time_limit), notices=notices)
    except PseudoRuntimeError as e:
        return notices.getvalue(), e.render().splitlines()[0]
    return notices.getvalue(), None


@pytest.mark.parametrize("mode", [*MODES, "reference"])
def test_a_loop_that_goes_on_quietly_is_told_where_it_is_in_every_mode(mode, monkeypatch):
    monkeypatch.setattr(execute, "NOTICE_AFTER", 0.2)
    notices, error = told(GROWING, mode)
    assert notices.splitlines()[:3] == [
        "п.pseudo:2:1: замечание: программа уже 0.2 с ничего не читает и не печатает; сейчас она здесь",
        "    2 | ПОКА x > 0 ВЫПОЛНЯТЬ",
        "      | ^~~~~~~~~~~~~~~~~~~~"], notices
    assert "Ctrl-C" in notices and "--time-limit" in notices and notices.count("замечание") == 1
    assert error == "п.pseudo:2:1: ошибка: превышен предел времени (1 с); увеличьте его параметром --time-limit"


class SlowInput(io.StringIO):
    """Standard input whose every line takes a while to come, as a pupil's typing does."""

    def readline(self, *args):
        time.sleep(0.3)
        return super().readline(*args)


@pytest.mark.parametrize("mode", ["interpret", "compiled"])
def test_a_run_that_reads_or_prints_is_not_told(mode, monkeypatch):
    monkeypatch.setattr(execute, "NOTICE_AFTER", 0.2)
    printing = "x := 1\nПОКА x > 0 ВЫПОЛНЯТЬ\n    x := x + 1\n    ЕСЛИ x ОСТ 1000 = 0 ТО СООБЩИТЬ x КОНЕЦ_ЕСЛИ\nВЕРНУТЬСЯ\n"
    assert told(printing, mode)[0] == ""
    reading = "ПОКА НЕ ввод кончился ВЫПОЛНЯТЬ ПРОЧЕСТЬ x ВЕРНУТЬСЯ\nСООБЩИТЬ x\n"
    assert told(reading, mode, SlowInput("1\n2\n3\n4\n"), time_limit=5) == ("", None)


def test_pseudo_run_tells_within_seconds_and_quiet_runs_do_not(tmp_path):
    """The real wait, through the cache's path of `pseudo run`; -q keeps it quiet."""
    path = tmp_path / "п.pseudo"
    path.write_text(GROWING, encoding="utf-8")
    runs = [subprocess.Popen([sys.executable, "-m", "pseudo", "run", *quiet, "--time-limit", "6.5", str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", cwd=ROOT)
            for quiet in ([], ["-q"])]
    (_, told_err), (_, quiet_err) = (run.communicate(timeout=60) for run in runs)
    assert "п.pseudo:2:1: замечание: программа уже 5 с ничего не читает" in told_err
    assert told_err.index("замечание") < told_err.index("ошибка: превышен предел времени (6.5 с)")
    assert "замечание" not in quiet_err and "превышен предел времени" in quiet_err


@pytest.mark.parametrize("mode", ["reference", "interpret", "compiled", "exact"])
def test_an_input_without_end_stops_at_the_input_limit_in_every_mode(monkeypatch, mode):
    """`yes 1 | pseudo run` once kept every line read (for a run begun again) until memory ran
    out. The run now stops at MAX_INPUT characters read, with its place, in every mode (here
    the limit made small; the command line meets the real one below)."""
    from pseudo.runtime import io as runtime_io
    monkeypatch.setattr(runtime_io, "MAX_INPUT", 1000)
    text = "s := 0\nПОКА НЕ ввод кончился ВЫПОЛНЯТЬ ПРОЧЕСТЬ x; s := s + x ВЕРНУТЬСЯ\nСООБЩИТЬ s\n"
    done = run_text(text, "1\n" * 600, mode=mode)
    assert done.error is not None and done.error.exit_code == 70
    said = done.error.render()
    assert said.startswith("t.pseudo:2:9: ошибка: ввод длиннее 1 000 знаков: столько pseudo не читает"), said
    assert "подсказка: дайте программе ввод из файла, который кончается" in said
    assert run_text(text, "1\n" * 400, mode=mode).stdout == "400\n"


def test_a_line_of_dev_zero_is_read_up_to_the_limit_not_until_memory_runs_out(tmp_path):
    program = tmp_path / "п.pseudo"
    program.write_text("ПРОЧЕСТЬ СТРОКУ s\nСООБЩИТЬ ДЛИНА(s)\n", encoding="utf-8")
    emitted = tmp_path / "п.py"
    assert cli("py", "-q", "--limits", str(program), "-o", str(emitted)).returncode == 0
    said = set()
    for argv in ([sys.executable, "-m", "pseudo", "run", str(program)],
                 [sys.executable, "-m", "pseudo", "run", "--interpret", str(program)], [sys.executable, str(emitted)]):
        with open("/dev/zero", "rb") as zero:
            done = subprocess.run(argv, stdin=zero, capture_output=True, text=True, encoding="utf-8", cwd=ROOT,
                                  timeout=120, check=False)
        assert done.returncode == 70, done.stderr
        said.add(done.stderr)
    assert len(said) == 1 and "п.pseudo:1:1: ошибка: ввод длиннее 10 000 000 знаков" in said.pop()
