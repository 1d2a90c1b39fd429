"""`analyse`: a finished game's decisions, luck, chances and turning points, as JSON.

The game is walked move by move. A move with a choice is valued (bots/analysis/decisions.py);
a move that drew at random gets its luck (bots/analysis/luck.py); a move with neither (one
legal action, or the rollouts' bot's own choice, and nothing drawn) costs no rollout: the
chances before it are those after it.

Chances (`points`): for each version v of the game (the state after v moves), each seat's
expected final score and chance of winning, the rollouts of the move played there from
positions sampled from what was known; the last point is the real result. A draw's luck
for each seat is bots/analysis/luck.py's (the standing a few moves after what was drawn,
less the same after what could have been drawn; or, at a depth with `luck_value`, the
game's value of a position, which its bots give, after each); the luck-adjusted score of a
seat is its final score less its total luck.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bots.analysis.decisions import Valued, candidates, key, value
from bots.analysis.luck import is_chance, measure, measure_by_value
from bots.analysis.marks import CATEGORIES, THRESHOLDS, category
from bots.analysis.rollouts import Cut, Estimate, Think, Value, outcome_of, paired
from bots.base import derive_seed

FORMAT = "ishtar-online/analysis"
VERSION = 1
TURNING_POINTS = 3
"""How many of the largest swings of a chance of winning are told as turning points."""


@dataclass(frozen=True)
class Depth:
    """How hard the analysis looks: rollouts per candidate, the bots that roll out and the
    bots whose moves are the candidates, and the seed of every sample (reproducible).

    Rollouts are sequential: `first_rollouts` per candidate, then more, `first_rollouts`
    at a time, while the decision's mark is not settled, up to `rollouts`
    (bots/analysis/decisions.py). A move with one candidate (the played move is the
    rollouts' bot's own) that draws nothing is not rolled out (`value_lone` False): under
    the rollouts' bot the chances are a martingale, so the chances before the bot's own
    move are those after it, and the chart takes the next point, as after a forced move.
    A random event with one candidate gets `first_rollouts`: the chances' point there.

    With `horizon` (a number of moves), a decision's candidates are compared on rollouts
    cut short that many moves on and valued there by the game's value of a position (given
    to `analyse` as `value_of`); the played move's first round is also played to the end,
    for the chart (bots/analysis/decisions.py). None: every rollout plays to the end.

    A draw's luck is valued `luck_plies` moves on by the `luck_policy` bots, over
    `luck_samples` samples; with `luck_value`, by the game's value of a position (given
    to `analyse` as `value_of`) over `luck_samples` possible draws, with no rollout."""

    rollouts: int = 8
    first_rollouts: int = 2
    policy: str = "medium"
    candidates: tuple[str, ...] = ("medium",)
    seed: int = 0
    max_steps: int = 5000
    luck_samples: int = 8
    luck_plies: int = 4
    luck_policy: str = "medium"
    value_lone: bool = False
    luck_value: bool = False
    horizon: int | None = None

    def describe(self) -> dict[str, Any]:
        return asdict(self) | {"candidates": list(self.candidates)}


class TooCostly(RuntimeError):
    """The analysis used more CPU time than it was allowed."""


Snapshot = Callable[[], dict[str, Any]]
Progress = Callable[[int, int, Snapshot], None]


@dataclass
class _Step:
    move: int
    seat: int
    legal: int
    played: Any
    chance: bool
    valued: Valued | None = None
    played_value: Estimate | None = None
    best_value: Estimate | None = None
    luck: list[float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def analyse(
    engine: Any,
    think: Think,
    states: Sequence[Any],
    actions: Sequence[Any],
    depth: Depth | None = None,
    *,
    progress: Progress | None = None,
    cpu_budget: float | None = None,
    value_of: Value | None = None,
) -> dict[str, Any]:
    """The analysis of a finished game: `states[v]` is the state after `v` moves (the last
    one over), `actions[v]` the move played from `states[v]`; `value_of`, the game's
    value of a position, if its bots give one (needed by a depth with `luck_value`)."""
    depth = depth or Depth()
    if len(states) != len(actions) + 1:
        raise ValueError("states must be one longer than actions")
    if (depth.luck_value or depth.horizon is not None) and value_of is None:
        raise ValueError(
            "a depth with luck_value or a horizon needs the game's value of a position"
        )
    if not engine.is_over(states[-1]):
        raise ValueError("the game is not over")
    started = time.process_time()
    steps: list[_Step] = []
    total = len(actions)
    for v, action in enumerate(actions):
        before, after = states[v], states[v + 1]
        seat = engine.current_player(before)
        legal = len(engine.legal_actions(before))
        seed = move_seed(depth, v)
        step = _Step(
            move=v + 1,
            seat=seat,
            legal=legal,
            played=action,
            chance=is_chance(engine, before, action, after, seed),
        )
        if step.chance:
            step.luck = draw_luck(
                engine, think, before, action, after, depth, seed, value_of
            )
        if legal > 1 or step.chance:
            step.valued = decision(
                engine,
                think,
                before,
                action,
                depth,
                seed,
                chance=step.chance,
                value_of=value_of,
            )
            if step.valued.estimates:
                step.played_value = step.valued.chances()
                # where the candidates were compared on rollouts cut short, the best
                # one's chances to the end are not known: the chart keeps the played move's
                step.best_value = (
                    step.played_value
                    if step.valued.chart is not None
                    else step.valued.estimates[step.valued.best()]
                )
            step.extra = _judge(engine, before, step)
        steps.append(step)
        if cpu_budget is not None and time.process_time() - started > cpu_budget:
            raise TooCostly(
                f"the analysis used more than {cpu_budget:g} s of CPU time"
                f" ({v + 1} of {total} moves)"
            )
        if progress is not None:
            done = list(steps)
            progress(
                v + 1,
                total,
                lambda done=done: _report(engine, states, done, depth, started, False),  # type: ignore[misc]
            )
    return _report(engine, states, steps, depth, started, True)


def move_seed(depth: Depth, v: int) -> int:
    """The seed of everything sampled for the move played from the state after `v` moves."""
    return derive_seed(depth.seed, "move", v)


def draw_luck(
    engine: Any,
    think: Think,
    before: Any,
    action: Any,
    after: Any,
    depth: Depth,
    seed: int,
    value_of: Value | None = None,
) -> list[float]:
    """Each seat's luck from the random event `action` (from `before` to `after`), at
    `depth`'s luck depth, as `analyse` measures it (bots/analysis/luck.py): by `value_of`
    where the depth says `luck_value`."""
    if depth.luck_value:
        if value_of is None:
            raise ValueError("a depth with luck_value needs the game's value")
        return measure_by_value(
            engine,
            value_of,
            before,
            action,
            after,
            samples=depth.luck_samples,
            seed=seed,
        )
    return measure(
        engine,
        think,
        before,
        action,
        after,
        samples=depth.luck_samples,
        plies=depth.luck_plies,
        policy=depth.luck_policy,
        seed=seed,
    )


def decision(
    engine: Any,
    think: Think,
    before: Any,
    action: Any,
    depth: Depth,
    seed: int,
    *,
    chance: bool = False,
    value_of: Value | None = None,
) -> Valued:
    """The move `action` played from `before` and the bots' moves there, valued at
    `depth` as `analyse` values them (bots/analysis/decisions.py); the played move's
    estimate is the first. A lone candidate that draws nothing (`chance` False) is not
    rolled out unless `depth.value_lone`: its estimates are empty, and the chart takes
    the next point. With `depth.horizon`, several candidates are compared on rollouts cut
    short there and valued by `value_of`."""
    moves = candidates(engine, think, before, action, depth.candidates, seed)
    if len(moves) == 1 and not chance and not depth.value_lone:
        return Valued(
            seat=engine.current_player(before), candidates=(action,), estimates=()
        )
    return value(
        engine,
        think,
        before,
        moves,
        rollouts=depth.rollouts,
        first=depth.first_rollouts,
        policy=depth.policy,
        seed=seed,
        max_steps=depth.max_steps,
        cut=_cut(depth, value_of),
    )


def _cut(depth: Depth, value_of: Value | None) -> Cut | None:
    """Where `depth` cuts a comparison's rollouts short, if it does."""
    if depth.horizon is None:
        return None
    if value_of is None:
        raise ValueError("a depth with a horizon needs the game's value of a position")
    return Cut(depth.horizon, value_of)


