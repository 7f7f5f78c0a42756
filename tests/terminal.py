"""A real terminal for the tests: a detached tmux session of a fixed size, and its screen."""
from __future__ import annotations

import itertools
import os
import shlex
import shutil
import subprocess
import time

import pytest

DONE = "ЗАВЕРШЕНО"
_ids = itertools.count()


def require_tmux() -> None:
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):
            pytest.fail("tmux не установлен, а тесты экрана в CI обязательны")
        pytest.skip("нет tmux")


class Terminal:
    """Runs a command in a tmux pane of `width` × `height` and reads what the pane shows."""

    def __init__(self, argv: list[str], width: int = 80, height: int = 24, cwd: str | None = None):
        require_tmux()
        self.socket = f"pseudo-test-{os.getpid()}-{next(_ids)}"
        command = f"{shlex.join(argv)}; code=$?; echo; echo {DONE} $code; sleep 600"
        self.started = time.monotonic()
        where = ["-c", cwd] if cwd else []
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "t",
                        "-x", str(width), "-y", str(height), *where, command], check=True)

    def screen(self) -> list[str]:
        out = subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-t", "t"],
                             capture_output=True, text=True, check=True).stdout
        return out.split("\n")

    def send(self, *keys: str) -> None:
        """Keys as tmux names them: text, "Enter", "Up", "C-c"."""
        subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "t", *keys], check=True)

    def wait_for(self, text: str, timeout: float = 30) -> list[str]:
        """The screen, once it shows `text`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            lines = self.screen()
            if text in "\n".join(lines):
                return lines
            time.sleep(0.05)
        raise AssertionError(f"на экране нет «{text}»:\n" + "\n".join(self.screen()))

    def wait(self, timeout: float = 60) -> tuple[list[str], int, float]:
        """The final screen (without the exit line), the exit code and the seconds it took."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            lines = self.screen()
            for i, line in enumerate(lines):
                if line.startswith(DONE + " "):
                    elapsed = time.monotonic() - self.started
                    return lines[:i], int(line.split()[1]), elapsed
            time.sleep(0.05)
        raise AssertionError("программа в терминале не завершилась:\n" + "\n".join(self.screen()))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], check=False, capture_output=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
