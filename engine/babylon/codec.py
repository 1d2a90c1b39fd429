"""JSON codec for states and actions, with a format version.

``encode_state`` keeps everything, the piles' order and the seed included: it is for the
server's storage only; players get ``view_for``. Positions are written ``[row, col]``.
``decode_state`` checks what it reads (a stored state is external input too): tiles that
exist, each tile exactly once, positions of the floor, counts in range.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.babylon.components import NECTAR, SLOTS, TILES
from engine.babylon.errors import MalformedAction
from engine.babylon.floors import FLOOR_IDS, Pos, floor
from engine.babylon.scoreboards import SIDES
from engine.babylon.setup import check_options
from engine.babylon.state import ACTION_TYPES, PHASES, Action, Draw, Harvested, State

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
        raise MalformedAction("An action is a JSON object with a 'type'.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        shown = kind[:20] if isinstance(kind, str) else kind
        raise MalformedAction(
            f"There is no action {shown!r} in Babylon Gardens "
            "(scoreboard, irrigate, harvest, undo)."
        )
    extra = sorted(set(data) - {"type", *_FIELDS[kind]})
    if extra:
        raise MalformedAction(f"A {kind} action has no field {extra[0][:20]!r}.")
    if kind == "irrigate":
        at = data.get("at")
        if (
            not isinstance(at, list)
            or len(at) != 2
            or not all(_int(v) and 0 <= v < MAX_COORD for v in at)
        ):
            raise MalformedAction("'at' is a tile's position [row, column].")
        return Action("irrigate", at=(at[0], at[1]))
    if kind == "scoreboard":
        side = data.get("side")
        if not isinstance(side, str) or len(side) > 8:
            raise MalformedAction("'side' names a scoreboard side, such as 'C2'.")
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


def decode_state(data: dict[str, Any]) -> State:
    """A state from `encode_state`'s JSON; ValueError if it is not one."""
    try:
        return _decode(data)
    except (_Bad, KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"not a Babylon Gardens state: {error}") from None


def _decode(data: dict[str, Any]) -> State:
    _check(isinstance(data, dict) and data.get("format") in READABLE_FORMATS, "format")
    players = data["players"]
    _check(_int(players) and 2 <= players <= 4, "players")
    options = check_options(players, data["options"])
    _check(data["floor"] in FLOOR_IDS and data["floor"] == options["floor"], "floor")
    the_floor = floor(data["floor"])
    tiles = tuple(data["tiles"])
    gems = tuple(data["gems"])
    _check(len(tiles) == len(the_floor.spaces) == len(gems), "floor size")
    for at, tile_id, n in zip(the_floor.spaces, tiles, gems, strict=True):
        _check(tile_id in TILES and TILES[tile_id].kind == the_floor.kinds[at], "tile")
        _check(_int(n) and 0 <= n <= TILES[tile_id].flowers, "gems")
    piles = (tuple(data["piles"]["single"]), tuple(data["piles"]["multi"]))
    discards = (tuple(data["discards"]["single"]), tuple(data["discards"]["multi"]))
    every = Counter([*tiles, *piles[0], *piles[1], *discards[0], *discards[1]])
    _check(every == Counter(list(TILES)), "every tile exactly once")
    for k, kind in enumerate(("single", "multi")):
        _check(
            all(TILES[t].kind == kind for t in (*piles[k], *discards[k])), "pile kind"
        )
    sides = tuple(data["sides"])
    _check(
        len(sides) == players and all(s is None or s in SIDES for s in sides), "sides"
    )
    winks = tuple(tuple(w) for w in data["winks"])
    _check(len(winks) == players, "winks")
    _check(all(len(w) <= SLOTS and all(c in NECTAR for c in w) for w in winks), "winks")
    phase = data["phase"]
    _check(phase in PHASES, "phase")
    current, turn, first = data["current"], data["turn"], data["first_player"]
    _check(_int(current) and 0 <= current < players, "current")
    _check(_int(first) and 0 <= first < players, "first player")
    _check(_int(turn) and turn >= 0, "turn")
    path = tuple(_pos(p) for p in data["path"])
    _check(
        all(p in the_floor.kinds for p in path) and len(set(path)) == len(path), "path"
    )
    draws = tuple(
        Draw(seat, tile, rnd)
        for seat, tile, rnd in data["draws"]
        if _int(seat) and tile in TILES and _int(rnd)
    )
    _check(len(draws) == len(data["draws"]), "draws")
    harvested = tuple(
        Harvested(_pos(at), tile, colour, slot, seat, by)
        for at, tile, colour, slot, seat, by in data["harvested"]
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
