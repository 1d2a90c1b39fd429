"""The tie-break as a message (docs/i18n.md, docs/games/babylon/contract.md "Scores"): each
way a draw is settled (RB: the most winks; R-13: a shared win; R-14: teams) says so in
English, French and Dutch with the players' names, its English is the ``tiebreak`` sentence
records keep, and the final view carries it next to that sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.babylon import final_scores, view_for
from engine.babylon.scoring import tiebreak_message
from engine.babylon.state import State
from engine.babylon.words import CATALOGUES, english
from engine.messages import LANGUAGES, keys, render
from tests.engine.babylon.builders import finished, random_game
from tests.engine.babylon.golden_games import GOLDEN_DIR
from tests.engine.catalogue_checks import scan

NAMES = ["Ana", "Björn", "Chen", "Dara"]
NB = "\u00a0"


def _in(lang: str, message: dict[str, Any]) -> str:
    """A message as a reader of ``lang`` sees it, seats by the players' names."""
    return render(CATALOGUES[lang], message, lang, seat=NAMES.__getitem__)


def _tie(scores: dict[str, Any]) -> dict[str, Any]:
    found = tiebreak_message(scores)
    assert found is not None
    assert english(found) == scores["tiebreak"]
    return found


def test_a_draw_won_on_winks_names_the_winner_and_the_winks() -> None:
    scores = final_scores(finished(2, ["r g p", "r g y g y g y g"], ["A1", "B1"]))
    assert scores["tiebreak"] == "Tied on 8: Orange wins on winks (8 to 3)."
    message = _tie(scores)
    assert message["key"] == "babylon.score.tiebreak.winks"
    assert message["params"]["winner"] == {"list": [{"seat": 1}]}
    assert _in("en", message) == "Tied on 8: Björn wins on winks (8 to 3)."
    assert _in("fr", message) == (
        f"Égalité à 8 points{NB}: Björn l’emporte au nombre de jetons (8 contre 3)."
    )
    assert _in("nl", message) == (
        "Gelijk op 8 punten: Björn wint op aantal fiches (8 tegen 3)."
    )


def test_three_tied_on_points_compare_every_tied_players_winks() -> None:
    boards = ["r g p", "r g y g y g y g", "r g y"]
    scores = final_scores(finished(3, boards, ["A1", "B1", "D2"]))
    message = _tie(scores)
    assert scores["tiebreak"] == "Tied on 8: Orange wins on winks (8 to 3 to 3)."
    assert _in("fr", message).endswith("(8 contre 3 contre 3).")
    assert _in("nl", message).endswith("(8 tegen 3 tegen 3).")


def test_players_still_tied_on_winks_share_the_win() -> None:
    scores = final_scores(finished(3, ["r g y", "r g y", "r"], ["A1", "B1", "C1"]))
    message = _tie(scores)
    assert message == {
        "key": "babylon.score.tiebreak.shared",
        "params": {
            "points": 3,
            "winks": 3,
            "winners": {"list": [{"seat": 0}, {"seat": 1}]},
        },
    }
    assert _in("fr", message) == (
        f"Égalité à 3 points et 3 jetons{NB}: Ana et Björn se partagent la victoire."
    )
    assert _in("nl", message) == (
        "Gelijk op 3 punten en 3 fiches: Ana en Björn delen de overwinning."
    )


def test_three_sharing_the_win_are_listed_as_the_sentence_lists_them() -> None:
    scores = final_scores(finished(3, ["r g y"] * 3, ["A1", "B1", "C1"]))
    message = _tie(scores)  # "Blue, Orange and White": the same list as the sentence
    assert _in("fr", message).endswith(
        f"{NB}: Ana, Björn et Chen se partagent la victoire."
    )
    assert _in("nl", message).endswith(": Ana, Björn en Chen delen de overwinning.")


def test_r14_a_team_winning_on_winks_is_both_players_in_the_plural() -> None:
    boards = ["r g p", "r g y g y", "r", "g r y r"]
    scores = final_scores(finished(4, boards, ["A1", "B1", "C1", "D1"], teams=True))
    message = _tie(scores)
    assert scores["tiebreak"] == "Tied on 9: Orange and Black win on winks (9 to 4)."
    assert message["params"]["players"] == 2
    assert _in("en", message) == "Tied on 9: Björn and Dara win on winks (9 to 4)."
    assert _in("fr", message) == (
        f"Égalité à 9 points{NB}: Björn et Dara l’emportent au nombre de jetons "
        "(9 contre 4)."
    )
    assert _in("nl", message) == (
        "Gelijk op 9 punten: Björn en Dara winnen op aantal fiches (9 tegen 4)."
    )


