"""Properties that hold for every input: expressions evaluate like a Python oracle, and
random text never gives anything but a clean, positioned error."""
from __future__ import annotations

import io
import re
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pseudo
from pseudo.errors import PseudoError, PseudoRuntimeError
from pseudo.frontend.source import Source
from pseudo.runtime import Limits

# ---- expressions against an oracle ----

LEAVES = st.one_of(st.integers(-20, 20).map(lambda v: ("int", v)), st.booleans().map(lambda v: ("bool", v)))
ARITH = ["+", "-", "*", "/", "ДЕЛ", "ОСТ"]
COMPARE = ["=", "<>", "<", "<=", ">", ">="]


def trees(depth=4):
    return st.recursive(LEAVES, lambda sub: st.one_of(
        st.tuples(st.sampled_from(ARITH + COMPARE + ["И", "ИЛИ"]), sub, sub).map(lambda t: ("bin",) + t),
        st.tuples(sub, st.integers(-3, 4)).map(lambda t: ("pow", t[0], ("int", t[1]))),
        sub.map(lambda t: ("neg", t)),
        sub.map(lambda t: ("not", t)),
        st.tuples(sub, sub, sub).map(lambda t: ("if",) + t),
    ), max_leaves=12)


PREC = {"ИЛИ": 1, "И": 2, "=": 4, "<>": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
        "+": 5, "-": 5, "*": 6, "/": 6, "ДЕЛ": 6, "ОСТ": 6}


class OracleError(Exception):
    def __init__(self, code):
        self.code = code


def render(t, need: int, rnd) -> str:
    """Source text with only the parentheses precedence requires (and some redundant ones)."""
    kind = t[0]
    if kind == "int":
        text, prec = str(t[1]), (9 if t[1] >= 0 else 7)
    elif kind == "bool":
        text, prec = ("ИСТИНА" if t[1] else "ЛОЖЬ"), 9
    elif kind == "bin":
        op, left, right = t[1], t[2], t[3]
        p = PREC[op]
        lp, rp = (p + 1, p + 1) if p == 4 else (p, p + 1)
        text, prec = f"{render(left, lp, rnd)} {op} {render(right, rp, rnd)}", p
    elif kind == "pow":
        text, prec = f"{render(t[1], 9, rnd)} ^ {render(t[2], 7, rnd)}", 8
    elif kind == "neg":
        text, prec = f"-{render(t[1], 7, rnd)}", 7
    elif kind == "not":
        text, prec = f"НЕ {render(t[1], 3, rnd)}", 3
    else:
        text = f"ЕСЛИ {render(t[1], 0, rnd)} ТО {render(t[2], 0, rnd)} ИНАЧЕ {render(t[3], 0, rnd)} КОНЕЦ_ЕСЛИ"
        prec = 9
    return f"({text})" if prec < need or rnd.draw(st.booleans()) and prec < 9 else text


def num(v):
    return type(v) in (int, Fraction)


def norm(v):
    return v.numerator if type(v) is Fraction and v.denominator == 1 else v


def oracle(t):
    kind = t[0]
    if kind in ("int", "bool"):
        return t[1]
    if kind == "neg":
        v = oracle(t[1])
        if not num(v):
            raise OracleError("type-unary")
        return -v
    if kind == "not":
        v = oracle(t[1])
        if type(v) is not bool:
            raise OracleError("type-logic")
        return not v
    if kind == "if":
        c = oracle(t[1])
        if type(c) is not bool:
            raise OracleError("type-cond")
        return oracle(t[2] if c else t[3])
    if kind == "pow":
        a, b = oracle(t[1]), t[2][1]
        if not num(a):
            raise OracleError("type-binary")
        if b < 0 and a == 0:
            raise OracleError("div-zero")
        return norm(Fraction(a) ** b)
    op, left = t[1], oracle(t[2])
    if op in ("И", "ИЛИ"):
        if type(left) is not bool:
            raise OracleError("type-logic")
        if left is (op == "ИЛИ"):
            return left
        right = oracle(t[3])
        if type(right) is not bool:
            raise OracleError("type-logic")
        return right
    right = oracle(t[3])
    if op in PREC and PREC[op] == 4:
        if op in ("=", "<>"):  # across kinds (a number and a truth value) never equal
            same = num(left) == num(right) and left == right
            return same if op == "=" else not same
        if not (num(left) and num(right)):
            raise OracleError("type-compare")
        return {"<": left < right, "<=": left <= right,
                ">": left > right, ">=": left >= right}[op]
    if not (num(left) and num(right)):
        raise OracleError("type-binary")
    if op in ("/", "ДЕЛ", "ОСТ") and right == 0:
        raise OracleError("div-zero")
    return norm({"+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
                 "/": lambda: Fraction(left) / right, "ДЕЛ": lambda: Fraction(left) // right,
                 "ОСТ": lambda: Fraction(left) % right}[op]())


