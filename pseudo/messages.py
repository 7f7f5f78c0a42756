"""The front end's messages — syntax and static errors, warnings, hints — in one table: a
second language would be a second table. A running program's messages are the runtime's
(pseudo/runtime/messages.py); `message` finds either.

Keys are stable codes (used by the tests); values are str.format templates.
"""
from .runtime.messages import RUNTIME_MESSAGES

MESSAGES = {
    # syntax
    "unexpected-token": "{found}",
    "unexpected-eof": "текст кончился раньше времени",
    "operand-missing": "выражение оборвалось после {op}: за ним нужно значение — число, имя, строка или выражение в скобках",
    "unclosed-block": "{opener} не закрыто: текст кончился раньше, чем {closer}",
    "bracket-unclosed": "{opened} не закрыта: {closer} нет, а дальше уже {met} {where}",
    "bracket-unclosed-end": "{opened} не закрыта: выражение кончилось, а {closer} нет",
    "bracket-mismatch": "{opened} из строки {line}, столбца {column} закрыта {closed}",
    "bracket-over-header": "скобка «(» открыта в {what}, а закрыта{where} после {keyword}: она охватывает {keyword}",
    "unexpected-char": "непонятный символ {char!r}",
    "typographic-quote": "кавычка {char} — типографская: строки так не пишутся",
    "pattern-as-string": "{pattern} в кавычках-ёлочках — это образец фразы, а не строка",
    "header-missing-paren": "в заголовке определения не хватает «)» перед «=»",
    "empty-body": "у определения {name} пустое тело",
    "bad-pattern": "непонятный образец фразы: {detail}",
    "empty-condition": "пустое условие",
    "unclosed-comment": "комментарий «{{» не закрыт «}}»",
    "unclosed-string": "строка не закрыта кавычкой",
    # static
    "no-phrase": "не понимаю «{text}»: это не присваивание, не вызов и не известная фраза",
    "screen-not-value": "«{text}» — действие на экране, а не значение: в условие или выражение его не поставить",
    "phrase-or-procedure": "«{text}» читается и как фраза {phrase}, и как вызов процедуры {name}",
    "ambiguous-phrase": "«{text}» подходит к нескольким фразам: {candidates}",
    "not-a-statement": "выражение «{text}» не может быть инструкцией",
    "call-without-parens": "{name} — {kind}, вызывается со скобками: {call}",
    "array-as-value": "{name} — массив; его нельзя использовать целиком",
    "undefined-call": "неизвестная процедура или функция {name}",
    "builtin-hidden": "{name} — {what} этой программы: это имя скрывает встроенную функцию {name}",
    "missing-comma": "между {left} и {right} не хватает запятой",
    "assign-in-condition": "в условии {keyword} стоит «:=» — это присваивание, а не сравнение",
    "empty-parens": "пустые скобки: внутри «( )» должно быть выражение",
    "builtin-as-statement": "{name} — встроенная функция: она только вычисляет значение, и здесь оно пропадает",
    "arity": "{name} ожидает {expected} {noun}, а передано {got}",
    "ref-arg": "параметр РЕЗ {param} процедуры {name} требует переменную или элемент массива",
    "exit-outside-loop": "КОНЧЕНО вне цикла ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ",
    "result-outside-def": "РЕЗУЛЬТАТ допустим только внутри определения",
    "duplicate-def": "{name} уже определено в {where}",
    "duplicate-param": "параметр {name} повторяется",
    "duplicate-label": "метка {name} уже определена в строке {line}",
    "undefined-label": "переход к неизвестной метке {name}",
    "final-label": "Я — конечное состояние: переход к Я завершает программу, поэтому состояния Я: быть не может",
    "goto-into-block": "переход к метке {name} внутрь {what} извне",
    "assign-to-def": "{name} — имя процедуры или функции (определено в строке {line}), ему нельзя присваивать",
    "assign-target": "слева от «:=» должна стоять переменная или элемент массива",
    "read-target": "ПРОЧЕСТЬ кладёт прочитанное в переменную или элемент массива, а здесь значение",
    "local-array": "{name} — параметр или переменная цикла; массивом она быть не может",
    "scalar-and-array": "{name} используется и как переменная (строка {line}), и как массив",
    "too-deep-for-python": "pseudo py не может записать эту инструкцию на Python: в ней больше 200 вложенных "
                           "скобок (вызовов, условных выражений), а больше Python в тексте программы не читает",
    "use-not-found": "файл {path} не найден",
    "use-read-error": "не удалось прочесть файл {path}: {detail}",
    "use-not-top": "ИСПОЛЬЗОВАТЬ допустимо только на верхнем уровне программы",
    "pattern-adjacent-slots": "в образце фразы два параметра подряд: их нужно разделить словом или запятой",
    "pattern-no-word": "в образце фразы нет ни одного слова",
    # warnings (tolerances and the like)
    "tol-space-keyword": "«{text}» записано с пробелом; принято как {keyword}",
    "tol-lookalike": "имя «{written}» найдено как «{resolved}»: буквы похожи, но из разных алфавитов",
    "tol-label-comma": "запятая перед меткой {name} в конце инструкции; принята как переход",
    "tol-phrase-case": "слово «{written}» во фразе написано иначе, чем в определении («{defined}»)",
    "look-alike": "имя {name} выглядит так же, как {first} (строка {line}), но это другое имя: {how}",
    "def-like-assign": "{name} = … определяет функцию {name} без параметров; для присваивания пишите {name} := …",
    "global-across-recursion": "{proc} присваивает глобальной переменной {name} (строка {line}) и читает её здесь, "
                               "после рекурсивного вызова: это уже значение, которое оставили внутренние вызовы",
    "for-var-assigned": "присваивание {name} в теле цикла ДЛЯ {name} (строка {line}) не меняет его следующего "
                        "значения: цикл всё равно пройдёт все значения от начала до конца",
    "function-value-lost": "{name} — функция: она только вычисляет значение, и здесь оно пропадает",
    "state-falls": "состояние {name} кончается без перехода и продолжается в следующем, {next}",
    "state-ends": "состояние {name} кончается без перехода, и за ним других нет: здесь программа закончится",
    "state-unreachable": "в состояние {name} нельзя попасть из начального {entry}",
    "state-no-exit": "из состояния {name} нельзя дойти ни до Я, ни до конца",
    "never-assigned": "переменная {name} нигде не получает значения",
    "array-unread": "массив {name} получает значения, но нигде не читается",
    "use-ignored": "в файле {path} есть инструкции вне определений; они не выполняются",
    "endless-while": "{unchanged} в цикле «ПОКА {cond}»: если условие верно в начале, цикл не кончится",
    "phrase-capture": "фраза {phrase} берёт последним аргументом всё «{taken}», вместе со знаком «{op}»",
}

