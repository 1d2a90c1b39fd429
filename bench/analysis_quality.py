"""The analysis's quality and cost, measured on bot games (docs/analysis.md, "Quality").

    python -m bench.analysis_quality cost [--games 1]
    python -m bench.analysis_quality cost --game ishtar --kind hard-planted --players 2 --games 4
    python -m bench.analysis_quality cost --game ishtar --kind levels --players 2 --games 2
    python -m bench.analysis_quality sensitivity --game babylon-gardens --games 20
    python -m bench.analysis_quality stability --game ishtar --games 3
    python -m bench.analysis_quality calibration --game babylon-gardens --games 200 --rollouts 2
    python -m bench.analysis_quality calibration --game ishtar --games 200 --positions 4
    python -m bench.analysis_quality luck --game babylon-gardens --games 100 --rollouts 2
    python -m bench.analysis_quality luck --game ishtar --games 40 --luck-only
    python -m bench.analysis_quality luck --game ishtar --games 40 --luck-samples 64 --decompose
    python -m bench.analysis_quality fit-value --game ishtar --games 16 --seed 5000

Each prints one JSON object. Run them niced on a shared machine (`nice -n 10`); `--jobs`
spreads games over processes. Every run is reproducible from its arguments: games are
played from seeds `seed + g` with the bots' counted budgets, the analysis from its own seed.

- cost: CPU seconds of one analysis at the default depth, for 2, 3 and 4 players of each
  game (`--players`), and how many such games one core analyses a day. `--kind medium`:
  games between medium bots, whose every move is the rollouts' bot's own (the cheapest);
  `--kind hard-planted`: hard bots, seat 0 with planted random moves (`--plant`), and
  `--kind levels`: a hard bot against easy ones: games whose moves often differ from the
  rollouts' bot's, as a person's do (the cost that matters).
- sensitivity: games between strong bots (hard) where seat 0 plays a uniformly random
  legal move (the random bot's) at about one decision in `--plant` instead of its own;
  how often the planted moves are marked, and the others; precision and recall.
- stability: each game analysed with two seeds; the share of decisions (more than one
  legal move) that get the same category (none, inaccuracy, mistake, blunder).
- calibration: each position's predicted chances of winning against who won: a
  reliability table by tenths and the Brier score (and the uninformed 1/players' score);
  `--positions N` values only N random points of each game, as the analysis values them
  (what a game whose whole analysis costs too much affords).
- luck: games between hard and medium bots (seats rotated; `--levels`); each seat's total luck
  (its mean over games should be 0), and how many games the raw and the luck-adjusted
  score differences need to tell the two bots apart at 95 %; `--luck-only` measures the
  draws as the analysis does without valuing the decisions; `--luck-value` /
  `--no-luck-value`: the draws valued by the game's value of a position, or by rollouts;
  `--decompose`: the result as a sum along the value (its start, the draws' luck, the rest)
  to see what share of its spread any luck of the draws could take away, and the luck
  with the deal (the first position) counted as a draw (`--deals`).
- fit-value: the calibration of a game's value of a position (its descriptor's `value`),
  on games between hard and medium bots (seats rotated), at every `--every`-th position:
  the least-squares slope (no intercept) of each seat's points still to come (final score
  less the standing), taken relative to the other seats' mean, on the same for the value
  (value less the standing). 1 when the value is on the scale of final points; a value
  of the form standing + c * (estimate - standing) is calibrated by multiplying c by it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.games import registry
from app.records.analysis import depth_for
from bots.analysis import CATEGORIES, Depth, analyse, decision, draw_luck, move_seed
from bots.analysis.luck import is_chance, mean_deal, measure_by_value, standing
from bots.analysis.rollouts import outcome_of
from bots.base import derive_seed


def _game(game_id: str) -> tuple[Any, Any]:
    game = registry(()).get(game_id)
    assert game.think is not None
    return game.engine, game.think


def play(
    game_id: str,
    levels: Sequence[str],
    seed: int,
    plant_every: int = 0,
) -> tuple[list[Any], list[Any], set[int]]:
    """A bot game: its states, actions and the move numbers where seat 0 was made to play
    a random move instead of its bot's (one decision in `plant_every`, 0: none)."""
    engine, think = _game(game_id)
    options = registry(()).get(game_id).check_options(len(levels), {"first_player": 0})
    state = engine.new_game(len(levels), seed, options)
    states, actions, planted = [state], [], set()
    rng = random.Random(derive_seed(seed, "plant"))
    while (seat := engine.current_player(state)) is not None:
        legal = engine.legal_actions(state)
        view = engine.view_for(state, seat)
        step_seed = derive_seed(seed, len(actions))
        action = think(levels[seat], view, legal, step_seed, None)
        if (
            seat == 0
            and plant_every
            and len(legal) > 1
            and rng.randrange(plant_every) == 0
        ):
            other = think("random", view, legal, step_seed, None)
            if json.dumps(engine.encode_action(other), sort_keys=True) != json.dumps(
                engine.encode_action(action), sort_keys=True
            ):
                action = other
                planted.add(len(actions) + 1)
        state = engine.apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions, planted


