"""The special action and the lower skills (RB "Special Action"; GAME-SPEC §7)."""

from __future__ import annotations

import json

import pytest

from engine.ishtar import (
    Action,
    IllegalAction,
    State,
    apply,
    encode_action,
    legal_actions,
    legal_with_previews,
    preview,
)
from engine.ishtar.components import GEM_COLOURS, SKILL_COST
from engine.ishtar.game import SPECIAL_IS_OVER
from engine.ishtar.hexgrid import distance
from engine.ishtar.rules.gardens import gardens
from tests.engine.ishtar.builders import (
    cell,
    force_assistant,
    force_tile,
    game,
    with_gems,
    with_hand,
    with_skills,
    with_special,
)
from tests.engine.ishtar.in_english import narrate, why_illegal
from tests.engine.ishtar.played import reach


def placed(tile: str, at=(1, 0), rotation=0, gems=(1, 0, 0)):  # type: ignore[no-untyped-def]
    """The special step right after ``tile`` was placed by seat 0."""
    state = force_tile(game(), tile, at, rotation)
    return with_special(with_gems(state, 0, *gems))


def test_assistant_icon_puts_an_assistant_on_the_icon_space() -> None:
    state = placed("line-01")  # F1a at (1,0)
    assert legal_actions(state) == [Action("assistant"), Action("pass")]
    after = apply(state, Action("assistant"))
    assert after.assistants == {cell(state, (1, 0)): 0}
    assert after.assistants_supply[0] == 1


def test_the_assistant_preview_names_the_icon_space_where_it_would_stand() -> None:
    state = placed("line-01")  # F1a at (1,0)
    assert preview(state, Action("assistant"))["at"] == [1, 0]


def test_no_assistant_when_the_flowerbed_already_has_one() -> None:
    state = force_tile(game(), "line-12", (1, 0), 0)  # G F1 G: flower at (2,0)
    state = force_assistant(state, (2, 0), 1)
    state = force_tile(
        state, "triangle-01", (2, 1), 0
    )  # F1a (2,1) joins the bed of (2,0)
    state = with_special(state)
    assert (
        gardens(state).bed[cell(state, (2, 1))]
        == gardens(state).bed[cell(state, (2, 0))]
    )
    assert (
        why_illegal(state, Action("assistant"))
        == "two assistants would share one flowerbed"
    )


def test_no_assistant_without_one_in_the_supply() -> None:
    state = placed("line-01")
    state = state.evolve(assistants_supply=(0, 2))
    assert (
        why_illegal(state, Action("assistant"))
        == "you have no assistant in your supply"
    )


def test_no_special_step_for_a_tile_without_icon() -> None:
    state = with_hand(game(), "line-03")
    after = apply(state, Action("place", at=(1, 0), rotation=0))
    assert after.phase != "special"


def test_special_step_skipped_when_passing_is_the_only_choice() -> None:
    # Skill icon but fewer than 2 gems: nothing to choose.
    state = with_gems(with_hand(game(), "line-02"), 0)
    after = apply(state, Action("place", at=(1, 0), rotation=0))
    assert after.phase != "special"


def test_skill_icon_unlocks_a_skill_for_any_two_gems() -> None:
    state = placed("line-02", gems=(1, 1, 0))  # F2s
    skills = {a.skill for a in legal_actions(state) if a.type == "skill"}
    assert skills == set("FGHIJ")
    after = apply(state, Action("skill", skill="F", pay=("purple", "red")))
    assert after.skills[0] == {"F": ("purple", "red")}
    assert after.gems[0] == (0, 0, 0)


def test_upper_skill_needs_the_lower_skill_below_it() -> None:
    state = placed("line-02", gems=(2, 0, 0))
    assert why_illegal(state, Action("skill", skill="A", pay=("purple", "purple"))) == (
        "skill A needs skill F below it first"
    )
    state = with_skills(state, 0, "F")
    assert (
        why_illegal(state, Action("skill", skill="A", pay=("purple", "purple"))) is None
    )


def test_each_skill_is_unlocked_once() -> None:
    state = with_skills(placed("line-02", gems=(2, 0, 0)), 0, "I")
    assert why_illegal(state, Action("skill", skill="I", pay=("purple", "purple"))) == (
        "skill I is already unlocked"
    )