def show(v):
    if type(v) is bool:
        return "ИСТИНА" if v else "ЛОЖЬ"
    if type(v) is Fraction:
        return f"{v.numerator}/{v.denominator}"
    return str(v)


def run(text: str, stdin: str = "", limits: Limits | None = None):
    """Run in both modes; they must agree on the output and on the whole error message."""
    loaded = pseudo.load(Source(text, "prop.pseudo"))
    outcomes = []
    for mode in ("interpret", "compiled", "exact"):
        out = io.StringIO()
        try:
            pseudo.run(loaded, stdin=io.StringIO(stdin), stdout=out, limits=limits, mode=mode)
            outcomes.append((out.getvalue(), None))
        except PseudoRuntimeError as e:
            outcomes.append((out.getvalue(), e))
    (out, err), *others = outcomes
    for out2, err2 in others:
        assert (out, err and err.render()) == (out2, err2 and err2.render()), text
    return out, err


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.data())
def test_expressions_evaluate_like_the_oracle(tree, data):
    text = render(tree, 0, data)
    try:
        expected = show(oracle(tree))
    except OracleError as e:
        out, err = run(f"СООБЩИТЬ {text}\n")
        assert err is not None and err.code == e.code, (text, e.code, err and err.code)
        return
    out, err = run(f"СООБЩИТЬ {text}\n")
    assert err is None, (text, err.render())
    assert out == expected + "\n", text


@settings(max_examples=100, deadline=None)
@given(trees(), st.data())
def test_conditions_and_assignments_agree_with_the_oracle(tree, data):
    text = render(tree, 0, data)
    try:
        value = oracle(tree)
    except OracleError:
        return
    program = f"x := {text}\nЕСЛИ x = x ТО СООБЩИТЬ x КОНЕЦ_ЕСЛИ\n"
    assert run(program)[0] == show(value) + "\n"


# ---- any text: a clean error or a clean run, never a crash ----

WORDS = ["ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ", "КОНЕЦ ЕСЛИ", "ПОКА", "ДЛЯ", "ШАГ", "ДО", "ВЫПОЛНЯТЬ",
         "ВЕРНУТЬСЯ", "КОНЧЕНО", "СООБЩИТЬ", "ПРОЧЕСТЬ", "КОНЕЦ_РАБОТЫ", "ПЕРЕЙТИ К", "И", "ИЛИ", "НЕ",
         "ИСТИНА", "ЛОЖЬ", "ДЕЛ", "ОСТ", "РЕЗУЛЬТАТ", "РЕЗ", "x", "k", "к", "c[k]", "f(1)", "С:", "СБ", "Я",
         ":=", "=", "<", "≤", "−", "+", "*", "/", "^", ",", ";", "(", ")", "[", "]", "1", "0", "'s'",
         "«занять (k)»", "занять", "\n", "\n", "  ", "{c}", "{", "'", "«", "ИСПОЛЬЗОВАТЬ 'нет.pseudo'"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=3)), max_size=30))
def test_random_text_gives_a_clean_error_or_runs(pieces):
    text = " ".join(pieces)
    try:
        run(text, "1 2 3", Limits(max_steps=2000, max_depth=50, time_limit=2))
    except PseudoError as e:
        for d in e.diagnostics:
            assert d.text
            if d.span is not None:
                assert 1 <= d.span.line <= len(re.split(r"\r\n|\r|\n", text)) + 1  # a lone \r breaks a line too
            d.render()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_arbitrary_unicode_never_crashes(text):
    try:
        run(text, "", Limits(max_steps=2000, max_depth=50, time_limit=2))
    except PseudoError as e:
        e.render()