def analysed(
    game_id: str, states: list[Any], actions: list[Any], given: dict[str, Any]
) -> tuple[dict[str, Any], float]:
    """The analysis at the game's depth (the default, its descriptor's fields) with the
    fields `given` on the command line, as the server and `ishtar analyse` analyse."""
    engine, think = _game(game_id)
    depth = depth_for(registry(()).get(game_id), given)
    started = time.process_time()
    report = analyse(
        engine, think, states, actions, depth, value_of=registry(()).get(game_id).value
    )
    return report, time.process_time() - started


Rollouts = tuple[int, int]
"""The most rollouts a candidate gets, and the first round's (`Depth`)."""


def _rollouts(args: argparse.Namespace) -> Rollouts:
    return (args.rollouts, args.first_rollouts)


VALUE_LONE: list[bool] = [False]
"""`--value-lone`: roll out the bots' own moves that draw nothing too (`Depth.value_lone`)."""
HORIZON: dict[str, int | None] = {}
"""`--horizon`: where the comparisons' rollouts are cut (`Depth.horizon`; `none`: played to
the end), if not the game's own."""


def _given(rollouts: Rollouts, **fields: Any) -> dict[str, Any]:
    """The depth's fields asked for (None: not asked, the game's own or the default)."""
    most, first = rollouts
    asked = {k: v for k, v in fields.items() if v is not None}
    lone = {"value_lone": True} if VALUE_LONE[0] else {}
    return {
        "rollouts": most,
        "first_rollouts": min(first, most),
        **lone,
        **HORIZON,
        **asked,
    }


# --- the measures, one game each (run in worker processes) ---------------------------------


KINDS = {
    "medium": "medium bots in every seat: every move the rollouts' bot's own",
    "hard-planted": "hard bots, seat 0 playing a random move at one decision in --plant:"
    " moves that often differ from the rollouts' bot's, as a person's do",
    "levels": "a hard bot in seat 0, the easy bot in the others: different levels",
}


def _levels(kind: str, players: int) -> tuple[list[str], bool]:
    """The bots of a cost game of `kind`, and whether seat 0 plays planted moves."""
    if kind == "medium":
        return ["medium"] * players, False
    if kind == "hard-planted":
        return ["hard"] * players, True
    if kind == "levels":
        return ["hard"] + ["easy"] * (players - 1), False
    raise ValueError(f"unknown kind of game {kind!r}: one of {', '.join(KINDS)}")


def _cost(args: tuple[str, int, int, str, int, bool]) -> dict[str, Any]:
    game_id, players, seed, kind, plant, lone = args
    levels, planting = _levels(kind, players)
    states, actions, planted = play(game_id, levels, seed, plant if planting else 0)
    # the game's own depth, but for --value-lone
    report, cpu = analysed(
        game_id, states, actions, ({"value_lone": True} if lone else {}) | HORIZON
    )
    judged = [m for m in report["moves"] if m["legal"] > 1]
    return {
        "game": game_id,
        "players": players,
        "kind": kind,
        "seed": seed,
        "moves": len(actions),
        "decisions": len(judged),
        "planted": len(planted),
        "several_candidates": sum(1 for m in judged if m["candidates"] > 1),
        "rollouts": sum(m["rollouts"] * m["candidates"] for m in report["moves"]),
        "marks": sum(1 for m in judged if m.get("mark")),
        "cpu_s": round(cpu, 1),
    }


