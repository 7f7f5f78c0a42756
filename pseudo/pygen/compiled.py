"""`pseudo run`: the generated Python compiled to code objects in memory, and run.

The program's statements are compiled per source file with that file's name, so their code
carries the program's own places (and a Python traceback, with `--debug`, shows the .pseudo
lines, registered in `linecache`). The code calls the installed runtime, as an emitted file
made with `--import-runtime` does.
"""
from __future__ import annotations

import ast
import linecache

from .. import runtime
from ..runtime.report import CompiledProgram
from .emit import describe
from .generate import Generator, strip_comments
from .names import MAIN


def compile_program(loaded, limits: bool = True, fast: bool = True) -> tuple[object, CompiledProgram, bool]:
    """главная of the compiled program, what its error reports need, and whether the fast code
    may hand over to the exact one (compiled, then, with fast=False)."""
    gen = Generator(loaded.program, loaded.facts, loaded.main_file, limits, fast=fast)
    namespace: dict = {"__name__": "pseudo_program", **{name: getattr(runtime, name) for name in runtime.API}}
    for filename, stmts in gen.parts().items():
        module = ast.fix_missing_locations(strip_comments(ast.Module(body=list(stmts), type_ignores=[])))
        source = loaded.sources.get(filename)
        if source is not None:
            linecache.cache[filename] = (len(source.text), None, [x + "\n" for x in source.lines], filename)
        exec(compile(module, filename, "exec"), namespace)  # noqa: S102 - running the program is the point
    return namespace[MAIN], describe(gen, loaded), gen.needs_exact()
