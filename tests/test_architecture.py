"""The layout holds: every node class has its arm in every stage that dispatches on it, the
runtime's modules can share one namespace, and the generated code names only the runtime."""
from __future__ import annotations

import ast
from importlib import resources

import pytest
from conftest import PROGRAMS

import pseudo
from pseudo import nodes, runtime
from pseudo.analysis.kinds import Kinds
from pseudo.closures import ClosureInterpreter
from pseudo.frontend.source import Source, Span
from pseudo.interpreter import Interpreter
from pseudo.pygen.body import BodyCode

STRUCTURE = {nodes.Block, nodes.Param, nodes.Definition, nodes.Comment, nodes.Program}


def node_classes():
    return {c for c in vars(nodes).values() if isinstance(c, type) and issubclass(c, nodes.Node) and c is not nodes.Node}


def test_every_node_class_is_an_expression_a_statement_or_structure():
    assert node_classes() == set(nodes.EXPR_NODES) | set(nodes.STMT_NODES) | STRUCTURE


@pytest.mark.parametrize("stage,statement,expression", [
    (Interpreter, "_exec_", "_eval_"),
    (ClosureInterpreter, "_stmt_", "_expr_"),
    (BodyCode, "_stmt_", "_expr_"),
])
def test_every_stage_has_an_arm_for_every_node_class(stage, statement, expression):
    missing = [c.__name__ for c in nodes.STMT_NODES if not hasattr(stage, statement + c.__name__)]
    missing += [c.__name__ for c in nodes.EXPR_NODES
                if not hasattr(stage, expression + c.__name__) and c not in getattr(stage, "LEAVES", ())]
    assert not missing, f"{stage.__name__} has no arm for {missing}"


class Unknown(nodes.Node):
    """A node class no stage was told about: what a new construct is before its arms are written."""
    __slots__ = fields = ()


def _stages():
    """Every stage outside the code generator that dispatches on node classes, each handed the unknown node."""
    from pseudo.analysis import automaton
    from pseudo.frontend import silent
    from pseudo.tools.flowchart import Flowchart
    source = Source("x := 1\n", "k.pseudo")
    span = Span(source, 1, 1, 1, 2)
    loaded = pseudo.load(source)
    kinds = Kinds(loaded.program)
    block = nodes.Block(span, (Unknown(span),))
    return {
        "interpreter, a statement": lambda: Interpreter(loaded.program, loaded.facts).exec(Unknown(span), None),
        "interpreter, an expression": lambda: Interpreter(loaded.program, loaded.facts).eval(Unknown(span), None),
        "closures, a statement": lambda: ClosureInterpreter(loaded.program, loaded.facts).stmt(Unknown(span)),
        "closures, an expression": lambda: ClosureInterpreter(loaded.program, loaded.facts).expr(Unknown(span)),
        "automaton, the edges": lambda: automaton._collect(automaton.State("С", span, ()), block.stmts, (), False),
        "automaton, КОНЧЕНО": lambda: automaton._exits(block),
        "silent, the events": lambda: list(silent._events(block)),
        "kinds, an expression": lambda: kinds.expr(Unknown(span), None),
        "kinds, a body": lambda: kinds._body(block, None),
        "flowchart": lambda: Flowchart().block(block.stmts, "end", None),
    }


@pytest.mark.parametrize("stage", list(_stages()))
def test_every_stage_fails_loudly_on_a_node_class_it_does_not_know(stage):
    with pytest.raises(nodes.NoArm, match="Unknown"):
        _stages()[stage]()


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


def test_every_stage_of_the_code_generator_fails_loudly_on_a_node_class_it_does_not_know():
    """A new node class a stage of the generator has no arm for is an error naming it, not code
    written wrong or a node skipped — the kinds, the bounds, the weights of steps, the calls
    written out in place, the structuring of automata, and the statements and expressions of
    each kind of code."""
    from pseudo.analysis.bounds import Bounds
    from pseudo.pygen import inline, structure
    from pseudo.pygen.body import BodyCode, Where
    from pseudo.pygen.generate import MODES, Generator
    from pseudo.pygen.weights import Weights
    loaded = pseudo.load(Source("x := 1\nСООБЩИТЬ x\n", "t.pseudo"))
    unknown = Unknown(Span(Source("x := 1\n", "t.pseudo"), 1, 1, 1, 2))
    stages = [lambda: Kinds(loaded.program).expr(unknown, None),
              lambda: Bounds(loaded.program, {})._value(unknown, None, {}),
              lambda: Bounds(loaded.program, {})._stmt(unknown, None, {}),
              lambda: Weights(loaded.program, loaded.facts).stmt(unknown),
              lambda: Weights(loaded.program, loaded.facts).expr(unknown),
              lambda: inline._uses(unknown),
              lambda: structure._goto_inside_loop([unknown])]
    for mode in MODES:
        body = BodyCode(Generator(loaded.program, loaded.facts, "t.pseudo", mode), None)
        stages += [lambda body=body: body.stmt(unknown, Where()), lambda body=body: body.expr(unknown)]
    for stage in stages:
        with pytest.raises(TypeError, match="Unknown"):
            stage()
