"""pseudo: runs the pseudocode of J. Arsac's «Программирование игр и головоломок» (1990).

The stages, one module each:
    source → parser (Lark, with layout) → resolver (runs, phrases, names) → check
    → interpreter (closures; fastblock, fastexpr) | transpile (Python ast)
"""
from __future__ import annotations

from dataclasses import dataclass

from .check import check as _check
from .errors import Diagnostic, PseudoError, PseudoRuntimeError, StaticError
from .execute import run
from .nodes import Program
from .resolver import diagnostic_order, resolve_program
from .runtime import Limits
from .source import Source

__version__ = "0.1.0"


@dataclass
class Loaded:
    program: Program
    warnings: list[Diagnostic]
    rules_seen: set[str]
    sources: dict[str, Source]
    main_file: str


def load(source: Source) -> Loaded:
    """Parse, resolve and check; raises StaticError listing every error found."""
    resolved = resolve_program(source)
    found = _check(resolved.program)
    errors = resolved.errors + [d for d in found if d.severity == "error"]
    if errors:
        raise StaticError(sorted(errors, key=diagnostic_order))
    warnings = resolved.warnings + [d for d in found if d.severity == "warning"]
    return Loaded(resolved.program, sorted(warnings, key=diagnostic_order), resolved.rules_seen, resolved.sources,
                  source.filename)


def parse(text: str, filename: str = "<строка>") -> Program:
    return load(Source(text, filename)).program


__all__ = ["Diagnostic", "Limits", "Loaded", "Program", "PseudoError", "PseudoRuntimeError", "Source",
           "StaticError", "load", "parse", "run"]
