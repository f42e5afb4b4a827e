"""The language of what a person reads: gettext catalogs, the choice of language, and
numbers, ordinals and dates in the language's own form.

The catalogs are `validator/locale/<lang>/LC_MESSAGES/road300.po` (compiled `.mo` beside
them, shipped in the wheel; docs/languages.md says how to update them). Renderers call
`gettext`/`ngettext` (Babel extracts them as `_` and `ngettext`), which answer in the
language set by `speaking(lang)` for the current thread or task; English is the default.
Machine outputs (JSON, CSV, codes, schemas) never go through here.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Final, Literal, TypeGuard, get_args

if TYPE_CHECKING:
    from validator.engine.phrase import Phrase
    from validator.errors import Diagnostic

Language = Literal["en", "de", "fr"]
LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
DEFAULT: Final[Language] = "en"
DOMAIN: Final = "road300"
NAMES: Final[dict[Language, str]] = {"en": "English", "de": "Deutsch", "fr": "Français"}

_current: ContextVar[Language] = ContextVar("road300_language", default=DEFAULT)


def is_language(value: object) -> TypeGuard[Language]:
    return value in LANGUAGES


@cache
def translations(lang: Language) -> _gettext.NullTranslations:
    """The catalog of `lang` (English is the source language: no catalog)."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    mo = resources.files("validator").joinpath(f"locale/{lang}/LC_MESSAGES/{DOMAIN}.mo")
    with mo.open("rb") as handle:
        return _gettext.GNUTranslations(handle)


def current() -> Language:
    """The language renderers speak now."""
    return _current.get()


@contextmanager
def speaking(lang: Language) -> Iterator[None]:
    """Render in `lang` inside the block (per thread and task, so workers do not mix)."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(_current.get()).pgettext(context, message)


_ = gettext


def say(phrase: Phrase) -> str:
    """A phrase of the engine or the replay (a template and its parameters) in the
    current language."""
    return phrase.say(gettext, ngettext)


def message(d: Diagnostic) -> str:
    """A diagnostic's message in the current language."""
    return say(d.phrase)


def hint(d: Diagnostic) -> str:
    """A diagnostic's hint in the current language ("" without one)."""
    return say(d.hint_phrase) if d.hint_phrase is not None else ""


def number(value: float) -> str:
    """`1234` -> `1,234` / `1.234` / `1 234` (Babel's data for the language)."""
    # -0.0 equals 0 as a key (and would print "-0"): every zero is written as 0.
    return _number(value if value != 0 else 0, _current.get())


@lru_cache(maxsize=4096, typed=True)
def _number(value: float, lang: str) -> str:
    """Remembered: a report writes the same few scores and rolls hundreds of times, and
    Babel takes a tenth of a millisecond for each."""
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=lang))


def percent(share: float) -> str:
    """`0.873` -> `87%` / `87 %` / `87 %`."""
    from babel.numbers import format_percent

    return str(format_percent(share, locale=_current.get()))


def ordinal(n: int) -> str:
    """`4` -> `4th` / `4.` / `4e` (`1er` in French)."""
    lang = _current.get()
    if lang == "de":
        return f"{n}."
    if lang == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def when(moment: datetime | date, *, zone: bool = False) -> str:
    """A date or date and time as a person of the language writes it; with `zone` a time
    with its offset from UTC (`20. Dezember 2026, 23:59:59 +0100`)."""
    from babel.dates import format_date, format_datetime

    lang = _current.get()
    if isinstance(moment, datetime):
        form = "long" if zone else "medium"
        return str(format_datetime(moment, format=form, locale=lang))
    return str(format_date(moment, format="long", locale=lang))


def parse_locale(value: str) -> Language | None:
    """`de_DE.UTF-8` -> `de`; `C`, `POSIX` and languages without a catalog -> None."""
    code = value.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0]
    code = code.lower()
    return code if is_language(code) else None


def from_environment(environ: Mapping[str, str]) -> Language | None:
    """The locale's language: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set
    decides, as POSIX has it (one set to a language without a catalog gives None)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return parse_locale(value)
    return None


def choose(
    explicit: str | None = None,
    *,
    record: str | None = None,
    body: str | None = None,
    site: str | None = None,
    contest: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Language:
    """The language of one output, in the documented order (docs/languages.md): `--lang`;
    else the record's own language (when its reader identified one); else the language of
    the mail body it came in; else the site's (`batch --lang`); else the contest file's
    `lang`; else the locale; else English."""
    for candidate in (explicit, record, body, site, contest):
        if is_language(candidate):
            return candidate
    if environ is not None:
        found = from_environment(environ)
        if found is not None:
            return found
    return DEFAULT
