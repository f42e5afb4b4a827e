"""Shared test helpers: the repository's paths and running the real CLI (in this process,
or as a subprocess for the few smoke tests of the entry point)."""

from __future__ import annotations

import gc
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from contest_helpers import SmtpServer
    from dovecot import Dovecot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CHALLENGE = EXAMPLES / "challenge.txt"


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


_AS_FROM_A_TERMINAL = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('validator', run_name='__main__', alter_sys=True)"
)


def cli_command(args: Sequence[str]) -> list[str]:
    """`python -m validator ARGS`, with Ctrl-C (SIGINT) as a terminal gives it: a test run
    started in the background has SIGINT ignored, and its children inherit that."""
    return [sys.executable, "-c", _AS_FROM_A_TERMINAL, *args]


def run_cli_many(jobs: Mapping[str, tuple[Sequence[str], Path]]) -> dict[str, CliRun]:
    """Run `road300 ARGS` in CWD for every job, in this process; results by job name."""
    return {name: run_in_process(args, cwd) for name, (args, cwd) in jobs.items()}


def run_in_process(args: Sequence[str], cwd: Path = ROOT) -> CliRun:
    """The real command line through click's runner, in `cwd`, without colour."""
    from click.testing import CliRunner

    from validator.cli import main

    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return CliRun(result.exit_code, result.stdout, result.stderr)


def run_subprocess(args: Sequence[str], cwd: Path = ROOT) -> CliRun:
    """`python -m validator ARGS` as a real process: for the few smoke tests of the entry
    point, the exit status and the streams as a shell sees them."""
    proc = subprocess.run(
        cli_command(args),
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
        check=False,
    )
    return CliRun(proc.returncode, proc.stdout, proc.stderr)


def proc_stat(pid: int) -> list[str] | None:
    """The fields of Linux's /proc/PID/stat after the command's name (the process's
    state first), or None once the process has gone (or off Linux)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def run_cli(args: Sequence[str], cwd: Path = ROOT) -> CliRun:
    return run_cli_many({"job": (args, cwd)})["job"]


RunMany = Callable[[Mapping[str, tuple[Sequence[str], Path]]], dict[str, CliRun]]
"""The `cli_many` fixture: jobs by name -> (road300 arguments, working folder)."""


@pytest.fixture(scope="session")
def cli_many() -> RunMany:
    """Run the real CLI for many jobs."""
    return run_cli_many


@pytest.fixture(scope="session")
def cli() -> Callable[..., CliRun]:
    """Run the real CLI once: cli(args, cwd=ROOT) -> CliRun."""
    return run_cli


# The autouse fixtures that hold for every test are set once for the session: a fixture set
# up for each of the 2,800 tests costs about 0.1 ms each time (0.3 s a run for two).


@pytest.fixture(autouse=True, scope="session")
def _english_locale() -> Generator[None, None, None]:
    """Outputs follow the locale when nothing else names a language (docs/languages.md):
    tests run without one, so that the English goldens hold on any machine."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
            patch.delenv(name, raising=False)
        yield


_CORE_ENV = "ROAD300_SOLVER_CORE"
"""validator.solver.search.CORE_ENV, named here without importing the package."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Outside the slow step, every search that would pick its core by itself ("auto") stays
    in pure Python: no test process loads numba or compiles the core in another process
    (a fresh clone's first compilation costs each process several seconds of CPU). The
    compiled core and the switch to it are tested in the slow step. Set around each test's
    setup, call and teardown by this hook rather than by an autouse fixture, which cost
    each of the 2,800 tests a fixture and a monkeypatch (0.2 s a run)."""
    if item.get_closest_marker("slow") is not None:
        return (yield)
    old = os.environ.get(_CORE_ENV)
    os.environ[_CORE_ENV] = "python"
    try:
        return (yield)
    finally:
        if old is None:
            os.environ.pop(_CORE_ENV, None)
        else:
            os.environ[_CORE_ENV] = old


@pytest.fixture(autouse=True, scope="session")
def _fast_core_note_said() -> Generator[None, None, None]:
    """Without the compiled core, the first search of a process notes on stderr that
    road300[fast] would be faster: whichever test searches first would get the note in its
    output (a golden file with it, or without it, fails by test order). Tests see it as
    said already; tests/test_solver_cli.py checks the note itself."""
    from validator.solver import search

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "_fast_core_noted", True)
        yield


@pytest.fixture
def quick_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot waits after every key until the app is idle, in steps of 20 ms
    (`textual._wait.SLEEP_GRANULARITY`) while it burns under 1 ms of CPU a step: most of
    a short game by keys (1.5 s) was that sleeping. In steps of 4 ms, the same idle test
    (under a quarter of a step busy) still waits for the app to finish each key."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004)


