"""The trace page in a real headless Chromium: step forward and back, check the highlighted
line and a variable's shown value; a screenshot is kept in tests/artifacts/."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from conftest import ROOT, cli

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = ROOT / "tests" / "artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium for the trace page tests (.ci/run installs it)")
    pytest.skip("chromium is not installed", allow_module_level=True)

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def page_for(browser, program: str, tmp_path, max_events: int):
    html = tmp_path / f"{Path(program).stem}.html"
    result = cli("trace", "--html", "--max-events", str(max_events), "-o", str(html), program)
    assert result.returncode == 0, result.stderr
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    page.goto(html.as_uri())
    return page


def current_line(page) -> int:
    return int(page.get_attribute("#source .current", "data-line"))


def shown(page, name: str) -> str:
    return page.text_content(f'#vars tr[data-name="{name}"] td.value')


def test_step_forward_and_back(browser, tmp_path):
    page = page_for(browser, "programs/queens_recursive.pseudo", tmp_path, 20_000)
    assert page.text_content("#step") == "1"
    assert current_line(page) == 47  # инициализировать игру
    page.keyboard.press("ArrowRight")  # into the phrase: ДЛЯ j := 1 ДО 8
    page.keyboard.press("ArrowRight")  # кол[j] := ИСТИНА
    assert page.text_content("#step") == "3"
    assert current_line(page) == 41
    assert "«инициализировать игру»" in page.text_content("#stack")
    assert shown(page, "j") == "1"  # the values the highlighted statement will see
    page.click("#next")
    page.click("#next")
    assert page.text_content("#step") == "5"
    assert shown(page, "j") == "3" and shown(page, "кол[2]") == "ИСТИНА"
    assert "changed" in page.get_attribute('#vars tr[data-name="кол[2]"]', "class")  # by the previous statement
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#step") == "4"
    assert shown(page, "j") == "2"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "trace_queens_recursive.png"))


def test_automaton_state_and_output(browser, tmp_path):
    page = page_for(browser, "programs/queens_automaton_2.pseudo", tmp_path, 100_000)
    page.click("#last")
    assert page.text_content("#state") in {"С", "И", "СОК", "СБ", "С8"}
    assert page.text_content("#output").startswith("1 5 8 6 3 7 2 4\n")
    page.screenshot(path=str(ARTIFACTS / "trace_queens_automaton_2.png"))


def test_a_trace_of_100000_events_stays_usable(browser, tmp_path):
    start = time.monotonic()
    page = page_for(browser, "programs/queens_automaton_2.pseudo", tmp_path, 100_000)
    total = int(page.text_content("#total"))
    assert total > 30_000
    page.fill("#slider", str(total // 2))
    page.dispatch_event("#slider", "input")
    assert page.text_content("#step") == str(total // 2 + 1)
    page.keyboard.press("ArrowRight")
    assert page.text_content("#step") == str(total // 2 + 2)
    assert time.monotonic() - start < 60


def test_parameters_show_and_leave_with_their_call(browser, tmp_path):
    page = page_for(browser, "programs/queens_recursive.pseudo", tmp_path, 20_000)
    for _ in range(60):  # into HR(1)
        page.keyboard.press("ArrowRight")
        if "HR(1)" in page.text_content("#stack"):
            break
    assert shown(page, "k") == "1" and "local" in page.get_attribute('#vars tr[data-name="k"]', "class")
