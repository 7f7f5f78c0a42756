"""Tracing: the event stream, its views, and their bounds and filters."""
from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys

import jsonschema
import pytest
from conftest import ROOT, cli

import pseudo
from pseudo.frontend.source import Source
from pseudo.tools.trace import TraceLimit, Tracer, decoded
from pseudo.tools.views import printed

SCHEMA = json.loads((ROOT / "docs" / "trace.schema.json").read_text(encoding="utf-8"))


def events_of(text: str, max_events: int | None = None, stdin: str = "") -> list[dict]:
    """The events of a run, their values printed as the views print them."""
    loaded = pseudo.load(Source(text, "t.pseudo"))
    events: list[dict] = []
    pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=io.StringIO(), tracer=Tracer(events.append, max_events))
    return [printed(e) for e in decoded(events)]


def brief(events):
    """Events without their positions, for exact comparison."""
    return [{k: v for k, v in e.items() if k not in ("file", "column", "step", "definition")} for e in events]


def test_event_sequence_of_assignments_conditions_and_output():
    assert brief(events_of("k := 1\nЕСЛИ k = 1 ТО СООБЩИТЬ k, ИНАЧЕ k := 2 КОНЕЦ_ЕСЛИ\n")) == [
        {"kind": "stmt", "line": 1, "depth": 0, "text": "k := 1"},
        {"kind": "assign", "line": 1, "depth": 0, "name": "k", "index": None, "old": None, "new": "1", "local": False,
         "frame": None},
        {"kind": "stmt", "line": 2, "depth": 0, "text": "ЕСЛИ k = 1 ТО"},
        {"kind": "cond", "line": 2, "depth": 0, "text": "k = 1", "value": "ИСТИНА", "construct": "ЕСЛИ",
         "has_else": True},
        {"kind": "stmt", "line": 2, "depth": 0, "text": "СООБЩИТЬ k,"},
        {"kind": "output", "line": 2, "depth": 0, "text": "1"},
        {"kind": "output", "line": 2, "depth": 0, "text": "\n"},  # the line left open, ended at the end
    ]


def test_event_sequence_of_calls_loops_and_input():
    text = "f (x) = x * 2\nПРОЧЕСТЬ n\nДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ m[i] := f(n) ВЕРНУТЬСЯ\n"
    assert brief(events_of(text, stdin="5")) == [
        {"kind": "stmt", "line": 2, "depth": 0, "text": "ПРОЧЕСТЬ n"},
        {"kind": "input", "line": 2, "depth": 0, "value": "5"},
        {"kind": "assign", "line": 2, "depth": 0, "name": "n", "index": None, "old": None, "new": "5", "local": False,
         "frame": None},
        {"kind": "stmt", "line": 3, "depth": 0, "text": "ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ"},
        {"kind": "assign", "line": 3, "depth": 0, "name": "i", "index": None, "old": None, "new": "1", "local": False,
         "frame": None},
        {"kind": "stmt", "line": 3, "depth": 0, "text": "m[i] := f(n)"},
        {"kind": "call", "line": 3, "depth": 0, "name": "f", "args": ["5"], "params": ["x"], "phrase": False},
        {"kind": "expr", "line": 1, "depth": 1, "text": "x * 2", "role": "body", "value": None},  # a step in f
        {"kind": "expr", "line": 1, "depth": 1, "text": "x * 2", "role": "value", "value": "10"},  # and out
        {"kind": "return", "line": 3, "depth": 0, "name": "f", "value": "10"},
        {"kind": "assign", "line": 3, "depth": 0, "name": "m", "index": ["1"], "old": None, "new": "10",
         "local": False, "frame": None},
        {"kind": "assign", "line": 3, "depth": 0, "name": "i", "index": None, "old": "1", "new": "2", "local": False,
         "frame": None},
        {"kind": "stmt", "line": 3, "depth": 0, "text": "m[i] := f(n)"},
        {"kind": "call", "line": 3, "depth": 0, "name": "f", "args": ["5"], "params": ["x"], "phrase": False},
        {"kind": "expr", "line": 1, "depth": 1, "text": "x * 2", "role": "body", "value": None},  # a step in f
        {"kind": "expr", "line": 1, "depth": 1, "text": "x * 2", "role": "value", "value": "10"},  # and out
        {"kind": "return", "line": 3, "depth": 0, "name": "f", "value": "10"},
        {"kind": "assign", "line": 3, "depth": 0, "name": "m", "index": ["2"], "old": None, "new": "10",
         "local": False, "frame": None},
    ]


