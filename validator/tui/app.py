"""The Textual app of `road300 play`: the board, the round's choices, and the keys.

The app holds only what is being chosen (the cursor, a cross-out, a field, a walk); the
game is a `GameSession` and the record a `RecordFile`, written after every change.
"""

from __future__ import annotations

import asyncio
import signal
from dataclasses import dataclass
from types import FrameType
from typing import ClassVar, Literal

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Static

from validator.check.replay import Result
from validator.engine import (
    SIZE,
    Action,
    Cross,
    Field,
    IllegalAction,
    Play,
    RingReroll,
    Ruleset,
    counted_passes,
    roll_text,
)
from validator.language.wording import end_brief
from validator.tui.game import GameSession, Option
from validator.tui.hint import Hint, Hints, describe
from validator.tui.save import RecordFile

Phase = Literal["cross", "move", "walk", "over"]

CELL = 7
"""Board cell width: cursor bracket, marker, four characters of field, cursor bracket."""
LABEL = 3
"""Width of the row numbers left of the board."""

LEGEND = (
    "+ cross-out   * reachable\n"
    "1-6 the walk  ^ exit corner\n"
    "@ burglar     # new X\n"
    " XX  crossed  (30) circled\n"
    "x(30) circled and crossed"
)
HINT_LEGEND = "H/h the hint: cross, field"

CAUGHT_SIGNALS = tuple(
    getattr(signal, name)
    for name in ("SIGTERM", "SIGHUP", "SIGINT", "SIGQUIT")
    if hasattr(signal, name)
)
"""The signals from outside the game that end it with the terminal restored (SIGKILL and
SIGSTOP cannot be caught; Textual itself handles SIGTSTP and SIGCONT)."""

KEYS_HELP = """\
The keys (road300 play, help page 2 of 2)

  arrows        move the cursor on the board
  Enter, Space  choose the field under the cursor; on the chosen field
                again: confirm the walk shown
  3/4 or 34     type a field (row, column): the same as choosing it
  mouse click   choose a field (click it again to confirm)
  Tab, S-Tab    next / previous marked field; with a walk shown: walk
  w / W         next / previous walk to the chosen field
  r             spend a magic ring instead of playing this roll
  Esc, Bksp     step back (walk -> field -> cross-out)
  u, Ctrl+Z     undo: within the round first, then whole rounds
  y, Ctrl+Y     redo
  h             with --hint: show or hide the hint on the board
  ?, F1         this help;  q, Ctrl+C  quit (the record is saved)

Press any key to close."""

RULES_HELP = """\
How a round goes (road300 play, help page 1 of 2)

 1. Three dice are rolled. Cross out a free field that two of them
    name, as row and column in either order (marked +). The third
    die is how far you move.
 2. From your second move on, the field you start from gets its X.
 3. Walk exactly that many steps, up, down, left or right, never onto
    a field with an X or a circle, nor twice onto the same field; the
    field you end on gets a circle and scores its points. Your first
    move enters the board through a corner.
 {rerolls}
 When the moving die has no walk, the game ends. Aim: 300 points.

Marks on the board
  +  a field you may cross out     *  a field the moving die reaches
  1-6 the walk shown, step by step ^  a corner to leave through
  @  the burglar: you              #  the field crossed out now
   XX  crossed out                 (30) circled: your points
  x(30) circled, then crossed      H, h  the hint: cross-out, field

Any key: the keys (page 2).  Esc: close."""


def rules_help(rules: Ruleset) -> str:
    """Help page 1: a round's steps, the end of the game under `rules`, and the marks."""
    end = (
        "in a row end the game" if rules.pass_counting == "in-a-row" else "in the whole game end it"
    )
    rerolls = f"No field to cross out: a forced reroll; {rules.pass_limit} {end}."
    return RULES_HELP.format(rerolls=rerolls)


@dataclass
class Choice:
    """What the player has chosen so far in this round."""

    phase: Phase = "cross"
    cross: Cross | None = None
    options: tuple[Option, ...] = ()
    """Every way to finish the round after `cross`."""
    target: Field | None = None
    walk_index: int = 0

    def at_target(self) -> list[Option]:
        return [o for o in self.options if o.target == self.target]


