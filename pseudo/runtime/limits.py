"""Steps, call depth and time: the limits every run obeys, and Ctrl-C.

A step is a loop iteration, a call or a transfer to a state. Each costs one addition and one
comparison (`шаг`); the limits themselves — steps, time, Ctrl-C — are looked at only every
CHECK_EVERY steps, or at once when a Ctrl-C sets the boundary below the count.
"""
import os
import time

from .values import Пересмотр, fail, show


class Limits:
    """What bounds a run — and fixes its random numbers (`seed`: --seed N; None, a seed of its own)."""
    __slots__ = ("max_depth", "max_steps", "seed", "time_limit")

    def __init__(self, max_steps=1_000_000_000, max_depth=100_000, time_limit=3600.0, seed=None):
        self.max_steps, self.max_depth, self.time_limit, self.seed = max_steps, max_depth, time_limit, seed

    def __repr__(self):
        return (f"Limits(max_steps={self.max_steps}, max_depth={self.max_depth}, time_limit={self.time_limit}, "
                f"seed={self.seed})")

    def __eq__(self, other):
        return type(other) is Limits and repr(self) == repr(other)


CHECK_EVERY = 1 << 14

шаги = 0  # steps taken so far
граница = CHECK_EVERY  # the count at which the limits are next looked at
глубина = 0  # calls in progress
предел_шагов = предел_глубины = 0
предел_времени = срок = 0.0
прервано = False


def start_limits(limits):
    """Fresh counters for a new run."""
    global шаги, граница, глубина, предел_шагов, предел_глубины, предел_времени, срок, прервано
    шаги, глубина, прервано = 0, 0, False
    предел_шагов, предел_глубины, предел_времени = limits.max_steps, limits.max_depth, limits.time_limit
    граница = min(CHECK_EVERY, предел_шагов)
    срок = time.monotonic() + предел_времени


def restart_limits():
    """The counters for a run begun again; its time and a Ctrl-C carry on."""
    global шаги, глубина, граница
    шаги, глубина = 0, 0
    граница = -1 if прервано else min(CHECK_EVERY, предел_шагов)


def steps_taken():
    return шаги


def шаг():
    """One step: a loop iteration or a transfer to a state."""
    global шаги
    шаги += 1
    if шаги > граница:
        проверить_пределы()


def проверить_пределы():
    global граница
    if прервано:
        raise fail("interrupted")
    if шаги > предел_шагов:
        raise fail("step-limit", limit=предел_шагов)
    if time.monotonic() > срок:
        raise fail("time-limit", limit=f"{предел_времени:g}")
    граница = min(шаги + CHECK_EVERY, предел_шагов)


def пределы(счёт):
    """The fast code's look at the limits, when its own count of steps passes its boundary:
    Ctrl-C and the time as always; its count (never below the true one) at the step limit
    hands over to the exact code. Gives the next boundary."""
    if прервано:
        raise fail("interrupted")
    if счёт > предел_шагов:
        raise Пересмотр
    if time.monotonic() > срок:
        raise fail("time-limit", limit=f"{предел_времени:g}")
    return min(счёт + CHECK_EVERY, предел_шагов)


def войти():
    """The start of a call: one level deeper, and one step."""
    global глубина, шаги
    if глубина >= предел_глубины:
        raise fail("depth-limit", limit=предел_глубины)
    глубина += 1
    шаги += 1
    if шаги > граница:
        проверить_пределы()


def выйти(значение=None):
    """The end of a call; gives back the call's value."""
    global глубина
    глубина -= 1
    return значение


def цикл_не_кончится(условие, неизменное, имена, значения):
    """A ПОКА whose condition nothing in its body can change (analysis/loops.py) has run its
    body once and comes back to its condition, which still holds: it cannot end."""
    shown = ", ".join(f"{имя} = {show(v)}" for имя, v in zip(имена, значения))
    raise fail("endless-while", cond=условие, unchanged=неизменное, values=f" ({shown})" if shown else "",
               example=f": например, {имена[0]} := {имена[0]} + 1" if имена else "")


# ---- random numbers: one generator per run, seeded (СЛУЧАЙНОЕ) ----

ГЕНЕРАТОР = None  # made at the first СЛУЧАЙНОЕ of a run (`random` is imported then, not at start)
СЕМЯ = 0  # the seed of the run: the same numbers again when the run begins again


def start_random(seed=None):
    """The generator of a new run: `--seed N`, or a seed of its own (kept for a replay)."""
    global СЕМЯ
    СЕМЯ = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    restart_random()


def restart_random():
    global ГЕНЕРАТОР
    ГЕНЕРАТОР = None


def generator():
    global ГЕНЕРАТОР
    if ГЕНЕРАТОР is None:
        import random
        ГЕНЕРАТОР = random.Random(СЕМЯ)
    return ГЕНЕРАТОР


def interrupt():
    """Ctrl-C: the program stops at its next step."""
    global прервано, граница
    прервано, граница = True, -1