def _sensitivity(args: tuple[str, int, int, Rollouts]) -> dict[str, Any]:
    game_id, seed, plant, rollouts = args
    states, actions, planted = play(game_id, ["hard", "hard"], seed, plant)
    report, cpu = analysed(game_id, states, actions, _given(rollouts))
    rows = [
        (m["move"] in planted, m["mark"] is not None, m["seat"], m["loss"])
        for m in report["moves"]
        if m["legal"] > 1 and "loss" in m
    ]
    return {"rows": rows, "cpu_s": cpu}


def _stability(args: tuple[str, int, Rollouts]) -> dict[str, Any]:
    game_id, seed, rollouts = args
    states, actions, _ = play(game_id, ["hard", "medium"], seed, plant_every=6)
    one, _ = analysed(game_id, states, actions, _given(rollouts, seed=1))
    two, _ = analysed(game_id, states, actions, _given(rollouts, seed=2))
    pairs = [
        (a["mark"], b["mark"])
        for a, b in zip(one["moves"], two["moves"])
        if a["legal"] > 1 and "mark" in a and "mark" in b
    ]
    return {"pairs": pairs}


def _calibration(args: tuple[str, int, Rollouts, str, int]) -> dict[str, Any]:
    game_id, seed, rollouts, level, positions = args
    players = 2
    levels = ["medium"] * players if level == "medium" else [level, "medium"]
    states, actions, _ = play(game_id, levels, seed)
    given = _given(rollouts)
    if positions:
        return _calibration_sampled(game_id, states, actions, given, positions, seed)
    report, cpu = analysed(game_id, states, actions, given)
    final = report["points"][-1]["win"]
    pairs = [
        (p["win"][s], final[s]) for p in report["points"][:-1] for s in range(players)
    ]
    return {
        "pairs": pairs,
        "cpu_s": cpu,
        "players": report["players"],
    }


def _calibration_sampled(
    game_id: str,
    states: list[Any],
    actions: list[Any],
    given: dict[str, Any],
    positions: int,
    seed: int,
) -> dict[str, Any]:
    """`positions` of the game's points, chosen at random among the moves with a choice
    or a draw, each the point the analysis's chart shows there (the same candidates,
    rollouts and seeds): a point's chances cost what its move costs, not the whole
    game's. Where the move is the rollouts' bot's own and draws nothing, the chart shows
    the next valued point (or the result, if none is left): so does this."""
    engine, think = _game(game_id)
    depth = depth_for(registry(()).get(game_id), given)
    started = time.process_time()
    chance = [
        is_chance(engine, states[v], a, states[v + 1], move_seed(depth, v))
        for v, a in enumerate(actions)
    ]
    choice = [len(engine.legal_actions(states[v])) > 1 for v in range(len(actions))]
    valued = [v for v in range(len(actions)) if choice[v] or chance[v]]
    chosen = sorted(
        random.Random(derive_seed(seed, "positions")).sample(
            valued, min(positions, len(valued))
        )
    )
    final = outcome_of(engine.final_scores(states[-1])).wins
    pairs = []
    for v in chosen:
        win = list(final)
        for w in range(v, len(actions)):
            if not (choice[w] or chance[w]):
                continue
            judged = decision(
                engine,
                think,
                states[w],
                actions[w],
                depth,
                move_seed(depth, w),
                chance=chance[w],
            )
            if judged.estimates:
                estimate = judged.estimates[0]
                win = [estimate.win(s) for s in range(len(final))]
                break
        pairs += [(win[s], final[s]) for s in range(len(final))]
    return {"pairs": pairs, "cpu_s": time.process_time() - started, "players": []}


