"""Every file a command writes goes through here, under one policy.

- Each command that writes a file has `--output/-o` (`output_option`); without it, or with
  `-`, the output goes to standard output.
- The file is written to a temporary file with a unique name in the same folder, then
  renamed over the target: an interrupted run (Ctrl-C, SIGTERM, a full disk, text that cannot
  be written) leaves the old file as it was and no partial or empty file, and two runs
  writing the same file at once leave one whole document, never a mix.
- A command checks its `--output` before it starts (`Target.check`), so a command that
  refuses to run writes nothing.
- What is not a regular file (a device such as /dev/null, a named pipe) is written
  through, never replaced; a symbolic link to a file stays a link (system/atomic.py).
- Precious files (a dice file `road300 dice` wrote, a game `road300 play` is playing) are
  replaced only with `--force`; every other output is replaced. No output replaces one of
  the command's inputs.
- "wrote ..." goes to standard error, so that standard output holds only the output.
- What is written is always valid UTF-8: text that holds undecodable bytes (a file name
  that is not UTF-8, kept by Python as lone surrogates) is written with those bytes as
  `\\udcXX` escapes instead of failing half-way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeVar

import click

from validator.cli.common import fail_usage
from validator.system.atomic import ENCODING_ERRORS, replacing

F = TypeVar("F", bound=Callable[..., object])


def output_option(what: str, *, precious: bool = False) -> Callable[[F], F]:
    """`--output/-o FILE` (and `--force` for a precious file) for a command writing `what`."""

    def decorate(func: F) -> F:
        replaced = (
            "An existing file is replaced only with --force."
            if precious
            else "An existing file is replaced (never one of the command's inputs)."
        )
        func = click.option(
            "--output",
            "-o",
            type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
            help=f"Write {what} to this file instead of standard output ('-'). {replaced}",
        )(func)
        if precious:
            func = click.option("--force", is_flag=True, help="Replace an existing --output file.")(
                func
            )
        return func

    return decorate


@dataclass(frozen=True, slots=True)
class Target:
    """Where a command's output goes: standard output (`path` None) or a file."""

    path: Path | None
    what: str
    """What is written, for messages: "the report", "the results"."""
    inputs: tuple[Path, ...] = ()
    precious: bool = False
    force: bool = False
    named_by: str = "--output"
    """How the command line names the file, for messages (`contest init`: FILE)."""
    private: bool = False
    """The file holds e-mail addresses: its owner's alone (system/atomic.PRIVATE)."""

    @classmethod
    def of(
        cls,
        output: Path | None,
        what: str,
        *,
        inputs: Iterable[Path] = (),
        precious: bool = False,
        force: bool = False,
        named_by: str = "--output",
    ) -> Target:
        path = None if output is None or str(output) == "-" else output
        inputs = tuple(p for p in inputs if str(p) != "-")
        return cls(path, what, inputs, precious, force, named_by=named_by)

    def check(self) -> None:
        """Stop the command (exit 2) before it does anything when the file must not be
        written: one of its inputs, a folder, or an existing precious file without --force."""
        path, what = self.path, self.what
        if path is None:
            return
        if any(_same_file(path, p) for p in self.inputs):
            fail_usage(f"{path}: is an input of this command; write {what} to another file")
        if path.is_dir():
            fail_usage(f"{path}: is a folder; name a file to write {what} to")
        if self.precious and not self.force and (path.exists() or path.is_symlink()):
            fail_usage(
                f"{path}: exists; choose another {self.named_by}, or give --force to replace it"
            )

    def write(self, text: str, note: str | None = None) -> None:
        """`text` to standard output or, replacing it whole, to the file; then
        `road300: wrote NOTE to FILE` on standard error (`note` defaults to `what`)."""
        self.check()
        if self.path is None:
            # As valid UTF-8, whatever it holds.
            sys.stdout.write(text.encode("utf-8", ENCODING_ERRORS).decode("utf-8"))
            sys.stdout.flush()
            return
        with self.open() as handle:
            handle.write(text)
        self.wrote(note)

    @contextmanager
    def open(self) -> Iterator[TextIO]:
        """A text stream for the output, for writers that stream; the file appears (whole)
        only when the block ends without an exception. Standard output as it is."""
        self.check()
        if self.path is None:
            yield sys.stdout
            return
        try:
            with replacing(self.path, private=self.private) as handle:
                yield handle
        except OSError as exc:
            fail_usage(f"{self.path}: cannot write {self.what}: {exc.strerror or exc}")

    def wrote(self, note: str | None = None, detail: str = "") -> None:
        """`road300: wrote NOTE to FILE DETAIL` on standard error, for a file."""
        if self.path is not None:
            say(f"wrote {note or self.what} to {self.path}{detail}")


def counted(n: int, one: str, many: str) -> str:
    """`1 entry`, `3 entries`: a count in a note to the person running the command (the
    notes are English; what players read goes through wording.plural)."""
    return f"{n} {one if n == 1 else many}"


def say(line: str) -> None:
    """A note for the person running the command, on standard error."""
    click.echo(f"road300: {line}", err=True)


def same_or_inside(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or lies inside it (links resolved)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
