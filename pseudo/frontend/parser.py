"""The parser: source text → tokens → chunks → raw tree (statements with unresolved token runs).

A program is read by the fast path: the hand-written lexer (lexer.py) and recursive-descent
parser (fast_parser.py), which accept exactly what grammar/pseudo.lark accepts and build the
same raw tree. What the fast path refuses goes to the grammar's own parser (grammar_parser.py,
Lark's LALR tables), whose error is the one reported; this module turns it into a
`StaticError` in Russian, with the place and the hint. An expression the resolver only tries
(`read_expression`) fails without that work: its error is written when first read.
"""
from __future__ import annotations

from itertools import pairwise

from .. import nodes as n
from ..errors import Diagnostic, StaticError, diagnostic
from ..messages import KEYWORDS, TERMINALS, hint, message, nearest
from .fast_parser import parse_chunk, parse_expr
from .layout import split_chunks
from .lexer import Token, scan
from .raw import OPS, ParsedFile, RawDef, RawUse, Run
from .source import Source, Span, fold_lookalikes, span_of_token

__all__ = ["OPS", "ParsedFile", "RawDef", "RawUse", "Run", "grammar_rule_names", "grammar_text", "lark_parser",
           "lex", "parse_expression", "parse_file", "read_expression"]


def lark_parser():
    """The grammar's parser (Lark's, from the generated tables); imported on first use."""
    from .grammar_parser import lark_parser as build
    return build()


def grammar_rule_names() -> set[str]:
    from .grammar_parser import grammar_rule_names as names
    return names()


def grammar_text() -> str:
    """The grammar lives in the top-level `grammar/`, installed as the package `pseudo.grammar`."""
    from importlib import resources  # for the tests and tools that read the grammar: not at a start
    try:
        return resources.files("pseudo.grammar").joinpath("pseudo.lark").read_text(encoding="utf-8")
    except ModuleNotFoundError:  # running from a checkout that was not installed
        from pathlib import Path
        return (Path(__file__).resolve().parents[2] / "grammar" / "pseudo.lark").read_text(encoding="utf-8")


def lex(source: Source) -> tuple[list[Token], list[Token]]:
    """All tokens of the file and, apart, its comments."""
    tokens = scan(source.text)
    if tokens is None:  # a character that starts no token: Lark's lexer says where
        from .grammar_parser import lark_tokens
        tokens = lark_tokens(source)
    comments = [t for t in tokens if t.type == "COMMENT"]
    return ([t for t in tokens if t.type != "COMMENT"] if comments else tokens), comments


def char_error(source: Source, pos: int, line: int, column: int) -> StaticError:
    span = Span(source, line, column, line, column + 1)
    ch = source.text[pos] if pos < len(source.text) else ""
    if ch == "{":
        return StaticError([diagnostic("error", "unclosed-comment", span)])
    if ch in "'\"":
        return StaticError([diagnostic("error", "unclosed-string", span)])
    if ch == "«":
        return StaticError([diagnostic("error", "bad-pattern", span, detail="нет закрывающей «»»")])
    after_digit = pos > 0 and source.text[pos - 1].isdigit()
    tip = hint("two-numbers") if ch in ".," and after_digit else None
    return StaticError([diagnostic("error", "unexpected-char", span, tip, char=ch)])


def tolerance_warnings(tokens: list[Token], source: Source) -> list[Diagnostic]:
    """The printed book's defects that are accepted, each with a warning. The book's own signs
    (− – ≤ ≥ ≠) are the language's signs: no warning."""
    out = []
    for tok in tokens:
        if tok.type in ("END_IF", "STOP") and "_" not in tok.value:
            keyword = "КОНЕЦ_ЕСЛИ" if tok.type == "END_IF" else "КОНЕЦ_РАБОТЫ"
            out.append(diagnostic("warning", "tol-space-keyword", span_of_token(source, tok), text=tok.value,
                                  keyword=keyword))
    return out


