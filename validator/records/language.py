"""Which language a record is written in, from the words of its annotation and header.

Only the text and CSV forms carry words of a language; a YAML or JSON record has none, and
a record whose words do not point to one language is not given one (never a guess)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from typing import Final

from validator.records.lexing import normal
from validator.records.vocabulary import LANGUAGES, SYNTAX

WORDS: Final[dict[str, frozenset[str]]] = {lang: v.marks - SYNTAX for lang, v in LANGUAGES.items()}
"""Folded words (lower case, no accents) that belong to one language's way of writing a
record; words the languages share (`total`, `points`, `x`) and the annotated form's own
keywords (`reroll`, `path`) are in none."""

_WORD = re.compile(r"[^\W\d]+")
"""A word; `claimed_score` is one (a key of the annotated form), not `claimed` and `score`."""
MAX_WORDS: Final = 20_000
"""Enough words to tell; a record's language is decided from its first ones."""


def identify(words: Iterable[str]) -> str | None:
    """The language most of `words` belong to, or None when none or a tie."""
    counts = Counter(
        lang
        for folded in map(normal, itertools.islice(words, MAX_WORDS))
        for lang, vocabulary in WORDS.items()
        if folded in vocabulary
    )
    top = counts.most_common(2)
    return top[0][0] if top and (len(top) == 1 or top[0][1] > top[1][1]) else None


def identify_text(text: str) -> str | None:
    """The language of a record's text, from its words (`Raum 3/4 gestrichen` -> de)."""
    return identify(match[0] for match in _WORD.finditer(text, 0, 1 << 20))
