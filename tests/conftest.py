"""Shared helpers: run a program from text or a file and capture what a user would see."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import pseudo
from pseudo.compiled import run_compiled
from pseudo.errors import PseudoError, PseudoRuntimeError, StaticError
from pseudo.runtime import Limits
from pseudo.source import Source

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "programs"


@dataclass
class Outcome:
    stdout: str
    warnings: list = field(default_factory=list)
    error: PseudoError | None = None

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def run_source(source: Source, stdin: str = "", limits: Limits | None = None, compiled: bool = False) -> Outcome:
    out = io.StringIO()
    try:
        loaded = pseudo.load(source)
    except StaticError as e:
        return Outcome("", [], e)
    try:
        if compiled:
            run_compiled(loaded.program, loaded.main_file, loaded.sources, stdin=io.StringIO(stdin), stdout=out,
                         limits=limits)
        else:
            pseudo.run(loaded.program, stdin=io.StringIO(stdin), stdout=out, limits=limits)
    except PseudoRuntimeError as e:
        return Outcome(out.getvalue(), loaded.warnings, e)
    return Outcome(out.getvalue(), loaded.warnings)


def run_text(text: str, stdin: str = "", filename: str = "t.pseudo", limits: Limits | None = None,
             compiled: bool = False) -> Outcome:
    return run_source(Source(text, filename), stdin, limits, compiled)


def run_file(path: Path, stdin: str = "", limits: Limits | None = None, compiled: bool = False) -> Outcome:
    return run_source(Source.from_file(path), stdin, limits, compiled)


def cli(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the `pseudo` command as a user would, in a child process."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "pseudo", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, env=env, cwd=ROOT, check=False)


class Opponent:
    """Standard input for a game: first the given lines, then each line from `answer()`,
    which sees the output printed so far (a player answering the program's prompts)."""

    def __init__(self, first_lines: list[str], output: io.StringIO):
        self.pending, self.output = list(first_lines), output

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        return self.pending.pop(0) if self.pending else self.answer()

    def answer(self) -> str:
        raise NotImplementedError


@pytest.fixture
def programs() -> Path:
    return PROGRAMS


@contextmanager
def compilations(module, name: str):
    """Replace `module.name` (compile_pure, compile_block) by a spy; yields, for each call,
    whether it compiled (returned something other than None)."""
    made: list[bool] = []
    original = getattr(module, name)

    def spy(*args):
        result = original(*args)
        made.append(result is not None)
        return result
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, name, spy)
        yield made
