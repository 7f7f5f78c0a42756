"""Loading a program (parse, resolve, analyse, check) and translating it take time linear in its length.

Each shape below once took quadratic time or worse; a program eight times longer must load in
less than twenty-four times the time (linear is eight — a little more for programs small
enough to stay in the processor's caches — and quadratic sixty-four). CPU time, the best of a
few runs, so that a busy machine does not decide. `PSEUDO_LONG=1` loads larger programs.
"""
from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

import pytest

import pseudo
from pseudo.errors import PseudoError
from pseudo.execute import deep_call
from pseudo.frontend.source import Source

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench import generated_program  # the benchmark's own program
from conftest import LONG

GROWTH, LIMIT = 8, 24


def states_calling(n: int) -> str:
    """A body of many states, each calling a procedure named alone (once compared with every label)."""
    return "\n".join(["стоп =", "    СООБЩИТЬ 1", "x := 0"] + [f"С{i}: x := x + 1; стоп; С{i + 1}" for i in range(n)]
                     + [f"С{n}: Я"])


def function_chain(n: int) -> str:
    """f0 = f1, f1 = f2, …: whether a call gives a value (once followed from every function)."""
    return "\n".join([f"f{i} = f{i + 1}" for i in range(n)] + [f"f{n} = 1", "СООБЩИТЬ f0"])


def phrases_in_print(n: int) -> str:
    """One СООБЩИТЬ of many values, phrases among them (once cubic in the values)."""
    return "«клетка (r), (c) жива» = r + c\nСООБЩИТЬ " + ", ".join(f"клетка {i}, 1 жива, {i}" for i in range(n))


def recursion_with_globals(n: int) -> str:
    """A recursive procedure that assigns many globals around many calls of itself."""
    body = [line for i in range(n) for line in (f"        г{i} := k", "        р(k - 1)", f"        СООБЩИТЬ г{i}")]
    return "\n".join(["р (k) =", "    ЕСЛИ k > 0 ТО", *body, "    КОНЕЦ_ЕСЛИ", "р(1)"])


def call_cycle(n: int) -> str:
    """Definitions calling each other round a circle: all recursive."""
    return "\n".join([f"p{i} (k) =\n    ЕСЛИ k > 0 ТО p{(i + 1) % n}(k - 1) КОНЕЦ_ЕСЛИ" for i in range(n)] + ["p0(3)"])


def nested_sum(n: int) -> str:
    """A sum nested n deep on its right, `1 + (1 + (… + 1))`: each operand's kind and whether it
    acts were found again from its whole subtree (3,000 deep took 7 s to compile, 30,000 deep
    8.5 minutes)."""
    return "x := " + "(1 + " * n + "1" + ")" * n + "\nСООБЩИТЬ x"


def broken_definitions(n: int) -> str:
    """Definitions each with a pupil's slip whose hint reads the whole file: a second ВЕРНУТЬСЯ,
    a call closed before its last argument (the file was lexed again for every error: 1,500
    such errors took a minute)."""
    return "\n".join(f"Ф{i} (x) =\n  СООБЩИТЬ x\n  ВЕРНУТЬСЯ\nГ{i} (x) =\n  y := МАКС(x, 1), 2)" for i in range(n))


def stray_loop_ends(n: int) -> str:
    """A main program of many lines each followed by a ВЕРНУТЬСЯ that closes nothing: the hint
    looks for the loop it repeats in the main program before it (its chunks were walked again
    for every error: 1,920 such errors took 1.8 s, 240 took 0.02 s)."""
    return "\n".join(f"СООБЩИТЬ {i}\nВЕРНУТЬСЯ" for i in range(n))


def hinted_slips(n: int) -> str:
    """Slips whose hints read the tokens around them in the file: a bracket over ТО, a
    comparison without its left side, a «;» in СООБЩИТЬ, a closing comma, a label without its
    colon — each hint reads its own statement only."""
    slips = ["ЕСЛИ (x = 1 ТО СООБЩИТЬ x) КОНЕЦ_ЕСЛИ", "ЕСЛИ x ≠ 1 И ≠ 2 ТО СООБЩИТЬ x КОНЕЦ_ЕСЛИ", "СООБЩИТЬ x; x",
             "y := 2,", "С{} k := 1"]
    return "x := 1\n" + "\n".join(slip.format(i) for i in range(n) for slip in slips)


def nested_loops(n: int) -> str:
    """ДЛЯ loops of constant bounds nested n deep: each loop's steps were weighed again for every
    loop around it (160 deep took 1.7 s to compile, 0.2 s now)."""
    heads = [" " * k + f"ДЛЯ i{k} := 1 ДО 1 ВЫПОЛНЯТЬ" for k in range(n)]
    ends = [" " * k + "ВЕРНУТЬСЯ" for k in reversed(range(n))]
    return "\n".join(["x := 0", *heads, " " * n + "x := x + 1", *ends, "СООБЩИТЬ x"])


