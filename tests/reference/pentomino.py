"""Reference for the pentominoes, from the puzzle's statement: the twelve pieces, each used
once, in any rotation or reflection, cover an h × w rectangle (h·w = 60) without overlap.

Plain exact cover: the first free cell in reading order (row by row) must be covered by
some piece placed so that this cell is its own first cell; cells are bits of an integer.
"""
from __future__ import annotations

PICTURES = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["####", "#..."],
    "N": ["##..", ".###"],
    "P": ["##", "##", "#."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["..#.", "####"],
    "Z": ["##.", ".#.", ".##"],
}


def shapes(picture: list[str]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct orientations of a piece: cells (row, col), sorted, shifted to row 0 and col 0."""
    cells = [(r, c) for r, line in enumerate(picture) for c, ch in enumerate(line) if ch == "#"]
    found = set()
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]  # a quarter turn
        for variant in (cells, [(r, -c) for r, c in cells]):  # and its mirror image
            r0, c0 = min(r for r, _ in variant), min(c for _, c in variant)
            found.add(tuple(sorted((r - r0, c - c0) for r, c in variant)))
    return sorted(found)


def tilings(h: int, w: int) -> list[tuple[str, ...]]:
    """Every tiling, each as h strings of w letters."""
    if w > h:  # read the narrow way: a long row would leave the search many dead ends
        return [tuple("".join(col) for col in zip(*t, strict=True)) for t in _tilings(w, h)]
    return _tilings(h, w)


def _tilings(h: int, w: int) -> list[tuple[str, ...]]:
    placements: dict[int, list[tuple[str, int]]] = {i: [] for i in range(h * w)}
    for letter, picture in PICTURES.items():
        for shape in shapes(picture):
            first_r, first_c = shape[0]  # the first cell in reading order
            for r in range(h):
                for c in range(w):
                    cells = [(r + dr - first_r, c + dc - first_c) for dr, dc in shape]
                    if all(0 <= rr < h and 0 <= cc < w for rr, cc in cells):
                        mask = sum(1 << (rr * w + cc) for rr, cc in cells)
                        placements[r * w + c].append((letter, mask))
    full = (1 << (h * w)) - 1
    found: list[tuple[str, ...]] = []
    chosen: list[tuple[str, int]] = []

    def go(filled: int, used: set[str]) -> None:
        if filled == full:
            grid = [["?"] * w for _ in range(h)]
            for letter, mask in chosen:
                for i in range(h * w):
                    if mask >> i & 1:
                        grid[i // w][i % w] = letter
            found.append(tuple("".join(row) for row in grid))
            return
        first = (~filled & (filled + 1)).bit_length() - 1  # the lowest free cell
        for letter, mask in placements[first]:
            if letter not in used and not filled & mask:
                used.add(letter)
                chosen.append((letter, mask))
                go(filled | mask, used)
                chosen.pop()
                used.discard(letter)
    go(0, set())
    return found


def symmetric_images(tiling: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The tiling and its images by the rectangle's symmetries (mirrors and the half turn)."""
    flipped = tuple(row[::-1] for row in tiling)
    return {tiling, flipped, tiling[::-1], flipped[::-1]}


def classes(found: list[tuple[str, ...]]) -> int:
    """How many tilings are different up to the symmetries of the rectangle."""
    seen: set[tuple[str, ...]] = set()
    count = 0
    for t in found:
        if t not in seen:
            count += 1
            seen |= symmetric_images(t)
    return count
