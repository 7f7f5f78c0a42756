"""Packaging: the version written once, complete metadata, every package in the wheel, an sdist
whose tests pass unpacked, the one-file zipapp, shell completion and the man page.

The unpacked sdist runs a part of the suite in the default profile (collection, the golden
programs, highlighting); `PSEUDO_LONG=1` runs all of it there, as .ci/run does.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from conftest import IN_SDIST, LONG, PROGRAMS, ROOT

import pseudo
from pseudo.commands.arguments import build_parser

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
QUEENS = PROGRAMS / "queens_recursive.pseudo"


def text_run(command, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8") | kw.pop("env", {})
    return subprocess.run(command, capture_output=True, text=True, encoding="utf-8", check=False, env=env, **kw)


# ---- one version ----

def test_the_version_is_written_once():
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pseudo.__version__"}
    version = re.compile(rf"(?<![\w.]){re.escape(pseudo.__version__)}(?![\w.])")
    files = [ROOT / "pyproject.toml", ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
             *(p for p in (ROOT / "pseudo").rglob("*.py") if p != ROOT / "pseudo" / "__init__.py")]
    assert [str(p) for p in files if version.search(p.read_text(encoding="utf-8"))] == []


def test_the_installed_distribution_has_that_version():
    assert importlib.metadata.version("arsac-pseudo") == pseudo.__version__
    assert importlib.metadata.distribution("arsac-pseudo").read_text("top_level.txt").split() == ["pseudo"]


@pytest.mark.parametrize("how", ["command", "module"])
def test_version_option(how, tmp_path):
    script = Path(sys.executable).with_name("pseudo")
    if how == "command" and not script.exists():
        pytest.skip("no pseudo command next to this Python (not installed in this environment)")
    command = [str(script)] if how == "command" else [sys.executable, "-m", "pseudo"]
    done = text_run([*command, "--version"], cwd=tmp_path)  # not the checkout: the installed package
    assert (done.returncode, done.stdout, done.stderr) == (0, f"pseudo {pseudo.__version__}\n", "")


# ---- metadata ----

def test_the_distribution_name_is_free_and_says_what_it_is():
    assert PROJECT["name"] == "arsac-pseudo"  # `pseudo` on PyPI is another project
    assert PROJECT["scripts"] == {"pseudo": "pseudo.cli:main"}
    assert PROJECT["entry-points"]["pygments.lexers"] == {"pseudo": "pseudo.tools.highlight:PseudoLexer"}


def test_metadata_is_complete():
    assert PROJECT["license"] == "MIT AND MPL-2.0" and PROJECT["license-files"] == ["LICENSE"]
    assert PROJECT["dependencies"] == [], "pseudo runs on the standard library alone"
    wanted = {"pytest", "hypothesis", "ruff", "jsonschema", "playwright", "lark", "pygments", "nbclient", "shtab", "build"}
    assert wanted <= {r.split(">")[0].split("<")[0].split("=")[0].lower() for r in PROJECT["optional-dependencies"]["test"]}
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(PROJECT["urls"])
    assert len(PROJECT["keywords"]) >= 5
    classifiers = PROJECT["classifiers"]
    assert not [c for c in classifiers if c.startswith("License ::")]  # the SPDX expression says it
    assert "Programming Language :: Python :: 3.11" in classifiers
    try:
        from trove_classifiers import classifiers as known
    except ImportError:
        return
    assert [c for c in classifiers if c not in known] == []


def test_every_package_is_listed():
    folders = {p.parent for p in (ROOT / "pseudo").rglob("*.py") if "__pycache__" not in p.parts}
    found = {".".join(f.relative_to(ROOT).parts) for f in folders} | {"pseudo.grammar", "pseudo.programs"}
    assert set(PYPROJECT["tool"]["setuptools"]["packages"]) == found


# ---- wheel and sdist ----

def _build_available():
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build module is not installed (pip install '.[test]')")
    from packaging.version import Version
    if Version(importlib.metadata.version("setuptools")) < Version("77"):
        pytest.skip("setuptools ≥ 77 is needed to build (pip install '.[test]')")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """A wheel and an sdist, built as `python -m build` builds them (from a copy of the tracked
    files when this is a git checkout, so work in progress stays out)."""
    _build_available()
    out = tmp_path_factory.mktemp("dist")
    source = ROOT
    if (ROOT / ".git").exists() and shutil.which("git"):
        source = tmp_path_factory.mktemp("src") / "tree"
        done = text_run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(source)])
        assert done.returncode == 0, done.stderr
        _overlay_work_tree(source)
    done = text_run([sys.executable, "-m", "build", "--no-isolation", "-o", str(out), str(source)])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return {"wheel": next(out.glob("*.whl")), "sdist": next(out.glob("*.tar.gz")), "tracked": _tracked()}


def _tracked() -> list[str]:
    if not (ROOT / ".git").exists() or not shutil.which("git"):
        return []
    done = text_run(["git", "ls-files", "-z"], cwd=ROOT)
    return [f for f in done.stdout.split("\0") if f]


def _overlay_work_tree(clone: Path) -> None:
    """The clone gets the work tree's version of each tracked file (uncommitted edits included)."""
    for name in _tracked():
        src = ROOT / name
        if src.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, clone / name)