def _judge(engine: Any, before: Any, step: _Step) -> dict[str, Any]:
    """A decision's loss against the best candidate, its mark and the better move."""
    valued = step.valued
    assert valued is not None
    if len(valued.candidates) < 2:
        return {"loss": 0.0, "stderr": 0.0, "win_loss": 0.0, "mark": None}
    best = valued.best()
    if best == 0:
        return {"loss": 0.0, "stderr": 0.0, "win_loss": 0.0, "mark": None}
    loss, stderr, win_loss = paired(
        valued.estimates[best], valued.estimates[0], step.seat
    )
    mark = category(loss, stderr)
    judged: dict[str, Any] = {
        "loss": loss,
        "stderr": stderr,
        "win_loss": win_loss,
        "mark": mark,
    }
    better = valued.candidates[best]
    judged["better"] = {
        "action": engine.encode_action(better),
        "message": engine.narrate(before, better),
        "gain": loss,
        "win_gain": win_loss,
    }
    if mark is not None:
        # what the replay shows on the board for a marked move: the engine's preview of
        # the better move, and the public view after it (the game is over: nothing in it
        # is hidden any more)
        judged["better"]["preview"] = engine.preview(before, better)
        judged["better"]["view"] = engine.view_for(engine.apply(before, better), None)
    return judged


