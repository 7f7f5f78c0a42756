"""`pseudo step` driven through a pseudo-terminal with scripted keys."""
from __future__ import annotations

import codecs
import os
import pty
import select
import subprocess
import sys
import time

import pytest
from conftest import PROGRAMS, ROOT

import pseudo
from pseudo.frontend.source import Source
from pseudo.runtime import Limits
from pseudo.tools.recording import Recording
from pseudo.tools.stepper import Stepper


class Terminal:
    def __init__(self, *args: str):
        self.master, slave = pty.openpty()
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="dumb")
        self.proc = subprocess.Popen([sys.executable, "-m", "pseudo", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=ROOT, env=env, close_fds=True)
        os.close(slave)
        self.buffer = ""
        self.decode = codecs.getincrementaldecoder("utf-8")("replace").decode  # a character may come in two reads

    def until(self, text: str, timeout: float = 20) -> str:
        end = time.monotonic() + timeout
        while text not in self.buffer:
            left = end - time.monotonic()
            assert left > 0, f"no «{text}» in: {self.buffer[-800:]}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    self.buffer += self.decode(os.read(self.master, 65536))
                except OSError:
                    break
        before, _, self.buffer = self.buffer.partition(text)
        return before

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode("utf-8"))

    def close(self) -> int:
        self.send("q\n")
        code = self.proc.wait(timeout=20)
        os.close(self.master)
        return code


def step_number(screen: str) -> int:
    return int(screen.split("шаг ")[1].split()[0])


def test_stepper_next_into_out_back_print_continue():
    t = Terminal("step", "programs/queens_recursive.pseudo")
    screen = t.until("(шаг) ")
    assert "шаг 1 из" in screen and "→  47 | инициализировать игру" in screen
    t.send("\n")  # next, over the phrase call
    screen = t.until("(шаг) ")
    assert "шаг" in screen and "→  48 | HR (1)" in screen
    t.send("s\n")  # into HR(1)
    screen = t.until("(шаг) ")
    assert "глубина 1" in screen and "стек: HR(1)" in screen and "→  12 |" in screen
    t.send("p k + 1\n")
    assert t.until("(шаг) ").strip().endswith("2")
    t.send("c 16\n")  # continue to the line of HR(к + 1)
    screen = t.until("(шаг) ")
    assert "→  16 |" in screen
    t.send("s\n")
    t.until("(шаг) ")
    t.send("o\n")  # out of HR(2), back in HR(1) after the call
    screen = t.until("(шаг) ")
    assert "глубина 1" in screen and "→  18 |" in screen
    after_out = step_number(screen)
    t.send("b\n")  # back one step: the last statement run inside the call
    screen = t.until("(шаг) ")
    assert step_number(screen) == after_out - 1 and "глубина 1" not in screen
    t.send("p c[1]\n")
    assert t.until("(шаг) ").strip().endswith("1")
    assert t.close() == 0


def test_stepper_shows_what_the_program_prints(tmp_path):
    stdin = tmp_path / "ввод.txt"
    stdin.write_text("3 -4 слово\n5/2 1,5\n", encoding="utf-8")
    t = Terminal("step", "tests/golden/statements/print_read.pseudo", "--input", str(stdin))
    t.until("(шаг) ")
    t.send("c 9\n")  # past the first СООБЩИТЬ
    screen = t.until("(шаг) ")
    assert "вывод » " in screen
    t.send("c\n")  # to the end
    t.until("(шаг) ")
    t.send("w\n")
    screen = t.until("(шаг) ")
    assert "вывод » a b c" in screen
    assert t.close() == 0


# ---- the stepper in this process, with scripted commands ----

HANOI = ROOT / "tests" / "programs" / "hanoi.pseudo"


def session(path, *commands: str, stdin: str = "") -> str:
    """What `pseudo step` shows for these commands, ended by q."""
    loaded = pseudo.load(Source.from_file(path))
    shown: list[str] = []
    script = iter([*commands, "q"])

    def read(prompt: str) -> str:
        shown.append(prompt)
        return next(script)
    Stepper(Recording(loaded, Limits(), None, stdin), loaded, shown.append, read).run()
    return "".join(shown)


@pytest.mark.parametrize("keys", [["c"], ["n"] * 40, ["s"] * 100, ["o", "c 26", "n"]], ids=["c", "n", "s", "o"])
def test_the_end_is_a_stop_and_shows_the_last_output(keys):
    """Run to the end with any command: the output of the last statement is shown."""
    text = session(HANOI, *keys, "w")
    end = text.index("шаг 96 из 96 · конец программы")
    assert "вывод » Всего ходов: 7\n" in text[:end]
    assert text.rstrip().endswith("вывод » Всего ходов: 7\n(шаг)".rstrip())


