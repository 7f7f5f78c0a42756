"""`pseudo graph --flowchart`: the shapes of ГОСТ 19.701 for each construct, edges ДА and НЕТ,
loops, КОНЧЕНО and transfers, text from the program escaped, pictures drawn by Graphviz."""
from __future__ import annotations

import html
import re
import shutil

import pytest
from conftest import PROGRAMS, cli

NODE = re.compile(r'^  (n\d+) \[(.*)\];$')
EDGE = re.compile(r'^  (n\d+) -> (n\d+)(?: \[(.*)\])?;$')


def chart(*args: str) -> tuple[dict, list]:
    """The nodes (id → (shape, text)) and edges ((from text, to text, label, attributes)) of a flowchart."""
    result = cli("graph", "-q", *args)
    assert result.returncode == 0, result.stderr
    nodes, edges = {}, []
    for line in result.stdout.splitlines():
        if m := NODE.match(line):
            attrs = m.group(2)
            shape = re.search(r"shape=(\w+)", attrs).group(1)
            if "<TABLE" in attrs:  # the predefined process: a table of three cells
                shape, text = "predefined", html.unescape(re.search(r'<TD BORDER="0">(.*?)</TD>', attrs).group(1))
            else:
                text = re.search(r'label="((?:[^"\\]|\\.)*)"', attrs).group(1).replace("\\n", " ")
            if "style=rounded" in attrs:
                shape = "terminator"
            nodes[m.group(1)] = (shape, text)
        elif m := EDGE.match(line):
            label = re.search(r'label="([^"]*)"', m.group(3) or "")
            edges.append((m.group(1), m.group(2), label.group(1) if label else None, m.group(3) or ""))
    named = [(nodes[a][1], nodes[b][1], label, attrs) for a, b, label, attrs in edges]
    return nodes, named


def shapes(nodes: dict) -> dict:
    return {text: shape for shape, text in nodes.values()}


def test_a_recursive_procedure_with_a_loop_a_decision_and_calls():
    nodes, edges = chart("--proc", "HR", "programs/queens_recursive.pseudo")
    assert shapes(nodes) == {"HR (k)": "terminator", "возврат": "terminator", "ДЛЯ i := 1 ДО 8": "hexagon",
                             "место k, i свободно": "diamond", "занять k, i": "predefined", "k = 8": "diamond",
                             "выписать решение": "predefined", "HR(к + 1)": "predefined",
                             "освободить k, i": "predefined"}
    simple = {(a, b, label) for a, b, label, _ in edges}
    assert {("HR (k)", "ДЛЯ i := 1 ДО 8", None), ("ДЛЯ i := 1 ДО 8", "место k, i свободно", None),
            ("место k, i свободно", "занять k, i", "ДА"), ("место k, i свободно", "ДЛЯ i := 1 ДО 8", "НЕТ"),
            ("k = 8", "выписать решение", "ДА"), ("k = 8", "HR(к + 1)", "НЕТ"),
            ("освободить k, i", "ДЛЯ i := 1 ДО 8", None),  # the loop goes round
            ("ДЛЯ i := 1 ДО 8", "возврат", "конец цикла")} <= simple
    assert all("headport=w" in attrs for a, b, _, attrs in edges if b == "ДЛЯ i := 1 ДО 8" and a != "HR (k)")


def test_a_function_of_one_expression_is_a_decision_and_its_values(tmp_path):
    path = tmp_path / "нод.pseudo"
    path.write_text("НОД (a, b) = ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ\nСООБЩИТЬ НОД(15, 6)\n",
                    encoding="utf-8")
    nodes, edges = chart("--proc", "НОД", str(path))
    assert shapes(nodes) == {"НОД (a, b)": "terminator", "возврат": "terminator", "b = 0": "diamond",
                             "РЕЗУЛЬТАТ := a": "box", "РЕЗУЛЬТАТ := НОД(b, a ОСТ b)": "box"}
    assert {(a, b, label) for a, b, label, _ in edges} == {
        ("НОД (a, b)", "b = 0", None), ("b = 0", "РЕЗУЛЬТАТ := a", "ДА"),
        ("b = 0", "РЕЗУЛЬТАТ := НОД(b, a ОСТ b)", "НЕТ"),
        ("РЕЗУЛЬТАТ := a", "возврат", None), ("РЕЗУЛЬТАТ := НОД(b, a ОСТ b)", "возврат", None)}
    main, _ = chart("--flowchart", str(path))
    assert shapes(main) == {"начало": "terminator", "конец": "terminator", "СООБЩИТЬ НОД(15, 6)": "parallelogram"}


