"""The easy bot gives a newcomer a game (issue 36, point 10): it beats random play, loses to
medium most of the time but not always, and is reproducible. The full measurement (200
games each) is in docs/benchmarks.md "Bots (Ishtar)"; these seeded samples pin its
direction."""

from __future__ import annotations

from bots.ishtar import YARDSTICKS, EasyBot, RandomBot, make_bot, think
from bots.ishtar.easy import CARE
from bots.match import play_game


def wins_of(level: str, other: str, games: int, seed: int) -> float:
    """Games `level` wins against `other` over `games` 2-player games, seats alternating."""
    won = 0.0
    for game in range(games):
        levels = [level, other] if game % 2 == 0 else [other, level]
        winners = play_game(levels, seed=seed + game, think=think).scores["winners"]
        won += 1 / len(winners) if levels.index(level) in winners else 0
    return won


def test_random_play_is_a_yardstick_not_a_level_players_are_offered() -> None:
    assert YARDSTICKS == ("random",)
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("easy"), EasyBot)


def test_easy_beats_random_play() -> None:
    assert wins_of("easy", "random", games=10, seed=400) == 10


def test_medium_beats_easy_often_but_not_always() -> None:
    won = wins_of("medium", "easy", games=24, seed=500)
    assert 12 <= won <= 23, won


def test_easy_plays_carefully_a_share_of_its_steps() -> None:
    assert 0.5 < CARE < 1
    assert wins_of("medium", "easy", games=2, seed=77) == wins_of(
        "medium", "easy", games=2, seed=77
    )
