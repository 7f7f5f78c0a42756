"""The views of a trace: JSON lines exactly as the schema's dicts, the desk-check table with
depth, call and a column per frame, the margin with the arguments of calls, and the page's data."""
from __future__ import annotations

import io
import itertools
import json

import pytest
from conftest import PROGRAMS, ROOT, cli

import pseudo
from pseudo.frontend.source import Source
from pseudo.tools import views
from pseudo.tools.html import ASSIGN, CALL, STMT, TraceData
from pseudo.tools.trace import Decoder, TraceLimit, Tracer, decoded
from pseudo.tools.views import JsonlView, printed

HANOI = ROOT / "tests" / "programs" / "hanoi.pseudo"
BUBBLE = ROOT / "tests" / "programs" / "bubble_automaton.pseudo"


def record(path, stdin: str = "", max_events: int | None = None):
    loaded = pseudo.load(Source.from_file(path))
    events: list = []
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=io.StringIO(), tracer=Tracer(events.append, max_events))
    except TraceLimit:
        pass
    return loaded, events


@pytest.mark.parametrize("path,stdin", [
    (PROGRAMS / "queens_automaton_2.pseudo", ""),
    (HANOI, ""),
    (BUBBLE, ""),
    (PROGRAMS / "nim.pseudo", "3 4 5 6 1\n" + "1 1\n2 1\n3 1\n4 1\n" * 12),
    (ROOT / "tests" / "golden" / "procedures" / "ref_params.pseudo", ""),
    (ROOT / "tests" / "golden" / "expressions" / "arithmetic.pseudo", ""),
], ids=lambda x: getattr(x, "stem", None))
def test_jsonl_is_exactly_the_dict_of_each_event(path, stdin):
    """The JSON lines view formats compact events itself, with caches; what it writes is what
    `json.dumps` writes for the event's dict."""
    _, events = record(path, stdin)
    out = io.StringIO()
    view, decode = JsonlView(out), Decoder()
    for ev in events:
        view(ev)
    view.finish()  # lines go out in batches: the last ones on finish()
    expected = "".join(json.dumps(printed(decode(ev)), ensure_ascii=False) + "\n" for ev in events)
    assert out.getvalue() == expected


def test_jsonl_to_a_file_is_written_as_bytes_and_reads_the_same(tmp_path):
    """To a file the lines go out as UTF-8 bytes, straight to its binary buffer, handed over
    by the tracer a batch at a time; what the file holds is the text the decoded lines give,
    after what the text layer held before."""
    loaded = pseudo.load(Source.from_file(PROGRAMS / "queens_automaton_2.pseudo"))
    path = tmp_path / "t.jsonl"
    with open(path, "w", encoding="utf-8") as stream:
        stream.write("начало\n")  # held by the text layer: it must come first
        view = JsonlView(stream)
        assert view.binary is stream.buffer and view.batch == views.BATCH
        tracer = Tracer(view, 3 * views.BATCH + 7)
        with pytest.raises(TraceLimit):
            pseudo.run(loaded, stdout=io.StringIO(), tracer=tracer)
        assert len(view.pending) <= 7  # three batches written while the program ran
        view.finish()
    _, events = record(PROGRAMS / "queens_automaton_2.pseudo", max_events=3 * views.BATCH + 7)
    decode = Decoder()
    expected = "".join(json.dumps(printed(decode(ev)), ensure_ascii=False) + "\n" for ev in events)
    assert path.read_text(encoding="utf-8") == "начало\n" + expected


def test_a_lone_surrogate_of_undecodable_input_is_written_as_a_question_mark():
    """Input read with surrogateescape can hold a lone surrogate; the JSON line of its value
    says «?» (as the terminal does) rather than failing to encode."""
    out = io.StringIO()
    view = JsonlView(out)
    view((1, "input", None, 0, "a\udcff"))
    view.finish()
    assert json.loads(out.getvalue())["value"] == "'a?'"  # a string, shown in quotes


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty, self.flushed = tty, 0

    def isatty(self) -> bool:
        return self.tty

    def flush(self) -> None:
        self.flushed += 1
        super().flush()


