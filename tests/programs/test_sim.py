"""Игра 22: Sim against a random player. Every computer move is legal, and it never closes its
own triangle while another move exists. Over 200 games (fixed seed) the win rate is measured."""
from __future__ import annotations

import io
import random
import re

from conftest import MODES, PROGRAMS, Opponent, lines_until_input_ends
from reference.sim import SEGMENTS, closes_own

import pseudo
from pseudo.frontend.source import Source

LOADED = pseudo.load(Source.from_file(PROGRAMS / "sim.pseudo"))
COMPUTER = re.compile(r"^Я провожу отрезок (\d) (\d)$", re.MULTILINE)


class RandomPlayer(Opponent):
    def __init__(self, first: int, rng: random.Random, output: io.StringIO, colours: dict):
        super().__init__([f"{first}\n"], output)
        self.rng, self.colours, self.mine = rng, colours, []

    def answer(self):
        replay(self.output.getvalue(), self.colours)
        free = [s for s in SEGMENTS if frozenset(s) not in self.colours]
        a, b = self.rng.choice(free)
        self.colours[frozenset((a, b))] = 2
        self.mine.append((a, b))
        return f"{a} {b}\n"


def replay(transcript: str, colours: dict) -> None:
    """Add the computer's moves printed so far (colour 1)."""
    for m in COMPUTER.finditer(transcript):
        colours.setdefault(frozenset((int(m.group(1)), int(m.group(2)))), 1)


def play(seed: int, mode: str = "interpret") -> str:
    rng = random.Random(seed)
    out, colours = io.StringIO(), {}
    player = RandomPlayer(rng.randint(0, 1), rng, out, colours)
    pseudo.run(LOADED, stdin=player, stdout=out, mode=mode)
    return out.getvalue()


def check(transcript: str) -> str:
    """Replay the game move by move and check the computer's moves; return who won."""
    colours: dict = {}
    lines = transcript.splitlines()
    moves = []  # (who, a, b) in order
    for line in lines:
        m = COMPUTER.match(line)
        if m:
            moves.append((1, int(m.group(1)), int(m.group(2))))
    for who, a, b in moves:
        assert frozenset((a, b)) not in colours
        colours[frozenset((a, b))] = who
    assert lines[-1] in ("Вы замкнули свой треугольник: компьютер выиграл", "Я замкнул свой треугольник: вы выиграли")
    return "computer" if lines[-1].endswith("компьютер выиграл") else "player"


def test_computer_moves_are_legal_and_never_suicidal_while_a_safe_move_exists():
    for seed in range(40):
        rng = random.Random(seed)
        out, colours = io.StringIO(), {}
        player = RandomPlayer(rng.randint(0, 1), rng, out, colours)
        pseudo.run(LOADED, stdin=player, stdout=out)
        # replay in order: the transcript interleaves prompts (player) and the computer's lines
        board: dict = {}
        player_moves = iter(player.mine)
        for line in out.getvalue().splitlines():
            if line.startswith("Ваш ход"):
                a, b = next(player_moves)
                board[frozenset((a, b))] = 2
            m = COMPUTER.match(line)
            if m:
                a, b = int(m.group(1)), int(m.group(2))
                assert frozenset((a, b)) not in board, "the segment was free"
                free = [s for s in SEGMENTS if frozenset(s) not in board]
                if closes_own(board, a, b, 1):
                    assert all(closes_own(board, x, y, 1) for x, y in free), "a safe move existed"
                board[frozenset((a, b))] = 1
        assert "Так нельзя" not in out.getvalue()
        check(out.getvalue())


def test_every_input_is_asked_for():
    """Who starts is asked first; each move of the player after «Ваш ход»."""
    transcript = play(3)
    lines = transcript.splitlines()
    assert lines[0] == "Кто ходит первым? 1 — вы, 0 — компьютер:"
    assert "Ваш ход (две точки от 1 до 6):" in lines


def test_both_modes_play_the_same_game():
    assert play(7) == play(7, mode="compiled")


def win_rate(games: int = 200) -> float:
    wins = sum(check(play(seed)) == "computer" for seed in range(games))
    return wins / games


def test_win_rate_against_a_random_player_over_200_games():
    rate = win_rate(200)
    print(f"\nSim: компьютер выиграл {rate:.0%} из 200 игр против случайного игрока")
    assert rate > 0.6


def test_a_word_typed_for_a_point_is_refused_and_the_game_goes_on():
    for mode in MODES:
        lines = lines_until_input_ends(LOADED, "один\n1\nодин два\n1 2\n", mode)
        assert lines[:5] == ["Кто ходит первым? 1 — вы, 0 — компьютер:",
                             "Так нельзя: нужно целое число, а набрано «один». Наберите его ещё раз:",
                             "Ваш ход (две точки от 1 до 6):",
                             "Так нельзя: нужны два целых числа, две точки, а набрано «один два»",
                             "Ваш ход (две точки от 1 до 6):"]
        assert COMPUTER.match(lines[5])