HINTS = {
    "header-missing-paren": "напишите «)» перед «=»: {name} (…) =",
    "no-phrase": "может быть, {nearest}?",
    "phrase-comma": "аргументы фразы разделяются запятыми, как в её образце {shape} (строка {line})",
    "undefined-call": "может быть, {nearest}?",
    "undefined-call-define": "если это операция программы, определите её: {header} …",
    "builtin-hidden": "переименуйте {whom} (строка {line}: {text}), и {name}(…) снова будет встроенной функцией",
    "call-of-variable": "{name} — переменная или массив этой программы, а не функция; элемент массива "
                        "пишется в квадратных скобках: {name}[…]",
    "empty-parens": "напишите в скобках значение или уберите скобки; вызов без аргументов — имя и скобки: f()",
    "empty-condition": "напишите после ключевого слова условие или границу цикла: ЕСЛИ x > 0 ТО …, ДЛЯ i := 1 ДО n …",
    "builtin-as-statement": "используйте значение: x := {call} или СООБЩИТЬ {call}",
    "undefined-label": "может быть, {nearest}?",
    "undefined-label-none": "состояние начинается своей меткой в начале строки: {name}: …{labels}",
    "final-label": "уберите метку «Я:» или назовите это состояние иначе",
    "duplicate-label": "у каждого состояния своя метка: переименуйте одну из двух",
    "duplicate-label-missing": "к {name} есть переход (строка {line}), а метки {name} нет: может быть, здесь {name}:?",
    "state-ends": "если так и задумано, напишите в конце Я; если нет — метку состояния, в которое перейти",
    "state-falls": "если так задумано, напишите переход явно — {next} в конце состояния {name}; если нет, "
                   "закончите {name} переходом к нужному состоянию",
    "state-unreachable": "перейдите в {name} из другого состояния (его имя в конце последовательности или "
                         "ПЕРЕЙТИ К {name}) или уберите это состояние",
    "state-no-exit": "из состояния {name} программа только ходит по кругу: добавьте на этом круге переход к Я",
    "look-alike": "если это одна переменная, наберите её имя одними и теми же буквами",
    "def-like-assign": "если {name} — переменная, пишите {name} := …",
    "for-var-assigned": "чтобы начать цикл заново или закончить его раньше, пишите его через ПОКА: {name} := 1; "
                        "ПОКА {name} ≤ n ВЫПОЛНЯТЬ … {name} := {name} + 1 ВЕРНУТЬСЯ",
    "global-across-recursion": "сделайте {name} параметром или переменной ДЛЯ (они свои в каждом вызове) или "
                               "прочтите её до рекурсивного вызова",
    "never-assigned": "может быть, {nearest}?",
    "array-unread": "может быть, {nearest}?",
    "keyword-as-name": "{keyword} — ключевое слово языка, а не имя: назовите переменную иначе, например {name} "
                       "(строчными буквами)",
    "keyword-case": "ключевые слова пишутся прописными буквами: {keyword}{where}",
    "keyword-typo": "может быть, {keyword} вместо «{written}»{where}?",
    "keyword-layout": "«{written}»{where} набрано в латинской раскладке клавиатуры: это {keyword}; переключите "
                      "раскладку на русскую",
    "keyword-latin": "«{written}»{where} набрано латинскими буквами; ключевое слово {keyword} пишется кириллицей",
    "keyword-latin-letters": "в «{written}»{where} {which} {letters}; ключевое слово {keyword} пишется "
                             "целиком кириллицей",
    "label-as-assign": "«:» после имени делает его меткой; присваивание пишется «:=»: {fixed}",
    "label-without-colon": "если {name} — метка состояния, после неё пишется двоеточие: {fixed}",
    "name-with-space": "имя пишется одним словом, без пробелов: {fixed}",
    "print-semicolon": "значения СООБЩИТЬ разделяются запятыми, «;» кончает инструкцию: {fixed}",
    "trailing-comma": "запятая в конце лишняя: {fixed}",
    "extra-comma": "здесь лишняя запятая: {fixed}",
    "keyword-colon": "после {keyword} двоеточие не пишется: {fixed}",
    "colon-for-keyword": "вместо двоеточия пишется {keyword}: {fixed}",
    "half-comparison": "после {conj} сравнение пишется целиком: {fixed}",
    "list-literal": "списков значений в языке нет: элементы массива получают значения по одному — {fixed}",
    "missing-to": "конец цикла ДЛЯ пишется после ДО: {fixed}",
    "assign-expected": "здесь присваивание, оно пишется «:=»: {fixed}",
    "assign-signs": "присваивание пишется «:=», слитно, а не «{written}»: {fixed}",
    "loop-end-not-end-if": "цикл {opener} со строки {line} закрывается словом ВЕРНУТЬСЯ, а не КОНЕЦ_ЕСЛИ",
    "double-equals": "сравнение на равенство пишется одним «=»: x = 1 («:=» — присваивание)",
    "compare-chain": "сравнения не сцепляются: вместо a < b < c пишите a < b И b < c",
    "swapped-signs": "«{written}» пишется {sign}",
    "operand-missing": "допишите второе значение ({op} …) или уберите {op}",
    "two-operators": "между «{first}» и «{second}» нужно значение: допишите его или уберите лишний знак",
    "unpaired-close": "у этой {close} нет парной {open} перед ней: уберите её или допишите {open}",
    "bracket-unclosed": "допишите {closer} там, где кончается выражение",
    "bracket-over-header": "{keyword} не бывает внутри скобок: уберите обе скобки — {fixed}{moved}",
    "bracket-over-header-moved": " — или закройте скобку перед {keyword}: {fixed}",
    "bracket-mismatch": "скобки закрываются своими: ( … ), [ … ]; элемент массива — a[i], вызов — f(x)",
    "operand-before": "перед {close} нужно значение: число, имя или выражение",
    "missing-comma": "значения разделяются запятыми: {fixed}",
    "assign-in-condition": "сравнение пишется «=»: {fixed}",
    "typographic-quote": "строку пишите в прямых кавычках: {fixed} (или \"…\")",
    "pattern-as-string": "«…» пишутся только в заголовке фразы («…» =); строка пишется в прямых кавычках: {fixed}",
    "loop-end-in-definition": "ВЕРНУТЬСЯ не выходит из определения: он закрывает цикл ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ{where}; "
                              "определение кончается после своей последней строки — то, что не должно "
                              "выполняться, поставьте в ИНАЧЕ: ЕСЛИ … ТО … ИНАЧЕ … КОНЕЦ_ЕСЛИ",
    "loop-end-in-program": "ВЕРНУТЬСЯ не выходит из программы: он закрывает цикл ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ{where}; "
                           "чтобы закончить программу, пишите КОНЕЦ_РАБОТЫ",
    "too-deep-for-python": "вынесите внутреннюю часть выражения в переменную: t := …, а затем используйте t; "
                           "pseudo run и pseudo trace выполняют программу и так",
    "use-not-a-program": "ИСПОЛЬЗОВАТЬ подключает файл с определениями на языке книги: 'доска.pseudo'",
    "use-no-access": "у pseudo нет права читать {path}: разрешите чтение (chmod a+r {path}) или положите копию "
                     "файла рядом с программой",
    "sign-of-another-language": "в языке книги «{sign}» пишется {word}",
    "comment-braces": "комментарий пишется в фигурных скобках: {{ … }}",
    "invisible-char": "здесь невидимый знак {number} (его приносит копирование из браузера или текстового "
                      "редактора): удалите его",
    "name-underscore": "имя начинается с буквы: {fixed}",
    "decimal-comma": "дробное число пишется через «/»: {written} — это {fixed}; запятая разделяет значения",
    "read-target": "напишите, куда прочесть: ПРОЧЕСТЬ x или ПРОЧЕСТЬ a[i]; чтобы напечатать значение — СООБЩИТЬ",
    "two-numbers": "между значениями нужна операция или запятая; дробь пишется через «/»: 3/2",
    "decimal-point": "дробное число пишется через «/»: {written} — это {fixed}",
    "label-elsewhere": "метка {name} есть в строке {line}, но вне этого определения: метки видны только там, "
                       "где определены; строки тела начинайте с отступа",
    "assign-equals": "для присваивания пишется «:=», а не «=»",
    "extra-end-if": "лишний КОНЕЦ_ЕСЛИ? у каждого ЕСЛИ ровно один КОНЕЦ_ЕСЛИ",
    "closer-at-line-end": "допишите {closer} в конце строки: {fixed}",
    "closer-missing": "{opener} со строки {line} закрывается словом {closer}: допишите его после последней строки блока",
    "missing-end-if": "не закрыто ЕСЛИ со строки {line}: добавьте КОНЕЦ_ЕСЛИ",
    "end-if-before-bracket": "не закрыто ЕСЛИ со строки {line}: условное выражение кончается словом КОНЕЦ_ЕСЛИ — "
                             "допишите его перед {bracket}: (ЕСЛИ … ТО … ИНАЧЕ … КОНЕЦ_ЕСЛИ)",
    "missing-loop-end": "не закрыт цикл {opener} со строки {line}: добавьте ВЕРНУТЬСЯ",
    "missing-then": "после условия ЕСЛИ{where} пишется ТО",
    "else-if": "у каждого ЕСЛИ свой КОНЕЦ_ЕСЛИ: ЕСЛИ после ИНАЧЕ (строка {line}) открывает новое — закройте "
               "и его, и внешнее: КОНЕЦ_ЕСЛИ КОНЕЦ_ЕСЛИ",
    "def-or-assign-in-block": "если строка {line} — определение {name}, то {opener} со строки {opener_line} ещё "
                              "не закрыто: определения пишутся вне блоков — поставьте {closer} перед строкой "
                              "{line}; если присваивание — пишите {name} := …",
    "def-in-block": "строка {line} начинается как определение {name}, но {opener} со строки {opener_line} ещё "
                    "не закрыто: определения пишутся вне блоков — поставьте {closer} перед строкой {line}",
    "defined-at": "{name} определена в строке {line}: {header}",
    "phrase-or-procedure": "переименуйте процедуру или поменяйте слова фразы",
    "screen-not-value": "напишите его отдельной инструкцией, например: ЕСЛИ показ ТО пауза 200 КОНЕЦ_ЕСЛИ",
    "array-as-value": "пишите его элементы: {name}[1], {name}[i]; чтобы напечатать все, переберите их в ДЛЯ",
    "print-comma": "запятая в конце СООБЩИТЬ оставляет строку вывода открытой, и на ней инструкция "
                   "кончается; следующую инструкцию отделите «;» или начните с новой строки",
    "phrase-word-latin": "в «{written}» {which} {letters}; во фразе {key} (строка {line}) слово «{word}» "
                         "написано кириллицей",
    "phrase-pattern-latin": "в образце {key} (строка {line}) в слове «{word}» {which} {letters}; исправьте "
                            "образец: здесь «{written}» написано кириллицей",
    "phrase-word-yo": "во фразе {key} (строка {line}) — «{word}», а здесь «{written}»: е и ё — разные буквы, "
                      "пишите слово одинаково",
    "phrase-undefined": "если это операция книги, определите её фразой: {pattern} = …",
    "early-close": "«)» перед запятой закрыла скобку раньше времени, и в конце лишняя «)»: {fixed}",
    "comma-for-semicolon": "инструкции разделяются «;» или переводом строки, а не запятой: {fixed}",
    "missing-do": "после условия цикла {opener}{where} пишется ВЫПОЛНЯТЬ",
    "body-dedent": "строки тела определения, кроме закрывающих, начинайте с отступа",
    "endless-while": "в теле цикла должно меняться то, от чего зависит условие: например, {name} := {name} + 1",
    "duplicate-param": "в заголовке {header} имя {name} носят {first}-й и {second}-й параметры: у каждого "
                       "параметра своё имя — переименуйте {second}-й",
    "stray-loop-end": "цикл {opener} со строки {line} уже закрыт словом ВЕРНУТЬСЯ в строке {closed}: у каждого "
                      "цикла ровно одно ВЕРНУТЬСЯ — уберите лишнее",
    "step-before-to": "ШАГ пишется перед ДО: {fixed}",
    "unclosed-comment": "закройте комментарий фигурной скобкой: {{ … }}",
    "unclosed-string": "закройте строку той же кавычкой, что её открывает, на этой же строке: 'текст'",
    "bad-pattern": "образец фразы — слова и параметры в скобках, в ёлочках: «место (k), (i) свободно» =",
    "pattern-adjacent-slots": "напишите между параметрами слово или запятую: «между (a) и (b)», «точка (x), (y)»",
    "pattern-no-word": "в образце нужно хотя бы одно слово: «квадрат (n)» =",
    "ambiguous-phrase": "поменяйте слова одной из фраз, чтобы они различались, или возьмите аргумент в скобки",
    "exit-outside-loop": "КОНЧЕНО выходит из цикла ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ; чтобы закончить программу, пишите "
                         "КОНЕЦ_РАБОТЫ",
    "result-outside-def": "РЕЗУЛЬТАТ — значение функции, он пишется в её теле; в главной программе возьмите "
                          "переменную: r := …, СООБЩИТЬ r",
    "duplicate-def": "переименуйте одно из определений или уберите лишнее",
    "goto-into-block": "переходить можно к метке своего блока или внешнего: вынесите метку из блока или "
                       "перейдите к метке перед ним",
    "assign-target": "слева от «:=» пишется имя: x := …, a[i] := …",
    "assign-after": "допишите значение после «:=»: {target} := 0",
    "local-array": "назовите массив иначе, чем параметры и переменные циклов",
    "scalar-and-array": "дайте переменной и массиву разные имена",
    "string-as-array": "{name} — строка, а не массив: её символ — СИМВОЛ({name}, i), часть — ПОДСТРОКА({name}, i, n)",
    "ref-arg": "положите значение в переменную и передайте её: t := …, затем {name}(…, t, …)",
    "use-not-top": "пишите ИСПОЛЬЗОВАТЬ в первой колонке, вне определений и блоков",
    "use-not-found": "может быть, ИСПОЛЬЗОВАТЬ '{nearest}'?",
    "use-not-found-folder": "путь к файлу считается от папки программы{folder}",
    "arity-builtin": "{name} пишется так: {usage}",
    "phrase-capture": "если «{op}» относится к значению фразы, возьмите в скобки фразу: {fix}; если к аргументу — "
                      "аргумент: {inside}",
}