def _luck(
    args: tuple[
        str,
        int,
        Rollouts,
        int | None,
        int | None,
        str | None,
        bool,
        bool | None,
        tuple[str, str],
        bool,
    ],
) -> dict[str, Any]:
    (
        game_id,
        seed,
        rollouts,
        samples,
        plies,
        policy,
        luck_only,
        by_value,
        pair,
        parts,
    ) = args
    hard_seat = seed % 2
    levels = list(pair) if hard_seat == 0 else list(reversed(pair))
    states, actions, _ = play(game_id, levels, seed)
    given = _given(
        rollouts,
        luck_samples=samples,
        luck_plies=plies,
        luck_policy=policy,
        luck_value=by_value,
    )
    if parts:
        return _decomposed(game_id, states, actions, given, hard_seat)
    if luck_only:
        luck, scores, cpu = _luck_alone(game_id, states, actions, given)
        raw = scores[hard_seat] - scores[1 - hard_seat]
        return {
            "raw": raw,
            "adjusted": raw - (luck[hard_seat] - luck[1 - hard_seat]),
            "luck": [round(x, 2) for x in luck],
            "cpu_s": cpu,
        }
    report, cpu = analysed(game_id, states, actions, given)
    players = report["players"]
    hard, medium = players[hard_seat], players[1 - hard_seat]
    return {
        "raw": hard["score"] - medium["score"],
        "adjusted": hard["luck_adjusted"] - medium["luck_adjusted"],
        "luck": [p["luck"] for p in players],
        "cpu_s": cpu,
    }


def _luck_alone(
    game_id: str, states: list[Any], actions: list[Any], given: dict[str, Any]
) -> tuple[list[float], tuple[float, ...], float]:
    """Each seat's total luck as `analyse` measures it (the same draws found, samples
    and seeds), without valuing the decisions; and the final scores."""
    engine, think = _game(game_id)
    depth = depth_for(registry(()).get(game_id), given)
    started = time.process_time()
    final = outcome_of(engine.final_scores(states[-1]))
    total = [0.0] * len(final.scores)
    for v, action in enumerate(actions):
        seed = move_seed(depth, v)
        before, after = states[v], states[v + 1]
        if not is_chance(engine, before, action, after, seed):
            continue
        luck = draw_luck(
            engine,
            think,
            before,
            action,
            after,
            depth,
            seed,
            registry(()).get(game_id).value,
        )
        total = [t + round(x, 2) for t, x in zip(total, luck)]
    return total, final.scores, time.process_time() - started


PARTS = ("start", "luck", "drift", "moves")
"""The result (first bot's score less the second's) as a sum along the game's value V:
V of the first position (the setup and the seat order), the draws' luck (V after each
draw less its mean over the possible draws), the drift at the draws (that mean less V
before the draw: what the move that drew chose) and V's change at the other moves (the
decisions). The last position's V is the final score, so the four add up to the result."""


def _decomposed(
    game_id: str,
    states: list[Any],
    actions: list[Any],
    given: dict[str, Any],
    hard_seat: int,
) -> dict[str, Any]:
    """The luck as `_luck_alone` measures it (by value) and the result's `PARTS`."""
    engine, _ = _game(game_id)
    value = registry(()).get(game_id).value
    assert value is not None, f"{game_id} has no value of a position"
    depth = depth_for(registry(()).get(game_id), given | {"luck_value": True})
    started = time.process_time()

    def lead(worth: Sequence[float]) -> float:
        return worth[hard_seat] - worth[1 - hard_seat]

    before = list(value(states[0]))
    parts = dict.fromkeys(PARTS, 0.0)
    parts["start"] = lead(before)
    luck = [0.0] * len(before)
    for v, action in enumerate(actions):
        seed = move_seed(depth, v)
        if is_chance(engine, states[v], action, states[v + 1], seed):
            drawn = list(value(states[v + 1]))
            share = measure_by_value(
                engine,
                value,
                states[v],
                action,
                states[v + 1],
                samples=depth.luck_samples,
                seed=seed,
            )
            luck = [t + x for t, x in zip(luck, share)]
            parts["luck"] += lead(share)
            parts["drift"] += lead(drawn) - lead(share) - lead(before)
        else:
            drawn = list(value(states[v + 1]))
            parts["moves"] += lead(drawn) - lead(before)
        before = drawn
    final = outcome_of(engine.final_scores(states[-1])).scores
    raw = final[hard_seat] - final[1 - hard_seat]
    return {
        "raw": raw,
        "adjusted": raw - parts["luck"],
        "luck": [round(x, 2) for x in luck],
        "parts": {k: round(x, 2) for k, x in parts.items()},
        "cpu_s": time.process_time() - started,
    }


