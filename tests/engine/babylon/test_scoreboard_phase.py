"""The scoreboard step of option ``choose`` (spec §4.2, R-5, R-16)."""

from __future__ import annotations

import pytest

from engine.babylon import IllegalAction, apply, legal_actions
from engine.babylon.scoreboards import SIDES
from engine.babylon.state import Action
from tests.engine.babylon.builders import game, irrigate
from tests.engine.babylon.in_english import why_illegal


def side(name: str) -> Action:
    return Action("scoreboard", side=name)


def test_r5_seat_0_chooses_first_then_the_others_in_seat_order() -> None:
    state = game(3, first_player=2, scoreboards="choose")
    order = []
    for name in ("C2", "A1", "D1"):
        order.append(state.current)
        state = apply(state, side(name))
    assert order == [0, 1, 2]
    assert state.sides == ("C2", "A1", "D1")
    assert state.phase == "irrigate"
    assert state.current == 2 == state.first_player  # then the first turn starts
    assert state.turn == 1


def test_r5_each_picks_one_side_of_a_board_nobody_holds() -> None:
    state = game(4, scoreboards="choose")
    assert legal_actions(state) == [side(s) for s in SIDES]
    state = apply(state, side("C2"))
    assert legal_actions(state) == [side(s) for s in SIDES if s[0] != "C"]
    state = apply(state, side("A1"))
    assert [a.side for a in legal_actions(state)] == ["B1", "B2", "D1", "D2"]


def test_r5_a_taken_board_is_refused_either_side() -> None:
    state = apply(game(2, scoreboards="choose"), side("C2"))
    for name in ("C1", "C2"):
        assert why_illegal(state, side(name)) == "Scoreboard C is already taken."
        with pytest.raises(IllegalAction) as info:
            apply(state, side(name))
        assert info.value.reason == "Scoreboard C is already taken."


def test_r5_an_unknown_side_is_refused() -> None:
    state = game(2, scoreboards="choose")
    assert why_illegal(state, side("Z9")) == (
        "There is no scoreboard side 'Z9': sides are A1 to D2."
    )
    assert why_illegal(state, Action("scoreboard")) == (
        "There is no scoreboard side 'None': sides are A1 to D2."
    )


def test_r16_nothing_but_a_scoreboard_while_the_boards_are_chosen() -> None:
    state = game(2, scoreboards="choose")
    for action in (irrigate((0, 1)), Action("harvest"), Action("undo")):
        assert why_illegal(state, action) == (
            "Everyone chooses a scoreboard before the first turn."
        )


def test_r16_no_scoreboard_action_once_the_boards_are_dealt() -> None:
    state = game(2)
    assert why_illegal(state, side("A1")) == "The scoreboards have been chosen."
