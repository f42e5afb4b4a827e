"""Mutation testing of the rules: how many of mutmut's mutants of one module the tests kill.

    python tools/mutation.py validator/engine/game.py
    python tools/mutation.py validator/check/replay.py --children 2 --show

mutmut is not a dependency of the project: install it in a virtual environment of its own
beside the project and its test extra (`pip install mutmut -e '.[test]'`), and run this
script with that environment's Python (its `mutmut` is the one beside it). The run copies
the repository's tracked files into a scratch folder (`--work`, a temporary one by default),
mutates the one module there, runs the module's tests (`MODULE_TESTS`, or `--tests`) against
each mutant under `nice`, and prints the counts and the kill rate; `--show` prints the diff
of every survivor. A full run of one module takes tens of minutes of CPU: it is a tool for
reviewing the tests (docs/architecture.md), not a CI step.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_ENGINE_TESTS = [
    "tests/test_engine.py",
    "tests/test_engine_facts.py",
    "tests/test_engine_properties.py",
    "tests/perft/test_perft.py",
]
_REPLAY_TESTS = [
    "tests/test_replay.py",
    "tests/test_acceptance.py",
    "tests/test_explain.py",
    "tests/test_variants.py",
    "tests/test_properties.py",
]
MODULE_TESTS: dict[str, list[str]] = {
    "validator/engine/game.py": _ENGINE_TESTS + _REPLAY_TESTS,
    "validator/check/replay.py": [*_REPLAY_TESTS, "tests/test_engine_facts.py"],
}
"""The tests that hold each module's rules: mutmut runs, of these, the ones that call the
mutated function."""

DETECTED = ("killed", "timeout", "caught by type check")
"""Statuses of a mutant the tests told apart from the module (a mutant that makes a test
loop forever is stopped by mutmut's timeout: detected too)."""

_RESULT = re.compile(r"^\s+(\S+): (.+)$")


def _copy_repository(work: Path) -> None:
    """The tracked files of the repository (with the working tree's changes), and the
    compiled catalogs the package reads."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    names = [n for n in listed.split("\0") if n]
    names += [str(p.relative_to(ROOT)) for p in (ROOT / "validator" / "locale").rglob("*.mo")]
    for name in names:
        source = ROOT / name
        if source.is_file():
            target = work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _setup_cfg(module: str, tests: list[str]) -> str:
    also = ["README.md", "docs", "examples", "schemas", "tools", "benchmarks"]
    lines = [
        "[mutmut]",
        "source_paths=validator",
        f"only_mutate={module}",
        "also_copy=",
        *(f"    {name}" for name in also),
        # One process per mutant: the suite's own `-n auto` would start workers in each.
        "pytest_add_cli_args=",
        "    -n",
        "    0",
        "    -p",
        "    no:cacheprovider",
        "pytest_add_cli_args_test_selection=",
        *(f"    {name}" for name in tests),
    ]
    return "\n".join(lines) + "\n"


def _mutmut() -> str:
    beside = Path(sys.executable).parent / "mutmut"
    found = str(beside) if beside.exists() else shutil.which("mutmut")
    if found is None:
        sys.exit("mutmut is not installed beside this Python (see the docstring)")
    return found


def statuses(work: Path, mutmut: str) -> dict[str, str]:
    """Each mutant's status, by name, as `mutmut results` reports it."""
    out = subprocess.run(
        [mutmut, "results", "--all", "true"], cwd=work, capture_output=True, text=True, check=True
    ).stdout
    return {m[1]: m[2] for line in out.splitlines() if (m := _RESULT.match(line))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", choices=sorted(MODULE_TESTS), help="the module to mutate")
    parser.add_argument("--tests", nargs="+", help="test files (default: the module's own)")
    parser.add_argument("--children", type=int, default=1, help="mutants tested at once")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument("--show", action="store_true", help="print the diff of every survivor")
    args = parser.parse_args(argv)
    mutmut = _mutmut()
    work: Path = args.work or Path(tempfile.mkdtemp(prefix="road300-mutation-"))
    if not (work / "mutants").exists():
        _copy_repository(work)
        (work / "setup.cfg").write_text(
            _setup_cfg(args.module, args.tests or MODULE_TESTS[args.module]), encoding="utf-8"
        )
    # A re-run in the same --work folder tests only the mutants not tested yet.
    subprocess.run(
        ["nice", "-n", "19", mutmut, "run", "--max-children", str(args.children)],
        cwd=work,
        check=False,
    )
    found = statuses(work, mutmut)
    counts = collections.Counter(found.values())
    detected = sum(counts[s] for s in DETECTED)
    print(f"\n{args.module}: {len(found)} mutants in {work}")
    for status, n in counts.most_common():
        print(f"  {status}: {n}")
    if found:
        print(f"  detected: {detected} of {len(found)} ({100 * detected / len(found):.1f} %)")
    if args.show:
        for name, status in sorted(found.items()):
            if status == "survived":
                subprocess.run([mutmut, "show", name], cwd=work, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