def test_at_the_end_moving_on_says_so_and_back_shows_the_output_again():
    text = session(HANOI, "c", "n", "b", "n")
    assert "программа закончилась; b — шаг назад" in text
    assert text.count("вывод » Всего ходов: 7") == 2


def test_a_line_with_several_statements_marks_the_current_one():
    text = session(HANOI, "n")
    first, second = text.split("(шаг) ")[0], text.split("(шаг) ")[1]
    assert " →  20 | n := 3; ходов := 0\n       | ^~~~~~\n" in first
    assert " →  20 | n := 3; ходов := 0\n       |         ^~~~~~~~~~\n" in second
    lone = session(HANOI, "c 21").split("(шаг) ")[1]
    assert " →  21 | ДЛЯ h := 1 ДО n ВЫПОЛНЯТЬ\n    22 |" in lone  # alone on its line: no marker


def test_a_stop_says_what_the_last_step_changed():
    parts = session(HANOI, "n", "n", "c 24", "b").split("(шаг) ")
    assert parts[1].startswith("изменилось: n := 3\n")
    assert parts[2].startswith("изменилось: ходов := 0\n")
    assert "изменилось: h := 3; башня[1, 1] := 3;" in parts[3]  # a continue: every change, each once
    assert parts[4].startswith("изменилось: башня[2, 3] := 0\n")  # back: what the statement before it did
    over = session(HANOI, "c 25", "n").split("(шаг) ")[2]  # over the whole recursion
    assert "ходов: 0 → 7" in over and "высота[3]: 0 → 3" in over


def test_continue_to_a_procedure_a_state_or_a_line_that_does_not_exist():
    text = session(HANOI, "c ХАНОЙ", "c перенести", "c 99", "c 6", "c", "c 8", "c ХАНОЙ", "c СОК")
    parts = text.split("(шаг) ")
    assert "стек: ХАНОЙ(3, 1, 3, 2)\n" in parts[1] and " →   8 |" in parts[1]
    assert "«перенести» — не номер строки, не состояние автомата и не процедура этой программы" in parts[2]
    assert "в файле" in parts[3] and "нет строки 99: в нём 26 строк" in parts[3]
    assert "на строке 6 нет инструкций" in parts[4]
    assert "строка 8 больше не выполняется" in parts[6]
    assert "процедура ХАНОЙ больше не вызывается" in parts[7]
    assert "«СОК» — не номер строки" in parts[8]
    queens = session(PROGRAMS / "queens_recursive.pseudo", "c HR", "c занять k, i", "c 17", "c занять")
    assert "стек: HR(1)\n" in queens.split("(шаг) ")[1]
    assert "стек: HR(1) → «занять 1, 1»" in queens.split("(шаг) ")[2]
    assert "стек: HR(1) → HR(2) → «занять 2, 3»" in queens.split("(шаг) ")[4]
    automaton = session(ROOT / "tests" / "programs" / "bubble_automaton.pseudo", "c ИТОГ", "c 20000", "c ПРОХОД")
    assert "состояние ИТОГ" in automaton.split("(шаг) ")[1]
    assert "нет строки 20000: в нём 15 строк" in automaton


def test_stepper_to_the_end_in_a_terminal():
    t = Terminal("step", "tests/programs/hanoi.pseudo")
    t.until("(шаг) ")
    t.send("c\n")
    screen = t.until("(шаг) ")
    assert "вывод » Всего ходов: 7" in screen and "конец программы" in screen
    t.send("w\n")
    assert "вывод » Всего ходов: 7" in t.until("(шаг) ")
    assert t.close() == 0


EUCLID = "НОД (a, b) = ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ\nx := 15; y := 6\nСООБЩИТЬ НОД(x, y)\n"


def test_a_one_line_function_is_a_step_to_enter_and_leave(tmp_path):
    path = tmp_path / "нод.pseudo"
    path.write_text(EUCLID, encoding="utf-8")
    parts = session(path, "c 3", "s", "s", "s", "s", "s", "s", "o", "o", "b", "c 1").split("(шаг) ")
    assert "вычисляется значение НОД(15, 6)\n →   1 |" in parts[2]
    assert "       |              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n" in parts[2]  # the whole body
    assert "условие ложно: вычисляется ветвь ИНАЧЕ" in parts[3]
    assert "       |                                    ^~~~~~~~~~~~~~~\n" in parts[3]  # НОД(b, a ОСТ b)
    assert "стек: НОД(15, 6) → НОД(6, 3)\nвычисляется значение НОД(6, 3)" in parts[4]
    assert "глубина 3" in parts[7] and "условие истинно: вычисляется ветвь ТО" in parts[7]
    assert "глубина 2" in parts[8] and "значение НОД(6, 3) = 3" in parts[8]  # out of one call
    assert "глубина 1" in parts[9] and "значение НОД(15, 6) = 3" in parts[9]
    assert "значение НОД(6, 3) = 3" in parts[10]  # back
    assert "не выполняется" not in parts[11] and "→   1 |" in parts[11]  # a line of a one-line body
    over = session(path, "c 3", "n").split("(шаг) ")[2]
    assert "вывод » 3" in over and "конец программы" in over  # over the whole recursion


