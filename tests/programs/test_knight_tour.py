"""The knight's tour: the seed's backtracking (with its defects fixed), Warnsdorff's rule, and
the count of tours, checked by an independent validator and counter."""

import pytest
from conftest import LONG, MODES, MODES_OF_A_LONG_SEARCH, PROGRAMS, run_file
from reference import knight


def board_of(n, row, col, search, mode="interpret"):
    outcome = run_file(PROGRAMS / "knight_tour.pseudo", f"{n} {row} {col} {search}\n", mode=mode)
    assert outcome.error is None, outcome.error.render()
    return outcome.lines


@pytest.mark.parametrize("mode", MODES_OF_A_LONG_SEARCH)
def test_seed_backtracking_finds_a_tour_of_5x5_from_the_corner(mode):
    lines = board_of(5, 1, 1, 0, mode)
    assert knight.is_tour([[int(x) for x in line.split()] for line in lines], (0, 0))


@pytest.mark.parametrize("n,row,col", [(8, 1, 1), (8, 4, 5), (6, 2, 3), (7, 7, 7)])
@pytest.mark.parametrize("mode", MODES)
def test_warnsdorff_finds_tours(n, row, col, mode):
    lines = board_of(n, row, col, 1, mode)
    assert knight.is_tour([[int(x) for x in line.split()] for line in lines], (row - 1, col - 1))


def test_no_tour_is_reported():
    assert board_of(3, 1, 1, 0) == ["НЕТ ОБХОДА"]
    assert board_of(4, 1, 1, 1) == ["НЕТ ОБХОДА"]


def test_reference_counts_the_known_number_of_tours():
    assert knight.count_tours(5, (0, 0)) == 304


@pytest.mark.parametrize("mode", ["compiled", pytest.param("interpret", marks=pytest.mark.skipif(
    not LONG, reason="long profile (PSEUDO_LONG=1): the same count interpreted"))])
def test_count_of_5x5_tours_from_a_corner(mode):  # about 15 s
    assert board_of(5, 1, 1, 2, mode) == [f"ОБХОДОВ: {knight.count_tours(5, (0, 0))}"]


def test_a_start_off_the_board_or_an_unknown_mode_is_refused():
    assert board_of(8, 0, 1, 1) == ["начальное поле 0 1 не на доске 8 на 8"]
    assert board_of(5, 1, 1, 5) == ["режим — 0, 1 или 2, а задано 5"]


@pytest.mark.skipif(not LONG, reason="long profile (PSEUDO_LONG=1)")
def test_seed_backtracking_on_6x6():
    lines = board_of(6, 1, 1, 0, mode="compiled")
    assert knight.is_tour([[int(x) for x in line.split()] for line in lines], (0, 0))
