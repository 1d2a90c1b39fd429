"""Choose a vegetation tile (RB): move the watering can and take the top tile of its pile.

On the first turn the can goes on any non-empty pile, free. Later it must leave its pile:
the next non-empty pile clockwise is free, each further non-empty pile costs 1 gem of the
player's choice (skill F makes the first paid step free); empty piles are skipped and not
counted. If the pile under the can is the only non-empty one, the player takes from it, free.
The tile taken is public; the new top of the pile under the can stays face down until the can
leaves.
"""

from __future__ import annotations

from engine.ishtar.rules.gems import as_counts, covers, minus, payments, plus
from engine.ishtar.rules.turn import END_EMPTIES, empty_piles
from engine.ishtar.state import Action, State, replace_at
from engine.ishtar.words import raw, refusal, word
from engine.messages import Message


def destinations(state: State) -> list[tuple[int, int]]:
    """(pile, cost in gems) for every pile the watering can may move to this turn."""
    piles = state.piles
    if state.can is None:
        return [(p, 0) for p, pile in enumerate(piles) if pile]
    count = len(piles)
    ahead = [(state.can + k) % count for k in range(1, count)]
    order = [p for p in ahead if piles[p]]
    if not order:
        return [(state.can, 0)] if piles[state.can] else []
    free_steps = 2 if "F" in state.skills[state.current] else 1
    return [(p, max(0, i + 1 - free_steps)) for i, p in enumerate(order)]


def legal(state: State) -> list[Action]:
    gems = state.gems[state.current]
    actions = []
    for pile, cost in sorted(destinations(state)):
        for pay in payments(gems, cost):
            actions.append(Action("choose", pile=pile, pay=pay))
    return actions


def cost_of(state: State, pile: int) -> int | None:
    """Gems it costs to move the watering can to ``pile``; None if it cannot go there."""
    for p, cost in destinations(state):
        if p == pile:
            return cost
    return None


def pile_label(pile: int) -> Message:
    """How players name a pile: the carpet's spots are numbered 1 to 6 clockwise."""
    return word("pile", n=pile + 1)


def reason(state: State, action: Action) -> Message | None:
    pile = action.pile
    if not isinstance(pile, int) or not 0 <= pile < len(state.piles):
        return refusal("no_pile", pile=raw(pile), last=len(state.piles) - 1)
    if not state.piles[pile]:
        return refusal("empty_pile", pile=pile_label(pile))
    cost = cost_of(state, pile)
    if cost is None:
        return refusal("can_must_move")
    counts = as_counts(action.pay)
    if counts is None:
        return refusal("gem_colours")
    gems = state.gems[state.current]
    if sum(gems) < cost:
        return refusal("step_short", cost=cost)
    if len(action.pay) != cost:
        return refusal("step_cost", pile=pile_label(pile), cost=cost)
    if not covers(gems, counts):
        return refusal("not_your_gems")
    return None


def apply(state: State, action: Action) -> State:
    assert action.pile is not None
    pile = action.pile
    paid = as_counts(action.pay)
    assert paid is not None
    seat = state.current
    taken = state.piles[pile][-1]
    piles = replace_at(state.piles, pile, state.piles[pile][:-1])
    empties = empty_piles(piles)
    return state.evolve(
        gems=replace_at(state.gems, seat, minus(state.gems[seat], paid)),
        bank=plus(state.bank, paid),
        piles=piles,
        can=pile,
        hand=taken,
        phase="place",
        end_triggered=state.end_triggered or empties >= END_EMPTIES,
    )
