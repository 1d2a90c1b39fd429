"""Rollouts: a position played to the end by the game's bots, and what the end gives each seat.

A rollout is deterministic for its seed: the bots' seeds are derived from it ply by ply, so
that two candidates rolled out with the same seed from the same sampled position meet the
same bot choices wherever their games agree (common random numbers).

A rollout may be cut short (`Cut`): played for a few moves, then valued by the game's value
of a position (each seat's expected final score) instead of played to the end. Its first
moves are those of the whole rollout of the same seed, so one walk gives both (`play_out`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bots.base import derive_seed

PRIOR = 1.0
"""The weight, in rollouts, of the equal share a chance of winning is shrunk towards."""

Think = Callable[[str, dict[str, Any], list[Any], int, float | None], Any]
Value = Callable[[Any], Sequence[float]]
"""A game's value of a position: each seat's expected final score, read from the
spectator's view of the state alone (docs/contract.md, "The bots")."""


@dataclass(frozen=True)
class Outcome:
    """The end of one rollout: every seat's final score and share of the win."""

    scores: tuple[float, ...]
    wins: tuple[float, ...]

    def lead(self, seat: int) -> float:
        """The seat's score less the best other seat's (its margin of victory or defeat)."""
        others = [s for i, s in enumerate(self.scores) if i != seat]
        return self.scores[seat] - (max(others) if others else 0.0)


def outcome_of(scores: dict[str, Any]) -> Outcome:
    """An `Outcome` from an engine's `final_scores`: a shared win is split equally."""
    players = sorted(scores["players"], key=lambda p: p["seat"])
    winners = list(scores.get("winners") or [])
    share = 1.0 / len(winners) if winners else 0.0
    return Outcome(
        scores=tuple(float(p["total"]) for p in players),
        wins=tuple(share if p["seat"] in winners else 0.0 for p in players),
    )


def valued_outcome(values: Sequence[float]) -> Outcome:
    """An `Outcome` from a value of a position: the expected final scores, and the win to
    the seat the value puts ahead (shared where it puts several level)."""
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    return Outcome(
        scores=tuple(float(v) for v in values),
        wins=tuple(
            1.0 / len(leaders) if i in leaders else 0.0 for i in range(len(values))
        ),
    )


@dataclass(frozen=True)
class Cut:
    """Where a rollout stops short: after `plies` moves, at the game's `value` of the
    position then (`valued_outcome`), unless the game is over before."""

    plies: int
    value: Value


def rollout(
    engine: Any,
    think: Think,
    state: Any,
    policy: str,
    seed: int,
    max_steps: int,
    cut: Cut | None = None,
) -> Outcome:
    """`state` played to the end with a bot of level `policy` in every seat (or up to
    `cut`, and valued there)."""
    return play_out(engine, think, state, policy, seed, max_steps, cut)[0]


def play_out(
    engine: Any,
    think: Think,
    state: Any,
    policy: str,
    seed: int,
    max_steps: int,
    cut: Cut | None,
    to_end: bool = False,
) -> tuple[Outcome, Outcome | None]:
    """The rollout of `state` up to `cut` (to its end if None), and, when `to_end`, the
    same rollout played on to its end (None otherwise): its first moves are the cut one's,
    so the two are paired as the rollouts of two candidates are."""
    current, legal_actions, apply = (
        engine.current_player,
        engine.legal_actions,
        engine.apply,
    )
    short: Outcome | None = None
    ply = 0
    while (seat := current(state)) is not None:
        if cut is not None and ply == cut.plies and short is None:
            short = valued_outcome(cut.value(state))
            if not to_end:
                return short, None
        if ply >= max_steps:
            raise RuntimeError(f"a rollout did not end within {max_steps} steps")
        legal = legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = engine.view_for(state, seat)
            action = think(policy, view, list(legal), derive_seed(seed, ply), None)
        state = apply(state, action)
        ply += 1
    end = outcome_of(engine.final_scores(state))
    return (short or end), (end if to_end else None)


@dataclass(frozen=True)
class Estimate:
    """A candidate's value over its rollouts: mean score and win chance of every seat."""

    outcomes: tuple[Outcome, ...]

    def score(self, seat: int) -> float:
        return statistics.fmean(o.scores[seat] for o in self.outcomes)

    def win(self, seat: int) -> float:
        """The seat's chance of winning: its wins over the rollouts, shrunk towards an
        equal share by one rollout's weight (a Beta prior). A few rollouts alone would say
        0 or 1, and such certainty is wrong about one time in six (docs/analysis.md,
        "Calibration"); with the prior, 2 rollouts say 1/6, 1/2 or 5/6 in a 2-player game.
        """
        wins = sum(o.wins[seat] for o in self.outcomes)
        share = 1.0 / len(self.outcomes[0].wins)
        return (wins + share * PRIOR) / (len(self.outcomes) + PRIOR)

    def lead(self, seat: int) -> float:
        return statistics.fmean(o.lead(seat) for o in self.outcomes)


def paired(better: Estimate, worse: Estimate, seat: int) -> tuple[float, float, float]:
    """The seat's loss in lead from `better` to `worse` on the same samples, its standard
    error, and the loss in chance of winning."""
    diffs = [
        b.lead(seat) - w.lead(seat) for b, w in zip(better.outcomes, worse.outcomes)
    ]
    loss = statistics.fmean(diffs)
    stderr = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    win = statistics.fmean(
        b.wins[seat] - w.wins[seat] for b, w in zip(better.outcomes, worse.outcomes)
    )
    return loss, stderr, win


def spread(values: Sequence[float]) -> float:
    """The standard error of a mean of `values` (0 for fewer than two)."""
    return statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