def _fit_value(args: tuple[str, int, int]) -> dict[str, Any]:
    """Each valued position's points to come and valued points to come, for every seat
    relative to the others' mean."""
    game_id, seed, every = args
    engine, _ = _game(game_id)
    value = registry(()).get(game_id).value
    assert value is not None, f"{game_id} has no value of a position"
    levels = ["hard", "medium"] if seed % 2 == 0 else ["medium", "hard"]
    states, _, _ = play(game_id, levels, seed)
    final = outcome_of(engine.final_scores(states[-1])).scores
    started = time.process_time()
    rows = []
    for state in states[:-1:every]:
        now = standing(engine, state)
        worth = list(value(state))
        come = [f - n for f, n in zip(final, now)]
        valued = [w - n for w, n in zip(worth, now)]
        for s in range(len(now)):
            rest = [i for i in range(len(now)) if i != s]
            rows.append(
                (
                    come[s] - statistics.fmean(come[i] for i in rest),
                    valued[s] - statistics.fmean(valued[i] for i in rest),
                )
            )
    valued_positions = len(states[:-1:every])
    return {
        "rows": rows,
        "positions": valued_positions,
        "cpu_s": time.process_time() - started,
    }


# --- summaries -----------------------------------------------------------------------------


def _map(fn: Any, tasks: list[Any], jobs: int) -> list[Any]:
    if jobs <= 1:
        return [fn(t) for t in tasks]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, tasks))


def _mean_se(values: Sequence[float]) -> dict[str, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"mean": round(mean, 3), "se": round(se, 3)}


def cost(args: argparse.Namespace) -> dict[str, Any]:
    chosen = [args.game] if args.game else [g.id for g in registry(()) if g.bots]
    counts = [int(n) for n in args.players.split(",")]
    tasks = [
        (game, players, args.seed + g, args.kind, args.plant, args.value_lone)
        for game in chosen
        for players in counts
        for g in range(args.games)
    ]
    rows = _map(_cost, tasks, args.jobs)
    summary = []
    for game in chosen:
        for players in counts:
            mine = [r for r in rows if r["game"] == game and r["players"] == players]
            cpu = statistics.fmean(r["cpu_s"] for r in mine)
            summary.append(
                {
                    "game": game,
                    "players": players,
                    "kind": args.kind,
                    "moves": statistics.fmean(r["moves"] for r in mine),
                    "cpu_s": round(cpu, 1),
                    "games_per_core_day": int(86400 / cpu) if cpu else None,
                }
            )
    depths = {g: depth_for(registry(()).get(g), HORIZON).describe() for g in chosen}
    return {"depth": depths, "runs": rows, "summary": summary}


def sensitivity(args: argparse.Namespace) -> dict[str, Any]:
    tasks = [
        (args.game, args.seed + g, args.plant, _rollouts(args))
        for g in range(args.games)
    ]
    results = _map(_sensitivity, tasks, args.jobs)
    rows = [r for res in results for r in res["rows"]]
    planted = [r for r in rows if r[0]]
    others = [r for r in rows if not r[0]]
    marked_planted = sum(1 for r in planted if r[1])
    marked_others = sum(1 for r in others if r[1])
    marked = marked_planted + marked_others
    return {
        "game": args.game,
        "games": args.games,
        "rollouts": args.rollouts,
        "first_rollouts": args.first_rollouts,
        "decisions": len(rows),
        "planted": len(planted),
        "planted_marked_rate": round(marked_planted / len(planted), 3)
        if planted
        else None,
        "others_marked_rate": round(marked_others / len(others), 3) if others else None,
        "precision": round(marked_planted / marked, 3) if marked else None,
        "recall": round(marked_planted / len(planted), 3) if planted else None,
        "planted_mean_loss": round(statistics.fmean(r[3] for r in planted), 2)
        if planted
        else None,
        "others_mean_loss": round(statistics.fmean(r[3] for r in others), 2),
        "cpu_s_per_game": round(statistics.fmean(r["cpu_s"] for r in results), 1),
    }


