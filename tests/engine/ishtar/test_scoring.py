"""Final scoring (RB "Final Scoring"; GAME-SPEC §7, §9): every category and the tie-breaks."""

from __future__ import annotations

from typing import Any

from engine.ishtar import Action, apply, final_scores, is_over, legal_actions, view_for
from engine.ishtar.components import FOUNTAIN_VP, PLAYER_COLOURS
from engine.ishtar.rules.gardens import fountain_controllers
from engine.ishtar.scoring import tiebreak_message
from engine.ishtar.state import State
from tests.engine.ishtar.builders import (
    FOUNTAIN_A,
    cell,
    force_assistant,
    force_tile,
    force_tree,
    game,
    with_gems,
    with_skills,
)
from tests.engine.ishtar.played import load


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


def _finished(name: str) -> tuple[State, dict[str, Any], list[int]]:
    """A stored game played to its end through apply, its scores and the seats tied first."""
    state = load(name)
    assert is_over(state)
    scores = final_scores(state)
    best = max(p["total"] for p in scores["players"])
    tied = [p["seat"] for p in scores["players"] if p["total"] == best]
    assert len(tied) == 2
    return state, scores, tied


def test_single_best_total_wins() -> None:
    state = load("discard")  # a 3-player game, played on to its end
    while not is_over(state):
        state = apply(state, legal_actions(state)[0])
    scores = final_scores(state)
    totals = [p["total"] for p in scores["players"]]
    assert totals.count(max(totals)) == 1
    assert scores["winners"] == [totals.index(max(totals))]
    assert scores["tiebreak"] is None


def test_tie_is_broken_by_most_trees_planted() -> None:
    state, scores, (a, b) = _finished("tie-on-trees")
    trees = [len(cards) for cards in state.tree_cards]
    gems = [sum(g) for g in state.gems]
    winner, loser = (a, b) if trees[a] > trees[b] else (b, a)
    assert trees[winner] > trees[loser]
    assert gems[winner] < gems[loser]  # trees come before gems
    assert scores["winners"] == [winner]
    total = scores["players"][winner]["total"]
    name = PLAYER_COLOURS[winner].capitalize()
    assert scores["tiebreak"] == (
        f"Tied on {total}: {name} wins on trees planted ({trees[winner]} to {trees[loser]})"
    )


def test_then_by_most_gems_left() -> None:
    state, scores, (a, b) = _finished("tie-on-gems")
    assert len(state.tree_cards[a]) == len(state.tree_cards[b])
    gems = [sum(g) for g in state.gems]  # the supply: gems paid on skills are not left
    winner, loser = (a, b) if gems[a] > gems[b] else (b, a)
    assert gems[winner] > gems[loser]
    assert scores["winners"] == [winner]
    assert [p["gems_left"] for p in scores["players"]] == gems
    total = scores["players"][winner]["total"]
    name = PLAYER_COLOURS[winner].capitalize()
    assert scores["tiebreak"] == (
        f"Tied on {total}: {name} wins on gems left ({gems[winner]} to {gems[loser]})"
    )


def test_still_tied_players_share_the_win() -> None:
    state, scores, (a, b) = _finished("tie-shared")
    assert len(state.tree_cards[a]) == len(state.tree_cards[b])
    assert sum(state.gems[a]) == sum(state.gems[b])  # gems count one each, any colour
    assert scores["winners"] == [a, b]
    total = scores["players"][a]["total"]
    names = " and ".join(PLAYER_COLOURS[s].capitalize() for s in (a, b))
    assert scores["tiebreak"] == (
        f"Tied on {total}, trees planted and gems left: {names} share the win"
    )
    assert view_for(state, None)["scores"] == {
        **scores,
        "tiebreak_message": tiebreak_message(scores),
    }


def test_flowers_under_an_assistant_stay_visible_and_score() -> None:
    # RB: the assistant is placed on the tile "to cover that icon", and scores "each visible
    # Flower": it covers the icon, not the flowers of its space (docs/games/ishtar/rules.md).
    state = game()
    for move in (
        Action("choose", pile=0),  # triangle-B: F2a G G
        Action("place", at=(6, 2), rotation=3),
        Action("assistant"),
    ):
        state = apply(state, move)
    at = cell(state, (6, 2))
    assert state.assistants == {at: 0}
    assert state.flowers[at] == 2  # the icon's space, the only flower space of its bed
    blue = scores(state, 0)["categories"]
    assert blue["flowers"] == 2
    fountain = state.geo.fountain_of[cell(state, (4, 3))]
    assert fountain_controllers(state)[fountain] == [0]  # its one flower space counts
    assert blue["fountains"] == FOUNTAIN_VP[state.fountains[fountain]]