# What the parser expected, by terminal name, in words.
TERMINALS = {
    "IF": "ЕСЛИ", "THEN": "ТО", "ELSE": "ИНАЧЕ", "END_IF": "КОНЕЦ_ЕСЛИ", "WHILE": "ПОКА",
    "FOR": "ДЛЯ", "STEP": "ШАГ", "TO": "ДО", "DO": "ВЫПОЛНЯТЬ", "LOOP_END": "ВЕРНУТЬСЯ",
    "EXIT": "КОНЧЕНО", "PRINT": "СООБЩИТЬ", "READ": "ПРОЧЕСТЬ", "STOP": "КОНЕЦ_РАБОТЫ",
    "USE": "ИСПОЛЬЗОВАТЬ", "GOTO": "ПЕРЕЙТИ К", "AND": "И", "OR": "ИЛИ", "NOT": "НЕ",
    "TRUE": "ИСТИНА", "FALSE": "ЛОЖЬ", "DIV": "ДЕЛ", "MOD": "ОСТ", "RESULT": "РЕЗУЛЬТАТ",
    "REZ": "РЕЗ", "DEF_NAME": "имя определения", "DEF_EQ": "«=» определения",
    "LABEL": "метка", "NAME": "имя", "NUMBER": "число", "STRING": "строка",
    "PATTERN": "образец фразы «…»", "ASSIGN": "«:=»", "NE": "«≠»", "LE": "«≤»", "GE": "«≥»",
    "EQ": "«=»", "LT": "«<»", "GT": "«>»", "PLUS": "«+»", "MINUS": "«-»", "STAR": "«*»",
    "SLASH": "«/»", "CARET": "«^»", "COMMA": "запятая", "SEMI": "«;»", "LPAR": "«(»",
    "RPAR": "«)»", "LSQB": "«[»", "RSQB": "«]»", "_NL": "конец строки", "$END": "конец текста",
}

