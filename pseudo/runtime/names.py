"""The names the generated code and the runtime share, defined once.

The code generator writes them; the runtime reads them (the fast code's count of steps, the
exact main program it hands over to, the tables of an emitted file). A program may use any of
these words for its own variables and definitions: its names stay as they are, and the
generator gives these another Python name where they clash (pygen/names.py), telling the
runtime which (the table of the program, report.CompiledProgram.machine).
"""

MAIN = "главная"  # the main program, as a function
EXACT_MAIN = "главная_с_проверками"  # the exact code of the whole program, which the fast code hands over to
STEPS = "счёт_шагов"  # the fast code's count of steps …
BOUNDARY = "рубеж"  # … and the count at which it next looks at the limits
RESULT = "РЕЗУЛЬТАТ"  # a definition's value (the language's own word)
TABLE = "ПРОГРАММА"  # an emitted file: what its error reports need
KEPT = "ОСТАЛЬНОЕ"  # an emitted file with limits: the exact code, kept as text
RUNTIME_TEXT = "СРЕДА"  # an emitted file: the runtime's modules a start needs, kept as text
RUNTIME_LATER = "СРЕДА_ПОТОМ"  # an emitted file: the other modules of the runtime, kept as text
RUNTIME = "среда"  # an emitted file: the namespace of its runtime
RUNTIME_CODE = "код_среды"  # an emitted file: what compiles its runtime once and keeps the code
STATE, STATES = "состояние", "состояния"  # an automaton run by a loop over its states

# What the program part of generated Python may name from the runtime.
API = (
    "дробь", "Кончено", "Массив", "Ячейка", "ПУСТО", "больше", "войти", "выйти",
    "выполнить", "вычесть", "дел", "длительность", "забыть", "задано", "значение", "индекс", "конец_работы",
    "курсор", "логическое", "меньше", "место_курсора", "минус", "не_больше", "не_меньше", "не_равно", "ост",
    "очистить_экран", "пауза", "прогрессия", "прочесть", "прочесть_строку", "прочесть_строку_целиком", "прочесть_целое", "равно",
    "разделить", "сложить", "сообщить", "степень", "степень_целых", "умножить", "условие", "целый_индекс",
    "пределы", "цикл_не_кончится", "шаг", "АБС", "ВИД",
    "ДЕСЯТИЧНОЕ", "ДЛИНА", "МАКС", "МИН", "ПОДСТРОКА", "СИМВОЛ", "СЛУЧАЙНОЕ", "СТРОКА", "ЦЕЛ", "ЧИСЛО",
    "ввод_кончился", "вырастить",
)
# Python's builtins that generated code names (a program may use these words too).
PYTHON_WORDS = ("range", "globals", "locals", "len")
# The names generated code gives things of its own, besides the program's.
OWN = (MAIN, EXACT_MAIN, STEPS, BOUNDARY, TABLE, KEPT, RUNTIME_TEXT, RUNTIME_LATER, RUNTIME, RUNTIME_CODE, STATE,
       STATES)