def test_jsonl_goes_out_in_batches_except_to_a_terminal():
    """To a file or a pipe the lines go out a batch at a time, and all of them on finish() or
    flush() (which the run calls before the program waits for input); a terminal sees each
    line as its event happens."""
    _, events = record(PROGRAMS / "queens_automaton_2.pseudo", max_events=3 * views.BATCH)
    assert len(events) == 3 * views.BATCH
    piped, terminal = _Stream(tty=False), _Stream(tty=True)
    to_pipe, to_terminal = JsonlView(piped), JsonlView(terminal)
    for ev in events[:views.BATCH - 1]:
        to_pipe(ev)
        to_terminal(ev)
    assert piped.getvalue() == ""
    assert terminal.getvalue().count("\n") == views.BATCH - 1
    to_pipe(events[views.BATCH - 1])
    assert piped.getvalue().count("\n") == views.BATCH
    to_pipe(events[views.BATCH])
    to_pipe.flush()
    assert piped.getvalue().count("\n") == views.BATCH + 1 and piped.flushed == 1
    for ev in events[views.BATCH + 1:]:
        to_pipe(ev)
    to_pipe.finish()
    assert piped.getvalue().count("\n") == len(events)


def test_a_ref_parameter_changes_the_frame_it_belongs_to():
    text = ("внутрь (РЕЗ x) = x := x + 1\n"
            "снаружи (n) =\n    ДЛЯ i := 1 ДО 1 ВЫПОЛНЯТЬ внутрь(n) ВЕРНУТЬСЯ\n    СООБЩИТЬ n\n"
            "g := 5; внутрь(g); снаружи(1)\n")
    loaded = pseudo.load(Source(text, "t.pseudo"))
    events: list = []
    pseudo.run(loaded, stdout=io.StringIO(), tracer=Tracer(events.append))
    assigns = [(e["name"], e["depth"], e["local"], e["frame"]) for e in decoded(events) if e["kind"] == "assign"]
    assert assigns == [("g", 0, False, None), ("g", 1, False, None),  # the global through РЕЗ
                       ("i", 1, True, 1), ("n", 2, True, 1)]  # снаружи's own n, changed inside внутрь


def table_of(path) -> list[str]:
    result = cli("trace", "-q", "--format", "table", str(path))
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.split("│")]


def test_table_has_depth_call_and_a_column_per_frame():
    lines = table_of(HANOI)
    head = cells(lines[0])
    assert head[:4] == ["шаг", "стр.", "глуб.", "вызов"]
    # the global n and the parameter n of each call depth are different columns
    assert {"n", "n₁", "n₂", "n₃", "n₄", "откуда₁", "куда₂", "ходов", "башня[…]", "высота[…]"} <= set(head)
    rows = [dict(zip(head, cells(line))) for line in lines[2:] if "│" in line]
    first_call = next(r for r in rows if r.get("n₁"))  # a row of the call's own, where its parameters are set
    assert first_call["стр."] == "25" and first_call["глуб."] == "1" and first_call["n₁"] == "3"
    assert first_call["вызов"] == "ХАНОЙ(3, 1, 3, 2)"
    assert (first_call["откуда₁"], first_call["куда₁"], first_call["через₁"]) == ("1", "3", "2")
    inner = next(r for r in rows if r.get("n₂"))
    assert inner["глуб."] == "2" and inner["вызов"] == "ХАНОЙ(2, 1, 2, 3)" and inner["n₂"] == "2"
    phrase = next(r for r in rows if r["вызов"].startswith("«переложить"))
    assert phrase["вызов"] == "«переложить диск 1 со стержня 1 на стержень 3»" and phrase["глуб."] == "4"
    assert rows[-1]["вывод"] == "Всего ходов: 7⏎"
    assert any(line.startswith("n₁ — переменная n вызова на глубине 1") for line in lines)


