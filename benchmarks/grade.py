"""Benchmark: `pseudo grade` of a class — 30 pupils on a task of 10 tests.

    python3 benchmarks/grade.py [--pupils 30] [--jobs N] [--repeat 3] [--runaways loop,print,recursion]
                                [--keep FOLDER]

The task is the example task examples/tasks/queens with the tests n = 1 … 10 (their expected
outputs written by its solution). The class is generated: each program a text of its own (so
each is compiled, none found in the cache of another), in the proportions of a real class —
right solutions (the teacher's, renamed and reordered), wrong ones (an off-by-one in the
diagonals, a missing case, a fixed answer), runaways (a loop that never ends, a recursion
without end, a program that prints forever), broken ones (a syntax error) and crashing ones (a
division by zero, reading past the input).

Every figure is the wall time of the whole `pseudo grade` process, as a user waits for it, and
the CPU time of it and all its runs: the first run with an empty cache of compiled programs
(each program parsed and compiled), then the next runs (their compiled form in the cache); the
median of --repeat runs of each. The machine's core count and load are printed with them: the
runs of a class go in parallel, and a run's time limit is wall time.

A runaway costs what stops it: a loop, the step limit (fractions of a second); a program that
prints forever, the output limit; a recursion without end, the depth limit and the report of
the call stack (--runaways chooses the kinds in the class).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TASK = ROOT / "examples" / "tasks" / "queens"
PSEUDO = [sys.executable, "-c", "import sys; from pseudo.cli import main; sys.argv[0] = 'pseudo'; sys.exit(main())"]
TESTS = range(1, 11)
TOML = 'title = "Ферзи (замер)"\nhidden = ["09", "10"]\nmax_steps = 2_000_000\ntime_limit = 2\ncompare = "lines"\n'


def right(solution: str, k: int) -> str:
    """The teacher's solution as a pupil might hand it in: another name for the count."""
    return f"{{ ученик {k} }}\n" + solution.replace("решений", f"всего_{k}").replace(f"'всего_{k}:'", "'решений:'")


def wrong(solution: str, k: int) -> str:
    kinds = [
        lambda: solution.replace("ЕСЛИ k = n ТО", "ЕСЛИ k = n - 1 ТО"),
        lambda: solution.replace("ЕСЛИ решений > 0 ТО", "ЕСЛИ решений > 1 ТО"),
        lambda: "ПРОЧЕСТЬ n\nСООБЩИТЬ 'решений:', n\n",
    ]
    return f"{{ ученик {k} }}\n" + kinds[k % len(kinds)]()


RUNAWAYS = {
    "loop": "ПРОЧЕСТЬ n\nk := 0\nПОКА k ≥ 0 ВЫПОЛНЯТЬ\n  k := k + n\nВЕРНУТЬСЯ\nСООБЩИТЬ k\n",
    "print": "ПРОЧЕСТЬ n\nВЫПОЛНЯТЬ\n  СООБЩИТЬ 'решений:', n\nВЕРНУТЬСЯ\n",
    "recursion": "f (x) = f(x + 1) + 1\nПРОЧЕСТЬ n\nСООБЩИТЬ f(n)\n",
}


def runaway(k: int, kinds: list[str]) -> str:
    return f"{{ ученик {k} }}\n" + RUNAWAYS[kinds[k % len(kinds)]]


def broken(k: int) -> str:
    return f"{{ ученик {k} }}\nПРОЧЕСТЬ n\nЕСЛИ n > 0 ТО СООБЩИТЬ 'решений:', n\n"


def crashing(k: int) -> str:
    kinds = ["ПРОЧЕСТЬ n\nСООБЩИТЬ 'решений:', 1 / (n - n)\n", "ПРОЧЕСТЬ n, m\nСООБЩИТЬ 'решений:', n + m\n"]
    return f"{{ ученик {k} }}\n" + kinds[k % len(kinds)]


def make_class(folder: Path, pupils: int, runaways: list[str]) -> dict[str, int]:
    """The task and the class in `folder`; how many programs of each kind."""
    task = folder / "task"
    (task / "tests").mkdir(parents=True)
    shutil.copy(TASK / "solution.pseudo", task / "solution.pseudo")
    (task / "task.toml").write_text(TOML, encoding="utf-8")
    for n in TESTS:
        (task / "tests" / f"{n:02}.in").write_text(f"{n}\n", encoding="utf-8")
        out = subprocess.run([*PSEUDO, "run", str(task / "solution.pseudo")], input=f"{n}\n", capture_output=True,
                             text=True, check=True).stdout
        (task / "tests" / f"{n:02}.out").write_text(out, encoding="utf-8")
    solution = (TASK / "solution.pseudo").read_text(encoding="utf-8")
    share = {"right": 0.6, "wrong": 0.1, "runaway": 0.1, "broken": 0.1, "crashing": 0.1}
    counts = {kind: max(1, round(pupils * part)) for kind, part in share.items()}
    counts["right"] = pupils - sum(v for kind, v in counts.items() if kind != "right")
    makers = {"right": lambda k: right(solution, k), "wrong": lambda k: wrong(solution, k),
              "runaway": lambda k: runaway(k, runaways),
              "broken": broken, "crashing": crashing}
    works = folder / "class"
    works.mkdir()
    k = 0
    for kind, count in counts.items():
        for _ in range(count):
            k += 1
            (works / f"{kind}_{k:02}.pseudo").write_text(makers[kind](k), encoding="utf-8")
    return counts


def timed(args: list[str], env: dict) -> tuple[float, float, str]:
    """Wall and CPU seconds of the command (with every process it waited for), and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"pseudo grade failed ({done.returncode}):\n{done.stderr}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done.stdout


def figures(label: str, runs: list[tuple[float, float]]) -> str:
    wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
    return (f"{label}: wall {wall:.2f} s, CPU {cpu:.2f} s (median of {len(runs)}: "
            f"{', '.join(f'{w:.2f}' for w, _ in runs)} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=None, help="pseudo grade --jobs (default: its own)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--runaways", default=",".join(RUNAWAYS), help="kinds of runaways in the class, by comma")
    parser.add_argument("--keep", metavar="FOLDER", help="make the class here and keep it")
    args = parser.parse_args()
    kinds = args.runaways.split(",")
    if not set(kinds) <= set(RUNAWAYS):
        parser.error(f"--runaways: the kinds are {', '.join(RUNAWAYS)}")
    folder = Path(args.keep or tempfile.mkdtemp(prefix="pseudo-grade-bench-"))
    try:
        counts = make_class(folder, args.pupils, kinds)
        command = [*PSEUDO, "grade", str(folder / "task"), str(folder / "class")]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        cold, warm, table = [], [], ""
        load = os.getloadavg()[0]
        for _ in range(args.repeat):
            cache = tempfile.mkdtemp(prefix="pseudo-grade-cache-")
            env = dict(os.environ, PSEUDO_CACHE_DIR=cache)
            wall, cpu, table = timed(command, env)
            cold.append((wall, cpu))
            warm.append(timed(command, env)[:2])
            shutil.rmtree(cache, ignore_errors=True)
        print(table)
        made = ", ".join(f"{kind} {n}" for kind, n in counts.items())
        print(f"class: {args.pupils} pupils ({made}; runaways: {', '.join(kinds)}) × {len(TESTS)} tests; "
              f"cores: {os.cpu_count()}; jobs: {args.jobs or 'default'}; load average before: "
              f"{load:.1f}")
        print(figures("pseudo grade, empty cache    ", cold))
        print(figures("pseudo grade, programs cached", warm))
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
