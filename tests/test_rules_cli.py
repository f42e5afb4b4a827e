"""`road300 rules`: the list of rulesets and expansions, one ruleset in full, bad names exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from validator.cli import main
from validator.rulesets import resolve

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_list_names_every_ruleset_and_expansion() -> None:
    status, out = _run("rules")
    assert status == 0
    for words in (
        "standard",
        "bga",
        "literal",
        "changes: pass_counting: total",
        "changes: scoring: crossed-circles",
        "+escape=BONUS",
        "+rings[=N]",
        "+in-and-out",
        "Escape!",
        "The magic rings!",
        "In and Out!",
        "no default",
        "--rules FILE.yaml",
    ):
        assert words in out, words


def test_list_as_json() -> None:
    status, out = _run("rules", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["rulesets"]["standard"]["changes"] == {}
    assert data["rulesets"]["bga"]["changes"] == {"pass_counting": "total"}
    assert data["rulesets"]["literal"]["changes"] == {"scoring": "crossed-circles"}
    assert set(data["expansions"]) == {"escape", "rings", "in-and-out"}


# (spec, lines the full text must hold: a switch marked * when it differs from standard)
SHOW = [
    (
        "standard",
        ["Ruleset standard", "   pass_counting  in-a-row", "only forced rerolls in a row count"],
    ),
    ("bga", [" * pass_counting  total", "third counted forced reroll ends the game"]),
    ("literal", [" * scoring        crossed-circles", "both an X and a circle"]),
    ("bga+escape=20", ["Ruleset bga+escape=20", " * escape_bonus   20", "20 bonus points"]),
    ("standard+rings=2", [" * max_rings      2", "1-2 rings"]),
    ("standard+rings=1", [" * max_rings      1", "declare 1 ring (rings: N)"]),
    ("standard+rings", [" * max_rings      3"]),
    ("literal+in-and-out", [" * in_and_out     on", "re-enters through a free corner"]),
    (
        "bga+rings=1+in-and-out",
        ["In a record:", "  The magic rings!: rings: N", "  In and Out!: move: leave"],
    ),
]


@pytest.mark.parametrize(("spec", "lines"), SHOW, ids=[s for s, _ in SHOW])
def test_show_one_ruleset(spec: str, lines: list[str]) -> None:
    status, out = _run("rules", spec)
    assert status == 0
    for line in lines:
        assert line in out, line


def test_show_a_rules_file() -> None:
    path = ROOT / "examples" / "rules" / "house-rules.yaml"
    status, out = _run("rules", str(path))
    assert status == 0
    assert "Ruleset spring-contest" in out
    assert " * escape_bonus   20" in out and " * max_rings      2" in out


@pytest.mark.parametrize("spec", ["bga+escape=20+rings=2", "literal+in-and-out", "standard"])
def test_show_json_and_yaml(spec: str, tmp_path: Path) -> None:
    status, out = _run("rules", spec, "--format", "json")
    assert status == 0
    data = json.loads(out)
    rules = resolve(spec)
    assert data["name"] == rules.name
    assert {k: v["value"] for k, v in data["switches"].items()} == {
        "pass_counting": rules.pass_counting,
        "pass_limit": rules.pass_limit,
        "scoring": rules.scoring,
        "escape_bonus": rules.escape_bonus,
        "max_rings": rules.max_rings,
        "in_and_out": rules.in_and_out,
    }
    assert list(data["expansions"]) == [k for k in ("escape", "rings", "in-and-out") if k in spec]
    # The yaml form is a rules file: written out, it resolves to the same ruleset.
    status, out = _run("rules", spec, "--format", "yaml")
    assert status == 0
    path = tmp_path / "again.yaml"
    path.write_text(out)
    assert yaml.safe_load(out)["name"] == rules.name
    assert resolve(str(path)) == rules


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("chess", "unknown ruleset 'chess'"),
        ("standard+escape", "needs its bonus"),
        ("standard+rings=4", "1 to 3 rings"),
        ("bga+flying", "unknown expansion 'flying'"),
        ("missing.yaml", "missing.yaml: cannot read the rules file"),
    ],
)
def test_bad_spec_exits_2(spec: str, words: str) -> None:
    status, out = _run("rules", spec)
    assert status == 2
    assert out.startswith("road300: error: ") and words in out
    assert "Traceback" not in out


@pytest.mark.slow  # two whole processes
def test_real_command_line(tmp_path: Path) -> None:
    """Through `python -m validator`, as a user runs it."""
    bad = tmp_path / "contest.yaml"
    bad.write_text("base: bga\nexpansions:\n  escape: {}\n")
    ok = subprocess.run(
        [sys.executable, "-m", "validator", "rules", "bga"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0 and "pass_counting  total" in ok.stdout
    failed = subprocess.run(
        [sys.executable, "-m", "validator", "rules", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert failed.returncode == 2
    assert f"{bad}:3:3:" in failed.stderr and "needs its bonus" in failed.stderr
    assert failed.stdout == ""


def test_list_shows_each_expansion_whole() -> None:
    """Each expansion's spec, rules-file key and record syntax come from its one object."""
    from validator.rulesets import EXPANSIONS

    status, out = _run("rules")
    assert status == 0
    status, raw = _run("rules", "--format", "json")
    listed = json.loads(raw)["expansions"]
    for x in EXPANSIONS:
        for text in (x.spec_syntax, x.title, x.file_syntax, x.record_syntax):
            assert text in out, text
        assert listed[x.key]["name"] == x.title
        assert listed[x.key]["switch"] == x.switch
        assert listed[x.key]["record"] == x.record_syntax
        # The rules-file form shown is one that a rules file accepts.
        assert yaml.safe_load(listed[x.key]["rules_file"])["expansions"].keys() == {x.file_key}
    assert "move: escape" in listed["escape"]["record"]
    assert "ring: true" in listed["rings"]["record"]
    assert "move: leave" in listed["in-and-out"]["record"]
