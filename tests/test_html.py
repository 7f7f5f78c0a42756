"""The trace page in a real headless Chromium, as a teacher uses it in front of a class: at
1024 × 768 (and 1400 × 900) the current line, the board and the output are on the screen
without scrolling; arrays are rows and grids of cells; variables are grouped by frame; every
control moves where it says. Screenshots are written to tests/artifacts/ at each run:

    trace_queens_1024x768.png        the queens after the first solution: HR(8), board c, output
    trace_queens_projector.png       the same in the projector mode (large type)
    trace_hanoi_1024x768.png         Hanoi in the middle of the recursion: the 2-D array башня,
                                     two frames with a parameter n beside the global n, the call tree
    trace_automaton_1024x768.png     the sorting automaton: the array t, the states as chips
    trace_queens_1400x900.png        the queens on a larger screen
    trace_long_lines_projector.png   long lines wrapped under their text, in large type
    trace_queens_stack_1024x768.png  the calls of the recursion side by side, HR(1) … HR(6)
    trace_queens_390x844.png         a pupil's phone: one column under the controls
    trace_queens_1920x1080.png       a large projector: the type grown with the screen
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from conftest import ROOT, cli

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = ROOT / "tests" / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
QUEENS = "programs/queens_recursive.pseudo"
KIDS = 10  # calls shown at first under a node of the call tree
HANOI = "tests/programs/hanoi.pseudo"
BUBBLE = "tests/programs/bubble_automaton.pseudo"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium for the trace page tests (.ci/run installs it)")
    pytest.skip("chromium is not installed", allow_module_level=True)

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright

VISIBLE = """sel => {
  const e = document.querySelector(sel);
  if (!e) return "нет элемента";
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return "пустой";
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) return "за экраном";
  for (let p = e.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (/(auto|scroll|hidden)/.test(s.overflowY)) {
      const q = p.getBoundingClientRect();
      if (r.top < q.top - 0.5 || r.bottom > q.bottom + 0.5) return "скрыт прокруткой";
    }
  }
  return "виден";
}"""


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The pages, written once: program → path."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for program in (QUEENS, HANOI, BUBBLE):
        html = folder / f"{Path(program).stem}.html"
        result = cli("trace", "-q", "--html", "-o", str(html), program)
        assert result.returncode == 0, result.stderr
        out[program] = html
    return out


def open_page(browser, path: Path, width: int = 1024, height: int = 768):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(path.as_uri())
    return page


def out(page, name: str) -> str:
    return page.text_content(f'[data-out="{name}"]')


def act(page, name: str, times: int = 1) -> None:
    for _ in range(times):
        page.click(f'[data-act="{name}"]')


def position(page) -> int:
    return int(out(page, "pos").replace(" ", ""))


def current_line(page) -> int:
    return int(page.get_attribute(".code > div.cur", "data-line"))


def go_to(page, text: str) -> None:
    page.fill('[data-ctl="target"]', text)
    page.click('[data-ctl="goto"] button')


def value(page, frame: str, name: str) -> str:
    return page.text_content(f'[data-frame="{frame}"] tr[data-name="{name}"] td.value')


def visible(page, selector: str) -> str:
    return page.evaluate(VISIBLE, selector)


def no_page_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollHeight <= innerHeight && "
                         "document.documentElement.scrollWidth <= innerWidth")


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def test_queens_at_1024x768_shows_the_line_the_board_and_the_output(browser, pages):
    page = open_page(browser, pages[QUEENS])
    assert out(page, "pos") == "1" and current_line(page) == 47
    act(page, "output", 9)  # the first solution, printed number by number
    assert out(page, "output").startswith("1 5 8 6 3 7 2 4")
    for selector in (".code > div.cur mark", '.arr[data-name="c"]', "section.output", '[data-out="what"]',
                     '[data-act="play"]', '[data-ctl="slider"]'):
        assert visible(page, selector) == "виден", selector
    assert no_page_scroll(page)
    assert [c.text_content() for c in page.query_selector_all('.arr[data-name="c"] .cell i')] == \
        [str(k) for k in range(1, 9)]
    assert [c.text_content() for c in page.query_selector_all('.arr[data-name="c"] .cell b')] == \
        ["1", "5", "8", "6", "3", "7", "2", "4"]
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.code')).fontSize)")
    assert font >= 16
    assert not page.errors
    shoot(page, "trace_queens_1024x768.png")
    page.close()
    large = open_page(browser, pages[QUEENS], 1400, 900)
    act(large, "output", 9)
    assert visible(large, '.arr[data-name="c"]') == "виден" and no_page_scroll(large)
    shoot(large, "trace_queens_1400x900.png")
    large.close()


def test_projector_mode_has_large_type_and_keeps_the_essentials_on_screen(browser, pages):
    page = open_page(browser, pages[QUEENS])
    act(page, "output", 9)
    small = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.code')).fontSize)")
    act(page, "big")
    big = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.code')).fontSize)")
    assert big >= 22 and big > small
    for selector in (".code > div.cur", '.arr[data-name="c"]', "section.output", '[data-act="into"]'):
        assert visible(page, selector) == "виден", selector
    assert no_page_scroll(page)
    shoot(page, "trace_queens_projector.png")
    act(page, "big")
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('.code')).fontSize)") == small
    page.close()
    wide = open_page(browser, pages[QUEENS], 1920, 1080)  # a larger screen: the type grows with it
    act(wide, "output", 9)
    act(wide, "big")
    assert wide.evaluate("parseFloat(getComputedStyle(document.querySelector('.code')).fontSize)") >= 1080 * 0.025
    for selector in (".code > div.cur", '.arr[data-name="c"]', "section.output", '[data-act="into"]'):
        assert visible(wide, selector) == "виден", selector
    assert no_page_scroll(wide)
    wide.close()


def test_on_a_large_screen_the_type_takes_the_same_share_of_it(browser, pages):
    """At 1920 × 1080 the page's type is as large a share of the screen as 16 px are of 800."""
    page = open_page(browser, pages[QUEENS], 1920, 1080)
    act(page, "output", 9)
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.code')).fontSize)")
    assert font >= 0.95 * 16 / 800 * 1080, font
    for selector in (".code > div.cur mark", '.arr[data-name="c"]', "section.output", '[data-act="big"]'):
        assert visible(page, selector) == "виден", selector
    assert no_page_scroll(page)
    assert page.locator('.bar [data-act]').evaluate_all(
        "els => els.every(e => e.getBoundingClientRect().top === els[0].getBoundingClientRect().top)")
    shoot(page, "trace_queens_1920x1080.png")
    page.close()


