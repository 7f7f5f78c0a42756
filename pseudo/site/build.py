"""`pseudo site build DIR`: the playground as a folder of static files.

The folder holds Pyodide (from its npm package), Graphviz compiled to WebAssembly
(`@viz-js/viz`, for the automata's diagrams), the CodeMirror editor (editor.py), a wheel of
this pseudo, the book's programs shipped with it as examples, and the page. npm packages are
fetched once into pseudo's cache (cache.root(): $PSEUDO_CACHE_DIR, else $XDG_CACHE_HOME/pseudo,
else ~/.cache/pseudo) with `npm pack`, each into a folder of its own name and version; nothing
else is downloaded, and the page itself never asks for anything outside the folder.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from importlib import resources
from pathlib import Path

from .. import __version__
from .. import examples as book
from .editor import copy_codemirror, tokens_module
from .examples import EXAMPLE_INPUTS, TYPED

PYODIDE = ("pyodide", "314.0.7")
VIZ = ("@viz-js/viz", "3.31.0")
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
STATIC = ["index.html", "style.css", "app.js", "editor.js", "highlight.js", "console.js", "runtime.js", "store.js",
          "task.js", "worker.js", "sw.js"]
WHEEL = f"arsac_pseudo-{__version__}-py3-none-any.whl"


class SiteError(Exception):
    """A site that cannot be built, said in Russian; `exit_code` 69 when a tool is missing."""

    def __init__(self, text: str, exit_code: int = 69):
        super().__init__(text)
        self.exit_code = exit_code


def cache_folder() -> Path:
    from ..cache import root
    return Path(root())


def npm_package(name: str, version: str, cache: Path | None = None, say=print) -> Path:
    """The unpacked folder of an npm package, fetched with `npm pack` the first time."""
    cache = cache or cache_folder()
    folder = cache / f"{name.lstrip('@').replace('/', '+')}-{version}"
    if (folder / "package" / "package.json").is_file():
        return folder / "package"
    if folder.exists():  # not one this made (a whole package is renamed in): never removed
        raise SiteError(f"в кэше есть папка {folder}, но пакета {name} {version} в ней нет; "
                        "удалите или переименуйте её и соберите сайт снова")
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError(f"для сборки нужен npm, чтобы один раз скачать {name} {version} "
                        "(Debian, Ubuntu: sudo apt install npm; другие системы: https://nodejs.org); "
                        f"или положите распакованный пакет в {folder}/package")
    say(f"pseudo: скачиваю {name} {version} через npm (один раз, в {cache}) …")
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=cache, prefix=".npm-"))
    try:
        done = subprocess.run([npm, "pack", f"{name}@{version}", "--silent"], cwd=work,
                              capture_output=True, text=True, check=False)
        archives = list(work.glob("*.tgz"))
        if done.returncode != 0 or not archives:
            raise SiteError(f"npm не скачал {name} {version}: {(done.stderr or done.stdout).strip()[-300:]}")
        with tarfile.open(archives[0]) as tar:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python ≥ 3.11.4
            tar.extractall(work, **safe)
        archives[0].unlink()
        work.rename(folder)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return folder / "package"


def wheel_bytes() -> bytes:
    """A pure-Python wheel of the pseudo that runs this command (the grammar and the trace
    page's files inside, as an install places them); the page's site folder is left out."""
    package = Path(__file__).resolve().parent.parent
    files: dict[str, bytes] = {}
    for path in sorted([*package.rglob("*.py"), *(package / "tools" / "page").iterdir()]):
        rel = path.relative_to(package.parent).as_posix()
        if "__pycache__" not in rel and not rel.startswith("pseudo/site/static"):
            files[rel] = path.read_bytes()
    grammar = resources.files("pseudo.grammar") if _has_grammar_package() else None
    text = grammar.joinpath("pseudo.lark").read_bytes() if grammar else \
        (package.parent / "grammar" / "pseudo.lark").read_bytes()
    files["pseudo/grammar/pseudo.lark"] = text
    files.setdefault("pseudo/grammar/__init__.py", b"")
    info = f"arsac_pseudo-{__version__}.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: arsac-pseudo\nVersion: {__version__}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: pseudo site build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _has_grammar_package() -> bool:
    try:
        return resources.files("pseudo.grammar").joinpath("pseudo.lark").is_file()
    except ModuleNotFoundError:
        return False


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def examples(programs=None) -> tuple[bytes, list[dict]]:
    """A zip of the programs (lib/ and input files too; by default those shipped with pseudo)
    and the menu's entries: file, title, text and the input box's text (empty for the games
    the pupil plays by typing)."""
    found = book.files(programs)
    out, menu = io.BytesIO(), []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in found.items():
            if name.endswith((".pseudo", ".txt")):
                z.writestr(name, data)
    for name, data in found.items():
        if "/" in name or not name.endswith(".pseudo"):
            continue
        stem, text = name.removesuffix(".pseudo"), data.decode("utf-8")
        given = found.get(stem + ".txt", b"").decode("utf-8")
        stdin = "" if stem in TYPED else EXAMPLE_INPUTS.get(stem, given)
        menu.append({"file": name, "title": _title(text, stem), "text": text, "input": stdin})
    return out.getvalue(), menu


def _title(text: str, default: str) -> str:
    """The first sentence of the program's opening comment, whole even when it goes on to a
    second line: «Восемь ферзей, рекурсивное решение.»"""
    first = text.lstrip()
    if not first.startswith("{"):
        return default
    paragraph = first[1:].split("}")[0].split("\n\n")[0]
    words = " ".join(paragraph.split())
    for end in re.finditer(r"(\w*)([.!?])(?=\s|$)", words):
        if end.group(2) == "." and (len(end.group(1)) == 1 or end.group(1).lower() in ABBREVIATIONS):
            continue  # «Ж. Арсака», «рис. 39»: not the end of the sentence
        return words[:end.end()]
    return words or default


ABBREVIATIONS = {"рис", "стр", "гл", "см", "им", "др", "пр", "тыс", "млн"}  # a dot after them ends no sentence


def build(folder: Path, programs: Path | None = None, say=print) -> dict:
    """Write the site into `folder` (created if missing; files of an earlier build replaced);
    the examples are the programs in `programs`, by default those shipped with pseudo."""
    folder.mkdir(parents=True, exist_ok=True)
    _copy_packages(folder, npm_package(*PYODIDE, say=say), npm_package(*VIZ, say=say))
    imports = copy_codemirror(folder, lambda name, version: npm_package(name, version, say=say))
    (folder / WHEEL).write_bytes(wheel_bytes())
    zipped, menu = examples(programs)
    (folder / "examples.zip").write_bytes(zipped)
    static = resources.files("pseudo.site").joinpath("static")
    for name in STATIC:
        (folder / name).write_bytes(static.joinpath(name).read_bytes())
    page = folder / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("__IMPORTMAP__", json.dumps(imports, indent=1)),
                    encoding="utf-8")
    (folder / "tokens.js").write_text(tokens_module(), encoding="utf-8")
    shutil.copyfile(Path(__file__).with_name("serve.py"), folder / "serve.py")  # python3 serve.py, no pseudo needed
    from ..tools.highlight import CSS
    (folder / "highlight.css").write_text(CSS, encoding="utf-8")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                   if p.is_file() and p.name not in ("site.json", "serve.py"))
    stamp = hashlib.sha256(b"".join(f.encode() + (folder / f).read_bytes() for f in files)).hexdigest()[:12]
    _stamp_service_worker(folder / "sw.js", stamp)
    site = {"version": __version__, "stamp": stamp, "wheel": WHEEL, "examples": menu, "files": ["./", *files]}
    (folder / "site.json").write_text(json.dumps(site, ensure_ascii=False, indent=1), encoding="utf-8")
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return {"folder": str(folder), "files": len(files) + 1, "bytes": size, "examples": len(menu)}


def _copy_packages(folder: Path, pyodide: Path, viz: Path) -> None:
    (folder / "pyodide").mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, folder / "pyodide" / name)
    shutil.copyfile(viz / "dist" / "viz.js", folder / "viz.js")


def _stamp_service_worker(path: Path, stamp: str) -> None:
    """The build's stamp in sw.js: another build is another service worker, which the browser
    installs on the next visit and which replaces the cached files of the old one."""
    path.write_text(path.read_text(encoding="utf-8").replace("__STAMP__", stamp), encoding="utf-8")


def command(args) -> int:
    """`pseudo site build ПАПКА [--programs ПАПКА]`, `pseudo site serve ПАПКА`, `pseudo site link ЗАДАЧА`."""
    from ..api import UsageError
    from . import serve
    folder = Path(args.folder)
    if args.site_command == "serve":
        return serve.serve(folder, args.port)
    if args.site_command == "link":
        from .task import link
        print(link(args.folder, args.site))
        return 0
    programs = Path(args.programs) if args.programs else None
    if programs is not None and not programs.is_dir():
        raise UsageError(f"папка примеров {programs} не найдена")
    try:
        done = build(folder, programs, say=lambda text: print(text, file=sys.stderr))
    except SiteError as e:
        print(f"pseudo: ошибка: {e}", file=sys.stderr)
        return e.exit_code
    megabytes = done["bytes"] / 1_000_000
    print(f"pseudo: песочница собрана в {folder}: {done['files']} файлов, {megabytes:.1f} МБ, "
          f"примеров: {done['examples']}\n  показать: pseudo site serve {folder}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:  # python -m pseudo.site.build DIR (for development)
    print(build(Path((argv or sys.argv[1:])[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
