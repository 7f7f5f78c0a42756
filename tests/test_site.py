"""The playground (`pseudo site build`) in a real headless Chromium, offline, used as a pupil
uses it: keys typed into the editor and into the program's input line, buttons clicked. The
site is built once into a temporary folder and served by `pseudo site serve`'s server (COOP
and COEP: shared memory, a read that waits in the worker) and by a plain static server (none:
a run begun again with the typed lines). Needs npm (or the packages already in the cache
~/.cache/pseudo) and Chromium; without them the browser tests are skipped and say why. Three
examples are compared with the command line here, all of them with PSEUDO_LONG=1.

Screenshots: playground-game.png (a game played to its end), playground-error.png (an error
marked in the editor) and playground-task.png (a task's check at 1024 × 768) go to tests/artifacts/, or to docs/images/ with PSEUDO_SCREENSHOTS=1;
tests/artifacts/ also gets the page at 1024 × 768 and at 390 × 844."""
from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time

import pytest
from conftest import IN_SDIST, LONG, PROGRAMS, ROOT, cli
from playground import (
    ARGS,
    ARTIFACTS,
    CHROMIUM,
    IMAGES,
    editor_text,
    eventually,
    offline,
    open_page,
    play,
    program,
    run,
    start,
    terminal,
    type_input,
    type_program,
    wait_asked,
    wait_ready,
    why_not,
)

from pseudo.site import build
from pseudo.site.examples import EXAMPLE_INPUTS, TYPED

WHY_NOT = why_not()
QUEENS = "queens_recursive.pseudo"


def test_without_npm_the_build_says_what_to_install(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path), "PSEUDO_CACHE_DIR": str(tmp_path / "cache"), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "pseudo", "site", "build", str(tmp_path / "site")], env=env,
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False)
    assert done.returncode == 69 and "для сборки нужен npm" in done.stderr and "apt install npm" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if WHY_NOT:
        pytest.skip(WHY_NOT)
    folder = tmp_path_factory.mktemp("site")
    done = build.build(folder, say=lambda _: None)
    httpd, url = start(folder)
    yield {**done, "url": url, "folder": folder}
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(site):
    if IN_SDIST:  # the same package files, built here by the test above: shown once, in the checkout's run
        pytest.skip("the page is tested in a browser by the checkout's run of this file; here only its build")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()



@pytest.fixture(scope="module")
def page(browser, site):
    page = open_page(browser, site["url"], viewport={"width": 1280, "height": 800})
    yield page
    assert page.errors == []
    page.context.close()


@pytest.fixture(autouse=True)
def idle_afterwards(request):
    """A test that fails with a program still running on the shared page stops it, so the
    tests after it start on an idle page: one failure is reported once, not by every test after."""
    yield
    for name in ("page", "plain_page"):
        if name in request.fixturenames:
            settle(request.getfixturevalue(name))


def settle(page) -> None:
    with contextlib.suppress(Exception):  # the failing test has said what went wrong
        if page.is_enabled("#stop"):
            page.click("#stop", timeout=5_000)
        page.wait_for_function("!document.getElementById('run').disabled", timeout=120_000)


@pytest.fixture(scope="module")
def plain(site, tmp_path_factory):
    """A site of its own on Python's plain static server (no COOP and COEP)."""
    folder = tmp_path_factory.mktemp("plain")
    build.build(folder, say=lambda _: None)
    httpd, url = start(folder, plain=True)
    yield {"url": url, "folder": folder}
    httpd.shutdown()


@pytest.fixture(scope="module")
def plain_page(browser, plain):
    page = open_page(browser, plain["url"], viewport={"width": 1280, "height": 800})
    assert not page.evaluate("crossOriginIsolated")
    yield page
    assert page.errors == []
    page.context.close()


# ---- the site ----

def test_the_site_has_what_it_needs(site):
    folder = site["folder"]
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert {"index.html", "app.js", "editor.js", "console.js", "runtime.js", "store.js", "highlight.js", "tokens.js",
            "worker.js", "sw.js", "serve.py", "site.json", "viz.js", build.WHEEL, "examples.zip",
            "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"} <= names
    assert site["examples"] == len(list(PROGRAMS.glob("*.pseudo")))
    site_json = json.loads((folder / "site.json").read_text(encoding="utf-8"))
    assert f'const STAMP = "{site_json["stamp"]}";' in (folder / "sw.js").read_text(encoding="utf-8")
    page = (folder / "index.html").read_text(encoding="utf-8")
    imports = json.loads(page.split('<script type="importmap">')[1].split("</script>")[0])["imports"]
    assert {"@codemirror/view", "@codemirror/state", "@codemirror/lint"} <= set(imports)
    assert all((folder / path).is_file() for path in imports.values()), "every module of the import map is in the site"
    assert all(p.startswith("./") for p in imports.values()), "nothing is fetched from elsewhere"


def test_the_command_builds_a_site_and_says_how_to_show_it(site, tmp_path):
    done = cli("site", "build", str(tmp_path / "сайт"))
    assert done.returncode == 0, done.stderr
    assert "песочница собрана" in done.stderr and "примеров: 13" in done.stderr
    assert f"pseudo site serve {tmp_path / 'сайт'}" in done.stderr
    assert (tmp_path / "сайт" / "index.html").is_file()


