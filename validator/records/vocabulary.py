"""Every word a typed record may use, one table per language: the words before a roll
number, for a cross-out, a move, steps, a path, a reroll, no move; the header keys for the
player and the total; the filler words a person writes between the numbers. A fourth
language is one more table here (and its catalog). Words are folded: lower case, no
accents, blanks single (`Barrée` is `barree`), as `lexing.normal` folds what is read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from validator.engine import EXITS


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """One language's words, by what they mean in a record."""

    roll: frozenset[str]
    """Words before a roll number or the dice: `Roll 1:`, `Wurf 1:`, `1er lancer`."""
    dice_words: frozenset[str]
    """Words between a roll number and its dice: `Tour 3 - dés 2 2 2`, `I rolled 2 2 2`."""
    cross: frozenset[str]
    """Words before the field crossed out (`crossed out 6/4`)."""
    cross_after: frozenset[str]
    """Cross-out words that may also follow their field (`6/4 durchgestrichen`)."""
    move_after: frozenset[str]
    """Move words that may also follow their field (`nach 6/1 gezogen`)."""
    move: frozenset[str]
    """Words before the field moved to (`moved to 1/1`, `nach 1/1`)."""
    steps: frozenset[str]
    """Units of the steps (`1 step`, `1 Schritt`, `1 case`)."""
    before_steps: frozenset[str]
    """Words before the number of steps (`in 5 steps`, `avancé de 1`)."""
    path: frozenset[str]
    reroll: frozenset[str]
    no_move: frozenset[str]
    filler: frozenset[str]
    """Words that carry no meaning between the numbers (`and`, `je`, `und`): skipped."""
    before_field: frozenset[str]
    """Words between a cross-out or move word and its field (`Kreuz auf 1/4`, `crossed out
    the field 6/4`, `je barre la case 1/4`): skipped there, where a field follows them."""
    player: frozenset[str]
    """Header keys naming the player (`Spielerin: Klara`)."""
    total: frozenset[str]
    """Header keys of the claimed score (`Gesamt: 335 Punkte`)."""
    points: frozenset[str]
    """Units a total may carry (`335 points`, `335 Punkte`, `335 pts`)."""
    columns: dict[str, frozenset[str]] = field(default_factory=dict)
    """A table's column names, by the record key they mean (`Würfel` -> dice)."""
    marks: frozenset[str] = frozenset()
    """Words that tell a record is written in this language (none shared with another)."""


def _w(text: str) -> frozenset[str]:
    """Words separated by `|` (a phrase may hold blanks)."""
    return frozenset(w.strip() for w in text.split("|") if w.strip())


EN: Final = Vocabulary(
    roll=_w("roll|rolls|rolled|round|throw|throws|threw|turn|go|r"),
    dice_words=_w("dice|rolled|roll|threw|got"),
    cross=_w(
        "cross|crossed|crosses|cross off|cross out|crossed off|crossed of|crossed out|cross-out"
        "|crossed-out"
        "|crosses out|crossing out|struck|struck out|strike|strike out"
    ),
    cross_after=_w("crossed|crossed out|struck out"),
    move_after=frozenset(),
    move=_w(
        "move|moves|moved|move to|moves to|moved to|to|went to|go to|goes to|walked to"
        "|walk to|ran to|run to|landed on|land on|ended on|end on|onto|into|went|walked"
        "|ran|landed|ended up|ended up on|ended up at"
    ),
    steps=_w("step|steps"),
    before_steps=_w("in|by"),
    path=_w("path|via|route"),
    reroll=_w(
        "reroll|re-roll|rerolled|re-rolled|forced reroll|forced re-roll|pass|passed|roll again"
        "|nothing to cross out|nothing to cross|no cross-out possible|no cross-out"
    ),
    no_move=_w(
        "no move|no move possible|stuck|game over|blocked|no moves|cannot move|can't move"
        "|no moves left|no move left|no more moves|end of game|end of the game"
    ),
    filler=_w("and|then|i|we|the|so"),
    before_field=_w("on|at|in|the|field|the field|square|the square|box|the box|number"),
    player=_w("player|name"),
    total=_w("total|score|points|final score|total score"),
    points=_w("points|point|pts|pt|p"),
    columns={
        "roll": _w("roll|round|no|nr|#|throw|turn"),
        "dice": _w("dice|die|rolled"),
        "cross": _w("cross|crossed|crossed out|cross-out|cross out|x"),
        "move": _w("move|moved|moved to|move to|to|destination|target|moves to"),
        "steps": _w("steps|step"),
        "path": _w("path|route|via"),
        "reroll": _w("reroll"),
        "ring": _w("ring"),
        "ignored": _w("points|score|total|notes|note|comment|comments|value"),
    },
    marks=_w(
        "cross|crossed|move|moved|moves|step|steps|path|via|reroll|rerolled|forced|pass"
        "|room|field|player|name|score|escape|leave|stuck|none|ring|roll|rolled|round"
        "|throw|blocked"
    ),
)

