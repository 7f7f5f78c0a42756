"""Automata: the state graph, the book's three versions, and random automata against an oracle."""
from __future__ import annotations

import io

from conftest import MODES, PROGRAMS, cli, run_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import queens

import pseudo
from pseudo.errors import PseudoRuntimeError
from pseudo.frontend.source import Source
from pseudo.interpreter import Stats
from pseudo.runtime import Limits

AUTOMATA = ["queens_automaton_1", "queens_automaton_2", "queens_automaton_3"]


def test_the_three_automata_print_the_reference_solutions_in_order():
    for name in AUTOMATA:
        outcome = run_file(PROGRAMS / f"{name}.pseudo")
        assert outcome.error is None, name
        assert outcome.lines == queens.lines(8), name


def test_automaton_2_graph_has_exactly_the_printed_states_and_edges():
    (a,) = pseudo.load(Source.from_file(PROGRAMS / "queens_automaton_2.pseudo")).facts.top_automata()
    assert [s.name for s in a.states] == ["ПРОГРАММА", "С", "И", "СОК", "СБ", "С8"]
    assert a.entry == "ПРОГРАММА"
    assert sorted((e.source, e.target, e.condition or "") for e in a.edges) == sorted([
        ("ПРОГРАММА", "С", ""), ("С", "С8", "k = 9"), ("С", "И", "k ≠ 9"),
        ("И", "СБ", "таких полей нет"), ("И", "СОК", "НЕ (таких полей нет)"), ("СОК", "С", ""),
        ("СБ", "Я", "k = 0"), ("СБ", "И", "k ≠ 0"), ("С8", "СБ", "")])


NESTED = """ПРОГРАММА: ПРОЧЕСТЬ x
ЕСЛИ x > 0 ТО
  ЕСЛИ x ОСТ 2 = 0 ТО А ИНАЧЕ Б КОНЕЦ_ЕСЛИ
ИНАЧЕ ЕСЛИ x = 0 ИЛИ x = -1 ТО В ИНАЧЕ ЕСЛИ НЕ (x < -5 И x > -9) ТО Г ИНАЧЕ Д КОНЕЦ_ЕСЛИ КОНЕЦ_ЕСЛИ
КОНЕЦ_ЕСЛИ
А: Я
Б: ПОКА x < 10 ВЫПОЛНЯТЬ ЕСЛИ x = 7 ТО Я КОНЕЦ_ЕСЛИ; x := x + 2 ВЕРНУТЬСЯ
В: Я
Г: Я
Д: Я
"""


def test_an_edge_is_labelled_with_the_whole_condition_that_leads_along_it():
    (a,) = pseudo.load(Source(NESTED, "t.pseudo")).facts.top_automata()
    assert {(e.source, e.target): e.condition for e in a.edges if e.kind != "fall"} == {
        ("ПРОГРАММА", "А"): "x > 0 И x ОСТ 2 = 0",
        ("ПРОГРАММА", "Б"): "x > 0 И x ОСТ 2 ≠ 0",
        ("ПРОГРАММА", "В"): "x ≤ 0 И (x = 0 ИЛИ x = -1)",
        ("ПРОГРАММА", "Г"): "x ≤ 0 И НЕ (x = 0 ИЛИ x = -1) И НЕ (x < -5 И x > -9)",
        ("ПРОГРАММА", "Д"): "x ≤ 0 И НЕ (x = 0 ИЛИ x = -1) И x < -5 И x > -9",  # НЕ of НЕ
        ("А", "Я"): None, ("Б", "Я"): "x < 10 И x = 7", ("В", "Я"): None, ("Г", "Я"): None, ("Д", "Я"): None}


NEGATED_PHRASES = """«нет таких полей» = k > 2
«место свободно» = k < 5
«готово» = k = 3
г (x) = x > 1
ПРОГРАММА: k := 0
С: k := k + 1; ЕСЛИ нет таких полей ТО Я ИНАЧЕ СОК КОНЕЦ_ЕСЛИ
СОК: ЕСЛИ место свободно ТО С ИНАЧЕ ЕСЛИ готово ИЛИ k = 1 ТО С ИНАЧЕ ЕСЛИ г(k) ТО Я ИНАЧЕ С КОНЕЦ_ЕСЛИ КОНЕЦ_ЕСЛИ
КОНЕЦ_ЕСЛИ
"""


def test_a_negated_phrase_is_bracketed_not_read_as_a_double_negation():
    """«НЕ нет таких полей» is a double negation a teacher would not write: a phrase under НЕ
    is bracketed, in the graph and in the trace's words alike; a call of a function is not."""
    (a,) = pseudo.load(Source(NEGATED_PHRASES, "t.pseudo")).facts.top_automata()
    assert [(e.source, e.target, e.condition) for e in a.edges if e.source != "ПРОГРАММА"] == [
        ("С", "Я", "нет таких полей"), ("С", "СОК", "НЕ (нет таких полей)"),
        ("СОК", "С", "место свободно"), ("СОК", "С", "НЕ (место свободно) И (готово ИЛИ k = 1)"),
        ("СОК", "Я", "НЕ (место свободно) И НЕ (готово ИЛИ k = 1) И г(k)"),
        ("СОК", "С", "НЕ (место свободно) И НЕ (готово ИЛИ k = 1) И НЕ г(k)")]
    dot = cli("graph", "programs/queens_automaton_1.pseudo").stdout
    assert '"С" -> "СОК" [label="k ≠ 9 И НЕ (нет таких полей)"];' in dot and "НЕ нет" not in dot
    explain = cli("trace", "-q", "--explain", "--max-events", "300", "programs/queens_automaton_1.pseudo").stdout
    assert "Переход из состояния С в состояние СОК, потому что k ≠ 9 И НЕ (нет таких полей)" in explain