def test_arrays_are_rows_and_grids_with_changed_cells_marked(browser, pages):
    page = open_page(browser, pages[QUEENS])
    act(page, "into", 2)  # кол[1] := ИСТИНА is next
    assert page.query_selector('.arr[data-name="кол"]') is None  # nothing assigned yet
    act(page, "into")
    cell = '.arr[data-name="кол"] .cell[data-key="1"]'
    assert page.text_content(f"{cell} b") == "И" and "chg" in page.get_attribute(cell, "class")
    act(page, "into", 2)
    assert "chg" not in page.get_attribute(cell, "class")  # marked only right after its change
    act(page, "out")  # out of the whole phrase: every cell it gave is marked, as the legend says
    assert "chg" in page.get_attribute('.arr[data-name="д2"] .cell[data-key="16"]', "class")
    assert "chg" in page.get_attribute('.arr[data-name="д1"] .cell[data-key="2"]', "class")
    assert page.text_content(".legend").endswith("зелёным — что изменилось за последний шаг или переход")
    page.close()
    hanoi = open_page(browser, pages[HANOI])
    go_to(hanoi, "ХАНОЙ")
    grid = '.arr[data-name="башня"] table.grid'
    assert len(hanoi.query_selector_all(f"{grid} td")) == 9
    assert [hanoi.text_content(f'{grid} td[data-key="1, {h}"]') for h in (1, 2, 3)] == ["3", "2", "1"]
    assert [c.text_content() for c in hanoi.query_selector_all('.arr[data-name="высота"] .cell b')] == ["3", "0", "0"]
    hanoi.close()


