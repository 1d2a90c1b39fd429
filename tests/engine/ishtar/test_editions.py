"""Editions of the component data (docs/games/ishtar/rules.md, "Editions"): a game is played
with its edition's numbers, which change exactly the scores they are for; the codec and the
views carry the edition, and a state from before editions is of edition "1"."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine.ishtar import (
    apply,
    catalogue,
    decode_state,
    encode_state,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    replay,
    sample_state,
    view_for,
)
from engine.ishtar.components import tree_vp
from engine.ishtar.editions import DEFAULT, EDITION_1, EDITIONS, FIRST, LATEST, Edition
from engine.ishtar.rules.special import _skill_effect
from engine.ishtar.scoring import categories
from engine.ishtar.state import State
from engine.ishtar.words import english, skill_text

TUNED = replace(EDITION_1, skill_c_vp=4, skill_e_spaces_per_vp=2)
"""A test-only edition: 4 VP per fountain for C, 1 VP per two flower spaces for E."""


@pytest.fixture
def tuned(monkeypatch: pytest.MonkeyPatch) -> Edition:
    monkeypatch.setitem(EDITIONS, "test", TUNED)
    return TUNED


def _played(players: int, seed: int, edition: str) -> State:
    """A seeded random game of ``edition`` played to its end."""
    rng = random.Random(seed)
    state = new_game(players, seed, {"edition": edition})
    while not is_over(state):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _with_every_upper_skill(state: State) -> State:
    return state.evolve(skills=tuple(dict.fromkeys("ABCDE", ()) for _ in state.skills))


def test_edition_2_changes_only_designed_numbers_and_keeps_the_rulebooks_counts() -> (
    None
):
    one, two = EDITIONS["1"], EDITIONS["2"]
    assert FIRST == "1"
    for name in (
        "blooming_tokens",
        "board_sides",
        "skill_b_vp",
        "skill_e_spaces_per_vp",
    ):
        assert getattr(one, name) == getattr(two, name), name
    assert (two.skill_a_vp, two.skill_c_vp) == ((2, 2, 3), 4)
    assert (two.skill_h_assistants, two.skill_g_sizes, two.skill_j_sizes) == (
        1,
        (1, 2),
        (2,),
    )
    # the same 42 tiles in the same shapes, starting tiles untouched; fewer flowers
    assert one.tiles.keys() == two.tiles.keys()
    for tile_id, tile in one.tiles.items():
        assert two.tiles[tile_id].shape == tile.shape
        assert two.tiles[tile_id].start == tile.start
        if tile.start:
            assert two.tiles[tile_id] == tile
    basic = [t for t in two.tiles.values() if not t.start]
    assert sum(space.flowers for t in basic for space in t.spaces) == 64
    assert sum(1 for t in basic for space in t.spaces if space.flowers) == 46
    # 26 cards of the same names, VP by the formula of their cost
    assert [c.name for c in one.tree_cards.values()] == [
        c.name for c in two.tree_cards.values()
    ]
    changed = {
        c.name: c.cost
        for c in two.tree_cards.values()
        if c.cost != one.tree_cards[c.id].cost
    }
    assert changed == {
        "Fig Tree": (2, 0, 0),
        "Willow": (1, 1, 0),
        "Pistachio": (2, 1, 0),
        "Cypress": (1, 2, 0),
        "Citron": (1, 0, 2),
        "Hanging Garden Palm": (0, 2, 2),
    }
    assert all(c.vp == tree_vp(c.cost) for c in two.tree_cards.values())


def test_edition_3_changes_only_designed_numbers_of_edition_2() -> None:
    two, three = EDITIONS["2"], EDITIONS["3"]
    for name in (
        "tile_table",
        "blooming_tokens",
        "board_sides",
        "skill_c_vp",
        "skill_e_spaces_per_vp",
        "skill_e_vp",
        "skill_h_assistants",
        "skill_g_sizes",
        "skill_j_sizes",
    ):
        assert getattr(three, name) == getattr(two, name), name
    assert (three.tree_vp_bonus, two.tree_vp_bonus) == (0, 1)
    assert three.skill_a_vp == (1, 2, 3) == EDITION_1.skill_a_vp
    assert (three.skill_b_vp, three.skill_b_max) == (3, 12)
    assert (three.skill_e_max, two.skill_e_max, two.skill_b_max) == (10, None, None)
    changed = {
        c.name: c.cost
        for c in three.tree_cards.values()
        if c.cost != two.tree_cards[c.id].cost
    }
    assert changed == {
        "Fig Tree": (1, 0, 0),
        "Almond Tree": (1, 1, 0),
        "Cedar of Lebanon": (0, 3, 0),
        "Oleander": (0, 2, 1),
        "Persian Silk Tree": (0, 1, 2),
    }
    # a tree is worth its gems: 1 / 2 / 3 VP per purple / red / white gem
    for card in three.tree_cards.values():
        purple, red, white = card.cost
        assert card.vp == purple + 2 * red + 3 * white == tree_vp(card.cost, 0)


def test_edition_4_changes_only_three_skill_numbers_of_edition_3() -> None:
    """Edition 4 (docs/games/ishtar/edition-4.md): skill B at most 10 VP, skill C 3 VP a
    fountain, skill E at most 8 VP; every other number is edition 3's."""
    three, four = EDITIONS["3"], EDITIONS["4"]
    assert LATEST == DEFAULT == "4"
    changed = {"skill_b_max": 10, "skill_c_vp": 3, "skill_e_max": 8}
    assert {name: getattr(three, name) for name in changed} == {
        "skill_b_max": 12,
        "skill_c_vp": 4,
        "skill_e_max": 10,
    }
    for name in Edition.__dataclass_fields__:
        if name in changed:
            assert getattr(four, name) == changed[name], name
        elif name not in ("tiles", "tree_cards", "sides"):
            assert getattr(four, name) == getattr(three, name), name
    assert [c.cost for c in four.tree_cards.values()] == [
        c.cost for c in three.tree_cards.values()
    ]
    assert [c.vp for c in four.tree_cards.values()] == [
        c.vp for c in three.tree_cards.values()
    ]


