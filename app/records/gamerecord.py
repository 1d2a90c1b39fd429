"""The game record: a versioned JSON document of one game, and how to check one by replaying.

A record holds what is needed to replay the game and to verify its shuffle (docs/records.md):
the game, the players (names, colours), the set-up given to the engine (players and
options) and what it drew in public (the engine's `public_setup`), the
SHA-256 commitment of the seed published at the start, the seed itself once the game is
over, every move of the log with its line of text, and the final scores. Checking a record
re-runs the set-up from the seed, compares the commitment, and replays every move with the
engine, comparing the log lines and the scores: a record that passes is the game that was
played, whoever stored it. This module is pure: no database, no HTTP.

Records of format 1 and 2 came from before rooms had games, written by the one game there
was in its own shape; they are read as format 3 through that game's `legacy_setup`
(its descriptor, games/ishtar.py), and still verify.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.games import AnyGame, Registry
from app.play.protocol import msg
from app.play.rules import A, Rules, S

RECORD_FORMAT = "ishtar-online/record"
RECORD_VERSION = 3
"""3: the set-up's ``options`` and ``public_setup`` (any game); 2 adds the server's
`signature` (app/records/signing.py); 1 is 2 unsigned."""
READABLE_VERSIONS = (1, 2, 3)
LEGACY_VERSIONS = (1, 2)
STATUSES = ("playing", "finished")
SEED_DIGITS = re.compile(r"0|[1-9][0-9]{0,18}")
"""A seed's one spelling: decimal, no sign, no leading zero (then at most 2**63 - 1)."""
MAX_SEED = 2**63 - 1
MAX_MOVES = 5000
"""More moves than any game has (about 300 steps, plus undos): a bound on the replay's work."""


class RecordError(ValueError):
    """A record that cannot be read or does not replay; `reason` says why, for people, and
    `message` (when given) is that reason as a message for the reader's language."""

    def __init__(self, reason: str, message: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.message = message


def seed_commitment(seed: int | str) -> str:
    """SHA-256 (hex) of the seed string, the seed written in decimal ASCII digits.

    Records and the room status carry the seed as that string (``"42"``, not ``42``): seeds
    have 63 bits, more than a JSON number keeps exactly in a browser.

    >>> seed_commitment(42)
    '73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049'
    """
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def build_record(
    game: AnyGame,
    *,
    room_id: str,
    engine_version: str,
    players: Sequence[Mapping[str, Any]],
    setup: Mapping[str, Any],
    seed: int,
    moves: Sequence[Mapping[str, Any]],
    started_at: str | None,
    finished_at: str | None,
    public_setup: Mapping[str, Any],
    result: Any,
) -> dict[str, Any]:
    """The record of a game; the seed is written only when the game is over."""
    finished = finished_at is not None
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_VERSION,
        "game": game.id,
        "engine_version": engine_version,
        "room_id": room_id,
        "status": "finished" if finished else "playing",
        "players": [dict(p) for p in players],
        "setup": {"players": setup["players"], "options": dict(setup["options"])},
        "public_setup": dict(public_setup),
        "seed_sha256": seed_commitment(seed),
        "seed": str(seed) if finished else None,
        "version": len(moves),
        "moves": [dict(m) for m in moves],
        "result": result if finished else None,
        "started_at": started_at,
        "finished_at": finished_at,
    }


@dataclass
class Replayed:
    """A record checked by replaying it: the state after every move (index = version)."""

    record: dict[str, Any]
    game: AnyGame
    states: list[Any]
    warnings: list[str] = field(default_factory=list)