class BoardView(Static):
    """The 6 x 6 board; a click chooses the field under the mouse."""

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        field = field_at(offset.x, offset.y)
        if field is not None:
            app = self.app
            assert isinstance(app, PlayApp)
            app.choose(field)


def field_at(x: int, y: int) -> Field | None:
    """The field drawn at content offset (x, y) of the board, if any."""
    if y < 1 or (y - 1) % 2 or x < LABEL:
        return None
    row, col = (y - 1) // 2, (x - LABEL) // CELL
    return Field(row + 1, col + 1) if row < SIZE and col < SIZE else None


def cell_origin(field: Field) -> tuple[int, int]:
    """Content offset of a field's middle, for clicks in tests and tools."""
    return LABEL + (field.col - 1) * CELL + 3, 1 + (field.row - 1) * 2


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: 76; height: auto; border: round $accent; padding: 0 1;
                          background: $surface; }
    """

    def __init__(self, rules: Ruleset) -> None:
        super().__init__()
        self.pages = [rules_help(rules), KEYS_HELP]

    def compose(self) -> ComposeResult:
        yield Static(self.pages[0], id="help")

    def on_key(self, event: events.Key) -> None:
        """Any key turns to the keys, then closes; Esc closes at once."""
        event.stop()
        self.pages.pop(0)
        if event.key == "escape" or not self.pages:
            self.dismiss()
            return
        self.query_one("#help", Static).update(self.pages[0])

    def on_click(self) -> None:
        self.dismiss()


class RingsScreen(ModalScreen[int]):
    """Asks how many magic rings the player declares, before the first roll."""

    DEFAULT_CSS = """
    RingsScreen { align: center middle; }
    RingsScreen > Static { width: 50; height: auto; border: round $accent; padding: 1 2;
                           background: $surface; }
    """

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def compose(self) -> ComposeResult:
        yield Static(
            "The magic rings!\n\nHow many rings do you declare?\n"
            f"Press {ring_keys(self.most)}. Each ring can be spent\n"
            "once (key r) to skip a roll; rings left over\ndo not score.",
            id="rings-question",
        )

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= self.most:
                self.dismiss(n)
        elif event.key in ("q", "ctrl+c"):
            self.app.exit()


def ring_keys(most: int) -> str:
    """The keys that answer the rings question, in words: `1`, `1 or 2`, `1, 2 or 3`."""
    keys = [str(n) for n in range(1, most + 1)]
    return keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " or " + keys[-1]


MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the whole screen fits in (docs/play.md)."""


