"""The screen phrases in a real terminal (tmux): the frame is redrawn in place, the cursor
goes where it is told, and пауза waits; through a pipe the same program prints plain lines
at full speed. Interpreted, compiled, and as the emitted Python file."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest
from conftest import ROOT
from terminal import Terminal

FRAMES = """ДЛЯ k := 1 ДО 4 ВЫПОЛНЯТЬ
  очистить экран
  СООБЩИТЬ '+-----+'
  СООБЩИТЬ '|     |'
  СООБЩИТЬ '+-----+'
  курсор в строку 2, столбец 3 + k ДЕЛ 2
  СООБЩИТЬ k,
  курсор в строку 4, столбец 1
  СООБЩИТЬ 'кадр', k
  пауза 250
ВЕРНУТЬСЯ
"""
LAST_FRAME = ["+-----+", "|   4 |", "+-----+", "кадр 4"]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    d = tmp_path_factory.mktemp("screen")
    (d / "кадры.pseudo").write_text(FRAMES, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pseudo", "py", str(d / "кадры.pseudo"), "-o", str(d / "кадры.py")],
                   cwd=ROOT, check=True)
    return d


COMMANDS = {
    "interpreted": lambda d: [sys.executable, "-m", "pseudo", "run", str(d / "кадры.pseudo")],
    "compiled": lambda d: [sys.executable, "-m", "pseudo", "run", "--compiled", str(d / "кадры.pseudo")],
    "emitted": lambda d: [sys.executable, "-I", str(d / "кадры.py")],
}


@pytest.mark.parametrize("mode", COMMANDS)
def test_frames_redrawn_in_place_on_a_terminal(program, mode):
    with Terminal(COMMANDS[mode](program), width=40, height=12, cwd=str(ROOT)) as term:
        screen, code, elapsed = term.wait()
    assert code == 0
    shown = [line.rstrip() for line in screen if line.strip()]
    assert shown == LAST_FRAME, "\n".join(screen)
    assert elapsed >= 1.0, f"четыре паузы по 250 мс прошли за {elapsed:.2f} с"


@pytest.mark.parametrize("mode", COMMANDS)
def test_frames_are_plain_lines_through_a_pipe(program, mode):
    started = time.monotonic()
    done = subprocess.run(COMMANDS[mode](program), check=False, capture_output=True, text=True, timeout=60, cwd=ROOT)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:-1] == _frames_through_pipe()
    assert "\x1b" not in done.stdout
    assert elapsed < 1.0 + _startup(), f"паузы не должны ждать в канале ({elapsed:.2f} с)"


def _frames_through_pipe() -> list[str]:
    lines = []
    for k in range(1, 5):
        if k > 1:
            lines.append("")
        lines += ["+-----+", "|     |", "+-----+", str(k), f"кадр {k}"]
    return lines


def _startup() -> float:
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import pseudo.cli"], check=True, cwd=ROOT)
    return time.monotonic() - started
