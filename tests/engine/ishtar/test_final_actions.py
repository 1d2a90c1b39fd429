"""Issue 36, point 8: a legal action's preview says ``"final": true`` exactly when the
action can never be undone — choosing a tile (the pile's next tile turns face up), planting
or reserving a market card while the draw pile has cards (a new card is revealed), ending
the turn — so the client can say so before it is pressed. Checked against the undo rule
itself over random games: after a final action nothing can be taken back; after any other
(but a placement's or an undo's own), the undo offers to take it back."""

from __future__ import annotations

import random

import pytest

from engine.ishtar import apply, legal_actions, preview
from engine.ishtar.state import Action
from tests.engine.ishtar.builders import game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_final_previews_agree_with_what_undo_can_take_back(seed: int) -> None:
    rng = random.Random(seed)
    state = game(players=2, seed=seed)
    kinds: dict[str, set[bool]] = {}
    while state.phase != "over":
        actions = legal_actions(state)
        for action in actions:
            if action.type in ("place", "undo"):
                assert "final" not in preview(state, action)
                continue
            final = preview(state, action).get("final", False)
            kinds.setdefault(action.type, set()).add(final)
            after = apply(state, action)
            undoable = Action("undo") in legal_actions(after)
            same_turn = after.turn == state.turn and after.phase != "over"
            assert final == (not same_turn or not undoable), (action, final)
        forward = [a for a in actions if a.type != "undo"]
        state = apply(state, rng.choice(forward))
    assert sum(1 for _ in kinds) >= 4, kinds
    assert kinds["choose"] == {True}  # a choice always reveals
    assert kinds["end"] == {True}
    assert True in kinds.get("plant", set()) | kinds.get("reserve", set())
