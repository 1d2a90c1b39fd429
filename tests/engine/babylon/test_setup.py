"""Set-up by seed (spec §4, RB "Set Up"): the deal, the scoreboards (R-5), the first-player
draw (R-6, R-18), the options and their refusals."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.babylon import IllegalAction, check_options, new_game, public_setup
from engine.babylon.components import TILES, TILES_OF_KIND
from engine.babylon.floors import FLOOR_IDS
from engine.babylon.scoreboards import SIDES, board_of
from engine.babylon.setup import _draw_first_player
from engine.babylon.state import Draw


def test_same_seed_and_options_give_the_same_set_up() -> None:
    for floor_id in FLOOR_IDS:
        assert new_game(3, 77, {"floor": floor_id}) == new_game(
            3, 77, {"floor": floor_id}
        )
    deals = {new_game(2, seed).tiles for seed in range(20)}
    assert len(deals) == 20


@pytest.mark.parametrize("floor_id", FLOOR_IDS)
def test_rb_the_floor_is_dealt_from_the_matching_piles_face_up_and_dry(
    floor_id: str,
) -> None:
    state = new_game(4, 3, {"floor": floor_id})
    for at, tile in zip(state.floor.spaces, state.tiles, strict=True):
        assert TILES[tile].kind == state.floor.kinds[at]
    assert set(state.gems) == {0}
    kinds = Counter(state.floor.kinds.values())
    assert len(state.piles[0]) == 24 - kinds["single"]
    assert len(state.piles[1]) == 32 - kinds["multi"]
    assert Counter([*state.tiles, *state.piles[0], *state.piles[1]]) == Counter(
        list(TILES)
    )
    assert state.discards == ((), ())
    assert state.winks == ((),) * 4
    assert state.path == ()


def test_rb_piles_shuffled_separately_by_the_seed() -> None:
    piles = {new_game(2, seed, {"first_player": 0}).piles[0] for seed in range(10)}
    assert len(piles) == 10
    state = new_game(2, 1, {"first_player": 0})
    assert set(state.piles[0]) <= set(TILES_OF_KIND["single"])
    assert set(state.piles[1]) <= set(TILES_OF_KIND["multi"])


def test_r5_random_scoreboards_one_side_of_a_different_board_each() -> None:
    seen = set()
    for seed in range(40):
        state = new_game(4, seed)
        assert all(side in SIDES for side in state.sides)
        assert len({board_of(side) for side in state.sides}) == 4  # type: ignore[arg-type]
        seen.update(state.sides)
        assert state.phase == "irrigate"
    assert seen == set(SIDES)  # every side is dealt some time


def test_r5_choose_opens_the_scoreboard_step_seat_0_first() -> None:
    state = new_game(3, 5, {"scoreboards": "choose"})
    assert state.phase == "scoreboard"
    assert state.sides == (None, None, None)
    assert state.current == 0
    assert state.turn == 0


def test_r6_the_most_flowers_starts() -> None:
    for seed in range(30):
        state = new_game(4, seed)
        last = max(d.round for d in state.draws)
        final = [d for d in state.draws if d.round == last]
        best = max(TILES[d.tile].flowers for d in final)
        (winner,) = [d.seat for d in final if TILES[d.tile].flowers == best]
        assert state.first_player == winner == state.current
        first_round = [d.seat for d in state.draws if d.round == 1]
        assert first_round == [0, 1, 2, 3]  # everyone draws, in seat order


def test_r6_tied_highest_players_draw_again_from_what_is_left() -> None:
    """Seed 42, Ishtar's Garden, 2 players: three rounds (5 and 5, 3 and 3, 2 and 3)."""
    state = new_game(2, 42, {"floor": "ishtar"})
    assert state.draws == (
        Draw(0, "M-g5-1", 1), Draw(1, "M-p5-2", 1),
        Draw(0, "M-g3-2", 2), Draw(1, "M-y3-1", 2),
        Draw(0, "M-y2-1", 3), Draw(1, "M-y3-2", 3),
    )  # fmt: skip
    assert state.first_player == 1
    assert len({d.tile for d in state.draws}) == 6  # drawn from what was left


def test_r6_only_the_tied_players_draw_again() -> None:
    for seed in range(300):
        state = new_game(4, seed)
        for n in range(2, max(d.round for d in state.draws) + 1):
            before = [d for d in state.draws if d.round == n - 1]
            best = max(TILES[d.tile].flowers for d in before)
            tied = [d.seat for d in before if TILES[d.tile].flowers == best]
            assert [d.seat for d in state.draws if d.round == n] == tied


def test_r6_drawn_tiles_go_back_into_the_multi_pile_which_is_reshuffled() -> None:
    drawn = new_game(2, 5, {"floor": "ishtar"})
    fixed = new_game(2, 5, {"floor": "ishtar", "first_player": 1})
    assert drawn.tiles == fixed.tiles  # the deal comes before the draw
    assert drawn.piles[0] == fixed.piles[0]
    assert sorted(drawn.piles[1]) == sorted(fixed.piles[1])
    assert {d.tile for d in drawn.draws} <= set(drawn.piles[1])
    assert drawn.piles[1] != fixed.piles[1]  # reshuffled
    assert fixed.draws == ()