def check_record(
    registry: Registry, record: Any, *, require_seed: bool = True
) -> Replayed:
    """Replay ``record`` with its game's engine; RecordError with the first thing wrong."""
    if not isinstance(record, dict):
        raise RecordError(
            "A game record is a JSON object.", msg("error.bad_record.not_object")
        )
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"This is not a game record: its format is not {RECORD_FORMAT!r}.",
            msg("error.bad_record.not_a_record"),
        )
    version = record.get("format_version")
    if version not in READABLE_VERSIONS:
        raise RecordError(
            f"Record format version {version!r} is not supported "
            f"(this server reads {', '.join(map(str, READABLE_VERSIONS))})."
        )
    kind = record.get("game")
    if not isinstance(kind, str) or kind not in registry:
        names = ", ".join(repr(g.id) for g in registry)
        shown = kind[:40] if isinstance(kind, str) else kind
        raise RecordError(
            f"This is a record of {shown!r}, a game this server does not play"
            f" (it plays {names}).",
            msg("error.bad_record.unknown_game", game=str(shown), games=names),
        )
    game = registry.get(kind)
    rules = game.rules
    warnings = []
    engine_version = rules.ENGINE_VERSION
    if record.get("engine_version") != engine_version:
        warnings.append(
            f"The game was played with engine {record.get('engine_version')!r}; "
            f"it is replayed with engine {engine_version!r}."
        )
    status = record.get("status")
    if status not in STATUSES:
        raise RecordError("The record's status must be 'playing' or 'finished'.")
    setup = _setup(game, record, version)
    _players(record, setup["players"])
    seed = record.get("seed")
    if seed is None:
        if require_seed:
            raise RecordError(
                "This record has no seed: the game was still in progress when it was "
                "exported, and the seed is revealed only at the end. Export it again "
                "once the game is over.",
                msg("error.bad_record.no_seed_yet"),
            )
        raise RecordError(
            "Without its seed a record cannot be replayed.",
            msg("error.bad_record.no_seed"),
        )
    if (
        not isinstance(seed, str)
        or not SEED_DIGITS.fullmatch(seed)
        or int(seed) > MAX_SEED
    ):
        raise RecordError(
            "The seed must be a string of decimal digits without leading zeros, "
            f"from 0 to {MAX_SEED} (the one spelling the commitment is made of)."
        )
    if record.get("seed_sha256") != seed_commitment(seed):
        raise RecordError(
            "The seed does not match the SHA-256 commitment published at the start "
            f"(sha256({seed}) = {seed_commitment(seed)}, the record says "
            f"{record.get('seed_sha256')!r}).",
            msg("error.bad_record.commitment"),
        )
    if status == "finished" and not record.get("finished_at"):
        warnings.append("The record is finished but has no finishing time.")
    same_engine = record.get("engine_version") == engine_version
    states = _replay(rules, record, setup, int(seed), same_engine, warnings)
    return Replayed(record=record, game=game, states=states, warnings=warnings)


