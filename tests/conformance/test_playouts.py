"""Every game of the registry, played at random to its end: at every step the legal actions
apply, `why_illegal` agrees with `legal_actions` (also for actions mutated or taken from
other states), the codecs round-trip, narration and previews speak the engine's catalogue,
and the end has scores of the contract's shape; `replay` reproduces the game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.conformance.games import CASES, IDS, Case, normal, played

pytestmark = pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)

LEGAL_APPLIED = 6
"""Legal actions applied at each step besides the one played (all are checked legal)."""
CANDIDATES = 8
"""Actions from elsewhere (other states, mutations) checked against each state."""


def test_every_legal_action_applies_and_leaves_its_input_alone(index: int) -> None:
    case = CASES[index]
    rules, game = case.rules, played(index)
    rng = random.Random(case.seed)
    for state, chosen in zip(game.states, game.actions, strict=False):
        assert not rules.is_over(state)
        assert rules.current_player(state) in range(case.players)
        legal = list(rules.legal_actions(state))
        assert legal, "a live game offers an action"
        assert list(rules.legal_actions(state)) == legal, "legal_actions is not stable"
        before = rules.encode_state(state)
        for action in [chosen, *rng.sample(legal, min(LEGAL_APPLIED, len(legal)))]:
            assert rules.why_illegal(state, action) is None
            rules.apply(state, action)
        assert rules.encode_state(state) == before, "apply changed its input"
        for action in legal:
            assert rules.why_illegal(state, action) is None, action
    last = game.states[-1]
    assert rules.is_over(last) and rules.current_player(last) is None
    assert list(rules.legal_actions(last)) == []


def _mutations(encoded: dict[str, Any], rng: random.Random) -> list[Any]:
    """JSON actions near a legal one: a field changed, dropped, or another type."""
    found: list[Any] = []
    for key, value in encoded.items():
        if key == "type":
            continue
        if isinstance(value, bool) or value is None:
            changed: list[Any] = [0]
        elif isinstance(value, int):
            changed = [value + 1, value - 1, 99]
        elif isinstance(value, list):
            changed = [value[::-1], value[:-1], [*value, *value[:1]]]
            if value and isinstance(value[0], int) and not isinstance(value[0], bool):
                changed.append([value[0] + 1, *value[1:]])
        else:
            changed = [f"{value}x", "zz"]
        found += [{**encoded, key: item} for item in changed]
        found.append({k: v for k, v in encoded.items() if k != key})
    rng.shuffle(found)
    return found[:4]


def test_why_illegal_agrees_with_legal_actions_and_apply(index: int) -> None:
    """An action is legal exactly when `legal_actions` lists it; otherwise `why_illegal`
    gives a reason, its message is of the catalogue, and `apply` refuses with both."""
    case = CASES[index]
    rules, game = case.rules, played(index)
    keys = set(rules.messages("en"))
    rng = random.Random(case.seed + 1)
    pool: list[dict[str, Any]] = []
    refused = 0
    for state in game.states:
        legal = list(rules.legal_actions(state))
        encoded = [normal(rules.encode_action(a)) for a in legal]
        candidates = rng.sample(pool, min(CANDIDATES, len(pool)))
        if encoded:
            candidates += _mutations(rng.choice(encoded), rng)
        for data in candidates:
            try:
                action = rules.decode_action(data)
            except rules.MalformedAction as error:
                malformed = error.reason
            else:
                malformed = None
            if malformed is not None:
                assert isinstance(malformed, str) and malformed.strip()
                continue
            said = rules.why_illegal(state, action)
            reason = None if said is None else rules.english(said)
            assert (reason is None) == (action in legal), (data, reason)
            if reason is None:
                continue
            refused += 1
            assert isinstance(reason, str) and reason.strip()
            assert said is not None and said["key"] in keys
            with pytest.raises(rules.IllegalAction) as info:
                rules.apply(state, action)
            assert info.value.reason == reason
            assert info.value.message == said
        for data in rng.sample(encoded, min(2, len(encoded))):
            if len(pool) < 200:
                pool.append(data)
            else:
                pool[rng.randrange(len(pool))] = data
    assert refused >= len(game.states) // 4, "too few illegal actions were tried"


def test_the_action_codec_round_trips(index: int) -> None:
    case = CASES[index]
    rules, game = case.rules, played(index)
    for state in game.states[:-1]:
        for action in rules.legal_actions(state):
            data = json.loads(json.dumps(rules.encode_action(action)))
            assert isinstance(data, dict)
            assert rules.decode_action(data) == action


def test_the_state_codec_round_trips_with_its_views_and_moves(index: int) -> None:
    case = CASES[index]
    rules, game = case.rules, played(index)
    for state in game.states:
        data = normal(rules.encode_state(state))
        again = rules.decode_state(data)
        assert again == state
        assert normal(rules.encode_state(again)) == data
        assert list(rules.legal_actions(again)) == list(rules.legal_actions(state))
        for seat in [None, *range(case.players)]:
            assert normal(rules.view_for(again, seat)) == normal(
                rules.view_for(state, seat)
            )


def test_narration_and_previews_speak_the_catalogue(index: int) -> None:
    case = CASES[index]
    rules, game = case.rules, played(index)
    keys = set(rules.messages("en"))
    for state, action in zip(game.states, game.actions, strict=False):
        said = normal(rules.narrate(state, action))
        text = rules.english(said)
        assert isinstance(text, str) and text.strip()
        assert said["key"] in keys and isinstance(said["params"], dict)
        assert isinstance(normal(rules.preview(state, action)), dict)


def test_optional_legal_lists_match_the_legal_actions(index: int) -> None:
    """`legal_with_previews` and `legal_json`, where a game has them, list exactly the
    legal actions with their previews (what the seat to act receives)."""
    case = CASES[index]
    rules, game = case.rules, played(index)
    listed = getattr(case.game.engine, "legal_with_previews", None)
    as_json = getattr(case.game.engine, "legal_json", None)
    for state in game.states[::5]:
        expected = normal(
            [
                {"action": rules.encode_action(a), "preview": rules.preview(state, a)}
                for a in rules.legal_actions(state)
            ]
        )
        if listed is not None:
            assert normal(listed(state)) == expected
        if as_json is not None:
            assert json.loads(as_json(state, json.dumps)) == expected


def test_the_end_has_scores_of_the_contract(index: int) -> None:
    case = CASES[index]
    rules = case.rules
    scores = normal(rules.final_scores(played(index).states[-1]))
    assert [p["seat"] for p in scores["players"]] == list(range(case.players))
    for player in scores["players"]:
        assert isinstance(player["total"], int)
        assert isinstance(player["categories"], dict)
    assert scores["winners"] and set(scores["winners"]) <= set(range(case.players))
    assert scores["tiebreak"] is None or isinstance(scores["tiebreak"], str)


def _replayed(case: Case, actions: list[Any]) -> Any:
    """What the server does with a stored game: the set-up, then each stored action."""
    setup = case.setup()
    rules = case.rules
    state = rules.new_game(setup["players"], setup["seed"], setup["options"])
    for data in actions:
        state = rules.apply(state, rules.decode_action(data))
    return state


def test_replay_reproduces_the_game_and_its_views(index: int) -> None:
    case = CASES[index]
    rules, game = case.rules, played(index)
    stored = [normal(rules.encode_action(a)) for a in game.actions]
    middle = len(stored) // 2
    for count in (middle, len(stored)):
        again = _replayed(case, stored[:count])
        assert again == game.states[count]
        for seat in [None, *range(case.players)]:
            assert normal(rules.view_for(again, seat)) == normal(
                rules.view_for(game.states[count], seat)
            )
        replay = getattr(
            rules, "replay", None
        )  # tests' and tools' helper, not the contract
        if replay is not None:
            assert replay(case.setup(), stored[:count]) == game.states[count]
