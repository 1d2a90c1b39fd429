"""Moving on between steps, the end of a turn, and the end of the game (RB "Game End").

Steps with no choice are skipped: when nothing can be planted the turn ends at once, unless
a step of it can still be taken back (engine.rules.undo), in which case the player ends it
with ``end`` (``engine.game`` settles this after each step). As soon as two piles are empty
the end is triggered; the round is completed, so the game ends when play would return to the
first player. If no tile remains at all, the game ends at once.
"""

from __future__ import annotations

from engine.ishtar.rules.trees import can_plant
from engine.ishtar.state import State


def to_plant(state: State) -> State:
    """Enter the plant step (``settle`` ends the turn there if nothing is left to do)."""
    return state.evolve(phase="plant", hand=None, bloom=None)


def settle(state: State) -> State:
    """End the turn by itself in the plant step if nothing can be planted or undone."""
    if state.phase == "plant" and not state.steps and not can_plant(state):
        return end_turn(state)
    return state


def end_turn(state: State) -> State:
    """Pass to the next player, or end the game; nothing of the turn can be undone after."""
    empties = sum(1 for pile in state.piles if not pile)
    triggered = state.end_triggered or empties >= 2
    following = (state.current + 1) % state.players
    if empties == len(state.piles) or (triggered and following == state.first_player):
        return state.evolve(
            phase="over",
            hand=None,
            bloom=None,
            end_triggered=triggered,
            checkpoint=None,
            steps=(),
        )
    return state.evolve(
        current=following,
        phase="choose",
        turn=state.turn + 1,
        hand=None,
        bloom=None,
        end_triggered=triggered,
        checkpoint=None,
        steps=(),
    )
