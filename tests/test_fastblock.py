"""Blocks compiled to Python (pseudo/fastblock.py) behave exactly as the interpreter's
closures: the same output, the same error at the same place with the same text, and the
same number of steps — for random programs, at every step limit, at the depth limit and on
the unusual values that make the generated code hand over to the closures."""
from __future__ import annotations

import io
import os

import pytest
from conftest import compilations
from hypothesis import HealthCheck, given, settings
from test_agreement import LIMITS, programs

import pseudo
from pseudo import interpreter
from pseudo.errors import PseudoRuntimeError, StaticError
from pseudo.runtime import Limits, Machine
from pseudo.source import Source

LONG = bool(os.environ.get("PSEUDO_LONG"))
EXAMPLES = 20_000 if LONG else 400  # PSEUDO_LONG=1: the long profile


def outcome(text: str, limits: Limits = LIMITS, stdin: str = "") -> tuple:
    """Output, the error (code, place, text) and the step count of an interpreted run."""
    loaded = pseudo.load(Source(text, "t.pseudo"))
    machine, out, error = Machine(limits), io.StringIO(), None
    try:
        pseudo.run(loaded.program, stdin=io.StringIO(stdin), stdout=out, limits=limits, machine=machine)
    except PseudoRuntimeError as e:
        error = (e.code, e.first.span and (e.first.span.line, e.first.span.column), e.first.text, e.stack)
    return out.getvalue(), error, machine.steps


def both(text: str, limits: Limits = LIMITS, stdin: str = "") -> tuple:
    fast = outcome(text, limits, stdin)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(interpreter, "compile_block", lambda *args: None)
        slow = outcome(text, limits, stdin)
    return fast, slow


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_compiled_blocks_agree_with_the_closures(text):
    try:
        fast, slow = both(text)
    except StaticError:
        return
    assert fast == slow, text


INLINED = """\
ф (x) = x * 2 + 1
«(x) мало» = x < 5
«(x) в (a) свободно» = НЕ занято[a, x]
занято[1, 2] := ЛОЖЬ; занято[1, 4] := ИСТИНА
s := 0
ДЛЯ i := 1 ДО 5 ВЫПОЛНЯТЬ
  ЕСЛИ i мало ТО s := s + ф(i) ИНАЧЕ s := s - ф(i / 2) КОНЕЦ_ЕСЛИ
  ЕСЛИ i ОСТ 2 = 0 ТО
    ЕСЛИ i в 1 свободно ТО СООБЩИТЬ 'свободно', i КОНЕЦ_ЕСЛИ
  КОНЕЦ_ЕСЛИ
ВЕРНУТЬСЯ
СООБЩИТЬ s
"""


def test_every_step_limit_stops_both_at_the_same_place():
    """A limit reached inside a written-out call, a loop or a call: the same error and count."""
    total = outcome(INLINED, Limits(max_steps=10_000))[2]
    assert total > 10
    for limit in range(1, total + 2):
        fast, slow = both(INLINED, Limits(max_steps=limit))
        assert fast == slow, limit


def test_unusual_values_go_to_the_closures():
    """A fraction (ф(5 / 2)), an element never set and a logical index: the closures compute
    or report them."""
    fast, slow = both(INLINED + "ЕСЛИ 6 в 1 свободно ТО СООБЩИТЬ 6 КОНЕЦ_ЕСЛИ\n")
    assert fast == slow
    assert fast[0].endswith("18\n") and fast[1][0] == "unset-elem" and "занято[1, 6]" in fast[1][2]
    text = "а[1] := 5\nх := ИСТИНА\nДЛЯ i := 1 / 2 ДО 2 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ\nа[х] := 1\n"
    fast, slow = both(text)
    assert fast == slow and fast[0] == "1/2\n3/2\n" and fast[1][0] == "bad-index"


def test_the_depth_limit_at_a_written_out_call():
    text = "ф (x) = x + 1\nг (n) =\n  ЕСЛИ n > 0 ТО г(n - 1) ИНАЧЕ y := ф(n); СООБЩИТЬ y КОНЕЦ_ЕСЛИ\n"
    for depth in (5, 6, 7):
        fast, slow = both(text + f"г({depth - 1})\n", Limits(max_depth=6))
        assert fast == slow
    assert both(text + "г(4)\n", Limits(max_depth=6))[0][:2] == ("1\n", None)
    fast = both(text + "г(5)\n", Limits(max_depth=6))[0]
    assert fast[1][0] == "depth-limit" and fast[1][1] == (3, 37)  # at the call of ф