def test_the_site_stays_within_a_fifth_of_its_former_size(site):
    """15.0 MB before the editor: Pyodide 13 MB, Graphviz 1.2 MB."""
    assert site["bytes"] < 1.2 * 15_040_000


def test_the_queens_run_to_92_lines(page):
    page.select_option("#examples", QUEENS)
    out, err, status = run(page)
    assert out.splitlines()[0] == "1 5 8 6 3 7 2 4" and len(out.splitlines()) == 92
    assert "программа.pseudo:16:14: предупреждение" in err and status.startswith("код выхода 0")
    assert re.fullmatch(r"код выхода 0 · \d+,\d\d с", status), status  # a decimal comma, as Russian writes it


# ---- 1. output as it is printed, input typed when the program asks ----

def test_output_appears_as_the_program_prints_it(page):
    program(page, "СООБЩИТЬ 'начало'\nx := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    page.wait_for_function("document.getElementById('out').innerText.includes('начало')", timeout=30_000)
    assert page.inner_text("#status") == "выполняется…" and page.inner_text("#exit") == ""
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert page.inner_text("#exit").startswith("код выхода 130")


def test_a_program_that_reads_shows_where_to_type(page):
    program(page, "СООБЩИТЬ 'Как вас зовут?',\nПРОЧЕСТЬ имя\nСООБЩИТЬ 'Здравствуйте,', имя\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    wait_asked(page)
    assert page.inner_text("#out") == "Как вас зовут?"
    assert page.evaluate("document.activeElement.matches('#out input.typed')"), "the cursor is where to type"
    page.keyboard.type("Аня")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert page.inner_text("#out") == "Как вас зовут?Аня\nЗдравствуйте, Аня\n"  # as a terminal shows it
    assert page.inner_text("#exit").startswith("код выхода 0")


def test_ctrl_d_ends_the_input(page):
    program(page, "s := 0\nПОКА НЕ ввод кончился ВЫПОЛНЯТЬ\nПРОЧЕСТЬ x; s := s + x\nВЕРНУТЬСЯ\nСООБЩИТЬ 'сумма:', s\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    for line in ("1 2", "3"):
        wait_asked(page)
        page.keyboard.type(line)
        page.keyboard.press("Enter")
    wait_asked(page)
    page.keyboard.press("Control+d")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert page.inner_text("#out") == "1 2\n3\nсумма: 6\n"


NIM = ["1 1 1 2", "1", "4 1", "3 1", "2 1", "1 1", "4 1"]  # a short game: the pupil's moves, and two wrong ones


@pytest.mark.parametrize("server", ["isolated", "plain"])
def test_a_game_is_played_move_by_move_as_in_a_terminal(request, server):
    page = request.getfixturevalue("page" if server == "isolated" else "plain_page")
    page.select_option("#examples", "nim.pseudo")
    assert page.input_value("#stdin") == "", "a game's input is typed, not given beforehand"
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    typed = play(page, NIM)
    assert typed == NIM
    shown = page.inner_text("#out")
    expected = terminal([sys.executable, "-m", "pseudo", "run", "-q", str(PROGRAMS / "nim.pseudo")], NIM)
    assert shown == expected
    assert shown.endswith("Последнюю спичку взяли вы: вы выиграли\n") and page.inner_text("#exit").startswith("код выхода 0")
    if server == "isolated":
        IMAGES.mkdir(exist_ok=True)
        page.screenshot(path=str(IMAGES / "playground-game.png"))


@pytest.mark.parametrize("name", sorted(TYPED))
def test_every_game_is_played_to_its_end(page, name):
    """The page's answers are the tests' whole games: each line typed when the program asks."""
    page.select_option("#examples", f"{name}.pseudo")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    lines = EXAMPLE_INPUTS[name].splitlines()
    play(page, lines)
    expected = cli("run", "-q", str(PROGRAMS / f"{name}.pseudo"), stdin=EXAMPLE_INPUTS[name]).stdout
    shown = page.inner_text("#out")
    assert shown.splitlines()[-1] == expected.splitlines()[-1]  # the same winner
    assert shown.count("Ваш ход") == expected.count("Ваш ход")  # asked as often


@pytest.mark.parametrize("server", ["isolated", "plain"])
def test_stop_while_the_program_waits_for_a_line(request, server):
    page = request.getfixturevalue("page" if server == "isolated" else "plain_page")
    program(page, "СООБЩИТЬ 'Число?',\nПРОЧЕСТЬ n\nСООБЩИТЬ n\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    wait_asked(page)
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    err = page.inner_text("#err")
    assert err.startswith("программа.pseudo:2:1: ошибка: выполнение прервано кнопкой «Стоп»"), err
    assert page.inner_text("#exit").startswith("код выхода 130")
    assert not page.is_visible("#out input.typed")
    program(page, "СООБЩИТЬ 'дальше'\n")  # and the runtime goes on
    assert run(page)[0] == "дальше\n"


def test_the_books_live_display_is_drawn_in_place(page):
    page.select_option("#examples", "pentomino.pseudo")
    type_input(page, "3 20 30\n")  # the board shown as it fills, 30 ms a piece
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    screens = set()
    deadline = time.monotonic() + 30
    while len(screens) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(150)
        shown = page.inner_text("#out")
        if shown.strip():
            lines = shown.splitlines()
            assert len(lines) <= 6, "each frame is drawn over the last, not below it"
            assert all(len(line.rstrip()) <= 20 for line in lines[:3])
            screens.add(shown)
    assert len(screens) >= 3, "the board changes while the program runs"
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)


# ---- 7. large output ----

def test_two_hundred_thousand_lines_end_in_seconds_and_the_next_run_starts_at_once(page):
    program(page, "ДЛЯ i := 1 ДО 200000 ВЫПОЛНЯТЬ СООБЩИТЬ 'строка', i ВЕРНУТЬСЯ\n")
    started = time.monotonic()
    out, _, status = run(page)
    took = time.monotonic() - started
    assert took < 20 and status.startswith("код выхода 0"), took
    assert out.splitlines()[-1] == "строка 200000" and len(out.splitlines()) == 10_000
    assert page.inner_text("#kept") == "показаны последние 10 000 строк вывода из 200 000"
    program(page, "СООБЩИТЬ 'дальше'\n")
    started = time.monotonic()
    out, _, _ = run(page)
    assert out == "дальше\n" and time.monotonic() - started < 5
    assert not page.is_visible("#kept")


def test_stop_during_a_flood_keeps_what_was_printed(page):
    program(page, "i := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ i := i + 1; СООБЩИТЬ 'строка', i ВЕРНУТЬСЯ\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    last = "(() => { const m = /строка (\\d+)\\s*$/.exec(document.getElementById('out').innerText); return m ? Number(m[1]) : 0; })()"
    page.wait_for_function(f"{last} >= 50000", timeout=60_000)
    started = time.monotonic()
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert time.monotonic() - started < 5
    assert page.inner_text("#exit").startswith("код выхода 130")
    assert page.evaluate(last) >= 50000, "what was printed stays"
    assert page.inner_text("#kept").startswith("показаны последние 10 000 строк вывода из ")


# ---- 8. messages speak of the page ----

def test_messages_speak_of_the_page_not_of_the_command_line(page):
    program(page, "f (n) = f(n + 1)\nСООБЩИТЬ f(1)\n")
    _, err, status = run(page)
    assert "превышена глубина рекурсии (2000 вызовов)" in err and "песочниц" in err
    assert "--max-depth" not in err and status.startswith("код выхода 70")
    program(page, "x := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'выполняется…'")
    page.wait_for_timeout(500)
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    err = page.inner_text("#err")
    assert "кнопкой «Стоп»" in err and "Ctrl" not in err and "программа.pseudo:2:" in err


# ---- errors, Stop and the command line's results ----

def test_an_error_shows_its_caret_as_on_the_command_line(page):
    program(page, "x := 1\nСООБЩИТЬ x / 0\n")
    out, err, status = run(page)
    assert out == ""
    assert err.splitlines()[:3] == ["программа.pseudo:2:10: ошибка: деление на ноль",
                                    "    2 | СООБЩИТЬ x / 0", "      |          ^~~~~"]
    assert status.startswith("код выхода 70")


def test_a_deep_nesting_is_reported_not_a_crash(page):
    program(page, "")
    page.click(".cm-content")
    page.keyboard.insert_text("x := " + "(" * 3000 + "1" + ")" * 3000 + "\nСООБЩИТЬ x\n")  # pasted
    out, err, status = run(page)  # the LALR parser keeps no stack of calls
    assert (out, err) == ("1\n", "") and status.startswith("код выхода 0")
    program(page, "")
    page.click(".cm-content")
    page.keyboard.insert_text("x := " + "(1 + " * 3000 + "1" + ")" * 3000)  # a tree deeper than the browser's stack
    out, err, status = run(page)
    assert err.startswith("ошибка: слишком глубокая вложенность") and status.startswith("код выхода 65")
    # `pseudo check` of it, as the pupil types, says so too — or, should it overflow the browser's
    # stack below Python, says it could not, and the page starts its runtime again
    page.wait_for_function("/вложенность|не смог проверить/.test(document.getElementById('problems').innerText)",
                           timeout=60_000)
    program(page, "СООБЩИТЬ 2\n")  # and the page still runs programs
    page.wait_for_function("!document.getElementById('run').disabled", timeout=120_000)
    out, err, status = run(page)
    assert (out, err) == ("2\n", "") and status.startswith("код выхода 0")


def test_a_plain_static_server_runs_it_and_stop_starts_the_runtime_again(plain_page):
    page = plain_page
    page.select_option("#examples", QUEENS)
    out, _, _ = run(page)
    assert len(out.splitlines()) == 92
    program(page, "СООБЩИТЬ 'до'\nx := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")  # never the same state
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    page.wait_for_function("document.getElementById('out').innerText.includes('до')", timeout=30_000)
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert page.inner_text("#exit").startswith("код выхода 130") and "загружается заново" in page.inner_text("#err")
    assert page.inner_text("#out") == "до\n", "what was printed stays"
    wait_ready(page)
    program(page, "СООБЩИТЬ 'снова'\n")
    assert run(page)[0] == "снова\n"


FEW = {"fox_capture.pseudo", "nim.pseudo", "queens_automaton_1.pseudo"}  # input from a file, a game, an automaton


@pytest.mark.parametrize("name", sorted(p.name for p in PROGRAMS.glob("*.pseudo") if LONG or p.name in FEW))
def test_every_example_runs_as_on_the_command_line(page, name):
    """With its input given beforehand (for a game: a whole game typed into the input box)."""
    page.select_option("#examples", name)
    stem = name[:-len(".pseudo")]
    if stem in TYPED:
        type_input(page, EXAMPLE_INPUTS[stem])
    stdin = page.input_value("#stdin")
    out, _, _ = run(page, timeout=600_000)
    expected = cli("run", "-q", str(PROGRAMS / name), stdin=stdin)
    assert out == expected.stdout


# ---- the trace page and the diagram ----

def test_the_trace_page_opens_and_its_controls_move(page):
    page.select_option("#examples", QUEENS)
    run(page, "#trace")
    frame = page.frame_locator("#trace-frame")
    frame.locator("body").wait_for()
    before = frame.locator("text=/шаг \\d/").first.inner_text()
    frame.get_by_role("button", name="шаг ▶").click()
    frame.get_by_role("button", name="шаг ▶").click()
    assert frame.locator("text=/шаг \\d/").first.inner_text() != before
    page.click("#close-view")


def test_the_trace_opens_after_the_diagram(page):
    """A trace shown after the diagram (closed or not) is the whole page, not a blank panel."""
    page.select_option("#examples", "queens_automaton_1.pseudo")
    size = "(() => { const r = document.querySelector('.pt').getBoundingClientRect(); return r.width > 300 && r.height > 300; })()"
    for closed in (True, False):
        run(page, "#graph")
        page.wait_for_selector("#diagram svg", timeout=60_000)
        if closed:
            page.click("#close-view")
        run(page, "#trace")
        frame = page.frame_locator("#trace-frame")
        frame.locator('[data-act="into"]').wait_for(state="attached")
        assert frame.locator("body").evaluate(size), f"the trace page has no size (diagram closed: {closed})"
        assert page.is_visible("#trace-frame")
    page.click("#close-view")


def test_the_menu_names_each_example_by_a_whole_sentence():
    """The first sentence of the opening comment, even where it goes on to a second line."""
    titles = {entry["file"]: entry["title"] for entry in build.examples()[1]}
    assert titles["peg_solitaire.pseudo"].endswith("центр свободен.")
    assert titles["queens_automaton_2.pseudo"].endswith("стал состоянием И (от «искать»).")
    assert all(title.endswith(".") for title in titles.values()), titles
    assert build._title("{ Ферзи по книге Ж. Арсака. Дальше }", "") == "Ферзи по книге Ж. Арсака."  # an initial
    assert build._title("{ Пентамино (рис. 39). Ещё }", "") == "Пентамино (рис. 39)."


def test_the_state_diagram_renders(page):
    page.select_option("#examples", "queens_automaton_1.pseudo")
    run(page, "#graph")
    page.wait_for_selector("#diagram svg", timeout=60_000)
    texts = page.eval_on_selector_all("#diagram svg text", "els => els.map(e => e.textContent)")
    assert {"С", "СОК", "СБ", "С8"} <= set(texts)
    page.click("#close-view")


def test_the_flowchart_of_a_procedure_renders(page):
    page.select_option("#examples", QUEENS)
    page.select_option("#diagram-kind", "--flowchart")
    page.click("#proc")
    page.keyboard.type("HR")
    run(page, "#graph")
    page.wait_for_selector("#diagram svg", timeout=60_000)
    texts = page.eval_on_selector_all("#diagram svg text", "els => els.map(e => e.textContent)")
    assert {"HR (k)", "ДЛЯ i := 1 ДО 8", "место k, i свободно", "ДА", "НЕТ", "возврат"} <= set(texts)
    assert page.text_content("#view-title") == "Блок-схема HR"
    page.click("#close-view")
    page.select_option("#diagram-kind", "")


def test_after_the_first_visit_it_works_offline(browser, site):
    context = browser.new_context()
    offline(context, site["url"])
    first = context.new_page()
    first.goto(site["url"])
    wait_ready(first)
    first.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)  # all cached
    context.set_offline(True)
    second = context.new_page()
    second.goto(site["url"])
    wait_ready(second)
    assert editor_text(second).startswith("{ Восемь ферзей")
    out, _, _ = run(second)
    assert len(out.splitlines()) == 92
    context.close()


def test_a_new_build_reaches_a_returning_visitor(browser, plain, tmp_path):
    context = browser.new_context()
    offline(context, plain["url"])
    page = context.new_page()
    page.goto(plain["url"])
    wait_ready(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    (tmp_path / "one.pseudo").write_text("{ Единственный пример. }\nСООБЩИТЬ 1\n", encoding="utf-8")
    build.build(plain["folder"], tmp_path, say=lambda _: None)
    stamp = json.loads((plain["folder"] / "site.json").read_text(encoding="utf-8"))["stamp"]
    page.reload()  # the old page, from the cache; it asks for sw.js again, and the browser installs the new one
    eventually(page, f"caches.keys().then(k => k.join() === 'pseudo-site-{stamp}')")
    page.reload()
    page.wait_for_function("document.querySelectorAll('#examples option').length > 1")
    assert page.eval_on_selector_all("#examples option", "os => os.map(o => o.value)") == ["", "one.pseudo"]
    context.close()
    build.build(plain["folder"], say=lambda _: None)  # the book's examples again, for the tests after this one


def test_the_page_loads_in_seconds(page):
    assert page.loaded_in < 60
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site_page.png"))


# ---- 2. the editor ----

def test_the_editor_has_line_numbers_and_the_books_colours(page):
    page.select_option("#examples", QUEENS)
    numbers = page.eval_on_selector_all(".cm-lineNumbers .cm-gutterElement", "els => els.map(e => e.textContent)")
    assert {"1", "2", "11", "16"} <= set(numbers)
    keywords = page.eval_on_selector_all(".cm-content .hl-keyword", "els => els.map(e => e.textContent)")
    assert {"ДЛЯ", "ВЫПОЛНЯТЬ", "ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ"} <= set(keywords)
    assert page.eval_on_selector_all(".cm-content .hl-phrase", "els => els.map(e => e.textContent)")[0] \
        == "«место (k), (i) свободно»"
    assert "HR" in page.eval_on_selector_all(".cm-content .hl-definition", "els => els.map(e => e.textContent)")


def test_check_marks_errors_and_warnings_while_the_pupil_types(page):
    program(page, "k := 1\nЕСЛИ к > 0 ТО\nСООБЩИТЬ k\n")
    page.wait_for_selector(".cm-lintRange-error", timeout=30_000)
    assert page.inner_text(".cm-lintRange-error") == "ЕСЛИ"
    assert page.inner_text("#problems") == "2:1: ошибка: ЕСЛИ не закрыто: текст кончился раньше, чем КОНЕЦ_ЕСЛИ"
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("КОНЕЦ_ЕСЛИ")  # the error mended: its mark goes, and the warning behind it shows
    page.wait_for_selector(".cm-lintRange-error", state="detached", timeout=30_000)
    page.wait_for_selector(".cm-lintRange-warning", timeout=30_000)
    assert page.inner_text(".cm-lintRange-warning") == "к"  # line 2, column 6: the Cyrillic letter
    assert "2:6: предупреждение: имя «к» найдено как «k»" in page.inner_text("#problems")
    page.hover(".cm-lintRange-warning")
    page.wait_for_selector(".cm-tooltip-lint", timeout=10_000)
    tooltip = page.inner_text(".cm-tooltip-lint")
    assert "имя «к» найдено как «k»" in tooltip and "^" in tooltip  # the whole message, caret and all
    assert page.is_visible(".cm-lint-marker-warning")  # and a mark beside the line's number


def test_a_runtime_error_marks_its_line_in_the_editor(page):
    program(page, "{ Среднее чисел }\nсумма := 10\nчисел := 0\nСООБЩИТЬ 'среднее:', сумма / чисел\n")
    _, err, status = run(page)
    assert status.startswith("код выхода 70") and err.startswith("программа.pseudo:4:22: ошибка: деление на ноль")
    assert page.inner_text(".cm-error-line") == "СООБЩИТЬ 'среднее:', сумма / чисел"
    assert page.inner_text(".cm-error-mark") == "сумма / чисел"
    page.wait_for_selector("#problems", state="hidden", timeout=30_000)  # `pseudo check` finds nothing to say
    IMAGES.mkdir(exist_ok=True)
    page.screenshot(path=str(IMAGES / "playground-error.png"))
    program(page, "СООБЩИТЬ 1\n")
    run(page)
    assert page.query_selector(".cm-error-line") is None


def test_the_editor_keys(page):
    program(page, "ЕСЛИ ИСТИНА ТО\nСООБЩИТЬ 1\nКОНЕЦ_ЕСЛИ")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Tab")  # indents the line
    assert editor_text(page).split("\n")[1] == "    СООБЩИТЬ 1"
    page.keyboard.press("Shift+Tab")  # and back
    assert editor_text(page).split("\n")[1] == "СООБЩИТЬ 1"
    page.keyboard.press("Tab")
    page.keyboard.press("End")
    page.keyboard.press("Enter")  # the new line keeps the indentation
    page.wait_for_timeout(700)  # a pause: what follows is an edit of its own for undo
    page.keyboard.type("СООБЩИТЬ 2")
    assert editor_text(page).split("\n")[1:3] == ["    СООБЩИТЬ 1", "    СООБЩИТЬ 2"]
    page.keyboard.press("Control+z")
    assert editor_text(page).split("\n")[1:3] == ["    СООБЩИТЬ 1", "    "]
    page.keyboard.press("Control+y")
    assert editor_text(page).split("\n")[1:3] == ["    СООБЩИТЬ 1", "    СООБЩИТЬ 2"]
    out, _, _ = run(page)  # Ctrl+Enter would too
    assert out == "1\n2\n"
    page.click(".cm-content")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # Esc, then Tab: out of the editor, to the next control
    assert not page.evaluate("document.activeElement.closest('.cm-editor')")
    assert "СООБЩИТЬ 2\n" in editor_text(page) and "\t" not in editor_text(page)


# ---- 3. the pupil's work is kept ----

def test_the_work_is_kept_across_reloads_and_visits(browser, site):
    page = open_page(browser, site["url"])
    program(page, "СООБЩИТЬ 'моя программа'\nПРОЧЕСТЬ x\n", "42\n")
    page.wait_for_timeout(500)  # kept a moment after the last key
    page.reload()  # the editor has the work back before the runtime is ready
    page.wait_for_selector(".cm-content")
    assert editor_text(page) == "СООБЩИТЬ 'моя программа'\nПРОЧЕСТЬ x"
    assert page.input_value("#stdin") == "42\n" and page.input_value("#examples") == ""
    again = page.context.new_page()  # another visit, the same browser
    again.goto(site["url"])
    again.wait_for_selector(".cm-content")
    assert editor_text(again) == "СООБЩИТЬ 'моя программа'\nПРОЧЕСТЬ x"
    page.context.close()


def test_an_example_chosen_over_edited_work_keeps_it_recoverable(page):
    saved_before = len(page.query_selector_all("#saved option"))
    program(page, "СООБЩИТЬ 'моя работа'\n", "7\n")
    page.select_option("#examples", "nim.pseudo")
    assert editor_text(page).startswith("{ Ним")
    assert page.is_visible("#notice") and "сохранена" in page.inner_text("#notice")
    page.click("#notice button")  # «вернуть»
    assert editor_text(page) == "СООБЩИТЬ 'моя работа'" and page.input_value("#stdin") == "7\n"
    page.select_option("#examples", QUEENS)  # unedited, the nim example went without a trace
    saved = page.eval_on_selector_all("#saved option", "os => os.map(o => o.textContent)")
    assert len(saved) == saved_before + 1 and saved[0].endswith("СООБЩИТЬ 'моя работа'")  # the newest first
    page.select_option("#examples", "saved:0")
    assert editor_text(page) == "СООБЩИТЬ 'моя работа'"
    type_input(page, "")


def test_a_link_carries_the_program_and_keeps_the_work_it_replaces(browser, site, page):
    program(page, "СООБЩИТЬ 'из ссылки'\n")
    page.click("#share")
    link = page.url
    assert "#p=" in link
    other = open_page(browser, site["url"])
    program(other, "СООБЩИТЬ 'своё'\n")
    other.wait_for_timeout(500)
    other.goto(link)
    wait_ready(other)
    assert editor_text(other) == "СООБЩИТЬ 'из ссылки'" and "#" not in other.url
    assert "сохранена" in other.inner_text("#notice")
    assert run(other)[0] == "из ссылки\n"
    assert not other.is_visible("#notice"), "gone with the next run; the work stays in the menu"
    other.select_option("#examples", "saved:0")
    assert editor_text(other) == "СООБЩИТЬ 'своё'"
    other.context.close()


# ---- a task's link and «Проверить» ----

def _sum_task(folder):
    """A task of two visible tests and a hidden one, its runs stopped at 100 000 steps."""
    (folder / "tests").mkdir(parents=True)
    (folder / "README.md").write_text("# Сумма\n\nПрочтите числа a и b и напечатайте **их сумму**.\n", encoding="utf-8")
    (folder / "task.toml").write_text('title = "Сумма"\nhidden = ["03"]\nmax_steps = 100_000\ncompare = "numbers"\n',
                                      encoding="utf-8")
    for name, given, total in (("01", "2 3", "5"), ("02", "10 -4", "6"), ("03", "1 1", "2")):
        (folder / "tests" / f"{name}.in").write_text(given + "\n", encoding="utf-8")
        (folder / "tests" / f"{name}.out").write_text(total + "\n", encoding="utf-8")
    return folder


def _check(page) -> list[tuple[str, str]]:
    """«Проверить» pressed: each test's class (passed, failed, error, limit) and its text."""
    run(page, "#check-task")
    return page.eval_on_selector_all("#task .results li", "ls => ls.map(l => [l.className, l.innerText])")


def test_a_task_link_shows_the_statement_and_checks_the_visible_tests(page, site, tmp_path):
    from pseudo.site.task import link
    page.set_viewport_size({"width": 1024, "height": 768})  # as a teacher projects it
    program(page, "СООБЩИТЬ 'моя работа'\n")
    page.goto(link(str(_sum_task(tmp_path / "сумма")), site["url"]))
    page.wait_for_selector("#task:not([hidden])")
    assert editor_text(page) == "" and "сохранена" in page.inner_text("#notice")  # the work is kept, as under a link
    assert page.inner_text("#task .task-title") == "Сумма" and "напечатайте их сумму" in page.inner_text("#task .statement")
    program(page, "ПРОЧЕСТЬ a, b\nСООБЩИТЬ a + b\n")
    assert _check(page) == [["passed", "01  пройден"], ["passed", "02  пройден"]]  # the hidden 03 is not in the link
    assert page.inner_text("#task .summary").startswith("пройдено 2 из 2")
    program(page, "ПРОЧЕСТЬ a, b\nСООБЩИТЬ a - b\n")
    found = _check(page)
    assert found[0] == ["failed", "01  не пройден — строка 1\nввод:      «2 3»\nожидалось: «5»\nполучено:  «-1»"], found
    IMAGES.mkdir(exist_ok=True)
    page.screenshot(path=str(IMAGES / "playground-task.png"))
    program(page, "ПРОЧЕСТЬ a, b\nПОКА a > 0 ВЫПОЛНЯТЬ\n    a := a + 1\nВЕРНУТЬСЯ\n")
    found = _check(page)
    assert found[0][0] == "limit" and found[0][1].startswith("01  превышен предел шагов песочницы (100000) — строка"), found
    assert page.inner_text("#task .summary").startswith("пройдено 0 из 2")
    page.select_option("#examples", QUEENS)  # leaving the task
    assert page.is_hidden("#task")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_run_shows_the_warnings_of_the_program_it_runs(page):
    program(page, "k := 1\nСООБЩИТЬ к\n")
    page.wait_for_selector("#problems li.warning", timeout=30_000)
    type_program(page, "СООБЩИТЬ 2\n")
    shown = page.evaluate("document.getElementById('run').click(), document.getElementById('problems').innerText")
    assert "«к»" not in shown  # at once, not when the check's pause ends
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=60_000)
    assert page.is_hidden("#problems")


# ---- 4. the trace's position in the editor ----

def test_stepping_the_trace_marks_the_line_in_the_editor(page):
    page.select_option("#examples", QUEENS)
    source = (PROGRAMS / QUEENS).read_text(encoding="utf-8").split("\n")
    run(page, "#trace")
    frame = page.frame_locator("#trace-frame")
    frame.locator(".cur[data-line]").wait_for()
    seen = set()
    for _ in range(12):
        frame.get_by_role("button", name="шаг ▶").click()
        number = int(frame.locator(".cur[data-line]").get_attribute("data-line"))
        eventually(page, f"document.querySelector('.cm-step-line')?.innerText === {json.dumps(source[number - 1])}", 10)
        assert page.is_visible(".cm-step-line") and page.is_visible(".cm-step-mark")
        seen.add(number)
    assert len(seen) > 1, "the mark moves with the steps"
    page.click("#close-view")
    assert page.query_selector(".cm-step-line") is None


def test_the_step_marked_at_the_end_of_a_long_line_is_scrolled_into_the_editors_view(page):
    """The editor beside the trace is narrow (2/5 of 1024 px): a statement at the end of a long
    line is shown where it is, not the line's start with the mark off to the right."""
    page.set_viewport_size({"width": 1024, "height": 768})
    statements = "; ".join(f"переменная_{k} := {k}" for k in range(1, 9))
    program(page, f"{statements}; СООБЩИТЬ переменная_8\n")
    run(page, "#trace")
    frame = page.frame_locator("#trace-frame")
    frame.locator('[data-act="last"]').click()
    frame.locator('[data-act="back"]').click()  # СООБЩИТЬ, at the line's end
    eventually(page, "document.querySelector('.cm-step-mark')?.textContent === 'СООБЩИТЬ переменная_8'", 10)
    page.wait_for_timeout(300)
    inside = page.evaluate("""(() => {
      const m = document.querySelector('.cm-step-mark').getBoundingClientRect();
      const s = document.querySelector('#editor .cm-scroller').getBoundingClientRect();
      return [m.left, m.right, s.left, s.right];
    })()""")
    assert inside[2] <= inside[0] and inside[1] <= inside[3], inside
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site_trace_long_line_1024.png"))
    page.click("#close-view")
    page.set_viewport_size({"width": 1280, "height": 800})


# ---- 6. the screen ----

FOCUS = """(() => { const a = document.activeElement;
  return [a.id || (a.matches('.cm-content') ? 'editor' : a.tagName), parseFloat(getComputedStyle(a).outlineWidth)]; })()"""
IN_A_ROW = "els => els.every(e => Math.abs(e.getBoundingClientRect().top - els[0].getBoundingClientRect().top) < 1)"
PANELS = """() => [...document.querySelectorAll('.pt section')].filter(s => getComputedStyle(s).display !== 'none')
  .map(s => { const r = s.getBoundingClientRect(); return {name: s.className, left: r.left, right: r.right, height: r.height}; })"""


def test_the_trace_beside_the_editor_has_room_and_takes_the_keys(page):
    """At 1280 × 800 (a classroom projector) the trace opened beside the editor has its two
    columns, its buttons in a row and the board in a row of cells; at 1024 × 768 its panels are
    one under another, as wide as the frame. The step keys work as soon as it opens."""
    page.select_option("#examples", QUEENS)
    run(page, "#trace")
    frame = page.frame_locator("#trace-frame")
    frame.locator('[data-act="into"]').wait_for()
    eventually(page, "document.activeElement.id === 'trace-frame'", 10)
    page.keyboard.press("ArrowRight")  # no click into the frame first
    frame.locator('[data-out="pos"]:text-is("2")').wait_for(timeout=5_000)
    for _ in range(6):
        frame.locator('[data-act="output"]').click()
    body = frame.locator("body")
    assert body.evaluate("() => innerWidth") >= 700, "the trace takes the larger share of the window"
    panels = {p["name"]: p for p in body.evaluate(PANELS)}
    assert panels["arrays"]["left"] >= panels["src"]["right"] - 1, panels  # side by side
    assert frame.locator('.bar [data-act]').evaluate_all(IN_A_ROW), "the step buttons are one row"
    assert frame.locator('.arr[data-name="c"] .cell').evaluate_all(IN_A_ROW), "the board is one row of cells"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site_trace_1280.png"))
    page.focus("#examples")  # Tab leads through what is seen: the output's side under the trace is left out
    reached = []
    while len(reached) < 40 and (not reached or reached[-1][0] != "trace-frame"):
        page.keyboard.press("Tab")
        reached.append(page.evaluate(FOCUS))
        if reached[-1][0] == "editor":
            page.keyboard.press("Escape")  # then Tab leaves the editor
    names = [name for name, _ in reached]
    assert {"run", "trace", "editor", "wide", "close-view", "trace-frame"} <= set(names), reached
    assert not {"mode", "out", "SUMMARY", "stdin"} & set(names), names
    assert all(width >= 2 for name, width in reached if name in ("run", "trace", "close-view")), reached
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_timeout(200)
    width = body.evaluate("() => innerWidth")
    assert body.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    for panel in body.evaluate(PANELS):
        assert panel["right"] - panel["left"] >= 0.9 * width and panel["height"] > 40, (width, panel)
    assert width >= 540, "the source reads a line of the program, not a word"
    page.screenshot(path=str(ARTIFACTS / "site_trace_1024.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#close-view")


def test_at_1024_by_768_the_header_is_one_row_and_messages_wrap(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    for kind in ("--flowchart", ""):  # with the field of the flowchart's procedure, and without
        page.select_option("#diagram-kind", kind)
        boxes = page.eval_on_selector_all("header > :not([hidden])", "els => els.map(e => "
                                          "[e.getBoundingClientRect().top, e.getBoundingClientRect().bottom])")
        assert max(top for top, _ in boxes) < min(bottom for _, bottom in boxes), boxes  # side by side: one row
    program(page, "очень_длинное_имя_переменной_которой_нет := 1\n"
                  "СООБЩИТЬ очень_длинное_имя_переменной_которой_нет + неизвестная_переменная_с_длинным_именем\n")
    run(page)
    assert page.evaluate("(e => e.scrollWidth <= e.clientWidth)(document.getElementById('err'))"), "messages wrap"
    # the excerpt does not wrap: the caret stays under the first letter of the unknown name, scrolled into view
    page.wait_for_function("document.querySelector('#err .excerpt').scrollLeft > 0")
    under = page.evaluate("""(() => {
      const text = document.querySelector('#err .excerpt').firstChild, lines = text.data.split('\\n');
      const box = (at) => { const r = document.createRange(); r.setStart(text, at); r.setEnd(text, at + 1);
                            return r.getClientRects()[0]; };
      const caret = lines[0].length + 1 + lines[1].indexOf('^'), letter = lines[0].indexOf('неизвестная');
      const shown = text.parentNode.getBoundingClientRect();
      return [box(letter).left, box(caret).left, box(caret).top - box(letter).top, box(letter).height,
              shown.left, shown.right];
    })()""")
    assert abs(under[0] - under[1]) < 1 and under[3] * 0.5 < under[2] < under[3] * 1.5, under
    assert under[4] <= under[1] < under[5], f"the caret is out of sight: {under}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site_1024.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def test_at_1920_by_1080_the_type_grows_with_the_screen(page):
    """A projector at 1920 × 1080: the program and its output take the share of the screen's
    height they take at 1280 × 800 (15 px of 800), not two thirds of it."""
    page.select_option("#examples", QUEENS)
    run(page)
    size = "sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)"
    at_1280 = {sel: page.evaluate(size, sel) for sel in ("#editor .cm-line", "#out", "#run")}
    page.set_viewport_size({"width": 1920, "height": 1080})
    for sel, small in at_1280.items():
        assert page.evaluate(size, sel) / 1080 >= 0.95 * small / 800, sel
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert page.locator("header").bounding_box()["height"] < 60, "the header is one row"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site_1920.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def test_on_a_phone_nothing_is_wider_than_the_screen(browser, site):
    page = open_page(browser, site["url"], viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    program(page, "k := 1\nСООБЩИТЬ к + 1, 'и длинная строка вывода, которая шире телефона, ' + 'ещё и ещё'\n")
    page.wait_for_selector(".cm-lintRange-warning", timeout=30_000)
    run(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option("#examples", "nim.pseudo")
    page.click("#run")
    wait_asked(page)
    for where in ("#editor", "#out", "#out input.typed", "#run", "#stop"):
        box = page.locator(where).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, where
    page.keyboard.type("1 1 1 1")
    page.keyboard.press("Enter")
    wait_asked(page)
    assert "1 1 1 1" in page.inner_text("#out")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "site_390.png"), full_page=True)
    page.click("#stop")
    page.wait_for_function("!document.getElementById('run').disabled")
    page.select_option("#examples", QUEENS)
    run(page)  # 92 lines scroll in their box: the messages and the input box are near, not three screens down
    below = page.evaluate("document.querySelector('#input-box summary').getBoundingClientRect().bottom + scrollY")
    assert below <= 2 * 844, below
    run(page, "#trace")
    body = page.frame_locator("#trace-frame").locator("body")
    body.locator('[data-act="into"]').wait_for()
    width = body.evaluate("() => innerWidth")
    assert body.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    for panel in body.evaluate(PANELS):  # one column, each panel as wide as the screen
        assert panel["right"] - panel["left"] >= 0.9 * width and panel["height"] > 40, (width, panel)
    page.screenshot(path=str(ARTIFACTS / "site_trace_390.png"))
    page.context.close()
