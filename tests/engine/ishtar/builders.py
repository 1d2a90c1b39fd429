"""Building positions for rule tests without playing up to them.

The ``force_*`` helpers change a state directly, with no rule checks, the way a tester would
lay pieces on the physical table. Coordinates are axial ``(q, r)``; in the 2-player preset
layout board 1 (side a) has its fountain at (0, 0) and board 2 (side b) at (4, 3).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.ishtar import new_game
from engine.ishtar.hexgrid import Hex
from engine.ishtar.state import PlacedTile, PlacedToken, State, replace_at

FOUNTAIN_A: Hex = (0, 0)
FOUNTAIN_B: Hex = (4, 3)


def game(players: int = 2, seed: int = 0, first_player: int = 0) -> State:
    """A fresh game on the preset layout, of edition 1: the numbers of GAME-SPEC that the
    rule tests name (4 / 6 / 8 VP, skill C's 3 per fountain...)."""
    return new_game(players, seed, {"first_player": first_player, "edition": "1"})


def cell(state: State, h: Hex) -> int:
    return state.geo.index[h]


def terrain(state: State, h: Hex) -> str:
    """Terrain of a cell, rocks with their gem colour, e.g. "rock-purple"."""
    c = cell(state, h)
    kind = state.geo.terrain[c]
    if kind == "rock":
        return "rock-" + ("purple", "red", "white")[state.geo.rock[c]]
    return kind


def force_tile(
    state: State, tile_id: str, at: Hex, rotation: int, seat: int = 0, turn: int = 0
) -> State:
    """Lay a vegetation tile (its gems are removed from the board, given to nobody)."""
    tile = state.ed.tiles[tile_id]
    cells = tuple(cell(state, h) for h in state.geo.cells_of(tile.shape, at, rotation))
    flowers = list(state.flowers)
    for c, space in zip(cells, tile.spaces):
        assert flowers[c] < 0, "force_tile on a covered cell"
        assert c in state.geo.placeable, "force_tile on a fountain or tablet"
        flowers[c] = space.flowers
    placed = PlacedTile(
        tile_id, seat, turn, at, rotation, (cells[0], cells[1], cells[2])
    )
    return state.evolve(
        flowers=tuple(flowers),
        placed=(*state.placed, placed),
        gems_on_board=state.gems_on_board.difference(cells),
        piles=tuple(tuple(t for t in pile if t != tile_id) for pile in state.piles),
    )


def force_assistant(state: State, h: Hex, seat: int) -> State:
    assistants = dict(state.assistants)
    assistants[cell(state, h)] = seat
    return state.evolve(
        assistants=assistants,
        assistants_supply=replace_at(
            state.assistants_supply, seat, state.assistants_supply[seat] - 1
        ),
    )


def force_token(state: State, token: str, hexes: Iterable[Hex], seat: int = 0) -> State:
    cells = tuple(cell(state, h) for h in hexes)
    flowers = list(state.flowers)
    for c, n in zip(cells, state.ed.blooming_tokens[token]):
        flowers[c] = n
    left = dict(state.tokens_left)
    left[token] -= 1
    return state.evolve(
        flowers=tuple(flowers),
        tokens=(*state.tokens, PlacedToken(token, seat, cells)),
        tokens_left=left,
    )


def force_tree(state: State, h: Hex, card: int, seat: int = 0) -> State:
    trees = dict(state.trees)
    trees[cell(state, h)] = card
    return state.evolve(
        trees=trees,
        tree_cards=replace_at(state.tree_cards, seat, (*state.tree_cards[seat], card)),
    )


def with_gems(
    state: State, seat: int, purple: int = 0, red: int = 0, white: int = 0
) -> State:
    return state.evolve(gems=replace_at(state.gems, seat, (purple, red, white)))


def with_skills(state: State, seat: int, *letters: str) -> State:
    skills = dict(state.skills[seat])
    for letter in letters:
        skills[letter] = ("purple", "purple")
    return state.evolve(skills=replace_at(state.skills, seat, skills))


def with_hand(state: State, tile_id: str, seat: int = 0) -> State:
    """The place step of ``seat`` with ``tile_id`` in hand (the can on pile 0)."""
    return state.evolve(phase="place", hand=tile_id, current=seat, can=0)


def with_special(state: State, seat: int = 0) -> State:
    """The special step of ``seat`` for the last tile placed."""
    return state.evolve(phase="special", current=seat, hand=None)


def with_plant(state: State, seat: int = 0) -> State:
    return state.evolve(phase="plant", current=seat, hand=None)


def fresh(state: State) -> State:
    """The same position with nothing memoised (its cache emptied)."""
    copy = state.evolve()
    copy.cache.clear()
    return copy