def _point(estimate: Estimate, players: int) -> dict[str, list[float]]:
    return {
        "score": [round(estimate.score(s), 2) for s in range(players)],
        "win": [round(estimate.win(s), 4) for s in range(players)],
    }


def _report(
    engine: Any,
    states: Sequence[Any],
    steps: list[_Step],
    depth: Depth,
    started: float,
    complete: bool,
) -> dict[str, Any]:
    players = len(engine.final_scores(states[0])["players"])
    final = outcome_of(engine.final_scores(states[-1]))
    known = len(steps)
    # chances at each version: the played move's rollouts; forced moves take the next
    # known value; the last point of a complete analysis is the real result
    played: list[dict[str, list[float]] | None] = [None] * (known + 1)
    best: list[dict[str, list[float]] | None] = [None] * (known + 1)
    if complete:
        real = {"score": list(final.scores), "win": list(final.wins)}
        played[known] = best[known] = real
    for i in range(known - 1, -1, -1):
        step = steps[i]
        if step.played_value is not None and step.best_value is not None:
            played[i] = _point(step.played_value, players)
            best[i] = _point(step.best_value, players)
        else:
            played[i], best[i] = played[i + 1], best[i + 1]
    moves = []
    luck_total = [0.0] * players
    draws = []
    for i, step in enumerate(steps):
        entry: dict[str, Any] = {
            "move": step.move,
            "seat": step.seat,
            "legal": step.legal,
            "chance": step.chance,
            "action": engine.encode_action(step.played),
            "message": engine.narrate(states[i], step.played),
            "candidates": len(step.valued.candidates) if step.valued else 1,
            "rollouts": len(step.valued.estimates[0].outcomes)
            if step.valued and step.valued.estimates
            else 0,
        }
        entry.update(step.extra)
        before_draw, after_draw = played[i], best[i + 1]
        if step.chance and step.luck is not None:
            luck = [round(x, 2) for x in step.luck]
            # the chance of winning's swing at the draw (the chart's), for the record
            win_luck = (
                [
                    round(after_draw["win"][s] - before_draw["win"][s], 4)
                    for s in range(players)
                ]
                if before_draw is not None and after_draw is not None
                else None
            )
            entry["luck"] = {"score": luck, "win": win_luck}
            for s in range(players):
                luck_total[s] += luck[s]
            draws.append(entry)
        moves.append(entry)
    points = [{"version": v, **p} for v, p in enumerate(played) if p is not None]
    summary = _players(players, moves, luck_total, final.scores, complete)
    return {
        "format": FORMAT,
        "format_version": VERSION,
        "complete": complete,
        "depth": depth.describe(),
        "thresholds": dict(THRESHOLDS),
        "moves_total": len(states) - 1,
        "moves_done": known,
        "cpu_s": round(time.process_time() - started, 2),
        "points": points,
        "moves": moves,
        "players": summary,
        "draws": _extremes(draws, players),
        "turning_points": _turning_points(points, moves),
    }


