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


def solve_as_program_3() -> tuple[list[tuple[int, int, int, int]], int]:
    """The solver the article cites as [3] (the peg solitaire example of the Go language),
    ported line for line: a one-dimensional board of 11 × 11 fields with a two-field wall,
    positions scanned in order, directions −1, −N, +1, +N, a counter of move tests.
    Returns the jumps (on the 7 × 7 grid, 1-based) and the number of tests."""
    n = 11 + 1  # a row and its newline
    rows = ["..........."] * 2 + ["....●●●...."] * 2 + ["..●●●●●●●..", "..●●●○●●●..", "..●●●●●●●.."] \
        + ["....●●●...."] * 2 + ["..........."] * 2
    board = list("".join(row + "\n" for row in rows))
    center = board.index("○")
    moves = 0
    path: list[tuple[int, int]] = []

    def move(pos: int, d: int) -> bool:
        nonlocal moves
        moves += 1
        if board[pos] == "●" and board[pos + d] == "●" and board[pos + 2 * d] == "○":
            board[pos], board[pos + d], board[pos + 2 * d] = "○", "○", "●"
            return True
        return False

    def unmove(pos: int, d: int) -> None:
        board[pos], board[pos + d], board[pos + 2 * d] = "●", "●", "○"

    def solve() -> bool:
        last = count = 0
        for pos, field in enumerate(board):
            if field == "●":
                for d in (-1, -n, +1, +n):
                    if move(pos, d):
                        path.append((pos, d))
                        if solve():
                            return True
                        path.pop()
                        unmove(pos, d)
                last = pos
                count += 1
        return count == 1 and last == center

    assert solve()

    def grid(pos: int) -> tuple[int, int]:
        return pos // n - 1, pos % n - 1  # row and column of the 7 × 7 grid, from 1
    return [(*grid(pos), *grid(pos + 2 * d)) for pos, d in path], moves
