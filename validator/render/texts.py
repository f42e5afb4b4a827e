"""Every sentence of the replies and the results site, in one place, for translation.

Each text is an English format string with named placeholders, marked for the catalogs
with `N_` (Babel extracts it); `say(key, **values)` translates it into the current language
(`i18n.speaking`) and fills it in, writing whole numbers as the language writes them. The
texts that count something go through ngettext (`wording.plural`), one function each below
the table. docs/languages.md tells how the catalogs are updated.
"""

from __future__ import annotations

from validator.engine.phrase import N_
from validator.language import i18n
from validator.language.wording import plural
from validator.language.wording import points as points  # re-exported: `315 points`

TEXTS: dict[str, str] = {
    # -- replies ---------------------------------------------------------------------------
    # TRANSLATORS: the Subject of a reply; {subject} is the player's own subject.
    "reply.subject": N_("Re: {subject}"),
    "reply.subject.none": N_("Re: your Road to 300 entry"),
    "reply.greeting": N_("Hello {name},"),
    "reply.greeting.anonymous": N_("Hello,"),
    "reply.thanks": N_("thank you for your entry. We checked it against the official dice file."),
    "reply.thanks.contest": N_(
        "thank you for your entry to {name}. We checked it against the official dice file."
    ),
    # A message in which no record was found: nothing was checked.
    "reply.thanks.message": N_("thank you for your message."),
    "reply.thanks.message.contest": N_("thank you for your message about {name}."),
    "reply.valid": N_("Your record is valid: {points}."),
    "reply.valid.goal": N_("You reached {points}: well played!"),
    "reply.incomplete": N_(
        "Your record is legal so far ({points}), but the game could go on: it does not end "
        "where the rules end it."
    ),
    "reply.invalid": N_("Your record is not valid: the replay stopped at an illegal step."),
    "reply.invalid.whole": N_(
        "Your record is not valid: its steps are legal, but the record as a whole is not right."
    ),
    "reply.go_on.invalid": N_(
        "Correct your record from roll {roll} on: the rounds before it are legal."
    ),
    "reply.go_on.incomplete": N_("Your record stops before the game ends: go on from roll {roll}."),
    "reply.resend": N_(
        "You may send a corrected record by replying to this message; the last one you send counts."
    ),
    "reply.resend.deadline": N_(
        "You may send a corrected record by replying to this message until the deadline, "
        "{deadline}; the last one you send before it counts."
    ),
    "reply.malformed": N_("We could not read your record."),
    "reply.error.at": N_("{code} {message} (at {where})"),
    "reply.error.in": N_("{code} {message} (in {part})"),
    "reply.error.help": N_("help: {hint}"),
    "reply.part.body": N_("your message"),
    "reply.part.attachment": N_("the attachment {name}"),
    "reply.where.line": N_("line {line} of {part}"),
    "reply.where.column": N_("line {line}, column {col} of {part}"),
    # TRANSLATORS: {step} is "roll 4, record round 4"; {dice} "5 1 1".
    "reply.illegal.step": N_("The first illegal step is on {step} (dice {dice}):"),
    "reply.illegal.record": N_("The first illegal step is in the record as a whole:"),
    "reply.rank": N_("Your entry is ranked {rank} of {ranked}."),
    "reply.late": N_(
        "Your message arrived after the deadline ({deadline}): it is checked and shown on the "
        "results page, but it is not ranked and takes no part in the draw."
    ),
    "reply.late.undated": N_(
        "Your message carries no readable date, so it cannot count as sent before the "
        "deadline: it is checked and shown, but not ranked and not drawn."
    ),
    "reply.superseded": N_(
        "You sent a later entry before the deadline: that one counts, and this one is shown "
        "as superseded."
    ),
    "reply.copy.original": N_(
        "Another player sent the very same game after you did: that entry is marked as a copy "
        "of yours. The organizers decide how copies take part in the draw."
    ),
    "reply.copy.later": N_(
        "Another player sent the very same game before you did: your entry is marked as a copy "
        "of theirs. The organizers decide how copies take part in the draw."
    ),
    "reply.skipped": N_("We found no record in your message: {reason}."),
    "reply.skipped.how": N_(
        "To take part, reply with your record attached (a .yaml, .json, .txt or .csv file), "
        "or typed into the mail as the dice lines of the challenge, like: {example}"
    ),
    "reply.report": N_("The attached report (report.html) shows every round of your game."),
    # The public address of the results site (`base_url` of the contest file).
    "reply.results": N_("The results of every entry are on the challenge's site: {url}"),
    "reply.report.illegal": N_(
        "The attached report (report.html) shows every round of your game, and the board "
        "before the illegal step."
    ),
    "reply.report.malformed": N_("The attached report (report.html) shows what could not be read."),
    "reply.closing": N_("Best regards,\n{organizer}"),
    # -- results site ----------------------------------------------------------------------
    "site.title": N_("{name}: results"),
    "site.title.default": N_("Road to 300: results"),
    # TRANSLATORS: {entries} is "9 entries", {counts} "3 valid, 1 incomplete, ...".
    "site.summary": N_("{entries}: {counts}."),
    "site.verdict.valid": N_("valid"),
    "site.verdict.incomplete": N_("incomplete"),
    "site.verdict.invalid": N_("invalid"),
    "site.verdict.malformed": N_("unreadable"),
    "site.end.no-move": N_("no move left"),
    "site.end.rerolls": N_("forced rerolls"),
    "site.end.dice-exhausted": N_("dice ran out"),
    "site.end.escaped": N_("escaped"),
    "site.player.unnamed": N_("Player {number}"),
    "site.hidden": N_("(address hidden)"),
    "site.mark.late": N_("late"),
    "site.mark.superseded": N_("superseded"),
    "site.mark.copy": N_("same game as {others}"),
    "site.mark.incomplete": N_("incomplete: the game could go on"),
    # TRANSLATORS: a leaderboard note, short: the entry plays the same game as another.
    "site.mark.copy.short": N_("a copy"),
    # TRANSLATORS: why an invalid entry's leaderboard row is: "E205: 6/3 cannot be reached...".
    "site.reason": N_("{code}: {message}"),
    "site.entry.back": N_("← The leaderboard"),
    "site.entry.rank": N_("Rank {rank} on the leaderboard."),
    "site.entry.rank.short": N_("rank {rank}"),
    "site.entry.late": N_(
        "Sent after the deadline ({deadline}): checked, but not ranked and not in the draw."
    ),
    "site.entry.late.plain": N_(
        "Sent after the deadline: checked, but not ranked and not in the draw."
    ),
    "site.entry.superseded": N_(
        "Superseded: the same sender sent a later entry before the deadline, and that one "
        "counts; this one is not ranked and not in the draw."
    ),
    "site.entry.copy": N_("The same game as {others}."),
    "site.entry.rules": N_("Ruleset"),
    "site.entry.dice": N_("Dice file SHA-256"),
    "site.deadline": N_("Deadline for records: {deadline}."),
    "site.chart.label": N_("How many ranked entries scored in each band of {points}{par}."),
    "site.chart.par": N_("; the line marks par, {points}"),
    # TRANSLATORS: the label of the line that marks par on the score chart (a few letters).
    "site.chart.par.mark": N_("par"),
    "site.chart.none": N_("No entry is ranked yet."),
    "site.par": N_("Par (the dice file's best possible score): {points}, {how}."),
    "site.par.proven": N_("proven the best"),
    "site.par.found": N_("the best game the solver found or an entry played"),
    # TRANSLATORS: {points} is "at least" this many, {bound} the most any game can score.
    "site.par.open": N_(
        "Par (the dice file's best possible score): at least {points}, the best game the "
        "solver found or an entry played (bound {bound}: no game scores more{clock})."
    ),
    "site.par.clock": N_("; found within a time limit, so it depends on the machine's speed"),
    "site.rules.name": N_("Ruleset: {rules}."),
    "site.draw.text": N_(
        "Among the valid entries with {points} or more that are neither late nor "
        "superseded, {winners} will be drawn with road300 draw. Each eligible entry's key is "
        "the SHA-256 of the seed, the sorted list of eligible entries and the entry itself; "
        "the smallest keys win, so anyone can re-run the draw and get the same winners."
    ),
    "site.draw.text.made": N_(
        "Among the valid entries with {points} or more that are neither late nor "
        "superseded, {winners} were drawn with road300 draw. Each eligible entry's key is "
        "the SHA-256 of the seed, the sorted list of eligible entries and the entry itself; "
        "the smallest keys win, so anyone can re-run the draw and get the same winners."
    ),
    "site.draw.winners.unknown": N_("the winners"),
    "site.draw.made": N_("The draw was made on {when}."),
    "site.draw.won": N_("Drawn: {names}."),
    "site.draw.repeat": N_("Anyone can repeat the draw with the results file:"),
    "site.draw.seed": N_("The seed: {seed}."),
    "site.draw.seed.later": N_("The seed will be announced before the draw."),
    "site.footer": N_(
        "Made with road300 {version}. Each report page replays one entry round by round."
    ),
}