def test_event_sequence_of_an_automaton():
    text = "ПРОГРАММА: n := 0; С\nС: n := n + 1\n  ЕСЛИ n < 2 ТО С ИНАЧЕ Я КОНЕЦ_ЕСЛИ\n"
    states = [(e["from"], e["to"], e["condition"], e["how"]) for e in events_of(text) if e["kind"] == "state"]
    assert states == [(None, "ПРОГРАММА", None, "entry"), ("ПРОГРАММА", "С", None, "goto"),
                      ("С", "С", "n < 2", "goto")]


def test_calls_carry_depth_so_recursion_reads_as_a_tree():
    text = "f (n) = ЕСЛИ n = 0 ТО 0 ИНАЧЕ f(n - 1) КОНЕЦ_ЕСЛИ\nx := f(2)\n"
    calls = [(e["kind"], e["depth"], e.get("args")) for e in events_of(text) if e["kind"] in ("call", "return")]
    assert calls == [("call", 0, ["2"]), ("call", 1, ["1"]), ("call", 2, ["0"]), ("return", 2, None),
                     ("return", 1, None), ("return", 0, None)]


def test_the_bound_stops_cleanly():
    with pytest.raises(TraceLimit):
        events_of("ПОКА ИСТИНА ВЫПОЛНЯТЬ x := 1 ВЕРНУТЬСЯ\n", max_events=100)
    result = cli("trace", "-q", "--max-events", "50", "programs/queens_recursive.pseudo")
    assert result.returncode == 0
    assert "трассировка остановлена после 50 событий" in result.stderr


@pytest.mark.parametrize("name", ["queens_recursive", "queens_automaton_2"])
def test_jsonl_is_valid_against_the_schema(name, tmp_path):
    out = tmp_path / "t.jsonl"
    result = cli("trace", "-q", "--format", "jsonl", "--max-events", "4000", "-o", str(out), f"programs/{name}.pseudo")
    assert result.returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4000 + 1  # and the end event
    validator = jsonschema.Draft202012Validator(SCHEMA)
    kinds = set()
    for line in lines:
        event = json.loads(line)
        validator.validate(event)
        kinds.add(event["kind"])
    assert {"stmt", "cond", "assign", "call", "return"} <= kinds
    assert name != "queens_automaton_2" or "state" in kinds


def test_views_of_queens_recursive():
    text = cli("trace", "-q", "--max-events", "400", "programs/queens_recursive.pseudo").stdout
    assert "│ → HR(1)" in text and "│   → HR(2)" in text  # calls indented by depth
    assert "c[1] := 1" in text and "j: 1 → 2" in text
    explain = cli("trace", "-q", "--explain", "--max-events", "3000", "programs/queens_recursive.pseudo").stdout
    assert "Вызов HR(3): глубина 3" in explain
    assert "Проверяется условие k = 8: ложь, переход к ИНАЧЕ" in explain
    table = cli("trace", "-q", "--format", "table", "--max-events", "2000", "programs/queens_recursive.pseudo").stdout
    head = table.splitlines()[0]
    assert head.split()[:3] == ["шаг", "│", "стр."] and "c[…]" in head and "вывод" in head
    margin = cli("trace", "-q", "--margin", "--max-events", "5000", "programs/queens_recursive.pseudo").stdout
    assert any(line.startswith("  30  ") and "│ c[" in line for line in margin.splitlines())


