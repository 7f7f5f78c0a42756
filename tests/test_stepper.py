"""`pseudo step` driven through a pseudo-terminal with scripted keys."""
from __future__ import annotations

import io
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
from pseudo.tools.stepper import Stepper
from pseudo.tools.trace import Tracer, decoded


class Terminal:
    def __init__(self, *args: str):
        self.master, slave = pty.openpty()
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="dumb")
        self.proc = subprocess.Popen([sys.executable, "-m", "pseudo", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=ROOT, env=env, close_fds=True)
        os.close(slave)
        self.buffer = ""

    def until(self, text: str, timeout: float = 20) -> str:
        end = time.monotonic() + timeout
        while text not in self.buffer:
            left = end - time.monotonic()
            assert left > 0, f"no «{text}» in: {self.buffer[-800:]}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    self.buffer += os.read(self.master, 65536).decode("utf-8", "replace")
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
    events: list = []
    pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=io.StringIO(), tracer=Tracer(events.append))
    shown: list[str] = []
    script = iter([*commands, "q"])

    def read(prompt: str) -> str:
        shown.append(prompt)
        return next(script)
    Stepper(decoded(events), loaded, shown.append, read).run()
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
