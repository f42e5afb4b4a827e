"""The annotated dice file record: examples, round trips and bad inputs with their places."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import strategies as st
from record_helpers import assert_located, assert_same, records, summary
from tiers import given_tiered

from validator.cli import main
from validator.engine import Field
from validator.errors import ReadError
from validator.records import text_record, yaml_record
from validator.records.model import build_record
from validator.records.record import Record

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"
EXAMPLE = """\
# comments start with #
player: Alice Example
claimed_score: 315
1: 2 4 5   x 2/4   -> 6/6 (5)
2: 1 1 1   reroll
3: 3 4 6   x 3/4   -> 5/5 (6)  path 6/5 5/5
4: 2 3 5
5: 6 6 6   ring
6: 1 2 4   x 1/2   -> escape
7: 1 3 5   x 3/5
8: 2 2 2
"""


def one(line: str) -> dict[str, Any]:
    record = text_record.parse(line, "t.txt")
    assert len(record.rounds) == 1
    return summary(record.rounds[0])


def test_example_parses_to_rounds() -> None:
    record = text_record.parse(EXAMPLE, "alice.txt")
    assert record.format == "text"
    assert record.player == "Alice Example"
    assert record.claimed_score == 315
    assert [summary(r) for r in record.rounds] == [
        {"roll": 1, "dice": (2, 4, 5), "cross": Field(2, 4), "move": Field(6, 6), "steps": 5},
        {"roll": 2, "dice": (1, 1, 1), "reroll": True},
        {
            "roll": 3,
            "dice": (3, 4, 6),
            "cross": Field(3, 4),
            "move": Field(5, 5),
            "steps": 6,
            "path": (Field(6, 5), Field(5, 5)),
        },
        {"roll": 5, "dice": (6, 6, 6), "ring": True},
        {"roll": 6, "dice": (1, 2, 4), "cross": Field(1, 2), "exit": "escape"},
        {"roll": 7, "dice": (1, 3, 5), "cross": Field(3, 5)},
    ]


def test_locations_point_at_values() -> None:
    record = text_record.parse(EXAMPLE, "alice.txt")
    third = record.rounds[2]
    assert (third.line, third.col) == (6, 1)
    assert third.where("cross") == (6, 14)
    assert third.where("move") == (6, 23)
    assert third.where("steps") == (6, 28)
    assert third.where("path") == (6, 37)
    assert record.where("player") == (2, 9)
    assert record.where("claimed_score") == (3, 16)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("7: 3 4 6 x 3/4 -> 5/5 (6)", {"cross": Field(3, 4), "move": Field(5, 5), "steps": 6}),
        ("7. 3,4,6  x3/4 > 5/5 6 steps", {"cross": Field(3, 4), "move": Field(5, 5), "steps": 6}),
        ("7) 346 cross 3/4 move 5/5", {"cross": Field(3, 4), "move": Field(5, 5)}),
        (
            "7: 3;4;6 X 3,4, -> (5, 5), steps: 6",
            {"cross": Field(3, 4), "move": Field(5, 5), "steps": 6},
        ),
        (
            "7 : 3 4 6 | x 34 | to 55 | in 6 steps",
            {"cross": Field(3, 4), "move": Field(5, 5), "steps": 6},
        ),
        ("7: 3 4 6 crossed room 3/4 moved room 5/5", {"cross": Field(3, 4), "move": Field(5, 5)}),
        ("7: 3 4 6 x 3/4 (6) -> 5/5", {"cross": Field(3, 4), "move": Field(5, 5), "steps": 6}),
        (
            "7: 3 4 6 x 3/4 -> 5/5 path 6/5,5/5 (6)",
            {
                "cross": Field(3, 4),
                "move": Field(5, 5),
                "steps": 6,
                "path": (Field(6, 5), Field(5, 5)),
            },
        ),
        ("7: 3 4 6 x 3/4 -> none", {"cross": Field(3, 4)}),
        ("7: 3 4 6 x 3/4 (6)", {"cross": Field(3, 4), "steps": 6}),
        ("7: 3 4 6 x 3/4 -> escape", {"cross": Field(3, 4), "exit": "escape"}),
        (
            "7: 3 4 6 x 3/4 LEAVE path 1/1",
            {"cross": Field(3, 4), "exit": "leave", "path": (Field(1, 1),)},
        ),
        (
            "7: 3 4 6 x 3/4 -> escape path none",
            {"cross": Field(3, 4), "exit": "escape", "path": ()},
        ),
        ("7: 3 4 6 REROLL", {"reroll": True}),
        ("7: 3 4 6 pass  # nothing to cross", {"reroll": True}),
        ("7: 3 4 6 ring", {"ring": True}),
        ("7: 3 4 6 3/4", {"cross": Field(3, 4)}),
        ("7: 3 4 6 3/4 5/5 6", {"cross": Field(3, 4), "move": Field(5, 5), "steps": 6}),
        ("\t7:\t3 4 6\tx 3/4\t->\t5/5", {"cross": Field(3, 4), "move": Field(5, 5)}),
    ],
)
def test_forgiving_spellings(line: str, expected: dict[str, Any]) -> None:
    assert one(line) == {"roll": 7, "dice": (3, 4, 6), **expected}


def test_rows_are_counted_when_not_numbered() -> None:
    text = "2 4 5\n1 1 1 reroll\n\n# a comment\n3 4 6 x 3/4 -> 5/5\n"
    record = text_record.parse(text, "t.txt")
    assert [(r.roll, r.line) for r in record.rounds] == [(2, 2), (3, 5)]


def test_numbered_rows_may_leave_rows_out() -> None:
    record = text_record.parse("3: 1 1 1 reroll\n9: 2 4 5 x 2/4\n10: 1 1 1\n", "t.txt")
    assert [r.roll for r in record.rounds] == [3, 9]


def test_header_keys_and_quoting() -> None:
    text = (
        'Player: "Bob # the \\"burglar\\""  # a comment\n'
        "dice-file: challenge.txt\n"
        f"dice_sha256: {'A' * 64}\n"
        "rules: bga # comment\n"
        "rings: 2\n"
        "claimed_score: +300\n"
        "1: 1 1 1 ring\n"
    )
    record = text_record.parse(text, "t.txt")
    assert record.player == 'Bob # the "burglar"'
    assert record.dice_file == "challenge.txt"
    assert record.dice_sha256 == "a" * 64
    assert (record.rules, record.rings, record.claimed_score) == ("bga", 2, 300)


def test_col_row_records_are_transposed() -> None:
    record = text_record.parse("coordinates: col-row\n1: 2 4 5 x 4/2 -> 6/5 path 6/5\n", "t")
    r = record.rounds[0]
    assert (r.cross, r.move, r.path) == (Field(2, 4), Field(5, 6), (Field(5, 6),))
    assert "coordinates" not in text_record.dump(record)


def test_a_header_alone_is_a_record_without_rounds() -> None:
    assert text_record.parse("player: Alice\n", "t").rounds == ()


def test_round_trip_of_the_example() -> None:
    record = text_record.parse(EXAMPLE, "alice.txt")
    assert_same(text_record.parse(text_record.dump(record), "again.txt"), record)


def test_round_trip_of_the_yaml_example() -> None:
    record = yaml_record.parse((ROOT / "examples" / "alice.yaml").read_text(), "alice.yaml")
    text = text_record.dump(record)
    assert "22: 4 5 4   x 4/4 (5)\n" in text
    assert_same(text_record.parse(text, "alice.txt"), record)


def test_annotated_challenge_file_validates(tmp_path: Path) -> None:
    from validator.check.file import Checker

    record = yaml_record.parse((ROOT / "examples" / "alice.yaml").read_text(), "alice.yaml")
    by_roll = {r.roll: r for r in record.rounds}
    lines = ["player: Alice Example", "claimed_score: 340", "dice_file: challenge.txt"]
    for line in (ROOT / "examples" / "challenge.txt").read_text().splitlines():
        roll = int(line.split(":")[0]) if line[:1].isdigit() else None
        if roll in by_roll:
            line += "   " + text_record.annotation(by_roll[roll])
        lines.append(line)
    (tmp_path / "challenge.txt").write_bytes((ROOT / "examples" / "challenge.txt").read_bytes())
    (tmp_path / "alice.txt").write_text("\n".join(lines) + "\n")
    result = Checker().check(tmp_path / "alice.txt")
    assert (result.verdict.value, result.score) == ("valid", 340)


def test_dump_needs_roll_and_dice() -> None:
    record = build_record({"rounds": [{"cross": "2/4"}]}, {}, "r", "yaml")
    with pytest.raises(ValueError, match="roll and dice"):
        text_record.dump(record)


def test_dump_needs_rolls_in_order() -> None:
    data = {
        "rounds": [
            {"roll": 2, "dice": [1, 1, 1], "reroll": True},
            {"roll": 1, "dice": [1, 1, 1], "reroll": True},
        ]
    }
    with pytest.raises(ValueError, match="in order"):
        text_record.dump(build_record(data, {}, "r", "yaml"))


BAD = [
    ("", "E007", 1, 1),
    ("# only a comment\n\n", "E007", 1, 1),
    ("1: 2 4 5\n2: 1 1 1\n", "E007", 1, 1),
    ("hello", "E002", 1, 1),
    ("  x 3/4", "E002", 1, 3),
    ("1: 2 4 5 x 9/9", "E005", 1, 12),
    ("99999999999999999999 1 1 x 1/1", "E005", 1, 1),
    ("1: 2 4 5 x 99999999999999999999/1", "E005", 1, 12),
    ("123456789012: 1 1 1 reroll", "E005", 1, 1),
    ("1: 7 4 5 reroll", "E005", 1, 4),
    ("1: 2 4 5 x 2/4 -> 6/6 (5) (6)", "E002", 1, 27),
    ("1: 2 4 5 x 2/4 -> 6/6 -> 5/5", "E002", 1, 23),
    ("1: 2 4 5 x 2/4 x 3/4", "E002", 1, 16),
    ("7 3 4 6 x 3/4", "E002", 1, 7),
    ("1: 2 4 5 reroll x 2/4", "E002", 1, 17),
    ("1: 2 4 5 ring x 2/4", "E002", 1, 15),
    ("1: 2 4 5 x 2 4", "E002", 1, 12),
    ("1: 2 4 5 x 2/4 -> nowhere", "E002", 1, 19),
    ("1: 2 4 5 x 2/4 banana", "E002", 1, 16),
    ("1: 2 4 5 x 2/4 -> 6/6 steps", "E002", 1, 23),
    ("1: 2 4 5 x 2/4 path", "E002", 1, 20),
    ("1: 2 4 5 x 2/4 (0)", "E005", 1, 17),
    ("1: 2 4 5 x 2/4 in 3/4", "E002", 1, 19),
    ("1: 2 4 5 x 2/4 in", "E002", 1, 18),
    ("1: 2 4 5 room", "E002", 1, 10),
    ("1: 2 4 5 x 2/4 -> 6/6 stuck", "E002", 1, 23),
    ("1: 2 4 5 -> 6/6", "E002", 1, 10),
    ("1: 2 4 5 x 2/4 " + "-> " * 200, "E002", 1, 309),  # more than 100 pieces
    ("1: 2 4 5 banana", "E002", 1, 10),
    ("1: 2 4", "E002", 1, 4),
    ("1:", "E002", 1, 3),
    ("0: 1 1 1 reroll", "E002", 1, 1),
    ("2: 1 1 1 reroll\n2: 1 1 1 reroll", "E002", 2, 1),
    ("foo: 1", "E003", 1, 1),
    ("rounds: 1", "E003", 1, 1),
    ("1: 2 4 5 x 2/4\nplayer: x", "E002", 2, 1),
    ("1: 2 4 5 x 2/4\nnote: x", "E003", 2, 1),
    ("player: a\nplayer: b", "E002", 2, 1),
    ("player:", "E004", 1, 8),
    ("player: # only a comment", "E004", 1, 9),
    ('player: "abc', "E002", 1, 9),
    ('player: "abc" def', "E002", 1, 15),
    ('player: "\\ud800"', "E005", 1, 9),
    ("claimed_score: 3x", "E005", 1, 16),
    ("claimed_score: 99999999999999999999999", "E005", 1, 16),
    ("coordinates: diagonal\n1: 2 4 5 x 2/4", "E005", 1, 14),
    ("dice_sha256: xyz", "E005", 1, 14),
    ("rings: 4\n1: 1 1 1 ring", "E005", 1, 8),
    (f"player: {'a' * 201}", "E005", 1, 9),
    ("\n\n1: 2 4 5 x 2/4 path 1/1 1/2 1/3 1/4 1/5 1/6 2/6", "E005", 3, 21),
]


@pytest.mark.parametrize(("text", "code", "line", "col"), BAD)
def test_bad_input(text: str, code: str, line: int, col: int) -> None:
    with pytest.raises(ReadError) as info:
        text_record.parse(text, "bad.txt")
    d = info.value.diagnostic
    assert (d.code, d.line, d.col, d.file) == (code, line, col, "bad.txt"), d.message
    assert d.message


def test_syntax_errors_say_what_was_expected() -> None:
    with pytest.raises(ReadError) as info:
        text_record.parse("1: 2 4 5 x 2/4 -> nowhere", "bad.txt")
    assert info.value.diagnostic.message == (
        "'nowhere' is not part of a round: after the dice come the field crossed out, the move "
        "(-> 5/5), the steps (6) and a path (path 6/5 5/5)"
    )


# --- properties ---------------------------------------------------------------------------


@given_tiered(plain=20, thorough=200, record=records())
def test_dump_then_parse_is_the_same_record(record: Record) -> None:
    assert_same(text_record.parse(text_record.dump(record), "again.txt"), record)


line_parts = st.sampled_from(
    [
        "1",
        "7",
        ":",
        ".",
        ")",
        " ",
        "3 4 6",
        "346",
        "x",
        "X",
        "cross",
        "3/4",
        "3,4",
        "->",
        ">",
        "5/5",
        "(6)",
        "steps",
        "path",
        "reroll",
        "ring",
        "escape",
        "none",
        "#",
        "player",
        "rings",
        "\t",
        ",",
        '"',
        "9" * 30,
        "é",
        "\r",
        "room",
        "Raum",
        "gestrichen",
        "nach",
        "→",
        "–>",  # noqa: RUF001
        "✓",
        "+30",
        "(",
        ")",
        "[5]",
        "in",
        "Schritte",
        "no move",
        "row 3 col",
        "-",
        "Total:",
        "//",
        # the typed forms (issue 34): roll words, ordinals, tables, words of the player's
        "Roll ",
        "Wurf",
        "1er lancer",
        "#3",
        "(1, 4, 6)",
        "Rolled",
        "|",
        "| Roll | Dice | Cross |",
        "|---|",
        ";",
        "Kreuz",
        "je barre",
        "j'avance",
        "bad luck",
        "Spielerin:",
        "335 Punkte",
    ]
)
hostile = st.one_of(
    st.text(max_size=200),
    st.lists(st.lists(line_parts, max_size=12).map("".join), max_size=6).map("\n".join),
)


@given_tiered(plain=30, thorough=300, text=hostile)
def test_hostile_input_gives_a_read_error_with_a_line(text: str) -> None:
    assert_located(text_record.parse, text, "h.txt")


def test_the_documented_example_reads() -> None:
    doc = (ROOT / "docs" / "record-formats.md").read_text()
    section = doc.split("## Annotated dice file", 1)[1]
    example = section.split("```text\n", 1)[1].split("```", 1)[0]
    record = text_record.parse(example, "record-formats.md")
    assert [r.roll for r in record.rounds] == [1, 2, 3, 5, 6]
    assert (record.rings, record.rounds[3].ring, record.rounds[4].exit) == (1, True, "escape")


def test_the_documented_spellings_read_as_the_first_round() -> None:
    doc = (ROOT / "docs" / "record-formats.md").read_text(encoding="utf-8")
    section = doc.split("## Annotated dice file", 1)[1]
    block = section.split("```text\n", 2)[2].split("```", 1)[0]
    for line in block.splitlines():
        got = one(line)
        if got["roll"] == 1:
            assert (got["cross"], got["move"], got["steps"]) == (Field(2, 1), Field(1, 1), 1)
        elif got["roll"] == 2:
            assert got == {"roll": 2, "dice": (1, 1, 1), "reroll": True}
        else:
            assert got == {"roll": 7, "dice": (5, 5, 1), "cross": Field(5, 5)}


@pytest.mark.parametrize(
    ("line", "col", "words", "hint"),
    [
        # an unknown word: did you mean, with the corrected line as the hint
        ("7: 3 4 6 x 3/4 moved ot 5/5", 22, ["'ot'", "'to'"], "7: 3 4 6 x 3/4 moved to 5/5"),
        ("7: 3 4 6 Raum 3/4 gestrichn", 19, ["'gestrichn'"], "7: 3 4 6 Raum 3/4 gestrichen"),
        # ... written as the player wrote it: capitalised stays capitalised
        ("7: 3 4 6 Raum 3/4 Gestrichn", 19, ["'Gestrichen'"], "7: 3 4 6 Raum 3/4 Gestrichen"),
        # an ambiguous number: both readings named
        ("7: 3 4 6 x 3 4", 12, ["field 3/4", "steps 3"], "write a field as 3/4, steps as (3)"),
        ("7: 3 4 6 x 3/4 -> 5/5 12", 23, ["field 1/2", "steps 12"], ""),
        # a misplaced field: a third one needs the path word
        ("7: 3 4 6 x 3/4 -> 5/5 (6) 6/5", 27, ["third field 6/5"], "path 6/5"),
    ],
)
def test_each_mistake_class_is_located_with_a_hint(
    line: str, col: int, words: list[str], hint: str
) -> None:
    with pytest.raises(ReadError) as info:
        text_record.parse(line, "bad.txt")
    d = info.value.diagnostic
    assert (d.code, d.line, d.col) == ("E002", 1, col), d.message
    assert all(w in d.message for w in words), d.message
    assert hint in d.hint


def test_a_hash_in_a_header_value_starts_a_comment_only_between_blanks() -> None:
    record = text_record.parse("player: Team #1 Tester # the comment\n", "t.txt")
    assert record.player == "Team #1 Tester"


def test_header_synonyms_and_a_total_line_after_the_rounds() -> None:
    text = "Joueur : Alice\n1: 1 4 6 x 1/4\nTotal: 335\n"
    record = text_record.parse(text, "t.txt")
    assert (record.player, record.claimed_score, len(record.rounds)) == ("Alice", 335, 1)
    assert record.where("claimed_score") == (3, 8)


def test_a_skipped_row_is_located_at_its_own_dice_line(tmp_path: Path) -> None:
    """E105 in a text record points at the unannotated line of the row it skips (the
    next round's line, where a YAML record must point, named the wrong roll to a player)."""
    from validator.check.file import Checker

    record = tmp_path / "r.txt"
    record.write_text("player: Bo\n1: 1 4 6   x 1/4 -> 1/1\n2: 5 5 3\n3: 2 2 2   x 2/2 -> 2/1\n")
    result = Checker.create(ROOT / "examples" / "challenge.txt", None).check(record)
    assert result.error is not None and result.error.code == "E105"
    assert (result.error.line, result.error.col, result.error.roll) == (3, 1, 2)
    parsed = text_record.parse(record.read_text(), "r.txt")
    assert parsed.row_line(2) == (3, 1) and parsed.row_line(1) is None


@pytest.mark.parametrize(
    ("line", "fixed"),
    [("Total: 350", "Total: 340"), ("Summe: 350", "Summe: 340"), ("Points : 350", "Points : 340")],
)
def test_a_wrong_total_gets_its_own_line_corrected(tmp_path: Path, line: str, fixed: str) -> None:
    """E107's help is the record's own claimed-score line with the replayed score (it
    said `claimed_score: 340` to a player who wrote `Summe: 350`)."""
    from validator.check.file import Checker

    alice = (ROOT / "examples" / "alice.txt").read_text(encoding="utf-8")
    record = tmp_path / "r.txt"
    record.write_text(
        "\n".join(x for x in alice.splitlines() if not x.startswith("claimed_score"))
        + f"\n{line}\n"
    )
    result = Checker.create(ROOT / "examples" / "challenge.txt", None).check(record)
    assert result.error is not None and result.error.code == "E107", result.error
    assert result.error.hint == fixed


# --- the annotated form's messages, in the player's words (issue 34, item 6) -----------------

STRICT_MESSAGES = [
    (
        "7: 3 4 6 x",
        ("t.txt:1:11: E002 'x' needs the field crossed out, like x 3/4; the line ends there"),
        ("t.txt:1:11: E002 nach 'x' fehlt das gestrichene Feld, wie x 3/4; die Zeile endet dort"),
        (
            "t.txt:1:11: E002 après 'x' manque la case barrée, comme x 3/4 ; la ligne "
            "s\u2019arrête là"
        ),
    ),
    (
        "7: 3 4",
        ("t.txt:1:4: E002 this line gives 3 4 where a roll has three dice, like 3 4 6 or 346"),
        (
            "t.txt:1:4: E002 diese Zeile nennt 3 4, ein Wurf hat aber drei Würfel, wie 3 4 6 "
            "oder 346"
        ),
        ("t.txt:1:4: E002 cette ligne donne 3 4, or un lancer a trois dés, comme 3 4 6 ou 346"),
    ),
    (
        "7: 3 4 6 x 3/4 -> foo",
        (
            "t.txt:1:19: E002 'foo' is not part of a round: after the dice come the field "
            "crossed out, the move (-> 5/5), the steps (6) and a path (path 6/5 5/5)"
        ),
        (
            "t.txt:1:19: E002 'foo' gehört nicht zu einer Runde: nach den Würfeln kommen das "
            "gestrichene Feld, der Zug (-> 5/5), die Schritte (6) und ein Weg (Weg 6/5 5/5)"
        ),
        (
            "t.txt:1:19: E002 'foo' ne fait pas partie d\u2019un tour : après les dés viennent la "
            "case barrée, le déplacement (-> 5/5), les pas (6) et un chemin (chemin 6/5 5/5)"
        ),
    ),
    (
        "7: 3 4 6 -> 5/5",
        (
            "t.txt:1:10: E002 '->' comes before the field crossed out: a round names the "
            "field crossed out first, like x 3/4"
        ),
        (
            "t.txt:1:10: E002 '->' steht vor dem gestrichenen Feld: eine Runde nennt zuerst "
            "das gestrichene Feld, wie x 3/4"
        ),
        (
            "t.txt:1:10: E002 '->' vient avant la case barrée : un tour nomme d\u2019abord la "
            "case barrée, comme x 3/4"
        ),
    ),
    (
        "3: 2 2 2 x 2/2 reroll",
        (
            "t.txt:1:16: E002 this round crosses out 2/2 and says 'reroll' too: a round "
            "either crosses out a field or is a reroll or a ring"
        ),
        (
            "t.txt:1:16: E002 diese Runde streicht 2/2 und sagt auch 'reroll': eine Runde "
            "streicht entweder ein Feld oder ist ein Neuwurf oder ein Ring"
        ),
        (
            "t.txt:1:16: E002 ce tour barre 2/2 et dit aussi 'reroll' : un tour barre une "
            "case, ou bien est une relance ou un anneau"
        ),
    ),
    (
        "1 2 4 5 x 2/4",
        (
            "t.txt:1:7: E002 after the three dice 1 2 4 comes the field crossed out (like x "
            "3/4), reroll or ring, not a fourth number '5'"
        ),
        (
            "t.txt:1:7: E002 nach den drei Würfeln 1 2 4 kommt das gestrichene Feld (wie x "
            "3/4), ein Neuwurf oder ein Ring, keine vierte Zahl '5'"
        ),
        (
            "t.txt:1:7: E002 après les trois dés 1 2 4 vient la case barrée (comme x 3/4), "
            "une relance ou un anneau, pas un quatrième nombre '5'"
        ),
    ),
    (
        "3: 2 2 2 reroll x 2/2",
        (
            "t.txt:1:17: E002 after 'reroll' the line goes on with 'x', but a reroll has "
            "nothing more"
        ),
        (
            "t.txt:1:17: E002 nach 'reroll' geht die Zeile mit 'x' weiter, aber ein Neuwurf "
            "hat nichts weiter"
        ),
        (
            "t.txt:1:17: E002 après 'reroll', la ligne continue avec 'x', mais une relance "
            "ne contient rien d\u2019autre"
        ),
    ),
    (
        "7: 3 4 6 x 3/4 @",
        "t.txt:1:16: E002 '@' cannot be part of a round",
        "t.txt:1:16: E002 '@' kann nicht Teil einer Runde sein",
        "t.txt:1:16: E002 '@' ne peut pas faire partie d\u2019un tour",
    ),
    (
        "Hello 5",
        (
            "t.txt:1:1: E002 this line is neither a round (a roll with its three dice) nor a "
            "header line (key: value); it begins with 'Hello'"
        ),
        (
            "t.txt:1:1: E002 diese Zeile ist weder eine Runde (ein Wurf mit seinen drei "
            "Würfeln) noch eine Kopfzeile (Schlüssel: Wert); sie beginnt mit 'Hello'"
        ),
        (
            "t.txt:1:1: E002 cette ligne n\u2019est ni un tour (un lancer et ses trois dés) ni "
            "une ligne d\u2019en-tête (clé : valeur) ; elle commence par 'Hello'"
        ),
    ),
    (
        "7:",
        ("t.txt:1:3: E002 the three dice are missing, like 3 4 6 or 346: the line ends here"),
        "t.txt:1:3: E002 die drei Würfel fehlen, wie 3 4 6 oder 346: die Zeile endet hier",
        ("t.txt:1:3: E002 les trois dés manquent, comme 3 4 6 ou 346 : la ligne s\u2019arrête ici"),
    ),
]


@pytest.mark.parametrize(("line", "en", "de", "fr"), STRICT_MESSAGES)
def test_a_line_that_cannot_be_read_is_said_in_the_players_words(
    line: str, en: str, de: str, fr: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What was read and what a round holds there, never `expected ..., found ...`; the
    code, line and column as before."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.txt").write_text(line + "\n", encoding="utf-8")
    for lang, said in (("en", en), ("de", de), ("fr", fr)):
        out = CliRunner().invoke(main, ["validate", "t.txt", "--dice", str(DICE), "--lang", lang])
        assert said in out.output.splitlines(), out.output
        assert "expected" not in said
