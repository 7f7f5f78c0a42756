"""The fuzz harness: hostile and random programs through every way pseudo reads and runs them.

    python3 tests/fuzz.py --count 100000 [--seed N] [--subprocess-every K] [--save DIR]

Inputs: mutations of every program and golden file, token soups, grammar-shaped programs,
hostile names and comments, deep nesting; phrases in parentheses in every position an
expression takes, empty bodies of every block, huge powers, products and sums of fractions,
errors after a function or loop has run warm — each with a standard input. Each goes through
`check` (load), the interpreter, the compiled program (the fast code, falling back to the exact
code), the exact code alone, and the emitted file, with limits and readable (where the program
ends without meeting a limit of steps or time, which the readable file has not) — executed in
this process from its text, and every K-th input also by a separate `python3 -I`, and by
`pseudo run` with its cache folder filled with hostile contents. The oracle:
- nothing but the tool's own errors (a StaticError, a PseudoRuntimeError) ever comes out;
- nothing hangs past the limits;
- the emitted file compiles, and runs nothing but the program: a canary file that hostile
  text tries to create never appears;
- every mode prints the same output and reports the same error, word for word, with the
  same place, caret and call stack;
- the cache of compiled programs changes nothing but its own entries in its own folder, and a
  run from it gives what a run without it gives.
A failure is minimized (lines, then characters) and saved as a regression case
(tests/fuzz_cases/*.json), which tests/test_fuzz.py runs through the oracle every time.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import pseudo
from pseudo import cache as pseudo_cache
from pseudo.errors import PseudoRuntimeError, StaticError
from pseudo.frontend.source import Source
from pseudo.runtime import Limits

LIMITS = Limits(max_steps=20_000, max_depth=120, time_limit=10.0, seed=1)  # СЛУЧАЙНОЕ: the same numbers in every mode
CASES = ROOT / "tests" / "fuzz_cases"
CANARY = "CANARY"
MODES = ("interpret", "compiled", "exact")


# ---- the oracle ----

@dataclass
class Verdict:
    ok: bool
    kind: str = ""  # what went wrong: "crash", "disagree", "emitted", "canary", "slow", "rejected", "cache"
    detail: str = ""
    outcomes: dict = field(default_factory=dict)


def outcome_of(loaded, stdin: str, mode: str) -> tuple:
    out = io.StringIO()
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, limits=LIMITS, mode=mode)
    except PseudoRuntimeError as e:
        return out.getvalue(), e.render(), e.exit_code
    return out.getvalue(), None, 0


# what only a file with limits meets (a state that came back is told before the step limit, and
# the readable file, without limits, has no watch for it: it runs on as a Python program would)
LIMIT_ERRORS = ("превышен предел шагов", "превышен предел времени", "программа зациклилась")


def emitted_outcome(loaded, stdin: str, workdir: Path, limits: bool) -> tuple:
    """The emitted file's text — readable, or with the limits of `pseudo run` —, compiled and
    run in this process (its own copy of the runtime), its errors reported by its own tables."""
    from conftest import run_emitted_here

    from pseudo.execute import deep_call
    from pseudo.pygen.emit import python_source
    text = deep_call(lambda: python_source(loaded, "fuzz.pseudo", limits=limits))  # as `pseudo py` does
    path = workdir / "emitted.py"
    code = deep_call(lambda: compile(text, str(path), "exec"))  # the emitted file always compiles
    out, err, exit_code = run_emitted_here(text, path, stdin, LIMITS, code)
    return out, err.rstrip("\n") or None, exit_code


def emitted_subprocess(loaded, stdin: str, workdir: Path) -> tuple:
    from pseudo.execute import deep_call
    from pseudo.pygen.emit import python_source
    path = workdir / "emitted.py"
    path.write_text(deep_call(lambda: python_source(loaded, "fuzz.pseudo", limits=True)), encoding="utf-8")
    argv = [sys.executable, "-I", str(path), "--max-steps", str(LIMITS.max_steps), "--max-depth",
            str(LIMITS.max_depth), "--time-limit", str(LIMITS.time_limit), "--seed", str(LIMITS.seed)]
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True, encoding="utf-8",
                            errors="replace", cwd=workdir, timeout=120, check=False)
    return result.stdout, result.stderr.rstrip("\n") or None, result.returncode


def judge(text: str, stdin: str, subprocess_too: bool = False, cache_too: bool = False) -> Verdict:
    """Run one input through everything; the verdict says whether the oracle holds."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        cwd = os.getcwd()
        os.chdir(workdir)  # injected code would drop its canary here
        try:
            verdict = _judge(text, stdin, workdir, subprocess_too)
            if verdict.ok and verdict.outcomes and cache_too:
                return judge_cache(text, stdin, workdir, random.Random(text))
            return verdict
        finally:
            os.chdir(cwd)