DE: Final = Vocabulary(
    roll=_w("wurf|runde|zug|gewurfelt|wurfel"),
    dice_words=_w("wurfel|gewurfelt|augen|wurf"),
    cross=_w(
        "gestrichen|durchgestrichen|streiche|kreuz|kreuze|gekreuzt|angekreuzt|ausgestrichen"
        "|durchgekreuzt|streichen"
    ),
    cross_after=_w("gestrichen|durchgestrichen|gekreuzt|angekreuzt|durchgekreuzt|weg"),
    move_after=_w("gezogen|gegangen|gelaufen"),
    move=_w("nach|zug|ziehe|gezogen|gehe|gegangen|ziel|bis|auf|bis nach|bis zu|zu"),
    steps=_w("schritt|schritte|schritten|felder"),
    before_steps=_w("in|um"),
    path=_w("weg|pfad|uber"),
    reroll=_w(
        "neu gewurfelt|wurf wiederholt|neu wurfeln|neuwurf|neuer wurf|nochmal|nochmal wurfeln"
        "|passe|gepasst|wiederholt|nichts zu streichen|nichts streichbar|kein kreuz moglich"
    ),
    no_move=_w(
        "kein zug|kein zug moglich|blockiert|spielende|spiel vorbei|ende|kein schritt moglich"
        "|kein zug mehr|kein zug mehr moglich|nichts geht mehr|geht nicht mehr"
    ),
    filler=_w("und|dann|ich|danach|bei|habe|bin|mit"),
    before_field=_w("auf|bei|an|in|im|das|das feld|dem feld|feld|nummer"),
    player=_w("spieler|spielerin|name"),
    total=_w("summe|punkte|gesamt|gesamtpunkte|ergebnis|endstand|punktzahl|gesamtsumme"),
    points=_w("punkte|punkt|pkt|p"),
    columns={
        "roll": _w("wurf|runde|nr|zug"),
        "dice": _w("wurfel|augen"),
        "cross": _w("kreuz|gestrichen|durchgestrichen|streichen|x"),
        "move": _w("ziel|nach|zug nach|bewegung"),
        "steps": _w("schritte|schritt"),
        "path": _w("weg|pfad"),
        "reroll": _w("neuwurf|neu gewurfelt"),
        "ring": _w("ring"),
        "ignored": _w("punkte|wert|summe|notiz|bemerkung|anmerkung|kommentar"),
    },
    marks=_w(
        "gestrichen|durchgestrichen|streiche|nach|schritt|schritte|schritten|weg|gewurfelt"
        "|wurf|wiederholt|neu|raum|feld|spieler|summe|punkte|kein|zug|moglich|regeln"
        "|spielerin|kreuz|gesamt|runde|wurfeln|neuwurf|ziel|blockiert"
    ),
)