def test_print_evaluates_built_ins_phrases_and_elements_or_says_why_not(tmp_path):
    """p evaluates what the program could evaluate there, and says why not in the program's
    words; the session goes on after each refusal."""
    queens = session(PROGRAMS / "queens_recursive.pseudo", "c занять", "c занять",  # «занять 2, 3» in HR(2)
                     "p место k, i свободно", "p c[k - 1] + ДЛИНА('кот')", "p ДЛИНА('кот')", "p НЕ кол[i]",
                     "p a[1]", "p k[1]", "p HR", "p zz", "p МИНН(1, 2)", "p k :=", "p k := 1",
                     "p выписать решение", "p k + 1").split("(шаг) ")
    assert [part.strip() for part in queens[3:]] == [
        "ИСТИНА", "4", "3", "ЛОЖЬ",
        "не вычислить: в программе нет массива a",
        ("не вычислить: k — параметр или переменная цикла; массивом она быть не может; назовите массив иначе, "
         "чем параметры и переменные циклов"),
        "не вычислить: HR ожидает 1 аргумент, а передано 0; HR определена в строке 11: HR (k) =",
        "не вычислить: в программе нет переменной zz",
        "не вычислить: неизвестная процедура или функция МИНН; может быть, МИН?",
        "не вычислить: текст кончился раньше времени; допишите значение после «:=»: k := 0",
        "не вычислить: k := 1 — не выражение, а инструкция; p показывает значение выражения",
        "вывод » 1\nне вычислить: элемент c[2] не получил значения",  # a procedure runs: what it prints
        "3", ""]
    path = tmp_path / "x.pseudo"
    path.write_text("x := 5\nСООБЩИТЬ x\n", encoding="utf-8")
    plain = session(path, "n", "p x[1]", "p a[1]", "p ДЛИНА('кот')", "p x").split("(шаг) ")
    assert [part.strip() for part in plain[2:]] == [
        ("не вычислить: x используется и как переменная (строка 1), и как массив; дайте переменной и массиву "
         "разные имена"),
        "не вычислить: в программе нет массива a", "3", "5", ""]


def test_print_of_an_array_lists_its_elements():
    """`p c` shows the board, which the language cannot name whole: each element given so far."""
    queens = session(PROGRAMS / "queens_recursive.pseudo", "c HR", "c HR", "c HR", "p c", "p кол", "p k")
    assert [part.strip() for part in queens.split("(шаг) ")[-4:-1]] == [
        "c[1] = 1; c[2] = 3",
        "; ".join(f"кол[{i}] = {'ЛОЖЬ' if i in (1, 3) else 'ИСТИНА'}" for i in range(1, 9)), "3"]
    hanoi = session(ROOT / "tests/programs/hanoi.pseudo", "c ХАНОЙ", "p башня").split("(шаг) ")
    assert hanoi[-2].strip().startswith("башня[1, 1] = 3; башня[1, 2] = 2; башня[1, 3] = 1"), hanoi[-2]


def test_lists_wrap_between_their_items_in_a_narrow_terminal():
    """At 80 columns «изменилось: …» breaks between two changes, never inside one (a terminal's
    own wrap cut «д2[8» from «]: ИСТИНА → ЛОЖЬ»)."""
    from terminal import Terminal as Tmux
    with Tmux([sys.executable, "-m", "pseudo", "step", "programs/queens_recursive.pseudo"], cwd=str(ROOT)) as t:
        t.wait_for("шаг 1 из")
        for depth in (1, 2, 3):
            t.send("c HR", "Enter")
            lines = t.wait_for(f"глубина {depth}")
    changed = next(k for k, line in enumerate(lines) if line.startswith("изменилось: i := 3"))
    assert lines[changed] == "изменилось: i := 3; c[2] := 3; кол[3]: ИСТИНА → ЛОЖЬ; д1[5]: ИСТИНА → ЛОЖЬ;"
    assert lines[changed + 1] == "            д2[8]: ИСТИНА → ЛОЖЬ"
    wrapped = Stepper.__new__(Stepper)
    wrapped.width = 20
    assert wrapped._wrapped(["a[1] = 1", "a[2] = 22", "a[3] = 3"], "") == "a[1] = 1; a[2] = 22;\na[3] = 3"
    assert wrapped._wrapped(["a[1] = 1", "a[2] = 222", "a[3] = 3"], "") == "a[1] = 1;\na[2] = 222; a[3] = 3"


