"""JSON codec for states and actions, with a format version.

``encode_state`` keeps everything, the piles' order and the seed included: it is for the
server's storage only; players get ``view_for``. Positions are written ``[row, col]``.
``decode_state`` checks what it reads (a stored state is external input too): tiles that
exist, each tile exactly once, positions of the floor, counts in range.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.babylon.components import KINDS, NECTAR, SLOTS, TILES
from engine.babylon.errors import MalformedAction
from engine.babylon.floors import FLOOR_IDS, Pos, floor
from engine.babylon.scoreboards import SIDES, board_of
from engine.babylon.setup import check_options
from engine.babylon.state import ACTION_TYPES, PHASES, Action, Draw, Harvested, State
from engine.babylon.words import refusal

STATE_FORMAT = 1
READABLE_FORMATS = (1,)

_FIELDS: dict[str, tuple[str, ...]] = {
    "scoreboard": ("side",),
    "irrigate": ("at",),
    "harvest": (),
    "undo": (),
}
assert tuple(_FIELDS) == ACTION_TYPES

MAX_COORD = 64
"""Positions beyond any floor are refused as malformed, not looked up."""


def encode_action(action: Action) -> dict[str, Any]:
    """An action as its JSON dict (docs/games/babylon/contract.md)."""
    out: dict[str, Any] = {"type": action.type}
    if action.type == "irrigate":
        assert action.at is not None
        out["at"] = [action.at[0], action.at[1]]
    elif action.type == "scoreboard":
        out["side"] = action.side
    return out


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def decode_action(data: Any) -> Action:
    """An action from JSON; `MalformedAction` for anything that is not an action of this game."""
    if not isinstance(data, dict):
        raise MalformedAction(refusal("malformed.object"))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        shown = kind[:20] if isinstance(kind, str) else kind
        raise MalformedAction(refusal("malformed.type", action=repr(shown)[:22]))
    allowed = {"type", *_FIELDS[kind]}
    extra = sorted(str(key)[:20] for key in data if key not in allowed)
    if extra:
        raise MalformedAction(
            refusal("malformed.field", type=kind, field=repr(extra[0]))
        )
    if kind == "irrigate":
        at = data.get("at")
        if (
            not isinstance(at, list)
            or len(at) != 2
            or not all(_int(v) and 0 <= v < MAX_COORD for v in at)
        ):
            raise MalformedAction(refusal("malformed.at"))
        return Action("irrigate", at=(at[0], at[1]))
    if kind == "scoreboard":
        side = data.get("side")
        if not isinstance(side, str) or len(side) > 8:
            raise MalformedAction(refusal("malformed.side"))
        return Action("scoreboard", side=side)
    return Action(kind)


def encode_state(state: State) -> dict[str, Any]:
    """Everything, hidden information included (storage only)."""
    return {
        "format": STATE_FORMAT,
        "players": state.players,
        "seed": state.seed,
        "options": dict(state.options),
        "floor": state.floor_id,
        "tiles": list(state.tiles),
        "gems": list(state.gems),
        "piles": {"single": list(state.piles[0]), "multi": list(state.piles[1])},
        "discards": {
            "single": list(state.discards[0]),
            "multi": list(state.discards[1]),
        },
        "sides": list(state.sides),
        "winks": [list(w) for w in state.winks],
        "phase": state.phase,
        "current": state.current,
        "turn": state.turn,
        "first_player": state.first_player,
        "draws": [[d.seat, d.tile, d.round] for d in state.draws],
        "path": [list(at) for at in state.path],
        "harvested": [
            [list(h.at), h.tile, h.colour, h.slot, h.seat, h.replaced_by]
            for h in state.harvested
        ],
        "reshuffles": state.reshuffles,
    }


class _Bad(ValueError):
    pass


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise _Bad(what)


def _pos(value: Any) -> Pos:
    _check(
        isinstance(value, list) and len(value) == 2 and all(_int(v) for v in value),
        "pos",
    )
    return (value[0], value[1])


def _strings(value: Any, what: str) -> tuple[str, ...]:
    _check(isinstance(value, list) and all(isinstance(v, str) for v in value), what)
    return tuple(value)


def decode_state(data: dict[str, Any]) -> State:
    """A state from `encode_state`'s JSON; ValueError if it is not one.

    A stored state is external input: beyond the types, it must be a position the rules can
    reach (each tile once, the sides on different boards, a path from the well, no filled
    tile left off the path while the game goes on, an end only on a full scoreboard)."""
    try:
        return _decode(data)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"not a Babylon Gardens state: {error}") from None


def _decode(data: dict[str, Any]) -> State:
    _check(isinstance(data, dict) and data.get("format") in READABLE_FORMATS, "format")
    players = data["players"]
    _check(_int(players) and 2 <= players <= 4, "players")
    _check(isinstance(data["options"], dict), "options")
    options = check_options(players, data["options"])
    _check(data["floor"] in FLOOR_IDS and data["floor"] == options["floor"], "floor")
    the_floor = floor(data["floor"])
    tiles = _strings(data["tiles"], "tiles")
    gems = tuple(data["gems"])
    _check(len(tiles) == len(the_floor.spaces) == len(gems), "floor size")
    for at, tile_id, n in zip(the_floor.spaces, tiles, gems, strict=True):
        _check(tile_id in TILES and TILES[tile_id].kind == the_floor.kinds[at], "tile")
        _check(_int(n) and 0 <= n <= TILES[tile_id].flowers, "gems")
    piles = (
        _strings(data["piles"]["single"], "piles"),
        _strings(data["piles"]["multi"], "piles"),
    )
    discards = (
        _strings(data["discards"]["single"], "discards"),
        _strings(data["discards"]["multi"], "discards"),
    )
    every = Counter([*tiles, *piles[0], *piles[1], *discards[0], *discards[1]])
    _check(every == Counter(list(TILES)), "every tile exactly once")
    for k, kind in enumerate(KINDS):
        _check(
            all(TILES[t].kind == kind for t in (*piles[k], *discards[k])), "pile kind"
        )
    phase = data["phase"]
    _check(phase in PHASES, "phase")
    current, turn, first = data["current"], data["turn"], data["first_player"]
    _check(_int(current) and 0 <= current < players, "current")
    _check(_int(first) and 0 <= first < players, "first player")
    _check(options["first_player"] in (None, first), "first player")
    _check(_int(turn) and turn >= (0 if phase == "scoreboard" else 1), "turn")
    sides = tuple(data["sides"])
    _check(len(sides) == players, "sides")
    _check(all(s is None or s in SIDES for s in sides), "sides")
    held = [board_of(s) for s in sides if s is not None]
    _check(len(set(held)) == len(held), "R-5: two seats on one board")
    if phase == "scoreboard":  # the seats before `current` have chosen, in order
        _check(options["scoreboards"] == "choose" and turn == 0, "scoreboard phase")
        _check(
            all((s is None) == (seat >= current) for seat, s in enumerate(sides)),
            "sides",
        )
    else:
        _check(None not in sides, "sides")
    winks = tuple(tuple(_strings(w, "winks")) for w in data["winks"])
    _check(len(winks) == players, "winks")
    _check(all(len(w) <= SLOTS and all(c in NECTAR for c in w) for w in winks), "winks")
    if phase == "over":  # the game ends on the 25th wink of the seat to act
        _check(len(winks[current]) == SLOTS, "over without a full scoreboard")
    else:
        _check(all(len(w) < SLOTS for w in winks), "a full scoreboard in play")
    path = tuple(_pos(p) for p in data["path"])
    _check(not path or phase == "irrigate", "path")
    _check(len(set(path)) == len(path), "path")
    for step, at in enumerate(
        path
    ):  # from the well, one orthogonal step at a time
        before = path[step - 1] if step else the_floor.well
        _check(at in the_floor.neighbours(before), "path")
        _check(gems[the_floor.spaces.index(at)] >= 1, "path")
    if (
        phase != "over"
    ):  # every filled tile is harvested in the turn that filled it
        on_path = set(path)
        _check(
            all(
                gems[i] < TILES[tiles[i]].flowers or at in on_path
                for i, at in enumerate(the_floor.spaces)
            ),
            "a filled tile off the path",
        )
    draws = tuple(_draw(d, players) for d in data["draws"])
    _check(bool(draws) == (options["first_player"] is None), "draws")
    harvested = tuple(
        _harvested(h, players, the_floor.kinds) for h in data["harvested"]
    )
    reshuffles = data["reshuffles"]
    _check(_int(reshuffles) and reshuffles >= 0, "reshuffles")
    seed = data["seed"]
    _check(_int(seed), "seed")
    return State(
        players=players,
        seed=seed,
        options=tuple(sorted(options.items())),
        floor_id=the_floor.id,
        tiles=tiles,
        gems=gems,
        piles=piles,
        discards=discards,
        sides=sides,
        winks=winks,
        phase=phase,
        current=current,
        turn=turn,
        first_player=first,
        draws=draws,
        path=path,
        harvested=harvested,
        reshuffles=reshuffles,
    )


def _draw(value: Any, players: int) -> Draw:
    _check(isinstance(value, list) and len(value) == 3, "draws")
    seat, tile, rnd = value
    _check(_int(seat) and 0 <= seat < players, "draws")
    _check(tile in TILES and TILES[tile].kind == "multi", "draws")
    _check(_int(rnd) and rnd >= 1, "draws")
    return Draw(seat, tile, rnd)


def _harvested(value: Any, players: int, spaces: Mapping[Pos, str]) -> Harvested:
    _check(isinstance(value, list) and len(value) == 6, "harvested")
    at, tile, colour, slot, seat, by = value
    at = _pos(at)
    _check(at in spaces and tile in TILES and by in TILES, "harvested")
    _check(colour == TILES[tile].colour, "harvested")
    _check(_int(slot) and 1 <= slot <= SLOTS, "harvested")
    _check(_int(seat) and 0 <= seat < players, "harvested")
    return Harvested(at, tile, colour, slot, seat, by)
