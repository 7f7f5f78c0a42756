"""The knight's count (mode 2 of programs/knight_tour.pseudo) in the book's shape, in plain Python.

Not a twin: the twins are written as a Python programmer would solve the puzzle. This file
is the program as the article writes it, written by hand as a reader writes Python: the
global шаг and обходов, the board доска[x][y] as a list of lists, the moves dx[i], dy[i],
and the phrase «поле x, y свободно» a function called where the article calls it. It is
what the readable file of `pseudo py` can at best be, with nothing of pseudo's runtime:
benchmarks/bench.py prints it ÷ the twin as the floor of the «emitted .py» row.
Reads N, the start row and column and the mode (2 only).
"""
import sys


def поле_свободно(x, y):
    return x >= 1 and x <= N and y >= 1 and y <= N and доска[x][y] == 0


def СЧЁТ(x0, y0):
    global шаг, обходов
    if поле_свободно(x0, y0):
        доска[x0][y0] = шаг
        шаг = шаг + 1
        if шаг > N * N:
            обходов = обходов + 1
        else:
            for i in range(1, 9):
                СЧЁТ(x0 + dx[i], y0 + dy[i])
        шаг = шаг - 1
        доска[x0][y0] = 0


N, x, y, режим = map(int, sys.stdin.read().split()[:4])
if режим != 2:
    sys.exit("shapes/knight.py: only mode 2 (the count) is written")
dx = [0, 1, 1, -1, -1, 2, 2, -2, -2]
dy = [0, -2, 2, -2, 2, -1, 1, 1, -1]
доска = [[0] * (N + 1) for _ in range(N + 1)]
шаг, обходов = 1, 0
СЧЁТ(x, y)
print("ОБХОДОВ:", обходов)
