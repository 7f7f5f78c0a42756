"""Reference for the knight's tour, from the puzzle's statement: a knight visits every square
of an N × N board exactly once, each move an (1, 2) or (2, 1) jump."""

MOVES = [(1, -2), (1, 2), (-1, -2), (-1, 2), (2, -1), (2, 1), (-2, 1), (-2, -1)]


def is_tour(board: list[list[int]], start: tuple[int, int]) -> bool:
    """The board holds the move numbers 1 … N²; consecutive numbers are knight moves apart."""
    n = len(board)
    where = {board[r][c]: (r, c) for r in range(n) for c in range(n)}
    if sorted(where) != list(range(1, n * n + 1)) or where[1] != start:
        return False
    return all({abs(where[k][0] - where[k + 1][0]), abs(where[k][1] - where[k + 1][1])} == {1, 2}
               for k in range(1, n * n))


def count_tours(n: int, start: tuple[int, int]) -> int:
    """All open tours from a square, by plain depth-first search."""
    seen = [[False] * n for _ in range(n)]

    def go(r: int, c: int, depth: int) -> int:
        if depth == n * n:
            return 1
        total = 0
        for dr, dc in MOVES:
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n and not seen[rr][cc]:
                seen[rr][cc] = True
                total += go(rr, cc, depth + 1)
                seen[rr][cc] = False
        return total
    seen[start[0]][start[1]] = True
    return go(start[0], start[1], 1)
