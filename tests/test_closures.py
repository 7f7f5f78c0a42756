"""The two evaluators agree: the reference tree walk (pseudo/interpreter.py) and the closures
the views run on (pseudo/closures.py) print the same, fail with the same message (text, place,
caret, hint, call stack), take the same steps, count the same statistics and tell a tracer the
same events, event for event — on the book's programs, every golden program and random ones.
"""
from __future__ import annotations

import hashlib
import io
import random
from pathlib import Path

import fuzz
import pytest
from conftest import LONG, PROGRAMS, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_agreement import programs
from test_golden import FILES, GOLDEN, expectations
from test_runaway import CYCLES, watching_early

import pseudo
from pseudo.errors import PseudoRuntimeError, StaticError
from pseudo.frontend.source import Source
from pseudo.interpreter import Stats
from pseudo.runtime import Limits
from pseudo.runtime.limits import steps_taken
from pseudo.tools.trace import Decoder, TraceLimit, Tracer, end_event
from pseudo.tools.views import JsonlView

MAX_EVENTS = 30_000  # of a long search, the first ones

# A book program and an input that takes it a good way (not always to its end: MAX_EVENTS).
BOOK = [("queens_recursive.pseudo", ""), ("queens_automaton_1.pseudo", ""), ("queens_automaton_2.pseudo", ""),
        ("queens_automaton_3.pseudo", ""), ("signed_sum_iterative.pseudo", "4 1 2 3 4 4\n"),
        ("signed_sum_recursive.pseudo", "4 1 2 3 4 4\n"), ("knight_tour.pseudo", "5 1 1 0\n"),
        ("knight_tour.pseudo", "6 1 1 1\n"), ("knight_tour.pseudo", "5 1 1 2\n"),
        ("pentomino.pseudo", "3 20 0\n"), ("peg_solitaire.pseudo", "0\n"),
        ("fox_capture.pseudo", (PROGRAMS / "fox_capture.txt").read_text(encoding="utf-8")),
        ("nim.pseudo", "3 4 5 0\n1\n1 1\n2 1\n3 1\n"), ("northcott.pseudo", "2 3\n1 2\n1\n"),
        ("sim.pseudo", "1\n1 2\n3 4\n"), ("../tests/programs/hanoi.pseudo", "3\n"),
        ("../tests/programs/bubble_automaton.pseudo", "")]


def observed(loaded, stdin: str, mode: str, limits: Limits | None = None, max_events: int = MAX_EVENTS):
    """What a run shows: traced — its events, output and ending; then untraced with statistics
    — its output, ending, statistics and steps."""
    decode, events = Decoder(), []
    out = io.StringIO()
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, limits=limits, mode=mode,
                   tracer=Tracer(lambda ev: events.append(decode(ev)), max_events))
        ending = None
    except TraceLimit:
        ending = "trace-limit"
    except PseudoRuntimeError as e:
        ending = e.render()
    traced = (events, out.getvalue(), ending)
    stats, out = Stats(), io.StringIO()
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, limits=limits, mode=mode, stats=stats)
        ending = None
    except PseudoRuntimeError as e:
        ending = e.render()
    return traced, (out.getvalue(), ending, stats.states, stats.calls, steps_taken())


def agree(loaded, stdin: str = "", limits: Limits | None = None) -> None:
    (ref_events, *ref_traced), ref_plain = observed(loaded, stdin, "reference", limits)
    (events, *traced), plain = observed(loaded, stdin, "interpret", limits)
    for i, (a, b) in enumerate(zip(ref_events, events)):  # the first event that differs, if any
        assert a == b, f"событие {i + 1}"
    assert len(ref_events) == len(events)
    assert ref_traced == traced
    assert ref_plain == plain

@pytest.mark.parametrize("name, stdin", BOOK, ids=[f"{Path(name).stem}-{i}" for i, (name, _) in enumerate(BOOK)])
def test_book_programs(name: str, stdin: str):
    agree(pseudo.load(Source.from_file(PROGRAMS / name)), stdin, Limits(max_steps=200_000))


