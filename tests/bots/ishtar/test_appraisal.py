"""Ishtar's value of a position for the analysis's luck (bots/ishtar/appraisal.py): on the scale
of final points, deterministic, and read from what a spectator sees alone."""

from __future__ import annotations

from typing import Any

from app.games import registry
from app.records.analysis import depth_for
from bots.analysis import decisions, draw_luck, move_seed
from bots.analysis.luck import is_chance
from bots.analysis.rollouts import Cut
from bots.base import derive_seed
from bots.ishtar import choose_action, think
from bots.ishtar.appraisal import value
from engine import ishtar
from engine.ishtar import (
    apply,
    current_player,
    final_scores,
    legal_actions,
    new_game,
    sample_state,
    view_for,
)


def easy_game(seed: int, moves: int | None = None) -> tuple[list[Any], list[Any]]:
    """The states and actions of a 2-player game between easy bots (cheap), `moves` long
    or whole."""
    state = new_game(2, seed, {"first_player": 0})
    states, actions = [state], []
    while (seat := current_player(state)) is not None and (
        moves is None or len(actions) < moves
    ):
        legal = legal_actions(state)
        action = choose_action(
            "easy", view_for(state, seat), legal, derive_seed(seed, len(actions))
        )
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


def totals(scores: dict[str, Any]) -> list[float]:
    return [
        float(p["total"]) for p in sorted(scores["players"], key=lambda p: p["seat"])
    ]


def test_a_finished_game_is_worth_its_final_scores() -> None:
    last = easy_game(3)[0][-1]
    assert current_player(last) is None
    assert value(last) == totals(final_scores(last))


def test_a_position_is_worth_its_standing_and_points_to_come() -> None:
    for state in easy_game(3, moves=40)[0][::10]:
        standing = totals(view_for(state, None)["standing"])
        worth = value(state)
        assert len(worth) == 2
        for now, expected in zip(standing, worth):
            # points still to come, on the scale of a game's final score (some tens)
            assert now - 10 <= expected <= now + 80


def test_the_value_is_deterministic_and_changes_nothing() -> None:
    state = easy_game(5, moves=30)[0][-1]
    shown = view_for(state, None)
    assert value(state) == value(state)
    assert view_for(state, None) == shown


def test_the_value_reads_what_a_spectator_sees_alone() -> None:
    for state in easy_game(5, moves=60)[0][15::15]:
        view = view_for(state, None)
        one, two = sample_state(view, 1), sample_state(view, 2)
        # the samples differ where a spectator sees nothing (face-down tiles, the deck)
        assert (one.piles, one.deck) != (two.piles, two.deck)
        assert value(one) == value(two) == value(state)


def test_an_ishtar_draws_luck_by_value_is_reproducible() -> None:
    game = registry(()).get("ishtar")
    assert game.value is value
    depth = depth_for(game, {"luck_value": True, "luck_samples": 8})
    states, actions = easy_game(7, moves=40)
    seed = move_seed(depth, 0)
    v = next(
        v
        for v, action in enumerate(actions)
        if is_chance(ishtar, states[v], action, states[v + 1], seed)
    )
    draw = (states[v], actions[v], states[v + 1])
    luck = draw_luck(ishtar, think, *draw, depth, seed, value)
    assert len(luck) == 2 and all(abs(x) < 40 for x in luck)
    assert draw_luck(ishtar, think, *draw, depth, seed, value) == luck


def test_ishtar_candidates_compared_on_cut_rollouts_keep_whole_ones_for_the_chart() -> (
    None
):
    game = registry(()).get("ishtar")
    depth = depth_for(game, {"rollouts": 2, "horizon": 8})
    states, _ = easy_game(11, moves=70)
    state = next(s for s in reversed(states) if len(legal_actions(s)) > 1)
    moves = legal_actions(state)[:2]
    cut = Cut(depth.horizon, value)

    def compare() -> decisions.Valued:
        return decisions.value(
            ishtar,
            think,
            state,
            moves,
            rollouts=2,
            policy="medium",
            seed=3,
            max_steps=depth.max_steps,
            cut=cut,
        )

    valued = compare()
    assert [len(e.outcomes) for e in valued.estimates] == [2, 2]
    # the chart's rollouts play to the end: whole points, one winner or a shared win
    assert valued.chart is not None and len(valued.chart.outcomes) == 2
    for end in valued.chart.outcomes:
        assert all(s == int(s) for s in end.scores) and sum(end.wins) == 1.0
    again = compare()
    assert again == valued