def test_r18_a_redraw_the_pile_cannot_serve_takes_back_all_drawn_tiles() -> None:
    """Seed 199, Ishtar's Garden, 2 players: 8 multis are left after the deal and the two
    players tie four times; round 5 cannot be served, so the 8 drawn tiles go back, the
    pile is reshuffled and the tied players draw again from it."""
    state = new_game(2, 199, {"floor": "ishtar"})
    rounds = [[d.tile for d in state.draws if d.round == n] for n in range(1, 6)]
    first_four = {tile for tiles in rounds[:4] for tile in tiles}
    assert len(first_four) == 8 == len(state.piles[1])
    assert set(rounds[4]) <= first_four  # round 5 draws tiles drawn before
    assert [d.seat for d in state.draws if d.round == 5] == [0, 1]
    assert state.first_player == 0


class _Rng(random.Random):
    """Shuffles by reversing: a pile whose order the test can follow."""

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        x.reverse()


def test_r18_the_redraw_reshuffles_every_drawn_tile_into_what_is_left() -> None:
    pile = ["M-r2-1", "M-g3-1", "M-y2-1", "M-p2-1"]  # the top is the last
    first, draws = _draw_first_player(2, pile, _Rng())
    # round 1: p2 and y2 tie; round 2 from what is left: g3 and r2, seat 0 wins
    assert [(d.seat, d.tile, d.round) for d in draws] == [
        (0, "M-p2-1", 1), (1, "M-y2-1", 1), (0, "M-g3-1", 2), (1, "M-r2-1", 2)
    ]  # fmt: skip
    assert first == 0
    assert sorted(pile) == ["M-g3-1", "M-p2-1", "M-r2-1", "M-y2-1"]  # all back
    short = ["M-r3-1", "M-g2-1", "M-y2-1"]
    first, draws = _draw_first_player(2, short, _Rng())
    # round 1: y2 and g2 tie, one tile is left for two players: R-18 puts y2 and g2
    # back with r3 ([r3, y2, g2], reversed by the shuffle: r3 on top) and both draw again
    assert [(d.seat, d.tile, d.round) for d in draws] == [
        (0, "M-y2-1", 1), (1, "M-g2-1", 1), (0, "M-r3-1", 2), (1, "M-y2-1", 2)
    ]  # fmt: skip
    assert first == 0
    assert sorted(short) == ["M-g2-1", "M-r3-1", "M-y2-1"]


def test_the_host_may_fix_the_first_player_and_then_there_is_no_draw() -> None:
    state = new_game(3, 9, {"first_player": 2})
    assert state.first_player == 2 == state.current
    assert state.draws == ()
    assert public_setup(state)["draws"] == []


def test_public_setup_is_what_the_seed_drew_for_everyone_to_see() -> None:
    state = new_game(2, 42, {"floor": "ishtar"})
    setup = public_setup(state)
    assert setup["floor"] == "ishtar"
    assert setup["first_player"] == 1
    assert setup["sides"] == list(state.sides)
    assert setup["tiles"][0] == {"at": [0, 0], "tile": state.tiles[0]}
    assert setup["draws"][0] == {"seat": 0, "tile": "M-g5-1", "round": 1}
    assert "piles" not in setup and "seed" not in setup


def test_check_options_fills_the_defaults() -> None:
    assert check_options(2, None) == {
        "floor": "lower",
        "scoreboards": "random",
        "teams": False,
        "first_player": None,
    }
    assert check_options(4, {"teams": True, "floor": "roof"})["teams"] is True


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (3, {"teams": True}, "Team mode is for exactly 4 players (two teams of two)."),
        (2, {"teams": True}, "Team mode is for exactly 4 players (two teams of two)."),
        (2, {"colour": "red"}, "Babylon Gardens has no option 'colour'."),
        (2, {1: 2}, "Babylon Gardens has no option '1'."),
        (
            2,
            {"floor": "attic"},
            "The floor is one of lower, middle, higher, roof, ishtar, tammuz.",
        ),
        (2, {"floor": ["lower"]}, "The floor is one of lower, middle, higher, roof, ishtar, tammuz."),
        (2, {"first_player": 2}, "The first player must be a seat from 0 to 1."),
        (4, {"first_player": -1}, "The first player must be a seat from 0 to 3."),
        (2, {"first_player": True}, "The first player must be a seat from 0 to 1."),
        (2, {"first_player": "0"}, "The first player must be a seat from 0 to 1."),
        (2, {"scoreboards": "draft"}, "Scoreboards are dealt at random or chosen by the players."),
        (4, {"teams": "yes"}, "Team mode is on or off."),
        (1, {}, "Babylon Gardens is played by 2 to 4 players."),
        (5, {}, "Babylon Gardens is played by 2 to 4 players."),
        (True, {}, "Babylon Gardens is played by 2 to 4 players."),
        (2, ["floor"], "The options are a JSON object."),
    ],
)  # fmt: skip
def test_check_options_refuses_with_a_readable_reason(
    players: Any, options: Any, reason: str
) -> None:
    with pytest.raises(IllegalAction) as info:
        check_options(players, options)
    assert info.value.reason == reason
    with pytest.raises(IllegalAction):
        new_game(players, 1, options)