def test_r14_teams_still_tied_share_the_win() -> None:
    boards = ["r g y", "r g", "r g", "g r y"]
    scores = final_scores(finished(4, boards, ["A1", "B1", "C1", "D1"], teams=True))
    message = _tie(scores)
    assert message["key"] == "babylon.score.tiebreak.teams_shared"
    assert _in("fr", message) == (
        f"Égalité à 5 points et 5 jetons{NB}: les deux équipes se partagent la victoire."
    )
    assert _in("nl", message) == (
        "Gelijk op 5 punten en 5 fiches: beide teams delen de overwinning."
    )


def test_french_and_dutch_say_one_point_and_one_wink_in_the_singular() -> None:
    scores = final_scores(finished(2, ["r", "r"], ["A1", "B1"]))
    message = _tie(scores)
    assert (
        scores["tiebreak"]
        == "Tied on 1 points and 1 winks: Blue and Orange share the win."
    )
    assert _in("fr", message).startswith(f"Égalité à 1 point et 1 jeton{NB}: ")
    assert _in("nl", message).startswith("Gelijk op 1 punt en 1 fiche: ")


def test_no_message_without_a_draw() -> None:
    scores = final_scores(finished(2, ["r g p", "r g"], ["A1", "B1"]))
    assert scores["tiebreak"] is None
    assert tiebreak_message(scores) is None


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 3, {}), (3, 4, {"floor": "roof"}), (4, 5, {"teams": True})],
)
def test_the_english_is_the_sentence_in_every_position_of_a_game(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """``final_scores`` of every position of a random game (everyone tied on 0 at the
    start, many draws on the way): the message is None exactly when the sentence is,
    and its English is the sentence, byte for byte."""
    kinds = set()
    for state, _ in random_game(players, seed, options):
        scores = final_scores(state)
        found = tiebreak_message(scores)
        if found is None:
            assert scores["tiebreak"] is None
        else:
            kinds.add(found["key"])
            assert english(found) == scores["tiebreak"]
    assert kinds


TIES = [
    (2, ["r g p", "r g y g y g y g"], ["A1", "B1"], {}),
    (3, ["r g p", "r g y g y g y g", "r g y"], ["A1", "B1", "D2"], {}),
    (3, ["r g p", "r g y g y g y g", "r g y g g g g g"], ["A1", "B1", "C1"], {}),
    (3, ["r g y"] * 3, ["A1", "B1", "C1"], {}),
    (
        4,
        ["r g p", "r g y g y", "r", "g r y r"],
        ["A1", "B1", "C1", "D1"],
        {"teams": True},
    ),
    (4, ["r g y", "r g", "r g", "g r y"], ["A1", "B1", "C1", "D1"], {"teams": True}),
]


def _tied_states() -> list[State]:
    return [
        finished(players, boards, sides, **options)
        for players, boards, sides, options in TIES
    ]


def test_every_tie_message_renders_fully_and_uses_every_tiebreak_key() -> None:
    sent = [("tie", _tie(final_scores(state))) for state in _tied_states()]
    assert scan(CATALOGUES, sent, NAMES) == len(TIES)
    said = {key for _, message in sent for key in keys(message)}
    assert said == {key for key in CATALOGUES["en"] if ".score." in key}
    for lang in LANGUAGES:
        assert said <= set(CATALOGUES[lang]), lang


def test_the_final_view_carries_the_message_next_to_the_sentence() -> None:
    for state in _tied_states():
        over = state.evolve(phase="over")
        scores = final_scores(over)
        view = view_for(over, None)
        assert list(view["scores"]) == [
            "players",
            "winners",
            "tiebreak",
            "tiebreak_message",
            "teams",
        ]
        assert view["scores"] == {
            **scores,
            "tiebreak_message": tiebreak_message(scores),
        }
        assert view["scores"]["tiebreak_message"] is not None
        assert json.loads(json.dumps(view)) == view
    *_, (last, _) = random_game(2, 5, {"floor": "lower"})
    assert view_for(last, 1)["scores"]["tiebreak_message"] == tiebreak_message(
        final_scores(last)
    )


@pytest.mark.parametrize(
    "path", sorted(GOLDEN_DIR.glob("*.json")), ids=lambda p: p.stem
)
def test_a_stored_games_scores_give_the_message_of_their_sentence(path: Any) -> None:
    """A record keeps ``final_scores`` as it was: the message is made from it alone."""
    scores = json.loads(path.read_text())["scores"]
    found = tiebreak_message(scores)
    assert (None if found is None else english(found)) == scores["tiebreak"]