def parse_file(source: Source) -> ParsedFile:
    """Parse every chunk; collect all syntax errors (one per chunk) before giving up."""
    tokens, comment_tokens = lex(source)
    chunks, errors = split_chunks(tokens, source)
    definitions, main, rules = [], [], set()
    for chunk in chunks:
        try:
            item, used = _parse_chunk(chunk, source)
        except StaticError as e:
            errors.extend(e.diagnostics)
            continue
        rules |= used
        if isinstance(item, RawDef):
            definitions.append(item)
        else:
            main.extend(item.stmts)
    if errors:
        raise StaticError(errors)
    comments = [n.Comment(span_of_token(source, t), t.value[1:-1].strip()) for t in comment_tokens]
    return ParsedFile(source, definitions, main, comments, tolerance_warnings(tokens, source), rules)


def _parse_chunk(tokens: list[Token], source: Source):
    fast = parse_chunk(tokens, source)
    if fast is not None:
        return fast
    from .grammar_parser import parse
    return parse(tokens, "chunk", source)


def parse_expression(tokens: list[Token], source: Source, rules_seen: set | None = None) -> n.Expr:
    """Parse tokens (line breaks among them are passed over) as an expression; tokens that are
    not one raise a `LateSyntaxError`."""
    expr = read_expression([t for t in tokens if t.type != "_NL"], source, rules_seen)
    if isinstance(expr, StaticError):
        raise expr
    return expr


def read_expression(tokens: list[Token], source: Source, rules_seen: set | None = None) -> n.Expr | StaticError:
    """The expression a slice of a run spells (a run holds no line breaks), or the error that
    says why not — returned, not raised: the resolver tries many slices that are not
    expressions."""
    if not tokens:
        return StaticError([diagnostic("error", "unexpected-eof", None)])
    fast = parse_expr(tokens, source)
    if fast is None:
        return LateSyntaxError(tokens, source)
    expr, rules = fast
    if rules_seen is not None:
        rules_seen |= rules
    return expr


class LateSyntaxError(StaticError):
    """The tokens are not an expression. The resolver tries many slices that are not, and
    reports few of them: the message is written (by the grammar's parser) when first read."""

    def __init__(self, tokens: list[Token], source: Source):
        Exception.__init__(self)  # not StaticError's: the diagnostics come later
        self._tokens, self._source = tokens, source
        self._diagnostics: list[Diagnostic] | None = None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        if self._diagnostics is None:
            from .grammar_parser import parse
            try:
                parse(self._tokens, "expr", self._source)
            except StaticError as e:
                self._diagnostics = e.diagnostics
            else:  # pragma: no cover - the agreement tests would fail first
                raise AssertionError("the fast parser refused an expression that the grammar accepts")
        return self._diagnostics

    def __str__(self) -> str:
        return self.diagnostics[0].text


LATIN_KEYWORDS = {fold_lookalikes(k): k for k in KEYWORDS}  # a keyword with Latin look-alikes: TO for ТО
FEMININE = {"метка", "строка", "запятая"}
MASCULINE = {"образец", "конец"}


def unexpected(tok: Token) -> str:
    """«неожиданное число «2»», «неожиданная запятая»: the adjective agrees with the noun."""
    what = describe_token(tok)
    first = what.split()[0]
    return ("неожиданная " if first in FEMININE else "неожиданный " if first in MASCULINE else "неожиданное ") + what


def describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "конец текста"
    if tok.type == "_NL":
        return "конец строки"
    what = TERMINALS.get(tok.type, tok.type)
    if tok.type == "PATTERN":  # the pattern is already in «»
        return f"образец фразы {tok.value}"
    return what if what.startswith("«") or tok.type.isupper() and what.isupper() else f"{what} «{tok.value}»"


