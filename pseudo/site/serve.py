"""A small web server for the playground on this computer: `pseudo site serve DIR`, or
`python3 serve.py` inside a built site. It is Python's own http.server plus the two headers
(COOP and COEP) that let the page use SharedArrayBuffer, which the Stop button needs; any
other static server works too, without Stop interrupting a running program gently.
Standard library only: the file is copied into every built site."""
from __future__ import annotations

import argparse
import functools
import http.server
import sys
from pathlib import Path
from typing import ClassVar

from ..files import io_words


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".whl": "application/zip", ".zip": "application/zip", ".json": "application/json"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code="-", size="-"):  # quiet: only what went wrong
        if str(code).startswith(("4", "5")):
            super().log_request(code, size)


def server(folder: Path, port: int = 8000, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    handler = functools.partial(Handler, directory=str(folder))
    return http.server.ThreadingHTTPServer((host, port), handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Показать песочницу pseudo в браузере на этом компьютере.")
    parser.add_argument("folder", nargs="?", default=str(Path(__file__).resolve().parent), metavar="ПАПКА")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    return serve(Path(args.folder), args.port)


def serve(folder: Path, port: int) -> int:
    if not (folder / "index.html").is_file():
        print(f"ошибка: в {folder} нет песочницы; соберите её: pseudo site build {folder}", file=sys.stderr)
        return 64
    try:
        httpd = server(folder, port)
    except OSError as e:
        print(f"ошибка: порт {port} занят или недоступен ({io_words(e)}); выберите другой: --port 8001", file=sys.stderr)
        return 69
    print(f"песочница: http://127.0.0.1:{httpd.server_address[1]}/  (остановить — Ctrl-C)", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
