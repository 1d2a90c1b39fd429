"""`view_for`: what a seat (or a spectator) sees (spec §8). Only the order of the two piles
and the seed are hidden, so every audience gets the same view but for ``viewer``. The shape
is docs/games/babylon/contract.md's.

The view is built once per state and shared by every audience. It also shares its values
with the view of the state it came from (``apply`` links the new state to the old one while
the old one's view exists): an entry whose data did not change is the very same object, and
so is each unchanged tile and player. The server then serialises only what changed
(docs/contract.md). Every value of a view is read-only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.babylon.components import GAME, PLAYER_COLOURS, TILES
from engine.babylon.floors import Pos
from engine.babylon.scoring import final_scores, score_board, with_tiebreak_message
from engine.babylon.state import State

VIEW_FORMAT = 1


def _tile(at: Pos, tile_id: str, gems: int) -> dict[str, Any]:
    tile = TILES[tile_id]
    return {
        "at": [at[0], at[1]],
        "kind": tile.kind,
        "tile": tile.id,
        "colour": tile.colour,
        "flowers": tile.flowers,
        "gems": gems,
    }


def tiles_json(state: State, base: State | None = None) -> list[dict[str, Any]]:
    """Every tile on the floor, in reading order; the entries of `base`'s view are reused
    where the tile and its gems are the same."""
    spaces = state.floor.spaces
    if base is None:
        return [
            _tile(at, tile, gems)
            for at, tile, gems in zip(spaces, state.tiles, state.gems, strict=True)
        ]
    old: list[dict[str, Any]] = _shared(base)["tiles"]
    if state.tiles is base.tiles and state.gems is base.gems:
        return old
    return [
        old[i]
        if tile == base.tiles[i] and gems == base.gems[i]
        else _tile(spaces[i], tile, gems)
        for i, (tile, gems) in enumerate(zip(state.tiles, state.gems, strict=True))
    ]


@cache
def _floor_json(floor_id: str) -> dict[str, Any]:
    """A floor's entry: the same object in every game on that floor (six in all)."""
    from engine.babylon.floors import floor

    the_floor = floor(floor_id)
    return {
        "id": the_floor.id,
        "name": the_floor.name,
        "rows": the_floor.rows,
        "cols": the_floor.cols,
        "well": list(the_floor.well),
    }


def _player(state: State, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "colour": PLAYER_COLOURS[seat],
        "side": state.sides[seat],
        "winks": list(state.winks[seat]),
        "score": score_board(state.sides[seat], state.winks[seat]),
    }


def _players(state: State, base: State | None) -> list[dict[str, Any]]:
    if base is None:
        return [_player(state, seat) for seat in range(state.players)]
    old: list[dict[str, Any]] = _shared(base)["players"]
    if state.winks is base.winks and state.sides is base.sides:
        return old
    return [
        old[seat]
        if state.winks[seat] == base.winks[seat]
        and state.sides[seat] == base.sides[seat]
        else _player(state, seat)
        for seat in range(state.players)
    ]


def _reuse(base: State | None, key: str, same: bool, build: Any, state: State) -> Any:
    """`base`'s entry `key` when its data is the `same`, else a new one."""
    if base is not None and same:
        return _shared(base)[key]
    return build(state)


def _piles(state: State) -> dict[str, int]:
    return {"single": len(state.piles[0]), "multi": len(state.piles[1])}


def _discards(state: State) -> dict[str, list[str]]:
    return {"single": list(state.discards[0]), "multi": list(state.discards[1])}


def _draws(state: State) -> list[dict[str, Any]]:
    return [{"seat": d.seat, "tile": d.tile, "round": d.round} for d in state.draws]


def _teams(state: State) -> list[list[int]] | None:
    return [list(team) for team in state.teams] if state.teams else None


def _harvested(state: State) -> list[dict[str, Any]]:
    return [
        {
            "at": list(h.at),
            "tile": h.tile,
            "colour": h.colour,
            "slot": h.slot,
            "seat": h.seat,
            "replaced_by": h.replaced_by,
        }
        for h in state.harvested
    ]


def _shared(state: State) -> dict[str, Any]:
    """The view without its ``viewer``: one per state, shared by every audience."""
    memo = state._memo.get("view")
    if memo is not None:
        return memo  # type: ignore[no-any-return]
    base: State | None = state._memo.pop("base", None)
    if base is not None and "view" not in base._memo:
        base = None
    over = state.phase == "over"
    view = {
        "game": GAME,
        "format": VIEW_FORMAT,
        "phase": state.phase,
        "current": None if over else state.current,
        "turn": state.turn,
        "first_player": state.first_player,
        "floor": _floor_json(state.floor_id),
        "tiles": tiles_json(state, base),
        "path": [list(at) for at in state.path],
        "piles": _reuse(
            base,
            "piles",
            base is not None
            and [len(p) for p in base.piles] == [len(p) for p in state.piles],
            _piles,
            state,
        ),
        "discards": _reuse(
            base,
            "discards",
            base is not None and base.discards == state.discards,
            _discards,
            state,
        ),
        "draws": _reuse(
            base, "draws", base is not None and base.draws == state.draws, _draws, state
        ),
        "teams": _reuse(base, "teams", True, _teams, state),
        "harvested": _reuse(
            base,
            "harvested",
            base is not None and base.harvested == state.harvested,
            _harvested,
            state,
        ),
        "players": _players(state, base),
        # the final scores, with the tie-break as a message for the readers' languages
        "scores": with_tiebreak_message(final_scores(state)) if over else None,
    }
    state._memo["view"] = view
    return view


def view_for(state: State, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None: a spectator). Its values are shared between audiences and
    from one state to the next, and must be treated as read-only."""
    if seat is not None and not (
        isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < state.players
    ):
        raise ValueError(f"no seat {seat!r} in this game")
    return {"viewer": seat, **_shared(state)}
