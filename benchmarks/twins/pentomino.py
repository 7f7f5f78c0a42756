"""Twin of programs/pentomino.pseudo (only display mode 0: the input "height width 0").

The same method: the rectangle lies with rows <= columns, its cells numbered by columns,
c * (rows + 2) + r, in a flat list with a wall (-1) around it; the twelve figures are turned
by the same eight symmetries in the same order, each image sorted by columns, shifted to
its first cell and kept if new for its piece; the configuration lists (number
2^(rows - r) + free-cells bits, pieces in order, each with its orientations) are built the
same way.  ИСКАТЬ(n) becomes search(n, x): x is the leftmost free cell к[n], its
configuration is computed on entry, and pieces and orientations are tried in list order,
so the tilings come out in the program's order, printed as given, then РЕШЕНИЙ: n.
"""
import sys

FIGURES = (  # letter and five cells (row, column) as drawn, in the program's order
    ("F", ((1, 2), (1, 3), (2, 1), (2, 2), (3, 2))),
    ("I", ((1, 1), (1, 2), (1, 3), (1, 4), (1, 5))),
    ("L", ((1, 1), (1, 2), (1, 3), (1, 4), (2, 1))),
    ("N", ((1, 1), (1, 2), (2, 2), (2, 3), (2, 4))),
    ("P", ((1, 1), (1, 2), (2, 1), (2, 2), (3, 1))),
    ("T", ((1, 1), (1, 2), (1, 3), (2, 2), (3, 2))),
    ("U", ((1, 1), (1, 3), (2, 1), (2, 2), (2, 3))),
    ("V", ((1, 1), (2, 1), (3, 1), (3, 2), (3, 3))),
    ("W", ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3))),
    ("X", ((1, 2), (2, 1), (2, 2), (2, 3), (3, 2))),
    ("Y", ((1, 3), (2, 1), (2, 2), (2, 3), (2, 4))),
    ("Z", ((1, 1), (1, 2), (2, 2), (3, 2), (3, 3))),
)
# (r, c) -> (a*r + b*c, d*r + e*c)
SYMMETRIES = ((1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
              (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0))


def main():
    height, width, show = map(int, sys.stdin.read().split()[:3])
    if height * width != 60 or height < 1 or width < 1:
        print("площадь прямоугольника должна быть 60 клеток, а задано", height, "на", width)
        return
    if show > 0:
        sys.exit("pentomino.py: only display mode 0 is supported")
    rows, length = (height, width) if height <= width else (width, height)
    stride = rows + 2
    board = [0] * ((length + 5) * stride)
    below = [0] * len(board)          # how many rectangle cells lie under cell x in its column
    for c in range(length + 5):
        for r in range(rows + 2):
            x = c * stride + r
            board[x] = -1 if c == 0 or c > length or r == 0 or r > rows else 0
            below[x] = rows - r

    # orientations: piece number, cells relative to the first, offsets of cells 2..5
    piece, cells, offsets = [], [], []
    for p, (_, shape) in enumerate(FIGURES, 1):
        for a, b, d, e in SYMMETRIES:
            image = sorted(((a * r + b * c, d * r + e * c) for r, c in shape), key=lambda rc: (rc[1], rc[0]))
            r0, c0 = image[0]
            image = [(r - r0, c - c0) for r, c in image]
            if not any(piece[o] == p and cells[o] == image for o in range(len(piece))):
                piece.append(p)
                cells.append(image)
                offsets.append(tuple(c * stride + r for r, c in image[1:]))

    # lists[q]: [(piece, [offsets of its orientations that fit configuration q]), ...]
    lists = [None] * (1 << rows)
    for r in range(1, rows + 1):
        for b in range(1 << (rows - r)):
            entries = []
            for o in range(len(piece)):
                if all(1 <= r + dr <= rows and (dc != 0 or (b >> (dr - 1)) & 1) for dr, dc in cells[o][1:]):
                    if not entries or entries[-1][0] != piece[o]:
                        entries.append((piece[o], []))
                    entries[-1][1].append(offsets[o])
            lists[(1 << (rows - r)) + b] = entries

    chars = "." + "".join(letter for letter, _ in FIGURES)
    used = [False] * 13
    solutions = 0

    def configuration(x):
        q = 1 << below[x]
        for i in range(1, below[x] + 1):
            if board[x + i] == 0:
                q += 1 << (i - 1)
        return q

    def search(n, x):
        nonlocal solutions
        for p, orientations in lists[configuration(x)]:
            if not used[p]:
                for d2, d3, d4, d5 in orientations:
                    if board[x + d2] == 0 and board[x + d3] == 0 and board[x + d4] == 0 and board[x + d5] == 0:
                        board[x] = board[x + d2] = board[x + d3] = board[x + d4] = board[x + d5] = p
                        used[p] = True
                        if n == 12:
                            solutions += 1
                            for i in range(1, height + 1):
                                if height <= width:
                                    print("".join(chars[board[j * stride + i]] for j in range(1, width + 1)))
                                else:
                                    print("".join(chars[board[i * stride + j]] for j in range(1, width + 1)))
                            print()
                        else:
                            y = x
                            while board[y] != 0:
                                y += 1
                            search(n + 1, y)
                        board[x] = board[x + d2] = board[x + d3] = board[x + d4] = board[x + d5] = 0
                        used[p] = False

    search(1, stride + 1)
    print("РЕШЕНИЙ:", solutions)


main()
