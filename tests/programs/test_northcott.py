"""Игра 20: Northcott's game against a random player, through standard input and output.
The computer's moves are legal; from a position whose gaps have a non-zero nim-sum its move
makes it zero; a retreat is answered by the same advance in the same row; and the computer
never loses a game it could win."""
from __future__ import annotations

import io
import random
import re

import pytest
from conftest import MODES, PROGRAMS, Opponent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference.nim import nim_sum

import pseudo
from pseudo.errors import PseudoRuntimeError
from pseudo.frontend.source import Source

LOADED = pseudo.load(Source.from_file(PROGRAMS / "northcott.pseudo"))
ROW = re.compile(r"^(\d+) ([.ПК]+)$")
MOVE = re.compile(r"^Я хожу в строке (\d+) с поля (\d+) на поле (\d+)$")
TURNS = 60


def board(text: str, rows: int):
    """The last board printed: (player's column, computer's column) per row, 1-based."""
    lines = [m for m in (ROW.match(x) for x in text.splitlines()) if m][-rows:]
    return [(m.group(2).index("П") + 1, m.group(2).index("К") + 1) for m in lines]


class RandomPlayer(Opponent):
    def __init__(self, rows, width, first, seed, output):
        super().__init__([f"{len(rows)} {width}\n"] + [f"{a} {b}\n" for a, b in rows] + [f"{first}\n"], output)
        self.rows, self.rng, self.turns, self.illegal = len(rows), random.Random(seed), 0, 0

    def answer(self):
        self.turns += 1
        if self.turns > TURNS:
            return ""  # the player leaves: the game stops unfinished
        position = board(self.output.getvalue(), self.rows)
        if self.rng.random() < 0.1:  # a move that must be refused, or a word for a number
            self.illegal += 1
            return self.rng.choice([f"{self.rows + 1} 1\n", "вперёд\n", "1 поле\n"])
        choices = [(r, c) for r, (p, k) in enumerate(position, start=1) for c in range(1, k) if c != p]
        r, c = self.rng.choice(choices)
        return f"{r} {c}\n"


@st.composite
def games(draw):
    width = draw(st.integers(3, 9))
    rows = []
    for _ in range(draw(st.integers(1, 4))):
        p = draw(st.integers(1, width - 1))
        rows.append((p, draw(st.integers(p + 1, width))))
    return rows, width, draw(st.sampled_from([0, 1])), draw(st.integers(0, 10**6)), draw(st.sampled_from(MODES))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_games_against_a_random_player(game):
    rows, width, first, seed, mode = game
    out = io.StringIO()
    player = RandomPlayer(rows, width, first, seed, out)
    try:
        pseudo.run(LOADED, stdin=player, stdout=out, mode=mode)
        finished = True
    except PseudoRuntimeError as e:
        assert e.code == "read-eof"
        finished = False
    text = out.getvalue()
    lines = text.splitlines()
    could_win, position, previous = False, None, None
    for i, line in enumerate(lines):
        if ROW.match(line) and (i == 0 or not ROW.match(lines[i - 1])):
            previous, position = position, board("\n".join(lines[:i + len(rows)]), len(rows))
        m = MOVE.match(line)
        if not m:
            continue
        r, old, new = (int(x) for x in m.groups())
        p, k = position[r - 1]
        assert old == k and p < new <= width and new != k, line
        before = nim_sum(b - a - 1 for a, b in position)
        if previous is not None and before != 0:
            retreats = [(j, previous[j][0] - position[j][0]) for j in range(len(rows)) if position[j][0] < previous[j][0]]
            if retreats and nim_sum(b - a - 1 for a, b in previous) == 0:
                j, d = retreats[0]
                assert (r - 1, k - new) == (j, d), "a retreat is answered in the same row by the same advance"
        position = [(a, new if j == r - 1 else b) for j, (a, b) in enumerate(position)]
        if before != 0:
            could_win = True
            assert nim_sum(b - a - 1 for a, b in position) == 0, line
    assert text.count("Так нельзя") == player.illegal
    if finished:
        assert lines[-1] in ("Вам некуда ходить: компьютер выиграл", "Мне некуда ходить: вы выиграли")
        if could_win:
            assert lines[-1].endswith("компьютер выиграл")


@pytest.mark.parametrize("rows,width,message", [
    ("1 5\n4 2\n", 5, "в строке 1 задано 4 2 — а нужно: ваша шашка левее шашки компьютера, обе на полях от 1 до 5"),
    ("2 5\n1 3\n1 9\n", 5, "в строке 2 задано 1 9 — а нужно: ваша шашка левее шашки компьютера, обе на полях от 1 до 5"),
    ("1 1\n", 1, "нужна хотя бы одна строка длиной от двух полей, а задано 1 на 1"),
])
def test_a_wrong_starting_position_is_refused(rows, width, message):
    out = io.StringIO()
    pseudo.run(LOADED, stdin=io.StringIO(rows + "1\n"), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == SIZE and lines[-1] == message
    assert all(line.startswith("Строка ") for line in lines[1:-1])


SIZE = "Сколько строк на доске и сколько полей в строке? Два числа через пробел:"


def test_every_input_is_asked_for():
    """Before each ПРОЧЕСТЬ the game says what to type: the size, each row, who starts, a move."""
    out = io.StringIO()
    with pytest.raises(PseudoRuntimeError):  # the player leaves after one move
        pseudo.run(LOADED, stdin=io.StringIO("2 6\n1 4\n2 6\n1\n1 2\n"), stdout=out)
    assert out.getvalue().splitlines()[:5] == [
        SIZE, "Строка 1 — поле вашей шашки и поле шашки компьютера (ваша левее):",
        "Строка 2 — поле вашей шашки и поле шашки компьютера (ваша левее):",
        "Кто ходит первым? 1 — вы, 0 — компьютер:", "1 П..К.."]
    assert out.getvalue().count("Ваш ход (строка и поле, куда поставить вашу шашку):") == 2
