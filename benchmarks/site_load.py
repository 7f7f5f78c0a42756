"""How long the playground takes to load: a first visit (nothing cached) and a return visit
(from the service worker's cache), each timed to «готово», in headless Chromium.

    python3 benchmarks/site_load.py SITE [SITE …] [--visits N]

Each SITE is a folder `pseudo site build` wrote; it is served by `pseudo site serve`'s own
server on this computer (COOP and COEP sent). Several sites are visited in turn (A B A B …),
so that a machine whose load drifts still compares them fairly. Every visit opens a fresh
browser profile; requests that leave the site are refused. Printed for each site: the size of
the folder, then the median and the range of N first visits and N return visits, in seconds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
READY = "document.getElementById('status').textContent.startsWith('готово')"


def visit(browser, url: str) -> tuple[float, float]:
    """A first visit and a return visit of a fresh profile: seconds to «готово»."""
    context = browser.new_context()
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url) else route.abort())
    times = []
    for _ in range(2):
        page = context.new_page()
        started = time.monotonic()
        page.goto(url)
        page.wait_for_function(READY, timeout=120_000)
        times.append(time.monotonic() - started)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        page.close()
    context.close()
    return times[0], times[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", metavar="SITE")
    parser.add_argument("--visits", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from playwright.sync_api import sync_playwright

    from pseudo.site import serve
    servers, urls = [], []
    for site in args.sites:
        httpd = serve.server(Path(site), 0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers.append(httpd)
        urls.append(f"http://127.0.0.1:{httpd.server_address[1]}/")
    first: dict[str, list[float]] = {u: [] for u in urls}
    again: dict[str, list[float]] = {u: [] for u in urls}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for _ in range(args.visits):
                for url in urls:
                    a, b = visit(browser, url)
                    first[url].append(a)
                    again[url].append(b)
            browser.close()
    finally:
        for httpd in servers:
            httpd.shutdown()
    for site, url in zip(args.sites, urls):
        size = sum(p.stat().st_size for p in Path(site).rglob("*") if p.is_file())
        print(f"{site}: {size:,} bytes")
        for name, times in (("first visit", first[url]), ("return visit", again[url])):
            print(f"  {name}: median {statistics.median(times):.2f} s (from {min(times):.2f} to {max(times):.2f}, "
                  f"{len(times)} visits)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