FR: Final = Vocabulary(
    roll=_w("lancer|lance|tour|coup|jet|des"),
    dice_words=_w("des|lance|ai|obtenu|fait"),
    cross=_w("barre|barree|barrer|barres|je barre|croix|raye|rayee|rayer|coche|cochee"),
    cross_after=_w("barre|barree|raye|rayee|coche|cochee"),
    move_after=_w("atteinte|atteint"),
    move=_w(
        "vers|deplacement|deplacement vers|vais|vais en|va|va en|vais a|avance|avancee"
        "|jusqu'a|jusqu'en|aller|alle|allee|arrive|arrivee|arrive en|arrive a|deplace"
        "|deplacement en|deplace en|avance en|avance jusqu'a|aller en|je vais a|va a"
        "|alle en|allee en|alle a|allee a|avance a|place|me place|place en|me place en"
    ),
    steps=_w("pas|case|cases"),
    before_steps=_w("en|de"),
    path=_w("chemin|par"),
    reroll=_w(
        "relance|relancer|on relance|je relance|nouveau lancer|relance forcee|passe"
        "|rien a barrer|aucune case a barrer"
    ),
    no_move=_w(
        "aucun deplacement|aucun deplacement possible|bloque|bloquee|fin de partie"
        "|fin du jeu|partie finie|partie terminee|je suis bloque|je suis bloquee"
        "|suis bloque|suis bloquee|plus de deplacement possible"
    ),
    filler=_w("je|on|et|puis|ensuite|a|ai|suis|me"),
    before_field=_w("la|la case|case|sur|sur la case|en|a|dans|dans la case|le|numero"),
    player=_w("joueur|joueuse|nom"),
    total=_w("total|score|points|score final|resultat|total final"),
    points=_w("points|point|pts|pt|p"),
    columns={
        "roll": _w("lancer|tour|no|n°|coup"),
        "dice": _w("des"),
        "cross": _w("barre|barree|croix|x"),
        "move": _w("deplacement|destination|arrivee|vers"),
        "steps": _w("pas|cases"),
        "path": _w("chemin"),
        "reroll": _w("relance"),
        "ring": _w("anneau"),
        "ignored": _w("points|valeur|total|note|notes|remarque|commentaire"),
    },
    marks=_w(
        "barre|barree|barrer|vers|deplacement|pas|chemin|relance|case|joueur|nom|aucun"
        "|regles|lancer|joueuse|je|vais|avance|jusqu'a|bloque|tour"
    ),
)

SYNTAX: Final = frozenset(
    {"x", "reroll", "ring", "path", "none", "escape", "leave", "player", "claimed_score"}
)
"""The annotated form's own keywords (`x 3/4 -> 5/5 (2) path 3/5 4/5`, `reroll`, `ring`,
`-> escape`, `path none`) and header keys (`player:`, `claimed_score:`): syntax that
`dump` writes for a record in any language, so no evidence of one (docs/languages.md: a
record of numbers and signs has no language)."""

LANGUAGES: Final[dict[str, Vocabulary]] = {"en": EN, "de": DE, "fr": FR}
"""The tables by language code; the order is the order of the catalogs."""

COMMON_CROSS: Final = frozenset({"x", "×"})  # noqa: RUF001 - the sign players use for a cross
CROSS_MARKS: Final = frozenset({"\u2717", "\u2718"})
"""Ballot crosses a player writes after the field crossed out (`6/4 \u2717`)."""
COMMON_NO_MOVE: Final = frozenset({"none", "-", "—", "–"})  # noqa: RUF001 - dashes as typed
COMMON_EXITS: Final = frozenset(EXITS)  # the engine's names, the same in every language
EXIT_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(("escape", "escaped", "escapes"), "escape"),
    **dict.fromkeys(("leave", "left", "leaves"), "leave"),
}
"""Words of a typed record for the two exits (Escape!, In and Out!) -> the exit."""
ORDINAL_SUFFIXES: Final = frozenset({"st", "nd", "rd", "th", "er", "re", "e", "eme", "ere"})
"""What may follow a roll number written as an ordinal: `1st`, `1er`, `2e`, `2ème`."""


def union(attribute: str) -> frozenset[str]:
    """One kind of word of every language together (`union("cross")`)."""
    words: set[str] = set()
    for vocabulary in LANGUAGES.values():
        value = getattr(vocabulary, attribute)
        assert isinstance(value, frozenset)
        words |= value
    return frozenset(words)


DIE_COLUMNS: Final = frozenset({"die", "wurfel", "de", "d"})
"""A table's name for one of three die columns, before its number: `Die 1`, `Würfel 2`,
`Dé 3`, `d1` (the three together are the dice)."""

IGNORED: Final = "ignored"
"""The key of a table's columns that hold nothing a record needs (`Points`, `Notes`)."""


def column_names(*, ignored: bool = False) -> dict[str, str]:
    """Every language's column names -> the record key they mean; with `ignored`, also
    the names of columns a typed table may hold beside them (-> IGNORED)."""
    names: dict[str, str] = {}
    for vocabulary in LANGUAGES.values():
        for key, words in vocabulary.columns.items():
            if key != IGNORED or ignored:
                for word in words:
                    names.setdefault(word, key)
    return names
