"""The tie-break as a message (docs/i18n.md, docs/games/ishtar/contract.md "Scores"): a win
on trees planted, on gems left, or shared says so in English, French and Dutch with the
players' names, its English is the ``tiebreak`` sentence records keep (but for the list of
three or four sharing a win), and the final view carries it next to that sentence."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.ishtar import (
    apply,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    view_for,
)
from engine.ishtar.scoring import _winners, tiebreak_message
from engine.ishtar.words import CATALOGUES, english
from engine.messages import LANGUAGES, keys, render
from tests.engine.catalogue_checks import scan
from tests.engine.ishtar.golden_games import GOLDEN_DIR
from tests.engine.ishtar.played import load

NAMES = ["Ana", "Björn", "Chen", "Dara"]
NB = "\u00a0"
PLAYED_TIES = ("tie-on-trees", "tie-on-gems", "tie-shared")


def _in(lang: str, message: dict[str, Any]) -> str:
    """A message as a reader of ``lang`` sees it, seats by the players' names."""
    return render(CATALOGUES[lang], message, lang, seat=NAMES.__getitem__)


def _tie(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A stored game ended in a tie: its scores and the tie-break's message, whose English
    is the sentence."""
    scores = final_scores(load(name))
    found = tiebreak_message(scores)
    assert found is not None
    assert english(found) == scores["tiebreak"]
    return scores, found


def _player(seat: int, total: int, trees: int, gems: int) -> dict[str, Any]:
    return {"seat": seat, "total": total, "trees_planted": trees, "gems_left": gems}


def test_a_win_on_trees_planted_names_the_winner_and_the_counts() -> None:
    scores, message = _tie("tie-on-trees")
    (winner,) = scores["winners"]
    loser = 1 - winner
    trees = [p["trees_planted"] for p in scores["players"]]
    points = scores["players"][winner]["total"]
    assert message == {
        "key": "ishtar.score.tiebreak.trees_planted",
        "params": {
            "points": points,
            "winner": {"seat": winner},
            "top": trees[winner],
            "second": trees[loser],
        },
    }
    name, counts = NAMES[winner], (trees[winner], trees[loser])
    assert _in("en", message) == (
        f"Tied on {points}: {name} wins on trees planted ({counts[0]} to {counts[1]})"
    )
    assert _in("fr", message) == (
        f"Égalité à {points} points{NB}: {name} l’emporte grâce aux arbres plantés "
        f"({counts[0]} contre {counts[1]})"
    )
    assert _in("nl", message) == (
        f"Gelijk op {points} punten: {name} wint op geplante bomen "
        f"({counts[0]} tegen {counts[1]})"
    )


def test_a_win_on_gems_left_names_the_winner_and_the_counts() -> None:
    scores, message = _tie("tie-on-gems")
    (winner,) = scores["winners"]
    gems = [p["gems_left"] for p in scores["players"]]
    points = scores["players"][winner]["total"]
    assert message["key"] == "ishtar.score.tiebreak.gems_left"
    top, second = gems[winner], gems[1 - winner]
    name = NAMES[winner]
    assert _in("fr", message) == (
        f"Égalité à {points} points{NB}: {name} l’emporte grâce aux gemmes restantes "
        f"({top} contre {second})"
    )
    assert _in("nl", message) == (
        f"Gelijk op {points} punten: {name} wint op overgebleven edelstenen "
        f"({top} tegen {second})"
    )


def test_a_shared_win_lists_the_winners() -> None:
    scores, message = _tie("tie-shared")
    assert scores["winners"] == [0, 1]
    points = scores["players"][0]["total"]
    assert message == {
        "key": "ishtar.score.tiebreak.shared",
        "params": {"points": points, "winners": {"list": [{"seat": 0}, {"seat": 1}]}},
    }
    assert _in("fr", message) == (
        f"Égalité à {points} points, en arbres plantés comme en gemmes restantes{NB}: "
        "Ana et Björn se partagent la victoire"
    )
    assert _in("nl", message) == (
        f"Gelijk op {points} punten, geplante bomen en overgebleven edelstenen: "
        "Ana en Björn delen de overwinning"
    )


def test_three_sharing_the_win_read_as_a_list_where_the_sentence_repeats_and() -> None:
    """Not byte for byte: the sentence records keep says "Blue and Yellow and Green"; the
    message lists the players as every list is said ("Blue, Yellow and Green")."""
    players = [_player(seat, 40, 2, 3) for seat in range(3)]
    winners, sentence = _winners(players)
    assert winners == [0, 1, 2]
    assert sentence == (
        "Tied on 40, trees planted and gems left: Blue and Yellow and Green share the win"
    )
    message = tiebreak_message({"players": players})
    assert message is not None
    assert english(message) == (
        "Tied on 40, trees planted and gems left: Blue, Yellow and Green share the win"
    )
    assert _in("fr", message).endswith(
        f"{NB}: Ana, Björn et Chen se partagent la victoire"
    )
    assert _in("nl", message).endswith(": Ana, Björn en Chen delen de overwinning")


def test_among_three_tied_the_gems_compare_only_those_still_tied_on_trees() -> None:
    # Chen has the most gems but fewer trees: gems then decide between Ana and Björn.
    players = [_player(0, 30, 3, 1), _player(1, 30, 3, 4), _player(2, 30, 2, 9)]
    winners, sentence = _winners(players)
    assert (winners, sentence) == ([1], "Tied on 30: Yellow wins on gems left (4 to 1)")
    message = tiebreak_message({"players": players})
    assert message is not None and english(message) == sentence
    assert _in("nl", message) == (
        "Gelijk op 30 punten: Björn wint op overgebleven edelstenen (4 tegen 1)"
    )


def test_french_and_dutch_say_one_point_in_the_singular() -> None:
    message = tiebreak_message({"players": [_player(0, 1, 1, 0), _player(1, 1, 0, 0)]})
    assert message is not None
    assert _in("fr", message).startswith(f"Égalité à 1 point{NB}: Ana ")
    assert _in("nl", message).startswith("Gelijk op 1 punt: Ana ")


def test_no_message_without_a_tie() -> None:
    players = [_player(0, 30, 1, 1), _player(1, 31, 0, 0)]
    assert _winners(players) == ([1], None)
    assert tiebreak_message({"players": players}) is None


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 5)])
def test_the_english_is_the_sentence_in_every_position_of_a_game(
    players: int, seed: int
) -> None:
    """``final_scores`` of every position of a random game (the standing mid-game, with
    its many ties, everyone on 0 at the start): the message is None exactly when the
    sentence is, and its English is the sentence, the list of three or more aside."""
    rng = random.Random(seed)
    state = new_game(players, seed, {"edition": "1"})
    kinds = set()
    while True:
        scores = final_scores(state)
        found = tiebreak_message(scores)
        sentence = scores["tiebreak"]
        if found is None:
            assert sentence is None
        else:
            kinds.add(found["key"])
            head, _, names = sentence.rpartition(": ")
            shared = len(scores["winners"])
            names = names.replace(" and ", ", ", shared - 2) if shared > 2 else names
            assert english(found) == f"{head}: {names}"
        if is_over(state):
            break
        state = apply(state, rng.choice(legal_actions(state)))
    assert "ishtar.score.tiebreak.shared" in kinds


def test_every_tie_message_renders_fully_and_uses_every_tiebreak_key() -> None:
    sent = [(name, _tie(name)[1]) for name in PLAYED_TIES]
    assert scan(CATALOGUES, sent, NAMES) == len(PLAYED_TIES)
    said = {key for _, message in sent for key in keys(message)}
    assert said == {key for key in CATALOGUES["en"] if ".score." in key}
    for lang in LANGUAGES:
        assert said <= set(CATALOGUES[lang]), lang


@pytest.mark.parametrize("name", PLAYED_TIES)
def test_the_final_view_carries_the_message_next_to_the_sentence(name: str) -> None:
    state = load(name)
    scores = final_scores(state)
    for seat in (None, 0, 1):
        shown = view_for(state, seat)["scores"]
        assert list(shown) == ["players", "winners", "tiebreak", "tiebreak_message"]
        assert shown == {**scores, "tiebreak_message": tiebreak_message(scores)}
    view = view_for(state, 0)
    assert json.loads(json.dumps(view)) == view
    assert view["standing"] is None


@pytest.mark.parametrize(
    "path", sorted(GOLDEN_DIR.glob("*.json")), ids=lambda p: p.stem
)
def test_a_stored_games_scores_give_the_message_of_their_sentence(path: Any) -> None:
    """A record keeps ``final_scores`` as it was: the message is made from it alone."""
    scores = json.loads(path.read_text())["scores"]
    found = tiebreak_message(scores)
    assert (None if found is None else english(found)) == scores["tiebreak"]
