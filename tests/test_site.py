"""The playground (`pseudo site build`) in a real headless Chromium, offline: the site is built
once into a temporary folder, served by `pseudo site serve`'s server, and every request that
leaves it is refused. Needs npm (or Pyodide and @viz-js/viz already in the cache
~/.cache/pseudo) and Chromium; without them the browser tests are skipped and say why. Three
examples are compared with the command line here, all of them with PSEUDO_LONG=1. The
screenshot is written to tests/artifacts/site_queens.png."""
from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import LONG, PROGRAMS, ROOT

from pseudo.site import build, serve

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
ARTIFACTS = ROOT / "tests" / "artifacts"


def _cached(name: str, version: str) -> bool:
    return (build.cache_folder() / f"{name.lstrip('@').replace('/', '+')}-{version}" / "package").is_dir()


def _why_not() -> str | None:
    """Why the site cannot be built and shown here, or None."""
    if not shutil.which("npm") and not (_cached(*build.PYODIDE) and _cached(*build.VIZ)):
        where = "CI has no npm (.ci/run installs it with apt as root)" if os.environ.get("CI") else "npm is not installed"
        return f"{where} and Pyodide is not in the cache {build.cache_folder()}: the playground cannot be built"
    if not Path(CHROMIUM).exists():
        return "chromium is not installed (apt install chromium)"
    return None


WHY_NOT = _why_not()


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
    httpd = serve.server(folder, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield {**done, "url": f"http://127.0.0.1:{httpd.server_address[1]}/", "folder": folder}
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(site):
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def offline(context, url):
    """Refuse every request that leaves the site."""
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url)
                  else route.abort())