def _judge(text: str, stdin: str, workdir: Path, subprocess_too: bool) -> Verdict:
    started = time.monotonic()
    try:
        loaded = pseudo.load(Source(text, "fuzz.pseudo"))
    except StaticError as e:
        for d in e.diagnostics:
            d.render()
            if d.span is not None and not 1 <= d.span.line <= text.count("\n") + 2:
                return Verdict(False, "crash", f"a place outside the text: {d.span.line}")
        if MUST_LOAD in text:
            return Verdict(False, "rejected", e.render()[-600:])
        return Verdict(True)
    except Exception:  # noqa: BLE001 - the oracle's point
        return Verdict(False, "crash", "load: " + traceback.format_exc(limit=-8))
    outcomes = {}
    for mode in MODES:
        try:
            outcomes[mode] = outcome_of(loaded, stdin, mode)
        except Exception:  # noqa: BLE001
            return Verdict(False, "crash", f"{mode}: " + traceback.format_exc(limit=-8))
    # the readable file has no limit of steps or time: it is held to the others where they end
    # without meeting one
    limited = any(word in (outcomes["interpret"][1] or "") for word in LIMIT_ERRORS)
    for limits in (True,) if limited else (True, False):
        try:
            outcomes["emitted" if limits else "readable"] = emitted_outcome(loaded, stdin, workdir, limits)
        except Exception:  # noqa: BLE001
            return Verdict(False, "emitted", traceback.format_exc(limit=-8))
    if subprocess_too:
        try:
            outcomes["python3"] = emitted_subprocess(loaded, stdin, workdir)
        except Exception:  # noqa: BLE001
            return Verdict(False, "emitted", traceback.format_exc(limit=-8))
    if (workdir / CANARY).exists():
        return Verdict(False, "canary", "code from the program's text ran", outcomes)
    first = outcomes["interpret"]
    for mode, got in outcomes.items():
        if got != first:
            return Verdict(False, "disagree", f"interpret vs {mode}", outcomes)
    if time.monotonic() - started > 60:
        return Verdict(False, "slow", f"{time.monotonic() - started:.0f} s", outcomes)
    return Verdict(True, outcomes=outcomes)


# ---- the cache folder ----

ENTRY = "0123456789abcdef" * 2 + "01234567"  # 40 hexadecimal digits: a name the cache gives its entries


