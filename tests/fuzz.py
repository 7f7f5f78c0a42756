"""The fuzz harness: hostile and random programs through every way pseudo reads and runs them.

    python3 tests/fuzz.py --count 100000 [--seed N] [--subprocess-every K] [--save DIR]

Inputs: mutations of every program and golden file, token soups, grammar-shaped programs,
hostile names and comments, each with a standard input. Each goes through `check` (load),
the interpreter, the compiled program (the fast code, falling back to the exact code), the
exact code alone, and the emitted file — executed in this process from its text, and every
K-th input also by a separate `python3 -I`. The oracle:
- nothing but the tool's own errors (a StaticError, a PseudoRuntimeError) ever comes out;
- nothing hangs past the limits;
- the emitted file compiles, and runs nothing but the program: a canary file that hostile
  text tries to create never appears;
- every mode prints the same output and reports the same error, word for word, with the
  same place, caret and call stack.
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
import types
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pseudo
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
    kind: str = ""  # what went wrong: "crash", "disagree", "emitted", "canary", "slow"
    detail: str = ""
    outcomes: dict = field(default_factory=dict)


def outcome_of(loaded, stdin: str, mode: str) -> tuple:
    out = io.StringIO()
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, limits=LIMITS, mode=mode)
    except PseudoRuntimeError as e:
        return out.getvalue(), e.render(), e.exit_code
    return out.getvalue(), None, 0


def emitted_outcome(loaded, stdin: str, workdir: Path) -> tuple:
    """The emitted file's text, compiled and run in this process (its own copy of the
    runtime), its errors reported by its own tables."""
    from pseudo.execute import deep_call
    from pseudo.pygen.emit import python_source
    text = deep_call(lambda: python_source(loaded, "fuzz.pseudo"))  # as `pseudo py` does
    path = workdir / "emitted.py"
    code = deep_call(lambda: compile(text, str(path), "exec"))  # the emitted file always compiles
    module = types.ModuleType("pseudo_emitted")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module  # as for a script: its classes look their module up
    try:
        exec(code, module.__dict__)  # noqa: S102 - the point: it must run nothing but the program
    finally:
        del sys.modules[module.__name__]
    namespace = module.__dict__
    out, err = io.StringIO(), io.StringIO()
    code = namespace["run_emitted"](namespace["главная"], namespace["ПРОГРАММА"], namespace.get("ОСТАЛЬНОЕ"), LIMITS,
                                    io.StringIO(stdin), out, err)
    return out.getvalue(), err.getvalue().rstrip("\n") or None, code


def emitted_subprocess(loaded, stdin: str, workdir: Path) -> tuple:
    from pseudo.execute import deep_call
    from pseudo.pygen.emit import python_source
    path = workdir / "emitted.py"
    path.write_text(deep_call(lambda: python_source(loaded, "fuzz.pseudo")), encoding="utf-8")
    argv = [sys.executable, "-I", str(path), "--max-steps", str(LIMITS.max_steps), "--max-depth",
            str(LIMITS.max_depth), "--time-limit", str(LIMITS.time_limit), "--seed", str(LIMITS.seed)]
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True, encoding="utf-8",
                            errors="replace", cwd=workdir, timeout=120, check=False)
    return result.stdout, result.stderr.rstrip("\n") or None, result.returncode


def judge(text: str, stdin: str, subprocess_too: bool = False) -> Verdict:
    """Run one input through everything; the verdict says whether the oracle holds."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        cwd = os.getcwd()
        os.chdir(workdir)  # injected code would drop its canary here
        try:
            return _judge(text, stdin, workdir, subprocess_too)
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
        return Verdict(True)
    except Exception:  # noqa: BLE001 - the oracle's point
        return Verdict(False, "crash", "load: " + traceback.format_exc(limit=-8))
    outcomes = {}
    for mode in MODES:
        try:
            outcomes[mode] = outcome_of(loaded, stdin, mode)
        except Exception:  # noqa: BLE001
            return Verdict(False, "crash", f"{mode}: " + traceback.format_exc(limit=-8))
    try:
        outcomes["emitted"] = emitted_outcome(loaded, stdin, workdir)
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


def inputs(seed: int, count: int):
    rng = random.Random(seed)
    texts = corpus()
    for i in range(count):
        kind = i % 10
        if kind < 4:
            text = mutate(rng.choice(texts), rng)
        elif kind < 6:
            text = token_soup(rng)
        elif kind < 9:
            text = shaped(rng)
        else:
            text = deep(rng)
        yield text, rng.choice(STDINS)


# ---- minimizing and saving ----

def minimize(text: str, stdin: str, kind: str, budget: float = 120.0, signature: str = "") -> str:
    """A shorter text that fails the oracle the same way — the same kind and, for a crash, the
    same exception (`signature`, the last line of its traceback): lines, then characters, removed."""
    deadline = time.monotonic() + budget

    def fails(candidate: str) -> bool:
        if time.monotonic() >= deadline:
            return False
        verdict = judge(candidate, stdin)
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
    parser.add_argument("--save", type=Path, default=None, help="where to keep minimized failures")
    parser.add_argument("--stop-after", type=int, default=20, help="failures kept before stopping")
    args = parser.parse_args()
    started, failures, counts = time.monotonic(), 0, {}
    for i, (text, stdin) in enumerate(inputs(args.seed, args.count), start=1):
        began = time.monotonic()
        verdict = judge(text, stdin, subprocess_too=args.subprocess_every and i % args.subprocess_every == 0)
        if time.monotonic() - began > 10:
            print(f"#{i} took {time.monotonic() - began:.0f} s: {text[:120]!r}", flush=True)
        counts["loaded" if verdict.outcomes else "static"] = counts.get("loaded" if verdict.outcomes else "static", 0) + 1
        if not verdict.ok:
            failures += 1
            small = minimize(text, stdin, verdict.kind, signature=_signature(verdict))
            where = save(small, stdin, judge(small, stdin), args.save) if args.save else None
            print(f"#{i} {verdict.kind}: {verdict.detail.splitlines()[-1] if verdict.detail else ''}"
                  f" → {where or repr(small[:200])}", flush=True)
            if failures >= args.stop_after:
                break
        if i % 1000 == 0:
            print(f"{i} inputs, {failures} failures, {time.monotonic() - started:.0f} s, {counts}", flush=True)
    print(f"done: {i} inputs, {failures} failures, {time.monotonic() - started:.0f} s, {counts}")


if __name__ == "__main__":
    main()
