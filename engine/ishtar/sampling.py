"""Determinization for bots: ``sample_state(view, seed)`` builds a full state consistent
with a view, filling what the view hides (face-down tiles of the piles, the tiles removed at
set-up, the tree card deck order) at random from what that viewer has not seen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.ishtar.components import GEM_TOTALS
from engine.ishtar.editions import EDITIONS, FIRST, Edition
from engine.ishtar.geometry import geometry_for
from engine.ishtar.layout import parse_layout
from engine.ishtar.rules.gems import as_counts
from engine.ishtar.state import PlacedTile, PlacedToken, State
from engine.ishtar.views import adopt_view, view_for


def _gems(raw: Mapping[str, int]) -> tuple[int, int, int]:
    return (raw["purple"], raw["red"], raw["white"])


def sample_state(view: Mapping[str, Any], seed: int) -> State:
    """A state consistent with ``view`` (from ``view_for``), hidden parts drawn from ``seed``.

    Its own view is ``view``'s parts (``adopt_view``; memoised in its cache,
    engine.ishtar.views): a bot values the states that follow from a sample, whose views
    are then updates of this one, sharing every part that did not change, rather than each
    built whole."""
    state = _sample(view, seed)
    adopt_view(state, view)
    view_for(state, None)
    return state


def _sample(view: Mapping[str, Any], seed: int) -> State:
    rng = random.Random(seed)
    edition = view.get("edition", FIRST)
    ed = EDITIONS[edition]
    layout = parse_layout(view["layout"])
    geo = geometry_for(layout, ed)
    index = geo.index

    def cell(raw: Any) -> int:
        return index[(raw[0], raw[1])]

    players = view["players"]
    placed = tuple(
        PlacedTile(
            t["tile"],
            t["by"],
            t["turn"],
            (t["at"][0], t["at"][1]),
            t["rotation"],
            (cell(t["cells"][0]), cell(t["cells"][1]), cell(t["cells"][2])),
        )
        for t in view["tiles"]
    )
    tokens = tuple(
        PlacedToken(t["token"], t["by"], tuple(cell(c) for c in t["cells"]))
        for t in view["tokens"]
    )
    flowers = [-1] * len(geo.hexes)
    for p in placed:
        for c, space in zip(p.cells, ed.tiles[p.tile].spaces):
            flowers[c] = space.flowers
    for tok in tokens:
        for c, n in zip(tok.cells, ed.blooming_tokens[tok.token]):
            flowers[c] = n
    cells_by_hex = {(c["q"], c["r"]): c for c in view["cells"]}
    fountains = tuple(
        cells_by_hex[geo.hexes[f]]["fountain"] for f in geo.fountain_cells
    )
    gems_on_board = frozenset(
        index[(c["q"], c["r"])] for c in view["cells"] if c.get("gem")
    )

    piles, removed = _fill_piles(ed, view, placed, rng)
    deck = _fill_deck(ed, view, rng)
    gems = tuple(_gems(p["gems"]) for p in players)
    skills = tuple({k: tuple(v) for k, v in p["skills"].items()} for p in players)
    return State(
        players=len(players),
        seed=seed,
        layout=layout,
        geo=geo,
        edition=edition,
        ed=ed,
        first_player=view["first_player"],
        fountains=fountains,
        gems_on_board=gems_on_board,
        bank=_bank(geo.rock, gems_on_board, gems, skills),
        flowers=tuple(flowers),
        placed=placed,
        tokens=tokens,
        assistants={
            cell((s["q"], s["r"])): s["assistant"]
            for s in view["spaces"]
            if s["assistant"] is not None
        },
        trees={
            cell((s["q"], s["r"])): s["tree"]
            for s in view["spaces"]
            if s["tree"] is not None
        },
        cups=tuple(p["cup"] for p in view["carpet"]["piles"]),
        piles=piles,
        can=view["carpet"]["can"],
        tokens_left=dict(view["carpet"]["blooming_tokens"]),
        discarded=tuple(view["discarded"]),
        removed=removed,
        market=tuple(c["card"] for c in view["market"]),
        market_trees=frozenset(c["card"] for c in view["market"] if c["tree"]),
        deck=deck,
        trees_left=view["trees_left"],
        gems=gems,
        assistants_supply=tuple(p["assistants_supply"] for p in players),
        assistants_carpet=tuple(p["assistants_carpet"] for p in players),
        skills=skills,
        tree_cards=tuple(tuple(p["tree_cards"]) for p in players),
        reserved=tuple(p["reserved"] for p in players),
        current=view["first_player"] if view["current"] is None else view["current"],
        phase=view["phase"],
        turn=view["turn"],
        hand=None if view["hand"] is None else view["hand"]["tile"],
        bloom=view["bloom"],
        end_triggered=view["end_triggered"],
        auto_end=view.get("turn_end") == "auto",
    )


def _fill_piles(
    ed: Edition,
    view: Mapping[str, Any],
    placed: tuple[PlacedTile, ...],
    rng: random.Random,
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Draw the face-down tiles of each pile from the unseen tiles of its shape."""
    carpet = view["carpet"]["piles"]
    seen = {p.tile for p in placed} | set(view["discarded"])
    if view["hand"] is not None:
        seen.add(view["hand"]["tile"])
    seen.update(p["top"]["tile"] for p in carpet if p["top"] is not None)
    unseen: dict[str, list[str]] = {}
    for tile_id in sorted(ed.tiles):
        if tile_id not in seen:
            unseen.setdefault(ed.tiles[tile_id].shape, []).append(tile_id)
    for pool in unseen.values():
        rng.shuffle(pool)
    piles = []
    for p in carpet:
        hidden = p["size"] - (1 if p["top"] is not None else 0)
        pool = unseen.get(p["cup"], [])
        tiles = tuple(pool.pop() for _ in range(hidden))
        if p["top"] is not None:
            tiles += (p["top"]["tile"],)
        piles.append(tiles)
    removed = tuple(t for shape in sorted(unseen) for t in unseen[shape])
    return tuple(piles), removed


def _fill_deck(
    ed: Edition, view: Mapping[str, Any], rng: random.Random
) -> tuple[int, ...]:
    """The tree card deck: the cards nobody has seen, in a random order."""
    seen = {c["card"] for c in view["market"]}
    for p in view["players"]:
        seen.update(p["tree_cards"])
        if p["reserved"] is not None:
            seen.add(p["reserved"])
    deck = [c for c in ed.tree_cards if c not in seen]
    rng.shuffle(deck)
    return tuple(deck[: view["deck_size"]])


def _bank(
    rock: tuple[int, ...],
    on_board: frozenset[int],
    gems: tuple[tuple[int, int, int], ...],
    skills: tuple[dict[str, tuple[str, ...]], ...],
) -> tuple[int, int, int]:
    """The general supply: every gem not on the board, in a supply or on a skill."""
    held = [0, 0, 0]
    for c in on_board:
        held[rock[c]] += 1
    for g in gems:
        for i in range(3):
            held[i] += g[i]
    for owned in skills:
        for paid in owned.values():
            counts = as_counts(paid) or (0, 0, 0)
            for i in range(3):
                held[i] += counts[i]
    return (GEM_TOTALS[0] - held[0], GEM_TOTALS[1] - held[1], GEM_TOTALS[2] - held[2])