def test_not_enough_gems_for_a_skill() -> None:
    state = placed("line-02", gems=(1, 0, 0))
    assert why_illegal(state, Action("skill", skill="F", pay=("purple", "purple"))) == (
        "not enough gems: a skill costs 2"
    )


def test_gems_paid_on_a_skill_leave_the_supply_and_not_to_the_bank() -> None:
    state = placed("line-02", gems=(0, 2, 0))
    after = apply(state, Action("skill", skill="H", pay=("red", "red")))
    assert after.bank == state.bank
    assert after.gems[0] == (0, 0, 0)


def test_wild_icon_is_either_an_assistant_or_a_skill() -> None:
    state = placed("line-05", gems=(2, 0, 0))  # F2w F2 F1
    types = {a.type for a in legal_actions(state)}
    assert types == {"assistant", "skill", "pass"}


def test_special_action_may_be_passed() -> None:
    state = placed("line-01")
    after = apply(state, Action("pass"))
    assert after.assistants == {}
    assert after.phase in ("plant", "choose")


def test_skill_h_takes_your_assistants_from_the_carpet() -> None:
    state = placed("line-02", gems=(2, 0, 0))
    after = apply(state, Action("skill", skill="H", pay=("purple", "purple")))
    assert after.assistants_supply[0] == 4
    assert after.assistants_carpet[0] == 0


def test_skill_g_takes_a_single_blooming_token_to_place_now() -> None:
    state = placed("line-02", gems=(2, 0, 0))  # F2s F1 G: grass at (3,0)
    after = apply(state, Action("skill", skill="G", pay=("purple", "purple")))
    assert after.phase == "bloom"
    assert after.bloom == "single"
    assert {a.token for a in legal_actions(after) if a.type == "bloom"} == {"F2", "F3"}


def test_skill_j_takes_a_double_blooming_token_to_place_now() -> None:
    state = force_tile(game(), "line-06", (1, 0), 0)  # F4 G G: grass (2,0) (3,0)
    state = force_tile(state, "line-02", (0, 1), 2)
    state = with_special(with_gems(state, 0, 2))
    after = apply(state, Action("skill", skill="J", pay=("purple", "purple")))
    assert after.bloom == "double"
    cells = {a.cells for a in legal_actions(after)}
    assert ((2, 0), (3, 0)) in cells
    assert ((3, 0), (2, 0)) in cells


def test_skill_g_without_a_free_grass_space_gives_no_token() -> None:
    state = placed("line-01", gems=(2, 0, 0))
    state = force_tile(state, "line-08", (0, 1), 2)  # F1 F1s F1: no grass at all
    state = state.evolve(trees={cell(state, (3, 0)): 1})  # the only grass has a tree
    after = apply(state, Action("skill", skill="G", pay=("purple", "purple")))
    assert after.phase != "bloom"
    assert after.tokens == ()


def test_skill_i_reserves_a_market_card_with_its_tree() -> None:
    state = placed("line-02", gems=(2, 0, 0))
    after = apply(state, Action("skill", skill="I", pay=("purple", "purple")))
    assert after.phase == "reserve"
    card = after.market[0]
    reserved = apply(after, Action("reserve", card=card))
    assert reserved.reserved[0] == card
    assert card not in reserved.market
    assert len(reserved.market) == 5  # refilled
    assert reserved.market[0] in reserved.market_trees
    assert reserved.trees_left == after.trees_left - 1


def _skill_to_take(state: State) -> bool:
    """A special step where two skills are open and the gems pay for both."""
    if state.phase != "special":
        return False
    letters = {a.skill for a in legal_actions(state) if a.type == "skill"}
    return len(letters) >= 2 and sum(state.gems[state.current]) >= 2 * SKILL_COST


def _pay_from(gems: tuple[int, int, int]) -> tuple[str, ...]:
    """The first SKILL_COST gems of a supply, by colour."""
    colours = [c for c, n in zip(GEM_COLOURS, gems) for _ in range(n)]
    return tuple(colours[:SKILL_COST])