def say(key: str, /, **values: object) -> str:
    """The text `key` in the current language with its placeholders filled in (a whole
    number as the language writes it: `1,234`, `1.234`, `1 234`)."""
    for k, v in values.items():
        if isinstance(v, int) and not isinstance(v, bool):
            values[k] = i18n.number(v)
    return i18n.gettext(TEXTS[key]).format(**values)


# -- the texts that count --------------------------------------------------------------------


def entries(n: int) -> str:
    """`9 entries`: how many entries the site shows."""
    return plural(n, "{n} entry", "{n} entries")


def counts(valid: int, incomplete: int, invalid: int, malformed: int) -> str:
    """`3 valid, 1 incomplete, 3 invalid, 2 unreadable`: the entries by verdict."""
    return ", ".join(
        (
            plural(valid, "{n} valid", "{n} valid"),
            plural(incomplete, "{n} incomplete", "{n} incomplete"),
            plural(invalid, "{n} invalid", "{n} invalid"),
            plural(malformed, "{n} unreadable", "{n} unreadable"),
        )
    )


def reached(n: int, goal: int) -> str:
    """`2 reached 300 points.`: how many valid entries reached the goal (`points`: the
    report's own `315 points`, through ngettext too)."""
    return plural(n, "{n} reached {points}.", "{n} reached {points}.", points=points(goal))


def winners(n: int) -> str:
    """`3 winners` (`one winner`): how many the draw gives a prize."""
    return plural(n, "one winner", "{n} winners")