FACTORIAL = """ФАКТ (n) =
    ЕСЛИ n = 0 ТО
        РЕЗУЛЬТАТ := 1
    ИНАЧЕ
        РЕЗУЛЬТАТ := n * ФАКТ(n - 1)
    КОНЕЦ_ЕСЛИ
СООБЩИТЬ ФАКТ(3)
"""


def test_each_row_s_depth_is_that_of_the_call_its_values_belong_to(tmp_path):
    """A call's parameter is set in a row of that call, one deeper than the statement calling:
    n₁ with ФАКТ(3) at depth 1, …, n₄ with ФАКТ(0) at depth 4; the results on the way back,
    each in its own call; the output in the main program."""
    path = tmp_path / "факт.pseudo"
    path.write_text(FACTORIAL, encoding="utf-8")
    rows = rows_of(table_of(path))
    shown = [(r["шаг"], r["стр."], r["глуб."], r["вызов"], *[(k, v) for k, v in r.items() if v and k in r and
                                                              k not in ("шаг", "стр.", "глуб.", "вызов")])
             for r in rows]
    assert shown == [
        ("2", "7", "1", "ФАКТ(3)", ("n₁", "3")),
        ("6", "5", "2", "ФАКТ(2)", ("n₂", "2")),
        ("10", "5", "3", "ФАКТ(1)", ("n₃", "1")),
        ("14", "5", "4", "ФАКТ(0)", ("n₄", "0")),
        ("17", "3", "4", "ФАКТ(0)", ("РЕЗУЛЬТАТ₄", "1")),
        ("19", "5", "3", "ФАКТ(1)", ("РЕЗУЛЬТАТ₃", "1")),
        ("21", "5", "2", "ФАКТ(2)", ("РЕЗУЛЬТАТ₂", "2")),
        ("23", "5", "1", "ФАКТ(3)", ("РЕЗУЛЬТАТ₁", "6")),
        ("25", "7", "0", "", ("вывод", "6⏎"))]
    for r in rows:  # every value in a column of a depth stands in a row of that depth
        assert all(k[-1] in "₁₂₃₄" and int(k[-1].translate(str.maketrans("₁₂₃₄", "1234"))) == int(r["глуб."])
                   for k, v in r.items() if v and k not in ("шаг", "стр.", "глуб.", "вызов", "вывод"))


def test_table_of_queens_keeps_each_calls_i_apart():
    head = cells(table_of_first(PROGRAMS / "queens_recursive.pseudo", 3000)[0])
    assert {"k₁", "i₁", "k₂", "i₂", "c[…]"} <= set(head) and "i" not in head


EUCLID = "НОД (a, b) = ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ\nx := 15; y := 6\nСООБЩИТЬ НОД(x, y)\n"


def rows_of(lines: list[str]) -> list[dict]:
    head = cells(lines[0])
    return [dict(zip(head, cells(line))) for line in lines[2:] if "│" in line]


def test_a_table_narrowed_to_names_has_a_row_where_one_of_them_changed(tmp_path):
    path = tmp_path / "нод.pseudo"
    path.write_text(EUCLID, encoding="utf-8")
    lines = cli("trace", "-q", "--format", "table", "--vars", "x,y", str(path)).stdout.splitlines()
    assert cells(lines[0]) == ["шаг", "стр.", "глуб.", "вызов", "x", "y"]  # no column of another name
    assert [list(r.values()) for r in rows_of(lines)] == [["1", "2", "0", "", "15", ""], ["3", "2", "0", "", "", "6"]]
    lines = cli("trace", "-q", "--format", "table", "--vars", "a, b", str(path)).stdout.splitlines()
    assert cells(lines[0])[4:] == ["a", "b"]  # one column a name: the row's depth and call say whose
    assert [(r["глуб."], r["вызов"], r["a"], r["b"]) for r in rows_of(lines)] == [
        ("1", "НОД(15, 6)", "15", "6"), ("2", "НОД(6, 3)", "6", "3"), ("3", "НОД(3, 0)", "3", "0")]
    hanoi = rows_of(cli("trace", "-q", "--format", "table", "--vars", "ходов", "--depth", "2", str(HANOI)).stdout
                    .splitlines())
    assert [(r["глуб."], r["вызов"], r["ходов"]) for r in hanoi] == [  # the moves at depth 4 are not shown
        ("0", "", "0"), ("2", "«переложить диск 3 со стержня 1 на стержень 3»", "4")]


