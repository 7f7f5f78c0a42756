from conftest import run_text

from pseudo import nodes
from pseudo.interpreter import Interpreter


def test_every_node_class_has_an_evaluator():
    for cls in nodes.STMT_NODES:
        assert hasattr(Interpreter, "_exec_" + cls.__name__), cls
    for cls in nodes.EXPR_NODES:  # a constant and a variable are read by eval() itself
        assert hasattr(Interpreter, "_eval_" + cls.__name__) or cls in Interpreter.LEAVES, cls


def test_entry_is_the_label_programma():
    out = run_text("С: СООБЩИТЬ 'С'; Я\nПРОГРАММА: СООБЩИТЬ 'начало'; С\n")
    assert out.lines == ["начало", "С"]


def test_fall_through_into_the_next_state():
    out = run_text("А: СООБЩИТЬ 1\nБ: СООБЩИТЬ 2\n")
    assert out.lines == ["1", "2"]


def test_labels_are_local_to_a_definition():
    text = "f (n) =\n  А: n := n - 1\n  ЕСЛИ n > 0 ТО А КОНЕЦ_ЕСЛИ\n  РЕЗУЛЬТАТ := n\nА: СООБЩИТЬ f(5)\n"
    assert run_text(text).lines == ["0"]


def test_steps_count_loops_calls_and_transfers():
    import io

    import pseudo
    from pseudo.frontend.source import Source
    from pseudo.runtime.limits import steps_taken
    loaded = pseudo.load(Source("f (x) = x\nДЛЯ i := 1 ДО 10 ВЫПОЛНЯТЬ y := f(i) ВЕРНУТЬСЯ\n"
                                "А: ЕСЛИ y > 0 ТО y := y - 5; А КОНЕЦ_ЕСЛИ\n"))
    for mode in ("reference", "interpret", "exact"):  # the fast code counts from above (pygen/weights.py)
        pseudo.run(loaded, stdout=io.StringIO(), mode=mode)
        assert steps_taken() == 10 + 10 + 2, mode


def test_runtime_error_keeps_output_so_far():
    out = run_text("СООБЩИТЬ 1\nСООБЩИТЬ 1 / 0\n")
    assert out.lines == ["1"] and out.error.code == "div-zero"


def test_an_unknown_mode_is_refused_not_run_another_way():
    import io

    import pytest

    import pseudo
    from pseudo.frontend.source import Source
    with pytest.raises(ValueError, match="'interp'"):
        pseudo.run(pseudo.load(Source("СООБЩИТЬ 1\n")), stdout=io.StringIO(), mode="interp")
