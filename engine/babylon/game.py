"""The turn (spec §5, R-7 to R-11, R-16, R-17): irrigation one tile at a time from the well,
then the harvest; the scoreboard choice of the set-up; undo of irrigation steps.

`legal_actions`, `why_illegal` and `apply` are the three views of one set of rules: an
action is legal exactly when `why_illegal` gives None, and `apply` refuses with that reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from engine.babylon.components import SLOTS, TILES
from engine.babylon.errors import IllegalAction
from engine.babylon.floors import Pos
from engine.babylon.scoreboards import SIDES, board_of
from engine.babylon.state import Action, Harvested, State, kind_index
from engine.babylon.words import refusal, word
from engine.messages import Message

HARVEST = Action("harvest")
UNDO = Action("undo")


def current_player(state: State) -> int | None:
    """The seat to act; None once the game is over."""
    return None if state.phase == "over" else state.current


def is_over(state: State) -> bool:
    return state.phase == "over"


def path_end(state: State) -> Pos:
    """Where the next step starts from: the path's last tile, or the well (R-7)."""
    return state.path[-1] if state.path else state.floor.well


def next_steps(state: State) -> list[Pos]:
    """The tiles the path may step onto next, in reading order."""
    on_path = set(state.path)
    return [at for at in state.floor.neighbours(path_end(state)) if at not in on_path]


def free_sides(state: State) -> list[str]:
    """R-5: the sides of the boards nobody holds yet."""
    held = {board_of(side) for side in state.sides if side is not None}
    return [side for side in SIDES if board_of(side) not in held]


def legal_actions(state: State) -> list[Action]:
    """The actions of the seat to act: irrigation steps by position, then harvest, then undo."""
    if state.phase == "scoreboard":
        return [Action("scoreboard", side=side) for side in free_sides(state)]
    if state.phase != "irrigate":
        return []
    actions = [Action("irrigate", at=at) for at in next_steps(state)]
    if state.path:
        actions += [HARVEST, UNDO]
    return actions


def filled_on_path(state: State) -> list[Pos]:
    """R-8: the tiles of the path whose gems equal their flowers, in fill (path) order."""
    out = []
    for at in state.path:
        i = state.index(at)
        if state.gems[i] == TILES[state.tiles[i]].flowers:
            out.append(at)
    return out


def why_illegal(state: State, action: Action) -> Message | None:
    """None if the seat to act may play `action` now, else the reason as a message
    (``babylon.reason.*``; `english` words it in a player's words)."""
    if state.phase == "over":
        return refusal("over")
    kind = action.type
    if state.phase == "scoreboard":
        if kind != "scoreboard":
            return refusal("choose_first")
        return _why_not_side(state, action.side)
    if kind == "scoreboard":
        return refusal("sides_chosen")
    if kind == "irrigate":
        return _why_not_step(state, action.at)
    if kind == "harvest":
        return None if state.path else refusal("harvest_empty")
    if kind == "undo":
        return None if state.path else refusal("nothing_to_undo")
    return refusal("no_action", action=repr(kind))


def _why_not_side(state: State, side: str | None) -> Message | None:
    if side not in SIDES:
        return refusal("no_side", side=repr(str(side)[:8]))
    assert side is not None
    if side not in free_sides(state):
        return refusal("side_taken", board=board_of(side))
    return None


