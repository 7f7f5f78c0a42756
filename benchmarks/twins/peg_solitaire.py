"""Twin of programs/peg_solitaire.pseudo (input "0": no live display).

The same depth-first search РЕШИТЬ: squares row by row, columns left to right, directions
left, up, right, down; every direction tried on a peg counts one test (проверок).  The board
is a list of lists indexed like the program's доска[r, c] with the 'х' / '-' / ' ' marks;
the program's two wall rows and columns on each side are rows and columns 0, 8, 9 and -1
(Python's index -1 is the last one, 10, also a wall).  The 31 jumps are kept in a list;
the output is the jumps, the final board and the number of tests.
"""
import sys

PEG, HOLE, WALL = "х", "-", " "
DIRS = ((0, -1), (-1, 0), (0, 1), (1, 0))   # left, up, right, down


def main():
    show = int(sys.stdin.read().split()[0])
    if show != 0:
        sys.exit("peg_solitaire.py: only display mode 0 is supported")
    board = [[PEG if 1 <= r <= 7 and 1 <= c <= 7 and (3 <= r <= 5 or 3 <= c <= 5) else WALL
              for c in range(11)] for r in range(11)]
    board[4][4] = HOLE
    jumps = []
    pegs = 32
    tests = 0

    def solve():
        nonlocal pegs, tests
        for r in range(1, 8):
            for c in range(1, 8):
                if board[r][c] == PEG:
                    for dr, dc in DIRS:
                        tests += 1
                        r1, c1, r2, c2 = r + dr, c + dc, r + 2 * dr, c + 2 * dc
                        if board[r1][c1] == PEG and board[r2][c2] == HOLE:
                            board[r][c] = board[r1][c1] = HOLE
                            board[r2][c2] = PEG
                            pegs -= 1
                            jumps.append((r, c, r2, c2))
                            if solve():
                                return True
                            jumps.pop()
                            board[r][c] = board[r1][c1] = PEG
                            board[r2][c2] = HOLE
                            pegs += 1
        return pegs == 1 and board[4][4] == PEG

    if solve():
        for jump in jumps:
            print(*jump)
        for r in range(1, 8):
            print("".join(board[r][1:8]))
    else:
        print("РЕШЕНИЯ НЕТ")
    print("ПРОВЕРОК:", tests)


main()
