"""`preview` and `narrate`: what a legal action would do (for the seat's client), and an
action in words for the log, both from the state before it. The log line is a message
(docs/i18n.md), which `english` words as the log has always said it."""

from __future__ import annotations

from typing import Any

from engine.babylon.components import SLOTS, TILES
from engine.babylon.game import filled_on_path, path_end
from engine.babylon.scoreboards import board_of
from engine.babylon.scoring import score_board, total
from engine.babylon.state import Action, State
from engine.babylon.words import log, series, word
from engine.messages import Message, seat


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


def _tile_words(state: State, at: tuple[int, int]) -> Message:
    tile = TILES[state.tiles[state.index(at)]]
    return word("tile", colour=tile.colour, flowers=tile.flowers)


def narrate(state: State, action: Action) -> Message:
    """The action in words for the log, as a message (``babylon.log.*``): in English,
    "Blue waters the red tile of 3 flowers (2 of 3)"."""
    who = seat(state.current)
    if action.type == "scoreboard":
        return log("scoreboard", seat=who, side=str(action.side))
    if action.type == "irrigate" and action.at is not None:
        p = preview(state, action)
        return log(
            "irrigate",
            seat=who,
            tile=_tile_words(state, action.at),
            gems=p["gems"],
            flowers=p["flowers"],
            filled="yes" if p["fills"] else "no",
        )
    if action.type == "undo":
        return log("undo", seat=who, tile=_tile_words(state, path_end(state)))
    if action.type == "harvest":
        p = preview(state, action)
        steps = len(state.path)
        if not p["winks"]:
            return log("harvest_nothing", seat=who, steps=steps)
        points = p["points"]
        return log(
            "harvest",
            seat=who,
            count=len(p["winks"]),
            colours=series([word(f"colour.{w['colour']}") for w in p["winks"]]),
            steps=steps,
            sign="+" if points >= 0 else "",
            points=points,
            ends="yes" if p["ends"] else "no",
        )
    return log("other", seat=who, action=action.type)
