"""No view of any game (each seat's and the spectator's) holds a secret: views are plain JSON
without the seed, equal for states that differ only in what the viewer may not see
(tests/conformance/secrets.py), and, where a game samples states for bots, the sampled
state shows the very same view."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tests.conformance.games import CASES, GAMES, IDS, normal, played, viewers
from tests.conformance.secrets import TWINS


def test_every_game_says_what_it_hides() -> None:
    untold = [game.id for game in GAMES if game.id not in TWINS]
    assert not untold, f"tell tests/conformance/secrets.py what {untold} hide"


def _check_plain(value: Any, where: str = "view") -> None:
    """JSON as it is: string keys, no NaN, nothing json.dumps would change or refuse."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r} is not a string"
            assert key != "seed", f"{where}: a 'seed' key"
            _check_plain(item, f"{where}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check_plain(item, f"{where}[{i}]")
    elif isinstance(value, float):
        assert math.isfinite(value), where
    else:
        assert value is None or isinstance(value, str | int | bool), (
            f"{where}: {type(value).__name__} is not JSON"
        )


@pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)
def test_views_are_json_without_the_seed(index: int) -> None:
    case = CASES[index]
    rules = case.rules
    for state in played(index).states:
        for seat in viewers(case):
            view = rules.view_for(state, seat)
            _check_plain(view)
            assert str(case.seed) not in json.dumps(view), f"the seed in {seat}'s view"
    _check_plain(normal(rules.public_setup(played(index).states[0])), "public_setup")
    assert str(case.seed) not in json.dumps(rules.public_setup(played(index).states[0]))


@pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)
def test_views_are_blind_to_what_they_hide(index: int) -> None:
    case = CASES[index]
    rules, twin = case.rules, TWINS[case.game.id]
    differed = 0
    for state in played(index).states[::3]:
        data = normal(rules.encode_state(state))
        for seat in viewers(case):
            other = twin(data, seat)
            assert other != data
            changed = rules.decode_state(other)
            differed += normal(rules.encode_state(changed)) != data
            assert normal(rules.view_for(changed, seat)) == normal(
                rules.view_for(state, seat)
            ), f"{seat}'s view shows a secret"
    assert differed, "no twin differed from its state"


@pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)
def test_a_sampled_state_shows_the_same_view(index: int) -> None:
    """`sample_state(view, seed)` (optional; bots search with it) fills in what the view
    hides: the sample shows that seat the very view it came from."""
    case = CASES[index]
    rules = case.rules
    sample = getattr(rules, "sample_state", None)
    if sample is None:
        assert not hasattr(rules, "sample_state")  # nothing to check: the game has none
        return
    for step, state in enumerate(played(index).states[::7]):
        seat = rules.current_player(state)
        if seat is None:
            continue
        view = normal(rules.view_for(state, seat))
        assert normal(rules.view_for(sample(view, case.seed + step), seat)) == view
