"""Medium bot: greedy, one step at a time, on the heuristic value of the position.

At each step it applies every candidate action to a determinization of its view and keeps the
one whose result is worth most (bots/evaluation: immediate VP, gems, fountain control,
flowerbed value). Two steps are valued by what they lead to at once: a pile by the best
placement of its tile, a placement by the best special action it opens. Placements are first
ranked cheaply from the view (bots/board) and only the best few are applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.ishtar import edition
from bots.ishtar.base import (
    as_action,
    as_dict,
    kind,
    placement,
    playable,
    playable_actions,
)
from bots.ishtar.board import GEM_RARITY, PlacementValue, board_of
from bots.ishtar.evaluation import evaluate, utility
from engine.ishtar import Action, apply, current_player, sample_state, view_for


@dataclass
class Meter:
    """Work done by a policy: the positions it valued (bots/evaluation).

    Valuing a position is most of what a search does, and the count is the same on every
    machine, so it is the unit of a deterministic budget (bots/hard)."""

    evaluations: int = 0


@dataclass(frozen=True)
class Greedy:
    """The medium policy on a full state, from the point of view of one seat.

    `place_width` placements are applied when placing, `choose_width` per pile when choosing.
    A `meter`, if given, counts the positions valued.
    """

    place_width: int = 6
    choose_width: int = 2
    meter: Meter | None = field(default=None, compare=False)

    def value(self, state: Any, seat: int) -> float:
        if self.meter is not None:
            self.meter.evaluations += 1
        return utility(evaluate(state), seat)

    def pick(self, state: Any, legal: Sequence[Any], seat: int) -> Any:
        """The item of `legal` (for `state`, where `seat` acts) worth most to `seat`."""
        if len(legal) == 1:
            return legal[0]
        kinds = {kind(a) for a in legal}
        if "choose" in kinds:
            return self.best_choice(state, legal, seat)[0]
        if "place" in kinds:
            ranked = self.rank_placements(state, legal, seat)[: self.place_width]
            return max(ranked, key=lambda a: self.after_place(state, a, seat))
        candidates = cheapest_payments(legal)
        if "plant" in kinds:
            candidates = one_cell_per_card(candidates)
        return max(
            candidates, key=lambda a: self.value(apply(state, as_action(a)), seat)
        )

    def best_choice(
        self, state: Any, legal: Sequence[Any], seat: int, max_pay: int | None = None
    ) -> tuple[Any, Any, Any]:
        """The best pile to take (paying at most `max_pay` gems), the state after taking
        it, and the placement that made it best (None when the tile cannot be placed)."""
        best: tuple[Any, Any, Any] = (legal[0], None, None)
        best_value = float("-inf")
        anchor(state)
        for action in cheapest_payments(legal):
            if max_pay is not None and len(as_dict(action).get("pay", [])) > max_pay:
                continue
            after = apply(state, as_action(action))
            value, placement = self.best_placement(after, seat, self.choose_width)
            if value > best_value:
                best, best_value = (action, after, placement), value
        return best

    def best_placement(self, state: Any, seat: int, width: int) -> tuple[float, Any]:
        """The best of the `width` best-ranked placements, valued with what they open."""
        legal = playable_actions(state)
        if not legal or kind(legal[0]) not in ("place", "discard"):
            return self.value(state, seat), None
        ranked = self.rank_placements(state, legal, seat)[:width]
        scored = [(self.after_place(state, a, seat), i) for i, a in enumerate(ranked)]
        value, index = max(scored)
        return value, ranked[index]

    def play_turn(self, state: Any, seat: int, max_pay: int | None = 1) -> Any:
        """Play the rest of `seat`'s turn with this policy (a playout step of bots/hard).

        When the turn starts with choosing, only piles costing at most `max_pay` gems are
        looked at, and the placement found while choosing is played without a second search.
        """
        anchor(state)
        legal = playable_actions(state)
        if legal and kind(legal[0]) == "choose":
            action, after, placed = self.best_choice(state, legal, seat, max_pay)
            state = after if after is not None else apply(state, as_action(action))
            if placed is not None:
                state = apply(state, as_action(placed))
        while current_player(state) == seat:
            state = apply(
                state, as_action(self.pick(state, playable_actions(state), seat))
            )
        return state

    def after_place(self, state: Any, action: Any, seat: int) -> float:
        """The value of a placement, counting the best special action it opens."""
        after = apply(state, as_action(action))
        legal = playable_actions(after) if current_player(after) == seat else []
        specials = [a for a in legal if kind(a) in ("assistant", "skill", "pass")]
        if not specials:
            return self.value(after, seat)
        anchor(after)
        return max(
            self.value(apply(after, as_action(a)), seat)
            for a in cheapest_payments(specials)
        )

    def rank_placements(self, state: Any, legal: Sequence[Any], seat: int) -> list[Any]:
        """Placements (and a discard) sorted best first by the quick value of bots/board."""
        view = view_for(state, seat)
        tile = view.get("hand")
        if tile is None:
            return list(legal)
        me = view["players"][seat]
        quick = PlacementValue(
            board_of(view),
            tile,
            seat,
            int(me["assistants_supply"]),
            sum(me["gems"].values()),
            edition.of_view(view).gem_value,
        )

        def value(action: Any) -> float:
            if kind(action) != "place":
                return -1.0
            return quick(*placement(action))

        return sorted(legal, key=value, reverse=True)


def anchor(state: Any) -> None:
    """View `state` before valuing the states that follow from it.

    The engine builds a state's view from its nearest viewed ancestor's, sharing every part
    that did not change (engine/ishtar/views.py). A search values many siblings (the piles
    of a choice, the special actions after a placement) that descend from a state nobody
    looked at, so each of their views would be built whole, with a board of its own to
    read; viewing the parent first makes them cheap updates of one view, sharing one board
    (bots/ishtar/board.py, `board_of`). Only speed changes: a view is the same either way.
    """
    view_for(state, None)


def gem_cost(action: Any) -> float:
    """How much an action's payment costs, to compare payments: rarer gems cost more."""
    pay = action.pay if isinstance(action, Action) else as_dict(action).get("pay", [])
    return sum(GEM_RARITY[c] for c in pay)


