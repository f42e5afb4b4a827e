"""Each entry's HTML report for the results site and the replies, rendered in a process
pool: the report page is most of their cost (about 0.2 s an entry). A page speaks its
entry's language, the reply's (`Reading.reply_language`), on the site as in the reply.
The caller gives the renderer of a page (`render_html`), so that no renderer imports
another."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from itertools import islice
from typing import TYPE_CHECKING

from validator.language import i18n
from validator.report.model import Report, build_report

if TYPE_CHECKING:
    from validator.check.file import Checker
    from validator.contest.mail import RawMessage, Reading, Source

WINDOW = 64
"""Items handed to the pool at a time: pages are large, memory stays bounded by this."""

Langs = tuple[str | None, str | None]
"""`batch --lang` and the contest file's `lang`: the fallbacks of a page's language."""

Render = Callable[[Report], str]
"""What makes a report's page: `render/html.render_html`."""

_worker: tuple[Checker, Source, str | None, Render, Langs] | None = None


def _init(
    checker: Checker, source: Source, dice_name: str | None, render: Render, langs: Langs
) -> None:
    global _worker
    _worker = (checker, source, dice_name, render, langs)
    gc.freeze()


def page_of(
    reading: Reading, dice_name: str | None, render: Render, langs: Langs = (None, None)
) -> str | None:
    """The entry's report page in its language, or None for a message without a record."""
    if reading.result is None:
        return None
    with i18n.speaking(reading.reply_language(*langs, os.environ)):
        return render(build_report(reading.result, dice_name=dice_name))


def _one(item: str | RawMessage) -> tuple[Reading, str | None]:
    assert _worker is not None, "_init was not called"
    checker, source, dice_name, render, langs = _worker
    reading = source.reading(checker, item)
    return reading, page_of(reading, dice_name, render, langs)


def pages(
    source: Source,
    checker: Checker,
    dice_name: str | None,
    render: Render,
    jobs: int = 1,
    langs: Langs = (None, None),
) -> Iterator[tuple[Reading, str | None]]:
    """Every file and message of `source` read again, with its report page, in order."""
    if jobs <= 1:
        for item in source.items():
            reading = source.reading(checker, item)
            yield reading, page_of(reading, dice_name, render, langs)
        return
    from validator.system.pool import worker_pool

    # The pool gets the source without its open mailbox: workers only read given messages.
    detached = _detached(source)
    items = source.items()
    setup = (checker, detached, dice_name, render, langs)
    with worker_pool(jobs, _init, setup) as pool:
        while window := list(islice(items, WINDOW)):
            yield from pool.imap(_one, window, 1)


def _detached(source: Source) -> Source:
    from dataclasses import replace

    return replace(source, messages=None)
