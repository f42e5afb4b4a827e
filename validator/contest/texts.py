"""Every sentence of the replies and the results site, in one place, for translation.

Each text is a format string with named placeholders; `say(key, **values)` fills one in.
English only for now: a translation is another table with the same keys (issue 19).
"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # -- replies ---------------------------------------------------------------------------
    "reply.subject": "Re: {subject}",
    "reply.subject.none": "Re: your Road to 300 entry",
    "reply.greeting": "Hello {name},",
    "reply.greeting.anonymous": "Hello,",
    "reply.thanks": "thank you for your entry{contest}. We checked it against the official "
    "dice file.",
    "reply.contest": " to {name}",
    "reply.valid": "Your record is valid: {score} points.",
    "reply.valid.goal": "You reached {goal} points: well played!",
    "reply.incomplete": "Your record is legal so far ({score} points), but the game could "
    "go on: it does not end where the rules end it.",
    "reply.invalid": "Your record is not valid: the replay stopped at an illegal step.",
    "reply.invalid.score": "Your record is not valid: {message}",
    "reply.malformed": "We could not read your record.",
    "reply.error.at": "{code} {message} (at {where})",
    "reply.error.help": "help: {hint}",
    "reply.part.body": "your message",
    "reply.part.attachment": "the attachment {name}",
    "reply.where.line": "line {line} of {part}",
    "reply.where.column": "line {line}, column {col} of {part}",
    "reply.illegal.intro": "The first illegal step, as the report shows it:",
    "reply.rank": "Your entry is ranked {rank} of {ranked}.",
    "reply.late": "Your message arrived after the deadline ({deadline}): it is checked and "
    "shown on the results page, but it is not ranked and takes no part in the draw.",
    "reply.late.undated": "Your message carries no readable date, so it cannot count as sent "
    "before the deadline: it is checked and shown, but not ranked and not drawn.",
    "reply.superseded": "You sent a later entry before the deadline: that one counts, and "
    "this one is shown as superseded.",
    "reply.copy": "The same game was sent by another entry too; the organizers decide how "
    "copies take part in the draw.",
    "reply.skipped": "We found no record in your message: {reason}.",
    "reply.skipped.how": "To take part, reply with your record attached (a .yaml, .json, "
    ".txt or .csv file), or typed into the mail as the dice lines of the challenge, "
    "like: {example}",
    "reply.report": "The attached report (report.html) shows every round of your game.",
    "reply.report.malformed": "The attached report (report.html) shows what could not be read.",
    "reply.closing": "Best regards,\n{organizer}",
    # -- results site ----------------------------------------------------------------------
    "site.title": "{name}: results",
    "site.title.default": "Road to 300: results",
    "site.summary": "{entries} entries: {valid} valid, {incomplete} incomplete, {invalid} "
    "invalid, {malformed} unreadable. {reached} reached {goal} points.",
    "site.leaderboard": "Leaderboard",
    "site.col.rank": "Rank",
    "site.col.player": "Player",
    "site.col.score": "Score",
    "site.col.par": "Share of par",
    "site.col.par.short": "of par",
    "site.col.verdict": "Verdict",
    "site.col.end": "End",
    "site.col.notes": "Notes",
    "site.col.report": "Report",
    "site.report": "report",
    "site.verdict.valid": "valid",
    "site.verdict.incomplete": "incomplete",
    "site.verdict.invalid": "invalid",
    "site.verdict.malformed": "unreadable",
    "site.end.no-move": "no move left",
    "site.end.rerolls": "forced rerolls",
    "site.end.dice-exhausted": "dice ran out",
    "site.end.escaped": "escaped",
    "site.player.unnamed": "Player {number}",
    "site.mark.late": "late",
    "site.mark.superseded": "superseded",
    "site.mark.copy": "same game as {others}",
    "site.mark.incomplete": "incomplete: the game could go on",
    "site.chart": "Score distribution",
    "site.chart.label": "How many ranked entries scored in each band of {width} points{par}.",
    "site.chart.par": "; the line marks par, {par} points",
    "site.chart.none": "No entry is ranked yet.",
    "site.par": "Par (the dice file's best possible score): {par} points, {how}.",
    "site.par.proven": "proven the best",
    "site.par.found": "the best game the solver found",
    "site.par.open": "Par (the dice file's best possible score): at least {par} points, the "
    "best game the solver found (bound {bound}: no game scores more{clock}).",
    "site.par.clock": "; found within a time limit, so it depends on the machine's speed",
    "site.dice": "Dice file",
    "site.dice.text": "Every record was checked against the official dice file below; its "
    "SHA-256 identifies it. Anyone can check a record against it with road300 validate.",
    "site.dice.none": "Each record was checked against the dice file it names.",
    "site.rules": "Rules",
    "site.rules.name": "Ruleset: {rules}.",
    "site.draw": "The draw",
    "site.draw.text": "Among the valid entries with {goal} points or more that are neither "
    "late nor superseded, {winners} will be drawn with road300 draw. Each eligible "
    "entry's key is the SHA-256 of the seed, the sorted list of eligible entries and the "
    "entry itself; the smallest keys win, so anyone can re-run the draw and get the same "
    "winners.",
    "site.draw.winners": "{winners} winners",
    "site.draw.winners.one": "one winner",
    "site.draw.winners.unknown": "the winners",
    "site.draw.seed": "The seed: {seed}.",
    "site.draw.seed.later": "The seed will be announced before the draw.",
    "site.footer": "Made with road300 {version}. Each report page replays one entry round by "
    "round.",
}


def say(key: str, /, **values: object) -> str:
    """The text `key` with its placeholders filled in."""
    return TEXTS[key].format(**values)