def test_the_wheel_holds_every_module_and_the_grammar(built):
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    modules = ({f for f in built["tracked"] if f.startswith("pseudo/") and f.endswith(".py")} if built["tracked"]
               else {p.relative_to(ROOT).as_posix() for p in (ROOT / "pseudo").rglob("*.py")
                     if "__pycache__" not in p.parts})
    assert modules and modules <= names
    assert {"pseudo/grammar/pseudo.lark", "pseudo/grammar/__init__.py"} <= names
    assert {"pseudo/tools/page/trace.js", "pseudo/tools/page/trace.css"} <= names  # the trace page's own files
    info = f"arsac_pseudo-{pseudo.__version__}.dist-info"
    metadata = zipfile.ZipFile(built["wheel"]).read(f"{info}/METADATA").decode("utf-8")
    assert "Name: arsac-pseudo\n" in metadata and "License-Expression: MIT AND MPL-2.0\n" in metadata
    assert "Requires-Dist: lark" not in metadata.split("Provides-Extra")[0]
    entry_points = zipfile.ZipFile(built["wheel"]).read(f"{info}/entry_points.txt").decode("utf-8")
    assert "[pygments.lexers]\npseudo = pseudo.tools.highlight:PseudoLexer" in entry_points


def test_the_wheel_ships_the_books_programs(built):
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    programs = {f"pseudo/programs/{p.relative_to(PROGRAMS).as_posix()}" for p in PROGRAMS.rglob("*")
                if p.suffix in (".pseudo", ".txt", ".md")}
    assert len([n for n in programs if n.count("/") == 2 and n.endswith(".pseudo")]) == 13
    assert {"pseudo/programs/lib/queens_board.pseudo", "pseudo/programs/fox_capture.txt"} <= programs <= names


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed, and nothing of the checkout: its bin/."""
    folder = tmp_path_factory.mktemp("venv")
    done = text_run([sys.executable, "-m", "venv", str(folder)])
    assert done.returncode == 0, done.stderr
    done = text_run([str(folder / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                     str(built["wheel"])])
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "bin"


def test_an_installed_pseudo_copies_the_books_programs_for_a_pupil(installed, tmp_path):
    done = text_run([str(installed / "pseudo"), "examples", "примеры"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    copied = tmp_path / "примеры"
    assert sorted(p.name for p in copied.glob("*.pseudo")) == sorted(p.name for p in PROGRAMS.glob("*.pseudo"))
    assert (copied / "lib" / "queens_board.pseudo").is_file() and (copied / "fox_capture.txt").is_file()
    assert "примеры/nim.pseudo" in done.stdout
    (copied / "nim.pseudo").write_text("СООБЩИТЬ 'моя версия'\n", encoding="utf-8")
    again = text_run([str(installed / "pseudo"), "examples", "примеры"], cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == "" and "nim.pseudo" in again.stderr
    assert (copied / "nim.pseudo").read_text(encoding="utf-8") == "СООБЩИТЬ 'моя версия'\n", "a pupil's work stays"
    done = text_run([str(installed / "pseudo"), "run", "-q", "примеры/queens_automaton_1.pseudo"], cwd=tmp_path)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 92  # its lib/ came along


def test_an_installed_notebook_runs_a_shipped_example(installed, tmp_path):
    script = ("import sys\nfrom pseudo.notebook import run_magic\n"
              "sys.exit(run_magic(\"--example signed_sum_recursive --input '4  1 2 3 4  4'\", None, sys.stdout, "
              "sys.stderr))\n")
    done = text_run([str(installed / "python"), "-c", script], cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "") and done.stdout.splitlines()[0] == "1 + 2 - 3 + 4 = 4"


def test_an_installed_pseudo_builds_the_playground_with_the_examples(installed, tmp_path):
    from pseudo.site import build
    from pseudo.site.editor import CODEMIRROR
    cache = build.cache_folder()
    fetched = all((cache / f"{n.lstrip('@').replace('/', '+')}-{v}" / "package").is_dir()
                  for n, v in [build.PYODIDE, build.VIZ, *CODEMIRROR])
    if not fetched and not shutil.which("npm"):
        pytest.skip("no npm, and the playground's packages are not in the cache")
    done = text_run([str(installed / "pseudo"), "site", "build", "сайт"], cwd=tmp_path, env={"PSEUDO_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    assert "примеров: 13" in done.stderr
    site = json.loads((tmp_path / "сайт" / "site.json").read_text(encoding="utf-8"))
    assert len(site["examples"]) == 13 and all(e["text"].strip() for e in site["examples"])


def test_the_sdist_holds_the_tests_and_their_data(built):
    with tarfile.open(built["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("tests/conftest.py", "tests/golden/statements/print_read.pseudo", "programs/queens_recursive.pseudo",
                   "docs/trace.schema.json", "docs/pseudo.ipynb", "grammar/pseudo.lark", "scripts/build_pyz.py",
                   "examples/tasks/queens/task.toml", "examples/tasks/queens/tests/06.out",
                   "MANIFEST.in", "LICENSE", "README.md", "pyproject.toml"):
        assert needed in names
    wanted = ("tests/", "programs/", "examples/", "docs/", "grammar/", "scripts/", "benchmarks/")
    assert [f for f in built["tracked"] if f.startswith(wanted) and f not in names] == []
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or n.startswith("tests/artifacts")]


@pytest.mark.skipif(IN_SDIST, reason="already inside the unpacked sdist")
def test_pytest_passes_in_the_unpacked_sdist(built, tmp_path):
    with tarfile.open(built["sdist"]) as tar:
        tar.extractall(tmp_path, filter="data")
    (root,) = tmp_path.iterdir()
    env = {"PSEUDO_IN_SDIST": "1", "PSEUDO_LONG": ""}  # the suite in its default profile
    collected = text_run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                         cwd=root, env=env)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    counts = [int(n) for n in re.findall(r"^tests/\S+\.py: (\d+)$", collected.stdout, re.MULTILINE)]  # -qq
    assert len(counts) > 20 and sum(counts) > 500, collected.stdout[-500:]
    # the default profile runs a quick part (what reads the shipped data files: grammar, docs'
    # notebook); .ci/run runs the whole suite here with PSEUDO_LONG=1
    part = [] if LONG else ["tests/test_highlight.py", "tests/test_notebook.py"]
    done = text_run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", *part], cwd=root, env=env)
    assert done.returncode == 0, failures(done.stdout) + done.stderr[-3000:]


def failures(report: str) -> str:
    """A failed run's first failure (the others often follow from it) and the list of all."""
    first = report.find("= FAILURES =")
    return (report[first:first + 6000] if first >= 0 else "") + "\n…\n" + report[-4000:]


