"""Place a vegetation tile (RB), then collect the gems of the rock spaces it covers.

A tile covers only sand and rock; at least one of its cells touches a fountain or a tile
placed earlier; afterwards every garden touches at most one fountain and no flowerbed holds
more than one assistant. A tile with no legal placement anywhere is discarded face up: no
gems, no special action, the turn goes on to planting.

Speed: only positions through the frontier (empty cells next to a fountain or vegetation)
are tried. Per state, each frontier cell gets a bit mask of the fountains it would connect to
and of the assistants' flowerbeds it touches, so a placement is checked with a few integer
ORs; the rare case of two assistants' beds nearby falls back to an exact merge check. The
``place`` actions themselves (immutable) are made once per layout and position, in the
layout's memo (engine.ishtar.memos).
"""

from __future__ import annotations

from engine.ishtar.geometry import ROTATIONS
from engine.ishtar.hexgrid import Hex
from engine.ishtar.memos import MEMOS, Weights
from engine.ishtar.rules.gardens import gardens, shares_assistant
from engine.ishtar.rules.special import enter_special
from engine.ishtar.rules.turn import to_plant
from engine.ishtar.state import FRONTIER, Action, PlacedTile, State, replace_at
from engine.ishtar.words import refusal
from engine.messages import Message

Masks = tuple[dict[int, int], dict[int, int]]


def frontier(state: State) -> Masks:
    """For empty placeable cells next to a fountain or vegetation: fountain and assistant masks."""
    found = state.cache.get(FRONTIER)
    if found is not None:
        return found  # type: ignore[no-any-return]
    geo = state.geo
    g = gardens(state)
    flowers = state.flowers
    neighbours = geo.neighbours
    placeable = geo.placeable
    fountain_mask: dict[int, int] = {}
    assistant_mask: dict[int, int] = {}
    for k, f in enumerate(geo.fountain_cells):
        for n in neighbours[f]:
            if flowers[n] < 0 and n in placeable:
                fountain_mask[n] = fountain_mask.get(n, 0) | (1 << k)
    bed_bits = {bed: 1 << i for i, bed in enumerate(g.bed_assistant)}
    for c, label in g.garden.items():
        k = g.garden_fountain[label]
        bit = 1 << k if k >= 0 else 0
        bed_bit = bed_bits.get(g.bed[c], 0) if flowers[c] > 0 else 0
        for n in neighbours[c]:
            if flowers[n] < 0 and n in placeable:
                fountain_mask[n] = fountain_mask.get(n, 0) | bit
                if bed_bit:
                    assistant_mask[n] = assistant_mask.get(n, 0) | bed_bit
    result = (fountain_mask, assistant_mask)
    state.cache[FRONTIER] = result
    return result


def legal_placements(state: State) -> dict[int, tuple[int, int, int]]:
    """Placement id (``at * 6 + rotation``) → covered cells, for the tile in hand."""
    found = state.cache.get("placements")
    if found is not None:
        return found  # type: ignore[no-any-return]
    assert state.hand is not None
    tile = state.ed.tiles[state.hand]
    fountain_mask, assistant_mask = frontier(state)
    through = state.geo.through[tile.shape]
    positions = state.geo.placements[tile.shape]
    # Positions through a frontier cell, minus those over vegetation (set operations in C).
    candidates: set[int] = set().union(*(through[c] for c in fountain_mask))
    candidates.difference_update(*(through[c] for c in gardens(state).garden))
    flower_spaces = [i for i, space in enumerate(tile.spaces) if space.flowers > 0]
    mask = [0] * len(state.flowers)  # fountain_mask as a list: faster to read
    for c, m in fountain_mask.items():
        mask[c] = m
    result: dict[int, tuple[int, int, int]] = {}
    for pid in sorted(candidates):
        cells = positions[pid]
        m = mask[cells[0]] | mask[cells[1]] | mask[cells[2]]
        if m & (m - 1):
            continue
        if assistant_mask:
            a = 0
            for i in flower_spaces:
                a |= assistant_mask.get(cells[i], 0)
            if a & (a - 1) and shares_assistant(
                state, [cells[i] for i in flower_spaces]
            ):
                continue
        result[pid] = cells
    state.cache["placements"] = result
    return result


