"""The interpreter and the compiled program share one runtime: random well-formed programs
must print the same and fail the same way — the whole message: text, line, column, caret,
hint and call stack — in both.

CI runs 400 examples; `PSEUDO_LONG=1` runs the long profile (50,000). Every mismatch found
becomes a golden program in tests/golden/agreement/.
"""
from __future__ import annotations

import io

from conftest import LONG
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pseudo
from pseudo.errors import PseudoRuntimeError, StaticError
from pseudo.frontend.source import Source
from pseudo.runtime import Limits

EXAMPLES = 50_000 if LONG else 250
LIMITS = Limits(max_steps=3_000, max_depth=60, time_limit=20)

SCALARS = ["a", "b", "n"]
HEADER = """\
ф (x) = x * 2 + 1
«удвоить (x) в (РЕЗ y)» = y := 2 * x
«(x) мало» = x < 5
п (x, РЕЗ y) =
    y := y + x
    ЕСЛИ y > 100 ТО y := y ОСТ 7 КОНЕЦ_ЕСЛИ
    СООБЩИТЬ 'п', x, y
"""


@st.composite
def int_expr(draw, depth=0, local=()):
    names = SCALARS + list(local)
    leaf = st.one_of(st.integers(-9, 30).map(str), st.sampled_from(names),
                     st.integers(0, 4).map(lambda i: f"m[{i}]"))
    if depth >= 2:
        return draw(leaf)
    sub = int_expr(depth + 1, local)
    kind = draw(st.sampled_from(["leaf", "leaf", "bin", "bin", "neg", "call", "div", "if"]))
    if kind == "leaf":
        return draw(leaf)
    if kind == "bin":
        op = draw(st.sampled_from(["+", "-", "*", "ДЕЛ", "ОСТ"]))
        return f"({draw(sub)} {op} {draw(sub)})"
    if kind == "neg":
        return f"-{draw(sub)}"
    if kind == "call":
        return f"ф({draw(sub)})"
    if kind == "div":
        return f"({draw(sub)} / {draw(sub)})"
    return f"ЕСЛИ {draw(cond(depth + 1, local))} ТО {draw(sub)} ИНАЧЕ {draw(sub)} КОНЕЦ_ЕСЛИ"


@st.composite
def cond(draw, depth=0, local=()):
    sub = int_expr(depth + 1, local)
    kind = draw(st.sampled_from(["cmp", "cmp", "and", "or", "not", "phrase"]))
    if kind == "cmp" or depth >= 2:
        return f"{draw(sub)} {draw(st.sampled_from(['=', '<>', '<', '<=', '>', '>=']))} {draw(sub)}"
    if kind == "phrase":
        return f"{draw(sub)} мало"
    if kind == "not":
        return f"НЕ ({draw(cond(depth + 1, local))})"
    op = "И" if kind == "and" else "ИЛИ"
    return f"({draw(cond(depth + 1, local))}) {op} ({draw(cond(depth + 1, local))})"


