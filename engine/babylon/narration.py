"""`preview` and `narrate`: what a legal action would do (for the seat's client), and an
action in words for the log, both from the state before it."""

from __future__ import annotations

from typing import Any

from engine.babylon.components import SLOTS, TILES
from engine.babylon.game import filled_on_path, path_end
from engine.babylon.scoreboards import board_of
from engine.babylon.scoring import score_board, seat_name, total
from engine.babylon.state import Action, State


def harvest_winks(state: State) -> list[dict[str, Any]]:
    """The winks the harvest would give the seat to act, with their slots (R-11: no more
    than the scoreboard holds)."""
    winks = state.winks[state.current]
    out: list[dict[str, Any]] = []
    for at in filled_on_path(state):
        if len(winks) + len(out) >= SLOTS:
            break
        colour = TILES[state.tiles[state.index(at)]].colour
        out.append(
            {"colour": colour, "slot": len(winks) + len(out) + 1, "at": list(at)}
        )
    return out


def preview(state: State, action: Action) -> dict[str, Any]:
    """What `action` would do: an irrigation step's gems and whether it fills the tile, the
    harvest's winks and points, the tile an undo takes back, a scoreboard side's board."""
    if action.type == "irrigate" and action.at is not None:
        i = state.index(action.at)
        tile = TILES[state.tiles[i]]
        gems = state.gems[i] + 1
        return {
            "gems": gems,
            "flowers": tile.flowers,
            "fills": gems == tile.flowers,
            "colour": tile.colour,
        }
    if action.type == "harvest":
        seat = state.current
        winks = harvest_winks(state)
        side, before = state.sides[seat], state.winks[seat]
        after = (*before, *(w["colour"] for w in winks))
        return {
            "winks": [{"colour": w["colour"], "slot": w["slot"]} for w in winks],
            "points": total(side, after) - total(side, before),
            "ends": len(after) >= SLOTS,
            "score": score_board(side, after),
        }
    if action.type == "undo":
        return {"at": list(path_end(state))}
    if action.type == "scoreboard" and action.side:
        return {"side": action.side, "board": board_of(action.side)}
    return {}


def _tile_words(state: State, at: tuple[int, int]) -> str:
    tile = TILES[state.tiles[state.index(at)]]
    flowers = "1 flower" if tile.flowers == 1 else f"{tile.flowers} flowers"
    return f"the {tile.colour} tile of {flowers}"


def narrate(state: State, action: Action) -> str:
    """The action in words, e.g. "Blue waters the red tile of 3 flowers (2 of 3)"."""
    who = seat_name(state.current)
    if action.type == "scoreboard":
        return f"{who} takes scoreboard {action.side}."
    if action.type == "irrigate" and action.at is not None:
        p = preview(state, action)
        filled = ": filled" if p["fills"] else ""
        return (
            f"{who} waters {_tile_words(state, action.at)} "
            f"({p['gems']} of {p['flowers']}){filled}."
        )
    if action.type == "undo":
        return f"{who} takes back the last step, onto {_tile_words(state, path_end(state))}."
    if action.type == "harvest":
        p = preview(state, action)
        length = len(state.path)
        steps = "1 tile" if length == 1 else f"{length} tiles"
        if not p["winks"]:
            return f"{who} waters a path of {steps}; nothing is filled."
        colours = ", ".join(w["colour"] for w in p["winks"])
        count = len(p["winks"])
        tiles = "1 tile" if count == 1 else f"{count} tiles"
        points = p["points"]
        sign = "+" if points >= 0 else ""
        text = f"{who} harvests {tiles} ({colours}) along a path of {steps}: {sign}{points} points."
        if p["ends"]:
            text += f" {who}'s scoreboard is full: the game is over."
        return text
    return f"{who} plays {action.type}."
