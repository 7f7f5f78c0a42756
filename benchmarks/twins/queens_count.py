"""Twin of the eight-queens count in benchmarks/bench.py (the recursive HR of
programs/queens_recursive.pseudo, counting the solutions instead of printing them): row k
tries columns 1..8 in order; a square is free when its column and both diagonals are."""


def main():
    col = [True] * 9
    d1 = [True] * 17
    d2 = [True] * 17
    count = 0

    def hr(k):
        nonlocal count
        for i in range(1, 9):
            if col[i] and d1[k + i] and d2[k - i + 9]:
                if k == 8:
                    count += 1
                else:
                    col[i] = d1[k + i] = d2[k - i + 9] = False
                    hr(k + 1)
                    col[i] = d1[k + i] = d2[k - i + 9] = True

    hr(1)
    print(count)


main()