def hostile_cache(root: Path, rng: random.Random) -> None:
    """The folder PSEUDO_CACHE_DIR names, as a user or an accident may leave it: the user's
    own files (some named as entries or as temporary files), and `programs` absent, a file, a
    folder of the user's, a link to one, a folder of garbage entries, marked or not, with a
    mark that is a folder, entries that are links to the user's files, folders named as
    entries, more entries than the bound, old times."""
    root.mkdir(parents=True, exist_ok=True)
    names = ["notes.txt", "p.pseudo", ENTRY, ".pseudo-0123456789ab.tmp", "CACHEDIR.TAG", "programs.bak"]
    for k in range(rng.randint(0, 8)):
        name = rng.choice(names) + ("" if k == 0 else str(k))
        (root / name).write_bytes(rng.choice([b"", b"user data", bytes(range(256))]))
        os.utime(root / name, (k, k))
    programs = root / "programs"
    shape = rng.choice(["absent", "file", "user folder", "link to user folder", "link to empty", "garbage",
                        "marked", "marked full", "tag folder", "unwritable"])
    if shape == "file":
        programs.write_bytes(b"not a folder")
    elif shape in ("link to user folder", "link to empty"):
        target = root / "elsewhere"
        target.mkdir()
        if shape == "link to user folder":
            (target / "diary.txt").write_text("мой", encoding="utf-8")
        programs.symlink_to(target)
    elif shape != "absent":
        programs.mkdir(mode=0o700)
        if shape == "user folder":
            (programs / "homework.pseudo").write_text("СООБЩИТЬ 1\n", encoding="utf-8")
        if shape in ("garbage", "marked", "marked full", "unwritable"):
            for k in range(rng.randint(1, 30 if shape == "marked full" else 4)):
                (programs / f"{k:040x}").write_bytes(rng.choice([b"", b"\xe3\x00garbage", b"{}"]))
                os.utime(programs / f"{k:040x}", (k, k))
        if shape in ("marked", "marked full", "unwritable"):
            (programs / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n", encoding="utf-8")
            (programs / "keep.txt").write_text("чужой", encoding="utf-8")  # not an entry: never removed
            (programs / ("f" * 40)).symlink_to(root / "notes.txt" if (root / "notes.txt").exists() else root)
            (programs / ("e" * 40)).mkdir()
        if shape == "tag folder":
            (programs / "CACHEDIR.TAG").mkdir()
        if shape == "unwritable":
            programs.chmod(0o500)


def snapshot(root: Path) -> dict:
    """Every file, folder and link under `root`: what it holds, and whether the cache may make,
    replace or prune it — the folder `programs` itself, and in the folder it leads to its mark
    and the regular files named as entries."""
    own = (root / "programs").resolve()
    out = {}
    for path in sorted(root.rglob("*")):
        cache_may = path == root / "programs" and path.is_dir() and not path.is_symlink() or \
            path.parent.resolve() == own and path.is_file() and not path.is_symlink() and \
            (path.name == pseudo_cache.TAG or pseudo_cache.is_entry_name(path.name))
        out[str(path.relative_to(root))] = (os.readlink(path) if path.is_symlink() else "folder" if path.is_dir()
                                            else path.read_bytes(), cache_may)
    return out


def _kept(before: dict, after: dict, marked: bool) -> list:
    """What changed that was not the cache's to change: its entries only in a folder it marked
    (one it found holding nothing but entries, or made)."""
    def others(state):
        return {k: v for k, (v, cache_may) in state.items()
                if not (cache_may and (marked or k == "programs"))}
    a, b = others(before), others(after)
    return sorted(set(a.items()) ^ set(b.items()), key=str)


def cli_run(args: list[str], stdin: str, env: dict) -> tuple:
    """`pseudo run …` in this process: its output, errors and exit code."""
    from pseudo import cli
    saved = sys.stdin, sys.stdout, sys.stderr, dict(os.environ)
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), io.StringIO(), io.StringIO()
    os.environ.update(env)
    try:
        code = cli.main(args)
        return sys.stdout.getvalue(), sys.stderr.getvalue(), code
    finally:
        out = sys.stdout
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.environ.clear()
        os.environ.update(saved[3])
        del out


def judge_cache(text: str, stdin: str, workdir: Path, rng: random.Random) -> Verdict:
    """`pseudo run` of the program with a hostile cache folder, twice (compiled and kept, then
    from the cache if it could keep it): what a run without the cache gives, and nothing of the
    folder's but the cache's own entries changed."""
    root = workdir / "cache"
    hostile_cache(root, rng)
    program = workdir / "fuzz.pseudo"
    program.write_text(text, encoding="utf-8")
    options = ["run", "-q", "--max-steps", str(LIMITS.max_steps), "--max-depth", str(LIMITS.max_depth),
               "--time-limit", str(LIMITS.time_limit), "--seed", str(LIMITS.seed), str(program)]
    before = snapshot(root)
    bound, pseudo_cache.MAX_ENTRIES = pseudo_cache.MAX_ENTRIES, rng.choice([1, 3, pseudo_cache.MAX_ENTRIES])
    try:  # a small bound: the pruning runs at every store
        without = cli_run(options, stdin, {"PSEUDO_NO_CACHE": "1"})
        runs = [cli_run(options, stdin, {"PSEUDO_CACHE_DIR": str(root), "PSEUDO_NO_CACHE": ""}) for _ in range(2)]
    except Exception:  # noqa: BLE001
        return Verdict(False, "cache", traceback.format_exc(limit=-8))
    finally:
        pseudo_cache.MAX_ENTRIES = bound
        if (root / "programs").is_dir() and not (root / "programs").is_symlink():
            (root / "programs").chmod(0o700)  # the folder made unwritable: removable again
    changed = _kept(before, snapshot(root), ((root / "programs").resolve() / pseudo_cache.TAG).is_file())
    if changed:
        return Verdict(False, "cache", f"the cache changed what is not its own: {changed[:4]}")
    for got in runs:
        if got != without:
            return Verdict(False, "cache", f"a run with the cache gave {got!r}, without it {without!r}")
    return Verdict(True, outcomes={"cache": without})


# ---- inputs ----

KEYWORDS = ["ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ", "КОНЕЦ ЕСЛИ", "ПОКА", "ДЛЯ", "ШАГ", "ДО", "ВЫПОЛНЯТЬ",
            "ВЕРНУТЬСЯ", "КОНЧЕНО", "СООБЩИТЬ", "ПРОЧЕСТЬ", "КОНЕЦ_РАБОТЫ", "ПЕРЕЙТИ К", "И", "ИЛИ", "НЕ",
            "ИСТИНА", "ЛОЖЬ", "ДЕЛ", "ОСТ", "РЕЗУЛЬТАТ", "РЕЗ", "ИСПОЛЬЗОВАТЬ"]
