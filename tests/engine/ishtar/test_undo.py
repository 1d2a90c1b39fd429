"""Undo (docs/games/ishtar/rules.md "Undo"): the steps of one's own turn that revealed nothing may be taken
back, one at a time, until the turn ends; a step that revealed hidden information (choosing a
tile, a new tree card from the draw pile) is a boundary no undo crosses."""

from __future__ import annotations

import json

from engine.ishtar import (
    Action,
    apply,
    decode_state,
    encode_state,
    legal_actions,
    new_game,
    preview,
    replay,
    view_for,
)
from engine.ishtar.editions import EDITION_1
from engine.ishtar.state import State
from tests.engine.ishtar.builders import (
    force_tile,
    game,
    with_gems,
    with_plant,
    with_skills,
)
from tests.engine.ishtar.in_english import narrate, why_illegal

UNDO = Action("undo")


def chosen(seed: int = 0) -> State:
    """Seat 0 has just taken a tile (the first turn, pile 0)."""
    return apply(game(seed=seed), Action("choose", pile=0))


def first_of(state: State, kind: str) -> Action:
    return next(a for a in legal_actions(state) if a.type == kind)


def planting(market: tuple[int, ...] = (1, 2, 3, 4, 5), deck: bool = True) -> State:
    """Seat 0 to plant with gems to spare; grass at (3,0), (1,-1) and (3,-1)."""
    state = force_tile(game(), "line-02", (1, 0), 0)
    state = force_tile(state, "line-03", (1, -1), 0)
    rest = tuple(c for c in EDITION_1.tree_cards if c not in market) if deck else ()
    state = state.evolve(market=market, market_trees=frozenset(market), deck=rest)
    return with_plant(with_gems(state, 0, 3, 3, 3))


def test_choosing_a_tile_is_never_undone() -> None:
    state = chosen()
    assert UNDO not in legal_actions(state)
    assert why_illegal(state, UNDO) is not None
    assert "nothing to undo" in (why_illegal(state, UNDO) or "")


def test_a_placement_is_undone_back_to_the_tile_in_hand() -> None:
    state = chosen()
    after = apply(state, first_of(state, "place"))
    assert UNDO in legal_actions(after)
    back = apply(after, UNDO)
    assert back == state
    assert back.hand == state.hand and back.phase == "place"
    assert back.gems == state.gems and back.gems_on_board == state.gems_on_board


def test_steps_are_undone_one_at_a_time_in_reverse_order() -> None:
    state = chosen()
    placed = apply(state, first_of(state, "place"))
    assert placed.phase == "special"  # starting tiles carry an assistant icon
    assisted = apply(placed, Action("assistant"))
    assert assisted.steps == (placed.steps[0], Action("assistant"))
    assert apply(assisted, UNDO) == placed
    assert apply(apply(assisted, UNDO), UNDO) == state


def test_undo_stays_offered_until_the_turn_is_ended() -> None:
    state = chosen()
    state = apply(state, first_of(state, "place"))
    state = apply(state, Action("pass"))
    assert state.phase == "plant"  # nothing to plant, but the turn waits for "end"
    assert legal_actions(state) == [Action("end"), UNDO]
    ended = apply(state, Action("end"))
    assert ended.current == 1
    assert ended.checkpoint is None and ended.steps == ()
    assert UNDO not in legal_actions(ended)


def test_after_a_reveal_with_nothing_left_the_turn_still_waits_for_end() -> None:
    state = planting()
    for card, at in ((2, (3, 0)), (1, (1, -1))):
        state = apply(state, Action("plant", card=card, at=at))
    after = apply(state, Action("plant", card=4, at=(3, -1)))  # reveals the next card
    assert (after.phase, after.current) == ("plant", 0)
    assert legal_actions(after) == [Action("end")]


def test_a_skill_is_undone_with_its_gems_given_back() -> None:
    state = force_tile(game(), "line-02", (1, 0), 0)  # F2s: a skill icon
    state = with_gems(state, 0, 2, 0, 0).evolve(phase="special", hand=None)
    after = apply(state, Action("skill", skill="H", pay=("purple", "purple")))
    assert after.skills[0] == {"H": ("purple", "purple")}
    assert after.assistants_carpet[0] == 0
    back = apply(after, UNDO)
    assert back == state
    assert back.gems[0] == (2, 0, 0) and back.assistants_carpet[0] == 2