def test_variables_are_grouped_by_frame_and_a_chosen_frame_shows_its_own(browser, pages):
    page = open_page(browser, pages[HANOI])
    go_to(page, "ХАНОЙ")
    go_to(page, "ХАНОЙ")  # ХАНОЙ(2, 1, 2, 3), called from ХАНОЙ(3, 1, 3, 2)
    assert "текущий вызов ХАНОЙ(2, 1, 2, 3)" in page.text_content('[data-frame="call"] h3')
    assert value(page, "call", "n") == "2" and value(page, "call", "куда") == "2"
    assert value(page, "globals", "n") == "3" and value(page, "globals", "ходов") == "0"
    assert "param" in page.get_attribute('[data-frame="call"] tr[data-name="n"]', "class")
    page.click('[data-out="stack"] button:has-text("ХАНОЙ(3, 1, 3, 2)")')
    assert "вызов ХАНОЙ(3, 1, 3, 2)" in page.text_content('[data-frame="call"] h3')
    assert value(page, "call", "n") == "3" and value(page, "call", "куда") == "3"
    page.click('[data-out="stack"] button:has-text("основная программа")')
    assert page.query_selector('[data-frame="call"]') is None and value(page, "globals", "n") == "3"
    page.close()


def test_hanoi_and_automaton_screenshots(browser, pages):
    page = open_page(browser, pages[HANOI])
    act(page, "output", 4)  # four discs moved: the recursion is deep in its second half
    act(page, "into", 3)
    assert out(page, "output").count("Диск") == 4
    assert visible(page, '.arr[data-name="башня"]') == "виден" and visible(page, "li.now") == "виден"
    assert no_page_scroll(page)
    shoot(page, "trace_hanoi_1024x768.png")
    page.close()
    page = open_page(browser, pages[BUBBLE])
    go_to(page, "ИТОГ")
    assert out(page, "current-state") == "ИТОГ"
    assert page.text_content(".chip.cur") == "ИТОГ"
    assert [c.text_content() for c in page.query_selector_all(".chip")] == ["ПРОГРАММА", "ПРОХОД", "СРАВНЕНИЕ", "ИТОГ"]
    act(page, "into", 2)
    assert visible(page, '.arr[data-name="t"]') == "виден" and visible(page, '[data-out="state"]') == "виден"
    assert page.query_selector('[data-out="tree-panel"]').is_hidden()  # no calls: no call tree
    shoot(page, "trace_automaton_1024x768.png")
    act(page, "last")
    assert out(page, "output") == "1 2 3 4 5 6\n" and out(page, "what") == "конец программы"
    page.close()


def test_step_back_over_out_and_to_the_next_output(browser, pages):
    page = open_page(browser, pages[HANOI])
    act(page, "into")
    act(page, "back")
    assert position(page) == 1
    act(page, "back")
    assert "это первая инструкция" in out(page, "status")
    go_to(page, "25")  # ХАНОЙ(n, 1, 3, 2)
    assert current_line(page) == 25
    act(page, "over")  # the whole recursion at once
    assert current_line(page) == 26 and out(page, "output").count("Диск") == 7
    assert value(page, "globals", "ходов") == "7"
    assert "chg" in page.get_attribute('[data-frame="globals"] tr[data-name="ходов"]', "class")  # changed by the move
    act(page, "back")  # the last statement inside the recursion
    assert "глубина 4" in out(page, "what")
    act(page, "first")
    go_to(page, "ХАНОЙ")
    go_to(page, "ХАНОЙ")
    assert "глубина 2" in out(page, "what")
    act(page, "out")  # back in ХАНОЙ(3, …) after the call
    assert "глубина 1" in out(page, "what") and current_line(page) == 10
    before = out(page, "output")
    act(page, "output")
    assert out(page, "output").startswith(before) and len(out(page, "output")) > len(before)
    assert page.query_selector('[data-out="output"] .new') is not None
    act(page, "last")
    assert out(page, "what") == "конец программы" and out(page, "output").endswith("Всего ходов: 7\n")
    act(page, "output")
    assert "больше ничего не выводит" in out(page, "status")
    act(page, "first")
    assert position(page) == 1
    act(page, "out")
    assert "выходить некуда" in out(page, "status")
    page.close()