# ---- the zipapp ----

@pytest.fixture(scope="module")
def pyz(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("pyz") / "pseudo.pyz"
    done = text_run([sys.executable, str(ROOT / "scripts" / "build_pyz.py"), "-o", str(target)])
    assert done.returncode == 0, done.stderr
    return target


def alone(pyz: Path, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    """python3 running the archive with nothing else importable: -I (no environment, no user
    site) and -S (no site-packages), from a folder without the checkout."""
    return text_run([sys.executable, "-I", "-S", str(pyz), *args], cwd=cwd, input=stdin)


def test_the_zipapp_runs_transpiles_and_traces(pyz, tmp_path):
    expected = text_run([sys.executable, "-m", "pseudo", "run", "-q", str(QUEENS)], cwd=tmp_path)
    assert expected.returncode == 0 and len(expected.stdout.splitlines()) == 92
    for mode in ([], ["--compiled"], ["--interpret"]):
        done = alone(pyz, "run", "-q", *mode, str(QUEENS), cwd=tmp_path)
        assert (done.returncode, done.stdout, done.stderr) == (0, expected.stdout, "")
    emitted = tmp_path / "queens.py"
    done = alone(pyz, "py", "-q", str(QUEENS), "-o", str(emitted), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert text_run([sys.executable, "-I", "-S", str(emitted)], cwd=tmp_path).stdout == expected.stdout
    done = alone(pyz, "trace", "-q", "--only", "states,calls", "--depth", "1", str(QUEENS), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "HR(1)" in done.stdout + done.stderr
    page = tmp_path / "queens.html"
    done = alone(pyz, "trace", "-q", "--html", "-o", str(page), str(PROGRAMS / "queens_automaton_1.pseudo"),
                 cwd=tmp_path)
    assert done.returncode == 0 and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>"), done.stderr


def test_the_zipapp_reports_errors_and_versions_like_the_command(pyz, tmp_path):
    (tmp_path / "bad.pseudo").write_text("СООБЩИТЬ 1\nСООБЩИТЬ 1 / 0\n", encoding="utf-8")
    done = alone(pyz, "run", "bad.pseudo", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (70, "1\n") and "bad.pseudo:2:" in done.stderr
    assert alone(pyz, "--version", cwd=tmp_path).stdout == f"pseudo {pseudo.__version__}\n"


def _older_pythons() -> list[str]:
    """python3.9, python3.10 … found on this machine, older than the package needs."""
    found = [shutil.which(f"python3.{minor}") for minor in range(6, 11)]
    return [p for p in found if p and text_run([p, "-c", "pass"]).returncode == 0]


def test_the_zipapp_names_the_python_it_needs(pyz, tmp_path):
    """Under a Python older than requires-python the archive says which Python it needs and
    exits 69, before the package's own syntax fails (3.10: «внутренняя ошибка», 3.9: a raw
    traceback): under a pretended 3.10 here, and under each older python3 this machine has."""
    pretend = ("import runpy, sys; sys.version_info = (3, 10, 13, 'final', 0); "
               f"sys.argv = [{str(pyz)!r}, 'run', 'x.pseudo']; runpy.run_path({str(pyz)!r}, run_name='__main__')")
    for argv in ([sys.executable, "-I", "-S", "-c", pretend],
                 *([python, "-I", "-S", str(pyz), "run", "x.pseudo"] for python in _older_pythons())):
        done = text_run(argv, cwd=tmp_path)
        assert done.returncode == 69, (argv[0], done.stderr)
        assert done.stderr.startswith("pseudo: нужен Python 3.11 или новее, а запущен Python "), done.stderr
        assert "Traceback" not in done.stderr and "python3.11 " in done.stderr


def test_the_zipapp_is_reproducible_and_executable(pyz, tmp_path):
    again = tmp_path / "again.pyz"
    assert text_run([sys.executable, str(ROOT / "scripts" / "build_pyz.py"), "-o", str(again)]).returncode == 0
    assert again.read_bytes() == pyz.read_bytes()
    assert pyz.read_bytes().startswith(b"#!/usr/bin/env python3\n") and os.access(pyz, os.X_OK)
    names = zipfile.ZipFile(pyz).namelist()
    assert {"__main__.py", "pseudo/grammar/pseudo.lark", "pseudo/frontend/lark_standalone.py"} <= set(names)
    assert not any(name.startswith("lark/") for name in names), "pseudo runs without Lark"


# ---- shell completion and the man page ----

def _shell_tools():
    for module in ("shtab", "argparse_manpage"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install '.[test]')")


def _options(parser) -> set[str]:
    import argparse
    out = set()
    for action in parser._actions:
        out |= set(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out |= _options(sub)
    return out


def test_bash_completion_in_bash(tmp_path):
    _shell_tools()
    if not shutil.which("bash"):
        pytest.skip("no bash")
    script = tmp_path / "pseudo.bash"
    done = text_run([sys.executable, "-m", "pseudo.tools.shell", "completion", "bash"])
    assert done.returncode == 0, done.stderr
    script.write_text(done.stdout, encoding="utf-8")
    probe = r"""
source "$1"
comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
         COMPREPLY=(); _shtab_pseudo pseudo "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
         printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; echo; }
comp pseudo r
comp pseudo run --max
comp pseudo graph --format ''
comp pseudo run programs/queens_r
comp pseudo check programs/fox
"""
    done = text_run(["bash", "-c", probe, "probe", str(script)], cwd=ROOT)
    assert done.stdout.splitlines() == ["run ", "--max-depth --max-steps ", "dot png svg ",
                                        "programs/queens_recursive.pseudo ", "programs/fox_capture.pseudo "], done.stderr


def test_zsh_completion_is_found_by_compinit(tmp_path):
    _shell_tools()
    done = text_run([sys.executable, "-m", "pseudo.tools.shell", "completion", "zsh"])
    assert done.returncode == 0 and done.stdout.startswith("#compdef pseudo")
    assert _options(build_parser()) - {"-h", "--help"} <= set(re.findall(r"--?[\w-]+", done.stdout))
    if not shutil.which("zsh"):
        pytest.skip("no zsh to load the script (apt install zsh)")
    script = tmp_path / "_pseudo"
    script.write_text(done.stdout, encoding="utf-8")
    # installed as the docs say: a file _pseudo in a folder of fpath, found by compinit
    load = f"fpath=({tmp_path} $fpath); autoload -U compinit && compinit -u -D && print -r -- $_comps[pseudo]"
    done = text_run(["zsh", "-f", "-c", load], cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "_pseudo\n", "")
    check = text_run(["zsh", "-n", str(script)])
    assert check.returncode == 0, check.stderr


def test_man_page(tmp_path):
    _shell_tools()
    done = text_run([sys.executable, "-m", "pseudo.tools.shell", "man"])
    assert done.returncode == 0, done.stderr
    page = done.stdout
    assert page.startswith('.TH PSEUDO "1"') and f"pseudo {pseudo.__version__}" in page
    for option in ("\\-\\-max\\-steps", "\\-\\-interpret", "\\-\\-html", "\\-\\-limits", "\\-\\-no\\-limits"):
        assert option in page
    if shutil.which("man"):
        (tmp_path / "pseudo.1").write_text(page, encoding="utf-8")
        shown = text_run(["man", "-l", str(tmp_path / "pseudo.1")], env={"MANPAGER": "cat", "MANWIDTH": "80"})
        assert shown.returncode == 0 and "pseudo run" in shown.stdout, shown.stderr


def test_the_readme_links_work_on_the_package_index_page():
    """PyPI shows README.md without the repository around it: a relative link (docs/…) would
    lead nowhere there. Every link is absolute; those into the repository (pyproject's Source
    URL) name files that exist here."""
    base = PROJECT["urls"]["Source"].rstrip("/") + "/blob/main/"
    links = re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert links
    for link in links:
        assert link.startswith(("https://", "http://")), f"a relative link in README.md: {link}"
        if link.startswith(base):
            assert (ROOT / link.removeprefix(base).split("#")[0]).exists(), link