def stability(args: argparse.Namespace) -> dict[str, Any]:
    tasks = [(args.game, args.seed + g, _rollouts(args)) for g in range(args.games)]
    pairs = [p for res in _map(_stability, tasks, args.jobs) for p in res["pairs"]]
    same = sum(1 for a, b in pairs if a == b)
    marked_either = [(a, b) for a, b in pairs if a or b]
    return {
        "game": args.game,
        "games": args.games,
        "rollouts": args.rollouts,
        "first_rollouts": args.first_rollouts,
        "decisions": len(pairs),
        "same_category": round(same / len(pairs), 3) if pairs else None,
        "marked_by_either": len(marked_either),
        "same_among_marked": round(
            sum(1 for a, b in marked_either if a == b) / len(marked_either), 3
        )
        if marked_either
        else None,
        "categories": {
            c: sum(1 for a, _ in pairs if a == c) for c in (*CATEGORIES, None)
        },
    }


def calibration(args: argparse.Namespace) -> dict[str, Any]:
    tasks = [
        (args.game, args.seed + g, _rollouts(args), "medium", args.positions)
        for g in range(args.games)
    ]
    results = _map(_calibration, tasks, args.jobs)
    pairs = [p for res in results for p in res["pairs"]]
    table = []
    for b in range(10):
        low, high = b / 10, (b + 1) / 10
        inside = [(p, o) for p, o in pairs if low <= p < high or (b == 9 and p == 1.0)]
        if inside:
            table.append(
                {
                    "predicted": f"{low:.1f}-{high:.1f}",
                    "positions": len(inside),
                    "mean_predicted": round(statistics.fmean(p for p, _ in inside), 3),
                    "won": round(statistics.fmean(o for _, o in inside), 3),
                }
            )
    brier = statistics.fmean((p - o) ** 2 for p, o in pairs)
    base = statistics.fmean((0.5 - o) ** 2 for _, o in pairs)
    return {
        "game": args.game,
        "games": args.games,
        "rollouts": args.rollouts,
        "first_rollouts": args.first_rollouts,
        "positions_per_game": args.positions or "all",
        "positions": len(pairs),
        "brier": round(brier, 4),
        "brier_uninformed": round(base, 4),
        "reliability": table,
        "cpu_s_per_game": round(statistics.fmean(r["cpu_s"] for r in results), 1),
    }