def test_a_value_holding_a_semicolon_is_never_broken_by_the_wrap(tmp_path):
    """`a[1] := 'один; два; три'` in a narrow terminal: the «; » inside the string is no place to break."""
    path = tmp_path / "п.pseudo"
    path.write_text("a[1] := 'один; два; три'\nb := 'четыре; пять'\nСООБЩИТЬ 1\n", encoding="utf-8")
    loaded = pseudo.load(Source.from_file(path))
    shown: list[str] = []
    script = iter(["n", "n", "p a", "q"])

    def read(prompt: str) -> str:
        shown.append(prompt)
        return next(script)
    Stepper(Recording(loaded, Limits(), None, ""), loaded, shown.append, read, width=20).run()
    text = "".join(shown)
    assert "изменилось: a[1] := 'один; два; три'\n" in text, text
    assert "a[1] = 'один; два; три'\n" in text, text


ASKS = """НОД (a, b) = ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ
СООБЩИТЬ 'Введите два числа:',
ПРОЧЕСТЬ x, y
СООБЩИТЬ 'НОД =', НОД(x, y)
"""


def test_on_a_terminal_input_is_asked_for_when_read_and_replayed(tmp_path):
    """Without --input on a terminal (tmux), the line is asked for when the user steps past
    ПРОЧЕСТЬ; stepping back and forward again replays it; ↑ recalls a command (readline)."""
    from terminal import Terminal
    path = tmp_path / "нод.pseudo"
    path.write_text(ASKS, encoding="utf-8")
    with Terminal([sys.executable, "-m", "pseudo", "step", str(path)], width=100, height=50, cwd=str(ROOT)) as t:
        t.wait_for("шаг 1 · строка 2")  # the total is not known before the input is
        t.send("n", "Enter")
        t.wait_for("шаг 2 · строка 3")
        assert "вывод » Введите два числа:" in "\n".join(t.screen())
        t.send("n", "Enter")
        t.wait_for("программа ждёт ввода (строка 3: ПРОЧЕСТЬ x, y)")
        t.send("15 6", "Enter")
        screen = "\n".join(t.wait_for("шаг 3 из 13 · строка 4"))
        assert "ввод » 15 6\nизменилось: x := 15; y := 6\n" in screen
        t.send("b", "Enter")
        t.wait_for("шаг 2 из 13")
        t.send("Up", "Enter")  # b again, from the history
        t.wait_for("шаг 1 из 13")
        t.send("c", "Enter")  # forward again: the input is in the recording, not asked for twice
        screen = "\n".join(t.wait_for("шаг 13 из 13 · конец программы"))
        assert screen.count("программа ждёт ввода") == 1 and "вывод » НОД = 3" in screen
        t.send("q", "Enter")
        assert t.wait()[1] == 0


def test_a_recording_that_a_runaway_recursion_fills_says_so(tmp_path):
    """A recursion without its base case fills the 200 000 events long before the depth
    limit: the stepper says what it looks like, not only that more events may be recorded."""
    program = tmp_path / "ever.pseudo"
    program.write_text("ИСКАТЬ (i, t) =\n    ИСКАТЬ(i, t - 1)\nИСКАТЬ(2, 0)\n", encoding="utf-8")
    loaded = pseudo.load(Source.from_file(program))
    recording = Recording(loaded, Limits(), 50_000)
    while not recording.finished:
        recording.more()
    assert recording.note == ("запись остановлена после 50000 событий на глубине 24999: похоже, рекурсия не "
                              "кончается — у определения должен быть случай, в котором оно не вызывает себя "
                              "(--max-events N запишет больше)"), recording.note
    finite = pseudo.load(Source.from_file(HANOI))
    bounded = Recording(finite, Limits(), 50)
    while not bounded.finished:
        bounded.more()
    assert bounded.note == "записаны первые 50 событий; увеличьте --max-events"


def test_the_stack_of_a_deep_recursion_shows_its_ends_not_every_call(tmp_path):
    """A stop 2,000 calls deep printed all 2,000 calls on the «стек:» line at every stop (100,000
    in a recursion without end: megabytes a step); its first and last three, and how many between."""
    program = tmp_path / "сумма.pseudo"
    program.write_text("F (k) =\n    ЕСЛИ k = 2000 ТО\n        СООБЩИТЬ k\n    ИНАЧЕ\n        F(k + 1)\n    КОНЕЦ_ЕСЛИ\n"
                       "F(1)\n", encoding="utf-8")
    stop = session(program, "c 3").split("(шаг) ")[1]
    stack = next(line for line in stop.splitlines() if line.startswith("стек: "))
    assert stack == "стек: F(1) → F(2) → F(3) → … ещё 1994 вызова … → F(1998) → F(1999) → F(2000)"
    assert "глубина 2000" in stop