def test_a_blooming_token_is_undone() -> None:
    state = force_tile(game(), "line-02", (1, 0), 0)
    state = with_gems(state, 0, 2, 0, 0).evolve(phase="special", hand=None)
    skill = apply(state, Action("skill", skill="G", pay=("purple", "purple")))
    laid = apply(skill, first_of(skill, "bloom"))
    assert laid.tokens and laid.phase == "plant"
    assert apply(laid, UNDO) == skill
    assert apply(skill, UNDO) == state


def test_buying_a_card_that_reveals_the_next_one_cannot_be_undone() -> None:
    state = planting()
    bought = apply(state, Action("plant", card=2, at=(3, 0)))
    assert bought.market[1] == state.deck[0]  # a card came out of the draw pile
    assert UNDO not in legal_actions(bought)
    assert bought.checkpoint is None


def test_a_reveal_also_locks_every_step_before_it() -> None:
    state = chosen()
    state = apply(state, first_of(state, "place"))
    assert state.steps
    state = state.evolve(phase="plant", gems=((3, 3, 3), state.gems[1]))
    plant = first_of(state, "plant")
    assert plant.card in state.market
    bought = apply(state, plant)
    assert bought.steps == () and UNDO not in legal_actions(bought)


def test_buying_from_the_market_with_an_empty_draw_pile_can_be_undone() -> None:
    state = planting(deck=False)
    state = apply(state, Action("end")).evolve(current=0, phase="plant")  # fresh turn
    bought = apply(state, Action("plant", card=2, at=(3, 0)))
    assert bought.market == (1, 3, 4, 5)  # nothing revealed: the market shrank
    assert apply(bought, UNDO) == state
    assert apply(bought, UNDO).market == (1, 2, 3, 4, 5)


def test_reserving_a_card_reveals_the_next_one_and_cannot_be_undone() -> None:
    state = force_tile(game(), "line-02", (1, 0), 0)
    state = with_gems(state, 0, 2, 0, 0).evolve(phase="special", hand=None)
    skill = apply(state, Action("skill", skill="I", pay=("purple", "purple")))
    assert skill.phase == "reserve" and UNDO in legal_actions(skill)
    reserved = apply(skill, first_of(skill, "reserve"))
    assert UNDO not in legal_actions(reserved)


def test_planting_the_reserved_card_can_be_undone() -> None:
    state = with_skills(planting(), 0, "I").evolve(reserved=(12, None))
    state = apply(state, Action("end")).evolve(current=0, phase="plant")
    planted = apply(state, Action("plant", card=12, at=(3, 0)))
    assert planted.reserved == (None, None)
    assert apply(planted, UNDO) == state


def test_undo_is_told_in_the_log_with_the_step_it_takes_back() -> None:
    state = chosen()
    place = first_of(state, "place")
    after = apply(state, place)
    line = narrate(after, UNDO)
    assert line == "Blue took back: " + narrate(state, place).removeprefix("Blue ")
    assert preview(after, UNDO)["undoes"] == {
        "type": "place",
        "at": list(place.at or ()),
        "rotation": place.rotation,
    }


def test_views_show_nothing_of_the_undo_record() -> None:
    state = chosen()
    after = apply(state, first_of(state, "place"))
    bare = after.evolve(checkpoint=None, steps=())
    for seat in (None, 0, 1):
        assert view_for(after, seat) == view_for(bare, seat)


def test_undo_record_survives_the_codec_and_stays_small() -> None:
    state = chosen()
    state = apply(state, first_of(state, "place"))
    state = apply(state, Action("assistant"))
    data = json.loads(json.dumps(encode_state(state)))
    assert len(data["undo"]["steps"]) == 2
    assert isinstance(data["undo"]["checkpoint"]["placed"], int)  # a prefix count
    assert len(json.dumps(data["undo"])) < 1500
    decoded = decode_state(data)
    assert decoded == state
    assert apply(decoded, UNDO) == apply(state, UNDO)


def test_undo_is_an_ordinary_move_of_the_replayed_log() -> None:
    setup = {"players": 2, "seed": 3, "layout": None, "first_player": 0}
    state = new_game(2, 3, {"first_player": 0, "edition": "1"})
    moves = []
    for pick in ("choose", "place", "undo", "place", "assistant", "undo", "pass"):
        action = UNDO if pick == "undo" else first_of(state, pick)
        moves.append(action)
        state = apply(state, action)
    assert replay(setup, moves) == state
    assert state.phase == "plant"
