"""Pure expressions compiled to Python (pseudo/fastexpr.py) give exactly what the interpreter's
closures give: the same value, or the same error at the same place — for random expressions
over locals, globals, unset variables, strings, logical values and arrays with holes."""
from __future__ import annotations

import io

import pytest
from conftest import compilations
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pseudo
from pseudo import interpreter
from pseudo.errors import PseudoRuntimeError
from pseudo.source import Source

PRELUDE = """a[1] := 3; a[2] := -4; a[5] := 0; b[1, 2] := 7; b[2, 2] := 'к'
s := 'слово'; t := ИСТИНА; g := 2; f := 1 / 2
ПРОВЕРИТЬ (x, y) =
    СООБЩИТЬ {expr}
ПРОВЕРИТЬ (1, 2)
ПРОВЕРИТЬ (0, -1)
ПРОВЕРИТЬ (5, 1)
"""
LEAVES = st.sampled_from(["x", "y", "g", "u", "s", "t", "f", "0", "1", "2", "'к'", "ИСТИНА", "ЛОЖЬ",
                          "a[x]", "a[y + 1]", "a[g]", "b[x, 2]", "b[g, y + 1]", "a[t]"])


def trees():
    return st.recursive(LEAVES, lambda sub: st.one_of(
        st.tuples(sub, st.sampled_from(["+", "-", "*", "ДЕЛ", "ОСТ", "=", "<>", "<", ">=", "И", "ИЛИ"]), sub)
        .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        sub.map(lambda t: f"(-{t})"),
        sub.map(lambda t: f"(НЕ {t})"),
        sub.map(lambda t: f"a[{t}]"),
    ), max_leaves=8)


def outcome(text: str) -> tuple:
    """Output, and the error's code and place, of the program run by the interpreter."""
    out = io.StringIO()
    try:
        loaded = pseudo.load(Source(text, "t.pseudo"))
        pseudo.run(loaded.program, stdout=out)
    except PseudoRuntimeError as e:
        return out.getvalue(), e.code, e.first.span.line, e.first.span.column, e.first.text
    return out.getvalue(), None


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_compiled_expressions_agree_with_the_closures(expr):
    text = PRELUDE.replace("{expr}", expr)
    fast = outcome(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(interpreter, "compile_pure", lambda *args: None)
        slow = outcome(text)
    assert fast == slow


def test_compiled_expressions_are_used():
    with compilations(interpreter, "compile_pure") as made, \
            pytest.MonkeyPatch.context() as mp:
        mp.setattr(interpreter, "compile_block", lambda *args: None)  # expressions alone, not in blocks
        assert outcome("x := 2\nСООБЩИТЬ x * 3 + 1 = 7 И НЕ ЛОЖЬ\n") == ("ИСТИНА\n", None)
    assert any(made)


def test_an_expression_python_cannot_nest_that_deep_keeps_its_closure():
    expr = "x = 1"
    for _ in range(150):  # each И nests its right side one level deeper: Python allows 100
        expr = f"x = 1 И ({expr})"
    assert outcome(f"x := 1\nСООБЩИТЬ {expr}\n") == ("ИСТИНА\n", None)