def _setup(game: AnyGame, record: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The set-up: players, options checked by the game, and the public set-up to match."""
    setup = record.get("setup")
    if not isinstance(setup, dict):
        raise RecordError("The record has no set-up.")
    players = setup.get("players")
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not 1 <= players <= 8
    ):
        raise RecordError("The set-up must say how many players there are.")
    options: Any
    public: Any
    if version in LEGACY_VERSIONS:
        if game.legacy_setup is None:
            raise RecordError(f"Records of {game.title} have format 3 or later.")
        options, public = game.legacy_setup(record)
    else:
        options = setup.get("options")
        public = record.get("public_setup")
    if not isinstance(options, dict):
        raise RecordError("The set-up's options must be a JSON object.")
    if game.upgrade_options is not None:
        options = game.upgrade_options(options, record.get("engine_version"))
    try:
        checked = game.rules.check_options(players, options)
    except game.rules.IllegalAction as error:
        reason = error.reason or str(error)
        raise RecordError(f"The set-up's options are refused: {reason}") from None
    except ValueError as error:
        raise RecordError(f"The set-up's options are refused: {error}") from None
    if public is not None and not isinstance(public, dict):
        raise RecordError("The record's public set-up must be a JSON object.")
    return {"players": players, "options": checked, "public": public}


def record_setup(registry: Registry, record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's game, players and checked options (``{"game", "players", "options"}``),
    whatever its format version; RecordError if they cannot be read."""
    kind = record.get("game")
    if not isinstance(kind, str) or kind not in registry:
        raise RecordError("The record names no game of this server.")
    version = record.get("format_version")
    if version not in READABLE_VERSIONS:
        raise RecordError(f"Record format version {version!r} is not supported.")
    setup = _setup(registry.get(kind), record, version)
    return {"game": kind, "players": setup["players"], "options": setup["options"]}


def _players(record: Mapping[str, Any], count: int) -> None:
    players = record.get("players")
    if not isinstance(players, list) or len(players) != count:
        raise RecordError(f"The record must list the {count} players.")
    for number, player in enumerate(players):
        if not isinstance(player, dict) or player.get("seat") != number:
            raise RecordError(f"Player {number} of the record is not seat {number}.")
        name = player.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 64:
            raise RecordError(f"Seat {number} has no name.")


def _replay(
    rules: Rules[Any, Any],
    record: Mapping[str, Any],
    setup: Mapping[str, Any],
    seed: int,
    same_engine: bool,
    warnings: list[str],
) -> list[Any]:
    try:
        state = rules.new_game(setup["players"], seed, setup["options"])
    except (ValueError, TypeError, KeyError) as error:
        raise RecordError(f"The set-up cannot be re-run: {error}") from None
    public = setup["public"]
    if public is not None:
        drawn = rules.public_setup(state)
        for key, value in public.items():
            if drawn.get(key) != value:
                raise RecordError(
                    f"The public set-up's {str(key)[:40]!r} is not what the set-up "
                    "draws from the record's seed."
                )
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("The record has no list of moves.")
    if len(moves) > MAX_MOVES:
        raise RecordError(f"A record of more than {MAX_MOVES} moves is not accepted.")
    if record.get("version") != len(moves):
        raise RecordError(
            f"The record says version {record.get('version')!r} but has {len(moves)} moves."
        )
    states = [state]
    for seq, move in enumerate(moves, start=1):
        state, text = _step(rules, state, seq, move)
        if "text" in move and move["text"] != text:
            message = (
                f"Move {seq}: the log says {move['text']!r}, the replay says {text!r}."
            )
            if same_engine:
                raise RecordError(
                    message, msg("error.bad_record.log_differs", move=seq)
                )
            if not any(w.startswith("Log lines") for w in warnings):
                warnings.append(
                    f"Log lines differ from this engine's words from move {seq} on "
                    "(another engine version); the moves themselves replay."
                )
        states.append(state)
    over = bool(rules.is_over(state))
    if record.get("status") == "finished":
        if not over:
            raise RecordError(
                "The record says the game is over, but its moves do not end it.",
                msg("error.bad_record.not_over"),
            )
        if record.get("result") != rules.final_scores(state):
            raise RecordError(
                "The final scores of the record are not those of the replay.",
                msg("error.bad_record.scores"),
            )
    elif over:
        raise RecordError(
            "The record says the game is in progress, but its moves end it.",
            msg("error.bad_record.over"),
        )
    return states


def _step(rules: Rules[S, A], state: S, seq: int, move: Any) -> tuple[S, str]:
    """The state after a logged move, and the engine's line for it."""
    if not isinstance(move, dict) or move.get("seq") != seq:
        raise RecordError(f"Move {seq} is missing or out of order.")
    if move.get("seat") != rules.current_player(state):
        raise RecordError(
            f"Move {seq} is played by seat {move.get('seat')!r}, but it was seat "
            f"{rules.current_player(state)!r}'s turn."
        )
    try:
        action = rules.decode_action(move.get("action"))
        # Legality first: the narration reads the state as the action names it (pile 99,
        # card 999), so only a legal action may be narrated.
        after = rules.apply(state, action)
    except rules.IllegalAction as error:
        reason = error.reason or str(error)
        raise RecordError(f"Move {seq} is not legal: {reason}.") from None
    except ValueError as error:
        raise RecordError(f"Move {seq} is not legal: {error}.") from None
    return after, rules.english(rules.narrate(state, action))
