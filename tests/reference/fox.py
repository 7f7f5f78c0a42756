"""Reference for the fox's capture (Игра 13), from the rules stated in fox_capture.pseudo:
on the 33-field cross board the fox jumps over an orthogonally adjacent hen onto the empty
field right behind it, and may go on capturing from there; a hen is taken once."""
from __future__ import annotations

STEPS = [(-1, 0), (0, 1), (1, 0), (0, -1)]


def on_board(r: int, c: int) -> bool:
    return 1 <= r <= 7 and 1 <= c <= 7 and (3 <= r <= 5 or 3 <= c <= 5)


FIELDS = [(r, c) for r in range(1, 8) for c in range(1, 8) if on_board(r, c)]


def longest(fox: tuple[int, int], hens: set[tuple[int, int]]) -> int:
    """The length of the longest chain of captures: every chain, by brute force."""
    def go(at: tuple[int, int], taken: frozenset) -> int:
        best = 0
        for dr, dc in STEPS:
            over, to = (at[0] + dr, at[1] + dc), (at[0] + 2 * dr, at[1] + 2 * dc)
            if over in hens and over not in taken and on_board(*to) and (to not in hens or to in taken):
                best = max(best, 1 + go(to, taken | {over}))
        return best
    return go(fox, frozenset())


def replay(fox: tuple[int, int], hens: set[tuple[int, int]], jumps: list[tuple[int, int, int, int]]) -> int:
    """Check a printed chain move by move; the number of hens it takes."""
    taken: set[tuple[int, int]] = set()
    at = fox
    for i, (r1, c1, r2, c2) in enumerate(jumps, 1):
        assert (r1, c1) == at, f"взятие {i}: лис не на поле {r1, c1}"
        assert {abs(r1 - r2), abs(c1 - c2)} == {0, 2}, f"взятие {i}: не прыжок через одно поле"
        over = ((r1 + r2) // 2, (c1 + c2) // 2)
        assert over in hens and over not in taken, f"взятие {i}: на поле {over} нет курицы"
        assert on_board(r2, c2) and (r2, c2) not in hens - taken, f"взятие {i}: поле {r2, c2} занято"
        taken.add(over)
        at = (r2, c2)
    return len(taken)


def board_text(fox: tuple[int, int], hens: set[tuple[int, int]]) -> str:
    """The program's input: 7 rows of 7 signs separated by spaces."""
    def sign(r: int, c: int) -> str:
        if not on_board(r, c):
            return "#"
        return "Л" if (r, c) == fox else "К" if (r, c) in hens else "."
    return "".join(" ".join(sign(r, c) for c in range(1, 8)) + "\n" for r in range(1, 8))
