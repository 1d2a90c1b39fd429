"""`view_for`: what a seat (or a spectator) sees (spec §8). Only the order of the two piles
and the seed are hidden, so every audience gets the same view but for ``viewer``. The shape
is docs/games/babylon/contract.md's.
"""

from __future__ import annotations

from typing import Any

from engine.babylon.components import GAME, PLAYER_COLOURS, TILES
from engine.babylon.scoring import final_scores, score_board
from engine.babylon.state import State

VIEW_FORMAT = 1


def tiles_json(state: State) -> list[dict[str, Any]]:
    """Every tile on the floor, in reading order."""
    out = []
    for at, tile_id, gems in zip(
        state.floor.spaces, state.tiles, state.gems, strict=True
    ):
        tile = TILES[tile_id]
        out.append(
            {
                "at": [at[0], at[1]],
                "kind": tile.kind,
                "tile": tile.id,
                "colour": tile.colour,
                "flowers": tile.flowers,
                "gems": gems,
            }
        )
    return out


def _shared(state: State) -> dict[str, Any]:
    """The view without its ``viewer``: one per state, shared by every audience."""
    memo = state._memo.get("view")
    if memo is not None:
        return memo  # type: ignore[no-any-return]
    the_floor = state.floor
    over = state.phase == "over"
    view = {
        "game": GAME,
        "format": VIEW_FORMAT,
        "phase": state.phase,
        "current": None if over else state.current,
        "turn": state.turn,
        "first_player": state.first_player,
        "floor": {
            "id": the_floor.id,
            "name": the_floor.name,
            "rows": the_floor.rows,
            "cols": the_floor.cols,
            "well": list(the_floor.well),
        },
        "tiles": tiles_json(state),
        "path": [list(at) for at in state.path],
        "piles": {"single": len(state.piles[0]), "multi": len(state.piles[1])},
        "discards": {
            "single": list(state.discards[0]),
            "multi": list(state.discards[1]),
        },
        "draws": [
            {"seat": d.seat, "tile": d.tile, "round": d.round} for d in state.draws
        ],
        "teams": [list(team) for team in state.teams] if state.teams else None,
        "harvested": [
            {
                "at": list(h.at),
                "tile": h.tile,
                "colour": h.colour,
                "slot": h.slot,
                "seat": h.seat,
                "replaced_by": h.replaced_by,
            }
            for h in state.harvested
        ],
        "players": [
            {
                "seat": seat,
                "colour": PLAYER_COLOURS[seat],
                "side": state.sides[seat],
                "winks": list(state.winks[seat]),
                "score": score_board(state.sides[seat], state.winks[seat]),
            }
            for seat in range(state.players)
        ],
        "scores": final_scores(state) if over else None,
    }
    state._memo["view"] = view
    return view


def view_for(state: State, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None: a spectator). Its values are shared between audiences and
    must be treated as read-only."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"no seat {seat!r} in this game")
    return {"viewer": seat, **_shared(state)}
