"""Program text: reading files, Unicode normalisation, positions and look-alike letters."""
from __future__ import annotations

import unicodedata

from ..files import read_program


class Source:
    """One program file, normalised to NFC, with its lines kept for error display."""

    def __init__(self, text: str, filename: str = "<строка>", data: bytes | None = None):
        # line breaks of Windows (\r\n) and of the old Mac OS (\r) are \n, as Python reads them
        self.text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
        self.filename = filename
        self.data = data  # the bytes read, for a file: what the cache of compiled programs checks
        self.lines = self.text.split("\n")

    @classmethod
    def from_file(cls, path, regular_only: bool = False) -> Source:
        data = read_program(path, regular_only)
        return cls(data.decode("utf-8-sig"), str(path), data)

    def line(self, n: int) -> str:
        return self.lines[n - 1] if 1 <= n <= len(self.lines) else ""

    def __repr__(self) -> str:
        return f"Source({self.filename!r})"


class Span:
    """A stretch of source text; lines and columns count from 1, columns in characters.
    Not changed once made; equal when the places are equal, whatever the source object. A
    plain class rather than a frozen dataclass: a long program makes hundreds of thousands."""

    __slots__ = ("column", "end_column", "end_line", "line", "source")

    def __init__(self, source: Source, line: int, column: int, end_line: int, end_column: int):
        self.source = source
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column  # exclusive

    def _place(self) -> tuple[int, int, int, int]:
        return self.line, self.column, self.end_line, self.end_column

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._place() == other._place()

    def __hash__(self) -> int:
        return hash(self._place())

    def __repr__(self) -> str:
        return f"Span(line={self.line!r}, column={self.column!r}, end_line={self.end_line!r}, " \
               f"end_column={self.end_column!r})"

    @property
    def filename(self) -> str:
        return self.source.filename

    def text(self) -> str:
        """The source text the span covers (first line only when it spans lines)."""
        line = self.source.line(self.line)
        end = self.end_column - 1 if self.end_line == self.line else len(line)
        return line[self.column - 1:end]

    def full_text(self) -> str:
        """The whole covered text, its lines joined by single spaces."""
        if self.end_line == self.line:
            return self.text()
        parts = [self.source.line(self.line)[self.column - 1:]]
        parts += [self.source.line(n) for n in range(self.line + 1, self.end_line)]
        parts.append(self.source.line(self.end_line)[:self.end_column - 1])
        return " ".join(" ".join(parts).split())

    def to(self, other: Span) -> Span:
        return Span(self.source, self.line, self.column, other.end_line, other.end_column)

    def utf8_columns(self) -> tuple[int, int]:
        """Start and end columns as 0-based UTF-8 byte offsets, as Python's ast wants."""
        def offset(line_no: int, col: int) -> int:
            return len(self.source.line(line_no)[:col - 1].encode("utf-8"))
        return offset(self.line, self.column), offset(self.end_line, self.end_column)


def span_of_token(source: Source, tok) -> Span:
    return Span(source, tok.line, tok.column, tok.end_line, tok.end_column)


def text_of_tokens(source: Source, toks) -> str:
    """The text of a run of tokens as written, its lines joined by single spaces."""
    return " ".join(source.text[toks[0].start_pos:toks[-1].end_pos].split())


# Cyrillic letters that print like Latin ones; the book's OCR mixes them (HR(к + 1)).
_CYRILLIC = "АВЕКМНОРСТУХаеікорсухјѕԁ"
_LATIN = "ABEKMHOPCTYXaeikopcyxjsd"
_FOLD = str.maketrans(_CYRILLIC, _LATIN)


def fold_lookalikes(name: str) -> str:
    """Map look-alike Cyrillic letters to Latin so that `к` and `k` compare equal."""
    return name.translate(_FOLD)


