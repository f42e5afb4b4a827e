"""Each entry's pages, rendered in a process pool: the HTML report attached to its reply
(about 0.2 s an entry), in the entry's language (`Reading.reply_language`), and the game
on its page of the results site (`site_entry.entry_body`), in the site's language."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING

from validator.render import i18n
from validator.render.html import render_html
from validator.render.site_entry import entry_body
from validator.report.model import build_report

if TYPE_CHECKING:
    from validator.check.file import Checker
    from validator.contest.mail import RawMessage, Reading, Source

WINDOW = 64
"""Items handed to the pool at a time: pages are large, memory stays bounded by this."""

Langs = tuple[str | None, str | None]
"""`batch --lang` and the contest file's `lang`: the fallbacks of a page's language."""

Wanted = tuple[bool, "i18n.Language | None"]
"""Which pages to make: the report (for the replies), and the site's game in which
language (None: no site)."""

Made = tuple["Reading", str | None, str | None]
"""A message read again, its report page and its game for the site (None: not wanted,
or no record)."""

_worker: tuple[Checker, Source, str | None, Langs, Wanted] | None = None


def _init(
    checker: Checker, source: Source, dice_name: str | None, langs: Langs, wanted: Wanted
) -> None:
    global _worker
    _worker = (checker, source, dice_name, langs, wanted)
    gc.freeze()


def page_of(reading: Reading, dice_name: str | None, langs: Langs = (None, None)) -> str | None:
    """The entry's report page in its language, or None for a message without a record."""
    if reading.result is None:
        return None
    with i18n.speaking(reading.reply_language(*langs, os.environ)):
        return render_html(build_report(reading.result, dice_name=dice_name))


def _made(reading: Reading, dice_name: str | None, langs: Langs, wanted: Wanted) -> Made:
    report, site = wanted
    page = page_of(reading, dice_name, langs) if report else None
    body = None
    if site is not None and reading.result is not None:
        with i18n.speaking(site):
            body = entry_body(reading.result)
    return reading, page, body


def _one(item: str | RawMessage) -> Made:
    assert _worker is not None, "_init was not called"
    checker, source, dice_name, langs, wanted = _worker
    return _made(source.reading(checker, item), dice_name, langs, wanted)


def pages(
    source: Source,
    checker: Checker,
    dice_name: str | None,
    jobs: int = 1,
    langs: Langs = (None, None),
    wanted: Wanted = (True, None),
) -> Iterator[Made]:
    """Every file and message of `source` read again, with the pages `wanted`, in order."""
    if jobs <= 1:
        for item in source.items():
            yield _made(source.reading(checker, item), dice_name, langs, wanted)
        return
    from validator.records.pool import worker_pool

    # The pool gets the source without its open mailbox: workers only read given messages.
    detached = _detached(source)
    items = source.items()
    setup = (checker, detached, dice_name, langs, wanted)
    with worker_pool(jobs, _init, setup) as pool:
        while window := list(islice(items, WINDOW)):
            yield from pool.imap(_one, window, 1)


def _detached(source: Source) -> Source:
    from dataclasses import replace

    return replace(source, messages=None)