def test_views_of_queens_automaton_2():
    text = cli("trace", "-q", "--only", "states", "--max-events", "3000", "programs/queens_automaton_2.pseudo").stdout
    assert "▶ ПРОГРАММА" in text and "ПРОГРАММА → С" in text and "И → СОК  (НЕ (таких полей нет))" in text
    explain = cli("trace", "-q", "--explain", "--max-events", "3000", "programs/queens_automaton_2.pseudo").stdout
    assert "Проверяется условие k = 9: ложь, переход к ИНАЧЕ" in explain
    assert "Переход из состояния С в состояние И, потому что k ≠ 9" in explain  # the ИНАЧЕ branch
    margin = cli("trace", "-q", "--margin", "programs/queens_automaton_2.pseudo", "--max-events", "100000").stdout
    assert any("СОК: занять k, c[k]; k := k + 1; С" in line and "│ k=" in line for line in margin.splitlines())


def test_filters():
    args = ["--max-events", "3000", "programs/queens_recursive.pseudo"]
    only_calls = cli("trace", "-q", "--only", "calls", *args).stdout.splitlines()
    assert only_calls and all("→" in line or "←" in line or "pseudo:" in line for line in only_calls)
    vars_k = cli("trace", "-q", "--vars", "c", *args).stdout.splitlines()
    assert vars_k and all(" c[" in line or "pseudo:" in line for line in vars_k)
    window = cli("trace", "-q", "--from", "10", "--to", "20", *args).stdout.splitlines()
    assert [int(line.split()[0]) for line in window if not line.startswith("pseudo")] == list(range(10, 21))
    shallow = cli("trace", "-q", "--depth", "1", *args).stdout
    assert "→ HR(2)" in shallow and "→ HR(3)" not in shallow
    assert cli("trace", "-q", "--only", "всё", *args).returncode == 64


def test_a_trace_stopped_at_its_events_says_what_a_pupil_s_runaway_looks_like(tmp_path):
    """A loop or a recursion without end fills --max-events: the note said only «увеличьте
    --max-events», a fix that never ends such a program."""
    loop = tmp_path / "цикл.pseudo"
    loop.write_text("i := 0\nПОКА i ≥ 0 ВЫПОЛНЯТЬ i := i + 1 ВЕРНУТЬСЯ\n", encoding="utf-8")
    done = cli("trace", "-q", "--max-events", "500", str(loop))
    assert done.returncode == 0 and done.stderr == (
        "pseudo: трассировка остановлена после 500 событий; если программа не кончается, посмотрите, что должно "
        "остановить повторение; если ей просто нужно больше событий — --max-events N\n")
    deep = tmp_path / "рекурсия.pseudo"
    deep.write_text("F(k) = F(k + 1)\nСООБЩИТЬ F(1)\n", encoding="utf-8")
    done = cli("trace", "-q", "--format", "jsonl", "--max-events", "30000", str(deep))
    assert done.stderr.startswith("pseudo: трассировка остановлена после 30000 событий на глубине ")
    assert "похоже, рекурсия не кончается" in done.stderr


def test_a_window_that_ends_before_it_begins_is_a_usage_error():
    """`--from 10 --to 5` traced nothing and said nothing, exit 0."""
    done = cli("trace", "-q", "--from", "10", "--to", "5", "programs/queens_recursive.pseudo")
    assert done.returncode == 64 and done.stdout == ""
    assert done.stderr == "pseudo: ошибка: --from 10 больше, чем --to 5: между ними нет ни одного события\n"