def luck(args: argparse.Namespace) -> dict[str, Any]:
    tasks = [
        (
            args.game,
            args.seed + g,
            _rollouts(args),
            args.luck_samples,
            args.luck_plies,
            args.luck_policy,
            args.luck_only,
            args.luck_value,
            tuple(args.levels.split(",")),
            args.decompose,
        )
        for g in range(args.games)
    ]
    results = _map(_luck, tasks, args.jobs)
    raw = [r["raw"] for r in results]
    adjusted = [r["adjusted"] for r in results]
    luck_diff = [r - a for r, a in zip(raw, adjusted)]

    def games_needed(values: list[float]) -> float | None:
        mean = statistics.fmean(values)
        sd = statistics.stdev(values)
        return round((1.96 * sd / mean) ** 2, 1) if mean > 0 else None

    seats = len(results[0]["luck"])
    mean_raw = statistics.fmean(raw)
    parts: dict[str, Any] = {}
    if args.decompose:
        for part in PARTS:
            xs = [r["parts"][part] for r in results]
            parts[part] = {
                "mean": round(statistics.fmean(xs), 2),
                "sd": round(statistics.stdev(xs), 2),
                "correlation_with_result": round(statistics.correlation(xs, raw), 3),
            }
        parts["with_the_deal"] = _with_the_deal(args, results, raw)
    return {
        "game": args.game,
        "games": args.games,
        "rollouts": args.rollouts,
        "first_rollouts": args.first_rollouts,
        "luck_samples": args.luck_samples,
        "luck_plies": args.luck_plies,
        "luck_policy": args.luck_policy,
        "luck_only": args.luck_only,
        "luck_value": args.luck_value,
        "levels": args.levels,
        "correlation_luck_raw": round(statistics.correlation(raw, luck_diff), 3),
        "luck_by_seat": [
            _mean_se([r["luck"][s] for r in results]) for s in range(seats)
        ],
        "luck_all_seats": _mean_se([x for r in results for x in r["luck"]]),
        "raw_difference": _mean_se(raw) | {"sd": round(statistics.stdev(raw), 2)},
        "adjusted_difference": _mean_se(adjusted)
        | {"sd": round(statistics.stdev(adjusted), 2)},
        "games_to_separate_raw": games_needed(raw),
        "games_to_separate_adjusted": games_needed(adjusted),
        # the luck's mean is zero whatever the bots play, so the two means estimate the
        # same margin and differ by the sample's luck alone: at the same margin (the raw
        # mean) the games needed scale with the variance, var(adjusted) / var(raw)
        "games_to_separate_adjusted_at_raw_mean": round(
            (1.96 * statistics.stdev(adjusted) / mean_raw) ** 2, 2
        )
        if mean_raw > 0
        else None,
        "variance_ratio": round(
            statistics.variance(adjusted) / statistics.variance(raw), 3
        ),
        # the least-squares coefficient of the result on the luck (1: the luck is on the
        # scale of the points it explains; the optimal control variate's weight)
        "luck_scale": round(
            statistics.covariance(raw, luck_diff) / statistics.variance(luck_diff), 3
        ),
        "cpu_s_per_game": round(statistics.fmean(r["cpu_s"] for r in results), 1),
    } | ({"parts": parts} if parts else {})


def _with_the_deal(
    args: argparse.Namespace, results: list[dict[str, Any]], raw: list[float]
) -> dict[str, Any]:
    """The luck with the deal counted as a draw (`measure_deal`): the first position's
    lead (the part `start`) less its mean over `--deals` other deals of the same game (2
    players, seat 0 first, as `play` deals), added to the draws' luck. The mean holds the seat order's
    edge, which is no luck: the bots' seats are rotated, not drawn."""
    engine, _ = _game(args.game)
    value = registry(()).get(args.game).value
    assert value is not None
    options = registry(()).get(args.game).check_options(2, {"first_player": 0})
    started = time.process_time()
    mean = mean_deal(
        value,
        lambda seed: engine.new_game(2, seed, options),
        deals=args.deals,
        seed=args.seed,
    )
    edge = mean[0] - mean[1]
    deal = [
        r["parts"]["start"] - (edge if (args.seed + g) % 2 == 0 else -edge)
        for g, r in enumerate(results)
    ]
    luck = [r["parts"]["luck"] + d for r, d in zip(results, deal)]
    adjusted = [x - y for x, y in zip(raw, luck)]
    mean, mean_raw = statistics.fmean(adjusted), statistics.fmean(raw)
    sd = statistics.stdev(adjusted)
    return {
        "deals": args.deals,
        "seat_0_edge": round(edge, 2),
        "deal_luck": _mean_se(deal) | {"sd": round(statistics.stdev(deal), 2)},
        "correlation_luck_raw": round(statistics.correlation(raw, luck), 3),
        "adjusted_difference": _mean_se(adjusted) | {"sd": round(sd, 2)},
        "games_to_separate_adjusted": round((1.96 * sd / mean) ** 2, 2)
        if mean > 0
        else None,
        "games_to_separate_adjusted_at_raw_mean": round((1.96 * sd / mean_raw) ** 2, 2)
        if mean_raw > 0
        else None,
        "variance_ratio": round(
            statistics.variance(adjusted) / statistics.variance(raw), 3
        ),
        "cpu_s_per_deal": round((time.process_time() - started) / args.deals, 3),
    }