def test_a_table_window_keeps_the_call_of_a_call_begun_before_it():
    lines = cli("trace", "-q", "--format", "table", "--from", "52", "--to", "66", str(HANOI)).stdout.splitlines()
    rows = rows_of(lines)
    assert rows and all(52 <= int(r["шаг"]) <= 66 for r in rows)
    assert rows[0]["вызов"] == "«переложить диск 1 со стержня 1 на стержень 3»" and rows[0]["глуб."] == "4"
    assert rows[-1]["вызов"] == "ХАНОЙ(0, 2, 3, 1)" and rows[-1]["глуб."] == "4" and rows[-1]["n"] == "0"


BOOK = sorted(PROGRAMS.glob("*.pseudo")) + [HANOI]
INPUT = {"nim": "3 4 5 6 1\n" + "1 1\n2 1\n3 1\n4 1\n" * 12,  # a game ends when its moves do: recorded so far
         "fox_capture": (PROGRAMS / "fox_capture.txt").read_text(encoding="utf-8"), "knight_tour": "5 1 1 0\n",
         "northcott": "2 6\n1 4\n2 6\n1\n1 2\n", "peg_solitaire": "0\n", "pentomino": "3 20 0\n",
         "signed_sum_iterative": "3\n1 2 3\n2\n", "signed_sum_recursive": "3\n1 2 3\n2\n", "sim": "1\n1 2\n"}


@pytest.mark.parametrize("path", BOOK, ids=lambda p: p.stem)
def test_a_narrowed_table_of_a_book_program_fits_100_columns(path):
    """Narrowed to any one of its names, or any two of the first six: at most 100 columns
    (a long phrase call is shortened: «искать … строке 1 после 0 … величине 0»)."""
    loaded, events = pseudo.load(Source.from_file(path)), []
    try:
        pseudo.run(loaded, stdin=io.StringIO(INPUT.get(path.stem, "")), stdout=io.StringIO(),
                   tracer=Tracer(events.append, 30_000))
    except (TraceLimit, pseudo.PseudoError):
        pass
    assert len(events) > 50
    shown = [printed(e) for e in decoded(events)]
    names = list(dict.fromkeys(n for e in shown for n in ([e["name"]] if e["kind"] == "assign" else
                                                           e["params"] if e["kind"] == "call" else [])))
    choices = [{n} for n in names] + [set(pair) for pair in itertools.combinations(names[:6], 2)]
    for chosen in choices:
        out = io.StringIO()
        table = views.TableView(out, views.Filter(names=chosen))
        for e in shown:
            table(e)
        table.finish()
        width = max(len(line) for line in out.getvalue().splitlines())
        assert width <= 100, (chosen, out.getvalue()[:2000])


def table_of_first(path, events: int) -> list[str]:
    result = cli("trace", "-q", "--format", "table", "--max-events", str(events), str(path))
    return result.stdout.splitlines()


def test_margin_shows_the_arguments_of_calls_on_the_header_line():
    result = cli("trace", "-q", "--margin", str(HANOI))
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("   7  ХАНОЙ (n, откуда, куда, через) ="))
    assert "│ n=1, откуда=1, куда=3, через=2  n=0, откуда=1, куда=2, через=3  n=0, откуда=2, куда=3, через=1" in header
    phrase = next(line for line in lines if line.startswith("  14  «переложить диск (d)"))
    assert phrase.endswith("│ d=1, x=2, y=1  d=2, x=2, y=3  d=1, x=1, y=3")
    assert lines[-2:] == ["Диск 1 со стержня 1 на стержень 3", "Всего ходов: 7"]  # the output follows the text
    queens = cli("trace", "-q", "--margin", "--max-events", "5000", "programs/queens_recursive.pseudo").stdout
    assert any(line.startswith("  11  HR (k) =") and "│ k=" in line for line in queens.splitlines())


