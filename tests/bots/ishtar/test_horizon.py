"""The bots' horizon (bots/ishtar/horizon.py): `outlook` spreads the end of the game over the
ways the watering can may go (a distribution of the turns still to start), as a seat sees it
(its rivals end the game when they can), and `seat_turns` counts how many of those turns
are a given seat's.

Unit cases use small synthetic views holding only the fields the horizon reads (phase,
players, turn, first_player, end_triggered, carpet.piles[*].size, carpet.can); the regression
plays a real 2-player game between medium bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bots.base import derive_seed
from bots.ishtar import choose_action
from bots.ishtar.base import as_dict as action_dict
from bots.ishtar.horizon import (
    STEP_SHARES,
    _free_path,
    outlook,
    outlooks,
    seat_turns,
)
from engine.ishtar import apply, current_player, legal_actions, new_game, view_for


def make_view(
    sizes: Sequence[int],
    can: int | None,
    *,
    players: int = 2,
    turn: int = 1,
    phase: str = "choose",
    first_player: int = 0,
    end_triggered: bool = False,
    with_f: Sequence[int] = (),
) -> dict[str, Any]:
    """A view with just the fields the horizon reads; the seats of `with_f` hold skill F."""
    return {
        "phase": phase,
        "players": [
            {"skills": {"F": ["purple", "purple"]} if seat in with_f else {}}
            for seat in range(players)
        ],
        "turn": turn,
        "current": (first_player + turn - 1) % players,
        "first_player": first_player,
        "end_triggered": end_triggered,
        "carpet": {"piles": [{"size": s} for s in sizes], "can": can},
    }


def as_dict(result: tuple[tuple[float, int], ...]) -> dict[int, float]:
    """future turns -> probability, failing if a future is listed twice."""
    futures = [f for _, f in result]
    assert len(futures) == len(set(futures)), f"a future listed twice: {result}"
    return {f: p for p, f in result}


SPREAD_VIEWS = [
    pytest.param(make_view((0, 1, 1, 2), 0, turn=2), id="hand-case"),
    pytest.param(make_view((0, 1, 3, 3, 3, 3), 0, turn=4), id="one-empty"),
    pytest.param(make_view((2, 1, 3, 1, 2, 3), 4, turn=9), id="none-empty"),
    pytest.param(make_view((2, 2, 2, 2, 2, 2), None, turn=1), id="no-can"),
    pytest.param(
        make_view((3, 3, 3, 3, 3, 3), 2, players=4, turn=3), id="4p-wide-pruned"
    ),
    pytest.param(
        make_view((1, 0, 2, 3, 1, 2), 1, players=3, turn=7, phase="plant"),
        id="3p-after-take",
    ),
    pytest.param(make_view((5, 5, 5, 5, 5, 5), None), id="far-from-end"),
]


@pytest.mark.parametrize("view", SPREAD_VIEWS)
def test_outlook_probabilities_sum_to_one(view: dict[str, Any]) -> None:
    result = outlook(view)
    assert result
    assert all(p >= 0 for p, _ in result)
    assert sum(p for p, _ in result) == pytest.approx(1.0)


@pytest.mark.parametrize("view", SPREAD_VIEWS)
def test_outlook_futures_end_with_a_round(view: dict[str, Any]) -> None:
    players = len(view["players"])
    for _, future in outlook(view):
        assert future >= 0
        assert (view["turn"] + future) % players == 0, "the game ends with a round"


def test_outlook_of_a_finished_game_is_no_more_turns() -> None:
    view = make_view((0, 0, 3, 3, 3, 3), 1, turn=14, phase="over")
    assert outlook(view) == ((1.0, 0),)


@pytest.mark.parametrize(
    ("players", "turn", "left"),
    [(2, 21, 1), (2, 22, 0), (3, 7, 2), (3, 8, 1), (4, 13, 3), (4, 16, 0)],
)
def test_outlook_after_the_end_is_triggered_completes_the_round(
    players: int, turn: int, left: int
) -> None:
    # The piles say nothing of the end here: the trigger alone decides.
    view = make_view((4, 4, 4, 4, 4, 4), 0, players=players, turn=turn)
    view["end_triggered"] = True
    assert left == -turn % players
    assert outlook(view) == ((1.0, left),)


@pytest.mark.parametrize("piles", [3, 4, 6])
def test_chance_the_next_take_ends_is_the_first_steps_share(piles: int) -> None:
    # One pile empty, the next pile clockwise from the can holds a single tile, the
    # others more: only a take from that pile ends the game now.
    sizes = [0, 1] + [3] * (piles - 2)
    open_piles = piles - 1
    shares = STEP_SHARES[False]
    expected = shares[0] / sum(shares[:open_piles])
    # At the last turn of a round the end by this take leaves no turn to start, any
    # later end at least a whole round.
    view = make_view(sizes, 0, players=2, turn=4)
    assert as_dict(outlook(view))[0] == pytest.approx(expected)


def test_two_single_tiles_next_to_the_can_by_hand() -> None:
    # Piles (0, 1, 1, 2), can on the emptied pile 0: clockwise the open piles are 1, 2, 3
    # with shares 0.66, 0.28, 0.05 (0.99 in all). Taking from 1 or 2 ends the game now;
    # taking from 3 leaves (0, 1, 1, 1) and the can must leave pile 3 for pile 1 or 2:
    # the end one take later.
    view = make_view((0, 1, 1, 2), 0, players=2, turn=2)
    result = as_dict(outlook(view))
    assert result.keys() == {0, 2}
    assert result[0] == pytest.approx(94 / 99)  # this turn ends the game (turn 2)
    assert result[2] == pytest.approx(5 / 99)  # turn 3 ends it: turns 3 and 4 to start


def test_a_taker_with_skill_f_goes_further_as_often() -> None:
    # Piles (0, 3, 1, 3), can on pile 0: only a take from pile 2, the second open pile
    # clockwise, ends the game now. With skill F that pile is free as well, and chosen as
    # often as the first (0.41 and 0.41 of 0.94); without, 0.28 of 0.99.
    plain = as_dict(outlook(make_view((0, 3, 1, 3), 0, players=2, turn=2)))
    skilled = make_view((0, 3, 1, 3), 0, players=2, turn=2, with_f=(1,))
    assert as_dict(outlook(skilled))[0] == pytest.approx(41 / 94)
    assert plain[0] == pytest.approx(28 / 99)
    # the seat to act (turn 2: seat 1) is the one whose skill counts for this take
    other = make_view((0, 3, 1, 3), 0, players=2, turn=2, with_f=(0,))
    assert as_dict(outlook(other))[0] == pytest.approx(28 / 99)


def test_the_can_must_leave_its_pile() -> None:
    # The same piles with the can on pile 3: it must move on, to pile 1 or 2 (pile 0 is
    # empty), and either take ends the game.
    view = make_view((0, 1, 1, 2), 3, players=2, turn=2)
    result = as_dict(outlook(view))
    assert result.keys() == {0}
    assert result[0] == pytest.approx(1.0)


def test_after_the_take_of_the_turn_the_end_comes_later() -> None:
    # The same piles once this turn's take is done (phase "plant"): the next take is in
    # turn 3 and the one after in turn 4, both completing the round at turn 4.
    view = make_view((0, 1, 1, 2), 0, players=2, turn=2, phase="plant")
    result = as_dict(outlook(view))
    assert result.keys() == {2}
    assert result[2] == pytest.approx(1.0)


def test_a_take_leaving_two_empty_piles_ends_with_its_round() -> None:
    # Before the turn ends the trigger is not yet set, but two piles are empty.
    view = make_view((0, 0, 2, 3, 1, 2), 2, players=4, turn=6, phase="plant")
    assert outlook(view) == ((1.0, 2),)


def test_the_free_path_walks_the_can_one_pile_a_take() -> None:
    # Six piles of 5, can on pile 0: take k comes from pile k % 6; pile 1 is emptied by
    # take 25, pile 2 by take 26.
    assert _free_path([5] * 6, 0) == 26
    # Without a can the largest pile (the first of them) comes first, then the same walk.
    assert _free_path([5] * 6, None) == 26
    # Piles (1, 4, 4, 4), can on 3: takes from 0 (emptying it), then 1, 2, 3, 1, 2, 3,
    # 1, 2, 3, 1: pile 1 is emptied by take 11.
    assert _free_path([1, 4, 4, 4], 3) == 11


def test_far_from_the_end_the_start_of_a_game_is_one_certain_end() -> None:
    # 26 takes from the start (see the free path): the end is turn 26, 25 turns after 1.
    assert outlook(make_view((5,) * 6, None, players=2, turn=1)) == ((1.0, 25),)


@pytest.mark.parametrize(
    ("sizes", "can", "players", "turn"),
    [
        ((5, 5, 5, 5, 5, 5), 2, 2, 3),
        ((4, 4, 4, 4, 4, 4), 0, 4, 5),
        ((0, 8, 7, 9, 8, 9), 3, 3, 9),
        ((5, 4, 6, 4, 7, 5), 5, 2, 8),
    ],
)
def test_far_from_the_end_the_answer_is_the_free_path(
    sizes: tuple[int, ...], can: int, players: int, turn: int
) -> None:
    takes = _free_path(list(sizes), can)
    trigger = turn + takes - 1  # the take of this turn is the first
    end = -(-trigger // players) * players
    view = make_view(sizes, can, players=players, turn=turn)
    assert outlook(view) == ((1.0, end - turn),)


def brute_seat_turns(
    players: int, first: int, turn: int, seat: int, future: int
) -> int:
    """Turn t (from 1) belongs to seat (first + t - 1) % players: count the seat's turns
    among turn + 1 .. turn + future."""
    return sum(
        1
        for t in range(turn + 1, turn + future + 1)
        if (first + t - 1) % players == seat
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_turns_agrees_with_counting_the_turns(players: int) -> None:
    for first in range(players):
        for turn in range(1, 14):
            view = make_view(
                (1,) * 6, 0, players=players, turn=turn, first_player=first
            )
            for future in range(13):
                for seat in range(players):
                    assert seat_turns(view, seat, future) == brute_seat_turns(
                        players, first, turn, seat, future
                    ), (first, turn, future, seat)


def test_seat_turns_of_no_future_is_none() -> None:
    view = make_view((1,) * 6, 0, players=3, turn=5, first_player=2)
    assert [seat_turns(view, seat, 0) for seat in range(3)] == [0, 0, 0]


def first_players_last_choose(seed: int) -> dict[str, Any]:
    """Play a 2-player edition-2 game between medium bots (the loop of bots/match.py) and
    return the view of seat 0 (the first player) at the choose phase of its last turn."""
    state = new_game(2, seed, {"first_player": 0, "edition": "2"})
    chooses: dict[int, dict[int, dict[str, Any]]] = {0: {}, 1: {}}
    steps = 0
    while (seat := current_player(state)) is not None:
        legal = legal_actions(state)
        view = view_for(state, seat)
        if view["phase"] == "choose":
            chooses[seat].setdefault(int(view["turn"]), view)
        state = apply(
            state, choose_action("medium", view, legal, derive_seed(seed, steps))
        )
        steps += 1
    assert chooses[0] and chooses[1]
    return chooses[0][max(chooses[0])]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_first_player_sees_its_last_turn_may_be_its_last(seed: int) -> None:
    view = first_players_last_choose(seed)
    assert not view["end_triggered"], "the case where the piles alone tell"
    last = sum(p for p, f in outlook(view) if seat_turns(view, 0, f) == 0)
    assert last > 0


def test_seen_by_the_seat_a_rivals_take_ends_the_game_when_it_can() -> None:
    # Piles (0, 3, 1, 3), can on pile 0, turn 2 (seat 1 takes): a take from pile 2, the
    # second open pile clockwise (a gem away), ends the game. The shares give it 28 / 99;
    # seat 0, which would have no turn left, counts on seat 1 ending it.
    view = make_view((0, 3, 1, 3), 0, players=2, turn=2)
    assert as_dict(outlook(view))[0] == pytest.approx(28 / 99)
    assert outlook(view, 0) == ((1.0, 0),)
    # Seat 1's own take keeps the shares: it decides it when it comes.
    assert as_dict(outlook(view, 1))[0] == pytest.approx(28 / 99)


def test_a_rival_reaches_one_pile_further_with_skill_f() -> None:
    # Piles (0, 3, 3, 1), can on pile 0: only pile 3, the third open pile (two gems away,
    # one with skill F), ends the game now.
    plain = make_view((0, 3, 3, 1), 0, players=2, turn=2)
    assert as_dict(outlook(plain, 0))[0] == pytest.approx(5 / 99)
    assert as_dict(outlook(plain))[0] == pytest.approx(5 / 99)
    skilled = make_view((0, 3, 3, 1), 0, players=2, turn=2, with_f=(1,))
    assert outlook(skilled, 0) == ((1.0, 0),)


def test_after_a_seats_own_take_its_rivals_may_end_the_game() -> None:
    # Three players, turn 4 (seat 0, first player 0) has taken (phase "plant"); piles
    # (0, 2, 1, 3, 3), can on pile 1. Seat 1 takes next, from pile 2 (free): the game
    # ends, its round is completed by seat 2, and seat 0 has no turn left.
    view = make_view((0, 2, 1, 3, 3), 1, players=3, turn=4, phase="plant")
    seen = outlook(view, 0)
    assert seen == ((1.0, 2),)
    assert seat_turns(view, 0, 2) == 0
    # With the shares, seat 1 takes pile 2 only 66 times in 99 (seat 2 may still end it).
    assert 66 / 99 <= as_dict(outlook(view)).get(2, 0.0) < 0.9


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
@pytest.mark.parametrize(
    ("sizes", "can", "turn"),
    [((0, 1, 1, 2), 0, 2), ((2, 1, 3, 1, 2, 3), 4, 9), ((0, 2, 1, 1, 3, 2), 1, 7)],
)
def test_every_seats_outlook_sums_to_one_and_ends_with_a_round(
    seat: int, sizes: tuple[int, ...], can: int, turn: int
) -> None:
    view = make_view(sizes, can, players=4, turn=turn)
    result = outlook(view, seat)
    assert sum(p for p, _ in result) == pytest.approx(1.0)
    assert all(p > 0 for p, _ in result)
    for _, future in result:
        assert (turn + future) % 4 == 0


@pytest.mark.parametrize("seed", [3, 4])
def test_in_a_real_game_a_rival_able_to_end_it_cheaply_is_counted_on(
    seed: int,
) -> None:
    # Medium bots play a 2-player game of edition 4. Whenever the seat to choose could end
    # the game paying at most one gem (the engine's legal moves say so), the other seat
    # sees the game end with this round.
    state = new_game(2, seed, {"first_player": 0, "edition": "4"})
    steps = checked = 0
    while (seat := current_player(state)) is not None:
        legal = legal_actions(state)
        view = view_for(state, seat)
        if view["phase"] == "choose" and not view["end_triggered"]:
            cheap_end = any(
                len(action_dict(a)["pay"]) <= 1
                and view_for(apply(state, a), None)["end_triggered"]
                for a in legal
            )
            if cheap_end:
                checked += 1
                turn = int(view["turn"])
                assert outlook(view, 1 - seat) == ((1.0, turn % 2),)
        state = apply(
            state, choose_action("medium", view, legal, derive_seed(seed, steps))
        )
        steps += 1
    assert checked > 0


def test_each_seat_has_its_own_outlook_with_two_players_only() -> None:
    # Two players: the seat not taking counts on its rival ending the game (see above).
    two = make_view((0, 3, 1, 3), 0, players=2, turn=2)
    assert outlooks(two) == [outlook(two, 0), outlook(two, 1)]
    assert outlooks(two)[0] != outlooks(two)[1]
    # Three and four: every seat values its future by the shared outlook.
    for players in (3, 4):
        view = make_view((0, 2, 1, 3, 3), 1, players=players, turn=4, phase="plant")
        assert outlooks(view) == [outlook(view)] * players
        assert outlook(view, 0) != outlook(view)
