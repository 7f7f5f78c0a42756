"""The playground as the tests use it: the site built once, its servers (`pseudo site serve`'s,
with COOP and COEP, and a plain static one), Chromium offline, and a pupil's hands — keys
typed into the editor and into the program's input line, buttons clicked — and a terminal to
compare a game with (a pseudo-terminal, as `pseudo run` in a terminal window has)."""
from __future__ import annotations

import functools
import http.server
import os
import pty
import select
import shutil
import subprocess
import threading
import time
from pathlib import Path

from conftest import ROOT

from pseudo.site import build, serve

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
ARTIFACTS = ROOT / "tests" / "artifacts"
# The screenshots of docs/playground.md are remade with PSEUDO_SCREENSHOTS=1; a plain test run
# leaves the checkout as it was and writes them with the other artifacts.
IMAGES = ROOT / "docs" / "images" if os.environ.get("PSEUDO_SCREENSHOTS") else ARTIFACTS


def _cached(name: str, version: str) -> bool:
    return (build.cache_folder() / f"{name.lstrip('@').replace('/', '+')}-{version}" / "package").is_dir()


def why_not() -> str | None:
    """Why the site cannot be built and shown here, or None."""
    from pseudo.site.editor import CODEMIRROR
    packages = [build.PYODIDE, build.VIZ, *CODEMIRROR]
    if not shutil.which("npm") and not all(_cached(*p) for p in packages):
        where = "CI has no npm (.ci/run installs it with apt as root)" if os.environ.get("CI") else "npm is not installed"
        return f"{where} and the packages are not in the cache {build.cache_folder()}: the playground cannot be built"
    if not Path(CHROMIUM).exists():
        return "chromium is not installed (apt install chromium)"
    return None


def start(folder: Path, plain: bool = False) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve a built site: `pseudo site serve`'s server, or (plain) Python's without COOP and COEP."""
    if plain:
        class Plain(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Plain, directory=str(folder)))
    else:
        httpd = serve.server(folder, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def offline(context, url):
    """Refuse every request that leaves the site."""
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url)
                  else route.abort())


def open_page(browser, url, **options):
    """A new profile's page on the site, offline, once the runtime is ready; its page errors in `.errors`."""
    context = browser.new_context(**options)
    offline(context, url)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(e))
    started = time.monotonic()
    page.goto(url)
    wait_ready(page)
    page.loaded_in = time.monotonic() - started
    return page


def wait_ready(page, timeout=120_000):
    page.wait_for_function("document.getElementById('status').textContent.startsWith('готово')", timeout=timeout)


def eventually(page, expression, timeout=60):
    """Wait until a JavaScript expression (a promise too) is true."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        page.wait_for_timeout(100)


# ---- a pupil's hands ----

def type_program(page, text: str) -> None:
    """Clear the editor and type the program, line by line, as a pupil types it: Enter keeps the
    line's indentation (the editor's rule), which the next line's own indentation replaces."""
    page.click(".cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    indent = ""
    for k, line in enumerate(text.split("\n")):
        if k:
            page.keyboard.press("Enter")
            if indent:
                page.keyboard.press("Shift+Home")
                page.keyboard.press("Delete")
        page.keyboard.type(line)
        indent = line[:len(line) - len(line.lstrip())]


def type_input(page, text: str) -> None:
    """Type the text into the input box («Ввод заранее»), opening it first."""
    if not page.evaluate("document.getElementById('input-box').open"):
        page.click("#input-box summary")
    page.click("#stdin")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type(text)


def program(page, text: str, stdin: str = "") -> None:
    """A program of the pupil's own, with the input box's text (typed there only if it is not
    that already: the cursor stays in the editor otherwise)."""
    page.select_option("#examples", "")
    if page.input_value("#stdin") != stdin:
        type_input(page, stdin)
    type_program(page, text)


def editor_text(page) -> str:
    """The editor's lines as shown (without the empty last line a text ending in "\n" has)."""
    return page.inner_text(".cm-content").rstrip("\n")


def run(page, button="#run", timeout=120_000):
    """Click and wait for the exit code: (output, messages, the exit line)."""
    page.evaluate("document.getElementById('exit').textContent = ''")
    page.click(button)
    page.wait_for_function("document.getElementById('exit').textContent.length > 0", timeout=timeout)
    return page.inner_text("#out"), page.inner_text("#err"), page.inner_text("#exit")


ASKED = "!document.querySelector('#out input.typed').hidden"
ENDED = "document.getElementById('exit').textContent.length > 0"


def wait_asked(page, timeout=60_000) -> None:
    """Until the program waits for a typed line (the input line is shown; Enter hides it at once)."""
    page.wait_for_function(ASKED, timeout=timeout)


def play(page, lines: list[str], timeout=60_000) -> list[str]:
    """Answer each question of a running program with the next line, typed into the output's
    input line, until the program ends; the lines typed."""
    typed = []
    lines = list(lines)
    while True:
        page.wait_for_function(f"{ASKED} || {ENDED}", timeout=timeout)
        if page.evaluate(ENDED):
            return typed
        assert page.inner_text("#status") == "ждёт ввода"
        assert page.evaluate("document.activeElement.matches('#out input.typed')"), "the cursor is on the input line"
        line = lines.pop(0)
        page.keyboard.type(line)
        page.keyboard.press("Enter")
        typed.append(line)


# ---- a terminal ----

def terminal(argv: list[str], lines: list[str], timeout: float = 60) -> str:
    """What a terminal window shows for `argv` with a person typing `lines`, each when the program
    waits to read the terminal: the screen's text, its line ends made "\n"."""
    main, child = pty.openpty()
    process = subprocess.Popen(argv, stdin=child, stdout=child, stderr=child, cwd=ROOT, close_fds=True,
                               env=dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm"))
    os.close(child)
    shown, lines, deadline = b"", list(lines), time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.05)
            if ready:
                try:
                    data = os.read(main, 65536)
                except OSError:  # the program has ended: its side of the terminal is closed
                    break
                if not data:
                    break
                shown += data
            elif process.poll() is not None:
                break
            elif lines and _reads_the_terminal(process.pid):
                os.write(main, (lines.pop(0) + "\n").encode("utf-8"))
    finally:
        process.kill()
        process.wait()
        os.close(main)
    return shown.decode("utf-8").replace("\r\n", "\n")


def _reads_the_terminal(pid: int) -> bool:
    """Is one of the process's threads asleep in a read of its terminal (Linux: /proc/…/wchan)?"""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        return any(Path(f"/proc/{pid}/task/{t}/wchan").read_text() in ("wait_woken", "n_tty_read") for t in tasks)
    except OSError:
        return False