def test_graph_command_writes_dot_with_entry_and_final_state_marked():
    result = cli("graph", "programs/queens_automaton_2.pseudo")
    assert result.returncode == 0
    dot = result.stdout
    assert dot.startswith('digraph "queens_automaton_2" {')
    assert '"ПРОГРАММА" [peripheries=2];' in dot and '"Я" [shape=doublecircle];' in dot
    assert '"С" -> "С8" [label="k = 9"];' in dot
    assert dot.count(" -> ") == 9 + 1  # nine transfers and the arrow into the entry


def test_graph_of_a_program_without_labels_is_its_call_graph():
    result = cli("graph", "programs/queens_recursive.pseudo")
    assert '"HR" -> "HR";' in result.stdout
    assert '"__программа" -> "HR";' in result.stdout and 'label="программа"' in result.stdout


def test_graph_svg_says_how_to_install_dot_when_missing(tmp_path):
    import shutil
    result = cli("graph", "--format", "svg", "-o", str(tmp_path / "g.svg"), "programs/queens_automaton_2.pseudo")
    if shutil.which("dot"):
        assert result.returncode == 0 and (tmp_path / "g.svg").read_text().lstrip().startswith("<?xml")
    else:
        assert result.returncode == 69 and "apt install graphviz" in result.stderr


def stats_of(name: str) -> Stats:
    stats = Stats()
    pseudo.run(pseudo.load(Source.from_file(PROGRAMS / f"{name}.pseudo")), stdout=io.StringIO(), stats=stats)
    return stats


def calls(stats: Stats, word: str) -> int:
    return sum(v for k, v in stats.calls.items() if k.startswith("«" + word))


def test_stats_of_the_four_versions_are_consistent():
    rec, a1, a2, a3 = (stats_of(x) for x in ["queens_recursive"] + AUTOMATA)
    placed = calls(rec, "занять")
    assert placed == calls(a1, "занять") == calls(a2, "занять") == a1.states[(None, "СОК")]
    assert calls(a3, "занять") == placed - 92  # the eighth queen is no longer placed
    assert a1.states[(None, "С8")] == a2.states[(None, "С8")] == 92
    assert rec.calls["HR"] == a3.states[(None, "С")] == a3.states[(None, "СБ")]


def test_run_stats_prints_to_stderr_only():
    result = cli("run", "--stats", "-q", "programs/queens_automaton_2.pseudo")
    assert result.stdout.splitlines() == queens.lines(8)
    assert "входов в состояния" in result.stderr and "92  С8" in result.stderr


# ---- random automata against a plain-Python state machine ----

@st.composite
def machines(draw):
    count = draw(st.integers(2, 5))
    states = []
    for i in range(count):
        actions = draw(st.lists(st.tuples(st.sampled_from(["add", "mul", "print"]), st.integers(1, 9)), max_size=3))
        kind = draw(st.sampled_from(["if", "goto", "jump", "final", "fall"]))
        targets = (draw(st.integers(0, count - 1)), draw(st.integers(0, count - 1)))
        mod = draw(st.integers(2, 5))
        states.append((actions, kind, targets, mod))
    return states, draw(st.booleans())


def render(machine) -> str:
    states, entry_label = machine
    lines = ["ПРОГРАММА: n := 1; S0"] if entry_label else ["n := 1"]
    for i, (actions, kind, (a, b), mod) in enumerate(states):
        body = []
        for op, c in actions:
            body.append({"add": f"n := n + {c}", "mul": f"n := n * {c} ОСТ 1000",
                         "print": f"СООБЩИТЬ 'S{i}', n"}[op])
        body.append({"if": f"ЕСЛИ n ОСТ {mod} = 0 ТО S{a} ИНАЧЕ ПЕРЕЙТИ К S{b} КОНЕЦ_ЕСЛИ",
                     "goto": f"ПЕРЕЙТИ К S{a}", "jump": f"S{a}", "final": "Я", "fall": ""}[kind])
        lines.append(f"S{i}: " + "; ".join(x for x in body if x))
    return "\n".join(lines) + "\n"


def oracle(machine, limit: int):
    """The same automaton as a plain Python loop; a transfer costs one step."""
    states, entry_label = machine
    n, state, out = 1, 0, []
    steps = 1 if entry_label else 0  # `ПРОГРАММА: …; S0` transfers into S0
    while state < len(states):
        actions, kind, (a, b), mod = states[state]
        for op, c in actions:
            if op == "add":
                n += c
            elif op == "mul":
                n = n * c % 1000
            else:
                out.append(f"S{state} {n}")
        if kind == "final":
            return out, False
        if kind == "fall":
            state += 1
            continue
        target = a if kind in ("goto", "jump") or n % mod == 0 else b
        steps += 1
        if steps > limit:
            return out, True
        state = target
    return out, False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(machines(), st.sampled_from(MODES))
def test_random_automata_run_like_a_state_machine(machine, mode):
    text = render(machine)
    loaded = pseudo.load(Source(text, "auto.pseudo"))
    out = io.StringIO()
    limited = False
    try:
        pseudo.run(loaded, stdout=out, limits=Limits(max_steps=300), mode=mode)
    except PseudoRuntimeError as e:
        assert e.code in ("step-limit", "repeat")  # a machine that comes back to a state is told so before the limit
        limited = True
    assert (out.getvalue().splitlines(), limited) == oracle(machine, 300), text