@pytest.mark.parametrize("call", ["удвоить(2)", "м[2] := 5\nудвоить(м[2])"])
def test_a_function_called_as_a_statement_lets_the_program_go_on(call):
    """Its value is dropped, as the reference walk and the fast code drop it: the closures once
    took the value for the signal that ends a block, and the program ended there, silently
    (found by the fuzz harness)."""
    loaded = pseudo.load(Source(f"удвоить (v) = v * 2\n{call}\nСООБЩИТЬ 'дальше'\n", "t.pseudo"))
    agree(loaded)
    out = io.StringIO()
    pseudo.run(loaded, stdout=out, mode="interpret")
    assert out.getvalue() == "дальше\n"


RUNNABLE = [p for p in FILES if not expectations(p)["error"]]


@pytest.mark.parametrize("path", RUNNABLE, ids=[str(p.relative_to(GOLDEN)) for p in RUNNABLE])
def test_golden_programs(path: Path):
    exp = expectations(path)
    limits = Limits(max_steps=exp["steps"]) if exp["steps"] else None
    agree(pseudo.load(Source.from_file(path)), "\n".join(exp["in"]) + ("\n" if exp["in"] else ""), limits)


@settings(max_examples=2_000 if LONG else 150, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_random_programs(text: str):
    try:
        loaded = pseudo.load(Source(text, "случайная.pseudo"))
    except StaticError:
        return
    agree(loaded, "", Limits(max_steps=3_000, max_depth=60, time_limit=20))


# The fuzz harness's makers of programs (tests/fuzz.py): mutations of the book's and the golden
# programs, token soups, grammar-shaped programs, deep nesting, phrases in parentheses, empty
# bodies, huge values, errors after a warm loop.
CORPUS = fuzz.corpus()
MAKERS = {"mutated": lambda rng: fuzz.mutate(rng.choice(CORPUS), rng), "soup": fuzz.token_soup,
          "shaped": fuzz.shaped, "deep": fuzz.deep, **{f.__name__: f for f in fuzz.GENERATORS}}


@settings(max_examples=2_000 if LONG else 150, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(MAKERS)), st.integers(0, 2**32 - 1))
def test_fuzz_programs(maker: str, seed: int):
    rng = random.Random(seed)
    text, stdin = MAKERS[maker](rng), rng.choice(fuzz.STDINS)
    try:
        loaded = pseudo.load(Source(text, "случайная.pseudo"))
    except StaticError:
        return
    agree(loaded, stdin, fuzz.LIMITS)


def test_limits_of_depth_and_steps_and_deep_errors():
    """The limits, met at the same step, and a failure deep in a recursion with its stack."""
    text = ("f (n) = ЕСЛИ n = 0 ТО 1 / 0 ИНАЧЕ f(n - 1) + 1 КОНЕЦ_ЕСЛИ\n"
            "g (n) =\n  g(n + 1)\n"
            "ПРОЧЕСТЬ what\nЕСЛИ what = 1 ТО СООБЩИТЬ f(500) КОНЕЦ_ЕСЛИ\n"
            "ЕСЛИ what = 2 ТО g(1) КОНЕЦ_ЕСЛИ\nЕСЛИ what = 3 ТО ВЫПОЛНЯТЬ x := 1 ВЕРНУТЬСЯ КОНЕЦ_ЕСЛИ\n")
    loaded = pseudo.load(Source(text, "t.pseudo"))
    for what in "123":
        agree(loaded, what + "\n", Limits(max_steps=5_000, max_depth=300))



