"""`road300 report`: golden files, structure of the HTML, escaping, and the annotations.

Refresh the golden files after an intended change with `REFRESH_GOLDEN=1 pytest
tests/test_report.py` and review the diff (tests/golden/README.md).
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from tiers import covering, sweep

from validator.check.explain import BoardMark
from validator.check.file import Checker
from validator.check.replay import Verdict, replay
from validator.cli import main
from validator.engine import STANDARD, Field, State, available_crosses, candidates
from validator.records import dump_record
from validator.records.dice import read_dice
from validator.render import svg
from validator.render.html import render_html
from validator.render.markdown import md_escape, render_markdown
from validator.report.model import Report, build_report, dice_roles
from validator.rulesets import resolve
from validator.solver.playout import random_game, to_record

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
CHALLENGE = ROOT / "examples" / "challenge.txt"
REFRESH = os.environ.get("REFRESH_GOLDEN") == "1"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})
    return result.exit_code, result.output


# --- golden files --------------------------------------------------------------------

GOLDEN_CASES = [
    ("short.yaml", "html", "short.html", 0),
    ("short.yaml", "md", "short.md", 0),
    ("short.yaml", "text", "short.txt", 0),
    ("short-invalid.yaml", "html", "short-invalid.html", 1),
    ("short-invalid.yaml", "md", "short-invalid.md", 1),
    ("short-invalid.yaml", "text", "short-invalid.txt", 1),
]
# Each expansion: a random legal game on the challenge dice (tests/golden/README.md).
for _name in ("in-and-out", "escape", "rings"):
    for _fmt, _ext in (("html", "html"), ("md", "md"), ("text", "txt")):
        GOLDEN_CASES.append((f"{_name}.yaml", _fmt, f"{_name}.{_ext}", 0))
# Each error code with an example: the text and Markdown reports whole, and of the HTML
# the illegal step's section (the rest of the page is the valid game's, golden above).
EXAMPLES_INVALID = sorted((ROOT / "examples" / "invalid").glob("*.yaml"))
CODE_FORMATS = {"html": "html", "md": "md", "text": "txt"}


def _compare_golden(out: str, golden: str) -> None:
    expected = GOLDEN / golden
    if REFRESH or not expected.exists():
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(out, encoding="utf-8")
        if not REFRESH:
            pytest.fail(f"{golden} did not exist and was written; review and commit it")
    assert out == expected.read_text(encoding="utf-8"), (
        f"{golden} differs; if the change is intended, run REFRESH_GOLDEN=1 pytest {__file__}"
    )


@pytest.mark.parametrize(("record", "fmt", "golden", "status"), GOLDEN_CASES)
def test_golden(
    record: str, fmt: str, golden: str, status: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(GOLDEN)
    code, out = run("report", record, "--format", fmt)
    assert code == status, out
    _compare_golden(out, golden)


@pytest.mark.parametrize(
    ("path", "fmt"),
    covering(
        [(p,) for p in EXAMPLES_INVALID],
        CODE_FORMATS,
        ids=lambda case, fmt: f"codes/{case[0].stem}.{CODE_FORMATS[fmt]}",
    ),
)
def test_golden_error_codes(path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    golden = f"codes/{path.stem}.{CODE_FORMATS[fmt]}"
    monkeypatch.chdir(ROOT)
    code, out = run("report", str(path.relative_to(ROOT)), "--format", fmt)
    assert code == 1, out
    if fmt == "html":
        start = out.find('<section class="card illegal"')
        assert start >= 0, "no illegal step or error section"
        out = out[start : out.index("</section>", start) + len("</section>")] + "\n"
    _compare_golden(out, golden)


# --- records the golden files never saw ----------------------------------------------


def _rows() -> tuple[tuple[int, int, int], ...]:
    return read_dice(CHALLENGE).rows


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def _random_record(seed: int, player: str = "") -> str:
    steps = random_game(_rows(), STANDARD, random.Random(seed))
    record = dataclasses.replace(to_record(steps, player=player), dice_file=str(CHALLENGE))
    return dump_record(record, "yaml")


def _invalid_records() -> list[tuple[str, str, str]]:
    """(name, record text, expected code): a random legal game broken at various steps."""
    base = _random_record(7)
    lines = base.splitlines()
    rounds = [i for i, line in enumerate(lines) if line.startswith("  - ")]
    plays = [i for i in rounds if "cross:" in lines[i]]
    out: list[tuple[str, str, str]] = []

    def edit(index: int, new: str) -> str:
        copy = list(lines)
        copy[index] = new
        return "\n".join(copy) + "\n"

    # Crossing out the field of round 1 again in round 3: not a pair of its dice.
    first = re.search(r"cross: \[(\d), (\d)\]", lines[plays[0]])
    assert first is not None
    out.append(
        (
            "cross-not-dice",
            edit(plays[2], f"  - {{cross: [{first[1]}, {first[2]}], move: [3, 3]}}"),
            "E202",
        )
    )
    # Crossing out a pair of the dice that already has a mark (asked of the engine).
    taken = _taken_cross(_random_record(7))
    if taken is not None:
        index, field = taken
        out.append(
            (
                "cross-taken",
                edit(rounds[index], f"  - {{cross: [{field.row}, {field.col}]}}"),
                "E203",
            )
        )
    # A move to a field no walk reaches: the start field (it has a circle).
    second = plays[1]
    moved = re.search(r"move: \[(\d), (\d)\]", lines[plays[0]])
    assert moved is not None
    cross2 = re.search(r"cross: \[(\d), (\d)\]", lines[second])
    assert cross2 is not None
    out.append(
        (
            "move-unreachable",
            edit(
                second,
                f"  - {{cross: [{cross2[1]}, {cross2[2]}], move: [{moved[1]}, {moved[2]}]}}",
            ),
            "E205",
        )
    )
    # A path that jumps.
    out.append(
        (
            "path-jumps",
            edit(
                plays[3],
                re.sub(r"path: \[.*\]\}", "path: [[1, 1], [6, 6]]}", lines[plays[3]]),
            ),
            "E206",
        )
    )
    # A round after the end of the game.
    out.append(("after-end", base + "  - {cross: [1, 2], move: [1, 1]}\n", "E106"))
    # A wrong claimed score (a whole-record error).
    out.append(("claimed", base.replace("rounds:", "claimed_score: 999\nrounds:", 1), "E107"))
    # Skipping a row that is not a forced reroll.
    out.append(
        ("skipped", edit(plays[1], re.sub(r"roll: \d+", "roll: 40", lines[plays[1]])), "E105")
    )
    return out


def _taken_cross(text: str) -> tuple[int, Field] | None:
    """The first round (index into the record's rounds) whose dice name a taken field."""
    steps = random_game(_rows(), STANDARD, random.Random(7))
    state = State()
    for n, step in enumerate(steps):
        taken = [c for c in candidates(step.dice) if state.taken >> c.field.index & 1]
        if taken and available_crosses(state, step.dice):
            return n, taken[0].field
        state = step.state
    return None


INVALID = _invalid_records()


def _check(path: Path) -> Report:
    result = Checker.create(CHALLENGE, None).check(path)
    return build_report(result, dice_name="challenge.txt")


_ARTICLE = re.compile(r'<article class="card round ([^"]*)"[^>]*>(.*?)</article>', re.S)


def _structure(html: str, report: Report) -> None:
    """Checks every HTML report must pass."""
    # One board per round that crossed a field out; none for rerolls.
    # Rounds without a board (forced rerolls, rings) are one line each, not a card.
    articles = _ARTICLE.findall(html)
    boards = [
        body.count('class="board"') for classes, body in articles if "illegal-round" not in classes
    ]
    assert len(boards) == len(report.played)
    assert all(count == 1 for count in boards)
    assert html.count('class="card round minor') == len(report.rounds) - len(report.played)
    # Self-contained: no script, no outside resource, nothing a browser would fetch.
    assert "<script" not in html.lower()
    assert "<link" not in html.lower()
    assert "url(" not in html and "@import" not in html
    for attr in re.findall(r"""\b(?:src|href|xlink:href)\s*=\s*["']?([^"'\s>]*)""", html):
        assert attr.startswith("#"), attr
    assert not re.search(r"""(?:src|href)\s*=\s*["']?https?://""", html)
    # Every picture is well-formed XML.
    for picture in re.findall(r"<svg.*?</svg>", html, re.S):
        ET.fromstring(picture)


@pytest.mark.parametrize("seed", sweep([1, 2, 3, 11], plain=2))
def test_random_valid_games(seed: int, tmp_path: Path) -> None:
    path = _write(tmp_path, f"game{seed}.yaml", _random_record(seed, player=f"Seed {seed}"))
    report = _check(path)
    assert report.verdict in (Verdict.VALID, Verdict.INCOMPLETE)
    html = render_html(report)
    _structure(html, report)
    assert 'id="illegal-step"' not in html
    assert "Seed " + str(seed) in html
    md = render_markdown(report)
    assert md.count("```text") == 1 + len(report.played)


@pytest.mark.parametrize(("name", "text", "code"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_records(name: str, text: str, code: str, tmp_path: Path) -> None:
    path = _write(tmp_path, f"{name}.yaml", text)
    report = _check(path)
    assert report.verdict is Verdict.INVALID
    error = report.result.error
    assert error is not None and error.code.startswith(code)
    html = render_html(report)
    _structure(html, report)
    assert error.code in html
    if report.result.failure is not None:
        # The step is pointed out: its own section, a board with what broke the rules
        # (or what was legal), and a card closing the replay.
        assert 'id="illegal-step"' in html
        section = html[html.index('id="illegal-step"') :]
        section = section[: section.index("</section>")]
        assert section.count('class="board"') == 1
        assert 'class="wrong' in section or 'class="option' in section or 'class="reach' in section
        assert "illegal-round" in html
    else:
        assert 'id="error"' in html or 'id="illegal-step"' in html
    for fmt in ("md", "text"):
        code_, out = run("report", str(path), "--dice", str(CHALLENGE), "--format", fmt)
        assert code_ == 1
        assert error.code in out


def test_illegal_step_marks_the_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    report = build_report(Checker().check(Path("short-invalid.yaml")))
    step = report.illegal
    assert step is not None and step.part == "move" and step.roll == 4
    html = render_html(report)
    section = html[html.index('id="illegal-step"') :]
    assert 'class="wrong"' in section  # the recorded move, dashed
    reach = step.fields(BoardMark.REACH)
    assert reach
    assert section.count('class="reach"') == len(reach)
    assert 'class="bang' in section


RULESETS = ["standard+in-and-out", "standard+rings=2", "bga", "literal", "standard+escape=20"]
SEEDS = (range(3), range(3, 6))


@pytest.mark.parametrize(
    ("spec", "seeds"),
    sweep(
        [(spec, seeds) for spec in RULESETS for seeds in SEEDS],
        # The first three games of the first two rulesets play every kind of round that
        # their six do (leaving the board, rings, forced rerolls): the rest is slow.
        plain=lambda case: case[0] in RULESETS[:2] and case[1] == SEEDS[0],
        ids=lambda case: f"{case[0]}-seeds-{case[1].start}-{case[1].stop - 1}",
        unpack=True,
    ),
)
def test_other_rulesets(spec: str, seeds: range) -> None:
    """Random legal games under every ruleset and expansion render in every format."""
    rules = resolve(spec)
    rows = _rows()
    kinds: set[str] = set()
    for seed in seeds:
        steps = random_game(rows, rules, random.Random(seed), rings=rules.max_rings)
        record = dataclasses.replace(to_record(steps), rings=rules.max_rings)
        result = replay(rows, record, rules)
        assert result.ok, result.error
        report = build_report(result)
        html = render_html(report)
        _structure(html, report)
        assert render_markdown(report).count("```text") == 1 + len(report.played)
        kinds.update(r.round.kind for r in report.rounds)
    assert kinds  # the games were played


# --- escaping ------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"


def test_player_name_stays_text(tmp_path: Path) -> None:
    text = _random_record(3, player=SCRIPT)
    path = _write(tmp_path, "evil.yaml", text)
    code, html = run("report", str(path), "--dice", str(CHALLENGE), "--format", "html")
    assert code == 0
    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    code, md = run("report", str(path), "--dice", str(CHALLENGE), "--format", "md")
    assert "<script" not in md and "&lt;script&gt;" in md
    code, out = run("report", str(path), "--dice", str(CHALLENGE), "--format", "text")
    assert SCRIPT in out  # a terminal shows it as it is


def test_file_name_stays_text(tmp_path: Path) -> None:
    path = _write(tmp_path, "<img src=x onerror=alert(1)>.yaml", _random_record(2))
    code, html = run("report", str(path), "--dice", str(CHALLENGE), "--format", "html")
    assert code == 0
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Alice", "Alice"),
        ("<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"),
        ("a*b_c", r"a\*b\_c"),
        ("[link](http://x)", r"\[link\](http://x)"),
        ("a|b", r"a\|b"),
        ("line\nbreak", r"line\\x0abreak"),  # shows as line\x0abreak
    ],
)
def test_md_escape(text: str, expected: str) -> None:
    assert md_escape(text) == expected


# --- annotations ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def alice() -> Report:
    result = Checker.create(CHALLENGE, None).check(ROOT / "examples" / "alice.yaml")
    return build_report(result)


# roll, cross-outs available, fields reached, took the best, rerolls in a row
ALICE_ROUNDS = [
    (1, 6, 35, True, 0),
    (3, 1, 5, True, 0),
    (10, 0, 0, None, 1),
    (19, 0, 0, None, 1),
    (20, 0, 0, None, 2),
    (22, 2, 0, None, 0),
]


@pytest.mark.parametrize(("roll", "available", "reached", "took", "in_row"), ALICE_ROUNDS)
def test_alice_annotations(
    alice: Report, roll: int, available: int, reached: int, took: bool | None, in_row: int
) -> None:
    rr = next(r for r in alice.rounds if r.round.roll == roll)
    assert len(rr.note.available) == available
    assert len(rr.note.reachable) == reached
    assert rr.note.took_best is took
    assert rr.note.rerolls_in_row == in_row


def test_alice_end_and_moves(alice: Report) -> None:
    ended = [r for r in alice.rounds if r.note.ended is not None]
    assert [r.round.roll for r in ended] == [22]
    assert alice.end_text is not None and "roll 22" in alice.end_text
    assert [n for n, _ in alice.moves] == list(range(1, 17))
    assert alice.moves[0] == (1, Field(1, 1))
    # The best field in reach is one of the fields the engine says the die reaches.
    for rr in alice.rounds:
        if rr.note.best is not None:
            assert rr.note.best.field in rr.note.reachable
            assert all(f.value <= rr.note.best.value for f in rr.note.reachable)


@pytest.mark.parametrize(
    ("dice", "cross", "roles"),
    [
        ((1, 4, 6), Field(1, 4), ("cross", "cross", "move")),
        ((6, 4, 1), Field(1, 4), ("move", "cross", "cross")),
        ((5, 5, 3), Field(3, 5), ("cross", "move", "cross")),
        ((2, 2, 2), Field(2, 2), ("cross", "cross", "move")),
        ((2, 2, 2), None, ("", "", "")),
        ((1, 2, 3), Field(5, 5), ("", "", "")),
    ],
)
def test_dice_roles(
    dice: tuple[int, int, int], cross: Field | None, roles: tuple[str, str, str]
) -> None:
    assert dice_roles(dice, cross) == roles


# --- pictures ------------------------------------------------------------------------


def test_board_marks_in_the_paper_look() -> None:
    state = State(
        crossed=1 << Field(1, 1).index | 1 << Field(2, 2).index, circled=1 << Field(2, 2).index
    )
    picture = svg.board(state, walks=[svg.Walk((Field(1, 2),), Field(2, 2))], caption="score 15")
    root = ET.fromstring(picture)
    classes = [el.get("class") for el in root.iter()]
    assert classes.count("x") == 2  # 1/1 and 2/2
    assert classes.count("o") == 1  # 2/2, circled then crossed
    assert "walk" in classes and "walk-head" in classes
    assert classes.count("cell") == 36
    assert "score 15" in picture


def test_generic_marks_are_drawn_in_their_style() -> None:
    marks = [
        svg.FieldMark(Field(3, 3), "square", "option"),
        svg.FieldMark(Field(4, 4), "ring", "reach"),
        svg.FieldMark(Field(5, 5), "x", "wrong"),
        svg.FieldMark(Field(5, 5), "bang", "wrong"),
        svg.FieldMark(Field(1, 1), "x", "now"),
    ]
    root = ET.fromstring(svg.board(State(), marks=marks, burglar=Field(2, 2)))
    classes = [el.get("class") for el in root.iter()]
    assert classes.count("option") == 1 and classes.count("reach") == 1
    assert classes.count("wrong") == 1 and classes.count("bang") == 1
    assert classes.count("x now") == 1 and classes.count("pos") == 1


def test_first_walk_starts_off_the_board() -> None:
    picture = svg.board(State(), walks=[svg.Walk((Field(6, 1), Field(5, 1)))])
    line = ET.fromstring(picture).find("{http://www.w3.org/2000/svg}polyline")
    assert line is not None
    x, y = (float(v) for v in line.get("points", "").split()[0].split(","))
    assert x < svg.MARGIN and y > svg.MARGIN + 6 * svg.CELL


def test_score_chart_and_dice_are_valid_svg() -> None:
    ET.fromstring(svg.score_chart([(1, 30), (2, 30), (3, 55)]))
    ET.fromstring(svg.score_chart([]))
    root = ET.fromstring(svg.dice((1, 4, 6), ("cross", "cross", "move")))
    labels = [el.text for el in root.iter() if el.get("class", "").startswith("die-label")]
    assert labels == ["cross", "cross", "move"]


# --- the command ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "fmt", "marker"),
    [
        ("r.html", None, "<!DOCTYPE html>"),
        ("r.md", None, "# Road to 300"),
        ("r.txt", None, "Road to 300: Alice"),
        ("r.markdown", "md", "# Road to 300"),
        ("r.markdown", None, "# Road to 300"),
    ],
)
def test_output_format(output: str, fmt: str | None, marker: str, tmp_path: Path) -> None:
    args = ["report", str(ROOT / "examples" / "alice.yaml"), "--output", str(tmp_path / output)]
    if fmt:
        args += ["--format", fmt]
    result = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    # Standard output holds nothing; the note that the file was written goes to stderr.
    assert result.stdout == ""
    assert f"road300: wrote the report to {tmp_path / output}" in result.stderr
    assert (tmp_path / output).read_text(encoding="utf-8").startswith(marker)