def fit_value(args: argparse.Namespace) -> dict[str, Any]:
    tasks = [(args.game, args.seed + g, args.every) for g in range(args.games)]
    results = _map(_fit_value, tasks, args.jobs)
    rows = [r for res in results for r in res["rows"]]
    come = [r[0] for r in rows]
    valued = [r[1] for r in rows]
    slope = sum(c * v for c, v in rows) / sum(v * v for v in valued)
    residual = [c - slope * v for c, v in rows]
    return {
        "game": args.game,
        "games": args.games,
        "seed": args.seed,
        "positions": sum(r["positions"] for r in results),
        "slope": round(slope, 3),
        "correlation": round(statistics.correlation(valued, come), 3),
        "sd_to_come": round(statistics.stdev(come), 2),
        "sd_residual": round(statistics.stdev(residual), 2),
        "cpu_s_per_value": round(
            sum(r["cpu_s"] for r in results)
            / max(1, sum(r["positions"] for r in results)),
            4,
        ),
    }


MEASURES = {
    "cost": cost,
    "sensitivity": sensitivity,
    "stability": stability,
    "calibration": calibration,
    "luck": luck,
    "fit-value": fit_value,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis_quality")
    parser.add_argument("measure", choices=sorted(MEASURES))
    parser.add_argument(
        "--game",
        default=None,
        help="a game's id (cost: every game with bots by default; the others need one)",
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=Depth.rollouts)
    parser.add_argument(
        "--first-rollouts",
        type=int,
        default=Depth.first_rollouts,
        help="the first round's rollouts per candidate (--rollouts: the most)",
    )
    parser.add_argument("--plant", type=int, default=8, help="plant one decision in N")
    parser.add_argument(
        "--luck-samples", type=int, default=None, help="default: the game's depth's"
    )
    parser.add_argument(
        "--luck-plies", type=int, default=None, help="default: the game's depth's"
    )
    parser.add_argument("--luck-policy", default=None, help="default: the game's")
    parser.add_argument(
        "--positions",
        type=int,
        default=0,
        help="calibration: value N random points of each game (0: analyse it whole)",
    )
    parser.add_argument(
        "--luck-value",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="luck: value draws with the game's value of a position (default: the game's"
        " depth's)",
    )
    parser.add_argument(
        "--levels",
        default="hard,medium",
        help="luck: the two bots, seats rotated (the result: the first's score less the"
        " second's)",
    )
    parser.add_argument(
        "--luck-only",
        action="store_true",
        help="luck: measure the draws alone, without valuing the decisions",
    )
    parser.add_argument(
        "--decompose",
        action="store_true",
        help="luck: the result as a sum along the game's value (PARTS): its start, the"
        " draws' luck, the drift at the draws and the other moves (implies --luck-value)",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=200,
        help="luck --decompose: the deals the first position's lead is averaged over",
    )
    parser.add_argument(
        "--kind",
        choices=sorted(KINDS),
        default="medium",
        help="cost: the games analysed; "
        + "; ".join(f"{k}: {v}" for k, v in KINDS.items()),
    )
    parser.add_argument(
        "--players",
        default="2,3,4",
        help="cost: the numbers of players, comma-separated",
    )
    parser.add_argument(
        "--value-lone",
        action="store_true",
        help="roll out the bots' own moves that draw nothing too (Depth.value_lone)",
    )
    parser.add_argument(
        "--every", type=int, default=2, help="fit-value: every Nth position of a game"
    )
    parser.add_argument(
        "--horizon",
        default=None,
        help="compare candidates on rollouts cut N moves on (Depth.horizon; none: whole"
        " rollouts; default: the game's depth's)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    VALUE_LONE[0] = args.value_lone
    if args.horizon is not None:
        HORIZON["horizon"] = None if args.horizon == "none" else int(args.horizon)
    started = time.time()
    if args.game is None and args.measure != "cost":
        parser.error(f"{args.measure} measures one game: name it with --game")
    result = MEASURES[args.measure](args)
    result["wall_s"] = round(time.time() - started, 1)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["main", "play"]
