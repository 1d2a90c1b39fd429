"""The heuristic value of a position for each seat, from the public view and the projection.

A seat's equity is the engine's own projection (`final_scores` as if the game ended now: tree
cards, flowers, fountains, upper skills) plus what it holds that turns into points later:
gems (tree cards to buy, weighted by how many turns it has left to spend them, as it sees
them: with two players its rival ends the game when it can, bots/ishtar/horizon.py),
assistants in supply (flowerbeds to claim), a lower skill that opens an upper one (valued by what the upper
skill would score now, times the chance of unlocking it in the turns left), watering-can
discounts and the reserved card. Only the contract is used: `view_for` (its `standing` and `scores` are `final_scores`) and `catalogue`
(the numbers of the game's edition, bots/ishtar/edition.py).
"""

from __future__ import annotations

from typing import Any

from bots.ishtar import edition
from bots.ishtar.board import Board, board_of
from bots.ishtar.edition import EditionNumbers
from bots.ishtar.horizon import outlooks, seat_turns
from engine.ishtar import view_for

UPPER_OF: dict[str, str] = {"F": "A", "G": "B", "H": "C", "I": "D", "J": "E"}
ASSISTANT_VALUE = 3.0
CARPET_ASSISTANT_VALUE = 0.3
UPPER_HOPE = 1.0
UPPER_CHANCE_PER_TURN = 0.2
UPPER_CHANCE_CAP = 0.7
CAN_DISCOUNT_PER_TURN = 0.4
RESERVED_SHARE = 0.6
TURN_PHASES = ("choose", "place", "special", "bloom", "reserve", "plant")


def gem_factor(buys: int) -> float:
    """What a gem is worth, as a share of the tree VP it buys, with `buys` planting steps
    still to come: none is worth nothing, the last one a little less than full (the colours
    must match a card now)."""
    return 0.0 if buys == 0 else 0.6 if buys == 1 else 1.0


def equities(view: dict[str, Any], scores: dict[str, Any]) -> list[float]:
    """Each seat's equity: projected score plus the expected worth of what it holds."""
    ahead = outlooks(view)
    current = view.get("current")
    phase = view["phase"]
    trees_left = int(view.get("trees_left", 0)) + len(view.get("market", []))
    ed = edition.of_view(view)
    skill_a = ed.skill_a_vp
    board = _LazyBoard(view)
    result: list[float] = []
    by_seat = {int(p["seat"]): p for p in scores["players"]}
    for player in view["players"]:
        score = by_seat[int(player["seat"])]
        seat = int(player["seat"])
        in_turn = seat == current and phase in TURN_PHASES
        placing = in_turn and phase in ("choose", "place")
        # The expected worth of gems, icons still to place, upper skills still to unlock
        # and watering-can steps still to save, over the chances of the game's end.
        gems_share = icons_share = hope = turns = 0.0
        for chance, future in ahead[seat]:
            mine = seat_turns(view, seat, future)
            gems_share += chance * gem_factor(mine + (1 if in_turn else 0))
            icons_share += chance * min(1.0, (mine + (1 if placing else 0)) / 3)
            hope += chance * min(UPPER_CHANCE_CAP, UPPER_CHANCE_PER_TURN * mine)
            turns += chance * mine
        if not trees_left:
            gems_share = 0.0
        skills = player.get("skills") or {}
        value = float(score["total"])
        for colour, count in player["gems"].items():
            tree = ed.gem_value[colour] * gems_share
            value += count * (
                max(0.0, tree - skill_a[colour]) if "A" in skills else tree
            )
        value += player["assistants_supply"] * ASSISTANT_VALUE * icons_share
        if "H" not in skills:
            value += player["assistants_carpet"] * CARPET_ASSISTANT_VALUE * icons_share
        for lower, upper in UPPER_OF.items():
            if lower in skills and upper not in skills and hope > 0:
                value += hope * (
                    UPPER_HOPE + upper_if_unlocked(upper, player, score, board, ed)
                )
        if "F" in skills:
            value += CAN_DISCOUNT_PER_TURN * turns
        reserved = player.get("reserved")
        if reserved is not None:
            # What planting it will gain over the gems it costs (which the seat holds or
            # must still collect, valued above): held, the card itself is worth no more.
            value += RESERVED_SHARE * ed.card_gain.get(int(reserved), 2.0) * gems_share
        result.append(value)
    return result


class _LazyBoard:
    """The board of a view, read only if some seat's upper skill needs it."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self._board: Board | None = None

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = board_of(self.view)
        return self._board


def upper_if_unlocked(
    upper: str,
    player: dict[str, Any],
    score: dict[str, Any],
    lazy: _LazyBoard,
    ed: EditionNumbers,
) -> float:
    """What an upper skill would score for a seat if the game ended now with it unlocked
    (with the numbers of the game's edition ``ed``)."""
    seat = int(player["seat"])
    if upper == "A":
        return float(sum(ed.skill_a_vp[c] * n for c, n in player["gems"].items()))
    if upper == "C":
        return float(ed.skill_c_vp * len(score.get("fountains", [])))
    if upper == "D":
        return 2.0 * (int(player.get("trees_planted", 0)) + 2)
    held = lazy.board.held(seat)
    if upper == "E":
        vp = held.spaces // ed.skill_e_spaces_per_vp * ed.skill_e_vp
        return float(min(vp, ed.skill_e_max) if ed.skill_e_max else vp)
    vp = ed.skill_b_vp * held.tablets
    return float(min(vp, ed.skill_b_max) if ed.skill_b_max else vp)


def utility(values: list[float], seat: int) -> float:
    """How good the equities are for `seat`: its lead over the best other seat."""
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - max(others) if others else values[seat]


def evaluate(state: Any) -> list[float]:
    """Equities of every seat in a full (possibly determinized) state.

    The view already holds the engine's projection (``standing`` mid-game, ``scores`` once
    over), so it is not computed a second time."""
    view = view_for(state, None)
    scores = view["standing"] if view["standing"] is not None else view["scores"]
    return equities(view, scores)