SIGNS = [":=", "=", "≠", "<>", "<", "≤", "<=", ">", "≥", ">=", "+", "-", "−", "–", "*", "/", "^", ",", ";", "(",
         ")", "[", "]", ":", "\n", "\n    ", "  "]
HOSTILE_NAMES = ["ﬁ", "fi", "ｘ", "x", "ｐｒｉｎｔ", "print", "print_", "sys", "ｓｙｓ", "x²", "½", "x2_", "сообщить",
                 "Массив", "шаг", "шаги", "глубина", "рубеж", "счёт_шагов", "состояние", "состояния", "главная",
                 "ПРОГРАММА", "Я", "c", "с", "k", "к", "import", "None", "True", "__name__", "ячейка_x",
                 "значение_x", "выполнить", "Fraction", "os", "a" * 60, "е", "e", "ё", "й", "й"]
HOSTILE_TEXT = ["\r", "\x00", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "'''", '"""', "\\", "\\n",
                "import os; os.system('touch CANARY')", "open('CANARY', 'w')", "\t", "\ufeff", "\u200b", "«", "»"]
STDINS = ["", "1 2 3", "5 1 1 2", "0", "-3 7", "слово", "1/2 3,5", "1/00", "да нет", "3 20 0", "\n\n", "x y z 1"]


def corpus() -> list[str]:
    files = sorted((ROOT / "programs").glob("*.pseudo")) + sorted((ROOT / "tests" / "golden").glob("**/*.pseudo"))
    return [f.read_text(encoding="utf-8") for f in files]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        choice = rng.randrange(9)
        if choice == 0 and text:  # delete a stretch
            a = rng.randrange(len(text))
            text = text[:a] + text[a + rng.randint(1, 12):]
        elif choice == 1 and lines:  # delete or duplicate a line
            i = rng.randrange(len(lines))
            lines[i:i + 1] = [] if rng.random() < 0.5 else [lines[i], lines[i]]
            text = "\n".join(lines)
        elif choice == 2 and len(lines) > 1:  # swap two lines
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif choice == 3:  # a token in
            a = rng.randrange(len(text) + 1)
            text = text[:a] + " " + rng.choice(KEYWORDS + SIGNS + HOSTILE_NAMES) + " " + text[a:]
        elif choice == 4 and lines:  # indentation
            i = rng.randrange(len(lines))
            lines[i] = lines[i].lstrip() if rng.random() < 0.5 else "    " + lines[i]
            text = "\n".join(lines)
        elif choice == 5:  # hostile text
            a = rng.randrange(len(text) + 1)
            text = text[:a] + rng.choice(HOSTILE_TEXT) + text[a:]
        elif choice == 6 and text:  # truncate
            text = text[:rng.randrange(len(text))]
        elif choice == 7:  # a number changed
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                text = text[:i] + rng.choice(["0", "9", "99999", "-1", "1/0"]) + text[i + 1:]
        else:  # a name replaced by a hostile one
            words = [w for w in set(text.split()) if w.isidentifier() and w.islower()]
            if words:
                text = text.replace(rng.choice(sorted(words)), rng.choice(HOSTILE_NAMES))
    return text


def token_soup(rng: random.Random) -> str:
    pieces = KEYWORDS + SIGNS + HOSTILE_NAMES + ["1", "0", "42", "'s'", '"т"', "«занять (k)»", "занять", "{c}",
                                                  "С:", "А:", "f(1)", "m[1]", "m[1, 2]", "ф (x) =", "п (РЕЗ y) ="]
    return " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))