def test_the_page_data_keeps_each_string_once():
    loaded, events = record(PROGRAMS / "queens_recursive.pseudo", max_events=20_000)
    data = TraceData(loaded.sources, loaded.main_file, "q")
    for ev in events:
        data(ev)
    out = io.StringIO()
    data.write(out)
    obj = json.loads(out.getvalue())
    assert len(obj["strings"]) == len(set(obj["strings"])) < 200
    codes, kinds = obj["events"], []
    arity = [3, 4, 7, 4, 4, 7, 4, 4, 5]
    i = 0
    while i < len(codes):
        kinds.append(codes[i])
        i += arity[codes[i]]
    assert i == len(codes) and len(kinds) == len(events)
    assert kinds.count(STMT) == sum(ev[1] == "stmt" for ev in events)
    assert kinds.count(CALL) == sum(ev[1] == "call" for ev in events)
    assert kinds.count(ASSIGN) == sum(ev[1] == "assign" for ev in events)
    first = obj["places"][codes[1]]  # инициализировать игру, line 47
    assert first[1:4] == [47, 1, len("инициализировать игру") + 1]
    assert obj["strings"][first[4]] == "инициализировать игру"
    assert obj["tokens"][0][46] == [obj["kinds"].index("name"), "инициализировать", obj["kinds"].index("whitespace"),
                                    " ", obj["kinds"].index("name"), "игру"]


def test_a_recursion_that_does_not_end_is_traced_in_lines_of_bounded_width(tmp_path):
    """The text trace indents by call depth only so far: a runaway recursion stops some 100 000
    calls deep, and two spaces a level made its trace's size the square of its events."""
    program = tmp_path / "ever.pseudo"
    program.write_text("ИСКАТЬ (i, t) =\n    ИСКАТЬ(i, t - 1)\nИСКАТЬ(2, 0)\n", encoding="utf-8")
    done = cli("trace", "-q", "--max-depth", "3000", str(program))
    assert done.returncode == 70 and "рекурсия не кончается" in done.stderr, done.stderr[-500:]
    lines = done.stdout.splitlines()
    assert len(lines) > 6000 and max(map(len, lines)) < 120, max(lines, key=len)
    assert lines[-2:] == ["   6000    2 │ " + "  " * views.INDENT_LEVELS + "[глубина 2999] → ИСКАТЬ(2, -2999)",
                          "   6001    2 │ " + "  " * views.INDENT_LEVELS + "[глубина 3000] ИСКАТЬ(i, t - 1)"]
    assert lines[40] == "     41    2 │ " + "  " * 20 + "ИСКАТЬ(i, t - 1)", lines[40]


def test_a_table_of_recursion_without_end_stops_at_its_column_limit(tmp_path):
    """Each depth has columns of its own: a recursion that never ends would make rows times
    columns beyond memory (20,000 events were 1 GB of table, 200,000 never ended). The table
    ends at the row that needs the 61st column, and says how to narrow it."""
    path = tmp_path / "сумма.pseudo"
    path.write_text("СУММА(k) = СУММА(k + 1)\nСООБЩИТЬ СУММА(1)\n", encoding="utf-8")
    lines = table_of_first(path, 3000)
    assert len(cells(lines[0])) == 4 + 60 + 1  # шаг стр. глуб. вызов, k₁ … k₆₀, вывод
    assert any(line.startswith("таблица оборвана на шаге ") and "--depth N" in line and "--vars" in line
               for line in lines)
    assert sum("│" in line for line in lines) < 200
