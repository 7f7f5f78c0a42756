"""Steps, call depth and time: the limits every run obeys, and Ctrl-C; and the watch for a
program that does not end.

A step is a loop iteration, a call or a transfer to a state. Each costs one addition and one
comparison (`шаг`); the limits themselves — steps, time, Ctrl-C — are looked at only every
CHECK_EVERY steps, or at once when a Ctrl-C sets the boundary below the count.

At those looks the run's `Watch` (DIALECT.md, «Programs that do not end») notes where the
program is, so that the step limit's message names the line that took the most steps; and,
once the run has gone on for WATCH_AFTER steps, it keeps a snapshot of the program's state
now and then and compares the state at later looks with it: the same point of the same call
with every variable, element, input position, output and random state equal means the program
will repeat itself forever, and the run stops there. The snapshots are taken by a reader of
the mode that runs (runner.py for compiled code, the interpreter's own); the interpreter and
the exact code look at the same steps and compare the same things, so they stop at the same
look; the fast code hands a repeat over to the exact code, as it does the step limit.

The fast code counts its steps in bulk and from above (pygen/weights.py): a call of peg
solitaire's search counts 12,405 steps at its entry, most of which it never takes. Its window
between two looks (`пределы`) is therefore measured in time: it doubles while the looks come
less than LOOK_AGAIN apart and halves when they come more than ten times that apart, so the
limits are looked at some hundred times a second whatever one count weighs.

A run that goes on for seconds without reading, printing or pausing is told, once,
where it is now and how to stop it (its `Notice`, given by `pseudo run`): a loop that never
ends without repeating a state (`x := x + 1`) would otherwise be silent until the step limit.
"""
import os
import sys
import time

from .values import Failure, Пересмотр, Ячейка, brief, fail, is_fraction


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
WIDEST = 1 << 26  # the fast code's widest window
LOOK_AGAIN = 0.01  # seconds: looks closer than this widen the fast code's window

шаги = 0  # steps taken so far
граница = CHECK_EVERY  # the count at which the limits are next looked at
окно = CHECK_EVERY  # the fast code's window between two looks, in steps of its count
взгляд = 0.0  # when the fast code last looked
глубина = 0  # calls in progress
предел_шагов = предел_глубины = 0
предел_времени = срок = 0.0
прервано = False
ЗАМЕТКА = None  # the run's Notice until it has told (see the module's docstring), or None


def start_limits(limits, watch=None, notice=None):
    """Fresh counters for a new run; `watch`: its Watch, or None; `notice`: its Notice, or None."""
    global шаги, граница, глубина, предел_шагов, предел_глубины, предел_времени, срок, прервано, окно, взгляд
    global НАБЛЮДЕНИЕ, ЗАМЕТКА
    предел_шагов, предел_глубины, предел_времени = limits.max_steps, limits.max_depth, limits.time_limit
    шаги, глубина, прервано, НАБЛЮДЕНИЕ, ЗАМЕТКА = 0, 0, False, _watching(watch), notice
    граница = min(CHECK_EVERY if watch is None else watch.every, предел_шагов)
    взгляд = time.monotonic()
    срок = взгляд + предел_времени
    окно = CHECK_EVERY


def restart_limits(watch=None):
    """The counters for a run begun again, and its Watch; its time and a Ctrl-C carry on."""
    global шаги, глубина, граница, НАБЛЮДЕНИЕ
    шаги, глубина, НАБЛЮДЕНИЕ = 0, 0, _watching(watch)
    граница = -1 if прервано else min(CHECK_EVERY if watch is None else watch.every, предел_шагов)