def shaped(rng: random.Random) -> str:
    """A well-formed program of common forms, with hostile names and comments here and there."""
    names = rng.sample(["a", "b", "n", "x"] + HOSTILE_NAMES[:25], 4)
    a, b, c, d = (nm if nm.isidentifier() or nm in ("x²", "½") else "z" for nm in names)

    def expr(depth=0):
        if depth > 2 or rng.random() < 0.35:
            return rng.choice([str(rng.randint(-5, 20)), a, b, f"m[{rng.randint(1, 3)}]", "'т'", "ИСТИНА"])
        op = rng.choice(["+", "-", "*", "/", "ДЕЛ", "ОСТ", "^", "=", "<", "≥", "≠", "И", "ИЛИ"])
        return f"({expr(depth + 1)} {op} {expr(depth + 1)})"

    def comment():
        return "{ " + rng.choice(HOSTILE_TEXT + ["обычный"]) + " }" if rng.random() < 0.3 else ""
    lines = [f"f{comment()} (p, РЕЗ q) =", f"    q := q + p {comment()}", "    РЕЗУЛЬТАТ := p * 2",
             "«удвоить (v)» = v + v", f"{a} := {rng.randint(0, 5)}", f"{b} := {rng.randint(0, 5)}",
             "m[1] := 1; m[2] := 2; m[3] := 3"]
    for _ in range(rng.randint(1, 8)):
        kind = rng.randrange(8)
        if kind == 0:
            lines.append(f"{rng.choice([a, b, c])} := {expr()}")
        elif kind == 1:
            lines.append(f"СООБЩИТЬ {expr()}, {rng.choice([a, b])} {comment()}")
        elif kind == 2:
            lines.append(f"ЕСЛИ {expr()} ТО СООБЩИТЬ 1 ИНАЧЕ {a} := {expr()} КОНЕЦ_ЕСЛИ")
        elif kind == 3:
            lines.append(f"ДЛЯ {d} := 1 ДО {rng.randint(0, 4)} ВЫПОЛНЯТЬ СООБЩИТЬ {d}, f({d}, {a}) ВЕРНУТЬСЯ")
        elif kind == 4:
            lines.append(f"ПОКА {a} < {rng.randint(3, 9)} ВЫПОЛНЯТЬ {a} := {a} + 1; СООБЩИТЬ удвоить {a} ВЕРНУТЬСЯ")
        elif kind == 5:
            lines.append(f"ПРОЧЕСТЬ {rng.choice([a, b, 'm[2]'])}")
        elif kind == 6:
            lines.append(f"СООБЩИТЬ f({expr()}, {b}), {b}")
        else:
            lines.append(f"СООБЩИТЬ '{rng.choice(HOSTILE_TEXT)}', {expr()}")
    if rng.random() < 0.3:
        lines = [f"С{i}: " + line if rng.random() < 0.4 else line for i, line in enumerate(lines[4:])]
    return "\n".join(lines) + "\n"


def deep(rng: random.Random) -> str:
    """Nesting beyond Python's own limits: loops, branches, states, long chains, parentheses."""
    kind = rng.randrange(6)
    depth = rng.choice([5, 19, 21, 25, 40, 99, 120])
    if kind == 0:  # statements nested
        opens = [rng.choice(["ДЛЯ i{d} := 1 ДО 2 ВЫПОЛНЯТЬ", "ЕСЛИ x < {d} ТО", "ПОКА x < {d} ВЫПОЛНЯТЬ",
                             "ВЫПОЛНЯТЬ"]) for _ in range(depth)]
        closes = {"ДЛЯ": "ВЕРНУТЬСЯ", "ЕСЛИ": "КОНЕЦ_ЕСЛИ", "ПОКА": "ВЕРНУТЬСЯ", "ВЫПОЛНЯТЬ": "ВЕРНУТЬСЯ"}
        lines = ["x := 0"] + ["    " * d + o.format(d=d) for d, o in enumerate(opens)]
        lines.append("    " * depth + "x := x + 1; СООБЩИТЬ x; ЕСЛИ x > 2 ТО КОНЕЧНО КОНЕЦ_ЕСЛИ".replace("КОНЕЧНО", "КОНЧЕНО"))
        lines += ["    " * d + closes[opens[d].split()[0]] for d in reversed(range(depth))]
        return "\n".join(lines) + "\n"
    if kind == 1:  # a long chain of one operator or several
        ops = rng.choice([["+"], ["-", "+"], ["*", "ДЕЛ"], ["<"], ["И"], ["=", "+"]])
        return "ПРОЧЕСТЬ a\nСООБЩИТЬ a" + "".join(f" {rng.choice(ops)} a" for _ in range(depth * 3)) + "\n"
    if kind == 2:  # parentheses
        return "a := 1\nСООБЩИТЬ " + "(" * depth + "a" + " + 1)" * depth + "\n"
    if kind == 3:  # unary minus and НЕ
        return "a := 1\nСООБЩИТЬ " + rng.choice(["- ", "НЕ "]) * depth + "a\n"
    if kind == 4:  # nested calls
        return "f (x) = x + 1\nСООБЩИТЬ " + "f(" * depth + "1" + ")" * depth + "\n"
    states = [f"С{i}: СООБЩИТЬ {i}; " + ("ЕСЛИ x = 0 ТО Я КОНЕЦ_ЕСЛИ; " if i % 7 == 0 else "") + f"С{i + 1}"
              for i in range(depth)]
    return "x := 1\n" + "\n".join(states) + f"\nС{depth}: Я\n"


