"""Final scoring (RB "Final Scoring"; GAME-SPEC §7, §9): every category and the tie-breaks."""

from __future__ import annotations

from typing import Any

from engine import final_scores
from engine.rules.gardens import fountain_controllers
from engine.scoring import _winners
from engine.state import State
from tests.engine.builders import (
    FOUNTAIN_A,
    cell,
    force_assistant,
    force_tile,
    force_tree,
    game,
    with_gems,
    with_skills,
)


def position() -> State:
    """Fountain A (made purple) with two flowerbeds in its garden.

    Seat 0: line-06 F4 G G at (1,0) — one flower space, 4 flowers, assistant on (1,0).
    Seat 1: line-08 F1 F1s F1 from (-1,0) to (-3,2) — three flower spaces, 3 flowers,
    assistant on (-1,0); its bed touches the tablet (-2,0) twice.
    """
    state = game()
    state = force_tile(state, "line-06", (1, 0), 0)
    state = force_tile(state, "line-08", (-1, 0), 2)
    state = force_assistant(state, (1, 0), 0)
    state = force_assistant(state, (-1, 0), 1)
    fountains = list(state.fountains)
    fountains[state.geo.fountain_of[cell(state, FOUNTAIN_A)]] = "purple"
    return state.evolve(fountains=tuple(fountains), gems=((0, 0, 0), (0, 0, 0)))


def scores(state: State, seat: int) -> dict[str, Any]:
    result: dict[str, Any] = final_scores(state)["players"][seat]
    return result


def fountain_a(state: State) -> int:
    return state.geo.fountain_of[cell(state, FOUNTAIN_A)]


def test_fountain_control_counts_flower_spaces_not_flowers() -> None:
    state = position()
    assert fountain_controllers(state)[fountain_a(state)] == [
        1
    ]  # 3 spaces beat 1 space
    assert scores(state, 1)["categories"]["fountains"] == 4
    assert scores(state, 0)["categories"]["fountains"] == 0


def test_tied_players_all_control_the_fountain() -> None:
    state = game()
    state = force_tile(state, "line-11", (1, 0), 0)  # F2 F2s G: 2 spaces
    state = force_tile(state, "line-11", (-1, 0), 2)  # 2 spaces
    state = force_assistant(force_assistant(state, (1, 0), 0), (-1, 0), 1)
    assert fountain_controllers(state)[fountain_a(state)] == [0, 1]


def test_nobody_controls_a_fountain_with_zero_flower_spaces() -> None:
    state = force_tile(game(), "line-06", (1, 0), 0)  # vegetation, no assistant
    assert fountain_controllers(state) == [[], [], [], []]


def test_fountains_score_4_6_8_by_colour() -> None:
    state = position()
    for colour, vp in (("purple", 4), ("red", 6), ("white", 8)):
        fountains = list(state.fountains)
        fountains[fountain_a(state)] = colour
        result = scores(state.evolve(fountains=tuple(fountains)), 1)
        assert result["categories"]["fountains"] == vp
        assert result["fountains"] == [{"at": [0, 0], "colour": colour, "vp": vp}]


def test_flowers_score_one_per_flower_in_controlled_flowerbeds() -> None:
    state = position()
    assert scores(state, 0)["categories"]["flowers"] == 4
    assert scores(state, 1)["categories"]["flowers"] == 3


def test_tree_cards_score_their_victory_points() -> None:
    state = force_tree(force_tree(position(), (2, 0), 26), (3, 0), 1)
    assert scores(state, 0)["categories"]["trees"] == 17 + 3
    assert scores(state, 0)["trees_planted"] == 2


def test_unplanted_reserved_card_is_discarded() -> None:
    state = position().evolve(reserved=(26, None))
    assert scores(state, 0)["categories"]["trees"] == 0


def test_skill_a_scores_1_2_3_per_purple_red_white_gem_left() -> None:
    state = with_skills(with_gems(position(), 0, 2, 1, 1), 0, "F", "A")
    assert scores(state, 0)["categories"]["skill_A"] == 2 + 2 + 3


def test_gems_on_skills_are_not_counted_by_skill_a() -> None:
    state = with_skills(with_gems(position(), 0, 1), 0, "F", "A")  # 4 gems on skills
    assert scores(state, 0)["categories"]["skill_A"] == 1
    assert scores(state, 0)["gems_left"] == 1


def test_skill_b_scores_2_per_tablet_next_to_a_controlled_flowerbed_each_once() -> None:
    state = with_skills(position(), 1, "G", "B")
    assert scores(state, 1)["categories"]["skill_B"] == 2


def test_skill_c_scores_3_per_fountain_controlled() -> None:
    state = with_skills(position(), 1, "H", "C")
    assert scores(state, 1)["categories"]["skill_C"] == 3


def test_skill_d_scores_2_per_tree_card_planted() -> None:
    state = with_skills(force_tree(position(), (2, 0), 1), 0, "I", "D")
    assert scores(state, 0)["categories"]["skill_D"] == 2


def test_skill_e_scores_1_per_flower_space_in_controlled_flowerbeds() -> None:
    state = with_skills(position(), 1, "J", "E")
    assert scores(state, 1)["categories"]["skill_E"] == 3


def test_upper_skill_scores_nothing_unless_unlocked() -> None:
    categories = scores(position(), 1)["categories"]
    assert all(categories[f"skill_{x}"] == 0 for x in "ABCDE")


def test_total_is_the_sum_of_the_categories() -> None:
    state = with_skills(force_tree(position(), (2, 0), 12), 1, "J", "E", "G", "B")
    for player in final_scores(state)["players"]:
        assert player["total"] == sum(player["categories"].values())


def _player(seat: int, total: int, trees: int, gems: int) -> dict[str, Any]:
    return {"seat": seat, "total": total, "trees_planted": trees, "gems_left": gems}


def test_single_best_total_wins() -> None:
    assert _winners([_player(0, 50, 1, 1), _player(1, 49, 5, 5)]) == ([0], None)


def test_tie_is_broken_by_most_trees_planted() -> None:
    assert _winners([_player(0, 54, 3, 9), _player(1, 54, 4, 0)]) == (
        [1],
        "Tied on 54: Yellow wins on trees planted (4 to 3)",
    )


def test_then_by_most_gems_left() -> None:
    assert _winners(
        [_player(0, 54, 3, 2), _player(1, 54, 3, 5), _player(2, 60, 0, 0)]
    ) == (
        [2],
        None,
    )
    assert _winners([_player(0, 54, 3, 2), _player(1, 54, 3, 5)]) == (
        [1],
        "Tied on 54: Yellow wins on gems left (5 to 2)",
    )


def test_still_tied_players_share_the_win() -> None:
    winners, sentence = _winners([_player(0, 54, 3, 2), _player(2, 54, 3, 2)])
    assert winners == [0, 2]
    assert (
        sentence
        == "Tied on 54, trees planted and gems left: Blue and Green share the win"
    )
