"""`pseudo step` driven through a pseudo-terminal with scripted keys."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

from conftest import ROOT


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
