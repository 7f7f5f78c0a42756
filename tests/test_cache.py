"""The cache of compiled programs (pseudo/cache.py): a second `pseudo run` of the same text
starts without the front end, and gives exactly what a run without the cache gives; anything
changed or doubtful is compiled again."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT

from pseudo import cache


def run(tmp_path, *args, stdin="", env=None, importtime=False):
    environment = {k: v for k, v in os.environ.items() if k != "PSEUDO_NO_CACHE"}
    environment.update({"PYTHONIOENCODING": "utf-8", "PSEUDO_CACHE_DIR": str(tmp_path / "cache"),
                        "PYTHONPATH": str(ROOT), **(env or {})})
    python = [sys.executable] + (["-X", "importtime"] if importtime else [])
    return subprocess.run([*python, "-m", "pseudo", "run", *args], input=stdin, capture_output=True, text=True,
                          encoding="utf-8", cwd=tmp_path, env=environment, check=False, timeout=60)


def entries(tmp_path) -> list[str]:
    """The entries of the cache of programs (not its mark)."""
    folder = tmp_path / "cache" / "programs"
    return sorted(p.name for p in folder.iterdir() if p.name != cache.TAG) if folder.exists() else []


def program(tmp_path, text: str, name: str = "p.pseudo") -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return name


def test_a_second_run_starts_without_the_front_end(tmp_path):
    name = program(tmp_path, "ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ СООБЩИТЬ i * i ВЕРНУТЬСЯ\n")
    first = run(tmp_path, name, importtime=True)
    assert first.stdout == "1\n4\n9\n" and len(entries(tmp_path)) == 1
    assert "pseudo.frontend.parser" in first.stderr  # compiled: the front end was there
    second = run(tmp_path, name, importtime=True)
    assert second.stdout == "1\n4\n9\n" and second.returncode == 0
    for stage in ("pseudo.frontend", "pseudo.analysis", "pseudo.pygen", "pseudo.interpreter"):
        assert stage not in second.stderr


def test_a_changed_program_or_a_changed_used_file_is_compiled_again(tmp_path):
    program(tmp_path, "«удвоить (x)» = 2 * x\n", "lib.pseudo")
    name = program(tmp_path, "ИСПОЛЬЗОВАТЬ 'lib.pseudo'\nСООБЩИТЬ удвоить 21\n")
    assert run(tmp_path, name).stdout == "42\n"
    program(tmp_path, "«удвоить (x)» = 3 * x\n", "lib.pseudo")
    assert run(tmp_path, name).stdout == "63\n"
    program(tmp_path, "ИСПОЛЬЗОВАТЬ 'lib.pseudo'\nСООБЩИТЬ удвоить 1\n")
    assert run(tmp_path, name).stdout == "3\n"
    assert len(entries(tmp_path)) == 2  # one per text of the main file


@pytest.mark.parametrize("text, stdin", [
    ("f (x) = 10 / x\nСООБЩИТЬ f(2)\nСООБЩИТЬ f(0)\n", ""),  # a runtime error with a call stack
    ("ПРОЧЕСТЬ n\nСООБЩИТЬ n + 1\nс := 1\nСООБЩИТЬ c\n", "abc"),  # a warning; input of another kind: the exact code
    ("ПРОЧЕСТЬ n\nСООБЩИТЬ n * 2\n", "21"),
])
def test_a_run_from_the_cache_gives_what_a_run_without_it_gives(tmp_path, text, stdin):
    name = program(tmp_path, text)
    without = run(tmp_path, "--no-cache", name, stdin=stdin)
    assert entries(tmp_path) == []
    first = run(tmp_path, name, stdin=stdin)
    assert len(entries(tmp_path)) == 1  # so that the second run is one from the cache
    second = run(tmp_path, name, stdin=stdin)
    interpreted = run(tmp_path, "--interpret", name, stdin=stdin)
    for result in (first, second, interpreted):
        assert (result.returncode, result.stdout, result.stderr) == (without.returncode, without.stdout, without.stderr)
    quiet = run(tmp_path, "-q", name, stdin=stdin)
    assert "предупреждение" not in quiet.stderr and quiet.stdout == without.stdout


def test_a_damaged_entry_is_compiled_again(tmp_path):
    name = program(tmp_path, "СООБЩИТЬ 7\n")
    run(tmp_path, name)
    [entry] = entries(tmp_path)
    (tmp_path / "cache" / "programs" / entry).write_bytes(b"\xe3\x00garbage")
    assert run(tmp_path, name).stdout == "7\n"
    assert run(tmp_path, name).stdout == "7\n"


def test_a_folder_others_may_write_to_is_not_used(tmp_path):
    name = program(tmp_path, "СООБЩИТЬ 8\n")
    (tmp_path / "cache" / "programs").mkdir(mode=0o777, parents=True)
    os.chmod(tmp_path / "cache" / "programs", 0o777)
    assert run(tmp_path, name).stdout == "8\n"
    assert entries(tmp_path) == []


def test_no_cache_writes_nothing_and_a_folder_that_cannot_be_made_is_no_error(tmp_path):
    name = program(tmp_path, "СООБЩИТЬ 9\n")
    assert run(tmp_path, name, env={"PSEUDO_NO_CACHE": "1"}).stdout == "9\n"
    assert entries(tmp_path) == []
    (tmp_path / "file").write_text("", encoding="utf-8")
    result = run(tmp_path, name, env={"PSEUDO_CACHE_DIR": str(tmp_path / "file" / "cache")})
    assert (result.returncode, result.stdout, result.stderr) == (0, "9\n", "")


def test_a_static_error_is_not_kept(tmp_path):
    name = program(tmp_path, "СООБЩИТЬ 1 +\n")
    assert run(tmp_path, name).returncode == 65
    assert entries(tmp_path) == []


def test_the_older_half_is_removed_past_the_bound(tmp_path, monkeypatch):
    monkeypatch.setenv("PSEUDO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PSEUDO_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    for k in range(5):
        cache.store(f"p{k}.pseudo", b"text", {"uses": []})
        os.utime(tmp_path / "cache" / "programs" / cache.entry_key(f"p{k}.pseudo", b"text"), (k, k))
    assert len(entries(tmp_path)) == 3  # 5 > 4: the two oldest went
    assert cache.load("p4.pseudo", b"text") is not None and cache.load("p0.pseudo", b"text") is None


def _files(folder) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize("own_programs", [False, True], ids=["no programs folder", "a programs folder of its own"])
def test_a_users_folder_named_as_the_cache_loses_nothing(tmp_path, own_programs):
    """PSEUDO_CACHE_DIR naming the program's own folder, full of the user's files (over the
    bound, older than anything the cache writes, some named as entries are): the cache keeps to
    a folder of its own inside it, marked, and runs past the bound remove none of the user's
    files — the program itself included. A `programs` folder of the user's is not used at all."""
    user = tmp_path / "work"
    user.mkdir()
    names = [f"{k:040x}" if k % 2 else f"file{k}.txt" for k in range(cache.MAX_ENTRIES + 20)]
    for name in names:
        (user / name).write_text("мой", encoding="utf-8")
        os.utime(user / name, (1, 1))
    if own_programs:
        (user / "programs").mkdir()
        (user / "programs" / "p.pseudo").write_text("СООБЩИТЬ 0\n", encoding="utf-8")
    (user / "p.pseudo").write_text("СООБЩИТЬ 1\n", encoding="utf-8")
    before = _files(user)
    for k in range(3):
        (user / "p.pseudo").write_text(f"СООБЩИТЬ {k}\n", encoding="utf-8")
        result = run(user, "p.pseudo", env={"PSEUDO_CACHE_DIR": str(user)})
        assert (result.returncode, result.stdout) == (0, f"{k}\n")
    after = _files(user)
    assert before <= after
    if own_programs:
        assert after == before
    else:
        assert {name.split("/")[0] for name in after - before} == {"programs"}
        assert len(after - before) == 5  # the folder, its mark and three entries


