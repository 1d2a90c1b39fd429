"""Ishtar: Gardens of Babylon on this server: its descriptor, its options form and the
reading of its oldest records (engine/ishtar/, bots/ishtar/, docs/games/ishtar/)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

import bots.ishtar as ishtar_bots
import engine.ishtar as ishtar_engine
from app.games import SEAT, Game, LegacySetup, Options, labelled
from engine.ishtar.editions import DEFAULT

ISHTAR_EDITIONS: dict[str, str] = {
    "4": "Recommended (balanced)",
    "1": "Classic numbers",
    "2": "First retuning (2026)",
    "3": "Second retuning (2026)",
}
"""The editions of Ishtar's component data (engine.ishtar.editions), the default first, as
the form names them (the default value is the engine's, `DEFAULT`); the engine's
`check_options` refuses a name it does not have."""


class IshtarOptions(Options):
    """Ishtar's options: the board layout, a fixed first seat and the edition of the
    components (a new room gets the engine's default, edition 4; `turn_end` is not offered:
    new rooms end turns with `end`)."""

    layout: Literal["preset", "random"] = Field(
        "preset",
        title="Board layout",
        description="The rulebook's layout, or boards drawn at random.",
    )
    first_player: int | None = Field(
        None,
        ge=0,
        le=3,
        title="First player",
        description="A seat number, or none for a random draw.",
        json_schema_extra=SEAT,
    )
    edition: str = Field(
        DEFAULT,
        title="Edition",
        description="The numbers of the tiles, tree cards and skills: recommended, tuned "
        "so every seat has a fair chance, or the classic numbers the first games used.",
        json_schema_extra=labelled(ISHTAR_EDITIONS),
    )


def _ishtar_legacy_setup(record: Mapping[str, Any]) -> LegacySetup:
    """Formats 1 and 2: the options at the top of the set-up, the drawn layout beside it."""
    setup = record.get("setup")
    setup = setup if isinstance(setup, Mapping) else {}
    options = {
        "layout": setup.get("layout") or "preset",
        "first_player": setup.get("first_player"),
    }
    drawn = record.get("layout")
    return options, None if drawn is None else {"layout": drawn}


DESCRIPTOR = Game(
    engine=ishtar_engine,
    options=IshtarOptions,
    bots=ishtar_bots.LEVELS,
    think=ishtar_bots.think,
    client="games/ishtar/screen.js",
    summary=(
        "Lay vegetation tiles around the fountains, gather gems, train your assistants "
        "and plant the King's trees. Two to four players, live in the browser."
    ),
    legacy_setup=_ishtar_legacy_setup,
    upgrade_options=ishtar_engine.upgrade_options,
    # the bots' value of a position: a decision's candidates compared on rollouts cut
    # short 8 moves on (half the cost of whole ones, at a few more of the bots' own moves
    # marked; docs/analysis.md, "Cost"); a draw's luck without rollouts at a depth with
    # `luck_value` (not Ishtar's default: it separates the bots no better)
    value=ishtar_bots.value,
    analysis={"horizon": 8},
)