def test_go_to_a_line_a_state_or_a_procedure(browser, pages):
    page = open_page(browser, pages[QUEENS])
    go_to(page, "16")
    assert current_line(page) == 16
    go_to(page, "99")
    assert out(page, "status") == "в файле programs/queens_recursive.pseudo нет строки 99: в нём 48 строк"
    go_to(page, "22")
    assert out(page, "status") == "строка 22 не выполняется ни разу"
    go_to(page, "HR")
    assert "HR(" in page.text_content('[data-frame="call"] h3')
    go_to(page, "занять")
    assert "«занять" in page.text_content('[data-frame="call"] h3')
    go_to(page, "нечто")
    assert out(page, "status") == "«нечто» — не номер строки, не состояние автомата и не процедура"
    page.fill('[data-ctl="target"]', "HR")
    page.press('[data-ctl="target"]', "Enter")  # Enter again: the next call
    here = position(page)
    page.keyboard.press("ArrowRight")  # in the field the arrows move its cursor
    assert position(page) == here
    page.keyboard.press("Escape")  # and Esc gives them back to the steps
    page.keyboard.press("ArrowRight")
    assert position(page) == here + 1
    page.click('.code .no[data-line="18"]')  # a line number is a link to that line
    assert current_line(page) == 18
    page.close()
    automaton = open_page(browser, pages[BUBBLE])
    go_to(automaton, "СРАВНЕНИЕ")
    assert out(automaton, "current-state") == "СРАВНЕНИЕ"
    automaton.close()


