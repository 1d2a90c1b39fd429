"""Blooming tokens (skills G and J): lay a token on free grass of placed tiles.

Each skill takes a token of the sizes its edition says (``skill_g_sizes``, ``skill_j_sizes``:
G a single, J a double in edition 1). A single token covers one free grass space, a double
token two adjacent ones (possibly on two tiles); cell i gets the token's i-th flower space. Its spaces are flower spaces for every
rule, so a token may merge flowerbeds; the result must still have at most one assistant per
flowerbed. With no legal spot, the player gets no token.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.ishtar.rules.gardens import shares_assistant
from engine.ishtar.rules.trees import free_grass
from engine.ishtar.rules.turn import to_plant
from engine.ishtar.state import Action, PlacedToken, State
from engine.ishtar.words import raw, refusal
from engine.messages import Message


def sizes(state: State) -> tuple[int, ...]:
    """The sizes of token the skill being used takes: ``state.bloom`` is "single" after G,
    "double" after J (the words of edition 1, where G takes a single and J a double)."""
    ed = state.ed
    return ed.skill_j_sizes if state.bloom == "double" else ed.skill_g_sizes


def tokens_of_size(state: State) -> list[str]:
    """Tokens of the sizes being taken that are still on the carpet."""
    taken = sizes(state)
    return [
        t
        for t, spaces in state.ed.blooming_tokens.items()
        if len(spaces) in taken and state.tokens_left[t] > 0
    ]


def spots(state: State, size: int) -> list[tuple[int, ...]]:
    """Every legal spot (one cell, or two adjacent cells in order) for a token of ``size``."""
    return list(_spots(state, size))


def _spots(state: State, size: int) -> Iterator[tuple[int, ...]]:
    """`spots`, one at a time."""
    grass = free_grass(state)
    candidates: list[tuple[int, ...]]
    if size == 2:
        free = set(grass)
        neighbours = state.geo.neighbours
        candidates = [(c, n) for c in grass for n in neighbours[c] if n in free]
    else:
        candidates = [(c,) for c in grass]
    return (cells for cells in candidates if not shares_assistant(state, list(cells)))


def possible(state: State) -> bool:
    """Whether ``legal(state)`` has an action: a token of a size being taken is left and
    has a spot (found without listing every spot)."""
    flowers = state.ed.blooming_tokens
    left = {len(flowers[token]) for token in tokens_of_size(state)}
    return any(next(_spots(state, size), None) is not None for size in sorted(left))


def legal(state: State) -> list[Action]:
    hexes = state.geo.hexes
    flowers = state.ed.blooming_tokens
    places = {
        size: [tuple(hexes[c] for c in cells) for cells in spots(state, size)]
        for size in sizes(state)
    }
    return [
        Action("bloom", token=token, cells=cells)
        for token in tokens_of_size(state)
        for cells in places[len(flowers[token])]
    ]


def reason(state: State, action: Action) -> Message | None:
    token = action.token
    flowers = state.ed.blooming_tokens
    if token is None or token not in flowers:
        return refusal("no_token", token=raw(token))
    if token not in tokens_of_size(state):
        if len(flowers[token]) not in sizes(state):
            return refusal("token_size", size=raw(state.bloom))
        return refusal("token_gone", token=token)
    if len(action.cells) != len(flowers[token]):
        return refusal("token_spaces", token=token, n=len(flowers[token]))
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
    for c, n in zip(cells, state.ed.blooming_tokens[action.token]):
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