# Each stops at its error (or ends): every kind of failure, where each evaluator places it.
FAILURES = [
    "x := 1 И ИСТИНА", "x := ИСТИНА И 1", "x := ЛОЖЬ ИЛИ 'a'", "x := НЕ 5", "x := ИСТИНА ИЛИ 1",
    "m[ИСТИНА] := 1", "m[1, 'a'] := 2", "m[1, 2] := 1\nСООБЩИТЬ m[1, ИСТИНА]", "m[1, 2, 'x'] := 1",
    "СООБЩИТЬ m[1, 2, ИСТИНА]", "m[1] := 1\nСООБЩИТЬ m[2]", "m[1, 1] := 1\nСООБЩИТЬ m[1, 2]",
    "m[1, 1, 1] := 1\nСООБЩИТЬ m[1, 1, 2]", "m[5] := 1\nСООБЩИТЬ m[m[5] + 'a']", "СООБЩИТЬ y",
    "«занести (РЕЗ y)» = y := 1\nзанести m['a']", "«прочесть (РЕЗ y)» = СООБЩИТЬ y\nпрочесть m[3]",
    "«прочесть (РЕЗ y)» = СООБЩИТЬ y\nпрочесть z", "f (a) =\n  СООБЩИТЬ b\nf(1)", "f (a) =\n  СООБЩИТЬ a + b\nf(1)",
    "ЕСЛИ 5 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ", "ПОКА 'a' ВЫПОЛНЯТЬ СООБЩИТЬ 1 ВЕРНУТЬСЯ",
    "x := ЕСЛИ 1 ТО 2 ИНАЧЕ 3 КОНЕЦ_ЕСЛИ", "ДЛЯ i := 'a' ДО 3 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ",
    "ДЛЯ i := 1 ШАГ 0 ДО 3 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ", "ДЛЯ i := 1/2 ШАГ 1/3 ДО 2 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ",
    "x := 'a' + 1", "x := 1 / 0", "x := -'a'", "x := 7 ДЕЛ 0", "x := 7 ОСТ 0", "x := 'a' < 1",
    "x := ИСТИНА < ЛОЖЬ", "x := 2 ^ 'a'", "x := 1 - ИСТИНА", "x := 'a' * 2",
    "СООБЩИТЬ 1/3 + 1/3, (1/2) * 2 = 1, 'a' = 'a', 'a' < 'b', ИСТИНА = ИСТИНА, ИСТИНА = 1, 'a' ≠ 1, 7 ДЕЛ -2, -7 ОСТ 3",
    "x := ДЛИНА(5)", "P =\n  y := 1\nx := P", "x := 1\nx := x + 1\nСООБЩИТЬ x - 1, x * 2, x ≥ 2, x ≤ 1, x ≠ 2",
    "курсор в строку 'a', столбец 1", "пауза 'a'", "курсор в строку 1, столбец 1\nочистить экран\nпауза 0",
    "ПРОЧЕСТЬ a, b", "f (n) = f(n + 1)\nСООБЩИТЬ f(1)", "ВЫПОЛНЯТЬ x := 1 ВЕРНУТЬСЯ", "С: С",
    "ПОКА ИСТИНА ВЫПОЛНЯТЬ x := 1 ВЕРНУТЬСЯ", "ДЛЯ i := 1 ДО 10000 ВЫПОЛНЯТЬ x := 1 ВЕРНУТЬСЯ",
    "ВЫПОЛНЯТЬ ЕСЛИ x = 3 ТО КОНЧЕНО КОНЕЦ_ЕСЛИ; x := x + 1 ВЕРНУТЬСЯ",
    "x := 0\nВЫПОЛНЯТЬ ЕСЛИ x = 3 ТО КОНЧЕНО КОНЕЦ_ЕСЛИ; x := x + 1 ВЕРНУТЬСЯ\nСООБЩИТЬ x\nКОНЕЦ_РАБОТЫ\nСООБЩИТЬ 1",
    "g (РЕЗ y) =\n  ДЛЯ y := 1 ДО 2 ВЫПОЛНЯТЬ СООБЩИТЬ y ВЕРНУТЬСЯ\ng(m[1])\nx := 0\ng(x)\nСООБЩИТЬ m[1], x",
    "g (РЕЗ y) =\n  ПРОЧЕСТЬ y\nh (РЕЗ z) =\n  g(z)\nh(m[2])\nh(q)\nСООБЩИТЬ m[2], q",
    # a local variable read before it has a value: as an operand, an index, an argument
    *[f"f (a) =\n  x := {use}\n  ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ ВЕРНУТЬСЯ\ng (b, c) = b\n«h (РЕЗ y) и (z)» = z\n"
      f"m[1] := 1\nm[1, 1] := 1\nСООБЩИТЬ f(1)"
      for use in ("i + 1", "a + i", "i * i", "1 - (a + i)", "m[i]", "m[a, i]", "m[i, a, 1]", "g(a, i)", "g(i, i)",
                  "h i и i", "g(a, m[i])", "i = 1", "a < i", "НЕ i", "i И a", "-i", "ДЛИНА(i)", "РЕЗУЛЬТАТ + a")],
]


