"""Reference solver for the N queens puzzle, written from the puzzle's statement.

Place N queens on an N × N board so that no two share a row, a column or a diagonal.
One queen per row; a solution is the tuple of the queens' columns, row 1 first. Candidates
are taken in lexicographic order, which is the order a row-by-row search finds them.
"""
from itertools import permutations


def solutions(n: int = 8) -> list[tuple[int, ...]]:
    found = []
    for columns in permutations(range(1, n + 1)):  # distinct columns, lexicographic order
        if all(abs(columns[a] - columns[b]) != b - a for a in range(n) for b in range(a + 1, n)):
            found.append(columns)
    return found


def lines(n: int = 8) -> list[str]:
    return [" ".join(map(str, s)) for s in solutions(n)]
