"""The runtime: the whole dynamic semantics of the language, in one place.

Values and their printing (values), the operators (ops), steps and limits (limits), input and
output (io), error reports (report) and running a program (runner). The interpreter calls it;
the Python that the code generator writes calls it too — importing this package
(`pseudo run`, `pseudo py --import-runtime`), or carrying a copy of its modules, whole, after
the program (`pseudo py`; `bytecode` compiles those a start needs once and keeps their code
beside the file). So the modules use only the standard library and each other, and no two of
them define the same name.
"""
import builtins

from .io import (
    ввод_кончился,
    длительность,
    курсор,
    место_курсора,
    очистить_экран,
    пауза,
    прочесть,
    прочесть_строку,
    прочесть_строку_целиком,
    прочесть_целое,
    сообщить,
)
from .library import АБС, ВИД, ДЕСЯТИЧНОЕ, ДЛИНА, МАКС, МИН, ПОДСТРОКА, СИМВОЛ, СЛУЧАЙНОЕ, СТРОКА, ЦЕЛ, ЧИСЛО
from .limits import Limits, войти, выйти, пределы, цикл_не_кончится, шаг
from .names import API, BOUNDARY, EXACT_MAIN, MAIN, PYTHON_WORDS, RESULT, STEPS
from .ops import (
    NEGATION,
    OPERATORS,
    больше,
    вычесть,
    дел,
    индекс,
    логическое,
    меньше,
    минус,
    не_больше,
    не_меньше,
    не_равно,
    ост,
    прогрессия,
    равно,
    разделить,
    сложить,
    степень,
    степень_целых,
    умножить,
    условие,
)
from .report import CompiledProgram, Definition
from .runner import выполнить
from .values import (
    ПУСТО,
    Failure,
    КонецРаботы,
    Кончено,
    Массив,
    Ячейка,
    вырастить,
    дробь,
    забыть,
    задано,
    значение,
    конец_работы,
    целый_индекс,
)

# The modules, in the order an emitted file carries them (each uses only those before it).
MODULES = ("names", "messages", "values", "ops", "limits", "io", "library", "report", "runner")


def load_code(codes, program, lines=True):
    """главная of a program compiled in memory (its code objects, one per source file): its
    definitions made in a namespace of their own that holds the runtime's API and the builtins
    the code names, under the names the code gives them (`program`: its CompiledProgram).
    `lines`: register the program's lines for a Python traceback of its frames (--debug)."""
    machine = program.machine
    namespace = {"__name__": "pseudo_program", **{machine.get(word, word): globals()[word] for word in API}}
    for word in PYTHON_WORDS:
        if word in machine:
            namespace[machine[word]] = getattr(builtins, word)
    if lines:
        import linecache
        for filename, text in program.texts.items():
            linecache.cache[filename] = (len(text), None, [x + "\n" for x in text.split("\n")], filename)
    for code in codes:
        exec(code, namespace)  # noqa: S102 - running the program is the point
    return namespace[machine.get(MAIN, MAIN)]


__all__ = [
    "API",
    "BOUNDARY",
    "EXACT_MAIN",
    "MAIN",
    "MODULES",
    "NEGATION",
    "OPERATORS",
    "RESULT",
    "STEPS",
    "АБС",
    "ВИД",
    "ДЕСЯТИЧНОЕ",
    "ДЛИНА",
    "МАКС",
    "МИН",
    "ПОДСТРОКА",
    "ПУСТО",
    "СИМВОЛ",
    "СЛУЧАЙНОЕ",
    "СТРОКА",
    "ЦЕЛ",
    "ЧИСЛО",
    "CompiledProgram",
    "Definition",
    "Failure",
    "Limits",
    "КонецРаботы",
    "Кончено",
    "Массив",
    "Ячейка",
    "load_code",
    "больше",
    "ввод_кончился",
    "войти",
    "выйти",
    "выполнить",
    "вырастить",
    "вычесть",
    "дел",
    "длительность",
    "дробь",
    "забыть",
    "задано",
    "значение",
    "индекс",
    "конец_работы",
    "курсор",
    "логическое",
    "меньше",
    "место_курсора",
    "минус",
    "не_больше",
    "не_меньше",
    "не_равно",
    "ост",
    "очистить_экран",
    "пауза",
    "пределы",
    "прогрессия",
    "прочесть",
    "прочесть_строку",
    "прочесть_строку_целиком",
    "прочесть_целое",
    "равно",
    "разделить",
    "сложить",
    "сообщить",
    "степень",
    "степень_целых",
    "умножить",
    "условие",
    "целый_индекс",
    "цикл_не_кончится",
    "шаг",
]