def test_only_entries_are_pruned_in_the_marked_folder(tmp_path, monkeypatch):
    """In the cache's own folder too, a file that is not an entry is never removed; a folder of
    that name holding only entries (an earlier pseudo's) is taken and marked."""
    monkeypatch.setenv("PSEUDO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PSEUDO_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    folder = tmp_path / "cache" / "programs"
    folder.mkdir(parents=True, mode=0o700)
    (folder / ("0" * 40)).write_bytes(b"old entry")
    cache.store("p.pseudo", b"text", {"uses": []})
    assert (folder / cache.TAG).read_text(encoding="utf-8").startswith("Signature: 8a477f597d28d172789f06886806bc55")
    for name in ("notes.txt", "A" * 40, "0" * 39, ".pseudo-x.txt"):
        (folder / name).write_text("чужой", encoding="utf-8")
        os.utime(folder / name, (0, 0))
    (folder / ("1" * 40)).mkdir()  # named as an entry, but a folder
    for k in range(9):
        cache.store(f"p{k}.pseudo", b"text", {"uses": []})
        os.utime(folder / cache.entry_key(f"p{k}.pseudo", b"text"), (k + 10, k + 10))
    assert {"notes.txt", "A" * 40, "0" * 39, ".pseudo-x.txt", "1" * 40, cache.TAG} <= set(entries(tmp_path)) | {cache.TAG}
    assert len([e for e in entries(tmp_path) if cache.is_entry_name(e)]) <= 5


def test_an_unmarked_folder_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv("PSEUDO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PSEUDO_NO_CACHE", raising=False)
    cache.store("p.pseudo", b"text", {"uses": []})
    assert cache.load("p.pseudo", b"text") is not None
    (tmp_path / "cache" / "programs" / cache.TAG).unlink()
    assert cache.load("p.pseudo", b"text") is None


@pytest.mark.parametrize("body", ["f (x) = x + 100\n", "f (x) = x + 1\n"], ids=["other bytes", "same bytes"])
def test_a_used_link_that_becomes_a_file_of_its_own_is_compiled_again(tmp_path, body):
    """b.pseudo names the same file as a.pseudo (a link) and is loaded once; when it becomes a
    file of its own — other bytes, or a copy of the same — the program is compiled again, loads
    it twice and now defines f twice."""
    program(tmp_path, "f (x) = x + 1\n", "a.pseudo")
    (tmp_path / "b.pseudo").symlink_to(tmp_path / "a.pseudo")
    name = program(tmp_path, "ИСПОЛЬЗОВАТЬ 'a.pseudo'\nИСПОЛЬЗОВАТЬ 'b.pseudo'\nСООБЩИТЬ f(1)\n")
    assert run(tmp_path, name).stdout == "2\n"
    (tmp_path / "b.pseudo").unlink()
    program(tmp_path, body, "b.pseudo")
    result = run(tmp_path, name)
    assert result.returncode == 65 and "f уже определено" in result.stderr


def test_a_hand_over_from_the_cache_reports_as_without_it(tmp_path):
    """A run from the cache that meets the step limit hands over to the exact code, made then."""
    name = program(tmp_path, "s := 0\nДЛЯ i := 1 ДО 1000 ВЫПОЛНЯТЬ s := s + i ВЕРНУТЬСЯ\nСООБЩИТЬ s\n")
    without = run(tmp_path, "--no-cache", "--max-steps", "50", name)
    assert run(tmp_path, name).stdout == "500500\n" and len(entries(tmp_path)) == 1
    cached = run(tmp_path, "--max-steps", "50", name)
    assert without.returncode == 70 and (cached.returncode, cached.stderr) == (without.returncode, without.stderr)
