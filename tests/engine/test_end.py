"""End of the game (RB "Game End"): two empty piles trigger it, the round is completed."""

from __future__ import annotations

from engine import Action, apply, current_player, is_over, legal_actions, why_illegal
from engine.rules.turn import end_turn
from tests.engine.builders import game


def test_two_empty_piles_trigger_the_end_and_the_round_is_completed() -> None:
    state = game(players=3, first_player=1)
    state = state.evolve(piles=((), (), *state.piles[2:]), current=1, phase="plant")
    after = end_turn(state)  # seat 1 (first player) ends: seats 2 and 0 still play
    assert after.end_triggered
    assert (after.phase, after.current) == ("choose", 2)
    after = end_turn(after.evolve(phase="plant"))
    assert (after.phase, after.current) == ("choose", 0)
    after = end_turn(after.evolve(phase="plant"))
    assert is_over(after)  # play would return to the first player


def test_end_is_triggered_when_the_second_pile_empties_during_a_choice() -> None:
    state = game()
    one = tuple(p if i != 1 else (p[-1],) for i, p in enumerate(state.piles))
    state = state.evolve(piles=((), *one[1:]), can=0)
    after = apply(state, Action("choose", pile=1))
    assert after.end_triggered


def test_game_ends_at_once_when_no_tile_remains() -> None:
    state = game(players=4, first_player=0)
    state = state.evolve(piles=((),) * 6, current=1, phase="plant")
    assert is_over(end_turn(state))


def test_finished_game_has_no_player_and_no_action() -> None:
    state = game().evolve(phase="over")
    assert current_player(state) is None
    assert legal_actions(state) == []
    assert why_illegal(state, Action("end")) == "the game is over"


def test_action_of_the_wrong_step_is_refused() -> None:
    assert why_illegal(game(), Action("end")) == (
        "now is the time to choose a vegetation tile with the watering can, not to end"
    )
