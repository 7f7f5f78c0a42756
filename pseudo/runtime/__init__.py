"""The runtime: the whole dynamic semantics of the language, in one place.

Values and their printing (values), the operators (ops), steps and limits (limits), input and
output (io), error reports (report) and running a program (runner). The interpreter calls it;
the Python that the code generator writes calls it too — importing this package
(`pseudo run`, `pseudo py --import-runtime`), or carrying a copy of its modules, whole, after
the program (`pseudo py`; `bytecode` compiles those a start needs once and keeps their code
beside the file). So the modules use only the standard library and each other, and no two of
them define the same name.
"""
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
from .runner import BOUNDARY, MAIN, MAIN_CHECKED, RESULT, STEPS, выполнить
from .values import (
    Failure,
    КонецРаботы,
    Кончено,
    Массив,
    Строки,
    Ячейка,
    дробь,
    забыть,
    значение,
    конец_работы,
    целый_индекс,
)

# The modules, in the order an emitted file carries them (each uses only those before it).
MODULES = ("messages", "values", "ops", "limits", "io", "library", "report", "runner")

# What the program part of generated Python may name.
API = (
    "дробь", "Кончено", "Массив", "Строки", "Ячейка", "больше", "войти", "выйти",
    "выполнить", "вычесть", "дел", "длительность", "забыть", "значение", "индекс", "конец_работы", "курсор",
    "логическое", "меньше", "место_курсора", "минус", "не_больше", "не_меньше", "не_равно", "ост",
    "очистить_экран", "пауза", "прогрессия", "прочесть", "прочесть_строку", "прочесть_строку_целиком", "прочесть_целое",
    "равно",
    "разделить", "сложить", "сообщить", "степень", "степень_целых", "умножить", "условие", "целый_индекс",
    "пределы", "цикл_не_кончится", "шаг", "АБС", "ВИД",
    "ДЕСЯТИЧНОЕ", "ДЛИНА", "МАКС", "МИН", "ПОДСТРОКА", "СИМВОЛ", "СЛУЧАЙНОЕ", "СТРОКА", "ЦЕЛ", "ЧИСЛО",
    "ввод_кончился",
)



def load_code(codes, texts=None):
    """главная of a program compiled in memory (its code objects, one per source file): its
    definitions made in a namespace of their own that holds the runtime's API. `texts` (file →
    text): the lines Python shows in a traceback of the program's frames (--debug)."""
    namespace = {"__name__": "pseudo_program", **{name: globals()[name] for name in API}}
    if texts:
        import linecache
        for filename, text in texts.items():
            linecache.cache[filename] = (len(text), None, [x + "\n" for x in text.split("\n")], filename)
    for code in codes:
        exec(code, namespace)  # noqa: S102 - running the program is the point
    return namespace[MAIN]


__all__ = [
    "API",
    "BOUNDARY",
    "MAIN",
    "MAIN_CHECKED",
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
    "Строки",
    "Ячейка",
    "load_code",
    "больше",
    "ввод_кончился",
    "войти",
    "выйти",
    "выполнить",
    "вычесть",
    "дел",
    "длительность",
    "дробь",
    "забыть",
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
