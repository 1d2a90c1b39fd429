"""Babylon Gardens' easy bot gives a newcomer a game (issue 36, point 10): it beats random
play, loses to medium most of the time but not always. The full measurement (200 games
each) is in docs/benchmarks.md "Babylon Gardens' bots"; these seeded samples pin its
direction."""

from __future__ import annotations

from bots.babylon import YARDSTICKS, RandomBot, make_bot, think
from bots.match import play_game


def wins_of(level: str, other: str, games: int, seed: int) -> float:
    won = 0.0
    for game in range(games):
        levels = [level, other] if game % 2 == 0 else [other, level]
        record = play_game(
            levels, seed=seed + game, think=think, rules="engine.babylon"
        )
        winners = record.scores["winners"]
        won += 1 / len(winners) if levels.index(level) in winners else 0
    return won


def test_random_play_is_a_yardstick_not_a_level_players_are_offered() -> None:
    assert YARDSTICKS == ("random",)
    assert isinstance(make_bot("random"), RandomBot)


def test_easy_beats_random_play() -> None:
    assert wins_of("easy", "random", games=30, seed=400) >= 29


def test_medium_beats_easy_often_but_not_always() -> None:
    won = wins_of("medium", "easy", games=60, seed=500)
    assert 36 <= won <= 57, won
