"""Every bot level plays only legal actions, is reproducible, and finishes whole games."""

from __future__ import annotations

import pytest

from bots.ishtar import (
    LEVELS,
    EasyBot,
    HardBot,
    MediumBot,
    choose_action,
    make_bot,
    think,
)
from bots.ishtar.base import action_key, as_action, derive_seed
from bots.match import play_game
from engine.ishtar import (
    apply,
    current_player,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    view_for,
    why_illegal,
)

QUICK_HARD = {"playouts": 6, "width": 3, "horizon_turns": 1}


def quick_bot(level: str):  # type: ignore[no-untyped-def]
    return HardBot(**QUICK_HARD) if level == "hard" else make_bot(level)


def positions(players: int, seed: int, every: int = 7):  # type: ignore[no-untyped-def]
    """Positions along a random game: (state, seat) every `every` steps."""
    state = new_game(players, seed, {"first_player": 0})
    step = 0
    easy = EasyBot()
    while (seat := current_player(state)) is not None:
        if step % every == 0:
            yield state, seat
        legal = legal_actions(state)
        state = apply(state, as_action(easy.act(view_for(state, seat), legal, step)))
        step += 1


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_returns_one_of_the_legal_actions(level: str, players: int) -> None:
    bot = quick_bot(level)
    every = 5 if level != "hard" else 23
    for state, seat in positions(players, seed=players * 11, every=every):
        legal = legal_actions(state)
        action = bot.act(view_for(state, seat), legal, seed=3)
        assert any(action is a for a in legal)
        assert why_illegal(state, as_action(action)) is None


@pytest.mark.parametrize("level", LEVELS)
def test_bot_is_deterministic_for_a_seed(level: str) -> None:
    bot = quick_bot(level)
    for state, seat in list(positions(2, seed=5, every=9))[:6]:
        view, legal = view_for(state, seat), legal_actions(state)
        assert action_key(bot.act(view, legal, 42)) == action_key(
            bot.act(view, legal, 42)
        )


def test_bot_accepts_actions_as_json_dicts() -> None:
    from engine.ishtar import encode_action

    state = new_game(2, 8, {"first_player": 0})
    legal = [encode_action(a) for a in legal_actions(state)]
    for level in LEVELS:
        action = quick_bot(level).act(view_for(state, 0), legal, 1)
        assert action in legal


def test_choose_action_rejects_an_unknown_level() -> None:
    state = new_game(2, 1, {"first_player": 0})
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action("grandmaster", view_for(state, 0), legal_actions(state), 0)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_table_of_one_level_completes_a_game(level: str, players: int) -> None:
    record = play_game([level] * players, seed=100 + players, think=think)
    assert record.scores["winners"]
    assert record.turns >= players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hard_completes_a_game_against_the_other_levels(players: int) -> None:
    levels = ["hard", "medium", "easy", "easy"][:players]
    bots = [quick_bot(level) for level in levels]
    record = play_game(levels, seed=200 + players, bots=bots, think=think)
    assert record.scores["winners"]


def test_medium_beats_easy_most_of_the_time() -> None:
    wins = 0.0
    for game in range(6):
        levels = ["medium", "easy"] if game % 2 == 0 else ["easy", "medium"]
        record = play_game(
            levels, seed=derive_seed("medium-vs-easy", game), think=think
        )
        winners = record.scores["winners"]
        seat = levels.index("medium")
        wins += 1 / len(winners) if seat in winners else 0
    assert wins >= 5


def test_a_game_is_reproducible_from_its_seed() -> None:
    first = play_game(["medium", "easy"], seed=77, think=think)
    second = play_game(["medium", "easy"], seed=77, think=think)
    assert first.scores == second.scores
    assert first.steps == second.steps


def test_final_state_is_over_after_play() -> None:
    state = new_game(2, 9, {"first_player": 0})
    bot = MediumBot()
    step = 0
    while (seat := current_player(state)) is not None:
        action = bot.act(view_for(state, seat), legal_actions(state), step)
        state = apply(state, as_action(action))
        step += 1
    assert is_over(state)
    assert final_scores(state)["winners"]
