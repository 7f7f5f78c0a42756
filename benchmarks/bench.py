"""Benchmark: pseudo against a plain Python program doing the same work, in the same run.

    python3 benchmarks/bench.py [--repeat N]

Prints, for each workload, the best time of each side and the ratio pseudo / Python.
Loading (parse, resolve, check) is timed apart from running.
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pseudo.compiled import compile_program, execute_compiled
from pseudo.source import Source

import pseudo

LOOP = """\
i := 0; s := 0
ПОКА i < 100000 ВЫПОЛНЯТЬ
    i := i + 1
    s := s + i
ВЕРНУТЬСЯ
СООБЩИТЬ s
"""


def python_queens(out) -> None:
    """Eight queens as a Python programmer would write it: the same search, lists for the board."""
    n = 8
    c = [0] * (n + 1)
    col = [True] * (n + 1)
    d1 = [True] * (2 * n + 1)
    d2 = [True] * (2 * n + 1)

    def hr(k):
        for i in range(1, n + 1):
            if col[i] and d1[k + i] and d2[k - i + n + 1]:
                c[k] = i
                col[i] = d1[k + i] = d2[k - i + n + 1] = False
                if k == n:
                    out.write(" ".join(map(str, c[1:])) + "\n")
                else:
                    hr(k + 1)
                col[i] = d1[k + i] = d2[k - i + n + 1] = True
    hr(1)


def python_loop(out) -> None:
    i = s = 0
    while i < 100000:
        i += 1
        s += i
    out.write(f"{s}\n")


def python_peg_solitaire(out) -> None:
    """Peg solitaire as a Python programmer would write it: the same search and direction
    order as programs/peg_solitaire.pseudo, a list of lists for the board."""
    on = [[1 <= r <= 7 and 1 <= c <= 7 and (3 <= r <= 5 or 3 <= c <= 5) for c in range(11)] for r in range(11)]
    board = [["х" if on[r][c] else " " for c in range(11)] for r in range(11)]
    board[4][4] = "-"
    steps = [(0, -1), (-1, 0), (0, 1), (1, 0)]
    jumps, tests, pegs = [], 0, 32

    def solve() -> bool:
        nonlocal tests, pegs
        for r in range(1, 8):
            for c in range(1, 8):
                if board[r][c] != "х":
                    continue
                for dr, dc in steps:
                    tests += 1
                    if board[r + dr][c + dc] == "х" and board[r + 2 * dr][c + 2 * dc] == "-":
                        board[r][c] = board[r + dr][c + dc] = "-"
                        board[r + 2 * dr][c + 2 * dc] = "х"
                        pegs -= 1
                        jumps.append((r, c, r + 2 * dr, c + 2 * dc))
                        if solve():
                            return True
                        jumps.pop()
                        board[r][c] = board[r + dr][c + dc] = "х"
                        board[r + 2 * dr][c + 2 * dc] = "-"
                        pegs += 1
        return pegs == 1 and board[4][4] == "х"
    solve()
    for jump in jumps:
        out.write(" ".join(map(str, jump)) + "\n")
    for r in range(1, 8):
        out.write("".join(board[r][1:8]) + "\n")
    out.write(f"ПРОВЕРОК: {tests}\n")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def compiled_runner(loaded, stdin: str, limits: bool = True):
    """The transpiled program, compiled once; each call runs главная afresh (as a fresh run would)."""
    compiled = compile_program(loaded.program, loaded.main_file, loaded.sources, limits)

    def run():
        out = io.StringIO()
        execute_compiled(compiled, loaded.program, stdin=io.StringIO(stdin), stdout=out)
        return out
    return run


def compare(name: str, source: Source, python_fn, repeat: int, stdin: str = "") -> None:
    load_time = best(lambda: pseudo.load(source), repeat)
    loaded = pseudo.load(source)
    program = loaded.program
    out_p, out_py = io.StringIO(), io.StringIO()
    pseudo.run(program, stdin=io.StringIO(stdin), stdout=out_p)
    python_fn(out_py)
    compiled, bare = compiled_runner(loaded, stdin), compiled_runner(loaded, stdin, limits=False)
    assert out_p.getvalue() == out_py.getvalue() == compiled().getvalue() == bare().getvalue(), name
    t_pseudo = best(lambda: pseudo.run(program, stdin=io.StringIO(stdin), stdout=io.StringIO()), repeat)
    t_compiled = best(compiled, repeat)
    t_bare = best(bare, repeat)
    t_python = best(lambda: python_fn(io.StringIO()), repeat)
    print(f"{name:<22} python {ms(t_python)} | interpreted {ms(t_pseudo)} {t_pseudo / t_python:5.1f}× | "
          f"transpiled {ms(t_compiled)} {t_compiled / t_python:5.2f}× | without limits {ms(t_bare)} "
          f"{t_bare / t_python:5.2f}× | load {load_time * 1000:.1f} ms")


def tracing_cost(source: Source, repeat: int) -> None:
    """Tracing queens_recursive to JSON lines (written to memory), against the untraced run."""
    from pseudo.trace import Tracer
    from pseudo.views import JsonlView
    program = pseudo.load(source).program
    plain = best(lambda: pseudo.run(program, stdout=io.StringIO()), repeat)
    sink = io.StringIO()

    def traced():
        sink.seek(0)
        sink.truncate()
        pseudo.run(program, stdout=io.StringIO(), tracer=Tracer(JsonlView(sink)))
    cost = best(traced, max(1, repeat // 3))
    events = sink.getvalue().count("\n")
    print(f"{'trace to JSONL':<22} untraced {ms(plain)} | traced {ms(cost)} {cost / plain:5.1f}× "
          f"| {events} events")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, best of {args.repeat}")
    compare("queens_recursive N=8", Source.from_file(ROOT / "programs" / "queens_recursive.pseudo"),
            python_queens, args.repeat)
    compare("loop 100,000 steps", Source(LOOP, "loop.pseudo"), python_loop, args.repeat)
    compare("peg solitaire", Source.from_file(ROOT / "programs" / "peg_solitaire.pseudo"),
            python_peg_solitaire, max(1, args.repeat // 3), stdin="0\n")
    tracing_cost(Source.from_file(ROOT / "programs" / "queens_recursive.pseudo"), args.repeat)


if __name__ == "__main__":
    main()
