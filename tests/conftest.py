"""Shared helpers: run a program from text or a file and capture what a user would see."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import pseudo
from pseudo.errors import PseudoError, PseudoRuntimeError, StaticError
from pseudo.frontend.source import Source
from pseudo.runtime import Limits

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


@pytest.fixture(autouse=True, scope="session")
def _program_cache(tmp_path_factory):
    """`pseudo run` in the tests keeps its compiled programs (pseudo/cache.py) in a folder of
    the test session's, not in the user's cache."""
    earlier = os.environ.get("PSEUDO_CACHE_DIR")
    os.environ["PSEUDO_CACHE_DIR"] = str(tmp_path_factory.mktemp("program-cache"))
    yield
    if earlier is None:
        os.environ.pop("PSEUDO_CACHE_DIR", None)
    else:
        os.environ["PSEUDO_CACHE_DIR"] = earlier


MODES = ["interpret", "compiled", "exact"]  # the ways a program runs in this process (exact: no fast code)
LONG = bool(os.environ.get("PSEUDO_LONG"))
IN_SDIST = bool(os.environ.get("PSEUDO_IN_SDIST"))  # set for the suite run inside the unpacked sdist
# The same for a search the interpreter takes a quarter of a minute over: interpreted in the long
# profile, which .ci/run also runs for these; compiled and exact in every profile.
MODES_OF_A_LONG_SEARCH = [
    pytest.param("interpret", marks=pytest.mark.skipif(
        not LONG, reason="long profile (PSEUDO_LONG=1, run by .ci/run): the search interpreted")),
    "compiled", "exact"]


def run_source(source: Source, stdin: str = "", limits: Limits | None = None, mode: str = "interpret") -> Outcome:
    out = io.StringIO()
    try:
        loaded = pseudo.load(source)
    except StaticError as e:
        return Outcome("", [], e)
    try:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, limits=limits, mode=mode)
    except PseudoRuntimeError as e:
        return Outcome(out.getvalue(), loaded.warnings, e)
    return Outcome(out.getvalue(), loaded.warnings)


def run_text(text: str, stdin: str = "", filename: str = "t.pseudo", limits: Limits | None = None,
             mode: str = "interpret") -> Outcome:
    return run_source(Source(text, filename), stdin, limits, mode)


def run_file(path: Path, stdin: str = "", limits: Limits | None = None, mode: str = "interpret") -> Outcome:
    return run_source(Source.from_file(path), stdin, limits, mode)


def run_emitted_here(text: str, path: Path, stdin: str = "", limits: Limits | None = None,
                     compiled=None) -> tuple[str, str, int]:
    """An emitted file's text run in this process, as `python3 path` would run it (faster than a
    new process): its output, its error report and its exit code. `compiled`: its code, if
    compiled already (tests/fuzz.py compiles it on a deep stack)."""
    import types
    path.write_text(text, encoding="utf-8")  # a readable file's exact code is made from it
    module = types.ModuleType("pseudo_emitted")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module  # as for a script: its classes look their module up
    try:
        exec(compiled or compile(text, str(path), "exec"), module.__dict__)  # noqa: S102 - the file under test
    finally:
        del sys.modules[module.__name__]
    namespace = module.__dict__
    runtime = next(v for v in namespace.values() if isinstance(v, dict) and "run_emitted" in v)
    table = {**runtime["ПРОГРАММА"], "code_file": str(path)}
    machine = table["machine"]
    out, err = io.StringIO(), io.StringIO()
    code = runtime["run_emitted"](namespace[machine.get("главная", "главная")], table,
                                  namespace.get(machine.get("ОСТАЛЬНОЕ", "ОСТАЛЬНОЕ")),
                                  namespace[machine.get("СРЕДА_ПОТОМ", "СРЕДА_ПОТОМ")], limits or Limits(),
                                  io.StringIO(stdin), out, err)
    return out.getvalue(), err.getvalue(), code


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

    def readline(self, size=-1) -> str:
        return self.pending.pop(0) if self.pending else self.answer()

    def answer(self) -> str:
        raise NotImplementedError


def lines_until_input_ends(loaded, stdin: str, mode: str) -> list[str]:
    """The lines a game prints until its input ends (the player leaves), which must be the only
    error that stops it."""
    out = io.StringIO()
    with pytest.raises(PseudoRuntimeError) as stop:
        pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, mode=mode)
    assert stop.value.code == "read-eof", stop.value.render()
    return out.getvalue().splitlines()


@pytest.fixture
def programs() -> Path:
    return PROGRAMS