CLOSERS = {"IF": ("ЕСЛИ", "КОНЕЦ_ЕСЛИ"), "WHILE": ("ПОКА", "ВЕРНУТЬСЯ"), "FOR": ("ДЛЯ", "ВЕРНУТЬСЯ"),
           "DO": ("ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ"), "LPAR": ("«(»", "«)»"), "LSQB": ("«[»", "«]»")}


def _innermost_unclosed(tokens: list[Token]) -> Token | None:
    stack: list[Token] = []
    headers = 0
    for tok in tokens:
        if tok.type == "DO" and headers:
            headers -= 1  # the ВЫПОЛНЯТЬ of a ПОКА or ДЛЯ header opens nothing new
            continue
        headers += tok.type in ("WHILE", "FOR")
        if tok.type in CLOSERS:
            stack.append(tok)
        elif tok.type in ("END_IF", "LOOP_END", "RPAR", "RSQB") and stack:
            stack.pop()
    return stack[-1] if stack else None


def syntax_error(tok: Token, expected: set[str], tokens: list[Token], source: Source) -> StaticError:
    """The message for an unexpected token (`$END` at the end) where the grammar expected one of
    `expected`, among the tokens of the chunk or expression."""
    if tok.type == "$END":
        opener = _innermost_unclosed(tokens)
        if opener is not None:
            what, closer = CLOSERS[opener.type]
            typo = next((t for t in tokens if t.type == "NAME" and nearest_keyword(t.value)), None)
            if typo is not None:  # КОНЕЦ_ЕСИЛ: the block is open because its closer is misspelt
                return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, typo),
                                               hint("keyword-typo", written=typo.value,
                                                    keyword=nearest_keyword(typo.value)),
                                               opener=what, closer=closer)])
            lower = next((t for t in tokens if t.type == "NAME" and t.value.upper() in KEYWORDS), None)
            if lower is not None:
                return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, lower),
                                               hint("keyword-case", keyword=lower.value.upper()),
                                               opener=what, closer=closer)])
            return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, opener),
                                           _unclosed_hint(opener, tokens), opener=what, closer=closer)])
        last = tokens[-1]
        span = Span(source, last.end_line, last.end_column, last.end_line, last.end_column + 1)
        if last.type in OPERATORS:  # `x := 1 +`: the line ends where an operand should be
            op = f"«{last.value}»"
            return StaticError([Diagnostic("error", "unexpected-token", message("operand-missing", op=op),
                                           span_of_token(source, last), hint("operand-missing", op=op))])
        text = "текст кончился раньше времени"
    else:
        span = span_of_token(source, tok)
        text = unexpected(tok)
    words = sorted({TERMINALS.get(x, x) for x in expected
                    if not x.startswith("__") and x not in ("$END", "_NL", "SEMI")})
    if words and len(words) <= 6:
        text += "; ожидалось: " + ", ".join(words)
    return StaticError([Diagnostic("error", "unexpected-token", text, span, _syntax_hint(tok, expected, tokens))])


OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "CARET", "DIV", "MOD", "AND", "OR", "NOT", "EQ", "NE", "LT", "GT",
             "LE", "GE"}


def _unclosed_hint(opener: Token, tokens: list[Token]) -> str | None:
    """Why a block may be open at the end: ИНАЧЕ ЕСЛИ needs a КОНЕЦ_ЕСЛИ of its own, or a
    definition was begun inside the block."""
    after = tokens[tokens.index(opener):]
    for a, b in pairwise(after):
        if opener.type == "IF" and a.type == "ELSE" and b.type == "IF":
            return hint("else-if", line=b.line)
    for i, tok in enumerate(after[1:], start=1):
        if tok.column == 1 and tok.type in ("NAME", "PATTERN") and _looks_like_header(after[i:]):
            what, closer = CLOSERS[opener.type]
            return hint("def-in-block", line=tok.line, name=tok.value, opener=what, opener_line=opener.line,
                        closer=closer)
    return None