def choice_key(action: Any) -> Any:
    """What an action chooses, its payment aside: equal for two actions exactly when they
    differ only in the gems paid. Read off an engine action's own fields (those of its
    type, which its JSON holds), else off its JSON."""
    if isinstance(action, Action):
        fields = CHOICE_FIELDS.get(action.type, ())
        return (action.type, *(getattr(action, f) for f in fields))
    return repr(sorted((k, v) for k, v in action.items() if k != "pay"))


CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "choose": ("pile",),
    "place": ("at", "rotation"),
    "skill": ("skill",),
    "bloom": ("token", "cells"),
    "reserve": ("card",),
    "plant": ("card", "at"),
}
"""The fields of each type of engine action its JSON holds, but the payment (the others,
the type alone: discard, assistant, pass, end, undo)."""


def cheapest_payments(legal: Sequence[Any]) -> list[Any]:
    """One action per choice that differs only in the gems paid: the cheapest payment."""
    best: dict[Any, Any] = {}
    for action in legal:
        key = choice_key(action)
        if key not in best or gem_cost(action) < gem_cost(best[key]):
            best[key] = action
    return list(best.values())


def one_cell_per_card(legal: Sequence[Any]) -> list[Any]:
    """One plant action per tree card (the cell a tree stands on scores nothing), plus `end`."""
    seen: set[Any] = set()
    kept = []
    for action in legal:
        if isinstance(action, Action):
            card, planting = action.card, action.type == "plant"
        else:
            card, planting = action.get("card"), action["type"] == "plant"
        if planting and card in seen:
            continue
        seen.add(card)
        kept.append(action)
    return kept


class MediumBot:
    """Greedy one-step play on a determinization of the seat's view."""

    level = "medium"

    def __init__(self, policy: Greedy | None = None) -> None:
        self.policy = policy or Greedy()

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        legal = playable(legal)
        if len(legal) == 1:
            return legal[0]
        seat = view["current"]
        state = sample_state(view, seed)
        return self.policy.pick(state, legal, seat)
