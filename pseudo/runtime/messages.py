"""What a running program can be told, in Russian: the runtime errors and the kinds of values.

Keys are stable codes; values are str.format templates. The front end's messages (syntax and
static errors, warnings) live in pseudo/messages.py.
"""
from contextlib import contextmanager

RUNTIME_MESSAGES = {
    "unset-var": "переменная {name} не получила значения",
    "unset-elem": "элемент {name}[{index}] не получил значения",
    "bad-index": "индекс массива {name} должен быть целым числом, а получено {value}{read}",
    "fraction-index": "индекс массива {name} должен быть целым числом, а получено {value}",
    "div-zero": "деление на ноль",
    "type-binary": "операция «{op}» не применима к {left} и {right}{read}",
    "type-unary": "операция «{op}» не применима к {kind}",
    "type-compare": "нельзя сравнивать {left} и {right}{read}",
    "power-exponent": "показатель степени должен быть целым, а не {kind}",
    "type-cond": "условие должно быть логическим (ИСТИНА или ЛОЖЬ), а получено {kind}",
    "type-logic": "операция «{op}» требует логических значений, а получено {kind}",
    "type-for": "границы и шаг цикла ДЛЯ должны быть числами, а получено {value}{read}",
    "for-zero-step": "шаг цикла ДЛЯ равен нулю",
    "no-value": "{name} не вернула значения (РЕЗУЛЬТАТ не присвоен)",
    "too-big": "слишком большое число: {detail}",
    "too-long": "слишком длинная строка ({length} символов)",
    "input-too-long": "ввод длиннее {length} знаков: столько pseudo не читает",
    "read-eof": "ввод кончился: {what} не получило {value} для {name} — это {nth}-е чтение {name}, а {held}",
    "screen-cursor": "строка и столбец курсора — целые числа от 1, а получено {value}",
    "screen-pause": "пауза — неотрицательное число миллисекунд, а получено {value}",
    "step-limit": "превышен предел шагов ({limit}){hot}",
    "repeat": "программа зациклилась: она снова здесь в том же состоянии{values} и дальше повторяла бы одно и то "
              "же без конца",
    "time-limit": "превышен предел времени ({limit} с); увеличьте его параметром --time-limit",
    "depth-limit": "превышена глубина рекурсии ({limit} вызовов)",
    "endless-while": "цикл не кончится: {unchanged} в нём, и условие «{cond}» после повторения снова верно{values}",
    "nesting-limit": "слишком глубокая вложенность выражений или блоков",
    "interrupted": "выполнение прервано (Ctrl-C)",
    "still-running": "программа уже {seconds} с ничего не читает и не печатает; сейчас она здесь",  # a notice
    "io-error": "ошибка ввода или вывода: {detail}",
    "builtin-kind": "{name} ожидает {wanted}, а получено {value}",
    "builtin-range": "{name}: {detail}",
    "builtin-mixed": "{name}: нельзя сравнивать {left} и {right}",
    "type-concat": "операция «+» не применима к {left} и {right}",
    "bad-input": "ввод не в кодировке UTF-8{where}",
}

