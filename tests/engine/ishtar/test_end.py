"""End of the game (RB "Game End"): two empty piles trigger it, the round is completed."""

from __future__ import annotations

import random

from engine.ishtar import (
    Action,
    State,
    apply,
    current_player,
    is_over,
    legal_actions,
)
from engine.ishtar.rules.turn import end_turn
from tests.engine.ishtar.builders import game
from tests.engine.ishtar.in_english import why_illegal


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


def _turns_after_the_trigger(
    players: int, seed: int
) -> tuple[int, list[int], list[int], State]:
    """Play seeded random moves through apply to the end: the seat whose choice emptied the
    second pile, the seats that began a turn after it, each seat's turns, the final state."""
    rng = random.Random(seed)
    state = game(players=players, seed=seed, first_player=seed % players)
    trigger: int | None = None
    after: list[int] = []
    turns = [0] * players
    while not is_over(state):
        action = rng.choice([a for a in legal_actions(state) if a.type != "undo"])
        seat, phase = state.current, state.phase
        if phase == "choose":
            turns[seat] += 1
            if trigger is not None:
                after.append(seat)
        before = state
        state = apply(state, action)
        if trigger is None and state.end_triggered:
            assert sum(1 for pile in before.piles if not pile) == 1
            assert sum(1 for pile in state.piles if not pile) == 2
            assert action.type == "choose", "a pile empties when a tile is taken"
            trigger = seat
            # The triggering turn goes on (place, special, plant) like any other.
            assert not is_over(state) and state.current == seat
    assert trigger is not None
    return trigger, after, turns, state


def test_the_last_round_is_played_through_apply_after_the_second_pile_empties() -> None:
    for seed in range(20):
        trigger, after, turns, state = _turns_after_the_trigger(3, seed)
        if trigger != (state.first_player - 1) % 3:
            break  # someone still has to play in this round
    else:
        raise AssertionError("no seeded game left part of a round to play")
    first = state.first_player
    # Every seat after the trigger and before the first player plays one more turn, then
    # the game ends: play would return to the first player.
    expected = [s % 3 for s in range(trigger + 1, first + 3 * (first <= trigger))]
    assert after == expected and after
    assert is_over(state) and state.end_triggered
    assert current_player(state) is None
    # Each seat played as many turns.
    assert turns[0] == turns[1] == turns[2]
    assert sum(turns) == state.turn
    assert legal_actions(state) == []


def test_the_view_counts_the_piles_still_to_empty_before_the_end() -> None:
    """What the table announces ahead (docs/client.md "Teaching the game"): 2 piles to go,
    then 1 once a pile is empty, then 0 when the second empties (the last round)."""
    from engine.ishtar import view_for

    state = game(players=3)
    assert view_for(state, 0)["piles_to_end"] == 2
    state = state.evolve(piles=((), *state.piles[1:]))
    assert view_for(state, 0)["piles_to_end"] == 1
    one = tuple(p if i != 1 else (p[-1],) for i, p in enumerate(state.piles))
    state = state.evolve(piles=one, can=0)
    after = apply(state, Action("choose", pile=1))
    assert after.end_triggered
    assert view_for(after, 0)["piles_to_end"] == 0
    assert view_for(after, None)["piles_to_end"] == 0
