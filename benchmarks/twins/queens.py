"""Twin of programs/queens_recursive.pseudo: the recursive eight queens HR(k).

Row k tries columns i = 1..8 in order; a square is free when its column, its k + i diagonal
and its k - i + 9 diagonal are free (the book's arrays кол, д1, д2, here lists of booleans
indexed as in the program).  Each of the 92 solutions is printed as the columns c[1] .. c[8]
separated by spaces, in the order the search finds them.
"""
import sys


def main():
    c = [0] * 9
    col = [True] * 9
    d1 = [True] * 17
    d2 = [True] * 17
    out = []

    def hr(k):
        for i in range(1, 9):
            if col[i] and d1[k + i] and d2[k - i + 9]:
                c[k] = i
                col[i] = d1[k + i] = d2[k - i + 9] = False
                if k == 8:
                    out.append(" ".join(map(str, c[1:])))
                else:
                    hr(k + 1)
                col[i] = d1[k + i] = d2[k - i + 9] = True

    hr(1)
    sys.stdout.write("\n".join(out) + "\n")


main()
