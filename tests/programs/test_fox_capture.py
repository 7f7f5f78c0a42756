"""The fox's longest capture: the printed chain is legal when replayed, and no chain is longer
(independent brute force over all chains), on hand-made and on random positions."""
import pytest
from conftest import MODES, PROGRAMS, run_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import fox as ref

PROGRAM = PROGRAMS / "fox_capture.pseudo"


def capture(fox, hens, mode="interpret"):
    outcome = run_file(PROGRAM, ref.board_text(fox, hens), mode=mode)
    assert outcome.error is None, outcome.error.render()
    *chain, total = outcome.lines
    jumps = [tuple(int(x) for x in line.split()) for line in chain]
    assert total == f"ВЗЯТО: {len(jumps)}"
    return jumps


def check(fox, hens, mode="interpret"):
    jumps = capture(fox, hens, mode)
    assert ref.replay(fox, hens, jumps) == len(jumps)
    assert len(jumps) == ref.longest(fox, hens)
    return jumps


@pytest.mark.parametrize("mode", MODES)
def test_a_chain_that_returns_over_the_foxs_first_field(mode):
    # a ring of hens around the centre: the fox goes round and may land where it started
    fox = (3, 3)
    hens = {(3, 4), (4, 5), (5, 4), (4, 3), (2, 4), (6, 4)}
    jumps = check(fox, hens, mode)
    assert len(jumps) == 4 and (jumps[-1][2], jumps[-1][3]) == fox


def test_no_capture():
    assert check((4, 4), set()) == []
    assert check((1, 4), {(1, 5)}) == []  # behind the hen: off the board


def test_a_bad_board_is_refused():
    outcome = run_file(PROGRAM, ref.board_text((4, 4), set()).replace("Л", "."))
    assert outcome.lines == ["на доске должен быть один лис Л, а их 0"]
    outcome = run_file(PROGRAM, ref.board_text((4, 4), set()).replace("Л", "Ж"))
    assert outcome.lines == ["неизвестный знак Ж в строке 4 и столбце 4 (нужны Л, К или .)"]


def test_the_sample_board_of_the_index():
    outcome = run_file(PROGRAM, (PROGRAMS / "fox_capture.txt").read_text(encoding="utf-8"))
    assert outcome.lines[0] == "3 3 1 3" and outcome.lines[-1] == "ВЗЯТО: 10"


def capturable(fox):
    """The fields a hen can be taken on: one coordinate of the same parity as the fox's, one
    not. Hens only there leave every landing field free, so chains grow long."""
    fields = [f for f in ref.FIELDS if ((f[0] - fox[0]) % 2) + ((f[1] - fox[1]) % 2) == 1]
    return st.sets(st.sampled_from(fields), max_size=len(fields)).map(lambda hens: (fox, hens))


anywhere = st.tuples(st.sampled_from(ref.FIELDS), st.sets(st.sampled_from(ref.FIELDS), max_size=24)) \
    .map(lambda p: (p[0], p[1] - {p[0]}))
positions = st.one_of(anywhere, st.sampled_from(ref.FIELDS).flatmap(capturable))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.sampled_from(MODES))
def test_random_positions_match_the_brute_force(position, mode):
    fox, hens = position
    check(fox, hens, mode)