def _why_not_step(state: State, at: Pos | None) -> Message | None:
    the_floor = state.floor
    if at is None:
        return refusal("say_tile")
    if at == the_floor.well:
        if state.path:
            return refusal("back_to_well")
        return refusal("start_at_well")
    if at not in the_floor.kinds:
        return refusal("no_tile")
    if at in state.path:
        return refusal("on_path")
    r, c = path_end(state)
    dr, dc = abs(at[0] - r), abs(at[1] - c)
    origin = word("origin.path" if state.path else "origin.well")
    if dr == 1 and dc == 1:
        return refusal("diagonal")
    if dr + dc > 1:
        if dr + dc == 2 and (dr == 0 or dc == 0):
            between = ((at[0] + r) // 2, (at[1] + c) // 2)
            if between not in the_floor.kinds:
                return refusal("gap", origin=origin)
        if dr == 0 or dc == 0:
            return refusal("skip", origin=origin)
        return refusal("far", origin=origin)
    return None


def apply(state: State, action: Action) -> State:
    """The state after `action`, or `IllegalAction` with the reason the rules refuse it."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    after = _apply(state, action)
    if "view" in state._memo:
        # The view of the new state reuses the parts of this one's that did not change
        # (engine.babylon.views): a link of one state only, dropped once it is used.
        after._memo["base"] = state
    return after


def _apply(state: State, action: Action) -> State:
    if action.type == "scoreboard":
        return _choose_side(state, action.side or "")
    if action.type == "irrigate":
        assert action.at is not None
        i = state.index(action.at)
        gems = list(state.gems)
        gems[i] += 1
        return state.evolve(gems=tuple(gems), path=(*state.path, action.at))
    if action.type == "undo":
        i = state.index(state.path[-1])
        gems = list(state.gems)
        gems[i] -= 1
        return state.evolve(gems=tuple(gems), path=state.path[:-1])
    return harvest(state)


def _choose_side(state: State, side: str) -> State:
    """R-5: seat 0 chooses first and the others in seat order; then the first turn starts."""
    sides = list(state.sides)
    sides[state.current] = side
    if None in sides:
        return state.evolve(sides=tuple(sides), current=state.current + 1)
    return state.evolve(
        sides=tuple(sides),
        phase="irrigate",
        current=state.first_player,
        turn=1,
    )


def harvest(state: State) -> State:
    """End the path and harvest every filled tile in fill order (RB a-c, R-10, R-11)."""
    seat = state.current
    filled = filled_on_path(state)
    if not filled:  # RB: no tile filled, no harvest; the gems stay
        return state.evolve(
            path=(),
            harvested=(),
            current=(seat + 1) % state.players,
            turn=state.turn + 1,
        )
    tiles, gems = list(state.tiles), list(state.gems)
    piles = [list(state.piles[0]), list(state.piles[1])]
    discards = [list(state.discards[0]), list(state.discards[1])]
    winks = list(state.winks[seat])
    reshuffles = state.reshuffles
    harvested: list[Harvested] = []
    for at in filled:
        i = state.index(at)
        tile = TILES[tiles[i]]
        k = kind_index(tile.kind)
        discards[k].append(tile.id)  # a) the tile face up on its discard pile...
        gems[i] = 0  # ... and its gems back to the (unlimited, R-2) supply
        if not piles[k]:  # b) R-10: an empty pile is rebuilt from its discard pile
            reshuffles += 1
            piles[k] = discards[k]
            discards[k] = []
            random.Random(f"{state.seed}/reshuffle/{reshuffles}").shuffle(piles[k])
        tiles[i] = piles[k].pop()
        winks.append(tile.colour)  # c) a wink into the next empty slot, spiral order
        harvested.append(
            Harvested(at, tile.id, tile.colour, len(winks), seat, tiles[i])
        )
        if len(winks) == SLOTS:  # the end is immediate
            break
    all_winks = list(state.winks)
    all_winks[seat] = tuple(winks)
    over = len(winks) == SLOTS
    return state.evolve(
        tiles=tuple(tiles),
        gems=tuple(gems),
        piles=(tuple(piles[0]), tuple(piles[1])),
        discards=(tuple(discards[0]), tuple(discards[1])),
        winks=tuple(all_winks),
        path=(),
        harvested=tuple(harvested),
        reshuffles=reshuffles,
        phase="over" if over else state.phase,
        current=seat if over else (seat + 1) % state.players,
        turn=state.turn if over else state.turn + 1,
    )


def replay(
    setup: Mapping[str, Any], actions: Iterable[Action | Mapping[str, Any]]
) -> State:
    """Play `actions` (Actions or their JSON) from the set-up ``{"players", "seed",
    "options"}``, as the server stores it (tests and tools; the same shape as Ishtar's)."""
    from engine.babylon.codec import decode_action
    from engine.babylon.setup import new_game

    state = new_game(setup["players"], setup["seed"], setup.get("options"))
    for item in actions:
        state = apply(state, item if isinstance(item, Action) else decode_action(item))
    return state
