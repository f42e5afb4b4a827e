"""Shared test helpers: the repository's paths and running the real CLI as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CHALLENGE = EXAMPLES / "challenge.txt"

PARALLEL = 8
"""CLI subprocesses run at once; each spends most of its time importing."""


@dataclass(frozen=True)
class CliRun:
    status: int
    stdout: str
    stderr: str

    def json(self) -> dict[str, Any]:
        """The first JSON line of stdout (one line per record)."""
        payload: dict[str, Any] = json.loads(self.stdout.splitlines()[0])
        return payload


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = str(ROOT)
    return env


def cli_command(args: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "validator", *args]


def run_cli_many(jobs: Mapping[str, tuple[Sequence[str], Path]]) -> dict[str, CliRun]:
    """Run `road300 ARGS` in CWD for every job, several at once; results by job name."""
    results: dict[str, CliRun] = {}
    pending = list(jobs.items())
    while pending:
        batch, pending = pending[:PARALLEL], pending[PARALLEL:]
        procs = [
            (
                name,
                subprocess.Popen(
                    cli_command(args),
                    cwd=cwd,
                    env=_env(),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                ),
            )
            for name, (args, cwd) in batch
        ]
        for name, proc in procs:
            out, err = proc.communicate(timeout=120)
            results[name] = CliRun(proc.returncode, out, err)
    return results


def run_cli(args: Sequence[str], cwd: Path = ROOT) -> CliRun:
    return run_cli_many({"job": (args, cwd)})["job"]


RunMany = Callable[[Mapping[str, tuple[Sequence[str], Path]]], dict[str, CliRun]]
"""The `cli_many` fixture: jobs by name -> (road300 arguments, working folder)."""


@pytest.fixture(scope="session")
def cli_many() -> RunMany:
    """Run the real CLI (`python -m validator`) for many jobs at once."""
    return run_cli_many


@pytest.fixture(scope="session")
def cli() -> Callable[..., CliRun]:
    """Run the real CLI once: cli(args, cwd=ROOT) -> CliRun."""
    return run_cli
