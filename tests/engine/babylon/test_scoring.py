"""Scoring (spec §6, RB "Scoring" a-c, R-12), the winner and the tie-break (RB, R-13),
team totals (R-14)."""

from __future__ import annotations

import pytest

from engine.babylon import final_scores
from engine.babylon.scoreboards import LINES
from engine.babylon.scoring import line_points, score_board
from tests.engine.babylon.builders import finished, winks

WORKED_EXAMPLE = "r r p r g y g r y g r p p"


def _line(letters: str) -> int:
    """The points of one line written as the spec does (``_`` an empty slot)."""
    colours = [None if c == "_" else winks(c)[0] for c in letters.split()]
    return sum(points for _, _, points in line_points(colours))


@pytest.mark.parametrize(
    ("line", "points"),
    [
        ("r r r r r", 50),
        ("r r r r g", 20),
        ("g r r r g", 15),
        ("r r g r r", 20),
        ("r g r g r", 0),
        ("r r _ r r", 20),
    ],
)
def test_r12_line_examples_of_section_6(line: str, points: int) -> None:
    assert _line(line) == points


def _board_with_row(letters: str) -> tuple[str, ...]:
    """25 winks whose row line reads `letters` and whose other slots never make a run:
    the other slots cycle through colours different from their neighbours'."""
    slots: dict[int, str] = dict(zip(LINES[0][1], letters.split(), strict=True))
    filler = iter("ypgy" * 10)
    out = []
    for n in range(1, 26):
        out.append(slots.get(n) or next(filler))
    return winks(" ".join(out))


def test_r12_a_full_line_of_one_colour_scores_10_per_wink_on_a_real_board() -> None:
    score = score_board("A1", winks(" ".join(["r"] * 25)))
    assert all(d["points"] == 50 for d in score["lines_detail"])
    assert score["lines"] == 200
    assert score["fill"] == 25
    # colour: the two red borders of A1 (slots 20 and 25)
    assert score["colour_slots"] == [20, 25]
    assert score["total"] == 25 + 10 + 200


def test_r12_runs_list_their_colour_slots_and_points() -> None:
    score = score_board("A1", winks(WORKED_EXAMPLE))
    row = next(d for d in score["lines_detail"] if d["line"] == "row")
    assert row == {
        "line": "row",
        "slots": [23, 8, 1, 4, 15],
        "points": 15,
        "runs": [{"colour": "red", "slots": [8, 1, 4], "points": 15}],
    }


def test_spec_worked_example_side_a1_scores_63() -> None:
    """§6: fill 13; colour 10 (slot 3 purple, slot 7 green); lines 15 + 15 + 0 + 10."""
    score = score_board("A1", winks(WORKED_EXAMPLE))
    assert (score["fill"], score["colour"], score["lines"]) == (13, 10, 40)
    assert score["colour_slots"] == [3, 7]
    by_line = {d["line"]: d["points"] for d in score["lines_detail"]}
    assert by_line == {"row": 15, "column": 15, "diagonal-down": 0, "diagonal-up": 10}
    diagonal_up = next(d for d in score["lines_detail"] if d["line"] == "diagonal-up")
    assert diagonal_up["runs"] == [{"colour": "purple", "slots": [3, 13], "points": 10}]
    assert score["total"] == 63


def test_r12_the_centre_wink_counts_in_every_line_whose_run_it_joins() -> None:
    """Slots 1-9 red: the centre joins a run of 3 in each of the 4 lines (5 x 3 each)."""
    score = score_board("A1", winks(" ".join(["r"] * 9)))
    assert [d["points"] for d in score["lines_detail"]] == [15, 15, 15, 15]


def test_rb_fill_one_point_per_wink_at_most_25() -> None:
    assert score_board("B2", ())["total"] == 0
    assert score_board("B2", winks("g"))["fill"] == 1
    assert score_board("B2", _board_with_row("r g r g r"))["fill"] == 25


def test_rb_colour_5_per_wink_in_a_bordered_slot_of_its_colour() -> None:
    # A1 borders slot 3 purple and slot 7 green: a red on 3 scores nothing
    assert score_board("A1", winks("r r r"))["colour"] == 0
    assert score_board("A1", winks("r r p"))["colour"] == 5
    assert score_board("A1", winks("r r p r g y g"))["colour_slots"] == [3, 7]


def test_rb_the_most_points_wins() -> None:
    state = finished(2, [WORKED_EXAMPLE, "r g"], ["A1", "B1"])
    scores = final_scores(state)
    assert [p["total"] for p in scores["players"]] == [63, 2]
    assert scores["winners"] == [0]
    assert scores["tiebreak"] is None
    assert scores["teams"] is None
    assert scores["players"][0]["categories"] == {"fill": 13, "colour": 10, "lines": 40}
    assert scores["players"][0]["winks"] == 13


# Boards of a few winks whose only points are fill and colour: no slot of 2-9 has the
# centre's colour, so no line has a run (the inner slots touch each other only through the
# centre). In the inner ring A1 and B1 border slot 3 purple and 7 green, C1 slot 5 yellow
# and 9 purple, D1 slot 3 red and 7 green.


def test_rb_a_draw_goes_to_the_most_complete_scoreboard() -> None:
    # A1 "r g p": fill 3 + slot 3 purple 5 = 8; B1 "r g y g y g y g": fill 8
    state = finished(2, ["r g p", "r g y g y g y g"], ["A1", "B1"])
    scores = final_scores(state)
    assert [p["total"] for p in scores["players"]] == [8, 8]
    assert scores["winners"] == [1]
    assert scores["tiebreak"] == "Tied on 8: Orange wins on winks (8 to 3)."


