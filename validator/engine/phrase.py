"""A sentence for people that any language can say: a message template with named
parameters, kept apart from its English text.

The engine and the replay are pure and speak no language of their own: a refusal carries
a `Phrase` (its template marked with the no-op `N_` so that Babel extracts it); its
English text, which JSON and the tests read, is derived from it (`str`). Renderers for
people say the phrase in the reader's language at render time
(`validator.language.i18n.say`), translating the template and every parameter that is
itself a phrase.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated where used."""
    return message


@dataclass(frozen=True, slots=True)
class Phrase:
    """`template` with `{name}` placeholders filled from `values`; with `many` and `n` the
    template is the singular and `many` the plural form, chosen by `n` (gettext's ngettext).
    A value that is a Phrase is said in the same language; a tuple is a list, its items
    joined by `sep` (itself a template, so a language may join differently)."""

    template: str
    values: tuple[tuple[str, object], ...] = ()
    many: str = ""
    n: int | None = None

    def say(self, gettext: Gettext, ngettext: Ngettext) -> str:
        if self.n is not None:
            text = ngettext(self.template, self.many, self.n)
        else:
            text = gettext(self.template)
        values = {k: _value(v, gettext, ngettext) for k, v in self.values}
        if self.n is not None:
            values.setdefault("n", str(self.n))
        return text.format(**values)

    def __str__(self) -> str:  # English: the templates as they are
        return self.say(lambda message: message, lambda one, many, n: one if n == 1 else many)


@dataclass(frozen=True, slots=True)
class Items:
    """A list of values, said one by one and joined by `sep` (`, ` unless given)."""

    items: tuple[object, ...]
    sep: str = ", "


class Said:
    """A message and a hint stored once, as phrases (`phrase`, `hint_phrase`); their
    English text, which JSON and the tests read, is derived from them."""

    __slots__ = ()
    phrase: Phrase
    hint_phrase: Phrase | None

    @property
    def message(self) -> str:
        """The message in English."""
        return str(self.phrase)

    @property
    def hint(self) -> str:
        """The hint in English ("" without one)."""
        return "" if self.hint_phrase is None else str(self.hint_phrase)


Text = str | Phrase
"""A message as a reader gives it: English text only, or a phrase (which also says it in
English, as `str()`)."""


def as_phrase(text: Text) -> Phrase:
    """`text` as a phrase: a phrase as it is; English text that has no translation (a
    library's own message) as a phrase that says it unchanged in every language."""
    return text if isinstance(text, Phrase) else Phrase("{text}", (("text", text),))


def phrase(template: str, **values: object) -> Phrase:
    return Phrase(template, tuple(values.items()))


def plural(n: int, one: str, many: str, **values: object) -> Phrase:
    """`one` or `many` for the count `n`; `{n}` is the count."""
    return Phrase(one, tuple(values.items()), many, n)


def _value(value: object, gettext: Gettext, ngettext: Ngettext) -> str:
    if isinstance(value, Phrase):
        return value.say(gettext, ngettext)
    if isinstance(value, Items):
        return value.sep.join(_value(v, gettext, ngettext) for v in value.items)
    return str(value)