def test_signals_leave_a_compiled_block():
    """КОНЧЕНО inside ДЛЯ inside an endless loop, and a transfer from inside ЕСЛИ."""
    text = """\
ВЫПОЛНЯТЬ
  ДЛЯ i := 1 ДО 5 ВЫПОЛНЯТЬ
    ЕСЛИ i = 3 ТО КОНЧЕНО КОНЕЦ_ЕСЛИ
    СООБЩИТЬ i
  ВЕРНУТЬСЯ
ВЕРНУТЬСЯ
k := 0
А: k := k + 1
   ЕСЛИ k < 3 ТО ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ ЕСЛИ i = 2 ТО А КОНЕЦ_ЕСЛИ ВЕРНУТЬСЯ КОНЕЦ_ЕСЛИ
   СООБЩИТЬ 'k', k
   Я
"""
    fast, slow = both(text)
    assert fast == slow and fast[0] == "1\n2\nk 3\n"


def test_statements_nested_past_python_limits_keep_their_closures():
    text, close = "x := 0\n", ""
    for level in range(30):
        text += "  " * level + f"ДЛЯ i{level} := 1 ДО 1 ВЫПОЛНЯТЬ ПОКА x < {level + 1} ВЫПОЛНЯТЬ x := x + 1\n"
        close = "  " * level + "ВЕРНУТЬСЯ ВЕРНУТЬСЯ\n" + close
    fast, slow = both(text + close + "СООБЩИТЬ x\n")
    assert fast == slow and fast[0] == "30\n"


def test_compiled_blocks_are_used():
    with compilations(interpreter, "compile_block") as made:
        assert outcome(INLINED)[:2] == ("свободно 2\n18\n", None)
    assert made and all(made)


def test_written_out_calls_give_back_what_invoke_gives():
    """РЕЗУЛЬТАТ of a procedure, none when it was not set, and a procedure called for a value."""
    text = """\
сумма (n) =
    РЕЗУЛЬТАТ := 0
    ДЛЯ i := 1 ДО n ВЫПОЛНЯТЬ РЕЗУЛЬТАТ := РЕЗУЛЬТАТ + i ВЕРНУТЬСЯ
пусто (n) =
    ЕСЛИ n > 0 ТО РЕЗУЛЬТАТ := n КОНЕЦ_ЕСЛИ
показать (n) =
    СООБЩИТЬ 'n =', n
x := сумма(4)
показать(x)
СООБЩИТЬ x, пусто(2)
y := пусто(0)
"""
    fast, slow = both(text)
    assert fast == slow
    assert fast[0] == "n = 10\n10 2\n" and fast[1][0] == "no-value" and fast[1][1] == (11, 6)
    fast, slow = both("показать (n) =\n    СООБЩИТЬ n\nx := показать(1)\n")
    assert fast == slow and fast[1][0] == "no-value"


def test_labels_inside_a_nested_block_keep_their_state_block():
    """A goto to a label in the body of ПОКА, ЕСЛИ or ДЛЯ: that body is a state block."""
    loop = """\
s := 0
ПОКА s < 2 ВЫПОЛНЯТЬ
    s := s + 1
    ЕСЛИ s = 1 ТО ПЕРЕЙТИ К дальше КОНЕЦ_ЕСЛИ
    СООБЩИТЬ 'пропущено', s
    дальше: СООБЩИТЬ 'круг', s
ВЕРНУТЬСЯ
СООБЩИТЬ 'итог', s
"""
    fast, slow = both(loop)
    assert fast == slow and fast[0] == "круг 1\nпропущено 2\nкруг 2\nитог 2\n"
    procedure = """\
счёт (n) =
    РЕЗУЛЬТАТ := 0
    ЕСЛИ n > 0 ТО
        ЦИКЛ: РЕЗУЛЬТАТ := РЕЗУЛЬТАТ + n
        n := n - 1
        ЕСЛИ n > 0 ТО ЦИКЛ КОНЕЦ_ЕСЛИ
    КОНЕЦ_ЕСЛИ
ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ
    x := i
    ДАЛЕЕ: x := x * 10
    ЕСЛИ x < 1000 ТО ДАЛЕЕ КОНЕЦ_ЕСЛИ
    СООБЩИТЬ x
ВЕРНУТЬСЯ
СООБЩИТЬ счёт(4)
"""
    fast, slow = both(procedure)
    assert fast == slow and fast[0] == "1000\n2000\n10\n"
