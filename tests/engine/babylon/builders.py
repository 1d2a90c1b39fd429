"""Building Babylon Gardens positions for rule tests without playing up to them.

The ``force_*`` helpers change a state directly, with no rule checks, the way a tester would
lay pieces on the physical table; they keep every tile exactly once (a tile laid on a space
swaps places with the one there), so the positions stay ones the codec accepts.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from engine.babylon import apply, legal_actions, new_game
from engine.babylon.components import TILES
from engine.babylon.floors import Pos
from engine.babylon.state import Action, State, kind_index

COLOUR = {"r": "red", "g": "green", "y": "yellow", "p": "purple"}


def winks(letters: str) -> tuple[str, ...]:
    """``"r r p"`` -> ("red", "red", "purple"): the spec's notation of winks."""
    return tuple(COLOUR[c] for c in letters.split())


def game(
    players: int = 2,
    seed: int = 0,
    floor: str = "lower",
    first_player: int | None = 0,
    **options: object,
) -> State:
    """A fresh game (the first player fixed at seat 0 unless said otherwise)."""
    return new_game(
        players, seed, {"floor": floor, "first_player": first_player, **options}
    )


def irrigate(at: Pos) -> Action:
    return Action("irrigate", at=at)


HARVEST = Action("harvest")
UNDO = Action("undo")


def walk(state: State, path: Iterable[Pos]) -> State:
    """Irrigate each tile of `path` in turn (through the rules)."""
    for at in path:
        state = apply(state, irrigate(at))
    return state


def turn(state: State, path: Iterable[Pos]) -> State:
    """A whole turn through the rules: irrigate `path`, then harvest."""
    return apply(walk(state, path), HARVEST)


def _where(state: State, tile_id: str) -> tuple[str, int, int]:
    """Where a tile is: ("floor", -, i), ("pile", k, i) or ("discard", k, i)."""
    if tile_id in state.tiles:
        return ("floor", -1, state.tiles.index(tile_id))
    k = kind_index(TILES[tile_id].kind)
    if tile_id in state.piles[k]:
        return ("pile", k, state.piles[k].index(tile_id))
    return ("discard", k, state.discards[k].index(tile_id))


def force_tile(state: State, at: Pos, tile_id: str, gems: int = 0) -> State:
    """Lay `tile_id` on the space `at` with `gems` gems; the tile that was there takes the
    laid tile's old place (on the floor, in its pile or its discard pile)."""
    assert TILES[tile_id].kind == state.floor.kinds[at], "a tile of the wrong back"
    tiles = list(state.tiles)
    piles = [list(p) for p in state.piles]
    discards = [list(d) for d in state.discards]
    gem_list = list(state.gems)
    i = state.index(at)
    old = tiles[i]
    where, k, j = _where(state, tile_id)
    if where == "floor":
        tiles[j], gem_list[j] = old, gem_list[i]
    elif where == "pile":
        piles[k][j] = old
    else:
        discards[k][j] = old
    tiles[i], gem_list[i] = tile_id, gems
    return state.evolve(
        tiles=tuple(tiles),
        gems=tuple(gem_list),
        piles=(tuple(piles[0]), tuple(piles[1])),
        discards=(tuple(discards[0]), tuple(discards[1])),
    )


def force_floor(state: State, layout: Mapping[Pos, tuple[str, int]]) -> State:
    """Lay several tiles: ``{at: (tile_id, gems)}``."""
    for at, (tile_id, gems) in layout.items():
        state = force_tile(state, at, tile_id, gems)
    return state


def force_pile(state: State, kind: str, top: Iterable[str]) -> State:
    """Put the tiles `top` on top of a pile (the last one named on top), drawing them from
    the pile itself or the discard pile (not from the floor)."""
    k = kind_index(kind)
    wanted = list(top)
    pile = [t for t in state.piles[k] if t not in wanted]
    discard = [t for t in state.discards[k] if t not in wanted]
    assert len(pile) + len(discard) + len(wanted) == len(state.piles[k]) + len(
        state.discards[k]
    ), "force_pile takes tiles from the pile or the discards only"
    piles = list(state.piles)
    discards = list(state.discards)
    piles[k] = (*pile, *wanted)
    discards[k] = tuple(discard)
    return state.evolve(piles=(piles[0], piles[1]), discards=(discards[0], discards[1]))


def force_empty_pile(state: State, kind: str) -> State:
    """Move a pile's whole contents onto its discard pile (as if all had been used)."""
    k = kind_index(kind)
    piles = list(state.piles)
    discards = list(state.discards)
    discards[k] = (*state.discards[k], *state.piles[k])
    piles[k] = ()
    return state.evolve(piles=(piles[0], piles[1]), discards=(discards[0], discards[1]))


def force_winks(state: State, seat: int, letters: str) -> State:
    """Give `seat` these winks (spec notation ``"r r g"``) in slot order."""
    all_winks = list(state.winks)
    all_winks[seat] = winks(letters)
    return state.evolve(winks=tuple(all_winks))


def force_sides(state: State, sides: Iterable[str]) -> State:
    return state.evolve(sides=tuple(sides))


def finished(
    players: int, boards: list[str], sides: list[str], **options: object
) -> State:
    """A game whose players hold these sides and winks (spec notation): its scores stand
    as they would at the end (the phase is left as it was)."""
    state = force_sides(game(players, **options), sides)  # type: ignore[arg-type]
    for seat, letters in enumerate(boards):
        state = force_winks(state, seat, letters)
    return state


def random_game(
    players: int, seed: int, options: Mapping[str, object] | None = None
) -> Iterable[tuple[State, Action]]:
    """The positions of one seeded random game (no undo) with the move played from each."""
    rng = random.Random(seed)
    state = new_game(players, seed, dict(options or {}))
    while state.phase != "over":
        action = rng.choice([a for a in legal_actions(state) if a.type != "undo"])
        yield state, action
        state = apply(state, action)
    yield state, Action("over")
