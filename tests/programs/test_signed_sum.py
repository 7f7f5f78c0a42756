"""Головоломка 27: both programs, in every mode, print the reference's lines."""
from conftest import MODES, PROGRAMS, run_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import signed_sum

PROGRAMS_27 = ["signed_sum_iterative", "signed_sum_recursive"]


def lines_of(name: str, numbers: list[int], s: int, mode: str) -> list[str]:
    stdin = f"{len(numbers)}\n{' '.join(map(str, numbers))}\n{s}\n"
    outcome = run_file(PROGRAMS / f"{name}.pseudo", stdin, mode=mode)
    assert outcome.error is None, outcome.error.render()
    return outcome.lines


def test_reference_examples():
    assert signed_sum.solutions([1, 2, 3, 4], 4) == ["1 + 2 - 3 + 4 = 4"]
    assert signed_sum.solutions([1, 1], 5) == ["НЕТ"]
    assert signed_sum.solutions([2, 2, 2], 2) == ["2 + 2 - 2 = 2", "2 - 2 + 2 = 2"]


@st.composite
def instances(draw):
    numbers = draw(st.lists(st.integers(1, 30), min_size=1, max_size=12))
    if draw(st.booleans()):  # a target that has a solution
        signs = draw(st.lists(st.sampled_from([1, -1]), min_size=len(numbers) - 1, max_size=len(numbers) - 1))
        s = numbers[0] + sum(sign * a for sign, a in zip(signs, numbers[1:]))
    else:
        s = draw(st.integers(-100, 100))
    return numbers, s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.sampled_from(PROGRAMS_27), st.sampled_from(MODES))
def test_programs_print_exactly_the_reference(instance, name, mode):
    numbers, s = instance
    assert lines_of(name, numbers, s, mode) == signed_sum.solutions(numbers, s)
