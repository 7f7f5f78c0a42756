"""Every error kind of the message catalogs suggests its likely fix, or says here why it does not.

A new message code fails this test until it has a hint — in HINTS (front end) or RUNTIME_HINTS
(runtime), attached where the error is made — or an exemption below with its reason. The
golden programs of tests/golden/hints (and `{ подсказка … }` elsewhere) check the words.
"""
import re
from pathlib import Path

from pseudo.messages import HINTS, MESSAGES
from pseudo.runtime.messages import RUNTIME_HINTS, RUNTIME_MESSAGES

PACKAGE = Path(__file__).parent.parent / "pseudo"

# Front-end codes whose hint is chosen among several, under other keys of HINTS, by the slip found.
HINTED_OTHERWISE = {
    "unexpected-token": "syntax_errors._syntax_hint: keyword typos, missing ТО/ВЫПОЛНЯТЬ, stray closers, …",
    "unclosed-block": "syntax_errors: the mistyped closer, else-if, def-in-block",
    "unexpected-char": "syntax_errors._char_hint: another language's sign, an invisible character, «_x», «3.5»",
    "unexpected-eof": "assign-after for `x :=`; an empty slice of an expression is never shown",
    "operand-missing": "the hint of the same key, from syntax_error",
    "not-a-statement": "assign-equals, def-or-assign-in-block, label-as-assign, by what the run looks like",
    "call-without-parens": "defined-at: the definition's header",
    "arity": "defined-at for a definition, arity-builtin for a built-in function",
    "assign-to-def": "assign-equals for a definition without parameters (`f = 1` meant `f := 1`)",
    "empty-body": "body-dedent",
    "use-not-found": "use-not-found or use-not-found-folder",
    "use-read-error": "the encoding's hint (encoding_hint), use-not-a-program, use-no-access",
    "function-value-lost": "builtin-as-statement's: the same fix, a function of the program's own",
    "undefined-call": "its own key, or call-of-variable",
    "bracket-unclosed-end": "bracket-unclosed: the same closer to add",
}

# Codes with no hint, each with its reason: the message itself says the fix, or no one fix is likely.
EXEMPT = {
    # warnings of the book's printed defects: the text says what was accepted; nothing is wrong
    "tol-space-keyword": "accepted as the keyword, said in the text",
    "tol-lookalike": "accepted as the name, said in the text",
    "tol-label-comma": "accepted as a transfer, said in the text",
    "tol-phrase-case": "accepted as the phrase, said in the text",
    "use-ignored": "a warning that the statements do not run: what to do depends on why they are there",
    # runtime
    "type-binary": "the kinds are named; a word read for a number gets word-read (a line, line-read), «строка + число» type-concat",
    "type-unary": "the kind is named; the fix depends on what the value was meant to be",
    "type-compare": "the kinds are named; a word read for a number gets word-read (a line, line-read)",
    "type-for": "the value is named; a word read for a number gets word-read (a line, line-read)",
    "builtin-kind": "the message names what the function wants and what it got",
    "builtin-range": "the detail says what is out of range for this function",
    "builtin-mixed": "the kinds are named; the fix depends on what the values were meant to be",
    "time-limit": "the message names the option (--time-limit); the page words it for itself",
    "interrupted": "the person stopped the program",
    "io-error": "the system's own reason (disk full, …) is the detail",
}


def _source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py") if p.name != "messages.py")


def test_every_error_kind_has_a_hint_or_a_reason():
    source = _source()
    missing = []
    for code in MESSAGES:
        attached = code in HINTS and re.search(rf'hint\(\s*"{re.escape(code)}"', source)
        if not (attached or code in HINTED_OTHERWISE or code in EXEMPT):
            missing.append(code)
    missing += [code for code in RUNTIME_MESSAGES if code not in RUNTIME_HINTS and code not in EXEMPT]
    assert not missing, f"без подсказки и без причины (tests/test_hints.py): {missing}"


def test_exemptions_are_current():
    """An exemption or a note of another key names a real code, and one that has no hint of its own."""
    codes = MESSAGES.keys() | RUNTIME_MESSAGES.keys()
    assert not (EXEMPT.keys() | HINTED_OTHERWISE.keys()) - codes
    assert not EXEMPT.keys() & (HINTS.keys() | RUNTIME_HINTS.keys())


def test_every_hint_is_used():
    """A hint of the front end is asked for by its key somewhere; a runtime hint is its code's."""
    source = _source()
    unused = [key for key in HINTS if f'"{key}"' not in source]
    assert not unused, unused
    assert not RUNTIME_HINTS.keys() - RUNTIME_MESSAGES.keys() - {"word-read", "line-read", "kind-word"}  # variants


def test_every_code_is_made():
    """No message waits in the catalogs for an error or warning nothing makes."""
    source = _source()
    dead = [code for code in MESSAGES.keys() | RUNTIME_MESSAGES.keys() if f'"{code}"' not in source]
    assert not dead, dead
