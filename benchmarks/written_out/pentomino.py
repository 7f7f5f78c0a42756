"""Pentomino 3 × 20 (programs/pentomino.pseudo, display mode 0): the book's loops and arrays, written out.

Not a twin, and not the book's shape either: benchmarks/shapes/pentomino.py is the program as
the book writes it, each phrase a function. This file is what code that keeps the book's loops
(ДЛЯ over the indices of кус, ор, d) and its arrays can at best be when everything called once
per step is written out in place, as `pseudo run`'s in-memory code may do: the phrases «кусок p
свободен», «ориентация о помещается на поле n», «поставить …», «снять кусок n», «найти первое
свободное поле для n» and the function конфигурация are written out in ИСКАТЬ, the arrays are
plain lists, о is a local, and no step is counted. benchmarks/bench.py prints it ÷ the twin as
the floor of the «pseudo run» and «emitted .py --limits» rows: those count steps besides.
The input, the figures and the preparation are the book-shaped file's, imported: only the
search differs.
"""
import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "book_shape", pathlib.Path(__file__).resolve().parent.parent / "shapes" / "pentomino.py")
book = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(book)  # reads the input and prepares the game, as the book does
кус, кусков, ор, ориентаций, d, кусок = book.кус, book.кусков, book.ор, book.ориентаций, book.d, book.кусок
поле, ниже, занят, к, конф, поставлена = book.поле, book.ниже, book.занят, book.к, book.конф, book.поставлена


# ---- the search: ИСКАТЬ with what it calls written out ----

def ИСКАТЬ(n):
    q = конф[n]
    кус_q, ориентаций_q, ор_q = кус[q], ориентаций[q], ор[q]
    x = к[n]
    for i in range(1, кусков[q] + 1):
        if not занят[кус_q[i]]:
            ор_q_i = ор_q[i]
            for j in range(1, ориентаций_q[i] + 1):
                о = ор_q_i[j]
                d_о = d[о]
                if поле[x + d_о[2]] == 0 and поле[x + d_о[3]] == 0 and поле[x + d_о[4]] == 0 and поле[x + d_о[5]] == 0:
                    p = кусок[о]
                    поле[x + d_о[1]] = p
                    поле[x + d_о[2]] = p
                    поле[x + d_о[3]] = p
                    поле[x + d_о[4]] = p
                    поле[x + d_о[5]] = p
                    занят[p] = True
                    поставлена[n] = о
                    if n == 12:
                        book.выписать_решение()
                    else:
                        y = x
                        while поле[y] != 0:
                            y = y + 1
                        к[n + 1] = y
                        r = 2 ** ниже[y]
                        for k in range(1, ниже[y] + 1):
                            if поле[y + k] == 0:
                                r = r + 2 ** (k - 1)
                        конф[n + 1] = r
                        ИСКАТЬ(n + 1)
                    d_о = d[поставлена[n]]
                    поле[x + d_о[1]] = 0
                    поле[x + d_о[2]] = 0
                    поле[x + d_о[3]] = 0
                    поле[x + d_о[4]] = 0
                    поле[x + d_о[5]] = 0
                    занят[кусок[поставлена[n]]] = False


ИСКАТЬ(1)
print("РЕШЕНИЙ:", book.решений)
