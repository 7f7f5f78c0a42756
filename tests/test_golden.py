"""Golden programs: each file says, in comments, what it must print and report.

    { ожидается: TEXT }                 one line of standard output, in order
    { ввод: TEXT }                      one line of standard input
    { предупреждение L:C: TEXT }        a warning at line L, column C whose text contains TEXT
    { ошибка L:C: TEXT }                a syntax or static error (the program does not run)
    { ошибка выполнения L:C: TEXT }     the runtime error that stops the program
    { подсказка L:C: TEXT }             the hint of the error or warning at L:C contains TEXT
    { шагов не больше: N }              run with --max-steps N

Every expected diagnostic must appear and no other may.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import MODES, run_file

from pseudo import nodes
from pseudo.errors import PseudoRuntimeError, StaticError
from pseudo.frontend.parser import grammar_rule_names
from pseudo.runtime import Limits

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("**/*.pseudo"))
ANNOTATION = re.compile(r"\{\s*(ожидается|ввод|предупреждение|ошибка выполнения|ошибка|подсказка|шагов не больше)"
                        r"(?:\s+(\d+):(\d+))?:[ ]?(.*?)\s*\}", re.DOTALL)


def expectations(path: Path):
    exp = {"out": [], "in": [], "warn": [], "error": [], "runtime": [], "hint": [], "steps": None}
    for m in ANNOTATION.finditer(path.read_text(encoding="utf-8")):
        kind, line, col, text = m.groups()
        where = (int(line), int(col)) if line else None
        match kind:
            case "ожидается":
                exp["out"].append(text)
            case "ввод":
                exp["in"].append(text)
            case "предупреждение":
                exp["warn"].append((where, text))
            case "ошибка":
                exp["error"].append((where, text))
            case "ошибка выполнения":
                exp["runtime"].append((where, text))
            case "подсказка":
                exp["hint"].append((where, text))
            case "шагов не больше":
                exp["steps"] = int(text)
    return exp


def _matches(diags, expected, path):
    got = [((d.span.line, d.span.column) if d.span else None, d.text) for d in diags]
    for where, text in expected:
        assert any(w == where and text in t for w, t in got), f"{path.name}: нет {where} {text!r} среди {got}"
    assert len(got) == len(expected), f"{path.name}: лишние сообщения {got}"


def _hinted(diags, expected, path):
    got = [((d.span.line, d.span.column) if d.span else None, d.hint) for d in diags]
    for where, text in expected:
        assert any(w == where and h and text in h for w, h in got), f"{path.name}: нет подсказки {where} {text!r} среди {got}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_golden(path: Path, mode: str):
    """Each golden program, interpreted and transpiled: the same output, warnings and errors."""
    exp = expectations(path)
    limits = Limits(max_steps=exp["steps"]) if exp["steps"] else None
    outcome = run_file(path, "\n".join(exp["in"]) + ("\n" if exp["in"] else ""), limits, mode=mode)
    if exp["error"]:
        assert isinstance(outcome.error, StaticError), f"ожидалась статическая ошибка, а получено {outcome.error}"
        _matches(outcome.error.diagnostics, exp["error"], path)
        _hinted(outcome.error.diagnostics, exp["hint"], path)
        return
    if isinstance(outcome.error, StaticError):
        pytest.fail(outcome.error.render())
    _matches(outcome.warnings, exp["warn"], path)
    assert outcome.lines == exp["out"]
    if exp["runtime"]:
        assert isinstance(outcome.error, PseudoRuntimeError), "ожидалась ошибка выполнения"
        _matches(outcome.error.diagnostics, exp["runtime"], path)
    else:
        assert outcome.error is None, outcome.error.render()
    _hinted([*outcome.warnings, *(outcome.error.diagnostics if outcome.error else [])], exp["hint"], path)


def test_every_grammar_rule_is_exercised_by_a_golden_program(monkeypatch):
    """Every rule the parser reduced in reading the golden programs — their chunks and every
    slice the resolver read as an expression —, as the nodes of Lark's own tree of the same
    tokens."""
    from pseudo.frontend import parser
    from pseudo.frontend.resolver import resolve_program
    from pseudo.frontend.source import Source
    seen = set()
    parse = parser._parse

    def recorded(tokens, start, source, *following):
        value = parse(tokens, start, source, *following)  # raises where the tokens are not `start`
        interactive = parser.lark_parser().parse_interactive(start=start)
        for tok in tokens:
            interactive.feed_token(tok)
        seen.update(str(t.data) for t in interactive.feed_eof().iter_subtrees())
        return value
    monkeypatch.setattr(parser, "_parse", recorded)
    for path in FILES:
        try:
            resolve_program(Source.from_file(path))
        except StaticError:
            continue
    missing = grammar_rule_names() - seen
    assert not missing, f"правила грамматики без золотой программы: {sorted(missing)}"


def test_every_node_class_is_exercised_by_a_golden_program():
    from pseudo import load
    from pseudo.frontend.source import Source
    seen = set()
    for path in FILES:
        try:
            program = load(Source.from_file(path)).program
        except StaticError:
            continue
        for body in nodes.bodies(program):
            seen |= {type(x) for x in nodes.walk(body)}
        seen |= {type(d) for d in program.definitions.values()}
        seen |= {type(p) for d in program.definitions.values() for p in d.params}
    expected = {cls for cls in vars(nodes).values()
                if isinstance(cls, type) and issubclass(cls, nodes.Node) and cls not in (nodes.Node, nodes.Program,
                                                                                        nodes.Comment)}
    assert not expected - seen, f"узлы без золотой программы: {sorted(c.__name__ for c in expected - seen)}"


RUNNABLE = [p for p in FILES if not expectations(p)["error"]]


@pytest.mark.parametrize("limits", [False, True], ids=["readable", "limits"])
@pytest.mark.parametrize("path", RUNNABLE, ids=[str(p.relative_to(GOLDEN)) for p in RUNNABLE])
def test_golden_as_an_emitted_file(path: Path, tmp_path, limits: bool):
    """The emitted file — readable, run by a plain `python3 -I`, or with the limits of `pseudo
    run`, run in this process from its text — prints what `pseudo run` prints and reports its
    error in the very same words, place and caret. A readable file has no step limit: a program
    that must meet one is written with limits only."""
    import subprocess
    import sys

    from conftest import ROOT, run_emitted_here, run_source

    from pseudo import load
    from pseudo.frontend.source import Source
    from pseudo.pygen.emit import python_source
    exp = expectations(path)
    if exp["steps"] and not limits:
        pytest.skip("a step limit: the readable file has none")
    stdin = "\n".join(exp["in"]) + ("\n" if exp["in"] else "")
    source = Source(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))  # named as a user names it
    outcome = run_source(source, stdin, Limits(max_steps=exp["steps"]) if exp["steps"] else None, mode="compiled")
    emitted = tmp_path / "program.py"
    text = python_source(load(source), path.name, limits=limits)
    if limits:  # run here, as python3 would run it (the readable file, the default, by python3 -I)
        stdout, stderr, code = run_emitted_here(text, emitted, stdin, Limits(max_steps=exp["steps"] or 10 ** 9))
    else:
        emitted.write_text(text, encoding="utf-8")
        result = subprocess.run([sys.executable, "-I", str(emitted)], input=stdin, capture_output=True, text=True,
                                encoding="utf-8", cwd=ROOT, timeout=60, check=False)
        stdout, stderr, code = result.stdout, result.stderr, result.returncode
    assert stdout == outcome.stdout
    if outcome.error is None:
        assert (code, stderr) == (0, "")
    else:
        assert (code, stderr) == (outcome.error.exit_code, outcome.error.render() + "\n")
