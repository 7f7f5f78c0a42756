"""Twin of programs/knight_tour.pseudo: reads N, the start row and column, and the mode.

Mode 0 is the article's search ХОД, mode 1 Warnsdorff's rule ВАРНСДОРФ (moves ordered by
the number of onward exits counted on entering the square, ties in the article's order,
each tried move marked 9 as in оценка), mode 2 counts every tour СЧЁТ.  The eight moves are
tried in the article's order (1,-2) (1,2) (-1,-2) (-1,2) (2,-1) (2,1) (-2,1) (-2,-1); the
board доска[x, y] is a list of lists of move numbers (0 = free) with the same bounds test.
The global шаг of the program is passed as the argument step (the number written on the
square); the tour count of mode 2 is the value returned.  Output: the board of move
numbers or НЕТ ОБХОДА, or ОБХОДОВ: n.
"""
import sys

MOVES = ((1, -2), (1, 2), (-1, -2), (-1, 2), (2, -1), (2, 1), (-2, 1), (-2, -1))


def main():
    n, x, y, mode = map(int, sys.stdin.read().split()[:4])
    if n < 1 or x < 1 or x > n or y < 1 or y > n:
        print("начальное поле", x, y, "не на доске", n, "на", n)
        return
    if mode not in (0, 1, 2):
        print("режим — 0, 1 или 2, а задано", mode)
        return
    board = [[0] * (n + 1) for _ in range(n + 1)]
    last = n * n

    def tour(x0, y0, step):
        if 1 <= x0 <= n and 1 <= y0 <= n and board[x0][y0] == 0:
            board[x0][y0] = step
            if step == last:
                return True
            for dx, dy in MOVES:
                if tour(x0 + dx, y0 + dy, step + 1):
                    return True
            board[x0][y0] = 0
        return False

    def exits(x, y):
        count = 0
        for dx, dy in MOVES:
            if 1 <= x + dx <= n and 1 <= y + dy <= n and board[x + dx][y + dy] == 0:
                count += 1
        return count

    def warnsdorff(x0, y0, step):
        board[x0][y0] = step
        if step == last:
            return True
        score = []
        for dx, dy in MOVES:
            x, y = x0 + dx, y0 + dy
            score.append(exits(x, y) if 1 <= x <= n and 1 <= y <= n and board[x][y] == 0 else 9)
        for _ in range(8):
            best = -1
            for i in range(8):
                if score[i] < 9 and (best < 0 or score[i] < score[best]):
                    best = i
            if best < 0:
                break
            score[best] = 9
            dx, dy = MOVES[best]
            if warnsdorff(x0 + dx, y0 + dy, step + 1):
                return True
        board[x0][y0] = 0
        return False

    def count(x0, y0, step):
        tours = 0
        if 1 <= x0 <= n and 1 <= y0 <= n and board[x0][y0] == 0:
            board[x0][y0] = step
            if step == last:
                tours = 1
            else:
                for dx, dy in MOVES:
                    tours += count(x0 + dx, y0 + dy, step + 1)
            board[x0][y0] = 0
        return tours

    if mode == 2:
        print("ОБХОДОВ:", count(x, y, 1))
    elif warnsdorff(x, y, 1) if mode == 1 else tour(x, y, 1):
        for i in range(1, n + 1):
            print(*board[i][1:])
    else:
        print("НЕТ ОБХОДА")


main()
