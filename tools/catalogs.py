"""The translation catalogs: extract the messages with Babel, update each language's `.po`,
compile the `.mo` files the package ships, and check that they are complete.

    python tools/catalogs.py update    # extract, merge into every .po, compile the .mo
    python tools/catalogs.py check     # what tests/test_languages.py checks, as a list
    python tools/catalogs.py merge     # in a git merge whose catalogs conflict: both sides'
                                       # translations, updated from the merged sources

Messages come from the Python sources (`_`, `gettext`, `ngettext`, `pgettext`) and from the
Jinja2 templates through Jinja2's Babel extractor (docs/languages.md).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "validator" / "locale"
DOMAIN = "road300"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"


def _python(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """Babel's Python extractor, on the modules that call a keyword at all: most call none,
    and tokenizing them was half of the time of an extraction."""
    source = fileobj.read()
    if not _CALL.search(source):
        return iter(())
    return extract_python(io.BytesIO(source), keywords, comment_tags, options)


METHOD_MAP: list[tuple[str, Any]] = [
    ("validator/**/templates/**.j2", "jinja2"),
    ("validator/**.py", _python),
]
OPTIONS = {"validator/**/templates/**.j2": {"extensions": "jinja2.ext.i18n"}}
COMMENT_TAGS = ("TRANSLATORS:",)
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    # wording.plural(n, one, many) and engine.phrase.plural(n, one, many)
    "plural": (2, 3),
}
_CALL = re.compile(rb"(?<!\w)(?:%s)\s*\(" % b"|".join(re.escape(k.encode()) for k in KEYWORDS))
"""A call of one of the KEYWORDS, or something that looks like one."""


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _in_the_package(directory: str) -> bool:
    """Messages live in `validator/` only: the walk skips the rest of the repository (its
    tests, goldens, `.git`, a `.venv`)."""
    parts = Path(directory).relative_to(ROOT).parts
    return parts[0] == "validator" and "__pycache__" not in parts


def extract() -> Catalog:
    """Every message the sources and templates use, as a fresh template catalog."""
    catalog = Catalog(project="road300", domain=DOMAIN, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT,
        METHOD_MAP,
        OPTIONS,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
        directory_filter=_in_the_package,
    ):
        catalog.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


def write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def update() -> None:
    template = extract()
    write(TEMPLATE, template)
    for lang in languages():
        path = po_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        catalog.update(template, update_header_comment=False)
        # Obsolete messages are dropped: a message no code uses is no longer translated.
        catalog.obsolete.clear()
        write(path, catalog)
        path.with_suffix(".mo").write_bytes(compiled(catalog))
        print(f"{lang}: {len(catalog)} messages, {len(untranslated(catalog))} to translate")


def untranslated(catalog: Catalog) -> list[str]:
    """Message ids without a translation (any plural form empty) or marked fuzzy."""
    return [key for message in catalog if message.id for key in untranslated_ids(message)]


def problems(used: Catalog | None = None) -> list[str]:
    """Everything that makes the catalogs incomplete or stale, one line each (`used`: the
    messages extracted already, if the caller has them)."""
    found: list[str] = []
    used = extract() if used is None else used
    template = read(TEMPLATE)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for message in used:
        key = message.id if isinstance(message.id, str) else message.id[0]
        if message.id and key not in ids:
            found.append(f"{TEMPLATE.name}: missing {key!r}: run python tools/catalogs.py update")
    for lang in languages():
        path = po_path(lang)
        catalog = read(path, lang)
        for key in untranslated(catalog):
            found.append(f"{lang}: untranslated or fuzzy: {key!r}")
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        for key in sorted(ids - have):
            found.append(f"{lang}: missing {key!r}: run python tools/catalogs.py update")
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(catalog):
            found.append(f"{lang}: {mo.name} is stale: run python tools/catalogs.py update")
    return found


def fill(catalog: Catalog, other: Catalog) -> int:
    """Translate every message of `catalog` still untranslated or fuzzy as `other` does,
    where `other` has a translation; how many were filled."""
    filled = 0
    for message in catalog:
        if not message.id or not untranslated_ids(message):
            continue
        theirs = other.get(message.id, context=message.context)
        if theirs is None or untranslated_ids(theirs):
            continue
        message.string = theirs.string
        message.flags.discard("fuzzy")
        message.previous_id = []
        filled += 1
    return filled


def untranslated_ids(message: Message) -> list[str]:
    """`[id]` when `message` has no translation (any plural form empty) or is fuzzy."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    key = str(message.id if isinstance(message.id, str) else message.id[0])
    return [key] if message.fuzzy or not all(strings) else []


def merge() -> None:
    """Mid-merge, with conflicting catalogs: each `.po` is our side's, updated from the
    merged sources, with what is still untranslated filled from their side; then the
    `.mo` compiled. Review with `check`, then `git add validator/locale`."""

    def stage(n: int, path: Path) -> Catalog:
        rel = path.relative_to(ROOT).as_posix()
        data = subprocess.run(
            ["git", "show", f":{n}:{rel}"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        return read_po(io.BytesIO(data), locale=path.parent.parent.name, domain=DOMAIN)

    theirs = {}
    for lang in languages():
        path = po_path(lang)
        theirs[lang] = stage(3, path)
        write(path, stage(2, path))
    update()
    for lang in languages():
        path = po_path(lang)
        catalog = read(path, lang)
        print(f"{lang}: {fill(catalog, theirs[lang])} translations from their side")
        write(path, catalog)
    update()


def main(argv: list[str]) -> int:
    if argv[1:] == ["update"]:
        update()
        return 0
    if argv[1:] == ["merge"]:
        merge()
        return 0
    if argv[1:] == ["check"]:
        found = problems()
        print("\n".join(found) or "catalogs complete")
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
