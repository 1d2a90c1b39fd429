"""A tiny game with chance, for the analysis tests: the engine contract's analysis subset.

Cards 1..9 are shuffled face down; the top one is the offer, face up. A player either takes
the offer (scores it) or burns it (scores nothing); then the next card is turned up (a
random event) and the next player acts. Six turns in all. Taking is always best, and by
exactly the offer in lead, so what the analysis must find is known. Its bots: "medium"
always takes, "easy" and "random" choose at random.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from engine.messages import message

TURNS = 6


@dataclass(frozen=True)
class State:
    players: int
    deck: tuple[int, ...]  # the hidden order; deck[0] is the face-up offer
    scores: tuple[int, ...]
    turn: int


def new_game(players: int, seed: int) -> State:
    deck = list(range(1, 10))
    random.Random(seed).shuffle(deck)
    return State(players, tuple(deck), (0,) * players, 0)


def is_over(state: State) -> bool:
    return state.turn >= TURNS


def current_player(state: State) -> int | None:
    return None if is_over(state) else state.turn % state.players


def legal_actions(state: State) -> list[str]:
    return [] if is_over(state) else ["take", "burn"]


def apply(state: State, action: str) -> State:
    if action not in legal_actions(state):
        raise ValueError(f"illegal {action!r}")
    seat = state.turn % state.players
    scores = list(state.scores)
    if action == "take":
        scores[seat] += state.deck[0]
    return replace(
        state, deck=state.deck[1:], scores=tuple(scores), turn=state.turn + 1
    )


def view_for(state: State, seat: int | None) -> dict[str, Any]:
    return {
        "viewer": seat,
        "players": state.players,
        "offer": None if is_over(state) else state.deck[0],
        "unseen": sorted(state.deck if is_over(state) else state.deck[1:]),
        "scores": list(state.scores),
        "turn": state.turn,
    }


def sample_state(view: dict[str, Any], seed: int) -> State:
    rest = list(view["unseen"])
    random.Random(seed).shuffle(rest)
    deck = ([view["offer"]] if view["offer"] is not None else []) + rest
    return State(view["players"], tuple(deck), tuple(view["scores"]), view["turn"])


def final_scores(state: State) -> dict[str, Any]:
    best = max(state.scores)
    return {
        "players": [{"seat": s, "total": t} for s, t in enumerate(state.scores)],
        "winners": [s for s, t in enumerate(state.scores) if t == best],
    }


def value(state: State) -> list[float]:
    """Each seat's expected final score under the medium bot (which always takes), from
    the spectator's view alone: its score, the offer if on move, and the mean unseen card
    for each of its later turns."""
    view = view_for(state, None)
    scores = [float(s) for s in view["scores"]]
    if view["offer"] is None:
        return scores
    unseen = view["unseen"]
    mean = sum(unseen) / len(unseen) if unseen else 0.0
    for turn in range(view["turn"], TURNS):
        seat = turn % view["players"]
        scores[seat] += view["offer"] if turn == view["turn"] else mean
    return scores


def encode_action(action: str) -> dict[str, Any]:
    return {"type": action}


def decode_action(data: Any) -> str:
    return str(data["type"])


def narrate(state: State, action: str) -> dict[str, Any]:
    return dict(message(f"toy.log.{action}", card=state.deck[0]))


def preview(state: State, action: str) -> dict[str, Any]:
    return {"type": action, "card": state.deck[0]}


def think(
    level: str, view: dict[str, Any], legal: list[Any], seed: int, think_s: float | None
) -> Any:
    if level == "medium":
        return "take"
    return random.Random(seed).choice(legal)


def play(
    seed: int, planted: dict[int, str] | None = None
) -> tuple[list[State], list[str]]:
    """A whole game: medium's moves, but `planted[v]` at move index v."""
    state = new_game(2, seed)
    states, actions = [state], []
    while not is_over(state):
        action = (planted or {}).get(state.turn, "take")
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions
