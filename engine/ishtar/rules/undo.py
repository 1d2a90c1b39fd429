"""Undo: the player to act may take back the steps of their own turn that revealed nothing.

Placing a tile (or discarding it), the special action, a blooming token, and planting or
reserving a tree card when no new card comes out of the draw pile reveal no hidden
information, so they may be taken back, one at a time, until the turn ends. A step that
takes anything from a pile or from the tree card draw pile reveals hidden information
(choosing a tile always does: the top of the pile the watering can left is turned face up;
buying or reserving a market card does while the draw pile has cards): it can never be taken
back, and neither can any step before it.

The state keeps the undoable ``steps`` since the last such reveal and the ``checkpoint``
state before the first of them; ``undo`` replays all but the last step from the checkpoint.
Being an ordinary action, an undo is logged like any move, so ``replay`` of the move log
stays the source of truth.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ishtar.state import Action, State
from engine.ishtar.words import refusal
from engine.messages import Message

UNDO = Action("undo")

Step = Callable[[State, Action], State]


def legal(state: State) -> list[Action]:
    return [UNDO] if state.steps else []


def reason(state: State) -> Message | None:
    if state.steps:
        return None
    return refusal("nothing_to_undo")


def reveals(before: State, after: State) -> bool:
    """Whether a step took anything from a pile or the tree card draw pile."""
    return len(after.deck) != len(before.deck) or any(
        len(a) != len(b) for a, b in zip(after.piles, before.piles)
    )


def is_final_step(state: State, action: Action) -> bool:
    """Whether ``action``, known to be legal in ``state``, can never be undone, read off the
    rules without playing it: a choice reveals the next tile of its pile and ``end`` ends
    the turn; reserving a market card, or planting one (not the reserved card), reveals the
    next card while the draw pile has one. Every other step leaves the piles, the draw pile
    and the turn alone, so `record` keeps it undoable (and, being recorded, it never lets
    ``settle`` end the turn). The same as applying it and asking whether the turn moved on,
    the game ended or `reveals` says so (``narration.is_final``, which also takes illegal
    actions; tests/engine/ishtar/test_final_actions.py checks the two agree)."""
    kind = action.type
    if kind in ("choose", "end"):
        return True
    if kind == "reserve":
        return bool(state.deck)
    if kind == "plant":
        return action.card != state.reserved[state.current] and bool(state.deck)
    return False


def record(before: State, action: Action, after: State) -> State:
    """``after`` with its undo record: the step added, or a new boundary after a reveal."""
    if after.turn != before.turn or after.phase == "over":
        return after.evolve(checkpoint=None, steps=())
    if reveals(before, after):
        return after.evolve(checkpoint=None, steps=())
    base = before if before.checkpoint is None else before.checkpoint
    return after.evolve(checkpoint=base, steps=(*before.steps, action))


def rewind(state: State, step: Step) -> State:
    """The state with the last undoable step taken back: the others replayed from the checkpoint."""
    assert state.checkpoint is not None and state.steps
    result = state.checkpoint
    for action in state.steps[:-1]:
        result = step(result, action)
    return result
