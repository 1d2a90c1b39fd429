"""Views (hidden information removed), the codec, previews, narration and sampling."""

from __future__ import annotations

import json
import random

import pytest

from engine.ishtar import (
    GAME,
    Action,
    IllegalAction,
    MalformedAction,
    apply,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    final_scores,
    legal_actions,
    new_game,
    preview,
    sample_state,
    view_for,
)
from engine.ishtar.state import State
from tests.engine.ishtar.builders import force_tile, fresh, game, with_hand
from tests.engine.ishtar.in_english import narrate
from tests.engine.ishtar.invariants import check_all, check_view_hides_secrets


def midgame(players: int = 3, seed: int = 5, steps: int = 40) -> State:
    state = new_game(players, seed, {"edition": "1"})
    rng = random.Random(seed)
    for _ in range(steps):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_view_has_no_seed_no_deck_order_and_no_face_down_tile() -> None:
    state = midgame()
    check_view_hides_secrets(state)
    view = view_for(state, None)
    assert view["viewer"] is None
    assert view["deck_size"] == len(state.deck)
    assert {"seed", "deck", "piles", "removed"}.isdisjoint(view)


def test_top_of_the_pile_under_the_watering_can_is_face_down() -> None:
    state = apply(game(), Action("choose", pile=2))
    piles = view_for(state, 0)["carpet"]["piles"]
    assert piles[2]["top"] is None
    assert piles[2]["size"] == len(state.piles[2])
    assert all(p["top"] is not None for i, p in enumerate(piles) if i != 2)


def test_view_is_the_same_whatever_the_hidden_order() -> None:
    state = midgame()
    shuffled = state.evolve(
        piles=tuple(p[:-1][::-1] + p[-1:] if p else p for p in state.piles),
        deck=state.deck[::-1],
        seed=12345,
    )
    assert view_for(shuffled, 1) == view_for(state, 1)


def test_view_shape_of_the_contract() -> None:
    view = json.loads(json.dumps(view_for(midgame(), 0)))
    assert view["game"] == GAME
    for key in (
        "phase",
        "current",
        "turn",
        "players",
        "layout",
        "cells",
        "tiles",
        "spaces",
        "carpet",
        "hand",
        "market",
        "deck_size",
        "trees_left",
        "scores",
        "standing",
    ):
        assert key in view
    assert len(view["cells"]) == 5 * 37


def test_the_view_carries_the_running_score_until_the_end() -> None:
    """Issue 18: the players follow the score as it stands (``final_scores`` as a
    projection) and who holds each fountain; once over, ``scores`` has it instead."""
    state = midgame()
    view = view_for(state, None)
    assert view["scores"] is None
    assert view["standing"] == final_scores(state)
    assert view_for(state, 0)["standing"] == view["standing"]


def test_state_codec_round_trip_with_format() -> None:
    state = midgame()
    data = json.loads(json.dumps(encode_state(state)))
    assert data["format"] == 3
    assert decode_state(data) == state
    with pytest.raises(ValueError, match="format"):
        decode_state({**data, "format": 99})


def test_action_codec_round_trip() -> None:
    for action in [
        Action("choose", pile=3, pay=("purple", "red")),
        Action("place", at=(1, -2), rotation=4),
        Action("discard"),
        Action("assistant"),
        Action("skill", skill="B", pay=("red", "white")),
        Action("pass"),
        Action("bloom", token="F1F2", cells=((1, 0), (2, 0))),
        Action("reserve", card=7),
        Action("plant", card=7, at=(3, 0)),
        Action("end"),
    ]:
        assert decode_action(json.loads(json.dumps(encode_action(action)))) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, "unknown action type"),
        ({"type": "place", "at": [1, 2]}, "needs rotation"),
        ({"type": "place", "at": [1], "rotation": 0}, "pair"),
        ({"type": "choose", "pile": "x", "pay": []}, "whole number"),
        ({"type": "choose", "pile": 1, "pay": ["gold"]}, "gem colours"),
        ([1, 2], "JSON object"),
    ],
)
def test_malformed_actions_are_refused_with_a_code(data: object, message: str) -> None:
    with pytest.raises(MalformedAction, match=message):
        decode_action(data)


def test_decode_action_sorts_payment_colours() -> None:
    action = decode_action({"type": "choose", "pile": 1, "pay": ["white", "purple"]})
    assert action.pay == ("purple", "white")


