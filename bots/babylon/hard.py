"""Hard bot: the medium bot's best paths, re-ranked by what the other players reply.

Candidates are the medium bot's best-valued paths (distinct in what they do to the floor:
the tiles harvested, in order, and the tiles watered), plus the best path for each number of
tiles harvested, so that a slower, more precise turn is weighed against a fast one (the
publisher's "speed vs precision"). Each candidate is played in the same few
determinizations of the seat's view (`engine.sample_state` deals the hidden piles from the
bot's own seed, so the tiles that replace a harvest are sampled, never read), then every
other seat replies with the medium bot's path, up to the seat's next turn. The position
reached is valued as the seat's lead plus what its own best next path is worth
(bots/babylon/evaluation.py); a game that ended on the way is a win or a loss first. Near
the end (a scoreboard 8 winks or fewer from full) the replies go on for up to three rounds,
so that who fills first, and with how many points, is played out rather than guessed.
Candidates are compared on the same samples, and successive halving gives most of the
look-aheads to the best of them.

The budget is a number of look-aheads per turn (candidates x samples), the same on every
machine, so `simulate` reproduces; a time limit (live rooms) stops it after the last whole
round of samples.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any, ClassVar

from bots.babylon.base import derive_seed
from bots.babylon.evaluation import END, lead, medium_value, win_share
from bots.babylon.medium import best_plan
from bots.babylon.paths import Plan, plans
from bots.babylon.position import Position, from_state, turn_start_view
from bots.babylon.turns import TurnBot
from engine.babylon import Action, State, apply, sample_state

HARVEST = Action("harvest")


def play_plan(state: State, plan: Plan, spaces: tuple[tuple[int, int], ...]) -> State:
    """The state after laying the plan's path (from the turn's start) and harvesting."""
    for i in plan.path[len(state.path) :]:
        state = apply(state, Action("irrigate", at=spaces[i]))
    return apply(state, HARVEST)


def candidates(position: Position, width: int) -> list[Plan]:
    """The medium bot's `width` best distinct paths, then the best path of every other
    number of tiles harvested; best first."""
    ranked: dict[tuple[tuple[int, ...], frozenset[int]], tuple[float, int, Plan]] = {}
    for order, plan in enumerate(plans(position)):
        what = (plan.fills, frozenset(plan.path))
        value = medium_value(position, plan)
        known = ranked.get(what)
        if known is None or (value, -len(plan.path)) > (known[0], -len(known[2].path)):
            ranked[what] = (value, order, plan)
    ordered = sorted(ranked.values(), key=lambda v: (-v[0], len(v[2].path), v[1]))
    chosen = [plan for _, _, plan in ordered[:width]]
    counts = {len(plan.fills) for plan in chosen}
    for _, _, plan in ordered[width:]:
        if len(plan.fills) not in counts:
            counts.add(len(plan.fills))
            chosen.append(plan)
    return chosen


def horizon_value(state: State, seat: int) -> float:
    """What the state is worth to `seat` when its next turn starts (or the game is over)."""
    position = from_state(state, seat)
    if state.phase == "over":
        share = win_share(position, seat, position.winks)
        return END * (2 * share - 1) + lead(position, seat, position.winks)
    return lead(position, seat, position.winks) + medium_value(
        position, best_plan(position)
    )


def look_ahead(state: State, plan: Plan, seat: int, rounds: int = 1) -> float:
    """Play `plan`, then every seat's medium path (the seat's own too) for `rounds`
    rounds, up to `seat`'s next turn after them."""
    spaces = from_state(state, seat).graph.spaces
    state = play_plan(state, plan, spaces)
    for done in range(1, rounds + 1):
        while state.phase != "over" and state.current != seat:
            state = play_plan(
                state, best_plan(from_state(state, state.current)), spaces
            )
        if state.phase == "over" or done == rounds:
            break
        state = play_plan(state, best_plan(from_state(state, seat)), spaces)
    return horizon_value(state, seat)


class HardBot(TurnBot):
    level = "hard"

    #: Look-aheads per turn plan by player count (each is one candidate in one sample):
    #: more opponents make each look-ahead longer. About 0.2 s of CPU a plan on the Lower
    #: Garden with two players (docs/benchmarks.md "Babylon Gardens' bots").
    LOOK_AHEADS: ClassVar[dict[int, int]] = {2: 192, 3: 144, 4: 120}
    #: Floors whose look-aheads cost more (their paths: 1,908 on Ishtar's Garden against
    #: at most 252 elsewhere, walked at every reply) get that many times fewer.
    FLOOR_COST: ClassVar[dict[str, int]] = {"ishtar": 2}
    #: Rounds of replies a look-ahead plays before it values the position.
    ROUNDS: ClassVar[dict[int, int]] = {2: 1, 3: 1, 4: 1}
    #: Near the end (a scoreboard this many winks from full) a look-ahead plays up to
    #: `ENDGAME_ROUNDS` rounds, so the race to the 25th wink (R-11) is played out, not
    #: guessed: about two turns of winks on the smaller floors.
    ENDGAME_WINKS = 8
    ENDGAME_ROUNDS = 3

    def __init__(
        self,
        look_aheads: int | None = None,
        time_limit: float | None = None,
        width: int = 12,
        rounds: int | None = None,
    ) -> None:
        self.look_aheads = look_aheads
        self.time_limit = time_limit
        self.width = width
        self.rounds = rounds

    def settings(self) -> Hashable:
        return (self.look_aheads, self.time_limit, self.width, self.rounds)

    def plan(self, position: Position, view: dict[str, Any]) -> Plan:
        deadline = (
            None if self.time_limit is None else time.perf_counter() + self.time_limit
        )
        budget = self.look_aheads or self.LOOK_AHEADS.get(
            position.players, 120
        ) // self.FLOOR_COST.get(position.floor_id, 1)
        # The budget is a hard cap: never more candidates than one look-ahead each.
        chosen = candidates(position, self.width)[: max(1, budget)]
        if len(chosen) == 1:
            return chosen[0]
        rounds = self.rounds or self.ROUNDS.get(position.players, 1)
        if (
            self.rounds is None
            and min(position.slots_left(s) for s in range(position.players))
            <= self.ENDGAME_WINKS
        ):
            rounds = self.ENDGAME_ROUNDS
        start = turn_start_view(view)
        key = position.key()
        totals = [0.0] * len(chosen)
        counts = [0] * len(chosen)
        alive = list(range(len(chosen)))
        halvings = max(1, (len(alive) - 1).bit_length())
        spent, sample, stopped = 0, 0, False
        while budget - spent >= len(alive) and not stopped:
            per = max(1, (budget - spent) // (len(alive) * halvings))
            for _ in range(per):
                sampled = sample_state(start, derive_seed("hard", key, sample))
                sample += 1
                values = []
                for c in alive:
                    values.append(look_ahead(sampled, chosen[c], position.seat, rounds))
                    if deadline is not None and time.perf_counter() > deadline:
                        stopped = True
                        break
                if stopped:  # only whole samples compare the candidates fairly
                    break
                for c, value in zip(alive, values, strict=True):
                    totals[c] += value
                    counts[c] += 1
                spent += len(alive)
            if len(alive) == 1 or not all(counts[c] for c in alive):
                break
            # Successive halving: the better half by mean goes on to the next samples.
            alive.sort(key=lambda c: (-totals[c] / counts[c], c))
            alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
            halvings = max(1, halvings - 1)
        if not any(counts):
            return chosen[0]
        best = min(
            (c for c in range(len(chosen)) if counts[c]),
            key=lambda c: (-counts[c], -totals[c] / counts[c], c),
        )
        return chosen[best]