def test_edition_4_says_its_numbers_in_the_catalogue_and_the_tooltips() -> None:
    four = EDITIONS["4"]
    assert english(skill_text(four, "B")) == (
        "3 VP per sacred tablet next to a flowerbed you control, at most 10 VP"
    )
    assert english(skill_text(four, "E")) == (
        "1 VP per flower space in flowerbeds you control, at most 8 VP"
    )
    assert english(skill_text(four, "C")) == "+3 VP per fountain you control"
    skills = {s["skill"]: s for s in catalogue()["editions"]["4"]["skills"]}
    assert skills["B"]["params"] == {"vp": 3, "max": 10}
    assert skills["E"]["params"] == {"vp": 1, "spaces": 1, "max": 8}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 7), (4, 10)])
def test_edition_4_scores_b_c_and_e_with_its_numbers(players: int, seed: int) -> None:
    """The same game under editions 3 and 4, every upper skill given to every seat: B and E
    are edition 3's scores limited to 10 and 8, C 3 VP a fountain instead of 4; nothing else
    moves."""
    three = _with_every_upper_skill(_played(players, seed, "3"))
    four = _with_every_upper_skill(_played(players, seed, "4"))
    reached = {"B": False, "C": False, "E": False}
    for seat in range(players):
        before, after = categories(three, seat), categories(four, seat)
        reached["B"] |= before["skill_B"] > 10
        reached["C"] |= before["skill_C"] > 0
        reached["E"] |= before["skill_E"] > 8
        assert after["skill_B"] == min(before["skill_B"], 10)
        assert after["skill_E"] == min(before["skill_E"], 8)
        assert after["skill_C"] * 4 == before["skill_C"] * 3
        others = {k for k in before if k not in ("skill_B", "skill_C", "skill_E")}
        assert {k: after[k] for k in others} == {k: before[k] for k in others}
    assert reached == {"B": True, "C": True, "E": True}, "each change is seen"


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 1), (4, 2)])
def test_skills_b_and_e_score_at_most_their_editions_limit(
    monkeypatch: pytest.MonkeyPatch, players: int, seed: int
) -> None:
    """The same game with B at 3 VP a tablet and E capped: B and E are the uncapped scores
    (B's at 3 VP a tablet) limited to the caps, and nothing else moves."""
    capped = replace(EDITION_1, skill_b_vp=3, skill_b_max=6, skill_e_max=10)
    monkeypatch.setitem(EDITIONS, "capped", capped)
    first = _with_every_upper_skill(_played(players, seed, "1"))
    again = _with_every_upper_skill(_played(players, seed, "capped"))
    reached = {"B": False, "E": False}
    for seat in range(players):
        before, after = categories(first, seat), categories(again, seat)
        tablets = before["skill_B"] // 2
        assert after["skill_B"] == min(3 * tablets, 6)
        assert after["skill_E"] == min(before["skill_E"], 10)
        reached["B"] |= 3 * tablets > 6
        reached["E"] |= before["skill_E"] > 10
        others = {k for k in before if k not in ("skill_B", "skill_E")}
        assert {k: after[k] for k in others} == {k: before[k] for k in others}
    assert reached == {"B": True, "E": True}, "some seat is over each cap"


