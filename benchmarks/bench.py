"""Benchmark: pseudo against plain Python doing the same work, in the same run.

    python3 benchmarks/bench.py [--pairs N] [--baseline PSEUDO] [--pcbasic] [--long] [--views-pairs N]

Every figure is a whole process, timed from outside in CPU seconds (user + system of the
child), as the median of N pairs run in turn (A B A B …); a ratio is the median of the pairs'
ratios, so a machine whose speed drifts still gives a fair figure. The yardsticks are the
plain-Python twins in benchmarks/twins/: the same search in the same order, written as a
Python programmer would. `pseudo` is this checkout's, started as the command pip installs
starts it.

Each figure is printed beside its target (✓ met, ✗ not), where the project has one.

Rows:
  start-up       `pseudo run` of a one-line program ÷ `python3 -c pass`: as a user runs it again
                 (its compiled form kept in the cache, pseudo/cache.py), and with --no-cache;
                 and a book program's first run, nothing cached: CPU seconds
  check          `pseudo check` of generated programs of 10,000 lines (and 20,000, 100,000
                 with --long; the calls at their end add a fifth): seconds, and seconds per
                 10,000 lines written
  emitted        the file `pseudo py` writes (readable), and `pseudo py --limits` (counting
                 steps for the limits of `pseudo run`), run by python3, ÷ the twin
  book's shape   where benchmarks/shapes/ has one: the program as the book writes it (its
                 procedures and phrases functions called where the book calls them, arrays
                 plain lists) written by hand in plain Python, ÷ the twin: the least a readable
                 file that keeps the book's calls can cost, with nothing of pseudo in it
  written out    where benchmarks/written_out/ has one: the book's loops and arrays with every
                 phrase and procedure called once a step written out in place, nothing counted,
                 in plain Python, ÷ the twin: the least code that keeps the book's loops and
                 arrays can cost, the floor of `pseudo run` and of the file with --limits
  run            `pseudo run` (the default mode) ÷ the twin
  trace          `pseudo trace --format jsonl` ÷ `pseudo run --interpret`, and ÷ `pseudo run`
  error reports  an error 100,000 calls deep (an endless recursion, which meets the depth
                 limit, and a division by zero at the bottom of a recursion 99,990 calls
                 deep): CPU seconds to its report, in every mode and both emitted files
  views          the views of a long search, on the interpreter, ÷ the twin: `pseudo run
                 --interpret`, `pseudo run --stats`, and a trace that keeps few of its events
                 (`--depth 0`: the main program's; every event is still numbered); the three
                 searches (pentomino, peg solitaire, the knight's count) take minutes a run:
                 --views-pairs, 1 by default; with --baseline, the baseline's too
  page memory    peak memory of `pseudo trace --html` over 1,000,000 events
  baseline       with --baseline PSEUDO (another installed pseudo, before a change): its
                 start-up, its `run` and the files its `py` writes (its default, and with
                 --limits) ÷ the twin, for the before/after comparison
  pcbasic        with --pcbasic: PC-BASIC on the loop and on the eight-queens count, ÷ their twins,
                 beside `pseudo run` of the same count; PC-BASIC is installed from PyPI into
                 ~/.cache/pseudo/bench/pcbasic when it is not on the PATH (it takes minutes a run:
                 --pcbasic-pairs, 1 by default; --only pcbasic runs these rows alone)
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWINS = ROOT / "benchmarks" / "twins"
SHAPES = ROOT / "benchmarks" / "shapes"
WRITTEN_OUT = ROOT / "benchmarks" / "written_out"
PROGRAMS = ROOT / "programs"
PYTHON = sys.executable
# What the `pseudo` command that pip installs runs (not `python -m pseudo`, whose runpy and
# importlib.util cost a user of the command nothing).
PSEUDO = [PYTHON, "-c", "import re, sys; from pseudo.cli import main; sys.argv[0] = 'pseudo'; sys.exit(main())"]

LOOP = """\
i := 0; s := 0
ПОКА i < 100000 ВЫПОЛНЯТЬ
    i := i + 1
    s := s + i
