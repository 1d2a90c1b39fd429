"""A tiny card game that honours the engine contract (docs/contract.md), for server tests.

It lets the server be tested on its own terms (rooms, versions, fan-out, hidden
information) independently of the Ishtar engine, and proves `app/` plays any game that
follows the contract. Rules: a shuffled face-down deck; on a turn the player draws two
cards (hidden in hand), then plays one face up and scores it. The game ends when the deck
cannot give two cards. Hidden: the deck order, the other players' hands, the seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.games import Game, Options
from engine import refusals
from engine.messages import Message, message, render

GAME = "toy"
TITLE = "Toy cards"
PLAYERS = range(1, 5)
ENGINE_VERSION = "1"
COLOURS = ["blue", "yellow", "red", "green"]

CATALOGUE = {
    "toy.log.drew": "{seat} drew two cards",
    "toy.log.played": "{seat} played {card}",
    "toy.reason.over": "The game is over.",
    "toy.reason.not_in_hand": "Card {card} is not in your hand.",
    "toy.reason.not_now": "You cannot {action} now: it is time to {phase}.",
    "toy.reason.players": "The toy game is played by 1 to 4 players.",
    "toy.reason.options": "The toy game has one option: first_player.",
    "toy.reason.first_player": "The first player is a seat from 0 to {last}.",
    "toy.reason.not_an_action": "An action is an object with type draw or play.",
    "toy.reason.draw_alone": "draw takes no other field.",
    "toy.reason.card": "play needs an integer card.",
}
"""The toy game speaks English only: its one catalogue serves every language."""


def messages(lang: str) -> dict[str, str]:
    return dict(CATALOGUE)


def english(said: Message) -> str:
    return render(CATALOGUE, said, "en", seat=lambda seat: COLOURS[seat].capitalize())


class IllegalAction(refusals.IllegalAction):
    def __init__(self, said: Message) -> None:
        super().__init__(said, english(said))


class MalformedAction(IllegalAction, refusals.MalformedAction):
    pass


@dataclass(frozen=True)
class State:
    players: int
    seed: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    current: int
    phase: str  # draw | play | over
    turn: int
    first_player: int


@dataclass(frozen=True)
class Action:
    type: str
    card: int | None = None


def check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    if not 1 <= players <= 4:
        raise IllegalAction(message("toy.reason.players"))
    given = dict(options or {})
    if set(given) - {"first_player"}:
        raise IllegalAction(message("toy.reason.options"))
    first = given.get("first_player")
    if first is not None and not (isinstance(first, int) and 0 <= first < players):
        raise IllegalAction(message("toy.reason.first_player", last=players - 1))
    return {"first_player": first}


def public_setup(state: State) -> dict[str, Any]:
    return {"first_player": state.first_player}


def new_game(
    players: int, seed: int, options: Mapping[str, Any] | None = None
) -> State:
    first_player = check_options(players, options)["first_player"]
    rng = random.Random(seed)
    deck = list(range(1, 4 * players + 5))
    rng.shuffle(deck)
    first = first_player if first_player is not None else rng.randrange(players)
    return State(
        players,
        seed,
        tuple(deck),
        ((),) * players,
        ((),) * players,
        first,
        "draw",
        1,
        first,
    )


def current_player(state: State) -> int | None:
    return None if state.phase == "over" else state.current


def is_over(state: State) -> bool:
    return state.phase == "over"


def legal_actions(state: State) -> list[Action]:
    if state.phase == "draw":
        return [Action("draw")]
    if state.phase == "play":
        return [Action("play", card) for card in sorted(state.hands[state.current])]
    return []


def why_illegal(state: State, action: Action) -> Message | None:
    if state.phase == "over":
        return message("toy.reason.over")
    if action in legal_actions(state):
        return None
    if action.type == "play" and state.phase == "play":
        return message("toy.reason.not_in_hand", card=str(action.card))
    return message("toy.reason.not_now", action=action.type, phase=state.phase)


def apply(state: State, action: Action) -> State:
    said = why_illegal(state, action)
    if said is not None:
        raise IllegalAction(said)
    seat = state.current
    if action.type == "draw":
        hand = (*state.hands[seat], *state.deck[:2])
        return replace(
            state,
            deck=state.deck[2:],
            hands=_put(state.hands, seat, hand),
            phase="play",
        )
    assert action.card is not None
    held = list(state.hands[seat])
    held.remove(action.card)
    played = _put(state.played, seat, (*state.played[seat], action.card))
    state = replace(state, hands=_put(state.hands, seat, tuple(held)), played=played)
    if len(state.deck) < 2:
        return replace(state, phase="over")
    return replace(
        state, current=(seat + 1) % state.players, phase="draw", turn=state.turn + 1
    )


def _put(
    rows: tuple[tuple[int, ...], ...], index: int, row: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return tuple(row if i == index else r for i, r in enumerate(rows))


def preview(state: State, action: Action) -> dict[str, Any]:
    return {"vp": action.card} if action.type == "play" else {}


def narrate(state: State, action: Action) -> Message:
    who = {"seat": state.current}
    if action.type == "draw":
        return message("toy.log.drew", seat=who)
    return message("toy.log.played", seat=who, card=str(action.card))


def final_scores(state: State) -> dict[str, Any]:
    totals = [sum(cards) for cards in state.played]
    best = max(totals)
    return {
        "players": [
            {"seat": s, "total": t, "categories": {"cards": t}}
            for s, t in enumerate(totals)
        ],
        "winners": [s for s, t in enumerate(totals) if t == best],
        "tiebreak": None,
    }


def view_for(state: State, seat: int | None) -> dict[str, Any]:
    return {
        "game": GAME,
        "format": 1,
        "viewer": seat,
        "phase": state.phase,
        "current": current_player(state),
        "turn": state.turn,
        "first_player": state.first_player,
        "players": [
            {
                "seat": s,
                "colour": COLOURS[s],
                "hand": list(state.hands[s]) if s == seat else None,
                "hand_size": len(state.hands[s]),
                "played": list(state.played[s]),
            }
            for s in range(state.players)
        ],
        "deck_size": len(state.deck),
        "scores": final_scores(state) if is_over(state) else None,
    }


def encode_state(state: State) -> dict[str, Any]:
    return {
        "format": 1,
        "players": state.players,
        "seed": state.seed,
        "deck": list(state.deck),
        "hands": [list(h) for h in state.hands],
        "played": [list(p) for p in state.played],
        "current": state.current,
        "phase": state.phase,
        "turn": state.turn,
        "first_player": state.first_player,
    }


def decode_state(data: dict[str, Any]) -> State:
    return State(
        data["players"],
        data["seed"],
        tuple(data["deck"]),
        tuple(tuple(h) for h in data["hands"]),
        tuple(tuple(p) for p in data["played"]),
        data["current"],
        data["phase"],
        data["turn"],
        data["first_player"],
    )


def encode_action(action: Action) -> dict[str, Any]:
    return (
        {"type": "draw"}
        if action.type == "draw"
        else {"type": "play", "card": action.card}
    )


def decode_action(data: Any) -> Action:
    if not isinstance(data, dict) or data.get("type") not in ("draw", "play"):
        raise MalformedAction(message("toy.reason.not_an_action"))
    if data["type"] == "draw":
        if set(data) != {"type"}:
            raise MalformedAction(message("toy.reason.draw_alone"))
        return Action("draw")
    card = data.get("card")
    if (
        set(data) != {"type", "card"}
        or not isinstance(card, int)
        or isinstance(card, bool)
    ):
        raise MalformedAction(message("toy.reason.card"))
    return Action("play", card)


def replay(setup: dict[str, Any], actions: list[Any]) -> State:
    state = new_game(setup["players"], setup["seed"], setup.get("options"))
    for action in actions:
        state = apply(
            state, action if isinstance(action, Action) else decode_action(action)
        )
    return state


def catalogue() -> dict[str, Any]:
    return {"game": GAME, "colours": COLOURS}


def upgrade_options(
    options: dict[str, Any], engine_version: str | None
) -> dict[str, Any]:
    """A record's options as toy engine `engine_version` played them. A made-up history,
    so that the server's reading of old records is tested on a game it knows only by its
    descriptor: before toy engine "1" the fixed first seat was the option ``first``."""
    given = dict(options)
    if engine_version == "0" and "first" in given:
        given["first_player"] = given.pop("first")
    return given


def secrets(full: dict[str, Any], viewer: int | None) -> tuple[list[str], set[int]]:
    """What `viewer` may never receive (tests/app/hidden.py): the deck's order and the
    other players' hands."""
    strings = []
    if len(full["deck"]) > 1:
        strings.append(json.dumps(full["deck"], separators=(",", ":")))
    for seat, hand in enumerate(full["hands"]):
        if seat != viewer and hand:
            strings.append(json.dumps(hand, separators=(",", ":")))
    return strings, set()


def _descriptor() -> Game[State, Action]:
    from tests.app import toygame  # this very module, typed: mypy checks it as `Engine`

    class ToyOptions(Options):
        first_player: int | None = None

    return Game(
        engine=toygame,
        options=ToyOptions,
        client="js/plain-screen.js",
        upgrade_options=upgrade_options,
    )


DESCRIPTOR = _descriptor()
"""The toy's entry in the registry (``ISHTAR_EXTRA_GAMES=tests.app.toygame``): no bots."""
