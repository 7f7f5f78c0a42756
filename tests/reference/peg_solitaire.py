"""Reference for peg solitaire, from the puzzle's statement: the English board of 33 holes,
all filled but the centre; a peg jumps over an orthogonally adjacent peg into an empty hole,
and the peg jumped over is removed. Solved: one peg left, in the centre."""
from __future__ import annotations

CENTRE = (4, 4)


def on_board(r: int, c: int) -> bool:
    """Rows and columns 1 … 7; the cross: the middle three rows or the middle three columns."""
    return 1 <= r <= 7 and 1 <= c <= 7 and (3 <= r <= 5 or 3 <= c <= 5)


def start() -> set[tuple[int, int]]:
    """The holes that hold a peg at the start."""
    return {(r, c) for r in range(1, 8) for c in range(1, 8) if on_board(r, c)} - {CENTRE}


def replay(jumps: list[tuple[int, int, int, int]]) -> set[tuple[int, int]]:
    """The pegs after the jumps; AssertionError names the first illegal jump."""
    pegs = start()
    for i, (r1, c1, r2, c2) in enumerate(jumps, 1):
        over = ((r1 + r2) // 2, (c1 + c2) // 2)
        assert {abs(r1 - r2), abs(c1 - c2)} == {0, 2}, f"прыжок {i}: не на два поля по прямой"
        assert on_board(r2, c2), f"прыжок {i}: за пределы доски"
        assert (r1, c1) in pegs, f"прыжок {i}: на поле {r1, c1} нет колышка"
        assert over in pegs, f"прыжок {i}: нет колышка, через который прыгают"
        assert (r2, c2) not in pegs, f"прыжок {i}: поле {r2, c2} занято"
        pegs -= {(r1, c1), over}
        pegs.add((r2, c2))
    return pegs


def picture(pegs: set[tuple[int, int]]) -> list[str]:
    """The board as 7 rows: х a peg, - an empty hole, a space off the board."""
    return ["".join(("х" if (r, c) in pegs else "-") if on_board(r, c) else " " for c in range(1, 8))
            for r in range(1, 8)]
