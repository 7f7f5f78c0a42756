"""The playground (`pseudo site build`) in a real headless Chromium, offline: the site is built
once into a temporary folder, served by `pseudo site serve`'s server, and every request that
leaves it is refused. Needs npm (or Pyodide and @viz-js/viz already in the cache
~/.cache/pseudo); without it the module is skipped and says why. The screenshot is written to
tests/artifacts/site_queens.png."""
from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from conftest import PROGRAMS, ROOT

from pseudo.site import build, serve

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
ARTIFACTS = ROOT / "tests" / "artifacts"


def _cached(name: str, version: str) -> bool:
    return (build.cache_folder() / f"{name.lstrip('@').replace('/', '+')}-{version}" / "package").is_dir()


if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed", allow_module_level=True)
if not shutil.which("npm") and not (_cached(*build.PYODIDE) and _cached(*build.VIZ)):
    pytest.skip("npm is not installed and Pyodide is not in the cache: the playground cannot be built "
                "(apt install npm)", allow_module_level=True)
sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    done = build.build(folder, PROGRAMS, say=lambda _: None)
    httpd = serve.server(folder, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield {**done, "url": f"http://127.0.0.1:{httpd.server_address[1]}/", "folder": folder}
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
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
    page.wait_for_timeout(1500)
    page.click("#stop")
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=30_000)
    assert "прервано" in page.inner_text("#err") and page.inner_text("#exit").startswith("код выхода 130")
    assert "программа.pseudo:2:" in page.inner_text("#err")
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
    first.wait_for_function("navigator.serviceWorker.controller !== null || "
                            "navigator.serviceWorker.ready.then(() => true)", timeout=60_000)
    first.wait_for_function("caches.keys().then(k => k.length > 0)", timeout=60_000)
    first.wait_for_timeout(1000)
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
    program(page, "x := " + "(" * 3000 + "1" + ")" * 3000 + "\n")  # deeper than the browser's stack
    out, err, status = run(page)
    assert err.startswith("ошибка: слишком глубокая вложенность") and status.startswith("код выхода 65")
    program(page, "СООБЩИТЬ 2\n")  # and the page still runs programs
    out, err, status = run(page)
    assert (out, err) == ("2\n", "") and status.startswith("код выхода 0")


@pytest.mark.parametrize("name", sorted(p.name for p in PROGRAMS.glob("*.pseudo")))
def test_every_example_runs_as_on_the_command_line(page, name):
    from conftest import cli
    page.select_option("#examples", name)
    page.wait_for_function(f"document.getElementById('examples').value === {name!r}")
    page.wait_for_timeout(300)
    out, _, _ = run(page, timeout=600_000)
    stdin = page.input_value("#stdin")
    expected = cli("run", "-q", str(PROGRAMS / name), stdin=stdin)
    assert out == expected.stdout
