"""Moving on between steps, the end of a turn, and the end of the game (RB "Game End").

A turn ends only with the player's ``end`` in the plant step, even when nothing is left to
plant or to take back: planting the last tree one can afford, or a purchase that revealed the
next card, never ends the turn under the player's hand (docs/games/ishtar/rules.md, "A turn
ends with end"). Games begun before engine 1.2.0 keep their rule (``State.auto_end``, option
``turn_end: "auto"``): there a turn with nothing left to plant or undo ends by itself
(``settle``, applied by ``engine.game`` after each step). As soon as two piles are empty
the end is triggered; the round is completed, so the game ends when play would return to the
first player. If no tile remains at all, the game ends at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ishtar.rules.trees import can_plant
from engine.ishtar.state import State

END_EMPTIES = 2
"""RB "Game End": the end is triggered as soon as this many piles are empty."""


def empty_piles(piles: Sequence[Sequence[str]]) -> int:
    """How many of the piles are empty."""
    return sum(1 for pile in piles if not pile)


def piles_to_end(state: State) -> int:
    """How many more piles must empty before the end is triggered: 0 once it is (the round
    in progress is then the last), 1 when the next pile to empty triggers it."""
    if state.end_triggered:
        return 0
    return max(0, END_EMPTIES - empty_piles(state.piles))


def to_plant(state: State) -> State:
    """Enter the plant step, which waits for ``end`` (or more trees, or an undo)."""
    return state.evolve(phase="plant", hand=None, bloom=None)


def settle(state: State) -> State:
    """Under the rule of engines before 1.2.0 (``auto_end``), end the turn by itself in the
    plant step when nothing can be planted or undone; otherwise the state as it is."""
    if (
        state.auto_end
        and state.phase == "plant"
        and not state.steps
        and not can_plant(state)
    ):
        return end_turn(state)
    return state


def end_turn(state: State) -> State:
    """Pass to the next player, or end the game; nothing of the turn can be undone after."""
    empties = empty_piles(state.piles)
    triggered = state.end_triggered or empties >= END_EMPTIES
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