def test_edition_3_says_its_limits_in_every_language() -> None:
    three = EDITIONS["3"]
    assert english(skill_text(three, "B")) == (
        "3 VP per sacred tablet next to a flowerbed you control, at most 12 VP"
    )
    assert english(skill_text(three, "E")) == (
        "1 VP per flower space in flowerbeds you control, at most 10 VP"
    )
    assert english(skill_text(EDITION_1, "E")) == (
        "1 VP per flower space in flowerbeds you control"
    )
    skills = {s["skill"]: s for s in catalogue()["editions"]["3"]["skills"]}
    assert skills["E"]["params"] == {"vp": 1, "spaces": 1, "max": 10}
    assert skills["B"]["params"] == {"vp": 3, "max": 12}
    cards = {c["name"]: c for c in catalogue()["editions"]["3"]["tree_cards"]}
    assert (cards["Fig Tree"]["vp"], cards["Hanging Garden Palm"]["vp"]) == (1, 10)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 1), (4, 1)])
def test_an_edition_changes_exactly_the_scores_it_is_for(
    tuned: Edition, players: int, seed: int
) -> None:
    """The same game under edition "test": skill C scores 4 per fountain instead of 3,
    skill E 1 per two flower spaces instead of 1 per space; nothing else moves."""
    first = _played(players, seed, "1")
    again = _played(players, seed, "test")
    assert again.edition == "test" and again.ed is tuned
    assert [p.tile for p in again.placed] == [p.tile for p in first.placed]
    owned, owned_tuned = (_with_every_upper_skill(s) for s in (first, again))
    scored = [categories(owned, seat) for seat in range(players)]
    assert any(c["skill_C"] > 0 for c in scored), "some seat controls a fountain"
    assert any(c["skill_E"] % 2 == 1 for c in scored), "an odd count rounds down"
    for seat in range(players):
        before, after = categories(owned, seat), categories(owned_tuned, seat)
        fountains = before["skill_C"] // 3
        assert after["skill_C"] == 4 * fountains
        assert after["skill_E"] == before["skill_E"] // 2
        assert {k: v for k, v in after.items() if k not in ("skill_C", "skill_E")} == {
            k: v for k, v in before.items() if k not in ("skill_C", "skill_E")
        }
    plain = final_scores(first)["players"]
    for seat, scored in enumerate(final_scores(again)["players"]):
        cats = scored["categories"]
        assert scored["total"] == sum(cats.values())
        assert cats["fountains"] == plain[seat]["categories"]["fountains"]


