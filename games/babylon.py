"""Babylon Gardens on this server: its descriptor and its options form (engine/babylon/,
bots/babylon/, docs/games/babylon/)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

import bots.babylon as babylon_bots
import engine.babylon as babylon_engine
from app.games import SEAT, Game, Options, labelled


class BabylonOptions(Options):
    """Babylon Gardens' options (docs/games/babylon/contract.md): the floor, how the
    scoreboards are given out, team mode and a fixed first seat."""

    floor: Literal["lower", "middle", "higher", "roof", "ishtar", "tammuz"] = Field(
        "lower",
        title="Floor",
        description="Which garden to play: the Lower Garden is the rulebook's first game.",
        json_schema_extra=labelled(
            {
                "lower": "Lower Garden",
                "middle": "Middle Garden",
                "higher": "Higher Garden",
                "roof": "Roof Garden",
                "ishtar": "Ishtar's Garden",
                "tammuz": "Tammuz's Garden",
            }
        ),
    )
    scoreboards: Literal["random", "choose"] = Field(
        "random",
        title="Scoreboards",
        description="Dealt at random, or each player chooses one in turn.",
        json_schema_extra=labelled(
            {"random": "Dealt at random", "choose": "Chosen in turn"}
        ),
    )
    teams: bool = Field(
        False,
        title="Team mode",
        description="4 players only: the first and third seats against the second and fourth, their scores added.",
        json_schema_extra={"x-players": [4]},
    )
    first_player: int | None = Field(
        None,
        ge=0,
        le=3,
        title="First player",
        description="A seat number, or none for the rulebook's draw of multi-flower tiles.",
        json_schema_extra=SEAT,
    )


DESCRIPTOR = Game(
    engine=babylon_engine,
    options=BabylonOptions,
    bots=babylon_bots.LEVELS,
    think=babylon_bots.think,
    # its bots are cheap: a draw's luck looked at 32 moves ahead, 64 times, separates a
    # hard bot from a medium one in fewer games than the raw score (docs/analysis.md)
    analysis={"luck_samples": 64, "luck_plies": 32},
    client="games/babylon/screen.js",
    summary=(
        "Water the flower tiles from the well, harvest their nectar and fill your "
        "scoreboard in colours and lines. Two to four players, or two teams of two."
    ),
)
