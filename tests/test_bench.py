"""benchmarks/bench.py's yardsticks: each plain-Python twin prints what the program it stands
for prints (bench.py also compares them at every run, and refuses to time a twin that does
not), and so does each program written by hand in the book's shape (benchmarks/shapes/) or
with the book's loops written out (benchmarks/written_out/);
each target is printed beside its figure."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest
from conftest import LONG, ROOT

import pseudo
from pseudo.frontend.source import Source

sys.path.insert(0, str(ROOT / "benchmarks"))
import bench

SLOW = set() if LONG else {"knight 5×5 count"}  # seconds each way: in the long profile, and at every bench run


@pytest.mark.parametrize("name, path, stdin, twin", [
    pytest.param(*w, marks=pytest.mark.skipif(w[0] in SLOW, reason="long profile (PSEUDO_LONG=1)"))
    for w in bench.WORKLOADS], ids=[w[0] for w in bench.WORKLOADS])
def test_each_twin_prints_what_its_program_prints(name, path, stdin, twin):
    text = bench.LOOP if path is None else path.read_text(encoding="utf-8")
    loaded = pseudo.load(Source(text, "loop.pseudo" if path is None else str(path)))
    out = io.StringIO()
    pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out)
    result = subprocess.run([sys.executable, str(bench.TWINS / twin)], input=stdin, capture_output=True, text=True,
                            encoding="utf-8", check=True)
    assert result.stdout == out.getvalue() != ""


@pytest.mark.parametrize("folder, name, stdin, twin", [
    pytest.param(folder, name, stdin, twin,
                 marks=pytest.mark.skipif(name in SLOW, reason="long profile (PSEUDO_LONG=1)"))
    for folder in (bench.SHAPES, bench.WRITTEN_OUT)
    for name, _, stdin, twin in bench.WORKLOADS if (folder / twin).exists()])
def test_each_book_shaped_program_prints_what_its_twin_prints(folder, name, stdin, twin):
    def output(folder):
        return subprocess.run([sys.executable, str(folder / twin)], input=stdin, capture_output=True, text=True,
                              encoding="utf-8", check=True).stdout
    assert output(folder) == output(bench.TWINS) != ""


def test_a_figure_is_printed_beside_its_target():
    assert bench.target("pseudo run", "peg solitaire") == 1.6 and bench.target("pseudo run", "queens") is None
    assert bench.target("emitted .py", "queens") == 1.1 and bench.target("emitted .py --limits", "loop 100k") == 1.5
    assert bench.verdict(1.58, 1.6) == "≤ 1.6× ✓" and bench.verdict(1.62, 1.6) == "≤ 1.6× ✗"
    assert bench.verdict(3.0, None) == ""
    assert bench.target("error report") == 1.0 and bench.verdict(0.4, 1.0, " s") == "≤ 1 s ✓"