KEYWORDS = {"ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ", "ПОКА", "ДЛЯ", "ШАГ", "ДО", "ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ",
            "КОНЧЕНО", "СООБЩИТЬ", "ПРОЧЕСТЬ", "КОНЕЦ_РАБОТЫ", "ИСПОЛЬЗОВАТЬ", "И", "ИЛИ", "НЕ",
            "ИСТИНА", "ЛОЖЬ", "ДЕЛ", "ОСТ", "РЕЗУЛЬТАТ", "РЕЗ"}


def message(code: str, **args) -> str:
    return (MESSAGES.get(code) or RUNTIME_MESSAGES[code]).format(**args)


def nearest(word: str, choices, cutoff: float = 0.6) -> str | None:
    """The choice closest to `word`, for a hint: first one that differs only in capitals
    (Факт for ФАКТ, S for s), which difflib rates far apart. difflib is imported here, on the
    path of a message only, so that it is not part of every start."""
    import difflib
    others = [c for c in choices if c != word]  # never itself
    found = [c for c in others if c.casefold() == word.casefold()] or \
        difflib.get_close_matches(word, others, n=1, cutoff=cutoff)
    return found[0] if found else None


def byte_place(data: bytes, start: int) -> tuple[int, int]:
    """The line and column (of characters, from 1) of the byte `start` of a file that is not
    UTF-8 there, as an editor shows them: a count of bytes from 0 finds nothing in an editor."""
    before = data[:start].decode("utf-8", "replace")
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def not_utf8(data: bytes, start: int) -> str:
    """«не в кодировке UTF-8 (строка 2, столбец 11)»."""
    line, column = byte_place(data, start)
    return f"не в кодировке UTF-8 (строка {line}, столбец {column})"


def encoding_hint(data: bytes, what: str) -> str:
    """The hint for a file that is not UTF-8: Notepad of older Windows saves Russian text in
    Windows-1251, whose bytes then read as Cyrillic letters, or as «Юникод», UTF-16 with its
    zero bytes; say so, and how to save it again."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        return f"похоже, файл сохранён в UTF-16 («Юникод» в Блокноте): сохраните {what} в UTF-8"
    try:
        foreign = [c for c in data.decode("cp1251") if ord(c) > 127]
    except UnicodeDecodeError:
        foreign = []
    if len(foreign) >= 3 and sum("А" <= c <= "я" or c in "Ёё" for c in foreign) >= 0.9 * len(foreign):
        return (f"похоже, файл сохранён в кодировке Windows-1251: сохраните {what} в UTF-8 "
                "(в Блокноте — «Сохранить как», кодировка UTF-8)")
    return f"сохраните {what} в UTF-8"


def hint(code: str, **args) -> str:
    return HINTS[code].format(**{"where": ""} | args)  # `where`: the place of a word the caret is not under
