"""Syntax highlighting of the book's language: one table of rules, two users.

`tokens(text)` cuts any text into (kind, text) pairs in pure Python: every character lands in
exactly one piece, and it never fails, whatever the text (an unclosed comment or string runs to
the end of the text or of the line; an unknown character is "text"). The trace page and other
tools use it without Pygments. `PseudoLexer` is a Pygments `RegexLexer` built from the same
rules; it is created on first access (so this module imports without Pygments) and registered
through the `pygments.lexers` entry point, which makes `pygmentize -l pseudo`, Sphinx, MkDocs
and Jupyter highlight `*.pseudo` files and ```pseudo blocks.

The rules follow grammar/pseudo.lark: the same keywords (КОНЕЦ_ЕСЛИ, КОНЕЦ_РАБОТЫ also written
with a space, ПЕРЕЙТИ К), labels `ИМЯ:` not followed by `=`, comments `{…}` spanning lines,
strings '…' and "…", integers, phrase patterns «…», and the book's signs (:= ≠ ≤ ≥ − –).
Definition headers (`ИМЯ (p, …) =`, `ИМЯ =` from column 1) name what they define.
"""
from __future__ import annotations

import html as _html
import re
from typing import ClassVar

KEYWORDS = ("ЕСЛИ", "ТО", "ИНАЧЕ", "ПОКА", "ДЛЯ", "ШАГ", "ДО", "ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ", "КОНЧЕНО",
            "СООБЩИТЬ", "ПРОЧЕСТЬ", "ИСПОЛЬЗОВАТЬ", "И", "ИЛИ", "НЕ", "ДЕЛ", "ОСТ", "РЕЗУЛЬТАТ", "РЕЗ")
"""The one-word keywords; КОНЕЦ_ЕСЛИ, КОНЕЦ_РАБОТЫ and ПЕРЕЙТИ К are rules of their own."""
CONSTANTS = ("ИСТИНА", "ЛОЖЬ")
BUILTINS = ("СЛУЧАЙНОЕ", "ДЛИНА", "СИМВОЛ", "ПОДСТРОКА", "СТРОКА", "ЧИСЛО", "ВИД", "АБС", "ЦЕЛ", "МИН", "МАКС",
            "ДЕСЯТИЧНОЕ")
"""The built-in functions of the language contract, highlighted where they are called: `ДЛИНА(s)`.
(The runtime's own table, runtime.library.BUILTINS, is not imported here: this module loads in
a few milliseconds without the runtime; tests/test_highlight.py holds the two equal.)"""

_WORD = r"[^\W\d_]\w*"  # a name: a letter, then letters, digits and `_` (grammar: NAME)
_END = r"(?!\w)"  # a keyword ends where the word ends: ДОСКА is a name, not ДО + СКА


def _words(words) -> str:
    return "(?:" + "|".join(sorted(words, key=lambda w: (-len(w), w))) + ")" + _END


TOKEN_RULES: list[tuple[str, str]] = [
    (r"\n", "whitespace"),
    (r"[ \t\f\r\u00a0]+", "whitespace"),
    (r"\{[^}]*\}?", "comment"),  # may span lines; an unclosed one runs to the end of the text
    (r"'[^'\n]*'?", "string"),  # an unclosed string runs to the end of its line
    (r'"[^"\n]*"?', "string"),
    (r"«[^»]*»|«[^»\n]*", "phrase"),  # a phrase pattern: «место (k), (i) свободно»
    (r"КОНЕЦ(?:_|[ \t]+)ЕСЛИ" + _END, "keyword"),  # the printed «КОНЕЦ ЕСЛИ» too
    (r"КОНЕЦ(?:_|[ \t]+)РАБОТЫ" + _END, "keyword"),
    (r"ПЕРЕЙТИ[ \t]+К" + _END, "keyword"),
    (_WORD + r"[ \t]*:(?!=)", "label"),  # С:, СОК:, ПРОГРАММА: — never `x :=`
    (_words(CONSTANTS), "constant"),
    (_words(KEYWORDS), "keyword"),
    # a definition header from column 1: `HR (k) =`, `пи =`, `обменять (РЕЗ x, РЕЗ y) =`
    (r"^" + _WORD + r"(?=[ \t]*(?:\([^()\n]*\))?[ \t]*=)", "definition"),
    (_words(BUILTINS) + r"(?=[ \t]*\()", "builtin"),
    (_WORD, "name"),
    (r"\d+", "number"),
    (r":=|<>|<=|>=|[≠≤≥=<>+\-−–*/^]", "operator"),
    (r"[()\[\],;:]", "punctuation"),
    (r"[\s\S]", "text"),  # anything else, one character at a time: never an error token
]
"""Ordered (regular expression, kind) pairs: at each place the first rule that matches wins.
Expressions are compiled with re.MULTILINE (so `^` is the start of a line), as Pygments does."""