def legal(state: State) -> list[Action]:
    placements = legal_placements(state)
    if not placements:
        return [Action("discard")]
    geo = state.geo
    memo = MEMOS.of(geo.key)
    known: dict[int, Action] | None = memo.data.get("place actions")
    if known is None:
        known = memo.data["place actions"] = {}
    actions = []
    made = 0
    for pid in placements:
        action = known.get(pid)
        if action is None:
            action = known[pid] = Action(
                "place", at=geo.hexes[pid // ROTATIONS], rotation=pid % ROTATIONS
            )
            made += 1
        actions.append(action)
    if made:
        MEMOS.grew(geo.key, memo, made * Weights.ACTION)
    return actions


def placement_id(state: State, at: Hex, rotation: int) -> int | None:
    index = state.geo.index.get(at)
    return None if index is None else index * ROTATIONS + rotation


def reason(state: State, action: Action) -> Message | None:
    placements = legal_placements(state)
    if action.type == "discard":
        return None if not placements else refusal("can_place")
    at, rotation = action.at, action.rotation
    if at is None or rotation is None or not 0 <= rotation < ROTATIONS:
        return refusal("placement_fields")
    pid = placement_id(state, at, rotation)
    if pid is not None and pid in placements:
        return None
    return _explain(state, at, rotation)


def _explain(state: State, at: Hex, rotation: int) -> Message:
    """Why a placement the fast check refused is illegal, in the rulebook's words."""
    geo = state.geo
    assert state.hand is not None
    tile = state.ed.tiles[state.hand]
    hexes = geo.cells_of(tile.shape, at, rotation)
    if any(h not in geo.index for h in hexes):
        return refusal("sticks_out")
    cells = [geo.index[h] for h in hexes]
    for c in cells:
        if state.flowers[c] >= 0:
            return refusal("covers_tile")
        if geo.terrain[c] == "fountain":
            return refusal("covers_fountain")
        if geo.terrain[c] == "tablet":
            return refusal("covers_tablet")
    fountain_mask, _ = frontier(state)
    if not any(c in fountain_mask for c in cells):
        return refusal("must_touch")
    m = 0
    for c in cells:
        m |= fountain_mask.get(c, 0)
    if m & (m - 1):
        return refusal("two_fountains")
    return refusal("assistants_share")


def gems_under(state: State, cells: tuple[int, ...]) -> tuple[int, int, int]:
    """The gems lying on these cells, as counts purple, red, white."""
    counts = [0, 0, 0]
    for c in cells:
        if c in state.gems_on_board:
            counts[state.geo.rock[c]] += 1
    return (counts[0], counts[1], counts[2])


def apply(state: State, action: Action) -> State:
    assert state.hand is not None
    if action.type == "discard":
        return to_plant(state.evolve(discarded=(*state.discarded, state.hand)))
    assert action.at is not None
    assert action.rotation is not None
    pid = placement_id(state, action.at, action.rotation)
    assert pid is not None
    tile = state.ed.tiles[state.hand]
    cells = state.geo.placements[tile.shape][pid]  # as legal_placements has it
    flowers = list(state.flowers)
    for c, space in zip(cells, tile.spaces):
        flowers[c] = space.flowers
    seat = state.current
    p, r, w = gems_under(state, cells)
    gems = state.gems[seat]
    placed = PlacedTile(tile.id, seat, state.turn, action.at, action.rotation, cells)
    after = state.evolve(
        flowers=tuple(flowers),
        placed=(*state.placed, placed),
        gems_on_board=state.gems_on_board.difference(cells),
        gems=replace_at(state.gems, seat, (gems[0] + p, gems[1] + r, gems[2] + w)),
        hand=None,
    )
    return enter_special(after)