@pytest.mark.parametrize(
    ("output", "fmt", "message"),
    [
        ("r.pdf", None, "road300 report does not write .pdf files"),
        ("r.xlsx", None, "road300 report does not write .xlsx files"),
        ("r.html", "md", "the suffix .html names the html format, not md"),
        # One rule for every command: a suffix must name a format the command writes.
        ("r.out", "html", "road300 report does not write .out files"),
    ],
)
def test_output_suffix_that_does_not_fit_is_refused(
    output: str, fmt: str | None, message: str, tmp_path: Path
) -> None:
    args = ["report", str(ROOT / "examples" / "alice.yaml"), "--output", str(tmp_path / output)]
    if fmt:
        args += ["--format", fmt]
    code, out = run(*args)
    assert code == 2
    assert message in out
    assert not (tmp_path / output).exists()


def test_text_to_the_terminal_by_default() -> None:
    code, out = run("report", str(ROOT / "examples" / "alice.yaml"))
    assert code == 0
    assert out.startswith("Road to 300: Alice Example")
    assert "\x1b[" not in out  # no colour when not a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dice", "missing-dice.txt"], "missing-dice.txt"),
        (["--rules", "nonsense"], "--rules"),
        (["--output", "/nonexistent-dir/r.html"], "cannot write the report"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    code, out = run("report", str(ROOT / "examples" / "alice.yaml"), *args)
    assert code == 2
    assert message in out
    assert "Traceback" not in out


def test_a_report_lists_every_reading_problem(tmp_path: Path) -> None:
    """As validate does: the report of a record that could not be read names each
    problem with its line, in every format (it named the first only)."""
    path = _write(
        tmp_path, "bad.yaml", "player: x\nrounds:\n  - {cross: [9, 9]}\n  - {crss: [1, 1]}\n"
    )
    for fmt in ("text", "md", "html"):
        code, out = run("report", str(path), "--dice", str(CHALLENGE), "--format", fmt)
        assert code == 1, out
        assert "E005" in out and "E003" in out, (fmt, out)
        assert "bad.yaml:3:" in out and "bad.yaml:4:" in out, (fmt, out)


def test_malformed_record(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.yaml", "player: x\nrounds:\n  - {cross: [9, 9]}\n")
    code, html = run("report", str(path), "--dice", str(CHALLENGE), "--format", "html")
    assert code == 1
    assert "malformed" in html and 'id="error"' in html
    assert html.count('class="board"') == 0


def test_the_report_command_only_parses_options_for_its_run(tmp_path: Path) -> None:
    """`cli.report.run` writes the report from its typed options, without click: the
    same file and exit status as the command."""
    from validator.cli.report import ReportOptions, run

    examples = ROOT / "examples"
    record, dice = examples / "invalid" / "e203-cross-taken.yaml", examples / "challenge.txt"
    argv = [str(record), "--dice", str(dice), "-o", str(tmp_path / "a.md")]
    by_command = CliRunner().invoke(main, ["report", *argv])
    options = ReportOptions(record, dice, None, None, tmp_path / "b.md", False, 1.0, None, None)
    assert run(options) == by_command.exit_code == 1
    assert (tmp_path / "b.md").read_bytes() == (tmp_path / "a.md").read_bytes()
    with pytest.raises(SystemExit):  # --time-limit given without --analyze
        run(ReportOptions(record, dice, None, None, None, False, 2.0, None, None, True))