KINDS = ("keyword", "constant", "label", "definition", "builtin", "phrase", "comment", "string", "number",
         "operator", "punctuation", "name", "whitespace", "text")

_PATTERN = re.compile("|".join(f"(?P<r{i}>{rx})" for i, (rx, _) in enumerate(TOKEN_RULES)), re.MULTILINE)
_KIND_OF = {f"r{i}": kind for i, (_, kind) in enumerate(TOKEN_RULES)}


def tokens(text: str) -> list[tuple[str, str]]:
    """The text as (kind, piece) pairs, in order; the pieces joined give the text back."""
    out: list[tuple[str, str]] = []
    pos, end = 0, len(text)
    while pos < end:
        m = _PATTERN.match(text, pos)  # never None: the last rule matches any character
        kind, piece = _KIND_OF[m.lastgroup], m.group()
        if out and out[-1][0] == kind and kind in ("whitespace", "text"):
            out[-1] = (kind, out[-1][1] + piece)
        else:
            out.append((kind, piece))
        pos = m.end()
    return out


def to_html(text: str, prefix: str = "hl-") -> str:
    """The text as HTML: each piece escaped, and in `<span class="hl-KIND">` unless it is
    whitespace or plain text (a piece may hold line breaks: comments span lines)."""
    parts = []
    for kind, piece in tokens(text):
        escaped = _html.escape(piece, quote=False)
        parts.append(escaped if kind in ("whitespace", "text") else f'<span class="{prefix}{kind}">{escaped}</span>')
    return "".join(parts)


CSS = """\
.hl-keyword { color: #1a4fa0; font-weight: bold; }
.hl-constant { color: #7b3fa8; font-weight: bold; }
.hl-label { color: #b35900; font-weight: bold; }
.hl-definition, .hl-phrase { color: #00796b; font-weight: bold; }
.hl-builtin { color: #00796b; }
.hl-comment { color: #6a737d; font-style: italic; }
.hl-string { color: #a31515; }
.hl-number { color: #09825d; }
.hl-operator, .hl-punctuation { color: #555555; }
"""
"""A style for `to_html` with the default prefix (names are left in the text colour)."""


# ---- Pygments ----

PYGMENTS_TOKENS = {
    "keyword": "Keyword", "constant": "Keyword.Constant", "label": "Name.Label",
    "definition": "Name.Function", "builtin": "Name.Builtin", "phrase": "Name.Function",
    "comment": "Comment.Multiline", "string": "String", "number": "Number.Integer", "operator": "Operator",
    "punctuation": "Punctuation", "name": "Name", "whitespace": "Text.Whitespace", "text": "Text",
}
"""Each kind's Pygments token type, by its dotted name (each a standard type, with its own CSS class)."""


def _pygments_lexer():
    from pygments.lexer import RegexLexer
    from pygments.token import string_to_tokentype as token_type

    class PseudoLexer(RegexLexer):
        """The pseudocode of J. Arsac's «Программирование игр и головоломок» (1990), as `pseudo` runs it."""
        name = "Pseudo"
        aliases = ("pseudo", "arsac")
        filenames = ("*.pseudo",)
        mimetypes = ("text/x-pseudo",)
        flags = re.MULTILINE
        tokens: ClassVar[dict] = {"root": [(rx, token_type(PYGMENTS_TOKENS[kind])) for rx, kind in TOKEN_RULES]}

        def analyse_text(text):  # Pygments makes it a static method
            return 0.5 if "КОНЕЦ_ЕСЛИ" in text or "ВЕРНУТЬСЯ" in text else 0.0

    PseudoLexer.__module__ = __name__
    return PseudoLexer


_lexer_class = None


def __getattr__(name: str):
    """`PseudoLexer` is built on first use, so that the pure-Python API needs no Pygments."""
    global _lexer_class
    if name == "PseudoLexer":
        if _lexer_class is None:
            _lexer_class = _pygments_lexer()
        return _lexer_class
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BUILTINS", "CONSTANTS", "CSS", "KEYWORDS", "KINDS", "PYGMENTS_TOKENS", "TOKEN_RULES", "PseudoLexer",  # noqa: F822
           "to_html", "tokens"]
