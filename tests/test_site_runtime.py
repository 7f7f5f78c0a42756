"""The playground's Python and its generated JavaScript, without a browser: what the worker
calls (pseudo/site/browser.py) with a page of the test's own, and the editor's token rules
(pseudo/site/editor.py) run by Node against the token table they are written from."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import LONG, PROGRAMS, ROOT

from pseudo import execute
from pseudo.runtime.messages import RUNTIME_HINTS, RUNTIME_MESSAGES
from pseudo.site import browser
from pseudo.site.editor import js_regex, tokens_module
from pseudo.tools.highlight import tokens


class Page:
    """The page's side of a run: what was shown, and the answers to the program's reads."""

    def __init__(self, answers=()):
        self.answers, self.shown, self.asked = list(answers), [], 0

    def write(self, stream, text):
        self.shown.append((stream, text))

    def read(self):
        self.asked += 1
        return self.answers.pop(0) if self.answers else ["later", ""]

    def text(self, stream="out"):
        return "".join(text for name, text in self.shown if name == stream)


ASKS = "СООБЩИТЬ 'Первое?',\nПРОЧЕСТЬ a\nСООБЩИТЬ 'Второе?',\nПРОЧЕСТЬ b\nСООБЩИТЬ 'сумма', a + b\n"


@pytest.fixture
def asks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.pseudo").write_text(ASKS, encoding="utf-8")
    return "p.pseudo"


def test_typed_lines_are_read_as_a_terminal_gives_them(asks):
    page = Page([["line", "2\n"], ["line", "3\n"]])
    result = browser.run(["run", asks], page)
    assert result["code"] == 0 and page.asked == 2
    assert page.text() == "Первое?Второе?сумма 5\n"  # the page echoes the typed lines, not pseudo


def test_the_input_box_is_read_as_a_file(asks):
    page = Page()
    result = browser.run(["run", asks], page, stdin="2\n3\n")
    assert result["code"] == 0 and page.asked == 0
    assert page.text() == "Первое?\nВторое?\nсумма 5\n"  # as `pseudo run < file` prints it


def test_without_a_line_the_run_ends_and_is_run_again_with_the_lines_typed(asks):
    first = Page()
    result = browser.run(["run", asks], first)
    assert result["input"] and result["code"] is None and first.text() == "Первое?"
    again = Page()
    result = browser.run(["run", asks], again, typed=["2\n"], skip=result["written"])
    assert result["input"] and again.text() == "Второе?", "what was shown is not shown again"
    last = Page()
    result = browser.run(["run", asks], last, typed=["2\n", "3\n"], skip=result["written"])
    assert result["code"] == 0 and last.text() == "сумма 5\n"


def test_an_empty_typed_line_is_the_end_of_input(asks):
    page = Page()
    result = browser.run(["run", asks], page, typed=["2\n", ""])
    assert result["code"] == 70 and "ввод кончился" in page.text("err")


@pytest.mark.parametrize("answer, stop_at_read", [(["stop", ""], False), (None, True)])
def test_stop_at_a_read_is_the_languages_interruption(asks, answer, stop_at_read):
    page = Page([answer] if answer else [])
    result = browser.run(["run", asks], page, stop_at_read=stop_at_read)
    assert result["code"] == 130
    assert page.text("err").startswith("p.pseudo:2:1: ошибка: выполнение прервано кнопкой «Стоп»")


def test_messages_speak_of_the_page_only_while_it_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = dict(RUNTIME_MESSAGES), dict(RUNTIME_HINTS)
    (tmp_path / "deep.pseudo").write_text("f (n) = f(n + 1)\nСООБЩИТЬ f(1)\n", encoding="utf-8")
    page = Page()
    assert browser.run(["run", "--max-depth", "50", "deep.pseudo"], page)["code"] == 70
    err = page.text("err")
    assert "превышена глубина рекурсии (50 вызовов): в песочнице это предел" in err
    assert "--max-depth" not in err and "рекурсия не кончается" in err
    assert (RUNTIME_MESSAGES, RUNTIME_HINTS) == before, "the command line's messages are its own again"


def test_a_run_that_goes_on_quietly_is_told_to_use_the_stop_button(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(execute, "NOTICE_AFTER", 0.2)
    (tmp_path / "p.pseudo").write_text("x := 1\nПОКА x > 0 ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n", encoding="utf-8")
    page = Page()
    assert browser.run(["run", "--time-limit", "1", "p.pseudo"], page)["code"] == 70
    err = page.text("err")
    assert "p.pseudo:2:1: замечание: программа уже 0.2 с ничего не читает и не печатает" in err
    assert "остановите её кнопкой «Стоп»" in err and "Ctrl-C" not in err and "--time-limit" not in err


@pytest.mark.parametrize("page, runtime", [(browser.PAGE_MESSAGES, RUNTIME_MESSAGES), (browser.PAGE_HINTS, RUNTIME_HINTS)])
def test_the_page_messages_are_the_runtimes_with_the_same_values(page, runtime):
    for key, text in page.items():
        assert key in runtime
        assert "--" not in text and "Ctrl" not in text
        placeholders = {p.split("}")[0] for p in runtime[key].split("{")[1:]}
        assert placeholders == {p.split("}")[0] for p in text.split("{")[1:]}
    left = [key for table in (RUNTIME_MESSAGES, RUNTIME_HINTS) for key, text in table.items()
            if ("--" in text or "Ctrl" in text) and key not in browser.PAGE_MESSAGES and key not in browser.PAGE_HINTS]
    assert left == [], "every runtime message that names an option has the page's words"


def test_output_is_sent_as_it_is_written_and_gathered_when_it_floods():
    page = Page()
    stream = browser.PageStream(page, "out")
    stream.write("a")
    assert page.shown == [("out", "a")], "a lone write is sent at once"
    for k in range(10_000):
        stream.write(f"{k}\n")
    stream.flush()
    assert page.text() == "a" + "".join(f"{k}\n" for k in range(10_000))
    assert len(page.shown) < 2_000, "a flood goes in pieces, not a message a write"


# ---- the editor's tokens ----

def test_the_javascript_rules_are_written_or_refused():
    assert js_regex(r"[^\W\d_]\w*") == r"[\p{L}\p{Nl}\p{No}][\p{L}\p{N}_]*"
    assert js_regex(r"^x") == r"(?<![^\n])x"
    assert js_regex(r"[^}]*\d+") == r"[^}]*\p{Nd}+"
    for python in (r"\bx", r"(x)", r"(?P<n>x)", r"\S+"):
        with pytest.raises(ValueError):
            js_regex(python)


def test_the_editors_tokens_are_those_of_the_token_table(tmp_path):
    """tokens.js (written from TOKEN_RULES) and highlight.js, run by Node, cut every program and
    every text Hypothesis makes up as pseudo.tools.highlight.tokens() does."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    if not shutil.which("node"):
        pytest.skip("no node to run the editor's tokenizer")
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (tmp_path / "tokens.js").write_text(tokens_module(), encoding="utf-8")
    shutil.copyfile(ROOT / "pseudo" / "site" / "static" / "highlight.js", tmp_path / "highlight.js")
    (tmp_path / "cut.js").write_text(
        'import { tokens } from "./highlight.js";\nimport fs from "fs";\n'
        'const texts = JSON.parse(fs.readFileSync(0, "utf8"));\n'
        'console.log(JSON.stringify(texts.map(t => tokens(t).map(([k, a, b]) => [k, t.slice(a, b)]))));\n',
        encoding="utf-8")

    def agree(texts):
        done = subprocess.run(["node", str(tmp_path / "cut.js")], input=json.dumps(texts), capture_output=True,
                              text=True, encoding="utf-8", check=True)
        assert json.loads(done.stdout) == [[list(t) for t in tokens(text)] for text in texts]
    agree([p.read_text(encoding="utf-8") for p in sorted(PROGRAMS.rglob("*.pseudo"))])
    made_up = []
    alphabet = st.sampled_from(list("{}'\"«»:=≠≤≥<>+-−–*/^()[],;_ \t\n\r\u00a0123٣ⅫЕСЛИТОКНЦ_РАБЫкдxyzАЯ"))
    words = st.sampled_from(["ЕСЛИ", "КОНЕЦ ЕСЛИ", "ПЕРЕЙТИ К", "ДЛИНА(", "С:", "x :=", "HR (k) =", "ИСТИНА", "ДОСКА"])

    # characters this Python's Unicode names (Node's may be newer: it knows letters this one does not)
    @settings(max_examples=1000 if LONG else 100, deadline=None)
    @given(st.lists(st.one_of(alphabet, words, st.characters(exclude_categories=("Cn", "Cs"))), max_size=40)
           .map("".join))
    def collect(text):
        made_up.append(text)
    collect()
    agree(made_up)