def test_illegal_action_carries_a_readable_reason() -> None:
    with pytest.raises(IllegalAction) as info:
        apply(game(), Action("choose", pile=9))
    assert info.value.reason == "there is no pile index 9: indices run from 0 to 5"
    assert not isinstance(info.value, MalformedAction)


def test_preview_of_every_kind_of_action() -> None:
    state = game()
    assert preview(state, Action("choose", pile=0))["cost"] == 0
    assert (
        preview(state, Action("choose", pile=0))["tile"]["tile"] == state.piles[0][-1]
    )
    placing = with_hand(state, "line-03")
    assert preview(placing, Action("place", at=(1, 0), rotation=0))["cells"] == [
        [1, 0], [2, 0], [3, 0],
    ]  # fmt: skip
    assert preview(state, Action("plant", card=26, at=(0, 0))) == {
        "vp": 17,
        "cost": {"purple": 0, "red": 2, "white": 3},
    }
    assert preview(state, Action("end")) == {}


def test_narrate_uses_colour_names() -> None:
    state = with_hand(game(), "line-03")
    assert narrate(state, Action("place", at=(1, 0), rotation=0)) == (
        "Blue placed a line tile and collected 1 purple gem"
    )
    assert narrate(game(), Action("choose", pile=1)) == (
        f"Blue put the watering can on pile 2 and took a {state.cups[1]} tile"
    )


def test_sample_state_is_consistent_with_the_view() -> None:
    state = midgame(4, 8, 55)
    view = view_for(state, 2)
    sampled = sample_state(view, 99)
    check_all(sampled)
    assert view_for(sampled, 2) == view
    # the sample's view is the one it was drawn from (sample_state adopts its parts):
    # built afresh from the sample, it is the same
    assert view_for(sampled, 2)["cells"] is view["cells"]
    assert view_for(fresh(sampled), 2) == view
    assert sampled.bank == state.bank
    assert sorted(sampled.deck) == sorted(state.deck)
    # a view carries no undo record: a determinization looks ahead, never back
    forward = [a for a in legal_actions(state) if a.type != "undo"]
    assert legal_actions(sampled) == forward
    assert sample_state(view, 99) == sampled  # seeded


def test_sample_state_differs_only_in_hidden_parts() -> None:
    state = midgame(2, 3, 30)
    sampled = sample_state(view_for(state, 0), 1)
    same = (
        "placed",
        "flowers",
        "gems",
        "market",
        "trees",
        "assistants",
        "phase",
        "current",
    )
    for name in same:
        assert getattr(sampled, name) == getattr(state, name), name
    assert [len(p) for p in sampled.piles] == [len(p) for p in state.piles]


def test_tile_view_lists_spaces() -> None:
    state = force_tile(game(), "line-01", (1, 0), 0)
    view = view_for(state, 0)
    assert view["tiles"][0]["cells"] == [[1, 0], [2, 0], [3, 0]]
    icons = [s["icon"] for s in view["spaces"]]
    assert icons == ["a", None, None]


def test_tree_cards_in_front_of_players_are_shown_to_everyone_as_bought_face_up() -> (
    None
):
    # RB: "Place the card face down in front of you"; every card a player holds was chosen
    # from the face-up market (or reserved from it) in view of the table, and the log names
    # it, so the online table shows them to everyone (docs/games/ishtar/rules.md): nothing is shown that
    # the table had not seen face up.
    state = new_game(3, 11, {"edition": "1"})
    rng = random.Random(11)
    seen: set[int] = {c["card"] for c in view_for(state, None)["market"]}
    while state.phase != "over":
        action = rng.choice(legal_actions(state))
        if action.type in ("plant", "reserve") and action.card is not None:
            assert state.ed.tree_cards[action.card].name in narrate(state, action)
        state = apply(state, action)
        views = [view_for(state, s) for s in (None, *range(state.players))]
        shown = {
            card
            for p in views[0]["players"]
            for card in (*p["tree_cards"], p["reserved"])
            if card is not None
        }
        under_trees = {s["tree"] for s in views[0]["spaces"] if s["tree"] is not None}
        assert shown | under_trees <= seen
        assert all(v["players"] == views[0]["players"] for v in views)
        assert all(v["spaces"] == views[0]["spaces"] for v in views)
        seen |= {c["card"] for c in views[0]["market"]}
    assert sum(len(cards) for cards in state.tree_cards) > 0
