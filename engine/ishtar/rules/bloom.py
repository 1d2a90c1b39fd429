"""Blooming tokens (skills G and J): lay a token on free grass of placed tiles.

A single token covers one free grass space, a double token two adjacent ones (possibly on two
tiles); cell i gets the token's i-th flower space. Its spaces are flower spaces for every
rule, so a token may merge flowerbeds; the result must still have at most one assistant per
flowerbed. With no legal spot, the player gets no token.
"""

from __future__ import annotations

from engine.ishtar.components import BLOOMING_TOKENS
from engine.ishtar.rules.gardens import shares_assistant
from engine.ishtar.rules.trees import free_grass
from engine.ishtar.rules.turn import to_plant
from engine.ishtar.state import Action, PlacedToken, State
from engine.ishtar.words import raw, refusal
from engine.messages import Message

SIZES: dict[str, int] = {"single": 1, "double": 2}


def tokens_of_size(state: State) -> list[str]:
    """Tokens of the size being taken that are still on the carpet."""
    size = SIZES[state.bloom or "single"]
    return [
        t
        for t, spaces in BLOOMING_TOKENS.items()
        if len(spaces) == size and state.tokens_left[t] > 0
    ]


def spots(state: State) -> list[tuple[int, ...]]:
    """Every legal spot (one cell, or two adjacent cells in order) for a token of the size."""
    grass = free_grass(state)
    candidates: list[tuple[int, ...]]
    if state.bloom == "double":
        free = set(grass)
        neighbours = state.geo.neighbours
        candidates = [(c, n) for c in grass for n in neighbours[c] if n in free]
    else:
        candidates = [(c,) for c in grass]
    return [cells for cells in candidates if not shares_assistant(state, list(cells))]


def legal(state: State) -> list[Action]:
    hexes = state.geo.hexes
    places = spots(state)
    return [
        Action("bloom", token=token, cells=tuple(hexes[c] for c in cells))
        for token in tokens_of_size(state)
        for cells in places
    ]


def reason(state: State, action: Action) -> Message | None:
    token = action.token
    if token not in BLOOMING_TOKENS:
        return refusal("no_token", token=raw(token))
    if token not in tokens_of_size(state):
        if len(BLOOMING_TOKENS[token]) != SIZES[state.bloom or "single"]:
            return refusal("token_size", size=raw(state.bloom))
        return refusal("token_gone", token=token)
    if len(action.cells) != len(BLOOMING_TOKENS[token]):
        return refusal("token_spaces", token=token, n=len(BLOOMING_TOKENS[token]))
    index = state.geo.index
    if any(h not in index for h in action.cells):
        return refusal("off_board")
    cells = [index[h] for h in action.cells]
    free = set(free_grass(state))
    if any(c not in free for c in cells):
        return refusal("not_free_grass")
    if len(cells) == 2 and (
        cells[0] == cells[1] or cells[1] not in state.geo.neighbours[cells[0]]
    ):
        return refusal("not_adjacent")
    if shares_assistant(state, cells):
        return refusal("assistants_share")
    return None


def apply(state: State, action: Action) -> State:
    assert action.token is not None
    cells = tuple(state.geo.index[h] for h in action.cells)
    flowers = list(state.flowers)
    for c, n in zip(cells, BLOOMING_TOKENS[action.token]):
        flowers[c] = n
    tokens_left = dict(state.tokens_left)
    tokens_left[action.token] -= 1
    return to_plant(
        state.evolve(
            flowers=tuple(flowers),
            tokens=(*state.tokens, PlacedToken(action.token, state.current, cells)),
            tokens_left=tokens_left,
        )
    )