EVERYTHING = """СООБЩИТЬ 'Сколько?',
ПРОЧЕСТЬ n
s := 0
ДЛЯ i := n ШАГ -2 ДО 1 ВЫПОЛНЯТЬ
  ЕСЛИ i ОСТ 3 = 0 ТО s := s + i ИНАЧЕ s := s - 1 КОНЕЦ_ЕСЛИ
ВЕРНУТЬСЯ
ПОКА s > 10 ВЫПОЛНЯТЬ s := s ДЕЛ 2 ВЕРНУТЬСЯ
ВЫПОЛНЯТЬ
  s := s + 1
  ЕСЛИ s > 20 ТО КОНЧЕНО КОНЕЦ_ЕСЛИ
ВЕРНУТЬСЯ
ЕСЛИ s = 21 ТО КОНЕЦ_РАБОТЫ КОНЕЦ_ЕСЛИ
СООБЩИТЬ s
"""


def test_input_output_loops_of_every_kind_exit_and_stop(tmp_path):
    path = tmp_path / "всё.pseudo"
    path.write_text(EVERYTHING, encoding="utf-8")
    nodes, edges = chart("--flowchart", str(path))
    kinds = shapes(nodes)
    assert kinds["СООБЩИТЬ 'Сколько?',"] == kinds["ПРОЧЕСТЬ n"] == kinds["СООБЩИТЬ s"] == "parallelogram"
    assert kinds["ДЛЯ i := n ШАГ -2 ДО 1"] == "hexagon" and kinds["s > 10"] == kinds["i ОСТ 3 = 0"] == "diamond"
    simple = {(a, b, label) for a, b, label, _ in edges}
    assert {("i ОСТ 3 = 0", "s := s + i", "ДА"), ("i ОСТ 3 = 0", "s := s - 1", "НЕТ"),
            ("s := s + i", "ДЛЯ i := n ШАГ -2 ДО 1", None), ("s := s - 1", "ДЛЯ i := n ШАГ -2 ДО 1", None),
            ("ДЛЯ i := n ШАГ -2 ДО 1", "s > 10", "конец цикла"),
            ("s > 10", "s := s ДЕЛ 2", "ДА"), ("s := s ДЕЛ 2", "s > 10", None),  # ПОКА: back to its test
            ("s > 20", "s = 21", "ДА"),  # КОНЧЕНО: out of the endless loop
            ("s = 21", "конец", "ДА"), ("s = 21", "СООБЩИТЬ s", "НЕТ"), ("СООБЩИТЬ s", "конец", None)} <= simple
    loop = next(key for key, (shape, _) in nodes.items() if shape == "circle")  # ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ
    assert ("s > 20", "", "НЕТ") in simple and ("", "s := s + 1", None) in simple and nodes[loop][1] == ""


def test_labels_are_connectors_and_transfers_lead_to_them():
    nodes, edges = chart("--flowchart", "programs/queens_automaton_2.pseudo")
    assert {text for shape, text in nodes.values() if shape in ("circle", "ellipse")} == \
        {"ПРОГРАММА", "С", "И", "СОК", "СБ", "С8"}
    simple = {(a, b, label) for a, b, label, _ in edges}
    assert {("k = 9", "С8", "ДА"), ("таких полей нет", "СБ", "ДА"), ("таких полей нет", "СОК", "НЕТ"),
            ("k = 0", "конец", "ДА"), ("k := k + 1", "С", None)} <= simple


HOSTILE = """«печатать (x)» = СООБЩИТЬ x
печатать '<b>&"\\n'
СООБЩИТЬ '"}; a -> b; {\\'
"""


@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz dot is not installed")
def test_text_from_the_program_is_escaped(tmp_path):
    """Quotes, backslashes, braces, arrows, < > &: the picture shows them as written."""
    path = tmp_path / "злой.pseudo"
    path.write_text(HOSTILE, encoding="utf-8")
    svg = cli("graph", "-q", "--flowchart", "--format", "svg", str(path))
    assert svg.returncode == 0, svg.stderr
    texts = {html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg.stdout)}
    assert {"печатать '<b>&\"\\n'", "СООБЩИТЬ '\"}; a -> b; {\\'"} <= texts
    assert svg.stdout.count("<g id=\"node") == 4 and svg.stdout.count("<g id=\"edge") == 3  # nothing injected


def test_a_name_that_is_no_definition_is_a_usage_error(tmp_path):
    path = tmp_path / "п.pseudo"
    path.write_text(HOSTILE, encoding="utf-8")
    missing = cli("graph", "--proc", "нечто", str(path))
    assert missing.returncode == 64 and "нет процедуры, функции или фразы «нечто»; есть: «печатать …»" in missing.stderr
    assert chart("--proc", "печатать", str(path))[0]  # a phrase by its first word


@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz dot is not installed")
def test_a_flowchart_is_drawn_as_png(tmp_path):
    out = tmp_path / "hr.png"
    assert cli("graph", "-q", "--proc", "HR", "--format", "png", "-o", str(out),
               str(PROGRAMS / "queens_recursive.pseudo")).returncode == 0
    assert out.read_bytes().startswith(b"\x89PNG")
