"""Hard bot: determinized Monte Carlo search over the candidate actions of a step.

Each candidate action is played in many determinizations of the seat's view (hidden piles and
tree deck filled at random by `engine.sample_state`), followed by a playout: the rest of the
seat's turn and the opponents' turns with the medium bot's greedy policy (bots/medium), up to
the horizon: the start of the seat's next turn (with two players, of the turn after it, so
that where the watering can is left counts twice), at most two opponents' turns a round. The position reached is valued by bots/evaluation (the seat's lead over the
best other seat). Candidates are compared on the same determinizations (common random
numbers) and thinned by successive halving, so most playouts go to the actions that matter.
Candidates themselves come from the medium bot's ranking: every pile, the placements best
valued with the special action they open, one payment per skill, one cell per tree card.

The budget is a number of playouts and a bound on the work of a move: the positions its
policies value (`Meter`, the count that tracks its time on any machine). The first sample
measures what a playout costs in this position, and a position whose playouts are long (late
in the game, with many placements, skills and cards to weigh) gets fewer of them, so that no
move costs much more than a typical one; no sample starts that would pass the bound (as the
last one cost), and the best candidate so far is played. Both are counts, so `simulate` is
reproducible; live rooms also cap the time in seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from bots.ishtar.base import as_action, derive_seed, kind, playable
from bots.ishtar.evaluation import evaluate, utility
from bots.ishtar.medium import (
    Greedy,
    Meter,
    anchor,
    cheapest_payments,
    one_cell_per_card,
)
from engine.ishtar import apply, current_player, sample_state


class HardBot:
    """Successive-halving Monte Carlo over determinizations, with greedy playouts."""

    level = "hard"

    #: Playouts per move by player count when none is given, and rounds of the horizon: with
    #: two players a playout looks two rounds ahead (the seat's next choice of tile counts),
    #: with more players one round, so that a move takes about the same time.
    PLAYOUTS: ClassVar[dict[int, int]] = {2: 32, 3: 28, 4: 28}
    ROUNDS: ClassVar[dict[int, int]] = {2: 2, 3: 1, 4: 1}
    #: Positions valued per move by player count when no `work` is given (docs/benchmarks.md,
    #: "The hard bot's work bound": about the median move's work; the moves above it get
    #: fewer playouts).
    WORK: ClassVar[dict[int, int]] = {2: 1200, 3: 1200, 4: 1200}

    def __init__(
        self,
        playouts: int | None = None,
        time_limit: float | None = None,
        width: int = 8,
        horizon_turns: int | None = 2,
        rounds: int | None = None,
        rollout: Greedy | None = None,
        ranker: Greedy | None = None,
        work: float | None = None,
    ) -> None:
        """`work`: the positions a move may value (None: `WORK` for the player count;
        `math.inf`: no bound, as before the bound existed)."""
        self.playouts = playouts
        self.work = work
        self.time_limit = time_limit
        self.width = width
        self.horizon_turns = horizon_turns
        self.rounds = rounds
        self.meter = Meter()
        """The positions this bot's own policies valued (its deterministic work budget)."""
        self.rollout = rollout or Greedy(meter=self.meter)
        self.ranker = ranker or Greedy(meter=self.meter)

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        legal = playable(legal)
        if len(legal) == 1:
            return legal[0]
        deadline = (
            None if self.time_limit is None else time.perf_counter() + self.time_limit
        )
        seat = int(view["current"])
        players = len(view["players"])
        budget = self.playouts or self.PLAYOUTS.get(players, 28)
        rounds_ahead = self.rounds or self.ROUNDS.get(players, 1)
        work = self.work if self.work is not None else self.WORK.get(players, 1200)
        limit = self.meter.evaluations + work
        base = sample_state(view, derive_seed(seed, "rank"))
        candidates = self.candidates(base, legal, seat)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        alive = list(range(len(candidates)))
        spent = 0
        rounds = max(1, (len(alive) - 1).bit_length())
        sample = 0
        out_of_work = False
        # positions valued per playout, as the last sample went
        cost: float | None = None
        while len(alive) > 1 and spent < budget:
            per = max(1, (budget - spent) // (len(alive) * rounds))
            for _ in range(per):
                if (
                    cost is not None
                    and self.meter.evaluations + cost * len(alive) > limit
                ):
                    out_of_work = True  # the next sample would go past the bound
                    break
                state = sample_state(view, derive_seed(seed, sample))
                sample += 1
                anchor(state)
                before = self.meter.evaluations
                for i in alive:
                    totals[i] += self.playout(state, candidates[i], seat, rounds_ahead)
                    counts[i] += 1
                    spent += 1
                cost = (self.meter.evaluations - before) / len(alive)
                if sample == 1:
                    budget = affordable(
                        budget, spent, cost, limit - self.meter.evaluations
                    )
                if spent >= budget:
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if out_of_work:
                break
            alive.sort(key=lambda i: totals[i] / counts[i], reverse=True)
            alive = alive[: max(1, len(alive) // 2)]
            rounds = max(1, rounds - 1)
        seen = [i for i in alive if counts[i]] or [
            i for i in range(len(counts)) if counts[i]
        ]
        if not seen:  # out of time before the first playout: the ranking's favourite
            return candidates[0]
        best = max(seen, key=lambda i: totals[i] / counts[i])
        return candidates[best]

    def candidates(self, state: Any, legal: Sequence[Any], seat: int) -> list[Any]:
        """The actions worth searching: one payment per choice, the best-ranked placements."""
        kinds = {kind(a) for a in legal}
        ranker = self.ranker
        if "place" in kinds:
            ranked = ranker.rank_placements(state, legal, seat)[: 2 * self.width]
            return self._best(ranked, lambda a: ranker.after_place(state, a, seat))
        candidates = cheapest_payments(legal)
        if "plant" in kinds:
            candidates = one_cell_per_card(candidates)
        if len(candidates) > self.width and "choose" not in kinds:
            candidates = self._best(
                candidates, lambda a: ranker.value(apply(state, as_action(a)), seat)
            )
        return candidates

    def _best(self, actions: Sequence[Any], value: Callable[[Any], float]) -> list[Any]:
        """The `width` actions that `value` likes best."""
        return sorted(actions, key=value, reverse=True)[: self.width]

    def playout(self, state: Any, action: Any, seat: int, rounds: int = 1) -> float:
        """Play `action`, then the greedy policy up to the horizon; the value for `seat`.

        The horizon is the start of the seat's turn after `rounds` rounds (its own turns in
        between played by the policy too), or the end of the game; in each round at most
        `horizon_turns` opponents' turns are played (to keep 4-player searches within budget).
        """
        state = apply(state, as_action(action))
        if current_player(state) == seat:
            state = self.ranker.play_turn(state, seat, max_pay=None)
        for round_ in range(rounds):
            opponent_turns = 0
            while (actor := current_player(state)) is not None and actor != seat:
                opponent_turns += 1
                if (
                    self.horizon_turns is not None
                    and opponent_turns > self.horizon_turns
                ):
                    break
                state = self.rollout.play_turn(state, actor)
            if round_ + 1 < rounds and current_player(state) == seat:
                state = self.rollout.play_turn(state, seat)
        return utility(evaluate(state), seat)


def affordable(budget: int, spent: int, cost: float, left: float) -> int:
    """The playouts a move can afford once its first sample showed that one costs `cost`
    positions here and `left` remain: at most `budget`, never fewer than already `spent`."""
    if cost <= 0 or math.isinf(left):
        return budget
    return max(spent, min(budget, spent + int(left / cost)))
