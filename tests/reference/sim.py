"""Reference for Sim (Игра 22), from the game's statement: six points, fifteen segments;
who completes a triangle of their own colour loses."""
from itertools import combinations

SEGMENTS = list(combinations(range(1, 7), 2))


def closes_own(colours: dict, a: int, b: int, who: int) -> bool:
    """Would drawing a-b in colour `who` complete a triangle of that colour?"""
    return any(colours.get(frozenset((a, c))) == who and colours.get(frozenset((b, c))) == who
               for c in range(1, 7) if c not in (a, b))