class PlayApp(App[Result | None]):
    """Play one game on a dice file; returns the final check of the record, if the game ended."""

    TITLE = "road300 play"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #main { height: 14; }
    #board { width: 49; height: 14; border: round $primary; padding: 0 1; }
    #status { width: 1fr; height: 14; border: round $primary; padding: 0 1; }
    #message { height: 1fr; padding: 0 1; }
    #prompt { height: auto; padding: 0 1; }
    #keys { height: 1; padding: 0 1; background: $panel; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1, 0)", show=False, priority=True),
        Binding("down", "cursor(1, 0)", show=False, priority=True),
        Binding("left", "cursor(0, -1)", show=False, priority=True),
        Binding("right", "cursor(0, 1)", show=False, priority=True),
        Binding("enter,space", "activate", show=False, priority=True),
        Binding("tab", "jump(1)", show=False, priority=True),
        Binding("shift+tab", "jump(-1)", show=False, priority=True),
        Binding("w", "walk(1)", show=False),
        Binding("W", "walk(-1)", show=False),
        Binding("r", "ring", show=False),
        Binding("escape,backspace", "step_back", show=False),
        Binding("u,ctrl+z", "undo", show=False, priority=True),
        Binding("y,ctrl+y", "redo", show=False, priority=True),
        Binding("h", "hint_marks", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("q", "quit", show=False),
        Binding("ctrl+c", "quit", show=False, priority=True),
    ]

    def __init__(
        self,
        game: GameSession,
        record_file: RecordFile,
        *,
        dice_name: str,
        ask_rings: bool = False,
        welcome: str = "",
        hint_seconds: float | None = None,
        hint_nodes: int | None = None,
    ) -> None:
        super().__init__()
        hints = hint_seconds is not None or hint_nodes is not None  # else no --hint
        self.hint = ""
        self.hint_action: Action | None = None
        """The hint's best choice, marked on the board while `hint_marks` is on."""
        self.hint_marks = True
        self._hints: Hints | None = Hints(hint_seconds, hint_nodes) if hints else None
        self.game = game
        self.record_file = record_file
        self.dice_name = dice_name
        self.ask_rings = ask_rings
        self.choice = Choice()
        self.cursor = Field(1, 1)
        self.typed = ""
        self.message = welcome
        self.error = ""
        self.result: Result | None = None
        """The record's check once the game is over."""
        self._shown = False
        self.signalled: int | None = None
        """The signal that ended the game from outside (SIGTERM, SIGHUP, ...), if one did."""

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            yield BoardView(id="board")
            yield Static(id="status")
        yield Static(id="message")
        yield Static(id="prompt")
        yield Static(id="keys")

    def catch_signals(self) -> None:
        """Before `run`: the signals that would end the process with the terminal still in
        the game's screen (the alternate screen, mouse reporting on, the cursor hidden)
        end the game instead, as `q` does, so that Textual gives the terminal back. Until
        the app runs, one is only remembered (`on_mount` acts on it)."""

        def remember(signum: int, frame: FrameType | None) -> None:
            self.signalled = self.signalled or signum

        for signum in CAUGHT_SIGNALS:
            signal.signal(signum, remember)

    def _stop_by_signal(self, signum: int) -> None:
        self.signalled = self.signalled or signum
        self._end()

    def _end(self) -> None:
        """Leave the game (`q`, or a signal): a hint's search still running stops at once,
        so that the terminal is given back now, not when the search's time is up."""
        if self._hints is not None:
            self._hints.cancel.set()
        self.exit(self.result)  # the record is already saved

    def on_mount(self) -> None:
        self._shown = True
        loop = asyncio.get_running_loop()
        for signum in CAUGHT_SIGNALS:
            loop.add_signal_handler(signum, self._stop_by_signal, signum)
        if self.signalled is not None:  # it came while the screen was being set up
            self._stop_by_signal(self.signalled)
            return
        if self.ask_rings and not self.game.rounds:
            self.push_screen(RingsScreen(self.game.rules.max_rings), self._rings_declared)
        else:
            self._saved()
        self._new_round()

    def _rings_declared(self, rings: int | None) -> None:
        if rings is None:
            return
        self.game.declare_rings(rings)
        self.message = f"{rings} magic {'ring' if rings == 1 else 'rings'} declared."
        self._saved()
        self._new_round()

    # --- actions -----------------------------------------------------------------

    def action_cursor(self, drow: int, dcol: int) -> None:
        row = min(SIZE, max(1, self.cursor.row + drow))
        col = min(SIZE, max(1, self.cursor.col + dcol))
        self.cursor = Field(row, col)
        self.typed = ""
        self.refresh_view()

    def action_activate(self) -> None:
        self.choose(self.cursor)

    def action_walk(self, delta: int) -> None:
        c = self.choice
        if c.phase != "walk":
            self._say("choose a field first: its walks are shown, then w shows the next one")
            return
        count = len(c.at_target())
        c.walk_index = (c.walk_index + delta) % count
        self.error = ""
        self.refresh_view()

    def action_ring(self) -> None:
        if self.game.over or not self.game.ring_allowed:
            self._say("no magic ring can be spent now")
            return
        self._play(RingReroll(), "a magic ring spent: this roll is skipped")

    def action_step_back(self) -> None:
        self.error = ""
        self._step_back()
        self.refresh_view()

    def _step_back(self) -> str:
        """One step back within the round (typed digit, walk, field, cross-out); what was
        undone in words, or "" when the round has no choice to take back."""
        c = self.choice
        if self.typed:
            typed, self.typed = self.typed, ""
            return f"the typed {typed}/_"
        if c.phase == "walk":
            target = c.target
            c.phase, c.target, c.walk_index = "move", None, 0
            return f"the choice of {target}"
        if c.phase == "move":
            assert c.cross is not None
            field = c.cross.field
            self.choice = Choice()
            self.cursor = field
            return f"the cross-out of {field}"
        return ""

    def action_undo(self) -> None:
        self.error = ""
        undone = self._step_back()
        if undone:
            self.message = f"undid {undone} (still roll {self.game.row + 1})"
            self.refresh_view()
            return
        last = self._last_choice()
        if not self.game.undo():
            self._say("nothing to undo")
            return
        self.message = f"undid {last}" if last else "undone"
        self._changed()

    def _last_choice(self) -> str:
        """The last choice the player made (with the forced rerolls after it), in words."""
        rounds = self.game.rounds
        autos = 0
        while autos < len(rounds) and rounds[-1 - autos].auto:
            autos += 1
        if autos == len(rounds):
            return ""
        step = rounds[-1 - autos].step
        text = f"roll {step.roll}: " + describe(step.action)
        if autos:
            text += f", and the {autos} forced reroll{'s' if autos > 1 else ''} after it"
        return text

    def action_hint_marks(self) -> None:
        if self._hints is None:
            self._say("no hints in this game: start it with --hint")
            return
        self.hint_marks = not self.hint_marks
        self.message = "the hint's marks (H, h) " + ("shown" if self.hint_marks else "hidden")
        self.refresh_view()

    def action_redo(self) -> None:
        if not self.game.redo():
            self._say("nothing to redo")
            return
        done = self._last_choice()  # the choice just played again, as undo names it
        self.message = f"redid {done}" if done else "redone"
        self._changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The app's keys are priority bindings (Tab must not move focus); while a dialog is
        # open they stand aside, so that its own keys reach it.
        return action == "quit" or not isinstance(self.screen, ModalScreen)

    async def action_quit(self) -> None:
        # The return value is the record's check, so that the command can print it.
        self._end()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.game.rules))

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char and char in "123456":
            event.stop()
            if not self.typed:
                self.typed = char
                self.refresh_view()
            else:
                field = Field(int(self.typed), int(char))
                self.typed = ""
                self.cursor = field
                self.choose(field)
        elif char in ("/", ",") and self.typed:
            event.stop()

    # --- choosing ----------------------------------------------------------------

    def choose(self, field: Field) -> None:
        """Choose `field` in this phase: a cross-out, a field to move to, or the walk shown."""
        self.cursor = field
        self.typed = ""
        self.error = ""
        c = self.choice
        if c.phase == "over":
            self._say("the game is over: u undoes the last choice, q quits")
        elif c.phase == "cross":
            cross = next((x for x in self.game.crosses() if x.field == field), None)
            if cross is None:
                self._say(f"{field} is not a cross-out of this roll: choose a field marked +")
                return
            options = tuple(self.game.options(cross))
            self.choice = Choice("move", cross, options)
            if options[0].kind == "stuck":
                self.message = ""
            else:
                targets = self._targets()
                self.cursor = targets[0] if targets else field
        elif c.phase == "move" and c.options[0].kind == "stuck":
            self._confirm(c.options[0])
        elif c.phase == "walk" and field == c.target:
            self._confirm(c.at_target()[c.walk_index])
        elif field in self._targets():
            c.phase, c.target, c.walk_index = "walk", field, 0
        else:
            self._say(f"{field} cannot be reached: choose a field marked * or ^")
            return
        self.refresh_view()

    def _targets(self) -> list[Field]:
        return list(dict.fromkeys(o.target for o in self.choice.options if o.target is not None))

    def action_jump(self, delta: int) -> None:
        c = self.choice
        if c.phase == "walk":
            self.action_walk(delta)
            return
        if c.phase == "cross":
            marked = [x.field for x in self.game.crosses()]
        elif c.phase == "move":
            marked = self._targets()
        else:
            return
        if not marked:
            return
        if self.cursor in marked:
            self.cursor = marked[(marked.index(self.cursor) + delta) % len(marked)]
        else:
            self.cursor = marked[0 if delta > 0 else -1]
        self.refresh_view()

    def _confirm(self, option: Option) -> None:
        cross = self.choice.cross
        assert cross is not None
        done = f"crossed out {cross.field}, {self.option_text(option)}"
        self._play(option.action, f"roll {self.game.row + 1}: {done}")

    def option_text(self, option: Option) -> str:
        """An option in words, with what leaving the board does under these rules."""
        target, n = option.target, len(option.walk)
        steps = f"{n} step{'s' if n != 1 else ''}"
        if option.kind == "escape":
            bonus = self.game.rules.escape_bonus or 0
            return f"escape through {target} ({steps}): +{bonus} bonus, the game ends"
        if option.kind == "leave":
            return (
                f"leave through {target} ({steps}): the burglar waits outside and "
                "comes back in through a free corner"
            )
        if target is None:
            return "no legal move: the game ends after this cross-out"
        return f"move to {target} ({target.value} points)"

    def _play(self, action: Action, text: str) -> None:
        try:
            self.game.play(action)
        except IllegalAction as exc:  # only legal choices are offered; kept as a safety net
            self._say(f"{exc.code} {exc.message}")
            return
        self.message = text
        self._changed()

    def _changed(self) -> None:
        self._saved()
        self._new_round()

    def _saved(self) -> None:
        try:
            self.record_file.write(self.game)
        except (OSError, ValueError) as exc:
            self.error = f"could not write {self.record_file.path}: {exc}"
            return
        self.result = self.record_file.verify() if self.game.over else None

    def _new_round(self) -> None:
        self.hint = ""
        self.hint_action = None
        if self._hints is not None and not self.game.over:
            self._start_hint(self._hints)
        self.choice = Choice("over" if self.game.over else "cross")
        crosses = self.game.crosses()
        if crosses and self.cursor not in [c.field for c in crosses]:
            self.cursor = crosses[0].field
        self.refresh_view()

    def _start_hint(self, hints: Hints) -> None:
        """Rank this round's choices with the solver in a thread, so keys stay quick (a
        position ranked before is shown at once, as it was); a result for a position
        that is no longer on the board is dropped."""
        game = self.game
        position = (game.state, game.row)
        known = hints.known(game)
        if known is not None:
            self.hint, self.hint_action = known.text(), known.best
            return
        self.hint = "Hint: thinking..."

        def work() -> None:
            hint = hints.rank(game)
            if not hints.cancel.is_set():  # else the app is closing: nothing to show
                self.call_from_thread(self._show_hint, position, hint)

        self.run_worker(work, thread=True, exclusive=True, group="hint")

    def _show_hint(self, position: tuple[object, int], hint: Hint) -> None:
        if position == (self.game.state, self.game.row):
            self.hint, self.hint_action = hint.text(), hint.best
            self.refresh_view()

    def _say(self, text: str) -> None:
        self.error = text
        self.refresh_view()

    # --- drawing -----------------------------------------------------------------

    def refresh_view(self) -> None:
        if not self._shown:
            return
        self.query_one("#title", Static).update(self._title())
        self.query_one("#board", BoardView).update(self.board_text())
        self.query_one("#status", Static).update(self.status_text())
        self.query_one("#message", Static).update(self.message_text())
        self.query_one("#prompt", Static).update(Text(self._prompt(), style="bold"))
        self.query_one("#keys", Static).update(self.keys_text())

    def _title(self) -> str:
        title = (
            f"Road to 300 | {self.game.rules.name} | {self.dice_name} -> "
            f"{self.record_file.path.name}"
        )
        width, height = self.size
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            # On the top line, which a small terminal still shows: parts of the screen
            # (the keys, the prompt) are cut off below it.
            return f"Terminal {width}x{height}: the game needs {MIN_WIDTH}x{MIN_HEIGHT} | " + title
        return title

    def on_resize(self) -> None:
        # After the resize is laid out, so that the title reads the new size.
        self.call_after_refresh(self.refresh_view)

    def board_text(self) -> Text:
        marks = self._marks()
        hinted = self._hint_marks()
        state = self.game.state
        pending = self.choice.cross.field if self.choice.cross else None
        text = Text()
        text.append(" " * LABEL + "".join(f"   {c}   " for c in range(1, SIZE + 1)) + "\n")
        for row in range(1, SIZE + 1):
            text.append(f" {row} ", style="bold")
            for col in range(1, SIZE + 1):
                field = Field(row, col)
                mark = state.mark(field)
                marker, marker_style = marks.get(field, ("", ""))
                if not marker and mark == "XO":
                    marker = "x"
                if mark == "X" or field == pending:
                    inner, style = " XX ", "dim red"
                elif "O" in mark:
                    inner, style = f"({field.value:>2})", "bold"
                else:
                    inner, style = f" {field.value:>2} ", ""
                if state.position == field:
                    marker, marker_style = marker or "@", marker_style or "bold blue"
                    style = "bold blue"
                cursor = field == self.cursor and self.choice.phase != "over"
                if marker_style and not cursor:
                    style = f"{style} {marker_style}".strip()
                if cursor:
                    style = f"{style} reverse".strip()
                text.append("[" if cursor else " ", style="bold" if cursor else "")
                letter = hinted.get(field)
                if letter is not None and inner.endswith(" "):
                    # The hint's letter takes the field's last blank: the mark it shares
                    # the field with (+, *, a step of the walk) stays in front.
                    text.append((marker or " ") + inner[:-1], style=style)
                    text.append(letter, style="bold on purple" + (" reverse" if cursor else ""))
                else:
                    text.append((marker or " ") + inner, style=style)
                text.append("]" if cursor else " ", style="bold" if cursor else "")
            text.append("\n" if row == SIZE else "\n\n")
        text.rstrip()
        return text

    def _marks(self) -> dict[Field, tuple[str, str]]:
        c = self.choice
        marks: dict[Field, tuple[str, str]] = {}
        if c.phase == "cross":
            for x in self.game.crosses():
                marks[x.field] = ("+", "on dark_goldenrod")
        elif c.phase in ("move", "walk"):
            assert c.cross is not None
            marks[c.cross.field] = ("#", "")
            for option in c.options:
                if option.target is None:
                    continue
                if option.kind in ("leave", "escape"):
                    marks[option.target] = ("^", "on dark_magenta")
                elif option.target not in marks:
                    marks[option.target] = ("*", "on dark_green")
            if c.phase == "walk":
                walk = c.at_target()[c.walk_index].walk
                for n, field in enumerate(walk, 1):
                    marks[field] = (str(n), "bold on dark_cyan")
        return marks

    def _hint_marks(self) -> dict[Field, str]:
        """The hint's letters, drawn beside the field's own mark, never instead of it: `H`
        on its cross-out while a cross-out is chosen, `h` on its field while that cross-out
        is the one chosen (and the walk drawn does not already go there)."""
        c = self.choice
        hint = self.hint_action if self.hint_marks else None
        if not isinstance(hint, Play):
            return {}
        letters: dict[Field, str] = {}
        if c.phase == "cross":
            letters[hint.cross] = "H"
            if hint.move is not None and hint.move != hint.cross:
                letters[hint.move] = "h"
        elif (
            c.phase in ("move", "walk")
            and c.cross is not None
            and hint.cross == c.cross.field
            and hint.move is not None
            and (c.phase == "move" or hint.move != c.target)
        ):
            letters[hint.move] = "h"
        return letters

    def status_text(self) -> Text:
        game, rules = self.game, self.game.rules
        state = game.state
        text = Text()
        dice = game.dice
        if game.over:
            text.append(f"Game over after roll {game.row} of {len(game.rows)}", style="bold")
        else:
            text.append(f"Roll {game.row + 1} of {len(game.rows)}", style="bold")
        if dice is not None:
            text.append("   dice " + roll_text(dice), style="bold")
        text.append("\n")
        text.append(f"Score {game.score}", style="bold")
        text.append(" final\n" if game.over else " so far\n")
        count = counted_passes(state, rules)
        if rules.pass_counting == "in-a-row":
            counted = f"Rerolls in a row {count}/{rules.pass_limit}"
        else:
            counted = f"Passes {count}/{rules.pass_limit} in total"
        last = not game.over and count + 1 >= rules.pass_limit
        text.append(counted + "\n", style="bold yellow" if last else "")
        if last:
            text.append("! next reroll ends game\n", style="bold yellow")
        if rules.rings:
            text.append(f"Rings left {state.rings_left} of {game.rings}\n")
        if rules.escape:
            text.append(f"Escape bonus {rules.escape_bonus}\n")
        if state.position is None and game.rounds and not game.over:
            text.append("Burglar outside: enters\nthrough a free corner\n")
        legend = LEGEND + ("\n" + HINT_LEGEND if self._hints is not None else "")
        text.append("\n" + legend, style="dim")
        return text

    def message_text(self) -> Text:
        """What happened and the hint, above the prompt (its own widget, always shown)."""
        text = Text()
        if self.message:
            text.append(self.message + "\n")
        notice = self.notice_line()
        if notice:
            text.append(f"! {notice}\n", style="yellow")
        if self.error:
            text.append(f"x {self.error}\n", style="bold red")
        if self.hint:
            text.append(self.hint, style="cyan")
        text.rstrip()
        return text

    def notice_line(self) -> str:
        """The forced rerolls the last change played by themselves, in one line:
        `rolls 25-27: no cross-out, forced rerolls (3/3 in a row)`."""
        count = len(self.game.notices)
        autos = self.game.rounds[len(self.game.rounds) - count :] if count else []
        if not autos or not all(r.auto for r in autos):
            return ""
        rules, state = self.game.rules, autos[-1].step.state
        first, last = autos[0].step.roll, autos[-1].step.roll
        in_row = rules.pass_counting == "in-a-row"
        tally = (
            f"{counted_passes(state, rules)}/{rules.pass_limit} "
            f"{'in a row' if in_row else 'in total'}"
        )
        if count == 1:
            dice = roll_text(autos[0].step.dice)
            return f"roll {first} ({dice}): no cross-out, forced reroll ({tally})"
        return f"rolls {first}-{last}: no cross-out, forced rerolls ({tally})"

    def _prompt(self) -> str:
        c, game = self.choice, self.game
        if c.phase == "over":
            end = end_brief(game.state.end) if game.state.end else ""
            line = f"Game over ({end}): {game.score} points."
            if self.result is not None:
                from validator.render.shared import summary_line

                line += f"\nCheck: {summary_line(self.result)}"
            return line + f"\nRecord: {self.record_file.path}"
        if self.typed:
            return f"Field {self.typed}/_"
        if c.phase == "cross":
            options = ", ".join(f"{x.field} (moves {x.die})" for x in game.crosses())
            ring = f"  r: spend a ring ({game.state.rings_left} left)" if game.ring_allowed else ""
            ends = (
                ""
                if game.goes_on
                else "\nNo cross-out leaves a legal move: the game ends here"
                + (" unless you spend a ring." if ring else ".")
            )
            return f"Cross out a field marked +: {options}.{ring}{ends}"
        assert c.cross is not None
        head = f"{c.cross.field} crossed out, the {c.cross.die} moves. "
        if c.options[0].kind == "stuck":
            return head + "It has no legal move: Enter ends the game here, Esc goes back."
        if c.phase == "move":
            leave = " (or ^ to leave through a corner)" if game.rules.can_leave else ""
            return head + f"Choose a field marked *{leave}."
        at_target = c.at_target()
        option = at_target[c.walk_index]
        walk = " ".join(str(f) for f in option.walk) or "(stays on its corner)"
        other = "  w: next walk" if len(at_target) > 1 else ""
        return (
            f"Walk {c.walk_index + 1} of {len(at_target)}: {walk}\n"
            f"Enter: {self.option_text(option)}.{other}"
        )

    def keys_text(self) -> Text:
        phase = self.choice.phase
        common = "u undo  y redo  ? help  q quit"
        if phase == "over":
            line = "Game over.  " + common
        elif phase == "walk":
            walks = "w/Tab next walk  " if len(self.choice.at_target()) > 1 else ""
            line = f"Enter confirm  {walks}Esc back  " + common
        elif phase == "move":
            line = "arrows/Tab/3/4 field  Enter choose  Esc back  " + common
        else:
            line = "arrows/Tab/type 3/4  Enter choose  " + common
        return Text(line, style="bold")
