"""The readers' shared surface: the format registries, recognising content, inputs and
encodings, every reading error at once with hints in the record's own syntax, and limits."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from validator.errors import ReadError
from validator.records import (
    FORMAT_NAMES,
    MAX_BYTES,
    RECORD_FORMATS,
    dump_record,
    format_of,
    parse_record,
    read_record,
    sniff_format,
)
from validator.records.dice import read_dice
from validator.records.registry import DICE_FORMAT_LIST, RECORD_FORMAT_LIST

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {fmt: ROOT / "examples" / f"alice.{ext}" for fmt, ext in
            (("yaml", "yaml"), ("json", "json"), ("text", "txt"), ("csv", "csv"))}  # fmt: skip


def _errors(
    text: str | bytes, fmt: str | None, max_bytes: int = MAX_BYTES, max_rounds: int | None = None
) -> list[tuple[str, int, int]]:
    with pytest.raises(ReadError) as info:
        parse_record(text, fmt, source="r", max_bytes=max_bytes, max_rounds=max_rounds)
    return [(d.code, d.line or 0, d.col or 0) for d in info.value.diagnostics]


# --- registries ---------------------------------------------------------------------------


def test_the_tables_come_from_the_registry() -> None:
    assert tuple(f.name for f in RECORD_FORMAT_LIST) == FORMAT_NAMES
    assert {e: f.name for f in RECORD_FORMAT_LIST for e in f.extensions} == RECORD_FORMATS
    assert format_of(Path("a/B.YML")) == "yaml" and format_of("x.csv") == "csv"
    assert format_of("me.toml") is None and format_of("README") is None
    assert {f.name for f in DICE_FORMAT_LIST} == {"text", "csv", "yaml", "json"}


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_every_format_reads_its_example_and_writes_it_back(fmt: str) -> None:
    record = read_record(EXAMPLES[fmt])
    assert record.format == fmt and record.rounds
    again = parse_record(dump_record(record, fmt), fmt, source="again")
    assert [r.cross for r in again.rounds] == [r.cross for r in record.rounds]


def test_dice_files_in_every_format_read_the_same(tmp_path: Path) -> None:
    files = {
        "d.txt": "1: 1 4 6\n2: 5 5 3\n",
        "d": "146\n553\n",
        "d.csv": "roll,d1,d2,d3\n1,1,4,6\n2,5,5,3\n",
        "d.yaml": "- [1, 4, 6]\n- [5, 5, 3]\n",
        "d.json": "[[1, 4, 6], [5, 5, 3]]",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        dice = read_dice(tmp_path / name)
        assert dice.rows == ((1, 4, 6), (5, 5, 3)), name
        assert len(dice.sha256) == 64


# --- recognising content -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_content_tells_the_format(fmt: str, tmp_path: Path) -> None:
    data = EXAMPLES[fmt].read_bytes()
    assert sniff_format(data) == fmt
    (tmp_path / "record.log").write_bytes(data)
    assert read_record(tmp_path / "record.log").format == fmt


@pytest.mark.parametrize(
    "data",
    [b"title = 'a toml file'\n", b"just words\n", b"\x00\x01\x02", b"player: x\n", b"[1, 2]"],
)
def test_content_that_fits_no_format_is_not_guessed(data: bytes, tmp_path: Path) -> None:
    assert sniff_format(data) is None
    (tmp_path / "me.toml").write_bytes(data)
    with pytest.raises(ReadError) as info:
        read_record(tmp_path / "me.toml")
    d = info.value.diagnostic
    assert (d.code, d.line) in (("E002", 1), ("E001", 1))
    if d.code == "E002":
        assert ".yaml" in d.message and ".csv" in d.message and ".txt" in d.message


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    data = EXAMPLES["text"].read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    record = read_record("-")
    assert (record.source, record.format) == ("<stdin>", "text")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"rounds: [")))
    with pytest.raises(ReadError) as info:
        read_record("-", source="mine.yaml", fmt="yaml")
    assert info.value.diagnostic.file == "mine.yaml"


def test_parse_record_takes_text_or_bytes() -> None:
    text = EXAMPLES["yaml"].read_text(encoding="utf-8")
    assert parse_record(text, "yaml", source="a") == parse_record(text.encode(), "yaml", source="a")


# --- encodings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "named"),
    [("utf-16", "UTF-16"), ("utf-32", "UTF-32"), ("cp1252", "cp1252"), ("utf-8-sig", None)],
)
def test_encodings_are_read_with_a_warning(encoding: str, named: str | None) -> None:
    record = parse_record(
        "player: Jörg “J” Müller\nrounds: []\n".encode(encoding), "yaml", source="r"
    )
    assert record.player == "Jörg “J” Müller"
    if named is None:
        assert record.warnings == ()
    else:
        (warning,) = record.warnings
        assert warning.code == "W003" and named in warning.message


def test_bytes_that_are_no_text_are_refused_without_echoing_them() -> None:
    with pytest.raises(ReadError) as info:
        parse_record(b"player: \x81\x1b[2J\nrounds: []\n", "yaml", source="r")
    d = info.value.diagnostic
    assert d.code == "E001" and "0x81" in d.message and "\x1b" not in d.message


# --- every error at once, with hints in the record's syntax -----------------------------------


def test_every_text_error_at_once_in_source_order() -> None:
    text = (
        "playr: Alice\n"
        "1: 1 4 6   x 1/4 -> 1/1\n"
        "2: 5 5 3   x 3/5 moev 4/1\n"
        "3: 2 2 2   x 2/2 -> 6/9\n"
        "4: 5 1 1   rerol\n"
    )
    assert _errors(text, "text") == [("E003", 1, 1), ("E002", 3, 18), ("E005", 4, 21),
                                     ("E002", 5, 12)]  # fmt: skip
    with pytest.raises(ReadError) as info:
        parse_record(text, "text", source="r")
    # rounds are counted as the file has them, the unreadable one on line 3 included
    assert [d.round for d in info.value.diagnostics] == [None, None, 3, None]
    hints = [d.hint for d in info.value.diagnostics]
    assert hints[0].startswith("player: Alice")
    assert hints[1] == "2: 5 5 3   x 3/5 move 4/1"
    assert hints[3] == "4: 5 1 1   reroll"
    assert all(d.excerpt == text.splitlines()[d.line - 1] for d in info.value.diagnostics if d.line)


def test_every_yaml_and_json_error_at_once() -> None:
    yaml_text = "rounds:\n  - {cross: 9/9}\n  - {cross: 1/1, steps: 7}\n  - {crss: 1/1}\n"
    assert _errors(yaml_text, "yaml") == [("E005", 2, 6), ("E005", 3, 18), ("E003", 4, 6)]
    data = {"rounds": [{"cross": "9/9"}, {"cross": "1/1", "mvoe": "1/2"}]}
    found = _errors(json.dumps(data, indent=1), "json")
    assert [c for c, _, _ in found] == ["E005", "E003"]


def test_unknown_keys_get_a_hint_in_the_records_own_syntax() -> None:
    def hint(text: str, fmt: str) -> str:
        with pytest.raises(ReadError) as info:
            parse_record(text, fmt, source="r")
        return info.value.diagnostic.hint

    assert hint("round: []\n", "yaml").startswith("write rounds:")
    assert hint('{"round": []}', "json").startswith('write "rounds":')
    assert hint("roll,crss\n1,1/1\n", "csv").startswith("write cross")
    # In the record's own words and case: a German key stays German.
    assert hint("Playr: Bob\n", "text").startswith("Player: Bob")
    assert hint("Speiler: Bob\n", "text").startswith("Spieler: Bob")
    assert hint("joeur: Bob\n", "text").startswith("joueur: Bob")


def test_at_most_fifty_errors_then_how_many_more() -> None:
    text = "".join(f"{n}: 1 1 1 banana\n" for n in range(1, 61))
    with pytest.raises(ReadError) as info:
        parse_record(text, "text", source="r")
    assert len(info.value.diagnostics) == 50 and info.value.omitted >= 1
    assert [d.line for d in info.value.diagnostics] == list(range(1, 51))


# --- CSV as spreadsheets write it ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "roll,dice,cross,move\n1,1 4 6,1/4,1/1\n",
        "sep=;\nroll;dice;cross;move\n1;1 4 6;1/4;1,1\n",
        '"sep=,"\nroll,dice,cross,move\n1,1 4 6,1/4,1/1\n',
        "roll\tdice\tcross\tmove\n1\t1 4 6\t1/4\t1/1\n",
        "roll;dice;cross;move;;;\r1;1 4 6;1/4;1/1;;;\r;;;;;;\r",
        "roll,dice,cross,move,,\r\n1,1 4 6,1/4,1/1,,\r\n",
        "Roll,Dice,Cross,Move\n1,146,14,11\n",
    ],
)
def test_csv_as_spreadsheets_write_it(text: str) -> None:
    (r,) = parse_record(text, "csv", source="r.csv").rounds
    assert (r.roll, r.dice, str(r.cross), str(r.move)) == (1, (1, 4, 6), "1/4", "1/1")


def test_csv_field_split_by_the_delimiter_gets_a_hint() -> None:
    with pytest.raises(ReadError) as info:
        parse_record("roll,cross,move\n1,1,4,1/1\n", "csv", source="r.csv")
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E002", 2) and "1/4" in d.hint


# --- limits --------------------------------------------------------------------------------


def test_a_record_over_the_size_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text("rounds: []\n" + "#" * 2000)
    with pytest.raises(ReadError) as info:
        read_record(tmp_path / "big.yaml", max_bytes=1000)
    assert (info.value.diagnostic.code, info.value.diagnostic.line) == ("E001", 1)
    with pytest.raises(ReadError) as info:
        parse_record(b"rounds: []\n" + b"#" * 2000, "yaml", source="r", max_bytes=1000)
    assert (info.value.diagnostic.code, info.value.diagnostic.line) == ("E001", 1)
    assert read_record(tmp_path / "big.yaml", max_bytes=3000).rounds == ()


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_reading_stops_after_max_rounds(fmt: str) -> None:
    record = read_record(EXAMPLES[fmt])
    text = EXAMPLES[fmt].read_text(encoding="utf-8")
    assert len(record.rounds) > 3
    assert len(parse_record(text, fmt, source="r", max_rounds=3).rounds) == 3
    assert parse_record(text, fmt, source="r", max_rounds=3).rounds == record.rounds[:3]


def test_lines_after_max_rounds_are_not_read() -> None:
    text = "1: 1 4 6 x 1/4\n2: 5 5 3 x 3/5\n3: garbage that is never read\n"
    assert len(parse_record(text, "text", source="r", max_rounds=2).rounds) == 2
    csv = "cross\n1/4\n3/5\nzz\n"
    assert len(parse_record(csv, "csv", source="r", max_rounds=2).rounds) == 2


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_max_rounds_zero_reads_the_header_only(fmt: str) -> None:
    # How a checker finds the dice file a record names before reading its rounds.
    full = read_record(EXAMPLES[fmt])
    head = read_record(EXAMPLES[fmt], max_rounds=0)
    assert head.rounds == ()
    assert (head.player, head.dice_file) == (full.player, full.dice_file) != (None, None)


def test_a_record_without_rounds_round_trips_in_every_format() -> None:
    from validator.records import FORMAT_NAMES, dump_record, parse_record
    from validator.records.record import Record

    for fmt in FORMAT_NAMES:
        text = dump_record(Record(rounds=(), player="x"), fmt)
        assert parse_record(text, fmt, source=f"r.{fmt}").rounds == (), fmt


def test_value_errors_are_in_the_projects_words() -> None:
    from validator.errors import ReadError
    from validator.records import parse_record

    text = "dice_sha256: 12ab\nclaimed_score: -1\nrounds:\n  - {roll: 0, cross: 1/4, move: 1/1}\n"
    try:
        parse_record(text, "yaml", source="r.yaml")
    except ReadError as exc:
        messages = [d.message for d in exc.diagnostics]
    else:
        raise AssertionError("the record should not read")
    assert "dice_sha256: must be the dice file's SHA-256: 64 hexadecimal digits" in messages[0]
    assert any("claimed_score: must be at least 0" in m for m in messages)
    assert any("roll: must be at least 1" in m for m in messages)
    assert not any("Input should" in m or "String should" in m for m in messages)


def test_a_raw_control_character_in_yaml_is_located() -> None:
    from validator.errors import ReadError
    from validator.records import parse_record

    text = 'player: Bob\nrounds:\n  - {cross: 1/4, move: "\x1b]0;x\x07"}\n'
    try:
        parse_record(text, "yaml", source="r.yaml")
    except ReadError as exc:
        d = exc.diagnostic
    else:
        raise AssertionError("the record should not read")
    assert (d.code, d.line, d.col) == ("E002", 3, text.splitlines()[2].index("\x1b") + 1)
    assert "\\x1b" in d.message and "\x1b" not in d.message


def test_a_raw_control_character_in_json_is_a_whole_sentence() -> None:
    from validator.errors import ReadError
    from validator.records import parse_record

    try:
        parse_record('{"player": "Bob\x1b", "rounds": []}', "json", source="r.json")
    except ReadError as exc:
        d = exc.diagnostic
    else:
        raise AssertionError("the record should not read")
    assert d.code == "E002" and (d.line, d.col) == (1, 16)
    assert d.message.endswith(
        "the control character \\x1b must be written as an escape inside a string"
    )


@pytest.mark.parametrize(
    ("text", "opened", "at"),
    [
        ("rounds:\n  - {roll: 1, cross: 1/6, move: 5/1\n", "{", (2, 5)),
        ("rounds:\n  - [1, 2\n", "[", (2, 5)),
        ('player: "Bob\nrounds: []\n', "quote", (1, 9)),
    ],
)
def test_a_bracket_or_quote_never_closed_points_where_it_opened(
    text: str, opened: str, at: tuple[int, int]
) -> None:
    """libyaml finds these at the end of the file, a line past the last; the place to
    look is where the bracket or quote was opened."""
    with pytest.raises(ReadError) as info:
        parse_record(text, "yaml", source="r")
    d = info.value.diagnostic
    assert (d.code, (d.line, d.col)) == ("E002", at)
    assert f"the {opened} opened here is never closed" in d.message
    assert d.excerpt == text.splitlines()[at[0] - 1]


def test_a_wrong_total_on_a_long_line_gets_the_short_help(tmp_path: Path) -> None:
    """E107's help quotes the record's own line only when it is short: a minified JSON
    record is one line, the whole record."""
    from validator.check.file import Checker

    alice = json.loads((ROOT / "examples" / "alice.json").read_text())
    alice["claimed_score"] = 350
    record = tmp_path / "r.json"
    record.write_text(json.dumps(alice, separators=(",", ":")))
    result = Checker.create(ROOT / "examples" / "challenge.txt", None).check(record)
    assert result.error is not None and result.error.code == "E107"
    assert result.error.hint == "claimed_score: 340"
