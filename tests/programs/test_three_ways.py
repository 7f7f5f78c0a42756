"""Every program of programs/ runs three ways — interpreted, compiled in memory, and as the
emitted file under a separate python3 — with the same output, messages and exit code."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import PROGRAMS, ROOT, cli

ALL = sorted(p for p in PROGRAMS.glob("*.pseudo"))
LONG = bool(os.environ.get("PSEUDO_LONG"))
# Interpreted, these take a quarter of a minute each; their interpreted output is compared with
# the reference solver in their own tests (test_pentomino, test_peg_solitaire) in every profile.
SLOW_INTERPRETED = set() if LONG else {"pentomino", "peg_solitaire"}
INPUTS = {  # program → its standard input, for the programs that read one
    "signed_sum_iterative": "6\n3 5 7 2 8 1\n4\n",
    "signed_sum_recursive": "6\n3 5 7 2 8 1\n4\n",
    "knight_tour": "8 1 1 1\n",
    "northcott": "3 8\n1 8\n2 5\n1 3\n0\n" + "1 1\n2 1\n3 1\n1 2\n2 2\n3 2\n" * 10,
    "sim": "1\n" + "".join(f"{a} {b}\n" for a in range(1, 6) for b in range(a + 1, 7)),
    "pentomino": "3 20 0\n",
    "peg_solitaire": "0\n",
    "fox_capture": (PROGRAMS / "fox_capture.txt").read_text(encoding="utf-8"),
    "nim": "3 4 5 6 1\n" + "1 1\n2 1\n3 1\n4 1\n" * 12,  # the player tries each heap in turn
}


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_three_ways_agree(path, tmp_path):
    stdin = INPUTS.get(path.stem, "")
    compiled = cli("run", "-q", str(path), stdin=stdin)
    interpreted = compiled if path.stem in SLOW_INTERPRETED else cli("run", "-q", "--interpret", str(path), stdin=stdin)
    out = tmp_path / f"{path.stem}.py"
    assert cli("py", str(path), "-o", str(out)).returncode == 0
    emitted = subprocess.run([sys.executable, str(out)], input=stdin, capture_output=True, text=True,
                             encoding="utf-8", cwd=ROOT, check=False, timeout=120)
    assert interpreted.returncode == compiled.returncode == emitted.returncode
    assert interpreted.stdout == compiled.stdout == emitted.stdout
    assert interpreted.stderr == compiled.stderr == emitted.stderr
    assert interpreted.stdout, "the program printed nothing"