def test_rb_the_player_who_filled_the_board_wins_any_tie_they_are_in() -> None:
    """A1 full of r g y p repeated: 25 + 10 (slots 11 and 25) + 50 = 85; D2 with 20 winks
    also makes 85 (20 + 10 + 55). The full board has the most winks there can be."""
    full = " ".join(("r g y p " * 7).split()[:25])
    other = "p p y y y y p g p g p g p y y r r g y y"
    state = finished(2, [full, other], ["A1", "D2"])
    scores = final_scores(state)
    assert [p["total"] for p in scores["players"]] == [85, 85]
    assert scores["winners"] == [0]
    assert scores["tiebreak"] == "Tied on 85: Blue wins on winks (25 to 20)."


def test_r13_still_tied_on_winks_the_tied_players_share_the_win() -> None:
    # A1 "r g y" and B1 "r g y": 3 points and 3 winks each; C1 "r": 1
    state = finished(3, ["r g y", "r g y", "r"], ["A1", "B1", "C1"])
    scores = final_scores(state)
    assert scores["winners"] == [0, 1]
    assert scores["tiebreak"] == (
        "Tied on 3 points and 3 winks: Blue and Orange share the win."
    )


def test_r13_three_tied_on_points_the_most_winks_among_them_wins() -> None:
    # 8 points each: A1 "r g p" (3 winks), B1 "r g y g y g y g" (8 winks), D2 "r g y"
    # (3 winks: fill 3 + slot 3 yellow-bordered on D2)
    state = finished(3, ["r g p", "r g y g y g y g", "r g y"], ["A1", "B1", "D2"])
    scores = final_scores(state)
    assert [p["total"] for p in scores["players"]] == [8, 8, 8]
    assert scores["winners"] == [1]
    assert scores["tiebreak"] == "Tied on 8: Orange wins on winks (8 to 3 to 3)."


def test_r13_only_the_players_tied_on_the_most_points_count() -> None:
    # C1 "r g y g y": fill 5 + slot 5 yellow 5 = 10, alone ahead of two players on 8
    state = finished(3, ["r g p", "r g y g y g y g", "r g y g y"], ["A1", "B1", "C1"])
    scores = final_scores(state)
    assert [p["total"] for p in scores["players"]] == [8, 8, 10]
    assert scores["winners"] == [2]
    assert scores["tiebreak"] is None


def test_r13_two_of_three_tied_on_points_and_winks_share_the_win() -> None:
    # C1 "r g y g g g g g": fill 8 (slot 5 is green, not yellow)
    boards = ["r g p", "r g y g y g y g", "r g y g g g g g"]
    scores = final_scores(finished(3, boards, ["A1", "B1", "C1"]))
    assert [p["total"] for p in scores["players"]] == [8, 8, 8]
    assert scores["winners"] == [1, 2]
    assert scores["tiebreak"] == (
        "Tied on 8 points and 8 winks: Orange and White share the win."
    )


def test_r13_three_players_sharing_the_win_are_all_named() -> None:
    state = finished(3, ["r g y", "r g y", "r g y"], ["A1", "B1", "C1"])
    scores = final_scores(state)
    assert scores["winners"] == [0, 1, 2]
    assert scores["tiebreak"] == (
        "Tied on 3 points and 3 winks: Blue, Orange and White share the win."
    )


def test_r14_team_totals_add_both_players_and_the_higher_total_wins_both() -> None:
    state = finished(
        4, [WORKED_EXAMPLE, "r", "r g", "g"], ["A1", "B1", "C1", "D1"], teams=True
    )
    scores = final_scores(state)
    assert scores["teams"] == [
        {"seats": [0, 2], "total": 63 + 2, "winks": 15},
        {"seats": [1, 3], "total": 2, "winks": 2},
    ]
    assert scores["winners"] == [0, 2]
    assert scores["tiebreak"] is None


def test_r14_team_tie_goes_to_the_team_with_more_winks() -> None:
    # team {0, 2}: A1 "r g p" 8 + C1 "r" 1 = 9 in 4 winks;
    # team {1, 3}: B1 "r g y g y" 5 + D1 "g r y r" 4 = 9 in 9 winks
    state = finished(
        4, ["r g p", "r g y g y", "r", "g r y r"], ["A1", "B1", "C1", "D1"], teams=True
    )
    scores = final_scores(state)
    assert [t["total"] for t in scores["teams"]] == [9, 9]
    assert scores["winners"] == [1, 3]
    assert scores["tiebreak"] == "Tied on 9: Orange and Black win on winks (9 to 4)."


def test_r14_teams_still_tied_on_winks_share_the_win() -> None:
    # team {0, 2}: A1 "r g y" 3 + C1 "r g" 2; team {1, 3}: B1 "r g" 2 + D1 "g r y" 3
    state = finished(
        4, ["r g y", "r g", "r g", "g r y"], ["A1", "B1", "C1", "D1"], teams=True
    )
    scores = final_scores(state)
    assert [(t["total"], t["winks"]) for t in scores["teams"]] == [(5, 5), (5, 5)]
    assert scores["winners"] == [0, 1, 2, 3]
    assert (
        scores["tiebreak"] == "Tied on 5 points and 5 winks: both teams share the win."
    )


@pytest.mark.parametrize(
    ("line", "points"),
    [
        ("r r r r r", 50),
        ("r r r r g", 20),
        ("g r r r g", 15),
        ("r r g r r", 20),
        ("r g r g r", 0),
    ],
)
def test_r12_line_examples_on_the_row_of_a_full_scoreboard(
    line: str, points: int
) -> None:
    score = score_board("A1", _board_with_row(line))
    row = next(d for d in score["lines_detail"] if d["line"] == "row")
    assert row["slots"] == [23, 8, 1, 4, 15]
    assert row["points"] == points