SHAPES = {
    "generated": lambda n: generated_program(5 * n),  # the benchmark's: definitions, phrases, calls
    "states_calling": lambda n: states_calling(4 * n),
    "function_chain": function_chain,
    "phrases_in_print": phrases_in_print,
    "recursion_with_globals": recursion_with_globals,
    "call_cycle": call_cycle,
    "nested_sum": lambda n: nested_sum(10 * n),
    "broken_definitions": lambda n: broken_definitions(2 * n),
    "stray_loop_ends": lambda n: stray_loop_ends(4 * n),
    "hinted_slips": hinted_slips,
    "nested_loops": nested_loops,
}
SIZE = 600 if LONG else 60


def load_time(text: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        source = Source(text, "s.pseudo")
        gc.collect()
        started = time.process_time()
        try:
            deep_call(lambda source=source: pseudo.load(source))
        except PseudoError:
            pass
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("shape", SHAPES)
def test_loading_time_grows_linearly(shape):
    small, large = SHAPES[shape](SIZE), SHAPES[shape](GROWTH * SIZE)
    ratio = load_time(large) / max(load_time(small), 1e-3)
    assert ratio < LIMIT, f"{shape}: {GROWTH} times longer, {ratio:.0f} times slower"


def error_time(depth: int, mode: str, runs: int = 3) -> float:
    """CPU time of a run that recurses without end until the depth limit, and of its report."""
    import io

    from pseudo.errors import PseudoRuntimeError
    from pseudo.runtime import Limits
    loaded = pseudo.load(Source("ФАКТ (n) = n * ФАКТ(n - 1)\nСООБЩИТЬ ФАКТ(5)\n", "f.pseudo"))
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        started = time.process_time()
        with pytest.raises(PseudoRuntimeError) as error:
            pseudo.run(loaded, stdin=io.StringIO(), stdout=io.StringIO(), limits=Limits(max_depth=depth), mode=mode)
        text = error.value.render()
        best = min(best, time.process_time() - started)
        assert f"превышена глубина рекурсии ({depth} вызовов)" in text and f"ещё {depth - 12} вызовов" in text
        assert len(text) < 2000  # both ends of the stack, whatever the depth
    return best


@pytest.mark.parametrize("mode", ["interpret", "compiled", "exact"])
def test_an_error_deep_in_recursion_is_reported_in_linear_time(mode):
    """The stack of an error 40,000 calls deep is described at its ends only, and read from the
    traceback once (the compiled program's was sliced at every frame: 34 times slower for a
    recursion eight times deeper, 130 s at depth 200,000)."""
    small = 5_000 * (4 if LONG else 1)
    ratio = error_time(GROWTH * small, mode) / max(error_time(small, mode), 1e-3)
    assert ratio < LIMIT, f"{mode}: {GROWTH} times deeper, {ratio:.0f} times slower"


def translate_time(text: str, runs: int = 2) -> float:
    """The best CPU time of writing the fast code and the readable file (the program loaded)."""
    from pseudo.pygen.compiled import compile_code
    from pseudo.pygen.emit import python_source
    loaded = deep_call(lambda: pseudo.load(Source(text, "s.pseudo")))
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        started = time.process_time()
        deep_call(lambda: (compile_code(loaded), python_source(loaded, "s.pseudo")))
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("shape", ["generated", "call_cycle", "nested_loops"])
def test_translating_time_grows_linearly(shape):
    """The code generator's analyses (bounds of indices, what each function may write, reads
    before loops) settle in time linear in the program: a main program calling hundreds of
    definitions was summed up again after each of them (2,000 lines took 4.7 s, 1.0 s now)."""
    size = SIZE // 2
    small, large = SHAPES[shape](size), SHAPES[shape](GROWTH * size)
    ratio = translate_time(large) / max(translate_time(small), 1e-3)
    assert ratio < LIMIT, f"{shape}: {GROWTH} times longer, {ratio:.0f} times slower"


def compile_time(text: str, mode: str, runs: int = 2) -> float:
    """The best CPU time of compiling the program in memory, as `pseudo run` does (loaded)."""
    from pseudo.pygen.compiled import compile_code
    loaded = deep_call(lambda: pseudo.load(Source(text, "s.pseudo")))
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        started = time.process_time()
        deep_call(lambda: compile_code(loaded, mode))
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("mode", ["fast", "exact", "readable"])
def test_compiling_a_deeply_nested_expression_grows_linearly(mode):
    """The code generator asks for the kind of every operand, and whether what follows it acts,
    at each level of a chain nested thousands deep: each part is answered once."""
    small, large = nested_sum(10 * SIZE), nested_sum(GROWTH * 10 * SIZE)
    ratio = compile_time(large, mode) / max(compile_time(small, mode), 1e-3)
    assert ratio < LIMIT, f"{mode}: {GROWTH} times deeper, {ratio:.0f} times slower"
