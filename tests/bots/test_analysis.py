"""The analysis package (bots/analysis): marks, luck, chances, on a toy game with known
answers and on a real game of each kind (small depth: the suite stays fast)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bots.analysis import Depth, TooCostly, analyse, category, draw_luck
from bots.analysis.luck import mean_deal, measure_deal
from bots.analysis.marks import settled
from bots.analysis.rollouts import Cut, play_out, rollout, valued_outcome
from bots.base import derive_seed
from tests.bots import analysis_toy as toy


def run(states: list[Any], actions: list[Any], **depth: Any) -> dict[str, Any]:
    return analyse(toy, toy.think, states, actions, Depth(**{"rollouts": 8, **depth}))


def seed_with(first_offer: int) -> int:
    return next(s for s in range(1000) if toy.new_game(2, s).deck[0] == first_offer)


def test_burning_a_high_card_is_marked_and_taking_never_is() -> None:
    seed = seed_with(9)
    states, actions = toy.play(seed, planted={0: "burn"})
    report = run(states, actions)
    first = report["moves"][0]
    # common random numbers: every rollout after "burn" differs from its pair after
    # "take" by the card alone, so the loss is exact and its error nil
    assert first["loss"] == pytest.approx(9.0)
    assert first["stderr"] == pytest.approx(0.0)
    assert first["mark"] == "mistake"
    assert first["better"]["action"] == {"type": "take"}
    assert first["better"]["preview"] == {"type": "take", "card": 9}
    assert all(m["mark"] is None for m in report["moves"][1:])
    assert report["players"][0]["marks"] == {
        "inaccuracy": 0,
        "mistake": 1,
        "blunder": 0,
    }
    assert report["players"][1]["average_loss"] == 0.0


def test_a_small_loss_or_a_noisy_one_is_not_marked() -> None:
    assert category(2.0, 0.0) is None  # below the first threshold
    assert category(7.0, 4.0) is None  # within two standard errors
    assert category(13.0, 1.0) == "blunder"
    states, actions = toy.play(seed_with(2), planted={0: "burn"})
    first = run(states, actions)["moves"][0]
    assert first["loss"] == pytest.approx(2.0)
    assert first["mark"] is None


def test_a_decision_is_judged_without_the_real_future() -> None:
    # two games alike up to the first decision, their hidden decks then in other orders:
    # the first decision's valuation is the same
    base = toy.new_game(2, seed_with(9))
    other = toy.State(2, (base.deck[0], *reversed(base.deck[1:])), base.scores, 0)
    reports = []
    for start in (base, other):
        states, actions = [start], []
        for action in ("burn", "take", "take", "take", "take", "take"):
            states.append(toy.apply(states[-1], action))
            actions.append(action)
        reports.append(run(states, actions)["moves"][0])
    keys = ("loss", "stderr", "win_loss", "mark", "candidates")
    assert [reports[0][k] for k in keys] == [reports[1][k] for k in keys]


def test_draws_are_the_random_events_and_their_luck_has_the_right_sign() -> None:
    states, actions = toy.play(seed_with(5))
    report = run(states, actions, rollouts=64)
    chance = [m["chance"] for m in report["moves"]]
    # every move turns up the next card but the last, which turns up nothing
    assert chance == [True] * 5 + [False]
    for v, m in enumerate(report["moves"][:-1]):
        drawn = states[v + 1].deck[0]
        receiver = (v + 1) % 2
        luck = m["luck"]["score"][receiver]
        if drawn >= 8:
            assert luck > 0, (drawn, luck)
        if drawn <= 2:
            assert luck < 0, (drawn, luck)
    assert "luck" not in report["moves"][-1]
    for seat, player in enumerate(report["players"]):
        total = sum(m["luck"]["score"][seat] for m in report["moves"] if "luck" in m)
        assert player["luck"] == pytest.approx(total, abs=0.05)
        assert player["luck_adjusted"] == pytest.approx(
            player["score"] - player["luck"]
        )


def test_chances_cover_every_version_and_end_on_the_result() -> None:
    states, actions = toy.play(seed_with(9), planted={0: "burn"})
    report = run(states, actions)
    assert [p["version"] for p in report["points"]] == list(range(len(actions) + 1))
    last = report["points"][-1]
    assert last["score"] == [float(s) for s in states[-1].scores]
    assert sum(last["win"]) == pytest.approx(1.0)
    for point in report["points"]:
        assert sum(point["win"]) == pytest.approx(1.0)
    assert report["complete"] is True
    assert report["moves_done"] == report["moves_total"] == len(actions)
    json.dumps(report)  # plain JSON


def test_turning_points_are_the_largest_swings() -> None:
    states, actions = toy.play(seed_with(9), planted={0: "burn"})
    report = run(states, actions)
    turning = report["turning_points"]
    assert 1 <= len(turning) <= 3
    assert [t["move"] for t in turning] == sorted(t["move"] for t in turning)
    for t in turning:
        assert abs(t["after"] - t["before"]) >= 0.05
        assert t["cause"] in ("draw", "decision")


def test_progress_is_reported_move_by_move_and_the_budget_holds() -> None:
    states, actions = toy.play(seed_with(9))
    seen: list[tuple[int, int, bool]] = []

    def progress(done: int, total: int, snapshot: Any) -> None:
        partial = snapshot()
        seen.append((done, total, partial["complete"]))
        assert partial["moves_done"] == done

    analyse(toy, toy.think, states, actions, Depth(rollouts=2), progress=progress)
    assert seen == [(v, 6, False) for v in range(1, 7)]
    with pytest.raises(TooCostly):
        analyse(toy, toy.think, states, actions, Depth(rollouts=2), cpu_budget=0.0)


def test_a_game_not_over_is_refused() -> None:
    states, actions = toy.play(seed_with(9))
    with pytest.raises(ValueError, match="not over"):
        analyse(toy, toy.think, states[:-1], actions[:-1], Depth(rollouts=2))


def test_the_same_seed_gives_the_same_analysis() -> None:
    states, actions = toy.play(seed_with(4), planted={1: "burn"})
    one = run(states, actions, rollouts=4, seed=3)
    two = run(states, actions, rollouts=4, seed=3)
    one.pop("cpu_s")
    two.pop("cpu_s")
    assert one == two


def test_rollouts_are_spent_where_the_mark_is_in_doubt() -> None:
    # move 1 burns a 9 (the medium bot takes: two candidates, an exact loss of 9), move 3
    # burns a low card, the others take as the medium bot does (one candidate)
    seed = next(
        s
        for s in range(1000)
        if toy.new_game(2, s).deck[0] == 9 and toy.new_game(2, s).deck[2] <= 2
    )
    states, actions = toy.play(seed, planted={0: "burn", 2: "burn"})
    report = run(states, actions, rollouts=8, first_rollouts=2)
    moves = report["moves"]
    assert report["depth"]["first_rollouts"] == 2
    # the 9 lost on both first rollouts: two more, and the mark is settled
    assert (moves[0]["candidates"], moves[0]["rollouts"]) == (2, 4)
    assert moves[0]["mark"] == "mistake"
    # the low card lost less than an inaccuracy on each: settled at once, unmarked
    assert (moves[2]["candidates"], moves[2]["rollouts"]) == (2, 2)
    assert moves[2]["mark"] is None
    # the medium bot's own moves: no other candidate; the first rollouts for the chances
    # where the move drew a card, none where it drew nothing (the chances before the
    # rollouts' bot's own move are those after it: the chart takes the next point)
    lone = (moves[1], *moves[3:])
    assert {m["chance"] for m in lone} == {True, False}
    for m in lone:
        assert (m["candidates"], m["rollouts"]) == (1, 2 if m["chance"] else 0)
    points = {p["version"]: p for p in report["points"]}
    for m in lone:
        if not m["chance"]:
            before, after = points[m["move"] - 1], points[m["move"]]
            assert (before["score"], before["win"]) == (after["score"], after["win"])
    # valued anyway at `value_lone`: the first rollouts
    valued = run(states, actions, rollouts=8, first_rollouts=2, value_lone=True)
    assert [m["rollouts"] for m in valued["moves"][3:]] == [2] * 3
    # all at once, the same rollouts: the verdicts do not depend on the rounds
    whole = run(states, actions, rollouts=8, first_rollouts=8)["moves"]
    assert [m["rollouts"] for m in whole] == [
        8 if m["candidates"] > 1 or m["chance"] else 0 for m in whole
    ]
    assert [m["mark"] for m in whole] == [m["mark"] for m in moves]
    assert whole[0]["loss"] == pytest.approx(moves[0]["loss"])


def test_a_borderline_loss_gets_more_rollouts() -> None:
    # a loss near a threshold, noisy: not settled until its error is small
    assert not settled([[9.0, 1.0, 5.0, 2.0]])  # 4.25 ± 3.6: inaccuracy or nothing
    assert not settled([[2.0, 4.0, 3.0, 5.0]])  # 3.5 ± 1.3 straddles 3
    assert settled([[3.5, 3.6, 3.4, 3.5]])  # 3.5 ± 0.1: an inaccuracy
    assert settled([[-1.0, 2.0], [0.5, 2.9]])  # below 3 on every rollout
    assert not settled([[14.0, 15.0]])  # two rollouts: their error is not trusted


def test_a_move_that_looks_as_good_as_the_best_is_settled_at_once() -> None:
    # noisy rollouts, one losing far more than an inaccuracy, but a mean loss of at
    # most a point and a half against every candidate: settled unmarked
    assert settled([[12.0, -14.0]])
    assert settled([[12.0, -9.0], [-3.0, 4.0]])
    # a mean above it against one candidate: not yet
    assert not settled([[12.0, -9.0], [4.0, 0.0]])
    assert not settled([[12.0, -8.0]])


# --- luck by the game's value of a position (Depth.luck_value) ------------------------------


def test_a_draws_luck_by_value_is_what_was_drawn_less_the_mean_of_what_could_have_been() -> (
    None
):
    states, actions = toy.play(seed_with(5))
    report = analyse(
        toy,
        toy.think,
        states,
        actions,
        Depth(rollouts=2, luck_value=True, luck_samples=400),
        value_of=toy.value,
    )
    for v, m in enumerate(report["moves"][:-1]):
        unseen = states[v].deck[1:]  # what the card turned up after move v could be
        drawn, mean, n = states[v + 1].deck[0], sum(unseen) / len(unseen), len(unseen)
        receiver = (v + 1) % 2
        later = len(range(v + 3, toy.TURNS, 2))  # the receiver's turns after this one
        other = len(range(v + 2, toy.TURNS, 2))  # the other seat's turns from the next
        # the receiver takes the card drawn; every later turn's card is the mean of the
        # rest, which drawing a high card lowers (by (drawn - mean) / (n - 1) a turn)
        exact = [0.0, 0.0]
        exact[receiver] = (drawn - mean) * (1 - later / (n - 1))
        exact[1 - receiver] = -(drawn - mean) * other / (n - 1)
        assert m["luck"]["score"] == pytest.approx(exact, abs=0.3), (v, exact)


def test_luck_by_value_averages_zero_over_the_possible_draws() -> None:
    states, actions = toy.play(seed_with(5))
    before, action = states[0], actions[0]
    depth = Depth(luck_value=True, luck_samples=64)
    totals = [0.0, 0.0]
    possible = sorted(set(before.deck[1:]))
    for card in possible:
        # the same move, had it turned up `card`: a real draw of each possible card
        rest = tuple(c for c in before.deck[1:] if c != card)
        after = toy.State(2, (card, *rest), toy.apply(before, action).scores, 1)
        luck = draw_luck(toy, toy.think, before, action, after, depth, 7, toy.value)
        totals = [t + x / len(possible) for t, x in zip(totals, luck)]
    # the mean over what could have been is sampled (64 draws): zero give or take that
    assert totals == pytest.approx([0.0, 0.0], abs=0.3)


def test_the_deals_luck_is_the_first_positions_value_less_its_mean_over_deals() -> None:
    # the toy's deal is the first offer o (1..9, each as likely): seat 0 takes it and two
    # unseen cards, seat 1 three unseen cards, each worth (45 - o) / 8; over the deals
    # each seat expects 15
    for offer in (1, 5, 9):
        first = toy.new_game(2, seed_with(offer))
        luck = measure_deal(
            toy.value, first, lambda s: toy.new_game(2, s), deals=2000, seed=3
        )
        exact = [0.75 * (offer - 5), -0.375 * (offer - 5)]
        assert luck == pytest.approx(exact, abs=0.3), offer


def test_the_deals_luck_averages_zero_over_the_deals() -> None:
    def deal(seed: int) -> toy.State:
        return toy.new_game(2, seed)

    mean = mean_deal(toy.value, deal, deals=500, seed=3)
    offers = [seed_with(offer) for offer in range(1, 10)]
    lucks = [[v - m for v, m in zip(toy.value(deal(s)), mean)] for s in offers]
    # every deal once: the lucks cancel, give or take the mean's sampling
    for seat in (0, 1):
        assert sum(luck[seat] for luck in lucks) / 9 == pytest.approx(0.0, abs=0.3)


def test_luck_by_value_needs_the_games_value() -> None:
    states, actions = toy.play(seed_with(5))
    with pytest.raises(ValueError, match="luck_value"):
        analyse(toy, toy.think, states, actions, Depth(luck_value=True))


# --- comparisons on rollouts cut short (Depth.horizon) --------------------------------------


def cut_run(states: list[Any], actions: list[Any], **depth: Any) -> dict[str, Any]:
    return analyse(
        toy,
        toy.think,
        states,
        actions,
        Depth(**{"rollouts": 8, **depth}),
        value_of=toy.value,
    )


def test_a_rollout_cut_short_is_the_value_where_the_whole_one_passes() -> None:
    state = toy.new_game(2, seed_with(6))
    whole = rollout(toy, toy.think, state, "easy", 5, 100)
    for plies in (0, 2, 5):
        # the first moves of a cut rollout are the whole one's (the same seeds)
        ahead = state
        for ply in range(plies):
            view = toy.view_for(ahead, toy.current_player(ahead))
            pick = toy.think("easy", view, ["take", "burn"], derive_seed(5, ply), None)
            ahead = toy.apply(ahead, pick)
        cut = Cut(plies, toy.value)
        short, end = play_out(toy, toy.think, state, "easy", 5, 100, cut, to_end=True)
        assert short == valued_outcome(toy.value(ahead))
        assert end == whole
        assert rollout(toy, toy.think, state, "easy", 5, 100, cut) == short
    # a game over before the cut: its real end
    assert rollout(toy, toy.think, state, "easy", 5, 100, Cut(50, toy.value)) == whole


def test_the_value_puts_the_win_with_the_seat_ahead() -> None:
    assert valued_outcome([10.0, 7.5]).wins == (1.0, 0.0)
    assert valued_outcome([3.0, 8.0, 8.0]).wins == (0.0, 0.5, 0.5)


def test_candidates_compared_on_cut_rollouts_keep_the_chart_on_whole_ones() -> None:
    seed = next(
        s
        for s in range(1000)
        if toy.new_game(2, s).deck[0] == 9 and toy.new_game(2, s).deck[2] <= 2
    )
    states, actions = toy.play(seed, planted={0: "burn", 2: "burn"})
    cut = cut_run(states, actions, first_rollouts=2, horizon=1)
    whole = run(states, actions, first_rollouts=2)
    # the 9 burned: the value a move on sees the loss exactly, as the whole rollouts do
    assert cut["moves"][0]["loss"] == pytest.approx(9.0)
    assert cut["moves"][0]["stderr"] == pytest.approx(0.0)
    assert [m["mark"] for m in cut["moves"]] == [m["mark"] for m in whole["moves"]]
    assert cut["depth"]["horizon"] == 1
    # the chances after a move compared on cut rollouts: its first round, to the end
    first_round = run(states, actions, rollouts=2, first_rollouts=2)
    assert cut["points"][0] == first_round["points"][0]
    # a lone move (the chances' point at a draw) is never cut: the same as without
    lone = [i for i, m in enumerate(whole["moves"]) if m["candidates"] == 1]
    for i in lone:
        assert cut["moves"][i] == whole["moves"][i]
    one, two = (cut_run(states, actions, horizon=1, seed=3) for _ in range(2))
    one.pop("cpu_s")
    two.pop("cpu_s")
    assert one == two


def test_a_horizon_needs_the_games_value() -> None:
    states, actions = toy.play(seed_with(5), planted={0: "burn"})
    with pytest.raises(ValueError, match="horizon"):
        analyse(toy, toy.think, states, actions, Depth(horizon=2))
