"""Each entry's pages, rendered in a process pool: its HTML report for the reply (the report
page is most of their cost, about 0.2 s an entry), in the entry's language, the reply's
(`Reading.reply_language`), and its game on the results site's page, in the site's
language. The caller gives the renderers (`render_html`, `site.entry_body`), so that no
renderer imports another."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING

from validator.language import i18n
from validator.report.model import Report, build_report

if TYPE_CHECKING:
    from validator.check.file import Checker
    from validator.check.replay import Result
    from validator.contest.mail import RawMessage, Reading, Source

WINDOW = 64
"""Items handed to the pool at a time: pages are large, memory stays bounded by this."""

Langs = tuple[str | None, str | None]
"""`batch --lang` and the contest file's `lang`: the fallbacks of a page's language."""

Render = Callable[[Report], str]
"""What makes a report's page: `render/html.render_html`."""

Body = Callable[["Result"], str]
"""What makes an entry's game on its page of the site: `render/site.entry_body`."""

Site = tuple[Body, i18n.Language]
"""The site's game of each entry, and the site's language."""

Made = tuple["Reading", str | None, str | None]
"""A message read again, its report page and its game for the site (None: not asked
for, or no record)."""

_worker: tuple[Checker, Source, str | None, Render | None, Langs, Site | None] | None = None


def _init(
    checker: Checker,
    source: Source,
    dice_name: str | None,
    render: Render | None,
    langs: Langs,
    site: Site | None,
) -> None:
    global _worker
    _worker = (checker, source, dice_name, render, langs, site)
    gc.freeze()


def page_of(
    reading: Reading, dice_name: str | None, render: Render, langs: Langs = (None, None)
) -> str | None:
    """The entry's report page in its language, or None for a message without a record."""
    if reading.result is None:
        return None
    with i18n.speaking(reading.reply_language(*langs, os.environ)):
        return render(build_report(reading.result, dice_name=dice_name))


def _made(
    reading: Reading,
    dice_name: str | None,
    render: Render | None,
    langs: Langs,
    site: Site | None,
) -> Made:
    page = page_of(reading, dice_name, render, langs) if render is not None else None
    body = None
    if site is not None and reading.result is not None:
        make, lang = site
        with i18n.speaking(lang):
            body = make(reading.result)
    return reading, page, body


def _one(item: str | RawMessage) -> Made:
    assert _worker is not None, "_init was not called"
    checker, source, dice_name, render, langs, site = _worker
    return _made(source.reading(checker, item), dice_name, render, langs, site)


def pages(
    source: Source,
    checker: Checker,
    dice_name: str | None,
    render: Render | None,
    jobs: int = 1,
    langs: Langs = (None, None),
    site: Site | None = None,
) -> Iterator[Made]:
    """Every file and message of `source` read again, in order, with its report page
    (made by `render`; None: none) and its game for the site (`site`; None: none)."""
    if jobs <= 1:
        for item in source.items():
            yield _made(source.reading(checker, item), dice_name, render, langs, site)
        return
    from validator.system.pool import worker_pool

    # The pool gets the source without its open mailbox: workers only read given messages.
    detached = replace(source, messages=None)
    items = source.items()
    setup = (checker, detached, dice_name, render, langs, site)
    with worker_pool(jobs, _init, setup) as pool:
        while window := list(islice(items, WINDOW)):
            yield from pool.imap(_one, window, 1)