ВЕРНУТЬСЯ
СООБЩИТЬ s
"""

# The targets (issues 31, 32): what each row must not pass, by row and workload (None: any).
TARGETS = {
    ("pseudo run", "pentomino 3×20"): 1.6, ("pseudo run", "peg solitaire"): 1.6,
    ("pseudo run", "knight 5×5 count"): 1.6,
    ("emitted .py", None): 1.1, ("emitted .py --limits", None): 1.5,
    ("start-up", None): 2.5, ("first run", None): 0.5, ("check 10,000 lines", None): 2.0,
    ("trace ÷ run", None): 8.0, ("error report", None): 1.0,  # CPU seconds, not a ratio
    ("run --interpret", None): 30.0, ("run --stats", None): 30.0, ("trace --depth 0", None): 30.0,
    ("page memory", None): 150.0,  # MB, not a ratio
}


def target(label: str, workload: str | None = None) -> float | None:
    return TARGETS.get((label, workload), TARGETS.get((label, None)))


def verdict(value: float, limit: float | None, unit: str = "×") -> str:
    """The target beside a figure: `≤ 1.6× ✓`."""
    if limit is None:
        return ""
    return f"≤ {limit:g}{unit} {'✓' if value <= limit else '✗'}"


# name, program, its standard input, its twin
WORKLOADS = [
    ("queens", PROGRAMS / "queens_recursive.pseudo", "", "queens.py"),
    ("loop 100k", None, "", "loop.py"),
    ("pentomino 3×20", PROGRAMS / "pentomino.pseudo", "3 20 0\n", "pentomino.py"),
    ("peg solitaire", PROGRAMS / "peg_solitaire.pseudo", "0\n", "peg_solitaire.py"),
    ("knight 5×5 count", PROGRAMS / "knight_tour.pseudo", "5 1 1 2\n", "knight.py"),
]


def measure(argv, stdin: str = "", cwd=ROOT) -> tuple[float, int, bytes]:
    """CPU seconds and peak memory (KB) of one whole process, and its standard output. This
    checkout's pseudo is found through PYTHONPATH; another installed one (a baseline) is not
    given it."""
    # with .pyc, and stdout buffered as usual: PYTHONUNBUFFERED would make every СООБЩИТЬ a
    # system call, while a twin that prints once would not pay for it
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "PYTHONUNBUFFERED")}
    if argv[:3] == PSEUDO:
        env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as inp:
        inp.write(stdin.encode("utf-8"))
        inp.seek(0)
        proc = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=subprocess.DEVNULL, cwd=cwd, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out.read()


def paired(a, b, pairs: int, stdin: str = "") -> tuple[float, float, float]:
    """Median CPU seconds of A and of B, and the median ratio A / B over pairs run in turn."""
    ta, tb, ratios = [], [], []
    for _ in range(pairs):
        x = measure(a, stdin)[0]
        y = measure(b, stdin)[0]
        ta.append(x)
        tb.append(y)
        ratios.append(x / y if y else float("inf"))
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios)


def row(label: str, a: float, b: float, ratio: float, note: str = "") -> None:
    print(f"  {label:<28} {a * 1000:9.1f} ms  {b * 1000:9.1f} ms  {ratio:7.2f}×  {note}")


def same_output(argv_a, argv_b, stdin: str, name: str) -> None:
    out_a, out_b = measure(argv_a, stdin)[2], measure(argv_b, stdin)[2]
    if out_a != out_b:
        raise SystemExit(f"{name}: the outputs differ — the comparison would be meaningless")


def program_file(name: str, path: Path | None, work: Path) -> Path:
    if path is not None:
        return path
    target = work / "loop.pseudo"
    target.write_text(LOOP, encoding="utf-8")
    return target


def start_up(pairs: int, work: Path, baseline: str | None) -> None:
    print("start-up (whole process, CPU): pseudo run of a one-line program ÷ python3 -c pass")
    one = work / "one.pseudo"
    one.write_text("СООБЩИТЬ 1\n", encoding="utf-8")
    measure(PSEUDO + ["run", str(one)])  # compiled once, as at a user's first run
    warm = paired(PSEUDO + ["run", str(one)], [PYTHON, "-c", "pass"], pairs)
    row("pseudo run", *warm, verdict(warm[2], target("start-up")))
    row("pseudo run --no-cache", *paired(PSEUDO + ["run", "--no-cache", str(one)], [PYTHON, "-c", "pass"], pairs))
    if baseline:
        measure([baseline, "run", str(one)])
        row("baseline run", *paired([baseline, "run", str(one)], [PYTHON, "-c", "pass"], pairs))
    print("a book program's first run, nothing cached (whole process, CPU seconds, median)")
    for name in ("queens_recursive", "pentomino"):
        path, stdin = PROGRAMS / f"{name}.pseudo", "3 20 0\n" if name == "pentomino" else ""
        runs = [measure(PSEUDO + ["run", "-q", "--no-cache", str(path)], stdin)[0] for _ in range(pairs)]
        seconds = statistics.median(runs)
        if name == "pentomino":  # its search is not the start: the same run with the cache warm
            measure(PSEUDO + ["run", "-q", str(path)], stdin)
            seconds -= statistics.median(measure(PSEUDO + ["run", "-q", str(path)], stdin)[0] for _ in range(pairs))
            name += " (less its warm run)"
        print(f"  {name:<36} {seconds:7.2f} s  {verdict(seconds, target('first run'), ' s')}")


def emitted_and_run(pairs: int, work: Path, baseline: str | None) -> None:
    print("\nthe book's programs (whole process, CPU; A ÷ the plain-Python twin)")
    print(f"  {'':<28} {'A':>12} {'twin':>12} {'ratio':>8}")
    for name, path, stdin, twin in WORKLOADS:
        program = program_file(name, path, work)
        twin_argv = [PYTHON, str(TWINS / twin)]
        readable, counting = work / f"{program.stem}.py", work / f"{program.stem}_limits.py"
        subprocess.run(PSEUDO + ["py", "-q", str(program), "-o", str(readable)], check=True, cwd=ROOT)
        subprocess.run(PSEUDO + ["py", "-q", "--limits", str(program), "-o", str(counting)], check=True, cwd=ROOT)
        run_argv = PSEUDO + ["run", "-q", str(program)]
        for argv in (run_argv, [PYTHON, str(readable)], [PYTHON, str(counting)]):
            same_output(argv, twin_argv, stdin, name)
        print(f" {name}")
        for label, argv in (("pseudo run", run_argv), ("emitted .py", [PYTHON, str(readable)]),
                            ("emitted .py --limits", [PYTHON, str(counting)])):
            figures = paired(argv, twin_argv, pairs, stdin)
            row(label, *figures, verdict(figures[2], target(label, name)))
        shape = SHAPES / twin
        if shape.exists():
            same_output([PYTHON, str(shape)], twin_argv, stdin, f"{name} (the book's shape)")
            row("book's shape, plain Python", *paired([PYTHON, str(shape)], twin_argv, pairs, stdin),
                "(no target: the floor of «emitted .py»)")
        written_out = WRITTEN_OUT / twin
        if written_out.exists():
            same_output([PYTHON, str(written_out)], twin_argv, stdin, f"{name} (the book's loops, written out)")
            row("book's loops, written out", *paired([PYTHON, str(written_out)], twin_argv, pairs, stdin),
                "(no target: the floor of «pseudo run», «--limits»)")
        if baseline:
            same_output([baseline, "run", "-q", str(program)], twin_argv, stdin, f"{name} (baseline)")
            row("baseline run", *paired([baseline, "run", "-q", str(program)], twin_argv, pairs, stdin))
            for label, flags in (("baseline .py", []), ("baseline .py --limits", ["--limits"])):
                old = work / f"{program.stem}_baseline{len(flags)}.py"
                subprocess.run([baseline, "py", "-q", *flags, str(program), "-o", str(old)], check=True, cwd=ROOT)
                row(label, *paired([PYTHON, str(old)], twin_argv, pairs, stdin))


def generated_program(lines: int) -> str:
    """A program of `lines` lines: definitions, phrases and statements of every common form."""
    def word(k: int) -> str:  # a phrase word of its own for each k: а, б, …, аа, аб, …
        letters = "абвгдежзиклмнопрстуфхцчшщэюя"
        out = ""
        while True:
            out = letters[k % len(letters)] + out
            k = k // len(letters) - 1
            if k < 0:
                return out
    out, i = [], 0
    while len(out) < lines:
        out += [f"п{i} (x, y) =", f"    z{i} := x * {i} + y", f"    ЕСЛИ z{i} > {i} ТО СООБЩИТЬ z{i} КОНЕЦ_ЕСЛИ",
                f"    ДЛЯ j := 1 ДО 3 ВЫПОЛНЯТЬ м{i}[j] := j ВЕРНУТЬСЯ", f"«фраза {word(i)} (a)» = a + {i}"]
        i += 1
    out += [f"п{k}(1, (фраза {word(k)} 2))" for k in range(i)]
    return "\n".join(out) + "\n"


def check(long: bool, work: Path, runs: int = 3) -> None:
    print(f"\npseudo check of generated programs (whole process, CPU, median of {runs})")
    for lines in ([10_000, 20_000, 100_000] if long else [10_000]):
        path = work / f"big{lines}.pseudo"
        text = generated_program(lines)  # the calls at the end make it longer than asked
        path.write_text(text, encoding="utf-8")
        seconds = statistics.median(measure(PSEUDO + ["check", "-q", str(path)])[0] for _ in range(runs))
        written = text.count("\n")
        per = seconds / written * 10_000
        print(f"  {written:>7} lines  {seconds:7.2f} s  {per:6.2f} s per 10,000 lines  "
              f"{verdict(per, target('check 10,000 lines'), ' s')}")


def tracing(pairs: int) -> None:
    print("\ntracing queens to JSON lines (whole process, CPU)")
    queens = str(PROGRAMS / "queens_recursive.pseudo")
    traced = PSEUDO + ["trace", "-q", "--format", "jsonl", "--max-events", "10000000", "-o", os.devnull, queens]
    row("÷ run --interpret", *paired(traced, PSEUDO + ["run", "-q", "--interpret", queens], pairs))
    figures = paired(traced, PSEUDO + ["run", "-q", queens], pairs)
    row("÷ run", *figures, verdict(figures[2], target("trace ÷ run")))


DEEP_ERRORS = {  # an error 100,000 calls deep
    "endless recursion": "ФАКТ (n) = n * ФАКТ(n - 1)\nСООБЩИТЬ ФАКТ(5)\n",
    "1 / 0, 99,990 deep": "Ф (n) = ЕСЛИ n = 0 ТО 1 / n ИНАЧЕ Ф(n - 1) + 1 КОНЕЦ_ЕСЛИ\nСООБЩИТЬ Ф(99990)\n",
}


def error_reports(pairs: int, work: Path) -> None:
    print("\nan error 100,000 calls deep: CPU seconds to its report (whole process, median)")
    for name, text in DEEP_ERRORS.items():
        program = work / "deep.pseudo"
        program.write_text(text, encoding="utf-8")
        readable, counting = work / "deep.py", work / "deep_limits.py"
        subprocess.run(PSEUDO + ["py", "-q", str(program), "-o", str(readable)], check=True)
        subprocess.run(PSEUDO + ["py", "-q", "--limits", str(program), "-o", str(counting)], check=True)
        print(f" {name}")
        for label, argv in (("pseudo run", PSEUDO + ["run", "-q", str(program)]),
                            ("pseudo run --interpret", PSEUDO + ["run", "-q", "--interpret", str(program)]),
                            ("emitted .py", [PYTHON, str(readable)]), ("emitted .py --limits", [PYTHON, str(counting)])):
            measure(argv)  # the program's compiled form and the file's runtime byte-code kept, as at a second run
            seconds = statistics.median(measure(argv)[0] for _ in range(pairs))
            print(f"  {label:<28} {seconds:7.2f} s  {verdict(seconds, target('error report'), ' s')}")


VIEWS = {  # the views of a long search: what follows the command
    "run --interpret": ["run", "-q", "--interpret"],
    "run --stats": ["run", "-q", "--stats"],
    "trace --depth 0": ["trace", "-q", "--depth", "0", "--max-events", "1000000000", "-o", os.devnull],
}


def views(pairs: int, baseline: str | None) -> None:
    print("\nthe views of a long search, on the interpreter (whole process, CPU; A ÷ the plain-Python twin)")
    print(f"  {'':<28} {'A':>12} {'twin':>12} {'ratio':>8}")
    for name, path, stdin, twin in WORKLOADS[2:]:
        twin_argv = [PYTHON, str(TWINS / twin)]
        same_output(PSEUDO + VIEWS["run --interpret"] + [str(path)], twin_argv, stdin, name)
        print(f" {name}")
        for label, argv in VIEWS.items():
            figures = paired(PSEUDO + argv + [str(path)], twin_argv, pairs, stdin)
            row(label, *figures, verdict(figures[2], target(label, name)))
            if baseline:
                row(f"baseline {label}", *paired([baseline, *argv, str(path)], twin_argv, pairs, stdin))


def page_memory(work: Path) -> None:
    print("\npseudo trace --html of 1,000,000 events: peak memory")
    path = work / "events.pseudo"
    path.write_text("ДЛЯ i := 1 ДО 340000 ВЫПОЛНЯТЬ x := i ВЕРНУТЬСЯ\n", encoding="utf-8")  # 3 events a turn
    seconds, peak, _ = measure(PSEUDO + ["trace", "-q", "--html", "--max-events", "1000000", str(path),
                                         "-o", str(work / "page.html")])
    print(f"  {peak / 1024:7.0f} MB peak, {seconds:.1f} s CPU  {verdict(peak / 1024, target('page memory'), ' MB')}")


PCBASIC_LOOP = "10 DEFDBL S: I=0: S=0\n20 IF I>=100000 THEN 50\n30 I=I+1: S=S+I\n40 GOTO 20\n50 PRINT S\n"

# The eight-queens count: the search of programs/queens_recursive.pseudo, counting. BASIC has no
# recursion with locals, so its HR is the same search with the column of each row kept in C(K).
PCBASIC_QUEENS = """\
10 DEFINT A-Z
20 DIM C(9), A(8), B(16), D(16)
30 N = 0: K = 1: C(1) = 0
40 C(K) = C(K) + 1
50 IF C(K) > 8 THEN 120
60 I = C(K)
70 IF A(I) OR B(K + I) OR D(K - I + 8) THEN 40
80 IF K = 8 THEN N = N + 1: GOTO 40
90 A(I) = 1: B(K + I) = 1: D(K - I + 8) = 1
100 K = K + 1: C(K) = 0
110 GOTO 40
120 K = K - 1
130 IF K = 0 THEN 170
140 I = C(K): A(I) = 0: B(K + I) = 0: D(K - I + 8) = 0
150 GOTO 40
170 PRINT N
"""

QUEENS_COUNT = """\
HR (k) =
  ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ
    ЕСЛИ кол[i] И д1[k + i] И д2[k - i + 9] ТО
      ЕСЛИ k = 8 ТО решений := решений + 1
      ИНАЧЕ
        кол[i] := ЛОЖЬ; д1[k + i] := ЛОЖЬ; д2[k - i + 9] := ЛОЖЬ
        HR(k + 1)
        кол[i] := ИСТИНА; д1[k + i] := ИСТИНА; д2[k - i + 9] := ИСТИНА
      КОНЕЦ_ЕСЛИ
    КОНЕЦ_ЕСЛИ
  ВЕРНУТЬСЯ
