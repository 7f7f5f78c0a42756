"""Игра 19: whole games of Nim through standard input and output. The computer's moves are
legal; from a position with a non-zero nim-sum its move leaves nim-sum zero; and it never loses
a game it can win. The opponent is a random player (Hypothesis chooses its seed)."""
from __future__ import annotations

import io
import itertools
import random
import re

from conftest import MODES, PROGRAMS, Opponent, lines_until_input_ends
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import nim

import pseudo
from pseudo.frontend.source import Source

LOADED = pseudo.load(Source.from_file(PROGRAMS / "nim.pseudo"))
HEAPS = re.compile(r"^Кучки: (\d+) (\d+) (\d+) (\d+)$", re.MULTILINE)


class RandomPlayer(Opponent):
    """Answers each prompt from the position printed last."""

    def __init__(self, heaps, player_first: bool, seed: int, output: io.StringIO):
        super().__init__([f"{' '.join(map(str, heaps))} {1 if player_first else 0}\n"], output)
        self.rng, self.illegal = random.Random(seed), 0

    def answer(self):
        heaps = [int(x) for x in HEAPS.findall(self.output.getvalue())[-1]]
        if self.rng.random() < 0.1:  # now and then a move that must be refused, or a word for a number
            self.illegal += 1
            return self.rng.choice(["5 1\n", "1 0\n", f"1 {heaps[0] + 1}\n", "два 1\n", "1\n", "1,5 1\n"])
        heap = self.rng.choice([i for i, h in enumerate(heaps, start=1) if h > 0])
        return f"{heap} {self.rng.randint(1, heaps[heap - 1])}\n"


def play(heaps, player_first: bool, seed: int, mode: str) -> tuple[str, RandomPlayer]:
    out = io.StringIO()
    player = RandomPlayer(heaps, player_first, seed, out)
    pseudo.run(LOADED, stdin=player, stdout=out, mode=mode)
    return out.getvalue(), player


def check_game(transcript: str, player: RandomPlayer) -> None:
    lines = transcript.splitlines()
    could_win = False
    position = None
    for line in lines:
        m = HEAPS.match(line)
        if m:
            position = [int(x) for x in m.groups()]
        move = re.match(r"^Я беру (\d+) из кучки (\d+)$", line) or re.match(r"^Я беру (1) из кучки (\d+)$", line)
        if move:
            take, heap = int(move.group(1)), int(move.group(2))
            assert nim.legal(position, heap, take), (position, line)
            before = nim.nim_sum(position)
            position[heap - 1] -= take
            if before != 0:
                could_win = True
                assert nim.nim_sum(position) == 0, (line, position)
    assert lines[-1] in ("Последнюю спичку взял я: компьютер выиграл", "Последнюю спичку взяли вы: вы выиграли")
    if could_win:
        assert lines[-1].endswith("компьютер выиграл")
    assert transcript.count("Так нельзя") == player.illegal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 20), min_size=4, max_size=4).filter(any), st.booleans(), st.integers(0, 10**6),
       st.sampled_from(MODES))
def test_games_against_a_random_player(heaps, player_first, seed, mode):
    transcript, player = play(heaps, player_first, seed, mode)
    check_game(transcript, player)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=4, max_size=4).filter(lambda h: nim.nim_sum(h) != 0))
def test_from_a_winning_position_the_computer_moves_to_nim_sum_zero(heaps):
    transcript, _ = play(heaps, False, 0, mode="interpret")
    first = re.search(r"^Я беру (\d+) из кучки (\d+)$", transcript, re.MULTILINE)
    take, heap = int(first.group(1)), int(first.group(2))
    after = list(heaps)
    after[heap - 1] -= take
    assert nim.nim_sum(after) == 0
    assert transcript.splitlines()[-1].endswith("компьютер выиграл")


PROMPTS = "Сколько спичек в четырёх кучках? Четыре числа через пробел:\nКто ходит первым? 1 — вы, 0 — компьютер:\n"


def test_interaction_reads_like_a_game():
    transcript, _ = play([3, 4, 5, 0], False, 1, mode="interpret")
    assert transcript.startswith(PROMPTS + "Кучки: 3 4 5 0\nЯ беру 2 из кучки 1\nКучки: 1 4 5 0\n"
                                 "Ваш ход (номер кучки и сколько взять):\n")


def test_every_input_is_asked_for():
    """A class at the terminal sees what to type before each ПРОЧЕСТЬ: the heaps, who starts,
    then each move of the player."""
    transcript, _ = play([2, 3, 0, 1], True, 5, mode="interpret")
    assert transcript.startswith(PROMPTS)
    lines = transcript.splitlines()
    moves = lines.count("Ваш ход (номер кучки и сколько взять):")
    before = [line for line, after in itertools.pairwise(lines) if after == "Ваш ход (номер кучки и сколько взять):"]
    assert moves >= 1 and all(line.startswith(("Кучки:", "Так нельзя")) for line in before)


def test_a_word_typed_for_a_number_is_asked_again():
    """A word where the game wants a number never ends it with an error: a heap or who starts
    is asked for again, a move is refused like any illegal move."""
    for mode in MODES:
        lines = lines_until_input_ends(LOADED, "пять 4 5 0\n3\nкто\n1\nход\n1 3\n", mode)
        assert lines[1:3] == ["Так нельзя: нужно целое число, а набрано «пять». Наберите его ещё раз:",
                              "Кто ходит первым? 1 — вы, 0 — компьютер:"]
        assert lines[3:8] == ["Так нельзя: нужно целое число, а набрано «кто». Наберите его ещё раз:",
                              "Кучки: 4 5 0 3", "Ваш ход (номер кучки и сколько взять):",
                              "Так нельзя: нужны два целых числа, номер кучки и сколько взять, а набрано «ход»",
                              "Ваш ход (номер кучки и сколько взять):"]
        assert lines[8] == "Кучки: 1 5 0 3"