PHRASES = "«(a) плюс (b)» = a + b\n«(n) чётно» = n ОСТ 2 = 0\n«показать (x), (y)» = СООБЩИТЬ x, y\n" \
          "удвоить (РЕЗ v) =\n    v := v * 2\nf (x) = x + 1\n"
POSITIONS = [  # every place an expression stands; {e} is filled with a value
    "м[{e}] := 5\nСООБЩИТЬ м[3]", "т[{e}, 1] := 2\nСООБЩИТЬ т[3, 1]", "x := {e}\nСООБЩИТЬ x", "СООБЩИТЬ {e}, {e}",
    "СООБЩИТЬ м[{e}]", "ПРОЧЕСТЬ м[{e}]\nСООБЩИТЬ м[3]", "показать {e}, {e}", "показать 1, {e}",
    "СООБЩИТЬ f({e})", "удвоить(м[{e}])\nСООБЩИТЬ м[3]", "СООБЩИТЬ МАКС({e}, 1), АБС({e})",
    "ДЛЯ i := {e} ДО {e} ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ", "ЕСЛИ {e} = 3 ТО СООБЩИТЬ 1 ИНАЧЕ СООБЩИТЬ 0 КОНЕЦ_ЕСЛИ",
    "ЕСЛИ {e} чётно ТО СООБЩИТЬ 'ч' КОНЕЦ_ЕСЛИ", "k := 0\nПОКА k < {e} ВЫПОЛНЯТЬ k := k + 1 ВЕРНУТЬСЯ\nСООБЩИТЬ k",
    "СООБЩИТЬ ЕСЛИ {e} > 2 ТО {e} ИНАЧЕ -{e} КОНЕЦ_ЕСЛИ", "СООБЩИТЬ -{e}, {e} ^ 2, 10 - {e} * 2, НЕ ({e} = 3)",
    "курсор в строку {e}, столбец 1\nСООБЩИТЬ 'к'", "пауза {e}", "СООБЩИТЬ СЛУЧАЙНОЕ({e})",
    "g{i} (n) =\n    РЕЗУЛЬТАТ := {e} + n\nСООБЩИТЬ g{i}({e})",
]
VALID = ["(1 плюс 2)", "(1 плюс (1 плюс 1))", "((0 плюс 1) плюс 2)", "(м[1] плюс 2)", "(3 чётно)", "(1 плюс 'а')",
         "(1 ПЛЮС 2)", "(f(2) плюс 0)", "3", "(3)"]
VALUES = VALID + ["(1 плюс)", "(плюс 2)", "( плюс )", "(1 плюс 2", "1 плюс 2"]
MUST_LOAD = "{ загружается }"  # a program the oracle requires to load: every value in it valid


def parenthesized(rng: random.Random) -> str:
    """A phrase in parentheses in one or more of the positions an expression takes — and its
    near misses: unclosed, empty, without parentheses, of the wrong kind. A program made of
    valid values only says so (MUST_LOAD): a static error there fails the oracle."""
    lines = [PHRASES, "м[1] := 1"]
    valid = rng.random() < 0.5
    for k in range(rng.randint(1, 4)):
        line = rng.choice(POSITIONS).replace("{i}", str(k))
        while "{e}" in line:
            line = line.replace("{e}", rng.choice(VALID if valid else VALUES), 1)
        lines.append(line)
    return "\n".join(lines + [MUST_LOAD] * valid) + "\n"


BLOCKS = [("ПОКА {c} ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ"), ("ДЛЯ {v} := 1 ДО {n} ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ"),
          ("ЕСЛИ {c} ТО", "КОНЕЦ_ЕСЛИ"), ("ЕСЛИ {c} ТО", "ИНАЧЕ КОНЕЦ_ЕСЛИ"), ("ВЫПОЛНЯТЬ КОНЧЕНО", "ВЕРНУТЬСЯ"),
          ("ВЫПОЛНЯТЬ", "КОНЧЕНО ВЕРНУТЬСЯ")]


