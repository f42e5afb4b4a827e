"""The keys that play a choice on the screen: used by the tests, the benchmark and the
screenshot tool to play games the way a player types them."""

from __future__ import annotations

from validator.engine import Cross
from validator.tui.game import GameSession, Option


def keys_for(game: GameSession, cross: Cross, option: Option) -> list[str]:
    """Type the cross-out, type the field, cycle to the option's walk, confirm."""
    keys = [str(cross.field.row), str(cross.field.col)]
    if option.kind == "stuck" or option.target is None:
        return [*keys, "enter"]
    same = [o for o in game.options(cross) if o.target == option.target]
    keys += [str(option.target.row), str(option.target.col)]
    keys += ["w"] * same.index(option)
    return [*keys, "enter"]
