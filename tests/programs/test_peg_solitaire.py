"""Peg solitaire: every printed jump is legal when replayed by the independent referee, the
game ends with one peg in the centre, and the printed final board is the replayed one."""
import sys

import pytest
from conftest import MODES_OF_A_LONG_SEARCH, PROGRAMS, ROOT, run_file
from reference import peg_solitaire as ref
from terminal import Terminal

PROGRAM = PROGRAMS / "peg_solitaire.pseudo"


def parse(lines: list[str]):
    jumps = [tuple(int(x) for x in line.split()) for line in lines[:31]]
    return jumps, lines[31:38], lines[38]


@pytest.mark.parametrize("mode", MODES_OF_A_LONG_SEARCH)
def test_the_solution_replays_to_one_peg_in_the_centre(mode):
    outcome = run_file(PROGRAM, "0\n", mode=mode)
    assert outcome.error is None, outcome.error.render()
    assert len(outcome.lines) == 31 + 7 + 1
    jumps, board, tests = parse(outcome.lines)
    pegs = ref.replay(jumps)
    assert pegs == {ref.CENTRE}
    assert board == ref.picture(pegs)
    assert tests.startswith("ПРОВЕРОК: ") and int(tests.split()[1]) > 0


def test_the_search_is_the_one_of_the_articles_program_3():
    """The same direction order and scan as the solver the article cites: the same 31 jumps
    and the same number of move tests (391,865)."""
    outcome = run_file(PROGRAM, "0\n", mode="compiled")
    jumps, _, tests = parse(outcome.lines)
    expected_jumps, expected_tests = ref.solve_as_program_3()
    assert jumps == expected_jumps
    assert tests == f"ПРОВЕРОК: {expected_tests}"


def test_the_referee_refuses_an_illegal_jump():
    with pytest.raises(AssertionError, match="прыжок 1"):
        ref.replay([(4, 2, 4, 4), (4, 4, 4, 6)][1:])  # from the empty centre


def test_the_live_display_redraws_in_place_on_a_terminal():
    argv = [sys.executable, "-m", "pseudo", "run", "--compiled", str(PROGRAM)]
    with Terminal(["sh", "-c", 'echo 1 | "$0" "$@"', *argv], width=40, height=60, cwd=str(ROOT)) as term:
        screen, code, _ = term.wait(timeout=240)
    assert code == 0
    pegs = {ref.CENTRE}
    assert [row.rstrip() for row in screen[0:7]] == [row.rstrip() for row in ref.picture(pegs)]
    assert screen[7].startswith("колышков: 1 проверок: ")
    jumps, board, tests = parse([line.rstrip() for line in screen[9:49]])
    assert ref.replay(jumps) == pegs
    assert [row.rstrip() for row in ref.picture(pegs)] == board
    assert int(tests.split()[1]) >= int(screen[7].split()[3])  # the frame is drawn at the last jump
    assert not "".join(screen[49:]).strip(), "кадры рисуются на месте: ниже ответа ничего нет"