def empty_bodies(rng: random.Random) -> str:
    """Blocks with nothing in them (or only a comment), nested, in the main program and in a
    definition, in a state of an automaton — every mode, and the emitted file without limits."""
    def block(depth: int) -> list[str]:
        head, end = rng.choice(BLOCKS)
        head = head.format(c=rng.choice(["x > 5", "x < 0", "ЛОЖЬ", "x = x + 1"]), v=f"i{depth}",
                           n=rng.choice(["0", "2", "x"]))
        inner = block(depth + 1) if depth < 3 and rng.random() < 0.5 else [rng.choice(["", "{ пусто }"])]
        return [head] + ["    " + line for line in inner if line] + [end]
    main = [line for _ in range(rng.randint(1, 3)) for line in block(0)]
    definition = ["пусто (x) ="] + ["    " + line for line in block(0)] + ["    СООБЩИТЬ x"]
    lines = ["x := 2"] + (definition if rng.random() < 0.5 else []) + main
    if "пусто (x) =" in lines:
        lines += ["пусто(x)", "пусто(7)"]
    if rng.random() < 0.3:  # the same in the states of an automaton
        lines = [lines[0], "С1: " + (" ; ".join(main[:1]) or "x := 1") + "; С2", "С2: СООБЩИТЬ x; Я"]
    return "\n".join(lines + ["СООБЩИТЬ x"]) + "\n"


def huge(rng: random.Random) -> str:
    """Powers, products, sums and quotients that would pass the size limit, of integers and of
    fractions, with exponents written or read; numbers of millions of digits in messages, in the
    call stack and read from text. Allowed results stay small enough for the oracle's pace."""
    base = rng.choice(["1/2", "2/3", "-1/2", "2", "-3", "10", "x", "1/x", "(1/2)", "0", "1", "-1"])
    exponent = rng.choice(["20000000", "10 ^ 10", "x * 5000000", "-20000000", "y", "3", "-3", "2 ^ 64", "(1/2)"])
    big = rng.choice(["2 ^ 5000001", "3 ^ 3000000", "(1/2) ^ 6000000", "1 / 3 ^ 3000000", "7 ^ 500"])
    steps = [
        f"СООБЩИТЬ {base} ^ {exponent}",
        f"z := {big}\nСООБЩИТЬ z * z",
        f"z := {big}\nСООБЩИТЬ (z * 3) ОСТ 7",
        f"z := {big}\nСООБЩИТЬ z + 1 / 3 ^ 3000000",
        f"z := {big}\nСООБЩИТЬ z / (1 / 5 ^ 3000000)",
        f"z := {big}\nСООБЩИТЬ ДЛИНА(z)",
        f"h (n) = n / 0\nСООБЩИТЬ h({big})",
        f"z := {big}\nм[z] := 1\nСООБЩИТЬ м[z + 1]",
        "s := '98765432'\nДЛЯ i := 1 ДО 19 ВЫПОЛНЯТЬ s := s + s ВЕРНУТЬСЯ\nСООБЩИТЬ ЧИСЛО(s) ОСТ 3",
        "s := 'ab'\nДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ s := s + s ВЕРНУТЬСЯ\nСООБЩИТЬ СИМВОЛ(s, 1000)",
    ]
    return "ПРОЧЕСТЬ x, y\n" + "\n".join(rng.sample(steps, rng.randint(1, 2))) + "\n"


FAILS = ["СООБЩИТЬ j", "РЕЗУЛЬТАТ := 1\n    q := j", "РЕЗУЛЬТАТ := 1 + j", "СООБЩИТЬ n, j", "q := n / (n - {k})",
         "q := м[n - {k} + 100]", "q := n + 'а' * (n ДЕЛ {k})", "СООБЩИТЬ СИМВОЛ('абв', n - {k} + 4)",
         "ЕСЛИ n = {k} ТО q := ЦЕЛ('а') КОНЕЦ_ЕСЛИ"]


def warm(rng: random.Random) -> str:
    """An error that comes only after a function or a loop has run warm (ten to twenty turns,
    past the point where CPython quickens its code): an unset local read after a store, a
    constant or another load; a division, an index, a kind gone wrong in the last turn."""
    k = rng.randint(10, 20)
    fail = rng.choice(FAILS).format(k=k)
    loop_var = rng.choice(["ДЛЯ j := n ДО {k} - 1 ВЫПОЛНЯТЬ ВЕРНУТЬСЯ", "ДЛЯ j := 1 ДО 2 ВЫПОЛНЯТЬ ВЕРНУТЬСЯ"])
    body = ["f (n) =", "    " + loop_var.format(k=k), "    " + fail, "    РЕЗУЛЬТАТ := n"]
    if rng.random() < 0.5:  # in the main program's loop instead
        return "\n".join([f"ДЛЯ n := 1 ДО {k} ВЫПОЛНЯТЬ", "    " + loop_var.format(k=k),
                          "    " + fail.replace("РЕЗУЛЬТАТ", "р"), "ВЕРНУТЬСЯ"]) + "\n"
    return "\n".join(body + ["s := 0", f"ДЛЯ k := 1 ДО {k + 2} ВЫПОЛНЯТЬ s := s + f(k) ВЕРНУТЬСЯ",
                              "СООБЩИТЬ s"]) + "\n"