def _players(
    players: int,
    moves: list[dict[str, Any]],
    luck: list[float],
    scores: Sequence[float],
    complete: bool,
) -> list[dict[str, Any]]:
    out = []
    for seat in range(players):
        judged = [m for m in moves if m["seat"] == seat and "loss" in m]
        losses = [m["loss"] for m in judged]
        entry: dict[str, Any] = {
            "seat": seat,
            "decisions": len(judged),
            "average_loss": round(statistics.fmean(losses), 3) if losses else 0.0,
            "win_loss": round(sum(m["win_loss"] for m in judged), 4),
            "marks": {c: sum(1 for m in judged if m["mark"] == c) for c in CATEGORIES},
            "luck": round(luck[seat], 2),
        }
        if complete:
            entry["score"] = scores[seat]
            entry["luck_adjusted"] = round(scores[seat] - luck[seat], 2)
        out.append(entry)
    return out


def _extremes(draws: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Each seat's luckiest and unluckiest draws (move numbers and luck)."""
    out = []
    for seat in range(players):
        ranked = sorted(draws, key=lambda d: d["luck"]["score"][seat])
        pick = [
            {"move": d["move"], "luck": d["luck"]["score"][seat]}
            for d in ranked
            if d["luck"]["score"][seat] != 0
        ]
        out.append(
            {
                "seat": seat,
                "luckiest": [p for p in reversed(pick) if p["luck"] > 0][:3],
                "unluckiest": [p for p in pick if p["luck"] < 0][:3],
            }
        )
    return {"by_seat": out}


def _turning_points(
    points: list[dict[str, Any]], moves: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The moves where some seat's chance of winning swung most, in game order."""
    swings = []
    by_version = {p["version"]: p for p in points}
    for m in moves:
        before, after = by_version.get(m["move"] - 1), by_version.get(m["move"])
        if before is None or after is None:
            continue
        deltas = [a - b for a, b in zip(after["win"], before["win"])]
        seat = max(range(len(deltas)), key=lambda s: abs(deltas[s]))
        if abs(deltas[seat]) < 0.05:
            continue
        swings.append(
            {
                "move": m["move"],
                "mover": m["seat"],
                "seat": seat,
                "before": before["win"][seat],
                "after": after["win"][seat],
                "cause": "draw" if m["chance"] else "decision",
                "mark": m.get("mark"),
            }
        )
    swings.sort(key=lambda s: -abs(s["after"] - s["before"]))
    return sorted(swings[:TURNING_POINTS], key=lambda s: s["move"])


__all__ = [
    "FORMAT",
    "VERSION",
    "Depth",
    "TooCostly",
    "analyse",
    "decision",
    "draw_luck",
    "key",
    "move_seed",
]