# Hints that every report of the error carries, whichever mode raised it.
RUNTIME_HINTS = {
    "screen-cursor": "строки и столбцы экрана считаются с 1: курсор в строку 1, столбец 1 — левый верхний угол",
    "screen-pause": "пауза в миллисекундах: пауза 200 — пятая часть секунды",
    "unset-var": "присвойте {name} значение до этого места",
    "kind-word": "ВИД даёт вид значения строкой: пишите его в кавычках — ВИД(x) = '{name}'",
    "fraction-index": "деление «/» даёт дробь; для индекса делите нацело — ДЕЛ отбрасывает остаток: "
                      "{top} ДЕЛ {bottom} = {whole}",
    "word-read": "проверьте, что набрано, функцией ВИД: ЕСЛИ ВИД({read_into}) ≠ 'целое' ТО СООБЩИТЬ "
                 "'нужно целое число' … — и прочтите снова",
    "line-read": "число из прочитанной строки даёт ЧИСЛО: {read_into} := ЧИСЛО({read_into}); или читайте число "
                 "оператором ПРОЧЕСТЬ {read_into}, без СТРОКУ",
    "endless-while": "в теле цикла должно меняться то, от чего зависит условие{example}",
    "step-limit": "похоже, программа не кончается: посмотрите, что должно остановить повторение{where}; "
                  "--max-steps N поднимает предел, только если программе правда нужно больше шагов",
    "depth-limit": "похоже, рекурсия не кончается: у определения должен быть случай, в котором оно не вызывает "
                   "себя (ЕСЛИ n = 0 ТО 1 ИНАЧЕ …); --max-depth N поднимает предел, только если программе правда "
                   "нужна такая глубина",
    "repeat": "на каждом повторении что-то должно меняться и приближать цикл к концу: посмотрите, какое из этих "
              "значений должно было измениться",
    "input-too-long": "дайте программе ввод из файла, который кончается: pseudo run программа.pseudo < ввод.txt; "
                      "бесконечный поток (yes |, /dev/zero) программа не дочитает",
    "read-eof": "каждое чтение берёт из ввода новое значение: дайте программе столько значений, сколько она "
                "читает, или читайте, пока НЕ ввод кончился",
    "type-concat": "чтобы напечатать строку и число вместе, перечислите их через запятую — СООБЩИТЬ "
                   "'n =', n — или превратите число в строку: 'n = ' + СТРОКА(n)",
    "for-zero-step": "с шагом 0 цикл стоит на месте: от {start} до {stop} ведёт шаг {meant} — "
                     "ДЛЯ … := {start} ШАГ {meant} ДО {stop} ВЫПОЛНЯТЬ (без ШАГ шаг равен 1)",
    "unset-elem": "присвойте {name}[{index}] значение до этого места",
    "div-zero": "проверьте делитель до деления: ЕСЛИ d ≠ 0 ТО … ИНАЧЕ … КОНЕЦ_ЕСЛИ",
    "bad-index": "индекс массива — целое число: {name}[1], {name}[i + 1]",
    "type-cond": "условие — сравнение или логическое значение: ЕСЛИ x ≠ 0 ТО …, ПОКА s < 10 ВЫПОЛНЯТЬ …",
    "type-logic": "И, ИЛИ, НЕ соединяют условия, а не числа: x ≠ 0 И y ≠ 0",
    "power-exponent": "показатель степени — целое число: x ^ 2, x ^ (n ДЕЛ 2); корней и дробных степеней язык "
                      "не вычисляет",
    "no-value": "если {name} — функция, присвойте РЕЗУЛЬТАТ на каждом её пути: ЕСЛИ … ТО РЕЗУЛЬТАТ := … "
                "ИНАЧЕ РЕЗУЛЬТАТ := … КОНЕЦ_ЕСЛИ; если процедура — вызывайте её отдельной инструкцией",
    "too-big": "похоже, что-то растёт без конца: посмотрите, что умножается, возводится в степень или копится "
               "в цикле или в рекурсии",
    "too-long": "похоже, строка растёт без конца: посмотрите, что прибавляет к ней в цикле или в рекурсии",
    "nesting-limit": "вынесите внутреннюю часть выражения в переменную (t := …, затем t) или разбейте "
                     "вложенные блоки на процедуры",
    "bad-input": "сохраните файл ввода в кодировке UTF-8 (в Блокноте — «Сохранить как», кодировка UTF-8)",
    "still-running": "если она зациклилась, остановите её: Ctrl-C — и посмотрите, что должно остановить "
                     "повторение; если ей просто нужно много времени, подождите: её остановит предел времени "
                     "({time} с, --time-limit) или шагов ({steps}, --max-steps)",
}

KIND_WORDS = ("целое", "дробь", "строка", "логическое")  # what ВИД gives

# argparse's own words, as the command line and an emitted file's options say them (argparse
# looks each up through gettext's `_` when it uses it: commands/arguments.py and runner.py set it).
ARGPARSE_WORDS = {
    "usage: ": "использование: ",
    "the following arguments are required: %s": "не хватает аргументов: %s",
    "unrecognized arguments: %s": "неизвестные аргументы: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "недопустимое значение %(value)r (можно: %(choices)s)",
    "argument %(argument_name)s: %(message)s": "аргумент %(argument_name)s: %(message)s",
    "invalid %(type)s value: %(value)r": "неверное значение %(value)r",
    "expected one argument": "ожидается одно значение",
    "positional arguments": "аргументы",
    "options": "параметры",
    "show this help message and exit": "показать эту справку и выйти",
}

KIND_NAMES = {
    "int": "целое число", "Fraction": "дробь", "bool": "логическое значение",
    "str": "строка", "Массив": "массив", "NoneType": "отсутствие значения",
}
KIND_DATIVE = {  # «не применима к …»
    "int": "целому числу", "Fraction": "дроби", "bool": "логическому значению", "str": "строке",
    "Массив": "массиву",
}
KIND_ACCUSATIVE = {  # «нельзя сравнивать … и …»
    "int": "целое число", "Fraction": "дробь", "bool": "логическое значение", "str": "строку",
    "Массив": "массив",
}
KINDS = {"nom": KIND_NAMES, "dat": KIND_DATIVE, "acc": KIND_ACCUSATIVE}

SEVERITY_WORDS = {"error": "ошибка", "warning": "предупреждение", "notice": "замечание"}


@contextmanager
def reworded(messages: dict | None = None, hints: dict | None = None):
    """The runtime's messages and hints (by key) said in a host's own words while it runs a
    command — the playground's page, a notebook's cell — then as they were."""
    changes = ((RUNTIME_MESSAGES, messages or {}), (RUNTIME_HINTS, hints or {}))
    kept = [(table, {key: table[key] for key in new}) for table, new in changes]
    for table, new in changes:
        table.update(new)
    try:
        yield
    finally:
        for table, texts in kept:
            table.update(texts)