@pytest.fixture(scope="module")
def page(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    offline(context, site["url"])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    started = time.monotonic()
    page.goto(site["url"])
    wait_ready(page)
    page.loaded_in = time.monotonic() - started
    yield page
    assert errors == []
    context.close()


def wait_ready(page, timeout=120_000):
    page.wait_for_function("document.getElementById('status').textContent.startsWith('готово')", timeout=timeout)


def eventually(page, expression, timeout=60):
    """Wait until a JavaScript expression (a promise too, which wait_for_function takes as true) is true."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        page.wait_for_timeout(100)


def program(page, text, stdin=""):
    page.select_option("#examples", "")
    page.fill("#code", text)
    page.fill("#stdin", stdin)


def run(page, button="#run", timeout=120_000):
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click(button)
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=timeout)
    return page.inner_text("#out"), page.inner_text("#err"), page.inner_text("#exit")


def test_the_site_has_what_it_needs(site):
    names = {p.relative_to(site["folder"]).as_posix() for p in site["folder"].rglob("*") if p.is_file()}
    assert {"index.html", "app.js", "worker.js", "sw.js", "serve.py", "site.json", "viz.js", build.WHEEL,
            "examples.zip", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"} <= names
    assert site["examples"] == len(list(PROGRAMS.glob("*.pseudo")))
    stamp = json.loads((site["folder"] / "site.json").read_text(encoding="utf-8"))["stamp"]
    assert f'const STAMP = "{stamp}";' in (site["folder"] / "sw.js").read_text(encoding="utf-8")


def test_the_command_builds_a_site_and_says_how_to_show_it(site, tmp_path):
    from conftest import cli
    done = cli("site", "build", str(tmp_path / "сайт"))
    assert done.returncode == 0, done.stderr
    assert "песочница собрана" in done.stderr and f"pseudo site serve {tmp_path / 'сайт'}" in done.stderr
    assert (tmp_path / "сайт" / "index.html").is_file()


def test_the_queens_run_to_92_lines(page):
    assert page.input_value("#examples") == "queens_recursive.pseudo"
    out, err, status = run(page)
    assert out.splitlines()[0] == "1 5 8 6 3 7 2 4" and len(out.splitlines()) == 92
    assert "программа.pseudo:16:14: предупреждение" in err and status.startswith("код выхода 0")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site_queens.png"))


def test_the_editor_is_highlighted_by_the_token_rules(page):
    page.wait_for_function("document.querySelectorAll('#shade .hl-keyword').length > 0")
    keywords = page.eval_on_selector_all("#shade .hl-keyword", "els => els.map(e => e.textContent)")
    assert {"ДЛЯ", "ВЫПОЛНЯТЬ", "ЕСЛИ", "ТО"} <= set(keywords)


def test_a_program_reads_its_input(page):
    program(page, "ПРОЧЕСТЬ n\ns := 0\nДЛЯ i := 1 ДО n ВЫПОЛНЯТЬ s := s + i ВЕРНУТЬСЯ\nСООБЩИТЬ 'сумма:', s\n", "100\n")
    out, err, status = run(page)
    assert (out, err) == ("сумма: 5050\n", "") and status.startswith("код выхода 0")


def test_an_error_shows_its_caret_as_on_the_command_line(page):
    program(page, "x := 1\nСООБЩИТЬ x / 0\n")
    out, err, status = run(page)
    assert out == ""
    assert err.splitlines()[:3] == ["программа.pseudo:2:10: ошибка: деление на ноль",
                                    "    2 | СООБЩИТЬ x / 0", "      |          ^~~~~"]
    assert status.startswith("код выхода 70")


def test_stop_ends_an_endless_loop_with_the_languages_message(page):
    assert page.evaluate("crossOriginIsolated"), "the server sends COOP and COEP"
    program(page, "x := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'выполняется…'")
    page.wait_for_timeout(1500)
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert "прервано" in page.inner_text("#err") and page.inner_text("#exit").startswith("код выхода 130")
    assert "программа.pseudo:2:" in page.inner_text("#err")
    program(page, "СООБЩИТЬ 'дальше'\n")  # the worker goes on
    out, _, status = run(page)
    assert out == "дальше\n" and status.startswith("код выхода 0")


def test_a_stop_right_after_run_is_not_lost(page):
    """Stop pressed before the worker has begun the run (here it is still colouring a long
    text) stops the run as soon as it begins: exit 130, not an endless loop nobody can stop."""
    page.select_option("#examples", "")
    page.evaluate("text => { const code = document.getElementById('code'); code.value = text;"
                  " code.dispatchEvent(new Event('input')); }",
                  "СООБЩИТЬ 'строка', 1 + 2 * 3, ИСТИНА И ЛОЖЬ { комментарий }\n" * 20000)
    page.wait_for_timeout(400)  # the worker is colouring it
    page.fill("#code", "x := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    assert page.inner_text("#status") == "запускается…"
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert "прервано" in page.inner_text("#err") and page.inner_text("#exit").startswith("код выхода 130")
    program(page, "СООБЩИТЬ 'дальше'\n")  # the worker goes on
    out, _, status = run(page)
    assert out == "дальше\n" and status.startswith("код выхода 0")


def test_the_trace_page_opens_and_its_controls_move(page):
    page.select_option("#examples", "queens_recursive.pseudo")
    page.wait_for_function("document.getElementById('code').value.includes('HR (k)')")
    run(page, "#trace")
    frame = page.frame_locator("#trace-frame")
    frame.locator("body").wait_for()
    before = frame.locator("text=/шаг \\d/").first.inner_text()
    frame.get_by_role("button", name="шаг ▶").click()
    frame.get_by_role("button", name="шаг ▶").click()
    after = frame.locator("text=/шаг \\d/").first.inner_text()
    assert before != after
    page.click("#close-view")


def test_the_state_diagram_renders(page):
    page.select_option("#examples", "queens_automaton_1.pseudo")
    page.wait_for_function("document.getElementById('code').value.includes('СОК:')")
    run(page, "#graph")
    page.wait_for_selector("#diagram svg", timeout=60_000)
    texts = page.eval_on_selector_all("#diagram svg text", "els => els.map(e => e.textContent)")
    assert {"С", "СОК", "СБ", "С8"} <= set(texts)
    page.click("#close-view")


def test_the_flowchart_of_a_procedure_renders(page):
    page.select_option("#examples", "queens_recursive.pseudo")
    page.wait_for_function("document.getElementById('code').value.includes('HR (k)')")
    page.select_option("#diagram-kind", "--flowchart")
    page.fill("#proc", "HR")
    run(page, "#graph")
    page.wait_for_selector("#diagram svg", timeout=60_000)
    texts = page.eval_on_selector_all("#diagram svg text", "els => els.map(e => e.textContent)")
    assert {"HR (k)", "ДЛЯ i := 1 ДО 8", "место k, i свободно", "ДА", "НЕТ", "возврат"} <= set(texts)
    assert page.text_content("#view-title") == "Блок-схема HR"
    page.click("#close-view")
    page.select_option("#diagram-kind", "")


def test_a_link_carries_the_program(browser, site, page):
    program(page, "СООБЩИТЬ 'из ссылки'\n")
    page.click("#share")
    link = page.url
    assert "#p=" in link
    context = browser.new_context()
    offline(context, site["url"])
    other = context.new_page()
    other.goto(link)
    wait_ready(other)
    assert other.input_value("#code") == "СООБЩИТЬ 'из ссылки'\n"
    out, _, _ = run(other)
    assert out == "из ссылки\n"
    context.close()


def test_after_the_first_visit_it_works_offline(browser, site):
    context = browser.new_context()
    offline(context, site["url"])
    first = context.new_page()
    first.goto(site["url"])
    wait_ready(first)
    first.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)  # all cached
    context.set_offline(True)
    second = context.new_page()
    started = time.monotonic()
    second.goto(site["url"])
    wait_ready(second)
    cached_load = time.monotonic() - started
    out, _, _ = run(second)
    assert len(out.splitlines()) == 92
    assert cached_load < 60
    context.close()


def test_a_deep_recursion_error_is_reported_not_a_crash(page):
    program(page, "f (n) = f(n + 1)\nСООБЩИТЬ f(1)\n")
    out, err, status = run(page)
    assert "глубина рекурсии" in err and "программа.pseudo:1:" in err and status.startswith("код выхода 70")
    program(page, "x := " + "(" * 3000 + "1" + ")" * 3000 + "\nСООБЩИТЬ x\n")  # the LALR parser keeps no stack of calls
    out, err, status = run(page)
    assert (out, err) == ("1\n", "") and status.startswith("код выхода 0")
    program(page, "x := " + "(1 + " * 3000 + "1" + ")" * 3000 + "\n")  # a tree deeper than the browser's stack
    out, err, status = run(page)
    assert err.startswith("ошибка: слишком глубокая вложенность") and status.startswith("код выхода 65")
    program(page, "СООБЩИТЬ 2\n")  # and the page still runs programs
    out, err, status = run(page)
    assert (out, err) == ("2\n", "") and status.startswith("код выхода 0")


FEW = {"fox_capture.pseudo", "nim.pseudo", "queens_automaton_1.pseudo"}  # input from a file, input typed, an automaton


@pytest.mark.parametrize("name", sorted(p.name for p in PROGRAMS.glob("*.pseudo") if LONG or p.name in FEW))
def test_every_example_runs_as_on_the_command_line(page, name):
    from conftest import cli
    page.select_option("#examples", name)
    page.wait_for_function(f"document.getElementById('examples').value === {name!r}")
    page.wait_for_timeout(300)
    out, _, _ = run(page, timeout=600_000)
    stdin = page.input_value("#stdin")
    expected = cli("run", "-q", str(PROGRAMS / name), stdin=stdin)
    assert out == expected.stdout


class PlainHandler(http.server.SimpleHTTPRequestHandler):
    """`python3 -m http.server`: no COOP and COEP headers."""

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def plain(site, tmp_path_factory):
    """A site of its own on Python's plain static server."""
    folder = tmp_path_factory.mktemp("plain")
    build.build(folder, say=lambda _: None)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(PlainHandler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield {"url": f"http://127.0.0.1:{httpd.server_address[1]}/", "folder": folder}
    httpd.shutdown()


def test_a_plain_static_server_runs_it_and_stop_starts_the_runtime_again(browser, plain):
    context = browser.new_context()
    offline(context, plain["url"])
    page = context.new_page()
    page.goto(plain["url"])
    wait_ready(page)
    assert not page.evaluate("crossOriginIsolated")
    out, _, _ = run(page)
    assert len(out.splitlines()) == 92
    program(page, "x := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")  # never the same state: Stop ends it
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click("#run")
    page.wait_for_timeout(500)
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert page.inner_text("#exit").startswith("код выхода 130") and "загружается заново" in page.inner_text("#err")
    wait_ready(page)
    program(page, "СООБЩИТЬ 'снова'\n")
    assert run(page)[0] == "снова\n"
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
