"""`pseudo run`: the generated Python compiled to code objects in memory, and run.

The program's statements are compiled per source file with that file's name, so their code
carries the program's own places (and a Python traceback, with `--debug`, shows the .pseudo
lines, registered in `linecache`). The code calls the installed runtime, as an emitted file
made with `--import-runtime` does. The code objects and what the error reports need are plain
data, so that a compiled program can be kept between runs (pseudo/cache.py).
"""
from __future__ import annotations

import ast

from ..runtime import load_code
from ..runtime.report import CompiledProgram
from .emit import describe
from .generate import Generator
from .syntax import strip_comments


class CompiledCode:
    """A program compiled in memory: its code objects, one per source file in order, and what
    its error reports need."""
    __slots__ = ("codes", "program")

    def __init__(self, codes: list, program: CompiledProgram):
        self.codes, self.program = codes, program


def compile_code(loaded, mode: str = "fast") -> CompiledCode:
    """The program compiled: "fast" (what `pseudo run` runs), "exact" or "readable" (pygen.generate)."""
    gen = Generator(loaded.program, loaded.facts, loaded.main_file, mode)
    codes = []
    for filename, stmts in gen.parts().items():
        module = ast.fix_missing_locations(strip_comments(ast.Module(body=list(stmts), type_ignores=[])))
        codes.append(compile(module, filename, "exec"))
    return CompiledCode(codes, describe(gen, loaded))


def compile_main(loaded, mode: str = "fast"):
    """главная of the compiled program (the exact one, which the fast code hands over to)."""
    code = compile_code(loaded, mode)
    return load_code(code.codes, code.program)
