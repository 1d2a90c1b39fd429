"""Ishtar: Gardens of Babylon — the rules engine (pure Python, standard library only).

The import surface below is the contract with the server, bots and clients
(docs/games/ishtar/contract.md). States are immutable by convention: ``apply`` returns a new state.
"""

from __future__ import annotations

from engine.ishtar.catalogue import catalogue
from engine.ishtar.codec import decode_action, decode_state, encode_action, encode_state
from engine.ishtar.components import GAME, PLAYERS, TITLE
from engine.ishtar.errors import IllegalAction, MalformedAction
from engine.ishtar.game import (
    apply,
    current_player,
    is_over,
    legal_actions,
    replay,
    why_illegal,
)
from engine.ishtar.layout import LayoutError
from engine.ishtar.narration import narrate, preview
from engine.ishtar.previews import forget_legal, legal_json, legal_with_previews
from engine.ishtar.sampling import sample_state
from engine.ishtar.scoring import final_scores
from engine.ishtar.setup import check_options, new_game, public_setup
from engine.ishtar.state import Action, State, shared_parts
from engine.ishtar.upgrade import upgrade_options
from engine.ishtar.views import view_for
from engine.ishtar.words import english, messages

ENGINE_VERSION = "1.5.0"
"""1.1.0: undo (state format 2; a turn with something to undo waits for ``end``).
1.2.0: a turn ends only with ``end`` (a 1.1.0 game's turn that ended by itself after a
reveal lacks that move); a placement's preview and log line say a lost assistant.
1.3.0: editions of the component data (option ``edition``, ``State.edition``, the view's
``edition``, the state's ``"edition"``): a game keeps the numbers it began with; games,
states and records that name none are of edition "1".
1.4.0: edition 3, the default of new games (tree cards worth their gems, skills B and E with
a limit: ``tree_vp_bonus``, ``skill_b_max``, ``skill_e_vp``, ``skill_e_max``); a set-up that
names no edition replays as edition "1", not as the default.
1.5.0: edition 4, the default of new games (skill B at most 10 VP, skill C 3 VP a fountain,
skill E at most 8 VP); nothing else changes."""

__all__ = [
    "ENGINE_VERSION",
    "GAME",
    "PLAYERS",
    "TITLE",
    "Action",
    "IllegalAction",
    "LayoutError",
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
    "forget_legal",
    "is_over",
    "legal_actions",
    "legal_json",
    "legal_with_previews",
    "messages",
    "narrate",
    "new_game",
    "preview",
    "public_setup",
    "replay",
    "sample_state",
    "shared_parts",
    "upgrade_options",
    "view_for",
    "why_illegal",
]
