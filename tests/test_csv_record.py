"""The CSV record: examples, round trips and bad inputs with their places."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st
from record_helpers import assert_located, assert_same, records, summary
from tiers import given_tiered

from validator.engine import Field
from validator.errors import ReadError
from validator.records import csv_record, text_record, yaml_record
from validator.records.model import build_record
from validator.records.record import Record

ROOT = Path(__file__).resolve().parent.parent


EXAMPLE = """\
# player: Alice Example
# claimed_score: 315
## note: a comment, because it starts with ##
# a comment too: more than one word before the colon
roll,dice,cross,move,steps,reroll,path,ring
1,2 4 5,2/4,6/6,5,,,
2,1 1 1,,,,yes,,
,,,,,,,
3,"3,4,6",3/4,5/5,6,,6/5 5/5,
5,6 6 6,,,,,,true
6,124,1/2,escape,,no,none,
7,1 3 5,3/5,,,,,
"""


def test_example_parses_to_rounds() -> None:
    record = csv_record.parse(EXAMPLE, "alice.csv")
    assert record.format == "csv"
    assert (record.player, record.claimed_score) == ("Alice Example", 315)
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
        {"roll": 6, "dice": (1, 2, 4), "cross": Field(1, 2), "exit": "escape", "path": ()},
        {"roll": 7, "dice": (1, 3, 5), "cross": Field(3, 5)},
    ]


def test_locations_point_at_cells() -> None:
    record = csv_record.parse(EXAMPLE, "alice.csv")
    third = record.rounds[2]
    assert (third.line, third.col) == (9, 1)
    assert third.where("dice") == (9, 4)
    assert third.where("cross") == (9, 11)
    assert third.where("path") == (9, 22)
    assert record.where("player") == (1, 11)


def test_columns_in_any_order_and_case_with_other_delimiters() -> None:
    text = "Cross ; ROLL ; move\n2/4 ; 3 ; 6/6\n"
    assert [summary(r) for r in csv_record.parse(text, "t.csv").rounds] == [
        {"roll": 3, "cross": Field(2, 4), "move": Field(6, 6)}
    ]
    tabbed = "cross\tmove\n2,4\tLeave\r\n"
    assert [summary(r) for r in csv_record.parse(tabbed, "t.csv").rounds] == [
        {"cross": Field(2, 4), "exit": "leave"}
    ]


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("2 4 5", (2, 4, 5)),
        ("245", (2, 4, 5)),
        ('"2,4,5"', (2, 4, 5)),
        ('"[2, 4, 5]"', (2, 4, 5)),
        ("2;4;5", (2, 4, 5)),
    ],
)
def test_dice_cells(cell: str, expected: tuple[int, int, int]) -> None:
    record = csv_record.parse(f"dice,reroll\n{cell},yes\n", "t.csv")
    assert record.rounds[0].dice == expected


@pytest.mark.parametrize("cell", ["true", "YES", "y", "1", "x"])
def test_reroll_cells(cell: str) -> None:
    assert csv_record.parse(f"reroll\n{cell}\n", "t.csv").rounds[0].reroll


def test_quoted_cells_and_quoted_header_values() -> None:
    text = '# player: "Eve, \\"the\\" #1"\n"roll","cross"\n 1 , " 2/4 "\n'
    record = csv_record.parse(text, "t.csv")
    assert record.player == 'Eve, "the" #1'
    assert record.rounds[0].cross == Field(2, 4)


def test_round_trip_of_the_example() -> None:
    record = csv_record.parse(EXAMPLE, "alice.csv")
    assert_same(csv_record.parse(csv_record.dump(record), "again.csv"), record)


def test_round_trip_of_the_yaml_example_through_text_and_csv() -> None:
    record = yaml_record.parse((ROOT / "examples" / "alice.yaml").read_text(), "alice.yaml")
    via_csv = csv_record.parse(csv_record.dump(record), "alice.csv")
    assert_same(via_csv, record)
    assert_same(text_record.parse(text_record.dump(via_csv), "alice.txt"), record)


def test_dump_writes_rounds_without_roll_or_dice() -> None:
    record = build_record({"rounds": [{"cross": "2/4", "move": "6/6"}]}, {}, "r", "yaml")
    text = csv_record.dump(record)
    assert text.splitlines()[-2:] == ["roll,dice,cross,move,steps,reroll", ",,2/4,6/6,,"]
    assert_same(csv_record.parse(text, "again.csv"), record)


BAD = [
    ("", "E007", 1, 1),
    ("# a comment\n", "E007", 1, 1),
    ("roll,cross\n", "E007", 1, 1),
    ("roll,cross\n,\n", "E007", 1, 1),
    ("# player: x\n", "E004", 1, 1),
    ("roll,dice,foo", "E003", 1, 11),
    ("1,2 4 5,2/4,6/6", "E003", 1, 1),
    ("\x01\x02garbage\x7f,\x03", "E003", 1, 1),
    ("roll,roll", "E002", 1, 6),
    ("roll,,cross", "E002", 1, 6),
    ("# note: x\nroll", "E003", 1, 3),
    ("# rings: many\nroll", "E005", 1, 10),
    ("# player: a\n# player: b\nroll", "E002", 2, 3),
    ("roll,cross\n1,2/4\n# player: x", "E002", 3, 3),
    ("roll,dice\n1,2 4 5,3", "E002", 2, 9),
    ("roll,dice\n1", "E002", 2, 2),
    ('roll,cross\n1,"2/4', "E002", 2, 3),
    ('roll,cross\n1,"2/4" x', "E002", 2, 9),
    ("roll,cross\nx,2/4", "E002", 2, 1),
    ("roll,cross\n99999999999999999999,2/4", "E005", 2, 1),
    ("roll,dice,cross\n1,99999999999999999999 1 1,2/4", "E005", 2, 3),
    ("roll,dice,cross\n1,1 1,2/4", "E002", 2, 3),
    ("roll,cross\n1,9/9", "E005", 2, 3),
    ("cross;move\n2/4;6/7", "E005", 2, 5),
    ("roll,cross,move\n1,2/4,6/6 x", "E002", 2, 7),
    ("roll,path,cross\n1,6/5 5/5 x,1/1", "E002", 2, 11),
    ("roll,reroll\n1,maybe", "E002", 2, 3),
    ("roll,steps,cross\n1,9,2/4", "E005", 2, 3),
    ("roll,cross,reroll\n1,2/4,yes", "E005", 2, 1),
    ("roll,dice\n1,2 4 5", "E005", 2, 1),
    ("roll,dice,reroll\n1,7 4 5,yes", "E005", 2, 3),
    ("roll,cross\n2000000,2/4", "E005", 2, 1),
]


@pytest.mark.parametrize(("text", "code", "line", "col"), BAD)
def test_bad_input(text: str, code: str, line: int, col: int) -> None:
    with pytest.raises(ReadError) as info:
        csv_record.parse(text, "bad.csv")
    d = info.value.diagnostic
    assert (d.code, d.line, d.col, d.file) == (code, line, col, "bad.csv"), d.message
    assert d.message


def test_broken_cells_name_their_column() -> None:
    with pytest.raises(ReadError) as info:
        csv_record.parse("roll,reroll\n1,maybe", "bad.csv")
    assert info.value.diagnostic.message == (
        "'maybe' in column 'reroll' (cell 2) does not read as yes, true, 1 or an empty cell"
    )


@pytest.mark.parametrize("cell", ['"abc""', '"""', '"a""b', '"a""""', '"x"" ,y'])
def test_the_second_quote_of_a_pair_never_closes_the_cell(cell: str) -> None:
    # `""` in a quoted cell is a quote: the reader never gives its second quote back to
    # close the cell (which would then be followed by a stray quote).
    with pytest.raises(ReadError) as info:
        csv_record.parse(f"roll,dice\n1,{cell}\n", "bad.csv")
    d = info.value.diagnostic
    assert (d.code, d.line, d.col, d.message) == ("E002", 2, 3, "a quoted cell is not closed")


@pytest.mark.parametrize(("cell", "read"), [('"a"""', 'a"'), ('""""', '"'), ('"a""b"', 'a"b')])
def test_a_pair_before_the_closing_quote_is_a_quote_in_the_cell(cell: str, read: str) -> None:
    with pytest.raises(ReadError) as info:
        csv_record.parse(f"roll,dice\n1,{cell}\n", "bad.csv")
    d = info.value.diagnostic
    assert (d.line, d.col) == (2, 4)
    assert d.message.startswith(f"{read!r} in column 'dice' (cell 2) does not read as")


@given_tiered(plain=20, thorough=200, record=records())
def test_dump_then_parse_is_the_same_record(record: Record) -> None:
    assert_same(csv_record.parse(csv_record.dump(record), "again.csv"), record)


cell_parts = st.sampled_from(
    [
        "roll",
        "dice",
        "cross",
        "move",
        "steps",
        "reroll",
        "path",
        "ring",
        ",",
        ";",
        "\t",
        '"',
        "1",
        "2 4 5",
        "2/4",
        "escape",
        "yes",
        "#",
        "# player: x",
        "9" * 30,
        " ",
        "\r",
        "é",
    ]
)
hostile = st.one_of(
    st.text(max_size=200),
    st.lists(st.lists(cell_parts, max_size=12).map("".join), max_size=6).map("\n".join),
)


@given_tiered(plain=30, thorough=300, text=hostile)
def test_hostile_input_gives_a_read_error_with_a_line(text: str) -> None:
    assert_located(csv_record.parse, text, "h.csv")


def test_the_documented_example_reads() -> None:
    doc = (ROOT / "docs" / "record-formats.md").read_text()
    example = doc.split("```csv\n", 1)[1].split("```", 1)[0]
    record = csv_record.parse(example, "record-formats.md")
    assert [r.roll for r in record.rounds] == [1, 2, 3, 5, 6]
    assert (record.rings, record.rounds[3].ring, record.rounds[4].exit) == (1, True, "escape")
    lines = example.splitlines()
    comment = next(n for n, line in enumerate(lines) if line.startswith("##"))
    assert csv_record.dump(record).splitlines()[1:] == lines[:comment] + lines[comment + 1 :]


def test_a_name_and_a_total_in_two_cells_above_the_column_row_are_header_lines() -> None:
    """A spreadsheet keeps the player's name (any language's word) above its table."""
    text = "Joueuse ; Léa ;;\nTotal;50\nLancer;Dés;Barré;Arrivée;Cases\n1;1 4 6;1/4;1/1;6\n"
    record = csv_record.parse(text, "lea.csv")
    assert record.player == "Léa" and record.claimed_score == 50
    assert record.where("claimed_score") == (2, 7)
    assert [r.cross for r in record.rounds] == [Field(1, 4)]
    # Below the column row it is a row like any other, and a key given twice is named.
    with pytest.raises(ReadError) as below:
        csv_record.parse(text + "Joueuse;Léa\n", "lea.csv")
    assert below.value.diagnostics[0].line == 5
    with pytest.raises(ReadError) as twice:
        csv_record.parse("Spieler;Klara\nSpieler;Klara\n", "k.csv")
    assert "player is given twice (first on line 1)" in twice.value.diagnostics[0].message
