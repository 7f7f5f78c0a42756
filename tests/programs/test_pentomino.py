"""Pentominoes: every tiling the program prints is a tiling the independent solver finds, and
none is missing; the live display redraws the frame in place on a real terminal."""
import sys

import pytest
from conftest import LONG, MODES, MODES_OF_A_LONG_SEARCH, PROGRAMS, ROOT, run_file
from reference import pentomino
from terminal import Terminal

from pseudo.runtime import Limits

PROGRAM = PROGRAMS / "pentomino.pseudo"


def tilings_printed(lines: list[str]) -> tuple[list[tuple[str, ...]], int]:
    """The tilings (blocks of rows, each followed by an empty line) and the count printed last."""
    *body, last = lines
    assert last.startswith("РЕШЕНИЙ: "), last
    blocks, block = [], []
    for line in body:
        if line:
            block.append(line)
        else:
            blocks.append(tuple(block))
            block = []
    assert not block, "за последним заполнением нет пустой строки"
    return blocks, int(last.split()[1])


def solve(h: int, w: int, show: int = 0, mode: str = "interpret", limits: Limits | None = None):
    outcome = run_file(PROGRAM, f"{h} {w} {show}\n", mode=mode, limits=limits)
    assert outcome.error is None, outcome.error.render()
    return outcome.lines


def check_tiling(tiling: tuple[str, ...], h: int, w: int) -> None:
    """Twelve different letters, five cells each, every cell covered: the shape check is the
    solver's set comparison."""
    assert len(tiling) == h and all(len(row) == w for row in tiling)
    cells = "".join(tiling)
    assert sorted(set(cells)) == sorted(pentomino.PICTURES)
    assert all(cells.count(letter) == 5 for letter in pentomino.PICTURES)


@pytest.mark.parametrize("mode", MODES_OF_A_LONG_SEARCH)
def test_3x20_gives_the_8_tilings_of_the_reference(mode):
    blocks, count = tilings_printed(solve(3, 20, mode=mode))
    expected = pentomino.tilings(3, 20)
    for tiling in blocks:
        check_tiling(tiling, 3, 20)
    assert count == len(blocks) == 8
    assert sorted(blocks) == sorted(expected)
    assert pentomino.classes(blocks) == 2


def test_a_tall_rectangle_is_printed_as_given():
    blocks, count = tilings_printed(solve(20, 3, mode="compiled"))
    assert count == 8
    assert sorted(blocks) == sorted(pentomino.tilings(20, 3))
    assert all(len(t) == 20 and len(t[0]) == 3 for t in blocks)


def test_a_wrong_area_is_refused():
    assert solve(5, 11) == ["площадь прямоугольника должна быть 60 клеток, а задано 5 на 11"]


def test_the_live_display_through_a_pipe_is_plain_frames():
    lines = solve(3, 20, show=1, mode="compiled")
    assert not any("\x1b" in line for line in lines)
    frames = [i for i, line in enumerate(lines) if line.startswith("кусков на доске:")]
    assert len(frames) > 70_000  # a frame each time a piece enters (71,190), and the empty board
    assert lines[-1] == "РЕШЕНИЙ: 8"


@pytest.mark.parametrize("h,w", [(3, 20), pytest.param(20, 3, marks=pytest.mark.skipif(
    not LONG, reason="long profile (PSEUDO_LONG=1, run by .ci/run): the same display, the rectangle given standing"))])
def test_the_live_display_redraws_in_place_on_a_terminal(h, w):
    """On an 80 × 24 terminal; a tall rectangle is shown lying, as the search fills it."""
    argv = [sys.executable, "-m", "pseudo", "run", "--compiled", str(PROGRAM)]
    with Terminal(["sh", "-c", f'echo "{h} {w} 1" | "$0" "$@"', *argv], width=80, height=24, cwd=str(ROOT)) as term:
        screen, code, _ = term.wait(timeout=240)
    assert code == 0
    frame, status = screen[0:3], screen[3]
    assert all(len(row.rstrip()) == 20 and set(row.rstrip()) <= set(pentomino.PICTURES) | {"."} for row in frame)
    assert status.startswith("кусков на доске: ")
    assert screen[6].rstrip() == "решение 8"
    last = tuple(row.rstrip() for row in screen[7:10])
    assert last in pentomino.tilings(3, 20)
    assert screen[11].rstrip() == "РЕШЕНИЙ: 8"
    assert not "".join(screen[12:]).strip(), "ниже итога ничего не должно быть: кадры рисуются на месте"


@pytest.mark.skipif(not LONG, reason="long profile (PSEUDO_LONG=1): minutes per rectangle and mode")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("h,w,count", [(4, 15, 1472), (5, 12, 4040), (6, 10, 9356)])
def test_larger_rectangles(h, w, count, mode):
    limits = Limits(max_steps=10 ** 12, time_limit=4 * 3600)  # 6 × 10 takes more than the default 10⁹ steps
    blocks, printed = tilings_printed(solve(h, w, mode=mode, limits=limits))
    assert printed == len(blocks) == count
    assert sorted(blocks) == sorted(pentomino.tilings(h, w))