def test_a_second_skill_is_refused_in_the_same_turn() -> None:
    state = reach(2, None, _skill_to_take)
    seat = state.current
    offered = [a for a in legal_actions(state) if a.type == "skill"]
    first = next((a for a in offered if a.skill in "FH"), offered[0])
    after = apply(state, first)
    assert set(after.skills[seat]) == set(state.skills[seat]) | {first.skill}
    second_letter = next(a.skill for a in offered if a.skill != first.skill)
    second = Action("skill", skill=second_letter, pay=_pay_from(after.gems[seat]))
    # The player can pay for it and it is open, but the turn's special action was taken.
    assert sum(after.gems[seat]) >= SKILL_COST
    assert after.current == seat and after.phase != "special"
    assert all(a.type != "skill" for a in legal_actions(after))
    with pytest.raises(IllegalAction) as refused:
        apply(after, second)
    assert refused.value.message == SPECIAL_IS_OVER
    # Taking the first one back leaves room for the other instead, not for both.
    back = apply(after, Action("undo"))
    assert back.phase == "special" and back.skills == state.skills
    instead = apply(back, second)
    assert second_letter in instead.skills[seat]
    assert first.skill not in instead.skills[seat]


def _wild_with_both(state: State) -> bool:
    if state.phase != "special":
        return False
    types = {a.type for a in legal_actions(state)}
    return {"assistant", "skill"} <= types


def test_a_wild_icon_gives_an_assistant_or_a_skill_not_both() -> None:
    state = reach(2, None, _wild_with_both)
    seat = state.current
    skill = next(a for a in legal_actions(state) if a.type == "skill")
    after = apply(state, Action("assistant"))
    assert len(after.assistants) == len(state.assistants) + 1
    with pytest.raises(IllegalAction) as refused:
        apply(
            after, Action("skill", skill=skill.skill, pay=_pay_from(after.gems[seat]))
        )
    assert refused.value.message == SPECIAL_IS_OVER
    after = apply(state, skill)
    with pytest.raises(IllegalAction) as refused:
        apply(after, Action("assistant"))
    assert refused.value.message == SPECIAL_IS_OVER


def test_the_placement_preview_says_when_an_assistant_icon_would_give_nothing() -> None:
    """docs/games/ishtar/rules.md "A lost assistant is said before the click": a tile whose
    assistant icon would join a flowerbed that has an assistant says so in the placement's
    preview (``no_assistant``) and in its log line; elsewhere it says nothing."""
    state = force_tile(game(), "line-12", (1, 0), 0)  # G F1 G: flower at (2,0)
    state = force_assistant(state, (2, 0), 1)
    state = with_hand(state, "triangle-01")  # F1a F1 F1
    joining = Action("place", at=(2, 1), rotation=0)  # the icon's space touches (2,0)
    assert why_illegal(state, joining) is None
    assert preview(state, joining)["no_assistant"] == "that flowerbed has one"
    assert narrate(state, joining).endswith(
        "(no assistant possible: that flowerbed has one)"
    )
    after = apply(state, joining)
    assert Action("assistant") not in legal_actions(after)
    apart = next(  # a placement no cell of which is next to the assistant's flower
        a
        for a in legal_actions(state)
        if a.type == "place"
        and all(distance(tuple(h), (2, 0)) > 1 for h in preview(state, a)["cells"])
    )
    assert "no_assistant" not in preview(state, apart)
    assert "no assistant" not in narrate(state, apart)
    listed = {json.dumps(e["action"]): e["preview"] for e in legal_with_previews(state)}
    assert listed[json.dumps(encode_action(joining))] == preview(state, joining)
    assert listed[json.dumps(encode_action(apart))] == preview(state, apart)


def test_the_placement_preview_says_when_the_supply_has_no_assistant() -> None:
    state = with_hand(game(), "line-01").evolve(assistants_supply=(0, 2))  # F1a first
    place = next(a for a in legal_actions(state) if a.type == "place")
    assert preview(state, place)["no_assistant"] == "none left in the supply"
    assert legal_with_previews(state)[0]["preview"] == preview(state, place)
    # a tile without an assistant icon says nothing
    plain = with_hand(game(), "line-03").evolve(assistants_supply=(0, 2))
    first = next(a for a in legal_actions(plain) if a.type == "place")
    assert "no_assistant" not in preview(plain, first)
