"""House-rules files: what they resolve to, and a clear error with file and line for bad ones."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.cli import main
from validator.engine import BGA, LITERAL, STANDARD, Ruleset
from validator.rulesets import (
    BASE_SWITCHES,
    EXPANSIONS,
    RulesError,
    describe,
    expansion_sentences,
    find_expansion,
    parse_rules,
    resolve,
    to_rules_file,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rules" / "house-rules.yaml"

GOOD = [
    ("base: standard\n", STANDARD),
    ("base: bga\n", BGA),
    ("base: literal\n", LITERAL),
    ("pass_counting: total\n", BGA),
    ("scoring: crossed-circles\n", LITERAL),
    ("base: bga\npass_limit: 5\n", Ruleset(pass_counting="total", pass_limit=5)),
    ("expansions:\n  escape: {bonus: 20}\n", Ruleset(escape_bonus=20)),
    ("expansions:\n  escape:\n    bonus: 0\n", Ruleset(escape_bonus=0)),
    ("expansions:\n  rings: {max: 1}\n", Ruleset(max_rings=1)),
    ("expansions:\n  rings: {}\n", Ruleset(max_rings=3)),
    ("expansions:\n  rings: true\n", Ruleset(max_rings=3)),
    ("expansions:\n  rings: false\n  escape: false\n", STANDARD),
    ("expansions:\n  in_and_out: true\n", Ruleset(in_and_out=True)),
    (
        "base: literal\npass_counting: total\npass_limit: 2\nexpansions:\n"
        "  escape: {bonus: 15}\n  rings: {max: 2}\n  in_and_out: true\n",
        Ruleset(
            pass_counting="total",
            pass_limit=2,
            scoring="crossed-circles",
            escape_bonus=15,
            max_rings=2,
            in_and_out=True,
        ),
    ),
]


def _switches(rules: Ruleset) -> tuple[object, ...]:
    return (
        rules.pass_counting,
        rules.pass_limit,
        rules.scoring,
        rules.escape_bonus,
        rules.max_rings,
        rules.in_and_out,
    )


@pytest.mark.parametrize(("text", "want"), GOOD, ids=[t for t, _ in GOOD])
def test_good_files(text: str, want: Ruleset) -> None:
    rules = parse_rules(text, "house.yaml")
    assert _switches(rules) == _switches(want)
    assert rules.name == "house.yaml"


# (file text, line, column, words the message must hold)
BAD = [
    ("base: bga\npass_limt: 3\n", 2, 1, ["unknown switch 'pass_limt'", "pass_limit"]),
    ("expansions:\n  rings: {max: 4}\n", 2, 3, ["1 to 3", "not 4"]),
    ("expansions:\n  rings: {max: 0}\n", 2, 3, ["1 to 3"]),
    ("expansions:\n  escape: {}\n", 2, 3, ["needs its bonus", "no default"]),
    ("expansions:\n  escape: true\n", 2, 3, ["needs its bonus"]),
    ("expansions:\n  escape: 20\n", 2, 3, ["escape: {bonus: POINTS}"]),
    ("expansions:\n  escape: {bonus: -5}\n", 2, 12, ["greater than or equal to 0"]),
    ("expansions:\n  escape: {bonus: '20'}\n", 2, 12, ["valid integer"]),
    ("expansions:\n  escape: {bonus: 20, points: 3}\n", 2, 23, ["unknown switch 'points'"]),
    ("expansions:\n  magic: true\n", 2, 3, ["unknown switch 'magic'", "in_and_out"]),
    ("expansions:\n  in-and-out: true\n", 2, 3, ["unknown switch 'in-and-out'", "in_and_out"]),
    ("expansions:\n  in_and_out: yes please\n", 2, 3, ["valid boolean"]),
    ("expansions: 3\n", 1, 1, ["valid dictionary"]),
    ("base: chess\n", 1, 1, ["'standard', 'bga' or 'literal'", "chess"]),
    ("pass_counting: sometimes\n", 1, 1, ["'in-a-row' or 'total'"]),
    ("pass_limit: 0\n", 1, 1, ["greater than or equal to 1"]),
    ("pass_limit: three\n", 1, 1, ["valid integer"]),
    ("scoring: best\n", 1, 1, ["'all-circles' or 'crossed-circles'"]),
    ("- base: bga\n", 1, 1, ["mapping of switches"]),
    ("# nothing yet\n", 1, 1, ["empty"]),
    ("base: [bga\n", 1, 7, ["YAML syntax", "the [ opened here is never closed"]),
    ("base: &b bga\nname: *b\n", 1, 7, ["aliases"]),
    ("base: bga\nbase: literal\n", 2, 1, ["twice"]),
]


@pytest.mark.parametrize(("text", "line", "col", "words"), BAD, ids=[t for t, *_ in BAD])
def test_bad_files(text: str, line: int, col: int, words: list[str], tmp_path: Path) -> None:
    path = tmp_path / "contest.yaml"
    path.write_text(text)
    with pytest.raises(RulesError) as caught:
        resolve(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}:{col}: "), message
    for word in words:
        assert word in message


def test_bad_file_exits_2_wherever_rules_is_accepted(tmp_path: Path) -> None:
    bad = tmp_path / "contest.yaml"
    bad.write_text("base: bga\nexpansions:\n  rings: {max: 4}\n")
    record = ROOT / "examples" / "alice.yaml"
    runner = CliRunner()
    for args in (
        ["validate", str(record), "--rules", str(bad)],
        ["validate", str(record), "--rules", str(bad), "--format", "json"],
        ["rules", str(bad)],
    ):
        run = runner.invoke(main, args)
        assert run.exit_code == 2, args
        assert f"{bad}:3:3:" in run.output and "1 to 3 magic rings" in run.output
        assert "Traceback" not in run.output


@pytest.mark.parametrize(
    "text",
    [b"\xff\xfe base: bga\n", None],
    ids=["not-utf8", "missing"],
)
def test_unreadable_files(text: bytes | None, tmp_path: Path) -> None:
    path = tmp_path / "contest.yml"
    if text is not None:
        path.write_bytes(text)
    with pytest.raises(RulesError, match=r"contest\.yml: "):
        resolve(str(path))


def test_file_with_expansions_added_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "contest.yaml"
    path.write_text("base: bga\nname: spring\n")
    rules = resolve(f"{path}+escape=20+rings=2")
    assert _switches(rules) == ("total", 3, "all-circles", 20, 2, False)
    assert rules.name == "spring+escape=20+rings=2"


def test_example_house_rules() -> None:
    rules = resolve(str(EXAMPLE))
    assert rules.name == "spring-contest"
    assert _switches(rules) == ("total", 3, "all-circles", 20, 2, False)


@pytest.mark.parametrize(
    "spec",
    ["standard", "bga", "literal", "bga+escape=20+rings=2+in-and-out", "literal+rings=1"],
)
def test_rules_file_round_trip(spec: str) -> None:
    """`road300 rules SPEC --format yaml` writes a file that resolves to the same switches."""
    import yaml

    rules = resolve(spec)
    text = yaml.safe_dump(to_rules_file(rules), sort_keys=False)
    again = parse_rules(text, "again.yaml")
    assert _switches(again) == _switches(rules)
    assert again.name == rules.name


def test_a_record_can_name_its_house_rules(tmp_path: Path) -> None:
    """`--rules FILE` with a named ruleset: a record saying `rules: NAME` gets no warning."""
    (tmp_path / "dice.txt").write_text("1 1 1\n2 2 1\n")
    (tmp_path / "contest.yaml").write_text("name: spring\nexpansions: {rings: {max: 1}}\n")
    record = tmp_path / "entry.yaml"
    record.write_text(
        "rules: spring\nrings: 1\nrounds:\n"
        "  - {cross: 1/1, move: 6/6}\n  - {cross: 2/2, move: 6/5}\n"
    )
    run = CliRunner().invoke(
        main,
        ["validate", str(record), "--dice", str(tmp_path / "dice.txt"), "--rules",
         str(tmp_path / "contest.yaml"), "--format", "json"],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    assert '"verdict": "valid"' in run.output and '"warnings": []' in run.output
    assert '"rules": "spring"' in run.output


def test_relative_rules_file_from_a_record_folder(tmp_path: Path) -> None:
    (tmp_path / "contest.yaml").write_text("base: bga\n")
    assert resolve("contest.yaml", base_dir=tmp_path).pass_counting == "total"
    assert resolve(str(tmp_path / "contest.yaml"), base_dir=Path("/nowhere")).name.endswith(
        "contest.yaml"
    )
    with pytest.raises(RulesError, match="cannot read"):
        resolve("contest.yaml", base_dir=tmp_path / "elsewhere")


# --- expansions as units --------------------------------------------------------------

SPECS = ["escape=0", "escape=20", "rings", "rings=1", "rings=2", "in-and-out"]


@pytest.mark.parametrize("part", SPECS)
@pytest.mark.parametrize("base", ["standard", "bga", "literal"])
def test_each_expansion_sets_only_its_switch(base: str, part: str) -> None:
    rules = resolve(f"{base}+{part}")
    key = part.partition("=")[0]
    expansion = find_expansion(key)
    assert expansion.in_play(rules)
    assert [x.key for x in EXPANSIONS if x.in_play(rules)] == [key]
    # Every other switch is the base ruleset's.
    plain = dataclasses.replace(rules, **{expansion.switch: getattr(STANDARD, expansion.switch)})
    assert dataclasses.replace(plain, name=base) == resolve(base)
    # Its spec part names it again, and its rules-file entry gives the same switch.
    assert rules.name == f"{base}+{expansion.spec_part(rules)}"
    assert resolve(rules.name) == rules
    assert to_rules_file(rules)["expansions"] == {expansion.file_key: expansion.to_file(rules)}


def test_expansions_in_any_order_name_the_ruleset_in_one_order() -> None:
    a = resolve("bga+in-and-out+rings=2+escape=5")
    b = resolve("bga + escape=5 + rings = 2 + in-and-out")
    assert a == b and a.name == "bga+escape=5+rings=2+in-and-out"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("standard+escape=x", "the bonus is a whole number of points"),
        ("standard+escape=-1", "escape=-1: the bonus is a whole number of points"),
        ("standard+escape", "needs its bonus"),
        ("standard+escape=", "needs its bonus"),
        ("standard+escape=10001", "0 to 10000 points"),
        ("standard+rings=two", "1 to 3 rings"),
        ("standard+rings=0", "1 to 3 rings"),
        ("standard+in-and-out=yes", "takes no value"),
        ("standard+ring=2", "unknown expansion 'ring'; choose from: escape, rings, in-and-out"),
    ],
)
def test_bad_expansion_values(spec: str, words: str) -> None:
    with pytest.raises(RulesError, match=re.escape(words)):
        resolve(spec)


def test_every_switch_of_a_ruleset_is_a_base_switch_or_one_expansion() -> None:
    """A new Ruleset field must be described: by the base switches or by one expansion."""
    owned = [*BASE_SWITCHES, *(x.switch for x in EXPANSIONS)]
    assert sorted(owned) == sorted(f.name for f in dataclasses.fields(Ruleset) if f.name != "name")
    assert len({x.key for x in EXPANSIONS}) == len({x.file_key for x in EXPANSIONS}) == 3
    assert [s.key for s in describe(STANDARD)] == owned
    # Off in the standard ruleset, on (and described as on) once named.
    full = resolve(
        "standard+" + "+".join(x.key + ("=9" if x.key == "escape" else "") for x in EXPANSIONS)
    )
    for x in EXPANSIONS:
        assert not x.in_play(STANDARD)
        assert x.in_play(full)
        assert x.meaning(full) != x.meaning(STANDARD)


@pytest.mark.parametrize("spec", ["standard", "bga+escape=20", "literal+rings=2+in-and-out"])
def test_report_sentences_name_the_expansions_in_play(spec: str) -> None:
    rules = resolve(spec)
    sentences = expansion_sentences(rules)
    assert len(sentences) == sum(x.in_play(rules) for x in EXPANSIONS)
    for x, sentence in zip([x for x in EXPANSIONS if x.in_play(rules)], sentences, strict=True):
        assert sentence.lower().startswith(f"with {x.title.lower().rstrip('!')}")
    if rules.escape_bonus is not None:
        assert f"{rules.escape_bonus} bonus points" in sentences[0]
