"""The fuzz harness (tests/fuzz.py) in the test suite: a short derandomized profile on every
run, the long one with PSEUDO_LONG=1, and every failure it ever found kept as a case."""
from __future__ import annotations

import json
from pathlib import Path

import fuzz
import pytest
from conftest import LONG

COUNT = 20_000 if LONG else 250
CASES = sorted((Path(__file__).parent / "fuzz_cases").glob("*.json"))


def test_the_short_profile_holds_the_oracle():
    """Mutated programs, token soups, grammar-shaped programs, hostile names and comments,
    deep nesting: through check, the interpreter, the compiled program, the exact code and the
    emitted file (every 300th also by a separate python3)."""
    failures = []
    for i, (text, stdin) in enumerate(fuzz.inputs(12_345, COUNT), start=1):
        verdict = fuzz.judge(text, stdin, subprocess_too=i % 300 == 0, cache_too=i % 25 == 0)
        if not verdict.ok:
            failures.append((verdict.kind, verdict.detail[-400:], text[:300], stdin))
    assert not failures, failures[:3]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_failure_once_found_stays_fixed(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    verdict = fuzz.judge(case["text"], case["stdin"], subprocess_too=True, cache_too=True)
    assert verdict.ok, (verdict.kind, verdict.detail)


def test_the_oracle_can_fail(monkeypatch):
    """The harness is not a check that always passes: a mode that prints otherwise, an
    emitted file that runs something else (a canary appears), a crash — each is caught."""
    good = fuzz.judge("СООБЩИТЬ 1\n", "")
    assert good.ok and good.outcomes["emitted"] == good.outcomes["readable"] == ("1\n", None, 0)
    real = fuzz.outcome_of
    monkeypatch.setattr(fuzz, "outcome_of", lambda loaded, stdin, mode: (
        ("2\n", None, 0) if mode == "exact" else real(loaded, stdin, mode)))
    assert fuzz.judge("СООБЩИТЬ 1\n", "").kind == "disagree"
    monkeypatch.setattr(fuzz, "outcome_of", real)

    def sneaky(loaded, stdin, workdir, limits):
        (workdir / fuzz.CANARY).write_text("")
        return "1\n", None, 0
    monkeypatch.setattr(fuzz, "emitted_outcome", sneaky)
    assert fuzz.judge("СООБЩИТЬ 1\n", "").kind == "canary"

    def crash(loaded, stdin, mode):
        raise KeyError("internal")
    monkeypatch.setattr(fuzz, "outcome_of", crash)
    assert fuzz.judge("СООБЩИТЬ 1\n", "").kind == "crash"


def test_the_cache_oracle_can_fail(monkeypatch, tmp_path):
    """A cache that prunes the folder PSEUDO_CACHE_DIR names, as it once did, is caught: some
    hostile folder loses a file of the user's. The cache as it is loses none."""
    import os
    import random

    from pseudo import cache

    def verdicts():
        for seed in range(12):
            work = tmp_path / f"{len(list(tmp_path.iterdir()))}"
            work.mkdir()
            yield fuzz.judge_cache("СООБЩИТЬ 1\n", "", work, random.Random(seed))
    assert all(v.ok for v in verdicts())
    monkeypatch.setattr(cache, "folder", lambda: None if os.environ.get("PSEUDO_NO_CACHE") else
                        os.environ.get("PSEUDO_CACHE_DIR"))
    monkeypatch.setattr(cache, "_owned", lambda where: True)
    assert any(v.kind == "cache" and "not its own" in v.detail for v in verdicts())
