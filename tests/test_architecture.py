"""The layout holds: every node class has its arm in every stage that dispatches on it, the
runtime's modules can share one namespace, and the generated code names only the runtime."""
from __future__ import annotations

import ast
import importlib
from importlib import resources
from pathlib import Path

import pytest
from conftest import PROGRAMS, ROOT

import pseudo
from pseudo import nodes, runtime
from pseudo.analysis.kinds import Kinds
from pseudo.analysis.lengths import Lengths
from pseudo.closures import ClosureInterpreter
from pseudo.frontend.source import Source, Span
from pseudo.interpreter import Interpreter

STRUCTURE = {nodes.Block, nodes.Param, nodes.Definition, nodes.Comment, nodes.Program}


def node_classes():
    return {c for c in vars(nodes).values() if isinstance(c, type) and issubclass(c, nodes.Node) and c is not nodes.Node}


def test_every_node_class_is_an_expression_a_statement_or_structure():
    assert node_classes() == set(nodes.EXPR_NODES) | set(nodes.STMT_NODES) | STRUCTURE


class Unknown(nodes.Node):
    """A node class no stage was told about: what a new construct is before its arms are written."""
    __slots__ = fields = ()


PACKAGE = Path(pseudo.__file__).parent
SOURCE = ROOT / "pseudo"  # the tree the docs describe (an installed package also holds the grammar)


