"""Invariants that hold in every reachable state, checked independently of the engine's own
analysis (the gardens are recomputed here from scratch)."""

from __future__ import annotations

import json
from collections import Counter

from engine.ishtar import view_for
from engine.ishtar.components import BLOOMING_TOKEN_COUNTS, GEM_TOTALS, TREES
from engine.ishtar.rules.gems import as_counts
from engine.ishtar.state import State


def check_gems_conserved(state: State) -> None:
    totals = [0, 0, 0]
    for c in state.gems_on_board:
        totals[state.geo.rock[c]] += 1
    for g in (state.bank, *state.gems):
        for i in range(3):
            assert g[i] >= 0, "negative gem count"
            totals[i] += g[i]
    for owned in state.skills:
        for paid in owned.values():
            counts = as_counts(paid)
            assert counts is not None
            assert len(paid) == 2
            for i in range(3):
                totals[i] += counts[i]
    assert tuple(totals) == GEM_TOTALS


def check_trees_conserved(state: State) -> None:
    reserved = sum(1 for r in state.reserved if r is not None)
    assert state.trees_left >= 0
    assert (
        state.trees_left + len(state.market_trees) + len(state.trees) + reserved
        == TREES
    )
    planted = sorted(c for cards in state.tree_cards for c in cards)
    assert planted == sorted(state.trees.values())
    cards = planted + list(state.market) + list(state.deck)
    cards += [r for r in state.reserved if r is not None]
    assert sorted(cards) == list(range(1, 27))


def check_assistants_conserved(state: State) -> None:
    on_board = Counter(state.assistants.values())
    for seat in range(state.players):
        supply, carpet = state.assistants_supply[seat], state.assistants_carpet[seat]
        assert supply >= 0
        assert carpet >= 0
        assert supply + carpet + on_board[seat] == 4


def check_tokens_conserved(state: State) -> None:
    laid = Counter(t.token for t in state.tokens)
    for token, count in BLOOMING_TOKEN_COUNTS.items():
        assert state.tokens_left[token] >= 0
        assert state.tokens_left[token] + laid[token] == count


def _components(state: State, cells: set[int]) -> list[set[int]]:
    seen: set[int] = set()
    groups = []
    for start in sorted(cells):
        if start in seen:
            continue
        group = {start}
        stack = [start]
        while stack:
            c = stack.pop()
            for n in state.geo.neighbours[c]:
                if n in cells and n not in group:
                    group.add(n)
                    stack.append(n)
        seen |= group
        groups.append(group)
    return groups


def check_flowerbeds_and_gardens(state: State) -> None:
    vegetation = {c for c, f in enumerate(state.flowers) if f >= 0}
    flower_cells = {c for c, f in enumerate(state.flowers) if f > 0}
    for bed in _components(state, flower_cells):
        assert sum(1 for c in bed if c in state.assistants) <= 1, (
            "two assistants in a bed"
        )
    fountains = set(state.geo.fountain_cells)
    for garden in _components(state, vegetation):
        touched = {n for c in garden for n in state.geo.neighbours[c] if n in fountains}
        assert len(touched) <= 1, "a garden touches two fountains"
    for c in state.assistants:
        assert state.flowers[c] > 0, "an assistant off a flower space"
    for c in state.trees:
        assert state.flowers[c] == 0, "a tree off a grass space"


def check_view_hides_secrets(state: State) -> None:
    hidden = set(state.removed)
    for i, pile in enumerate(state.piles):
        visible_top = 1 if (pile and i != state.can) else 0
        hidden.update(pile[: len(pile) - visible_top])
    for seat in [None, *range(state.players)]:
        view = view_for(state, seat)
        text = json.dumps(view)
        assert "seed" not in view
        assert "deck" not in view
        for tile in hidden:
            assert f'"{tile}"' not in text, f"hidden tile {tile} in a view"


def check_all(state: State) -> None:
    check_gems_conserved(state)
    check_trees_conserved(state)
    check_assistants_conserved(state)
    check_tokens_conserved(state)
    check_flowerbeds_and_gardens(state)
