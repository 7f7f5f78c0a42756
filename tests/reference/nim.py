"""Reference for Nim (Игра 19): the rules and the winning criterion, from the game's statement.

Four heaps; a move takes at least one match from one heap; who takes the last match wins.
A position is lost for the player to move exactly when the XOR of the heaps (the nim-sum) is 0.
"""
from functools import reduce
from operator import xor


def nim_sum(heaps) -> int:
    return reduce(xor, heaps, 0)


def legal(heaps, heap: int, take: int) -> bool:
    return 1 <= heap <= len(heaps) and 1 <= take <= heaps[heap - 1]