def _watching(watch):
    """The run's Watch, begun by half the step limit at the latest and looking some 32 times
    before it: a limit below WATCH_AFTER (a task's 1,000,000, or 100,000) would otherwise stop
    a program that repeats itself at the limit, not at the repeat."""
    if watch is not None:
        watch.after = min(watch.after, предел_шагов // 2)
        watch.every = min(watch.every, max(предел_шагов // 64, 16))
    return watch


def steps_taken():
    return шаги


def шаг():
    """One step: a loop iteration or a transfer to a state."""
    global шаги
    шаги += 1
    if шаги > граница:
        проверить_пределы(AT_STEP)


AT_STEP, AT_ENTRY = 1, 2  # who looks at the limits: a step, the entry of a call (their caller is two frames up)


def проверить_пределы(who=None):
    """The look at the limits every CHECK_EVERY steps (`who`: AT_STEP or AT_ENTRY; None from
    a pause, which is not a place in the program)."""
    global граница
    if прервано:
        raise fail("interrupted")
    if шаги > предел_шагов:
        if who is not None and НАБЛЮДЕНИЕ is not None:
            НАБЛЮДЕНИЕ.note(sys._getframe(2), who == AT_STEP)
        raise fail("step-limit", limit=предел_шагов, hot="", where="", sites=НАБЛЮДЕНИЕ and НАБЛЮДЕНИЕ.hottest())
    now = time.monotonic()
    if now > срок:
        raise fail("time-limit", limit=f"{предел_времени:g}")
    watched = who is not None and НАБЛЮДЕНИЕ is not None
    if watched and ЗАМЕТКА is not None:
        _tell_if_quiet(sys._getframe(2), who == AT_STEP, now)
    граница = min(шаги + (НАБЛЮДЕНИЕ.look(sys._getframe(2), who == AT_STEP, шаги) if watched else CHECK_EVERY),
                  предел_шагов)


def пределы(счёт):
    """The fast code's look at the limits, when its own count of steps passes its boundary:
    Ctrl-C and the time as always; its count (never below the true one) at the step limit,
    or a state that came back, hands over to the exact code. Gives the next boundary: a window
    on, as wide as keeps the looks about LOOK_AGAIN apart (see the module's docstring)."""
    global окно, взгляд
    if прервано:
        raise fail("interrupted")
    if счёт > предел_шагов:
        raise Пересмотр
    now = time.monotonic()
    if now > срок:
        raise fail("time-limit", limit=f"{предел_времени:g}")
    apart, взгляд = now - взгляд, now
    if apart < LOOK_AGAIN:
        окно = min(окно * 2, WIDEST)
    elif apart > 10 * LOOK_AGAIN:
        окно = max(окно // 2, CHECK_EVERY)
    if ЗАМЕТКА is not None and НАБЛЮДЕНИЕ is not None:
        _tell_if_quiet(sys._getframe(1), True, now)
    if НАБЛЮДЕНИЕ is not None and счёт >= WATCH_AFTER and now >= НАБЛЮДЕНИЕ.due:
        НАБЛЮДЕНИЕ.due = now + FAST_LOOK_EVERY
        try:
            return min(счёт + НАБЛЮДЕНИЕ.look(sys._getframe(1), True, счёт), предел_шагов)
        except Failure:  # the state came back: the exact code finds it, and says where
            raise Пересмотр from None
    return min(счёт + окно, предел_шагов)


def _tell_if_quiet(frame, at_step, now):
    """At a look: the run's Notice tells where the program is (`site` of the Watch's reader),
    if the run has been quiet long enough; then it is done."""
    global ЗАМЕТКА
    if ЗАМЕТКА.due(now):
        notice, ЗАМЕТКА = ЗАМЕТКА, None
        notice.tell(НАБЛЮДЕНИЕ.reader.site(frame, at_step))


def войти():
    """The start of a call: one level deeper, and one step."""
    global глубина, шаги
    if глубина >= предел_глубины:
        raise fail("depth-limit", limit=предел_глубины)
    глубина += 1
    шаги += 1
    if шаги > граница:
        проверить_пределы(AT_ENTRY)


def войти_на_глубину(глубина_вызова):
    """The start of a call whose depth its caller keeps (the closures the views run on: the
    length of their stack of calls), one step; no выйти() at its end."""
    global шаги
    if глубина_вызова >= предел_глубины:
        raise fail("depth-limit", limit=предел_глубины)
    шаги += 1
    if шаги > граница:
        проверить_пределы(AT_ENTRY)


def выйти(значение=None):
    """The end of a call; gives back the call's value."""
    global глубина
    глубина -= 1
    return значение


def цикл_не_кончится(условие, неизменное, имена, значения):
    """A ПОКА whose condition nothing in its body can change (analysis/loops.py) has run its
    body once and comes back to its condition, which still holds: it cannot end."""
    shown = ", ".join(f"{имя} = {brief(v)}" for имя, v in zip(имена, значения))
    raise fail("endless-while", cond=условие, unchanged=неизменное, values=f" ({shown})" if shown else "",
               example=f": например, {имена[0]} := {имена[0]} + 1" if имена else "")


# ---- the watch for a program that does not end ----

WATCH_AFTER = 1 << 20  # steps before snapshots begin: a run that ends sooner never pays for one
# A traced run watches from its first look, and looks more often: its events cost far more than
# a snapshot, and its event limit (every step is at least one event) would otherwise come first.
TRACED_WATCH_AFTER, TRACED_LOOK_EVERY = 0, 1 << 10
# The fast code counts steps in bulk, far above the true count in some programs: it looks at its
# state by the clock — from a quarter of a second into the run, at most every 5 ms (it only
# hands a repeat over; where the run stops is the exact code's to find, by its steps).
FAST_WATCH_AFTER, FAST_LOOK_EVERY = 0.25, 0.005
SNAPSHOT_BUDGET = 1000  # elements of arrays a snapshot may copy per look; a larger state is taken at fewer looks
НАБЛЮДЕНИЕ = None  # the run's Watch


class Watch:
    """Where a run is at each look at the limits, and whether its state has come back.

    `reader`: the mode's reader of the program's state, given the frame of the step's caller:
    `site(frame, at_step)`, where the program is (a hashable of the mode's own, which the
    report makes a line); `call(frame)`, the call in progress (its frame: only a call that
    stays in place can be seen to repeat); `snapshot(frame)`: the state as a hashable that is
    equal only for equal states — the call, the point in it, its variables, the globals,
    arrays, input, output and random numbers —, and the number of elements of arrays in it;
    and `variables(frame)`: the values of the variables the call sees and of the main
    program's, by name (Python's, for compiled code), for the message. `watchable`: False
    when some ДЛЯ's variable may change under its loop (analysis/loops.py: which turn it is
    would not be in any variable).

    Snapshots follow Brent's method: one kept snapshot, replaced after 1, 2, 4, 8 … looks,
    and compared with each later one of the same call. Only a call seen at one of the last
    RECENT looks may be kept: a call made inside the cycle (a procedure the loop calls) ends
    before the state comes back. A state of `n` elements is taken at one look in
    `n // SNAPSHOT_BUDGET + 1`. The looks come at steps a little apart (a jitter), so that
    a cycle whose length divides CHECK_EVERY is not always seen at the same places."""

    RECENT = 8

    def __init__(self, reader, watchable=True, fast=False, traced=False):
        self.reader, self.watchable, self.fast = reader, watchable, fast
        self.after = TRACED_WATCH_AFTER if traced else WATCH_AFTER  # steps before snapshots begin
        self.every = TRACED_LOOK_EVERY if traced else CHECK_EVERY  # steps between looks, once they begin
        self.due = time.monotonic() + FAST_WATCH_AFTER if fast else 0.0  # the fast code's next look
        self.sites = {}  # site → looks that found the program there
        self.kept = None  # (hash, snapshot) kept; its call is snapshot[0]
        self.since, self.power = 0, 1  # looks since the kept snapshot; when it is replaced
        self.recent = []  # the calls of the last looks
        self.wait = 0  # looks to let pass before the next snapshot
        self.looks = 0
        self.deferred = False  # a look put off from the entry of a call to the next step

    def note(self, frame, at_step):
        """Note where the program is (not again at a look put off from the entry of a call; not
        in the fast code, whose step limit the exact code reports)."""
        if not self.deferred and not self.fast:
            site = self.reader.site(frame, at_step)
            self.sites[site] = self.sites.get(site, 0) + 1

    def look(self, frame, at_step, steps):
        """Note where the program is; compare its state with the kept one. The steps to the
        next look."""
        self.note(frame, at_step)
        if not self.watchable or steps < self.after:
            return self.every if self.watchable else CHECK_EVERY
        self.deferred = not at_step
        if not at_step:  # the entry of a call: the look at the state is put off to the next step
            return 1
        self.looks += 1
        after = self.every + self.looks * 2654435761 % min(509, self.every)
        call = self.reader.call(frame)
        same = self.kept is not None and self.kept[1][0] is call
        keep = (self.kept is None or self.since >= self.power) and any(c is call for c in self.recent)
        self.since += 1
        self.recent = [*self.recent[1 - self.RECENT:], call]
        if self.wait or not (same or keep):
            self.wait = max(0, self.wait - 1)
            return after
        snapshot, elements = self.reader.snapshot(frame)
        self.wait = elements // SNAPSHOT_BUDGET
        key = hash(snapshot)
        if same and self.kept[0] == key and self.kept[1] == snapshot:
            raise fail("repeat", values="", repeated=self.reader.variables(frame))
        if keep:
            self.kept, self.since, self.power = (key, snapshot), 0, self.power * 2
        return after

    def hottest(self):
        """The sites of the looks, most frequent first (the report makes them lines)."""
        return sorted(self.sites.items(), key=lambda item: -item[1])


def frozen(value, count):
    """A value of the program as a hashable that is equal only for equal values: arrays (dicts
    of elements, rows of rows) as tuples of their items, a РЕЗ cell by the value in it, ИСТИНА
    apart from 1; None for what is not a value of the program. `count`: a one-item list that
    counts the elements taken."""
    t = type(value)
    if t is int or t is str or is_fraction(value):
        return value
    if t is bool:
        return ("логическое", value)
    if isinstance(value, dict):
        count[0] += len(value)
        return (t.__name__, tuple((k, frozen(v, count)) for k, v in value.items()))
    if t is Ячейка:  # a РЕЗ cell, or a local kept in one
        return ("РЕЗ", frozen(value.или_ничего(), count))
    return None


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


def random_state():
    """Where the run's random numbers stand (None before the first)."""
    return ГЕНЕРАТОР.getstate() if ГЕНЕРАТОР is not None else None


def interrupt():
    """Ctrl-C: the program stops at its next step."""
    global прервано, граница
    прервано, граница = True, -1


def time_is_up():
    """The run's time has passed its limit (seen by the runner's watch): the program stops at
    its next step, not at the next look at the clock, CHECK_EVERY steps on."""
    global граница
    граница = -1


class ВремяВышло(Failure):
    """The time limit, raised in the program's thread by the runner's watch when the program
    has taken no step for a while after its time was up: a long loop of constant bounds, a run
    of slow operations on huge numbers."""

    def __init__(self):
        super().__init__("time-limit", {"limit": f"{предел_времени:g}"})