def test_the_trace_goes_where_the_user_sends_standard_output(tmp_path):
    """`pseudo trace p > file` and `| less` capture the trace, which holds the program's output
    as `вывод:` events; the output is not written a second time in between."""
    result = cli("trace", "-q", "tests/programs/hanoi.pseudo")  # standard output is a pipe here
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and not result.stderr
    assert all(" │ " in line for line in lines), "only trace lines"
    assert lines[-1].endswith("вывод: «Всего ходов: 7⏎»")
    assert "Всего ходов: 7\n" not in result.stdout
    saved = tmp_path / "trace.txt"
    with saved.open("w", encoding="utf-8") as out:  # `pseudo trace p > trace.txt`
        subprocess.run([sys.executable, "-m", "pseudo", "trace", "-q", "tests/programs/hanoi.pseudo"], stdout=out,
                       cwd=ROOT, check=True, env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert saved.read_text(encoding="utf-8") == result.stdout


def test_with_o_the_program_output_goes_to_standard_output(tmp_path):
    out = tmp_path / "t.txt"
    result = cli("trace", "-q", "-o", str(out), "tests/programs/hanoi.pseudo")
    assert result.stdout.splitlines()[-1] == "Всего ходов: 7"
    assert "вывод: «Всего ходов: 7⏎»" in out.read_text(encoding="utf-8")
    page = tmp_path / "t.html"
    result = cli("trace", "-q", "--html", "-o", str(page), "tests/programs/hanoi.pseudo")
    assert result.stdout.splitlines()[-1] == "Всего ходов: 7"
    assert "страница трассировки записана" in result.stderr


def test_a_trace_of_an_automaton_that_repeats_itself_says_so_before_its_event_limit(tmp_path):
    """Every step is at least one event: a traced run watches for a repeated state from its
    first look, or the event limit would always stop it first, with only «увеличьте
    --max-events» to say."""
    program = tmp_path / "loop.pseudo"
    program.write_text("ПРОГРАММА: k := 1; С\nС: ЕСЛИ k = 9 ТО Я ИНАЧЕ k := 1; С КОНЕЦ_ЕСЛИ\n", encoding="utf-8")
    result = cli("trace", "-q", "-o", str(tmp_path / "t.txt"), str(program))
    assert result.returncode == 70, result.stderr
    assert "loop.pseudo:2:" in result.stderr and "программа зациклилась" in result.stderr
    assert "max-events" not in result.stderr
    assert "программа зациклилась" in cli("run", "-q", str(program)).stderr  # as the run says
    program.write_text("ПРОГРАММА: x := 0; С\nС: x := 1 - x; С\n", encoding="utf-8")  # a cycle of two steps
    result = cli("trace", "-q", "-o", str(tmp_path / "t.txt"), str(program))
    assert result.returncode == 70 and "программа зациклилась" in result.stderr
    assert len((tmp_path / "t.txt").read_text(encoding="utf-8").splitlines()) < 60_000  # told early (~37,000)


def test_the_help_says_where_the_trace_goes():
    text = " ".join(cli("trace", "--help").stdout.split())
    assert "Трассировка идёт в стандартный вывод" in text and "| less" in text and "> trace.txt" in text
    assert "С -o ФАЙЛ" in text


@pytest.mark.skipif(not os.path.exists("/dev/null") or not stat.S_ISCHR(os.stat("/dev/null").st_mode),
                    reason="no /dev/null device")
def test_a_device_named_by_o_is_written_not_replaced():
    result = cli("trace", "-q", "--format", "jsonl", "-o", "/dev/null", "tests/programs/hanoi.pseudo")
    assert result.returncode == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert result.stdout.splitlines()[-1] == "Всего ходов: 7"


def test_html_page_is_self_contained(tmp_path):
    page = tmp_path / "t.html"
    assert cli("trace", "-q", "--html", "-o", str(page), "programs/queens_recursive.pseudo").returncode == 0
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text
    assert '<script type="application/json" id="trace-data">' in text
    assert "<script src" not in text and "<link" not in text and "@import" not in text


def test_a_page_that_ends_with_an_error_is_named_before_the_error(tmp_path):
    program = tmp_path / "p.pseudo"
    program.write_text("ПРОЧЕСТЬ n\nСООБЩИТЬ n + 1\n", encoding="utf-8")
    page = tmp_path / "p.html"
    done = cli("trace", "--html", "-o", str(page), str(program), stdin="пять\n")
    assert done.returncode == 70 and page.is_file()
    said, error = done.stderr.splitlines()[:2]
    assert said == f"pseudo: страница трассировки записана в {page}"
    assert error.startswith(f"{program}:2:10: ошибка: операция «+» не применима к строке и целому числу")


def test_a_page_survives_what_the_program_prints(tmp_path):
    """Output, names and values are data: `</script>` printed by the program cannot end the
    page's script."""
    program = tmp_path / "p.pseudo"
    program.write_text("СООБЩИТЬ '</script><script>alert(1)</script><!--'\n", encoding="utf-8")
    page = tmp_path / "p.html"
    assert cli("trace", "-q", "--html", "-o", str(page), str(program)).returncode == 0
    text = page.read_text(encoding="utf-8")
    assert text.count("</script>") == 2 and "<!--" not in text


def test_a_jsonl_stream_ends_with_how_the_run_ended(tmp_path):
    out = tmp_path / "t.jsonl"
    validator = jsonschema.Draft202012Validator(SCHEMA)
    cases = [("СООБЩИТЬ 1\n", [], 0, "ok", None),
             ("x := 1; СООБЩИТЬ 1 / 0\n", [], 70, "error", "деление на ноль"),
             ("ПОКА ИСТИНА ВЫПОЛНЯТЬ x := 1 ВЕРНУТЬСЯ\n", ["--max-events", "30"], 0, "trace-limit", None)]
    for text, options, code, outcome, message in cases:
        program = tmp_path / "p.pseudo"
        program.write_text(text, encoding="utf-8")
        result = cli("trace", "-q", "--format", "jsonl", *options, "-o", str(out), str(program))
        assert result.returncode == code, result.stderr
        events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        for event in events:
            validator.validate(event)
        end = events[-1]
        assert end["kind"] == "end" and end["outcome"] == outcome and end["message"] == message
        assert [e["step"] for e in events] == list(range(1, len(events) + 1))
        assert [e for e in events if e["kind"] == "end"] == [end]
        if outcome == "error":
            assert (end["line"], end["column"]) == (1, 18)
        if outcome == "trace-limit":
            assert len(events) == 31


def test_a_function_and_a_conditional_expression_are_steps():
    """A function's body begun and its value, the branch a conditional expression takes: steps
    of their own (expr events), at the depth of the call."""
    events = events_of("НОД (a, b) = ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ\nСООБЩИТЬ НОД(6, 3)\n")
    steps = [(e["depth"], e["role"], e["text"], e["value"]) for e in events if e["kind"] == "expr"]
    body = "ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ"  # the whole body, to its КОНЕЦ_ЕСЛИ
    assert steps == [(1, "body", body, None), (1, "else", "НОД(b, a ОСТ b)", None),
                     (2, "body", body, None), (2, "then", "a", None),
                     (2, "value", body, "3"), (1, "value", body, "3")]
    conditions = [(e["depth"], e["text"], e["value"], e["construct"]) for e in events if e["kind"] == "cond"]
    assert conditions == [(1, "b = 0", "ЛОЖЬ", "ЕСЛИ"), (2, "b = 0", "ИСТИНА", "ЕСЛИ")]
    inline = events_of("a := 2\nx := ЕСЛИ a > 1 ТО 'много' ИНАЧЕ 'мало' КОНЕЦ_ЕСЛИ\n")
    assert [(e["role"], e["text"]) for e in inline if e["kind"] == "expr"] == [("then", "'много'")]


def test_a_condition_is_shown_whole_with_its_closing_brackets():
    events = events_of("a := 1; s := '('\nЕСЛИ НЕ (a = 1) ИЛИ (a > 0 И s = '(') ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n")
    assert [e["text"] for e in events if e["kind"] in ("stmt", "cond")][-3:-1] == [
        "ЕСЛИ НЕ (a = 1) ИЛИ (a > 0 И s = '(') ТО", "НЕ (a = 1) ИЛИ (a > 0 И s = '(')"]


WINDOWED = """\
f (n) = ЕСЛИ n < 2 ТО n ИНАЧЕ f(n - 1) + f(n - 2) КОНЕЦ_ЕСЛИ
«записать (РЕЗ y) как (x)» = y := x
П (k) =
    ДЛЯ i := 1 ДО k ВЫПОЛНЯТЬ
        записать m[i] как f(i)
        ЕСЛИ m[i] > 2 ТО СООБЩИТЬ k, i, m[i] КОНЕЦ_ЕСЛИ
    ВЕРНУТЬСЯ
ПРОЧЕСТЬ n
С: П(n); n := n - 1
   ЕСЛИ n > 3 ТО С КОНЕЦ_ЕСЛИ
СООБЩИТЬ ЕСЛИ n = 3 ТО 'три' ИНАЧЕ n КОНЕЦ_ЕСЛИ
"""


@pytest.mark.parametrize("window", [
    {"kinds": {"call", "return"}}, {"kinds": {"output", "input"}}, {"names": {"m", "y"}},
    {"names": {"k"}, "kinds": {"assign", "stmt"}}, {"first": 50, "last": 120}, {"first": 300}, {"last": 5},
    {"depth": 0}, {"depth": 1}, {"depth": 2, "first": 40, "last": 400}, {"kinds": {"expr", "cond", "state"}, "depth": 1},
])
@pytest.mark.parametrize("max_events", [None, 60, 500])
def test_a_window_the_tracer_is_given_leaves_the_filtered_trace_as_it_was(window, max_events):
    """Events outside a filter's window are numbered and not made: what passes the filter, and
    where a bound stops the run, are the same as when every event is made and then filtered."""
    from pseudo.tools.views import Filter
    loaded = pseudo.load(Source(WINDOWED, "t.pseudo"))
    flt, runs = Filter(**window), []
    for given in (None, flt):
        kept, out = [], io.StringIO()
        tracer = Tracer(lambda ev, kept=kept: flt.accepts(ev) and kept.append(ev), max_events, given)
        try:
            pseudo.run(loaded, stdin=io.StringIO("6\n"), stdout=out, tracer=tracer)
            ending = None
        except TraceLimit:
            ending = "limit"
        runs.append((decoded(kept), out.getvalue(), ending, tracer.count))
    assert runs[0] == runs[1]
    assert runs[0][0] or max_events is not None  # unbounded, every window keeps some


BELOW = """\
«шаг (k)» =
    ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ x := i ВЕРНУТЬСЯ
    ЕСЛИ k = 2 ТО СООБЩИТЬ 'два' КОНЕЦ_ЕСЛИ
    ЕСЛИ k = 3 ТО ПРОЧЕСТЬ z КОНЕЦ_ЕСЛИ
    ЕСЛИ k = 4 ТО {end} КОНЕЦ_ЕСЛИ
ДЛЯ k := 1 ДО 5 ВЫПОЛНЯТЬ шаг(k) ВЕРНУТЬСЯ
"""


@pytest.mark.parametrize("end", ["КОНЕЦ_РАБОТЫ", "x := 1 / (k - 4)", "СООБЩИТЬ 'четыре'"])
@pytest.mark.parametrize("depth", [0, 1])
def test_a_bound_met_below_the_window_stops_the_run_where_it_stops_a_run_that_makes_every_event(end, depth):
    """Below a window's depth a call only counts its events, and looks at the count at its steps
    and calls: a bound met there stops the run as it stops a run that makes them all — before
    an output, before an input, before an error or the end of the run that come later."""
    from pseudo.errors import PseudoError
    from pseudo.tools.views import Filter
    loaded = pseudo.load(Source(BELOW.format(end=end), "t.pseudo"))
    flt = Filter(depth=depth)
    for max_events in range(1, 80):
        runs = []
        for given in (None, flt):
            kept, out, stdin = [], io.StringIO(), io.StringIO("7\n")
            tracer = Tracer(lambda ev, kept=kept: flt.accepts(ev) and kept.append(ev), max_events, given)
            try:
                pseudo.run(loaded, stdin=stdin, stdout=out, tracer=tracer)
                ending = None
            except TraceLimit:
                ending = "limit"
            except PseudoError as e:
                ending = str(e)
            runs.append((decoded(kept), out.getvalue(), ending, tracer.count, stdin.tell()))
        assert runs[0] == runs[1], max_events
