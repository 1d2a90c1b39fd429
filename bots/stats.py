"""Summaries of many bot games: win rates with Wilson intervals, scores by category, skills.

Win rates pool the seats of one level: each (game, seat) of that level is one trial, and a win
shared by k seats counts 1/k to each of them, so the rates of all seats of a game add up to 1.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from statistics import mean
from typing import Any

from bots.match import GameRecord

SKILLS = "ABCDEFGHIJ"


def wilson(successes: float, trials: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a rate; (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = (
        z
        * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
        / denominator
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, trials: float) -> dict[str, float]:
    low, high = wilson(successes, trials)
    return {
        "rate": successes / trials if trials else 0.0,
        "ci_low": low,
        "ci_high": high,
        "trials": trials,
    }


def win_share(record: GameRecord, seat: int) -> float:
    winners = record.scores["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def seat_scores(record: GameRecord) -> dict[int, dict[str, Any]]:
    return {int(p["seat"]): p for p in record.scores["players"]}


def summarize(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The JSON summary of `simulate`: games, win_rates, avg_scores, first_player_win_rate, ..."""
    wins: dict[str, float] = defaultdict(float)
    trials: dict[str, int] = defaultdict(int)
    points: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    think: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    seat_wins: dict[int, float] = defaultdict(float)
    unlocked: dict[str, Counter[str]] = defaultdict(Counter)
    skill_points: dict[str, dict[str, list[float]]] = defaultdict(
        lambda: defaultdict(list)
    )
    skill_wins: dict[str, float] = defaultdict(float)
    cards_bought: Counter[int] = Counter()
    trees: dict[str, list[int]] = defaultdict(list)
    first_wins = 0.0
    category_totals: Counter[str] = Counter()
    decided_by: Counter[str] = Counter()
    for record in records:
        scores = seat_scores(record)
        first_wins += win_share(record, record.first_player)
        for position in range(len(record.levels)):
            seat = (record.first_player + position) % len(record.levels)
            seat_wins[position] += win_share(record, seat)
        for seat, level in enumerate(record.levels):
            share = win_share(record, seat)
            wins[level] += share
            trials[level] += 1
            categories = scores[seat]["categories"]
            for category, value in categories.items():
                points[level][category].append(float(value))
                category_totals[category] += value
            points[level]["total"].append(float(scores[seat]["total"]))
            trees[level].append(len(record.tree_cards[seat]))
            cards_bought.update(record.tree_cards[seat])
            for skill in record.skills[seat]:
                unlocked[level][skill] += 1
                skill_wins[skill] += share
                skill_points[level][skill].append(
                    float(categories.get(f"skill_{skill}", 0))
                )
        for level, values in record.think_ms.items():
            think[level].extend(values)
        for level, values in record.cpu_ms.items():
            cpu[level].extend(values)
        decided_by.update(deciding_categories(record))
    games = len(records)
    all_points = sum(category_totals.values()) or 1
    seat_count = sum(trials.values())
    return {
        "games": games,
        "win_rates": {level: rate(wins[level], trials[level]) for level in trials},
        "avg_scores": {
            level: {category: mean(values) for category, values in sorted(cats.items())}
            for level, cats in points.items()
        },
        "first_player_win_rate": first_wins / games if games else 0.0,
        "first_player_ci": list(wilson(first_wins, games)),
        "position_win_rates": {
            str(p + 1): w / games for p, w in sorted(seat_wins.items())
        },
        "avg_turns": mean(r.turns for r in records) if records else 0.0,
        "avg_rounds": mean(r.turns / len(r.levels) for r in records)
        if records
        else 0.0,
        "ms_per_move": {level: timing(values) for level, values in think.items()},
        "cpu_ms_per_move": {level: timing(values) for level, values in cpu.items()},
        "category_share": {
            c: v / all_points for c, v in sorted(category_totals.items())
        },
        "winner_led_category": {c: n / games for c, n in sorted(decided_by.items())},
        "skills": {
            skill: {
                "unlock_rate": sum(unlocked[lv][skill] for lv in unlocked) / seat_count,
                "avg_vp_when_unlocked": _mean(
                    [v for lv in skill_points for v in skill_points[lv][skill]]
                ),
                "win_rate_when_unlocked": skill_wins[skill]
                / max(1, sum(unlocked[lv][skill] for lv in unlocked)),
            }
            for skill in SKILLS
        },
        "tree_cards": {
            "avg_per_player": {level: mean(v) for level, v in trees.items()},
            "bought_per_game": {
                str(c): n / games for c, n in sorted(cards_bought.items())
            },
        },
    }


def deciding_categories(record: GameRecord) -> list[str]:
    """The categories in which a winner scored strictly more than every other seat."""
    scores = seat_scores(record)
    winners = record.scores["winners"]
    categories = {c for p in scores.values() for c in p["categories"]}
    led = []
    for category in sorted(categories):
        best = max(scores[w]["categories"].get(category, 0) for w in winners)
        others = [
            p["categories"].get(category, 0)
            for s, p in scores.items()
            if s not in winners
        ]
        if best > 0 and all(best > o for o in others):
            led.append(category)
    return led


def timing(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0, "moves": 0}
    ordered = sorted(values)
    return {
        "mean": mean(ordered),
        "p50": ordered[len(ordered) // 2],
        "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "max": ordered[-1],
        "moves": len(ordered),
    }


def _mean(values: Sequence[float]) -> float:
    return mean(values) if values else 0.0
