"""What the page's editor is made of, written into the site by `pseudo site build`.

- CodeMirror 6, the packages below from npm. Each ships its ES module as one file, so the
  site holds those files as they are (in editor/) and an import map in index.html names them:
  the browser resolves `import … from "@codemirror/view"` itself, and no bundler runs.
- tokens.js: pseudo's token rules (pseudo/tools/highlight.py TOKEN_RULES) as JavaScript
  regular expressions, so the editor colours a program by the very rules of the trace page
  and the Pygments lexer. Python's Unicode classes become Unicode property classes (`\\w` is
  a letter, a digit of any kind or `_` in both); a construct with no exact translation stops
  the build rather than colour differently.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..tools.highlight import TOKEN_RULES

CODEMIRROR = [
    ("@codemirror/state", "6.7.6"), ("@codemirror/view", "6.43.15"), ("@codemirror/commands", "6.11.1"),
    ("@codemirror/language", "6.13.1"), ("@codemirror/lint", "6.9.8"), ("@codemirror/streamparser", "6.0.0"),
    ("@lezer/common", "1.5.5"), ("@lezer/highlight", "1.2.5"), ("@marijn/find-cluster-break", "1.0.4"),
    ("style-mod", "4.1.5"), ("w3c-keyname", "2.2.8"), ("crelt", "1.0.7"),
]
"""The editor's packages and all they import, each at one version that satisfies the others' ranges."""

FOLDER = "editor"

# Python's classes of str patterns → JavaScript's, with the `u` flag.
_WORD = r"\p{L}\p{N}_"  # \w: str.isalnum() or "_" (letters: L*, digits and numerals: N*)
_LETTER = r"[\p{L}\p{Nl}\p{No}]"  # [^\W\d_]: \w but not a decimal digit nor "_"
_KEPT = set("ntfr{}()[]-^\\.*+?|/")  # escapes that mean the same in both


def js_regex(python: str) -> str:
    """A Python regular expression of TOKEN_RULES (compiled with re.MULTILINE) as JavaScript
    source (flag "u") matching the same text; ValueError for a construct it does not know."""
    out, i, in_class = [], 0, False
    while i < len(python):
        if python.startswith(r"[^\W\d_]", i):
            out.append(_LETTER)
            i += len(r"[^\W\d_]")
            continue
        if python.startswith(r"[\s\S]", i):  # any character
            out.append(r"[\s\S]")
            i += len(r"[\s\S]")
            continue
        ch = python[i]
        if ch == "\\":
            escape = python[i + 1]
            if escape == "w":
                out.append(_WORD if in_class else f"[{_WORD}]")
            elif escape == "d":
                out.append(r"\p{Nd}")
            elif escape == "u":
                out.append(python[i:i + 6])
                i += 4
            elif escape in _KEPT:
                out.append("\\" + escape)
            else:
                raise ValueError(f"no JavaScript translation for \\{escape} in {python!r}")
            i += 2
            continue
        if ch == "(" and not in_class and not python.startswith("(?", i) or python.startswith("(?P", i):
            raise ValueError(f"a capturing group in {python!r}: the page tells rules apart by their groups")
        if ch == "^" and not in_class:  # with re.MULTILINE: the start, or after "\n" (not after "\r")
            out.append(r"(?<![^\n])")
            i += 1
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class and python[i - 1] != "[" and python[i - 2:i] != "[^":
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def tokens_module() -> str:
    """tokens.js: the token rules, in order, as [JavaScript source, kind] pairs."""
    rules = [[js_regex(rx), kind] for rx, kind in TOKEN_RULES]
    return ("// Written by `pseudo site build` from pseudo/tools/highlight.py TOKEN_RULES: do not edit.\n"
            "// At each place the first rule that matches wins; compile with the flag \"u\".\n"
            "export const RULES = [\n" + ",\n".join(f"  {json.dumps(rule, ensure_ascii=False)}" for rule in rules)
            + "\n];\n")


def module_file(package: Path) -> Path:
    """The ES module a package's `import` export names (each of these packages has one file)."""
    meta = json.loads((package / "package.json").read_text(encoding="utf-8"))
    exports = meta.get("exports")
    entry = exports.get("import") if isinstance(exports, dict) else None
    return package / (entry or meta.get("module") or "index.js")


def copy_codemirror(folder: Path, package_folder) -> dict:
    """Copy each package's module (and its licence) into folder/editor/; the import map that
    names them. `package_folder(name, version)` gives a package's unpacked folder."""
    target = folder / FOLDER
    target.mkdir(exist_ok=True)
    imports = {}
    for name, version in CODEMIRROR:
        package = package_folder(name, version)
        file = name.lstrip("@").replace("/", "-")
        shutil.copyfile(module_file(package), target / f"{file}.js")
        licence = package / "LICENSE"
        if licence.is_file():
            shutil.copyfile(licence, target / f"{file}.LICENSE")
        imports[name] = f"./{FOLDER}/{file}.js"
    return {"imports": imports}