def test_a_skill_text_says_the_numbers_of_its_edition(tuned: Edition) -> None:
    assert english(skill_text(EDITION_1, "C")) == "+3 VP per fountain you control"
    assert english(skill_text(tuned, "C")) == "+4 VP per fountain you control"
    assert (
        english(skill_text(tuned, "E"))
        == "1 VP per 2 flower spaces in flowerbeds you control"
    )
    skills = {s["skill"]: s for s in catalogue()["editions"]["test"]["skills"]}
    assert skills["C"]["params"] == {"vp": 4}
    assert skills["C"]["text"] == "+4 VP per fountain you control"


def test_the_catalogue_has_every_edition_and_the_default_at_the_top() -> None:
    data = catalogue()
    assert data["latest_edition"] == LATEST and data["default_edition"] == DEFAULT
    assert sorted(data["editions"]) == sorted(EDITIONS)
    for key, value in data["editions"][DEFAULT].items():
        assert data[key] == value, key
    json.dumps(data)


def test_the_state_codec_carries_the_edition(tuned: Edition) -> None:
    state = new_game(2, 3, {"edition": "test"})
    data = encode_state(state)
    assert data["edition"] == "test"
    back = decode_state(json.loads(json.dumps(data)))
    assert back == state and back.ed is tuned


def test_a_state_from_before_editions_is_of_edition_1() -> None:
    """Edition 1 is written as before (no ``edition``), so the states stored before
    editions and the golden games' digests stay what they were."""
    first = new_game(2, 3, {"edition": "1"})
    data = encode_state(first)
    assert "edition" not in data
    assert decode_state(data).edition == "1"
    latest = encode_state(new_game(2, 3, {"edition": LATEST}))
    assert latest["edition"] == LATEST
    del latest["edition"]
    assert decode_state(latest).edition == "1"


def test_a_state_of_an_unknown_edition_is_refused() -> None:
    data = {**encode_state(new_game(2, 3)), "edition": "99"}
    with pytest.raises(ValueError, match="no edition '99'"):
        decode_state(data)


def test_a_bots_sample_keeps_the_edition(tuned: Edition) -> None:
    state = new_game(3, 4, {"edition": "test"})
    view = view_for(state, 0)
    assert view["edition"] == "test"
    sampled = sample_state(view, 1)
    assert (sampled.edition, sampled.ed) == ("test", tuned)


def test_skill_h_takes_back_at_most_the_editions_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(EDITIONS, "one-back", replace(EDITION_1, skill_h_assistants=1))
    state = new_game(2, 3, {"edition": "one-back", "first_player": 0})
    after = _skill_effect(state, "H")
    assert after.assistants_carpet[0] == 1
    assert after.assistants_supply[0] == state.assistants_supply[0] + 1


def test_replay_reads_the_edition_of_a_set_up_and_names_none_as_edition_1() -> None:
    """A server stores a game's set-up as ``{players, seed, options}``: the edition among the
    options is the one replayed; a set-up from before editions names none and is edition 1,
    whatever the default of new games."""
    rng = random.Random(5)
    state = new_game(2, 9, {"first_player": 0})
    assert state.edition == DEFAULT == "4"
    actions = []
    for _ in range(12):
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply(state, action)
    stored = {"players": 2, "seed": 9, "options": {"first_player": 0, "edition": "4"}}
    assert encode_state(replay(stored, actions)) == encode_state(state)
    flat = {"players": 2, "seed": 9, "first_player": 0, "edition": "4"}
    assert encode_state(replay(flat, actions)) == encode_state(state)
    assert replay({"players": 2, "seed": 9, "options": {}}, []).edition == FIRST
    assert replay({"players": 2, "seed": 9}, []).edition == FIRST