GENERATORS = (parenthesized, empty_bodies, huge, warm)


def inputs(seed: int, count: int):
    rng = random.Random(seed)
    texts = corpus()
    for i in range(count):
        kind = i % 20
        if kind < 7:
            text = mutate(rng.choice(texts), rng)
        elif kind < 10:
            text = token_soup(rng)
        elif kind < 14:
            text = shaped(rng)
        elif kind < 16:
            text = deep(rng)
        else:  # the forms an attack reached and the generators above did not
            text = GENERATORS[kind - 16](rng)
            if rng.random() < 0.3:
                text = mutate(text, rng).replace(MUST_LOAD, "")
        yield text, rng.choice(STDINS)


# ---- minimizing and saving ----

def minimize(text: str, stdin: str, kind: str, budget: float = 120.0, signature: str = "") -> str:
    """A shorter text that fails the oracle the same way — the same kind and, for a crash, the
    same exception (`signature`, the last line of its traceback): lines, then characters, removed."""
    deadline = time.monotonic() + budget

    def fails(candidate: str) -> bool:
        if time.monotonic() >= deadline:
            return False
        verdict = judge(candidate, stdin, cache_too=kind == "cache")
        return verdict.kind == kind and (not signature or _signature(verdict) == signature)
    for unit in ("line", "char"):
        pieces = text.split("\n") if unit == "line" else list(text)
        size = max(1, len(pieces) // 2)
        while size >= 1 and time.monotonic() < deadline:
            i, changed = 0, False
            while i < len(pieces):
                candidate = pieces[:i] + pieces[i + size:]
                joined = ("\n" if unit == "line" else "").join(candidate)
                if candidate and fails(joined):
                    pieces, changed = candidate, True
                else:
                    i += size
            if not changed:
                size //= 2
        text = ("\n" if unit == "line" else "").join(pieces)
    return text


def _signature(verdict: Verdict) -> str:
    """The exception a crash ended with (its type, without the message's values)."""
    if verdict.kind != "crash" or not verdict.detail:
        return ""
    return verdict.detail.strip().splitlines()[-1].split(":")[0]


def save(text: str, stdin: str, verdict: Verdict, folder: Path = CASES) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    number = len(list(folder.glob("*.json"))) + 1
    path = folder / f"{number:03d}-{verdict.kind}.json"
    path.write_text(json.dumps({"text": text, "stdin": stdin, "found": verdict.kind, "detail": verdict.detail[-600:]},
                               ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subprocess-every", type=int, default=200)
    parser.add_argument("--cache-every", type=int, default=50, help="also run with a hostile cache folder")
    parser.add_argument("--save", type=Path, default=None, help="where to keep minimized failures")
    parser.add_argument("--stop-after", type=int, default=20, help="failures kept before stopping")
    args = parser.parse_args()
    started, failures, counts = time.monotonic(), 0, {}
    for i, (text, stdin) in enumerate(inputs(args.seed, args.count), start=1):
        began = time.monotonic()
        verdict = judge(text, stdin, subprocess_too=args.subprocess_every and i % args.subprocess_every == 0,
                        cache_too=args.cache_every and i % args.cache_every == 0)
        if time.monotonic() - began > 10:
            print(f"#{i} took {time.monotonic() - began:.0f} s: {text[:120]!r}", flush=True)
        counts["loaded" if verdict.outcomes else "static"] = counts.get("loaded" if verdict.outcomes else "static", 0) + 1
        if not verdict.ok:
            failures += 1
            small = minimize(text, stdin, verdict.kind, signature=_signature(verdict))
            where = save(small, stdin, judge(small, stdin, cache_too=verdict.kind == "cache"), args.save) if args.save else None
            print(f"#{i} {verdict.kind}: {verdict.detail.splitlines()[-1] if verdict.detail else ''}"
                  f" → {where or repr(small[:200])}", flush=True)
            if failures >= args.stop_after:
                break
        if i % 1000 == 0:
            print(f"{i} inputs, {failures} failures, {time.monotonic() - started:.0f} s, {counts}", flush=True)
    print(f"done: {i} inputs, {failures} failures, {time.monotonic() - started:.0f} s, {counts}")


if __name__ == "__main__":
    main()