def _looks_like_header(toks: list[Token]) -> bool:
    """`имя (…) =`, `имя =` or `«…» =` at the start of a line."""
    if len(toks) > 1 and toks[1].type == "EQ":
        return True
    if toks[0].type == "NAME" and len(toks) > 1 and toks[1].type == "LPAR":
        close = next((k for k, t in enumerate(toks) if t.type == "RPAR"), None)
        return close is not None and close + 1 < len(toks) and toks[close + 1].type == "EQ"
    return False


COMPARISONS = {"EQ", "NE", "LT", "LE", "GT", "GE"}


def _syntax_hint(tok: Token, expected: set[str], tokens: list[Token]) -> str | None:
    before = tokens[:next((i for i, t in enumerate(tokens) if t is tok), len(tokens))]
    for other in tokens:
        if other.type != "NAME":
            continue
        where = f" (строка {other.line})" if other.line != tok.line else ""  # the caret is elsewhere
        if other.value.upper() in KEYWORDS and other.value != other.value.upper():
            return hint("keyword-case", keyword=other.value.upper(), where=where)
        latin = LATIN_KEYWORDS.get(fold_lookalikes(other.value))
        if latin:
            return hint("keyword-latin", written=other.value, keyword=latin, where=where)
        near = nearest_keyword(other.value)
        if near:
            return hint("keyword-typo", written=other.value, keyword=near, where=where)
    if tok.type in COMPARISONS and any(t.type in COMPARISONS and t.line == tok.line for t in before):
        return hint("compare-chain")
    if tok.type == "END_IF" and "END_IF" not in expected:
        return hint("extra-end-if")
    if tok.type in OPERATORS and before and before[-1].type in OPERATORS and before[-1].type != "NOT":
        return hint("two-operators", first=before[-1].value, second=tok.value)
    if tok.type in ("RPAR", "RSQB"):
        pair = {"RPAR": "LPAR", "RSQB": "LSQB"}[tok.type]
        opened = sum(t.type == pair for t in before) - sum(t.type == tok.type for t in before)
        if opened <= 0:
            return hint("unpaired-close", close=TERMINALS[tok.type], open=TERMINALS[pair])
        return hint("operand-before", close=TERMINALS[tok.type])
    if tok.type == "NUMBER" and before and before[-1].type == "NUMBER" and tok.line == before[-1].line:
        return hint("two-numbers")
    if before and before[-1].type == "COMMA" and _statement_start(before).type == "PRINT":
        return hint("print-comma")
    opener = _innermost_unclosed(before)
    if "THEN" in expected and opener is not None and opener.type == "IF" \
            and not any(t.type == "THEN" for t in before[before.index(opener):]):
        return hint("missing-then")
    if "DO" in expected and opener is not None and opener.type in ("WHILE", "FOR") \
            and not any(t.type == "DO" for t in before[before.index(opener):]):
        return hint("missing-do")
    if opener is not None and opener.type == "IF" and "END_IF" in expected:
        return hint("missing-end-if", line=opener.line)
    if opener is not None and opener.type in ("WHILE", "FOR", "DO") and "LOOP_END" in expected:
        return hint("missing-loop-end", opener=TERMINALS[opener.type], line=opener.line)
    if tok.type == "DEF_EQ":
        return hint("body-dedent")
    return None


def _statement_start(before: list[Token]) -> Token:
    """The first token of the statement the last token of `before` belongs to."""
    i = len(before) - 1
    while i > 0 and before[i - 1].type not in ("SEMI", "_NL", "THEN", "ELSE", "DO") \
            and before[i - 1].line == before[i].line:
        i -= 1
    return before[i]


def nearest_keyword(word: str) -> str | None:
    """The keyword an uppercase word was probably meant to be (КОНЕЦ_ЕСИЛ → КОНЕЦ_ЕСЛИ)."""
    if not word.isupper() or word in KEYWORDS or len(word) < 3:
        return None
    return nearest(word, sorted(KEYWORDS | {"ПЕРЕЙТИ"}), cutoff=0.75)