@st.composite
def statements(draw, depth=0, local=(), labels=(), count=None):
    out = []
    for _ in range(count if count is not None else draw(st.integers(1, 4))):
        choices = ["assign", "assign", "print", "elem", "screen"] + (["if", "while", "for", "call", "phrase",
                                                                     "labelled"] if depth < 2 else [])
        choices += ["goto"] if labels else []
        kind = draw(st.sampled_from(choices))
        target = draw(st.sampled_from(SCALARS + list(local)))
        if kind == "assign":
            out.append(f"{target} := {draw(int_expr(0, local))}")
        elif kind == "elem":
            out.append(f"m[{draw(st.integers(0, 4))}] := {draw(int_expr(0, local))}")
        elif kind == "print":
            trailing = "," if draw(st.booleans()) else ""
            out.append(f"СООБЩИТЬ {draw(int_expr(0, local))}, '|'{trailing}")
        elif kind == "if":
            then = draw(statements(depth + 1, local, labels))
            other = draw(statements(depth + 1, local, labels)) if draw(st.booleans()) else None
            text = f"ЕСЛИ {draw(cond(0, local))} ТО\n" + _indent(then)
            if other:
                text += "\nИНАЧЕ\n" + _indent(other)
            out.append(text + "\nКОНЕЦ_ЕСЛИ")
        elif kind == "while":
            body = draw(statements(depth + 1, local, labels))
            out.append(f"ПОКА {draw(cond(0, local))} ВЫПОЛНЯТЬ\n" + _indent(body) + "\nВЕРНУТЬСЯ")
        elif kind == "for":
            var = "i" if depth == 0 else "j"
            start, stop = draw(st.integers(-3, 6)), draw(st.integers(-3, 8))
            step = draw(st.sampled_from(["", " ШАГ 2", " ШАГ -1", " ШАГ 3"]))
            body = draw(statements(depth + 1, local + (var,) if local else local, labels))
            out.append(f"ДЛЯ {var} := {start}{step} ДО {stop} ВЫПОЛНЯТЬ\n" + _indent(body) + "\nВЕРНУТЬСЯ")
        elif kind == "call":
            out.append(f"п({draw(int_expr(0, local))}, {draw(st.sampled_from(['a', 'b', 'm[1]', 'm[2]']))})")
        elif kind == "screen":  # off a terminal: plain lines; a bad argument is the same error in both
            out.append(draw(st.sampled_from([
                "очистить экран",
                f"курсор в строку {draw(int_expr(0, local))}, столбец {draw(int_expr(0, local))}",
                f"пауза {draw(int_expr(0, local))}"])))
        elif kind == "labelled":  # a state block inside ЕСЛИ or ДЛЯ: its gotos stay inside it
            label = f"Н{depth}"
            body = draw(statements(depth + 1, local, (label,)))
            inner = _indent([f"{label}: " + body[0]] + body[1:])
            if draw(st.booleans()):
                out.append(f"ЕСЛИ {draw(cond(0, local))} ТО\n" + inner + "\nКОНЕЦ_ЕСЛИ")
            else:
                var = "i" if depth == 0 else "j"
                out.append(f"ДЛЯ {var} := 1 ДО {draw(st.integers(0, 3))} ВЫПОЛНЯТЬ\n" + inner + "\nВЕРНУТЬСЯ")
        elif kind == "phrase":
            out.append(f"удвоить {draw(int_expr(0, local))} в {draw(st.sampled_from(['a', 'n', 'm[3]']))}")
        else:
            out.append(draw(st.sampled_from(labels)))
    return out


def _indent(lines) -> str:
    return "\n".join("    " + line.replace("\n", "\n    ") for line in lines)


@st.composite
def programs(draw):
    text = HEADER
    if draw(st.booleans()):  # a procedure of its own, with a local loop variable
        body = draw(statements(1, ("x",)))
        text += "моя (x) =\n" + _indent(body) + "\n"
    inits = [f"{v} := {draw(st.integers(0, 9))}" for v in SCALARS if draw(st.booleans())]
    inits += [f"m[{i}] := {draw(st.integers(0, 9))}" for i in range(5) if draw(st.booleans())]
    main = inits[:]
    if draw(st.booleans()):  # an automaton
        states = ["С0", "С1", "С2"]
        for name in states:
            body = draw(statements(1, (), tuple(states) + ("Я",)))
            main.append(f"{name}: " + body[0])
            main += ["  " + line.replace("\n", "\n  ") for line in body[1:]]
    else:
        main += draw(statements(0))
    if "моя (x)" in text and draw(st.booleans()):
        main.append(f"моя({draw(int_expr())})")
    return text + "\n".join(main) + "\n"


def run_both(text: str):
    try:
        loaded = pseudo.load(Source(text, "случайная.pseudo"))
    except StaticError:
        return None
    results = []
    for mode in ("interpret", "compiled", "exact"):
        out = io.StringIO()
        error = None
        try:
            pseudo.run(loaded, stdin=io.StringIO(""), stdout=out, limits=LIMITS, mode=mode)
        except PseudoRuntimeError as e:
            error = e.render()
        results.append((out.getvalue(), error))
    return results


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_random_programs_agree(text):
    results = run_both(text)
    if results is not None:
        assert results[0] == results[1] == results[2], text


def test_generated_programs_load():
    """The generator's programs are well formed: most examples must pass the static checks."""
    from hypothesis import find
    text = find(programs(), lambda t: run_both(t) is not None)
    assert "СООБЩИТЬ" in text or ":=" in text