ДЛЯ j := 1 ДО 17 ВЫПОЛНЯТЬ кол[j] := ИСТИНА; д1[j] := ИСТИНА; д2[j] := ИСТИНА ВЕРНУТЬСЯ
решений := 0
HR(1)
СООБЩИТЬ решений
"""


def pcbasic_command() -> list[str]:
    """PC-BASIC's command: the one on the PATH, or one installed from PyPI into a folder of
    the cache (once)."""
    found = shutil.which("pcbasic")
    if found:
        return [found]
    venv = Path.home() / ".cache" / "pseudo" / "bench" / "pcbasic"
    command = venv / "bin" / "pcbasic"
    if not command.exists():
        print(f"  PC-BASIC is not installed: installing it from PyPI into {venv} …", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "pcbasic"], check=True)
    return [str(command)]


def pcbasic(pairs: int, work: Path) -> None:
    print("\nPC-BASIC and pseudo on the same work (whole process, CPU) ÷ the plain-Python twin")
    try:
        command = pcbasic_command()
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"  PC-BASIC could not be installed ({e}): skipped")
        return
    queens = work / "queens_count.pseudo"
    queens.write_text(QUEENS_COUNT, encoding="utf-8")
    for name, basic, twin, program in (("loop 100k", PCBASIC_LOOP, "loop.py", program_file("loop", None, work)),
                                       ("queens count", PCBASIC_QUEENS, "queens_count.py", queens)):
        path = work / f"{name.split()[0]}.bas"
        path.write_text(basic, encoding="ascii")
        argv = command + ["--interface=none", "--quit", f"--run={path}", "--output=STDIO:"]
        twin_argv = [PYTHON, str(TWINS / twin)]
        if measure(argv)[2].split() != measure(twin_argv)[2].split():
            print(f"  PC-BASIC {name}: the outputs differ — a comparison would be meaningless")
            continue
        row(f"pcbasic {name}", *paired(argv, twin_argv, pairs))
        row(f"pseudo run {name}", *paired(PSEUDO + ["run", "-q", str(program)], twin_argv, pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--baseline", metavar="PSEUDO", help="another installed pseudo command, for before/after")
    parser.add_argument("--pcbasic", action="store_true", help="also PC-BASIC (installed from PyPI if missing)")
    parser.add_argument("--pcbasic-pairs", type=int, default=1)
    parser.add_argument("--long", action="store_true", help="also check 20,000 and 100,000 lines")
    parser.add_argument("--views-pairs", type=int, default=1, help="pairs for the views of a long search")
    parser.add_argument("--only", choices=["start-up", "programs", "check", "trace", "errors", "memory", "views", "pcbasic"])
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.pairs} pairs")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["PSEUDO_CACHE_DIR"] = str(work / "program-cache")  # not the user's cache
        (work / "warm.pseudo").write_text("СООБЩИТЬ 1\n", encoding="utf-8")
        measure(PSEUDO + ["run", str(work / "warm.pseudo")])  # byte-code written once, as an install does
        parts = {"start-up": lambda: start_up(args.pairs, work, args.baseline),
                 "programs": lambda: emitted_and_run(args.pairs, work, args.baseline),
                 "check": lambda: check(args.long, work),
                 "trace": lambda: tracing(args.pairs),
                 "errors": lambda: error_reports(args.pairs, work),
                 "memory": lambda: page_memory(work),
                 "views": lambda: views(args.views_pairs, args.baseline)}
        for name, part in parts.items():
            if args.only in (None, name):
                part()
        if args.pcbasic or args.only == "pcbasic":
            pcbasic(args.pcbasic_pairs, work)


if __name__ == "__main__":
    main()
