"""Moving on between steps, the end of a turn, and the end of the game (RB "Game End").

Steps with no choice are skipped: no possible planting ends the turn at once. As soon as two
piles are empty the end is triggered; the round is completed, so the game ends when play
would return to the first player. If no tile remains at all, the game ends at once.
"""

from __future__ import annotations

from engine.rules.trees import can_plant
from engine.state import State


def to_plant(state: State) -> State:
    """Enter the plant step, or end the turn if the player cannot plant anything."""
    planting = state.evolve(phase="plant", hand=None, bloom=None)
    if can_plant(planting):
        return planting
    return end_turn(planting)


def end_turn(state: State) -> State:
    """Pass to the next player, or end the game."""
    empties = sum(1 for pile in state.piles if not pile)
    triggered = state.end_triggered or empties >= 2
    following = (state.current + 1) % state.players
    if empties == len(state.piles) or (triggered and following == state.first_player):
        return state.evolve(
            phase="over", hand=None, bloom=None, end_triggered=triggered
        )
    return state.evolve(
        current=following,
        phase="choose",
        turn=state.turn + 1,
        hand=None,
        bloom=None,
        end_triggered=triggered,
    )