@pytest.mark.parametrize("text", FAILURES)
def test_failures_and_their_places(text: str):
    agree(pseudo.load(Source(text + "\n", "t.pseudo")), "5 7\n", Limits(max_steps=2_000, max_depth=50))


class Refusing(io.StringIO):
    """An output whose device is full after a few characters."""

    def write(self, text):
        if self.tell() + len(text) > 12:
            raise OSError(28, "No space left on device")
        return super().write(text)


@pytest.mark.parametrize("text, stdin, stdout", [
    ("ДЛЯ i := 1 ДО 20 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\n  x := i\nВЕРНУТЬСЯ\n", b"", Refusing),
    ("x := 1\nЕСЛИ ввод кончился ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", b"\xff\n", io.StringIO),
    ("x := 1\nПОКА НЕ ввод кончился ВЫПОЛНЯТЬ ПРОЧЕСТЬ y ВЕРНУТЬСЯ\n", b"1 \xff\n", io.StringIO),
])
def test_failures_of_python_are_placed_at_the_statement_being_run(text: str, stdin: bytes, stdout):
    """A full device, bytes that are not UTF-8: placed at the statement the run is at."""
    loaded = pseudo.load(Source(text, "t.pseudo"))
    errors = []
    for mode in ("reference", "interpret"):
        with pytest.raises(PseudoRuntimeError) as caught:
            pseudo.run(loaded, stdin=io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"), stdout=stdout(),
                       mode=mode)
        errors.append(caught.value.render())
    assert errors[0] == errors[1]


# The JSON lines of these runs, as the tree walk wrote them before the views ran on closures:
# (file, input, bound on events, events, the first 16 hex digits of the SHA-256 of the lines).
# fox_capture's since a phrase under НЕ is bracketed in a transfer's condition, its one change
# («d ≤ 4 И НЕ (взятие возможно с поля лиса в направлении d)», 331 lines).
STREAMS = [("programs/queens_recursive.pseudo", "", None, 165996, "1cf415807de02e1a"),
           ("programs/knight_tour.pseudo", "5 1 1 0\n", 100_000, 100_000, "0144773414539725"),
           ("programs/peg_solitaire.pseudo", "0\n", 100_000, 100_000, "bb38c3384076dc04"),
           ("programs/pentomino.pseudo", "3 20 0\n", 100_000, 100_000, "be8a77113b76a419"),
           ("programs/signed_sum_recursive.pseudo", "4 1 2 3 4 4\n", None, 168, "cc8af0ab91f335b4"),
           ("tests/programs/hanoi.pseudo", "4\n", None, 214, "7dab6cacec2e0413"),
           ("programs/fox_capture.pseudo", (PROGRAMS / "fox_capture.txt").read_text(encoding="utf-8"), None, 21983,
            "6b0fa0c2f63c44c5")]


@pytest.mark.parametrize("name, stdin, max_events, count, digest", STREAMS, ids=[s[0] for s in STREAMS])
def test_event_streams_are_those_of_before(name: str, stdin: str, max_events, count: int, digest: str):
    loaded = pseudo.load(Source((ROOT / name).read_text(encoding="utf-8"), name))
    lines = io.BytesIO()
    text = io.TextIOWrapper(lines, encoding="utf-8")
    view = JsonlView(text)
    tracer = Tracer(view, max_events)
    outcome = "ok"
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=io.StringIO(), tracer=tracer, mode="interpret")
    except TraceLimit:
        outcome = "trace-limit"
    view(end_event(tracer.count + 1, outcome))
    view.finish()
    text.flush()
    assert (tracer.count, hashlib.sha256(lines.getvalue()).hexdigest()[:16]) == (count, digest)


@pytest.mark.parametrize("name", CYCLES)
def test_a_state_that_comes_back_stops_both_at_the_same_look(name: str):
    """The watch reads the state of a run on closures (closures.ClosureStateReader) as it
    reads the tree walk's: both stop at the same look, with the same message."""
    with watching_early():
        agree(pseudo.load(Source(CYCLES[name][0], "п.pseudo")), "", Limits(max_steps=200_000))
