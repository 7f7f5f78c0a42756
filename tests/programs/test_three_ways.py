"""Every program of programs/ runs three ways — interpreted, compiled in memory, and as the
emitted file under a separate python3, readable and with limits — with the same output,
messages and exit code."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import LONG, PROGRAMS, ROOT, cli

from pseudo.site.examples import EXAMPLE_INPUTS

ALL = sorted(p for p in PROGRAMS.glob("*.pseudo"))
# Interpreted, these take a quarter of a minute each; their interpreted output is compared with
# the reference solver in their own tests (test_pentomino, test_peg_solitaire) in the long
# profile, which .ci/run runs for them.
SLOW_INTERPRETED = set() if LONG else {"pentomino", "peg_solitaire"}
INPUTS = EXAMPLE_INPUTS | {"fox_capture": (PROGRAMS / "fox_capture.txt").read_text(encoding="utf-8")}


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_three_ways_agree(path, tmp_path):
    stdin = INPUTS.get(path.stem, "")
    compiled = cli("run", "-q", str(path), stdin=stdin)
    interpreted = compiled if path.stem in SLOW_INTERPRETED else cli("run", "-q", "--interpret", str(path), stdin=stdin)
    emitted = []
    for flags in ([], ["--limits"]):
        out = tmp_path / f"{path.stem}{'_limits' if flags else ''}.py"
        assert cli("py", *flags, str(path), "-o", str(out)).returncode == 0
        emitted.append(subprocess.run([sys.executable, str(out)], input=stdin, capture_output=True, text=True,
                                      encoding="utf-8", cwd=ROOT, check=False, timeout=120))
    for got in (compiled, *emitted):
        assert (got.returncode, got.stdout, got.stderr) == (interpreted.returncode, interpreted.stdout,
                                                            interpreted.stderr)
    assert interpreted.stdout, "the program printed nothing"
