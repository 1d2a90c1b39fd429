"""The components (spec §1, R-1, R-2) and the catalogue clients read them from."""

from __future__ import annotations

from collections import Counter

from engine.babylon import apply, catalogue
from engine.babylon.components import NECTAR, PLAYER_COLOURS, TILES
from engine.babylon.scoreboards import LINES, SIDES, SLOT_CELL, borders
from tests.engine.babylon.builders import force_floor, game, irrigate, turn, winks


def test_rb_57_tiles_a_well_24_singles_and_32_multis_8_per_colour() -> None:
    kinds = Counter(tile.kind for tile in TILES.values())
    assert kinds == {"single": 24, "multi": 32}
    assert len(TILES) + 1 == 57  # the well is the 57th card
    for colour in NECTAR:
        of = Counter(t.kind for t in TILES.values() if t.colour == colour)
        assert of == {"single": 6, "multi": 8}


def test_r1_singles_have_1_flower_and_each_colours_multis_2_2_3_3_4_4_5_5() -> None:
    for colour in NECTAR:
        singles = [
            t for t in TILES.values() if t.kind == "single" and t.colour == colour
        ]
        assert {t.flowers for t in singles} == {1}
        multis = sorted(
            t.flowers
            for t in TILES.values()
            if t.kind == "multi" and t.colour == colour
        )
        assert multis == [2, 2, 3, 3, 4, 4, 5, 5]


def test_r1_tile_ids_s_cn_and_m_cf_k() -> None:
    assert {tid for tid, t in TILES.items() if t.kind == "single"} == {
        f"S-{c}{n}" for c in "rgyp" for n in range(1, 7)
    }
    assert {tid for tid, t in TILES.items() if t.kind == "multi"} == {
        f"M-{c}{f}-{k}" for c in "rgyp" for f in (2, 3, 4, 5) for k in (1, 2)
    }
    for tid, tile in TILES.items():
        letter = tid[2]
        assert (
            tile.colour
            == {"r": "red", "g": "green", "y": "yellow", "p": "purple"}[letter]
        )
        if tile.kind == "multi":
            assert tile.flowers == int(tid[3])


def test_r2_supplies_are_unlimited_more_gems_than_rb_and_more_winks_than_25() -> None:
    """R-2: 40 gems on the floor (RB has 30) and a 26th red wink in play (RB has 25 per
    colour): the engine never refuses a gem or a wink for lack of stock."""
    state = game(2, floor="ishtar")
    # every tile holds one gem less than its flowers
    layout = {}
    for at, tile in zip(state.floor.spaces, state.tiles, strict=True):
        flowers = TILES[tile].flowers
        layout[at] = (tile, flowers - 1)
    state = force_floor(state, layout)
    assert sum(state.gems) >= 40
    well = state.floor.well
    step = (well[0], well[1] + 1)
    before = state.gems[state.index(step)]
    assert apply(state, irrigate(step)).gems[state.index(step)] == before + 1
    red = [
        t for t, tile in TILES.items() if tile.colour == "red" and tile.kind == "multi"
    ]
    state = state.evolve(winks=(winks(" ".join("r" * 13)), winks(" ".join("r" * 13))))
    state = force_floor(state, {step: (red[0], TILES[red[0]].flowers - 1)})
    after = turn(state, [step])
    assert sum(w.count("red") for w in after.winks) == 27


def test_seat_colours_are_not_nectar_colours() -> None:
    assert PLAYER_COLOURS == ("blue", "orange", "white", "black")
    assert not set(PLAYER_COLOURS) & set(NECTAR)


def test_catalogue_holds_the_tiles_floors_spiral_lines_and_sides() -> None:
    data = catalogue()
    assert data["game"] == "babylon-gardens"
    assert data["player_colours"] == list(PLAYER_COLOURS)
    assert data["nectar"] == ["red", "green", "yellow", "purple"]
    assert len(data["tiles"]) == 56
    assert data["tiles"]["M-r3-1"] == {"kind": "multi", "colour": "red", "flowers": 3}
    assert [f["id"] for f in data["floors"]] == [
        "lower", "middle", "higher", "roof", "ishtar", "tammuz"
    ]  # fmt: skip
    assert data["floors"][0] == {
        "id": "lower",
        "name": "Lower Garden",
        "grid": ["MSM", "SWS", "MSM"],
        "well": [1, 1],
    }
    assert data["spiral"][0] == [2, 2] and data["spiral"][1] == [1, 2]
    assert data["spiral"] == [list(SLOT_CELL[n]) for n in range(1, 26)]
    assert data["lines"] == [{"line": n, "slots": list(s)} for n, s in LINES]
    assert set(data["sides"]) == set(SIDES)
    assert data["sides"]["A1"]["board"] == "A"
    assert data["sides"]["A1"]["borders"][0] == {"slot": 3, "colour": "purple"}
    for side in SIDES:
        assert {b["slot"]: b["colour"] for b in data["sides"][side]["borders"]} == (
            borders(side)
        )
