"""Pentomino 3 × 20 (programs/pentomino.pseudo, display mode 0) in the book's shape, in plain Python.

Not a twin: benchmarks/twins/pentomino.py solves the puzzle as a Python programmer would.
This file is the program's search as the book writes it, written by hand as a reader writes
Python: the procedure ИСКАТЬ and the phrases «кусок p свободен», «ориентация о помещается на
поле n», «поставить ориентацию о на поле n», «снять кусок n», «найти первое свободное поле
для n» and the function конфигурация, each a function called where the book calls it; the
arrays (поле, к, конф, кус, ор, d, …) plain lists, global as in the book. It is what the
readable file of `pseudo py` can at best be, with nothing of pseudo's runtime:
benchmarks/bench.py prints it ÷ the twin as the floor of the «emitted .py» row. The
preparation (figures, orientations, configuration lists) is the book's too, more briefly.
"""
import sys

FIGURES = ("F", (1, 2, 1, 3, 2, 1, 2, 2, 3, 2)), ("I", (1, 1, 1, 2, 1, 3, 1, 4, 1, 5)), \
    ("L", (1, 1, 1, 2, 1, 3, 1, 4, 2, 1)), ("N", (1, 1, 1, 2, 2, 2, 2, 3, 2, 4)), \
    ("P", (1, 1, 1, 2, 2, 1, 2, 2, 3, 1)), ("T", (1, 1, 1, 2, 1, 3, 2, 2, 3, 2)), \
    ("U", (1, 1, 1, 3, 2, 1, 2, 2, 2, 3)), ("V", (1, 1, 2, 1, 3, 1, 3, 2, 3, 3)), \
    ("W", (1, 1, 2, 1, 2, 2, 3, 2, 3, 3)), ("X", (1, 2, 2, 1, 2, 2, 2, 3, 3, 2)), \
    ("Y", (1, 3, 2, 1, 2, 2, 2, 3, 2, 4)), ("Z", (1, 1, 1, 2, 2, 2, 3, 2, 3, 3))
SYMMETRIES = (1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0), \
    (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)


# ---- the search, as the book writes it ----

def ИСКАТЬ(n):
    for i in range(1, кусков[конф[n]] + 1):
        if кусок_свободен(кус[конф[n]][i]):
            for j in range(1, ориентаций[конф[n]][i] + 1):
                о = ор[конф[n]][i][j]
                if ориентация_помещается_на_поле(о, n):
                    поставить_ориентацию_на_поле(о, n)
                    if n == 12:
                        выписать_решение()
                    else:
                        найти_первое_свободное_поле_для(n + 1)
                        ИСКАТЬ(n + 1)
                    снять_кусок(n)


def кусок_свободен(p):
    return not занят[p]


def ориентация_помещается_на_поле(о, n):
    return (поле[к[n] + d[о][2]] == 0 and поле[к[n] + d[о][3]] == 0
            and поле[к[n] + d[о][4]] == 0 and поле[к[n] + d[о][5]] == 0)


def поставить_ориентацию_на_поле(о, n):
    for m in range(1, 6):
        поле[к[n] + d[о][m]] = кусок[о]
    занят[кусок[о]] = True
    поставлена[n] = о


def снять_кусок(n):
    for m in range(1, 6):
        поле[к[n] + d[поставлена[n]][m]] = 0
    занят[кусок[поставлена[n]]] = False


def найти_первое_свободное_поле_для(n):
    к[n] = к[n - 1]
    while поле[к[n]] != 0:
        к[n] = к[n] + 1
    конф[n] = конфигурация(к[n])


def конфигурация(x):
    результат = 2 ** ниже[x]
    for i in range(1, ниже[x] + 1):
        if поле[x + i] == 0:
            результат = результат + 2 ** (i - 1)
    return результат


def номер(r, c):
    return c * (ряды + 2) + r


def выписать_решение():
    global решений
    решений = решений + 1
    for i in range(1, высота + 1):
        print("".join(знак(поле[номер(i, j) if высота <= ширина else номер(j, i)]) for j in range(1, ширина + 1)))
    print()


def знак(p):
    return "." if p == 0 else буква[p]


# ---- the preparation: figures turned and reflected, the lists of each configuration ----

def подготовить_игру():
    global ряды, длина, решений
    ряды, длина = (высота, ширина) if высота <= ширина else (ширина, высота)
    for c in range(длина + 5):
        for r in range(ряды + 2):
            поле[номер(r, c)] = -1 if c == 0 or c > длина or r == 0 or r > ряды else 0
            ниже[номер(r, c)] = ряды - r
    for p, (letter, cells) in enumerate(FIGURES, 1):
        буква[p] = letter
        for a, b, dd, e in SYMMETRIES:
            image = sorted(((a * cells[2 * m] + b * cells[2 * m + 1], dd * cells[2 * m] + e * cells[2 * m + 1])
                            for m in range(5)), key=lambda rc: (rc[1], rc[0]))
            image = [(r - image[0][0], c - image[0][1]) for r, c in image]
            if not any(кусок[о] == p and клетки[о] == image for о in range(1, len(кусок))):
                кусок.append(p)
                клетки.append(image)
                d.append([None] + [c * (ряды + 2) + r for r, c in image])
    for r in range(1, ряды + 1):
        for b in range(2 ** (ряды - r)):
            q = 2 ** (ряды - r) + b
            for о in range(1, len(кусок)):
                if all(1 <= r + dr <= ряды and (dc != 0 or (b // 2 ** (dr - 1)) % 2 == 1) for dr, dc in клетки[о][1:]):
                    if кусков[q] == 0 or кус[q][кусков[q]] != кусок[о]:
                        кусков[q] += 1
                        кус[q].append(кусок[о])
                        ориентаций[q].append(0)
                        ор[q].append([None])
                    ориентаций[q][кусков[q]] += 1
                    ор[q][кусков[q]].append(о)
    решений = 0
    к[1] = номер(1, 1)
    конф[1] = конфигурация(к[1])


высота, ширина, показ = map(int, sys.stdin.read().split()[:3])
if высота * ширина != 60 or показ != 0:
    sys.exit("shapes/pentomino.py: an area of 60 and display mode 0 only")
size = (max(высота, ширина) + 5) * (min(высота, ширина) + 2)
поле, ниже = [0] * size, [0] * size
буква, занят, к, конф, поставлена = [None] * 13, [False] * 13, [0] * 13, [0] * 13, [0] * 13
кусок, клетки, d = [None], [None], [None]          # orientations from 1
кусков = [0] * 64
кус, ориентаций, ор = [[None] for _ in range(64)], [[None] for _ in range(64)], [[None] for _ in range(64)]
подготовить_игру()
if __name__ == "__main__":  # imported, it is the prepared game (benchmarks/written_out/pentomino.py)
    ИСКАТЬ(1)
    print("РЕШЕНИЙ:", решений)