def modules() -> list[str]:
    """Every module of the package (not __main__, which runs the command line)."""
    return sorted(".".join(("pseudo", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
                  for p in PACKAGE.rglob("*.py") if p.name != "__main__.py")


def every_table_of_arms() -> dict[str, nodes.Arms]:
    """The tables of arms of every stage that dispatches on node classes, found by importing
    every module: each is registered as it is made (nodes.ARMS)."""
    for module in modules():
        importlib.import_module(module)
    return {arms.stage: arms for arms in nodes.ARMS}


@pytest.mark.parametrize("stage", list(every_table_of_arms()))
def test_every_table_of_arms_covers_its_node_classes_and_fails_loudly_on_another(stage):
    """A table that knows one statement (expression) class knows them all; an unknown class is NoArm."""
    arms = every_table_of_arms()[stage]
    known = set(arms) | set(arms.leaves)
    for family in (nodes.STMT_NODES, nodes.EXPR_NODES):
        if known & set(family):
            missing = [c.__name__ for c in family if c not in known]
            assert not missing, f"{stage} has no arm for {missing}"
    with pytest.raises(nodes.NoArm, match=f"{stage}: no arm for the node class Unknown"):
        arms[Unknown]


def _entries():
    """Each stage entered as the program's code enters it, handed the unknown node: the stage
    reads its table (not only has one). Keyed by the table's stage."""
    from pseudo.analysis import automaton
    from pseudo.analysis.bounds import Bounds
    from pseudo.frontend import binding, silent
    from pseudo.frontend.bodies import BodyResolver
    from pseudo.frontend.resolver import Scope
    from pseudo.pygen import inline, structure
    from pseudo.pygen.body import BodyCode, Where
    from pseudo.pygen.generate import MODES, Generator
    from pseudo.pygen.tested import TestedCode
    from pseudo.pygen.weights import Weights
    from pseudo.tools.flowchart import Flowchart
    source = Source("x := 1\nСООБЩИТЬ x\n", "t.pseudo")
    span = Span(source, 1, 1, 1, 2)
    loaded = pseudo.load(source)
    unknown = Unknown(span)
    block = nodes.Block(span, (unknown,))
    kinds = Kinds(loaded.program)
    lengths = Lengths(loaded.program)
    bounds = Bounds(loaded.program, {})
    weights = Weights(loaded.program, loaded.facts)
    bodies = [BodyCode(Generator(loaded.program, loaded.facts, "t.pseudo", mode), None) for mode in MODES]
    return {
        "interpreter, statements": lambda: Interpreter(loaded.program, loaded.facts).exec(unknown, None),
        "interpreter, expressions": lambda: Interpreter(loaded.program, loaded.facts).eval(unknown, None),
        "closures, statements": lambda: ClosureInterpreter(loaded.program, loaded.facts).stmt(unknown),
        "closures, expressions": lambda: ClosureInterpreter(loaded.program, loaded.facts).expr(unknown),
        "code, expressions tested as they run": lambda: TestedCode(ClosureInterpreter(loaded.program, loaded.facts)).write(unknown, 1),
        "resolving, a statement": lambda: BodyResolver(None, source, Scope(None, [])).stmt(unknown),
        "the variables a node assigns": lambda: binding._Names(loaded.program)._walk(None, None, block, {}),
        "silent, the events": lambda: list(silent._events(block)),
        "automaton, the edges": lambda: automaton._collect(automaton.State("С", span, ()), block.stmts, (), False),
        "automaton, КОНЧЕНО": lambda: automaton._exits(block),
        "kinds, an expression": lambda: kinds.expr(unknown, None),
        "kinds, what a node stores": lambda: kinds._body(block, None),
        "lengths, an expression": lambda: lengths.expr(unknown, None),
        "lengths, what a node stores": lambda: lengths._body(block, None),
        "bounds, a statement": lambda: bounds._stmt(unknown, None, {}),
        "bounds, an expression": lambda: bounds._value(unknown, None, {}),
        "weights, statements": lambda: weights.stmt(unknown),
        "weights, expressions": lambda: weights.expr(unknown),
        "inlining, the variables read": lambda: inline._uses(unknown),
        "structuring, a goto inside a loop": lambda: structure._goto_inside_loop([unknown]),
        "code, statements": lambda: [body.stmt(unknown, Where()) for body in bodies],
        "code, expressions": lambda: [body.expr(unknown) for body in bodies],
        "flowchart": lambda: Flowchart().block(block.stmts, "end", None),
    }


def test_every_stage_is_entered_with_an_unknown_node_class():
    assert set(_entries()) == set(every_table_of_arms())


@pytest.mark.parametrize("stage", list(_entries()))
def test_every_stage_fails_loudly_on_a_node_class_it_does_not_know(stage):
    with pytest.raises(nodes.NoArm, match=f"{stage}: no arm for the node class Unknown"):
        _entries()[stage]()


# The `match` statements left over node classes recognise one shape of node, each with a safe
# answer for any other: they are pattern matching, not dispatch over the classes.
SHAPES = {
    ("frontend/binding.py", "fix"): "a name not yet bound (a Var, an Index, a Call): a node without a name has none",
    ("analysis/bounds.py", "_bounds_of"): "a condition that bounds a variable (НЕ, И, a comparison with a variable): "
                                          "any other condition gives no bound, which is always true",
}


def test_no_stage_dispatches_on_node_classes_by_match():
    """Dispatch is one form, the tables above: a `match` naming node classes is one of SHAPES."""
    found = set()

    def visit(node, path: str, function: str | None):
        if isinstance(node, ast.FunctionDef):
            function = node.name
        if isinstance(node, ast.MatchClass) and isinstance(node.cls, ast.Attribute) \
                and getattr(node.cls.value, "id", None) == "n":
            found.add((path, function))
        for child in ast.iter_child_nodes(node):
            visit(child, path, function)

    for path in SOURCE.rglob("*.py"):
        visit(ast.parse(path.read_text(encoding="utf-8")), path.relative_to(SOURCE).as_posix(), None)
    assert found == set(SHAPES)


def test_the_adding_a_construct_list_names_every_table_of_arms():
    """docs/architecture.md's «Adding a construct» names the module and the methods' prefix of
    each stage that dispatches on node classes."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Adding a construct"):]
    section = section[:section.index("\n## ", 1)]
    for stage, arms in every_table_of_arms().items():
        module = next(iter(arms.values())).__module__.removeprefix("pseudo.").replace(".", "/") + ".py"
        row = next((line for line in section.splitlines() if f"`{module}`" in line), None)
        assert row is not None and f"`{arms.prefix}<Node>`" in row, f"{stage}: {module}, {arms.prefix}<Node>"


def _package_modules_outside_the_code_generator():
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        if not relative.startswith("pygen/"):
            yield relative, ast.parse(path.read_text(encoding="utf-8"))


def _reads_the_tree(tree: ast.Module) -> bool:
    """Does a module import the program's tree (pseudo/nodes.py)?"""
    return any(isinstance(x, ast.ImportFrom) and (x.level or (x.module or "").startswith("pseudo"))
               and ((x.module or "").split(".")[-1] == "nodes" or any(a.name == "nodes" for a in x.names))
               for x in ast.walk(tree))


# The `ast` classes of an expression's code: expressions, operators, contexts.
EXPRESSION_NODES = tuple(c.__name__ for c in vars(ast).values() if isinstance(c, type) and issubclass(
    c, ast.expr | ast.operator | ast.cmpop | ast.boolop | ast.unaryop | ast.expr_context))
# Outside pygen/, the one maker of expressions' `ast`: the exact code of a readable emitted file,
# the file's own Python with each operator made the runtime's checked function (it reads that
# Python, never the program's tree).
REWRITES_PYTHON = {"runtime/exact.py"}


def test_the_code_generator_is_the_one_writer_of_python_from_the_tree():
    """pygen/ writes all the Python made from a program's expressions — the emitted file's, the
    fast and exact code's, the closures' functions (pygen/tested.py): a module elsewhere that
    reads the tree uses no `ast`, `compile`, `exec` or `eval`; and no module elsewhere but
    REWRITES_PYTHON makes an `ast` node of an expression (`ast.BinOp(…)`, `getattr(ast, …)`)."""
    writers, makers = set(), set()
    for path, tree in _package_modules_outside_the_code_generator():
        reads_the_tree = _reads_the_tree(tree)
        for x in ast.walk(tree):
            if reads_the_tree and (
                    isinstance(x, ast.Import) and any(a.name == "ast" for a in x.names)
                    or isinstance(x, ast.ImportFrom) and x.module == "ast"
                    or isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id in ("compile", "exec", "eval")):
                writers.add(path)
            if isinstance(x, ast.Attribute) and isinstance(x.value, ast.Name) and x.value.id == "ast" \
                    and x.attr in EXPRESSION_NODES or isinstance(x, ast.Call) and isinstance(x.func, ast.Name) \
                    and x.func.id == "getattr" and x.args and isinstance(x.args[0], ast.Name) and x.args[0].id == "ast":
                makers.add(path)
    assert not writers, f"Python written from the tree outside pygen/: {sorted(writers)}"
    assert makers == REWRITES_PYTHON, f"expressions' ast made outside pygen/: {sorted(makers - REWRITES_PYTHON)}"


def test_the_kinds_have_an_arm_for_every_expression():
    source = Source("x := 1\n", "k.pseudo")
    span = Span(source, 1, 1, 1, 2)
    kinds = Kinds(pseudo.load(source).program)
    one = nodes.Const(span, 1)
    samples = {nodes.Const: one, nodes.Var: nodes.Var(span, "x"), nodes.Index: nodes.Index(span, "m", (one,)),
               nodes.Call: nodes.Call(span, "f", ()), nodes.Unary: nodes.Unary(span, "-", one),
               nodes.Binary: nodes.Binary(span, "+", one, one), nodes.Compare: nodes.Compare(span, "=", one, one),
               nodes.Logical: nodes.Logical(span, "И", one, one), nodes.Not: nodes.Not(span, one),
               nodes.IfExpr: nodes.IfExpr(span, one, one, one),
               nodes.BuiltinCall: nodes.BuiltinCall(span, "АБС", (one,))}
    assert set(samples) == set(nodes.EXPR_NODES)
    for node in samples.values():
        kinds.expr(node, None)  # a missing arm raises


def test_the_runtime_modules_can_share_one_namespace():
    """An emitted file carries them one after another: no name may be defined twice (an
    import of the standard library, the same in each, may)."""
    owner: dict[str, str] = {}
    for module in (*runtime.MODULES, "bytecode"):
        tree = ast.parse(resources.files("pseudo.runtime").joinpath(f"{module}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined = [node.name]
            elif isinstance(node, ast.Assign):
                defined = [t.id for t in node.targets if isinstance(t, ast.Name)]
            else:
                continue
            for name in defined:
                assert name not in owner or owner[name] == module, f"{name}: {owner.get(name)} and {module}"
                owner[name] = module


def test_the_runtime_api_is_what_generated_code_may_name():
    assert set(runtime.API) <= set(runtime.__all__)
    for name in runtime.API:
        assert hasattr(runtime, name), name


@pytest.mark.parametrize("path", sorted(PROGRAMS.glob("*.pseudo")), ids=lambda p: p.stem)
def test_generated_code_names_only_its_own_names_and_the_runtime(path):
    """Every name the generated module reads is bound in it, a builtin, or the runtime's API."""
    import builtins

    from pseudo.pygen.generate import MODES, Generator
    loaded = pseudo.load(Source.from_file(path))
    for mode in MODES:
        gen = Generator(loaded.program, loaded.facts, loaded.main_file, mode)
        module = ast.Module(body=[s for part in gen.parts().values() for s in part], type_ignores=[])
        bound = set()
        for x in ast.walk(module):
            if isinstance(x, ast.FunctionDef):
                bound.add(x.name)
                bound |= {a.arg for a in x.args.args}
            elif isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load):
                bound.add(x.id)
            elif isinstance(x, ast.Global):
                bound |= set(x.names)
            elif isinstance(x, ast.Call) and getattr(x.func, "id", None) == "Ячейка" and isinstance(x.args[1], ast.Constant) \
                    and isinstance(x.args[0], ast.Call) and getattr(x.args[0].func, "id", None) == "globals":
                bound.add(x.args[1].value)  # a global passed as РЕЗ, assigned through its cell: Ячейка(globals(), 'R', …)
        read = {x.id for x in ast.walk(module) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)}
        from pseudo.runtime.names import BOUNDARY, STEPS
        runtime_names = {gen.names.rt(word) for word in (*runtime.API, STEPS, BOUNDARY)}
        stray = read - bound - set(dir(builtins)) - runtime_names - {"__pseudo_comment__"}
        assert not stray, stray


def _module_map() -> set[str]:
    """The files docs/architecture.md's module map names, by path in the package: an entry's
    first word, under the folder its indentation puts it in (a folder's line stands for its
    __init__.py; a line may name a second file after `;`)."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = doc[doc.index("```\npseudo/\n") + 4:]
    block = block[:block.index("```")]
    named, folders = set(), []  # folders: (indent, path)
    for line in block.splitlines()[1:]:
        indent = len(line) - len(line.lstrip())
        folders = [(i, f) for i, f in folders if i < indent]
        prefix = "".join(f for _, f in folders)
        words = line.split()
        if words and words[0].endswith("/"):
            folders.append((indent, words[0]))
            named.add(prefix + words[0] + "__init__.py")
        elif words and words[0].endswith(".py"):
            named.add(prefix + words[0])
            named.update(prefix + w.rstrip(":") for w in line.split(";")[-1].split()[:1] if w.rstrip(":").endswith(".py"))
    return named


def test_the_module_map_names_every_module():
    files = {p.relative_to(SOURCE).as_posix() for p in SOURCE.rglob("*.py")}
    missing = sorted(files - _module_map())
    assert not missing, f"docs/architecture.md does not name {missing}"


LONG_BY_DESIGN = {"frontend/lark_standalone.py"}  # written by Lark's standalone tool, not edited


def test_no_module_is_over_700_lines():
    long = {p.relative_to(SOURCE).as_posix(): n for p in SOURCE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700}
    assert set(long) == LONG_BY_DESIGN, long


# Every construct that makes a step or begins a call: ПОКА, ДЛЯ, a loop left by КОНЧЕНО, a transfer
# between states, a procedure, a function, a function whose body is a call.
STEPPING = """
П (k) =
    s := 0
    ДЛЯ i := 1 ДО k ВЫПОЛНЯТЬ s := s + i ВЕРНУТЬСЯ
    ПОКА s > 0 ВЫПОЛНЯТЬ s := s - 3 ВЕРНУТЬСЯ
    ВЫПОЛНЯТЬ s := s + 1; ЕСЛИ s > 2 ТО КОНЧЕНО КОНЕЦ_ЕСЛИ ВЕРНУТЬСЯ
Ф (x) = x + 1
Г (x) = Ф(x)
n := 0
А: n := Г(n); П(n)
   ЕСЛИ n < 5 ТО А ИНАЧЕ Б КОНЕЦ_ЕСЛИ
Б: СООБЩИТЬ n
"""
# The functions of each evaluator that call the limits (`шаг`, `войти_на_глубину`).
STEPPERS = {"reference": {"step", "_exec_While", "_exec_For", "_exec_Loop", "call"},
            "interpret": {"run", "while_", "for_", "loop", "call"}}


@pytest.mark.parametrize(("mode", "traced"), [("reference", False), ("reference", True), ("interpret", False),
                                              ("interpret", True)])
def test_every_function_that_steps_binds_the_names_the_watch_reads(monkeypatch, mode, traced):
    """The watch reads the place of a step, and the call in progress, from the locals of the
    function that made the step or began the call (interpreter.StateReader,
    closures.ClosureStateReader; the names SITE, STATEMENT, CALL, FRAME): here it reads them at
    every step and every call's entry, in both evaluators, traced and not."""
    import io
    import sys

    from pseudo.runtime import limits
    from pseudo.tools.trace import Tracer

    seen = set()

    def read(at_step):
        frame = sys._getframe(2)  # the caller of the limits' function, as проверить_пределы reads it
        reader = limits.НАБЛЮДЕНИЕ.reader
        assert reader.site(frame, at_step) is not None and reader.call(frame) is not None
        seen.add(frame.f_code.co_name)

    step, enter = limits.шаг, limits.войти_на_глубину
    monkeypatch.setattr(limits, "шаг", lambda: (read(True), step())[1])
    monkeypatch.setattr(limits, "войти_на_глубину", lambda depth: (read(False), enter(depth))[1])
    out = io.StringIO()
    pseudo.run(pseudo.load(Source(STEPPING, "п.pseudo")), stdin=io.StringIO(), stdout=out, mode=mode,
               tracer=Tracer(lambda event: None, 100_000) if traced else None)
    assert out.getvalue() == "5\n"
    assert seen == STEPPERS[mode]
