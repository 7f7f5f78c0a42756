"""Reference for the signed sum (Головоломка 27), from the puzzle's statement: put + or −
between a1 … ap so that the value is s. Brute force over every sign pattern, the first sign
most significant and + before −."""
from itertools import product


def solutions(numbers: list[int], s: int) -> list[str]:
    lines = []
    for signs in product("+-", repeat=len(numbers) - 1):
        total = numbers[0] + sum(a if sign == "+" else -a for sign, a in zip(signs, numbers[1:]))
        if total == s:
            parts = [str(numbers[0])] + [f"{sign} {a}" for sign, a in zip(signs, numbers[1:])]
            lines.append(" ".join(parts) + f" = {s}")
    return lines or ["НЕТ"]