# A module marked slow as a whole (`pytestmark = pytest.mark.slow`, alone or first in a list)
# is not even imported by the plain step: importing it would load what only its tests need
# (numba, the browser, the fuzzer's corpus) in every worker for nothing.
_SLOW_MODULE = re.compile(r"^pytestmark = \[?\s*pytest\.mark\.slow\b", re.MULTILINE)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("markexpr") != "not slow" or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    return bool(_SLOW_MODULE.search(collection_path.read_text(encoding="utf-8"))) or None


def _rewrite_ahead(config: pytest.Config) -> None:
    """Every xdist worker imports every test module, and pytest rewrites the asserts of each
    (1.3 s of a worker's 2.5 s of collecting), caching the result in __pycache__ for the next
    run. On a fresh clone all workers start at once, so each rewrote every module. So before
    collecting, worker k of n rewrites and caches the modules from the k-th n-th of the list
    on, and stops at the first one some worker has cached already; collecting then loads
    the cached modules. The same pytest functions rewrite and write as when it imports a
    module, so the tests run the same code. Only for the whole run (the testpaths)."""

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if (
        sys.dont_write_bytecode
        or count < 2
        or not worker.startswith("gw")
        or config.getoption("assertmode") != "rewrite"
        or config.args_source is not pytest.Config.ArgsSource.TESTPATHS
    ):
        return
    modules = sorted(
        path
        for path in (ROOT / "tests").rglob("test_*.py")
        if not pytest_ignore_collect(path, config)
    )
    rewrite_modules(config, modules[len(modules) * int(worker[2:]) // count :])


def rewrite_modules(config: pytest.Config, modules: list[Path]) -> None:
    """Rewrite and cache `modules` in turn, up to the first one cached already, or one that
    does not compile: collecting reports its error, naming it, as without this."""
    from _pytest.assertion import rewrite

    # These are pytest's own internals (8.4): where a later pytest moved them, collecting
    # rewrites every module itself, as without this; only the time saved is lost.
    internals = ("assertstate_key", "get_cache_dir", "PYC_TAIL", "try_makedirs")
    if not all(hasattr(rewrite, name) for name in (*internals, "_rewrite_test", "_write_pyc")):
        return
    state = config.stash[rewrite.assertstate_key]
    for path in modules:
        cache = rewrite.get_cache_dir(path)
        pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
        if pyc.exists() or not rewrite.try_makedirs(cache):
            return
        try:
            stat, code = rewrite._rewrite_test(path, config)
        except (SyntaxError, ValueError, OSError):  # ValueError: null bytes, bad encoding
            return
        rewrite._write_pyc(state, code, stat, pyc)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Collecting the tests (importing and assert-rewriting their modules) makes many
    objects, most of which live on. With the garbage collector on, a worker spent 0.8 s of
    its 2.5 s of collecting in it, and 1.5 s during the tests, about half of that scanning
    those same objects again. So the garbage collector is off while the tests are
    collected, and what collecting leaves is frozen (`gc.freeze`): later garbage
    collections scan only what the tests make (0.8 s a worker). An object made while
    collecting that later ends in a reference cycle is never collected, so an exception of
    its finalizer would go unreported."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        _rewrite_ahead(session.config)
        return (yield)
    finally:
        if enabled:
            gc.enable()
        gc.collect()
        gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """At its end pytest collects garbage five times over the whole heap, to report the
    exceptions of objects that die late: 0.6-0.7 s a process after a run's 2,000 tests. One
    collection here finds what is garbage by then; then the heap is frozen (`gc.freeze`),
    so that the five scan only what is made after it. (An object that is alive now and
    dies in pytest's own last steps is not collected, so an exception of its finalizer
    would go unreported; each test's own are reported with the test.)"""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def dovecot() -> Generator[Dovecot, None, None]:
    """A real Dovecot IMAP server on loopback for the whole session (tests/dovecot.py);
    each test delivers to a folder of its own. Without Dovecot the test fails, naming
    .ci/install-debian.sh."""
    from dovecot import start_dovecot, stop_dovecot

    server = start_dovecot()
    try:
        yield server
    finally:
        stop_dovecot(server)


@pytest.fixture(scope="session")
def smtp_server(tmp_path_factory: pytest.TempPathFactory) -> Generator[SmtpServer, None, None]:
    """A real SMTP server (aiosmtpd) on loopback with STARTTLS and AUTH for the whole
    session (tests/contest_helpers.py); tests `reset` it before use."""
    from contest_helpers import smtp_server as start

    with start(tmp_path_factory.mktemp("smtp")) as server:
        yield server
