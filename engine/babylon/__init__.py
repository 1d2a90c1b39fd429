"""Babylon Gardens (Gustavo Bazerque, 2014) — the rules engine (pure Python, standard
library only).

The import surface below is the platform contract (docs/contract.md) with the game's own
shapes (docs/games/babylon/contract.md). States are immutable: ``apply`` returns a new one.
"""

from __future__ import annotations

from engine.babylon.catalogue import catalogue
from engine.babylon.codec import (
    decode_action,
    decode_state,
    encode_action,
    encode_state,
)
from engine.babylon.components import GAME, TITLE
from engine.babylon.errors import IllegalAction, MalformedAction
from engine.babylon.game import (
    apply,
    current_player,
    is_over,
    legal_actions,
    replay,
    why_illegal,
)
from engine.babylon.narration import narrate, preview
from engine.babylon.sampling import sample_state
from engine.babylon.scoring import final_scores
from engine.babylon.setup import PLAYERS, check_options, new_game, public_setup
from engine.babylon.state import Action, State
from engine.babylon.views import view_for
from engine.babylon.words import english, messages

ENGINE_VERSION = "1.0.0"

__all__ = [
    "ENGINE_VERSION",
    "GAME",
    "PLAYERS",
    "TITLE",
    "Action",
    "IllegalAction",
    "MalformedAction",
    "State",
    "apply",
    "catalogue",
    "check_options",
    "current_player",
    "decode_action",
    "decode_state",
    "encode_action",
    "encode_state",
    "english",
    "final_scores",
    "is_over",
    "legal_actions",
    "messages",
    "narrate",
    "new_game",
    "preview",
    "public_setup",
    "replay",
    "sample_state",
    "view_for",
    "why_illegal",
]