def test_play_pause_speed_slider_and_keys(browser, pages):
    page = open_page(browser, pages[QUEENS])
    page.fill('[data-ctl="speed"]', "10")
    page.dispatch_event('[data-ctl="speed"]', "input")
    assert out(page, "speed") == "400/с"
    act(page, "play")
    assert page.text_content('[data-act="play"]') == "❚❚ пауза"
    page.wait_for_function("pseudoTrace.position() > 30", timeout=5000)
    act(page, "play")
    assert page.text_content('[data-act="play"]') == "▶ пуск"
    stopped = position(page)
    page.wait_for_timeout(200)
    assert position(page) == stopped > 30
    page.keyboard.press(" ")
    page.wait_for_function(f"pseudoTrace.position() > {stopped + 5}", timeout=5000)
    page.keyboard.press("ArrowLeft")  # any move stops playing
    assert not page.evaluate("pseudoTrace.playing()")
    here = position(page)
    page.keyboard.press("ArrowRight")
    assert position(page) == here + 1
    page.keyboard.press("End")
    assert out(page, "what") == "конец программы"
    page.keyboard.press("Home")
    assert position(page) == 1
    total = int(out(page, "total").replace(" ", ""))
    page.fill('[data-ctl="slider"]', str(total // 2))
    page.dispatch_event('[data-ctl="slider"]', "input")
    assert position(page) == total // 2 + 1
    page.close()


def test_the_call_tree_folds_and_leads_to_a_call(browser, pages):
    page = open_page(browser, pages[QUEENS])
    go_to(page, "HR")
    go_to(page, "HR")
    go_to(page, "HR")  # HR(3)
    assert page.text_content("li.now > .node") == "HR(3)"
    assert [e.text_content() for e in page.query_selector_all("li.path > .node")] == \
        ["основная программа", "HR(1)", "HR(2)", "HR(3)"]
    path = 'li.path[data-inst]:has(> .node:text-is("HR(1)"))'
    page.click(f"{path} > .fold")
    assert page.query_selector(f"{path} > ul") is None and page.text_content(f"{path} > .fold") == "▸"
    page.click(f"{path} > .fold")
    assert page.query_selector(f"{path} > ul") is not None
    assert "«" not in page.text_content('[data-out="tree"]')  # phrases hidden …
    page.check('[data-ctl="phrases"]')
    assert "«инициализировать игру»" in page.text_content('[data-out="tree"]')  # … until asked for
    page.evaluate("pseudoTrace.go(30000)")  # HR(1) has tried several columns: more calls than are shown at first
    node = 'li.path:has(> .node:text-is("HR(1)")) > ul > li'
    assert len(page.query_selector_all(node)) == KIDS + 1
    assert "раньше" in page.text_content(f"{node} > .more")
    page.click(f"{node} > .more")
    assert len(page.query_selector_all(node)) > KIDS + 1
    page.click('.node:text-is("«инициализировать игру»")')  # a call in the tree is a link to it
    assert current_line(page) == 41 and "«инициализировать игру»" in out(page, "stack")
    page.close()


def test_a_runtime_error_is_shown_at_the_end(browser, tmp_path):
    program = tmp_path / "ошибка.pseudo"
    program.write_text("x := 1\nСООБЩИТЬ x / 0\n", encoding="utf-8")
    html = tmp_path / "ошибка.html"
    assert cli("trace", "-q", "--html", "-o", str(html), str(program)).returncode == 70
    page = open_page(browser, html)
    assert page.text_content('[data-act="last"]') == "▶| к ошибке"  # told from the first step
    act(page, "last")
    assert out(page, "what") == "ошибка выполнения в строке 2: деление на ноль"
    assert current_line(page) == 2
    assert page.text_content(".code > div.cur mark") == "x / 0"  # the failing part, as the caret marks it
    page.close()


def test_the_page_script_can_be_fed_by_another_host(browser):
    """The same script builds the page from a data object in any element (a playground)."""
    import io

    import pseudo
    from pseudo.frontend.source import Source
    from pseudo.tools.html import SCRIPT, STYLE, TraceData
    from pseudo.tools.trace import Tracer
    loaded = pseudo.load(Source.from_file(ROOT / HANOI))
    data = TraceData(loaded.sources, loaded.main_file, "ханой")
    pseudo.run(loaded, stdout=io.StringIO(), tracer=Tracer(data))
    text = io.StringIO()
    data.write(text)
    obj = json.loads(text.getvalue())
    del obj["tokens"], obj["kinds"]  # a host without the lexer: the source uncoloured
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.set_content(f"<style>{STYLE}</style><h1>Песочница</h1><div id='host'></div><script>{SCRIPT}</script>")
    page.evaluate("data => { window.view = PseudoTrace.show(document.getElementById('host'), data); }", obj)
    assert page.evaluate("view.stops()") == 96
    page.evaluate("view.goTo('ХАНОЙ')")
    assert page.text_content("#host .code > div.cur").endswith("ЕСЛИ n > 0 ТО")
    assert page.query_selector("#host .hl-keyword") is None
    page.close()


def test_a_trace_of_100000_events_stays_usable(browser, tmp_path):
    start = time.monotonic()
    html = tmp_path / "big.html"
    assert cli("trace", "-q", "--html", "--max-events", "100000", "-o", str(html),
               "programs/queens_automaton_2.pseudo").returncode == 0
    page = open_page(browser, html)
    total = int(out(page, "total").replace(" ", ""))
    assert total > 30_000
    page.fill('[data-ctl="slider"]', str(total // 2))
    page.dispatch_event('[data-ctl="slider"]', "input")
    assert position(page) == total // 2 + 1
    page.keyboard.press("ArrowRight")
    assert position(page) == total // 2 + 2
    page.keyboard.press("End")  # the end shows where the program was stopped
    events = cli("trace", "-q", "--format", "jsonl", "--max-events", "100000", "programs/queens_automaton_2.pseudo")
    last = json.loads(events.stdout.splitlines()[-2])
    assert out(page, "what") == f"трассировка остановлена после 100 000 событий, на строке {last['line']}"
    assert current_line(page) == last["line"] and visible(page, ".code > div.cur") == "виден"
    assert time.monotonic() - start < 60
    page.close()


@pytest.mark.skipif(not os.environ.get("PSEUDO_LONG"), reason="long profile: PSEUDO_LONG=1")
def test_a_page_of_a_million_events(browser, tmp_path):
    program = tmp_path / "events.pseudo"
    program.write_text("ДЛЯ i := 1 ДО 250000 ВЫПОЛНЯТЬ x := i ВЕРНУТЬСЯ\n", encoding="utf-8")
    html = tmp_path / "events.html"
    assert cli("trace", "-q", "--html", "--max-events", "1000000", "-o", str(html), str(program),
               timeout=300).returncode == 0
    start = time.monotonic()
    page = open_page(browser, html)
    assert time.monotonic() - start < 10
    page.keyboard.press("End")
    assert value(page, "globals", "x") == "250000"
    page.close()


EUCLID = "НОД (a, b) = ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ\nx := 15; y := 6\nСООБЩИТЬ НОД(x, y)\n"


def test_a_one_line_function_is_stepped_into_and_out_of(browser, tmp_path):
    """Euclid's НОД, one line: each call is entered (its body, then the branch it takes) and
    left (its value), and «перейти» to its line goes there."""
    program = tmp_path / "нод.pseudo"
    program.write_text(EUCLID, encoding="utf-8")
    html = tmp_path / "нод.html"
    assert cli("trace", "-q", "--html", "-o", str(html), str(program)).returncode == 0
    page = open_page(browser, html)
    marked = lambda: page.text_content(".code > div.cur mark")
    go_to(page, "1")
    assert current_line(page) == 1 and out(page, "status") == ""
    assert out(page, "what") == "строка 1 · глубина 1: ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ"
    assert marked() == "ЕСЛИ b = 0 ТО a ИНАЧЕ НОД(b, a ОСТ b) КОНЕЦ_ЕСЛИ"
    assert value(page, "call", "a") == "15" and value(page, "call", "b") == "6"
    act(page, "into")
    assert out(page, "what") == "строка 1 · глубина 1: ветвь ИНАЧЕ: НОД(b, a ОСТ b)" and marked() == "НОД(b, a ОСТ b)"
    act(page, "into")  # into НОД(6, 3)
    assert "глубина 2" in out(page, "what") and value(page, "call", "a") == "6"
    act(page, "into", 3)  # its branch, the body of НОД(3, 0), the then branch it takes
    assert out(page, "what") == "строка 1 · глубина 3: ветвь ТО: a" and marked() == "a"
    act(page, "out")  # one call at a time: the value of НОД(6, 3)
    assert out(page, "what") == "строка 1 · глубина 2: значение НОД(6, 3) = 3"
    act(page, "out")
    assert out(page, "what") == "строка 1 · глубина 1: значение НОД(15, 6) = 3"
    act(page, "over")
    assert out(page, "what") == "конец программы" and out(page, "output") == "3\n"
    assert not page.errors
    page.close()


LONG = """«очень длинная фраза с параметром (x) и ещё одним параметром (y), которая ничего не делает, кроме сложения» = x + y
итог := 0
ДЛЯ номер := 1 ДО 3 ВЫПОЛНЯТЬ итог := итог + (очень длинная фраза с параметром номер и ещё одним параметром номер * 2, которая ничего не делает, кроме сложения) + номер * номер ВЕРНУТЬСЯ
массив_с_длинным_именем[1] := 'строка'
СООБЩИТЬ массив_с_длинным_именем[1] + итог + 'ещё один кусок текста, чтобы строка была длинной'
"""
INSIDE = """([sel, box]) => {
  const r = document.querySelector(sel).getBoundingClientRect(), b = document.querySelector(box).getBoundingClientRect();
  return r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
}"""


def test_long_lines_and_a_long_error_wrap_on_the_screen(browser, tmp_path):
    program = tmp_path / "длинно.pseudo"
    program.write_text(LONG, encoding="utf-8")
    html = tmp_path / "длинно.html"
    assert cli("trace", "-q", "--html", "-o", str(html), str(program)).returncode == 70
    page = open_page(browser, html)
    no_sideways = "(() => { const b = document.querySelector('.src .body'); return b.scrollWidth <= b.clientWidth; })()"
    for big in (False, True):
        if big:
            act(page, "big")
        go_to(page, "3")
        act(page, "into")  # the statement at the end of the long line
        assert page.text_content(".code > div.cur mark").startswith("итог := итог + (очень")
        assert visible(page, ".code > div.cur mark") == "виден" and page.evaluate(no_sideways), big
        assert page.evaluate(INSIDE, [".code > div.cur mark", ".src .body"])
        assert no_page_scroll(page)
        act(page, "last")
        what = page.query_selector('[data-out="what"]')
        assert out(page, "what") == "ошибка выполнения в строке 5: операция «+» не применима к строке и целому числу"
        assert page.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight", what)
        assert visible(page, '[data-out="what"]') == "виден"
        act(page, "first")
    shoot(page, "trace_long_lines_projector.png")
    page.close()


def test_the_stack_shown_side_by_side(browser, pages):
    page = open_page(browser, pages[QUEENS])
    for _ in range(6):
        go_to(page, "HR")  # HR(6), six calls deep
    page.check('[data-ctl="cards"]')
    titles = [c.text_content() for c in page.query_selector_all(".card h3")]
    assert titles == ["глобальные", "HR(1)", "HR(2)", "HR(3)", "HR(4)", "HR(5)", "HR(6)"]
    assert page.get_attribute(".card:last-child", "class") == "card cur"
    assert page.evaluate(INSIDE, [".card.cur", '[data-out="cards"]'])  # scrolled to the current call
    assert page.text_content('.card[data-card]:nth-child(3) tr[data-name="k"] td.value') == "2"  # HR(2)'s own k
    act(page, "into")
    assert [c.text_content() for c in page.query_selector_all(".card h3")][-1] == "HR(6)"
    assert visible(page, '[data-out="cards"]') == "виден" and no_page_scroll(page)
    shoot(page, "trace_queens_stack_1024x768.png")
    page.uncheck('[data-ctl="cards"]')
    assert page.query_selector(".card") is None and "HR(" in page.text_content('[data-frame="call"] h3')
    page.close()


def test_printing_gives_a_handout_of_the_source_and_the_steps(browser, pages, tmp_path):
    page = open_page(browser, pages[HANOI])
    act(page, "output", 2)
    here = position(page)
    page.wait_for_timeout(400)  # the handout is made once the moves stop
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2  # the source, then the steps
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.bar')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('.handout')).display") == "block"
    assert len(page.query_selector_all(".code > div")) == 26  # the whole source
    rows = page.query_selector_all("table.steps tr")
    assert len(rows) == here + 1  # a heading and a row per step to here
    assert rows[1].text_content().startswith("1") and "n := 3" in rows[1].text_content()
    assert "Диск 1 со стержня 1 на стержень 3⏎" in page.text_content("table.steps")
    assert "cur" in (rows[-1].get_attribute("class") or "")
    (tmp_path / "handout.pdf").write_bytes(pdf)
    page.close()


def test_the_grade_page_keeps_the_spaces_of_a_wrong_line(browser, tmp_path):
    """«сумма:  6» against «сумма: 6»: HTML folds spaces, and the two lines would read the same."""
    task = tmp_path / "сумма"
    (task / "tests").mkdir(parents=True)
    (task / "tests" / "01.out").write_text("сумма: 6\n", encoding="utf-8")
    work = tmp_path / "петров.pseudo"
    work.write_text("СООБЩИТЬ 'сумма: ', 6\n", encoding="utf-8")
    html = tmp_path / "итоги.html"
    assert cli("grade", str(task), str(work), "--html", str(html)).returncode == 0
    page = open_page(browser, html)
    said = "ожидалось «сумма: 6», получено «сумма:  6» (разница только в пробелах, с 8-го знака)"
    assert said in page.inner_text("table.results td:last-child")
    assert said in page.inner_text("h3")
    page.close()


SECTIONS = """() => [...document.querySelectorAll('.pt section')].filter(s => getComputedStyle(s).display !== 'none')
  .map(s => { const r = s.getBoundingClientRect(); return [s.className, r.left, r.right, r.height]; })"""
OFF_SCREEN = """() => [...document.querySelectorAll('.bar button, .bar input')].filter(e => {
  const r = e.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth + 0.5; }).map(e => e.outerHTML)"""


def test_on_a_phone_the_page_is_one_column_under_its_controls(browser, pages):
    """At 390 × 844 each panel is as wide as the screen (two columns were 190 pixels each), the page
    scrolls down, never sideways, and the controls stay at the top as it scrolls."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(pages[QUEENS].as_uri())
    act(page, "output", 6)
    act(page, "into")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(OFF_SCREEN) == []
    for name, left, right, height in page.evaluate(SECTIONS):
        assert left >= 0 and right <= 390 and right - left >= 370 and height > 40, (name, left, right, height)
    assert page.evaluate("scrollY") == 0, "a step scrolls the call tree's own box, not the page"
    assert visible(page, ".code > div.cur mark") == "виден"
    shoot(page, "trace_queens_390x844.png")
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")  # down to the call tree
    assert page.evaluate("scrollY") > 0 and visible(page, '[data-act="into"]') == "виден"
    act(page, "into")
    assert position(page) > 4000
    context.close()


FOCUSED = """() => { const a = document.activeElement;
  return [a.dataset.act || a.dataset.ctl || (a.closest('form') ? 'goto' : '') || a.className || a.tagName, a.textContent,
          getComputedStyle(a).outlineStyle, parseFloat(getComputedStyle(a).outlineWidth)]; }"""


def test_without_a_mouse_tab_reaches_every_control_and_its_own_keys_press_it(browser, pages):
    page = open_page(browser, pages[QUEENS])
    for _ in range(3):
        go_to(page, "HR")  # HR(3): calls in the tree
    reached = []
    for _ in range(60):  # from the field «перейти» round the page and back again
        page.keyboard.press("Tab")
        reached.append(page.evaluate(FOCUSED))
    reached = [r for r in reached if r[0] not in ("BODY", "body")]
    names = {r[0] for r in reached}
    assert {"first", "back", "play", "into", "over", "out", "output", "last", "big", "slider", "speed", "target",
            "goto", "cards", "phrases", "fold", "node"} <= names, names
    assert all(style != "none" and width >= 2 for _, _, style, width in reached), reached  # seen from the back row
    page.focus('[data-act="into"]')  # the space presses the focused button: one step, not playing
    here = position(page)
    page.keyboard.press(" ")
    assert position(page) == here + 1 and not page.evaluate("pseudoTrace.playing()")
    page.focus('[data-ctl="phrases"]')  # … and ticks the focused box
    page.keyboard.press(" ")
    assert page.is_checked('[data-ctl="phrases"]') and not page.evaluate("pseudoTrace.playing()")
    page.focus('[data-ctl="speed"]')  # the arrows move the focused speed, not the trace
    here = position(page)
    page.keyboard.press("ArrowRight")
    assert out(page, "speed") == "8/с" and position(page) == here
    page.locator('li.path:has(> .node:text-is("HR(1)")) > .fold').focus()
    page.keyboard.press("Enter")  # HR(1) folded by the keyboard …
    assert page.query_selector('li.path:has(> .node:text-is("HR(1)")) > ul') is None
    assert page.evaluate("document.activeElement.matches('.fold')"), "the focus stays in the tree as it is drawn anew"
    page.keyboard.press("Enter")  # … and unfolded
    assert page.query_selector('li.path:has(> .node:text-is("HR(1)")) > ul') is not None
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the call HR(1) itself: to its start
    assert out(page, "what").startswith("строка 12 · глубина 1")
    assert page.evaluate("document.activeElement.textContent") == "HR(1)"
    page.keyboard.press("Escape")
    page.focus("body")
    page.keyboard.press("End")  # and with nothing focused the step keys work as the table says
    assert out(page, "what") == "конец программы"
    assert not page.errors
    page.close()
