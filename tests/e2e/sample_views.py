"""Hand-written sample views (docs/games/ishtar/contract.md shapes) for rendering the board before, and
independently of, the engine: two terrain board sides from the spec, a few placed tiles,
tokens, trees and assistants. Used by the static rendering test."""

from __future__ import annotations

import json
from pathlib import Path

SIDE_1A = """
   S P S W
  S S P T S
 R R P S R R
W T S F P S S
 S W P S P S
  P S R T S
   S S R W
"""
SIDE_1B = """
   W S P S
  R T W S S
 S R S P R R
S S P P S T W
 P P S F P S
  S T R S S
   W S R S
"""
GEM = {"P": "purple", "R": "red", "W": "white"}


def rotate(q: int, r: int, steps: int) -> tuple[int, int]:
    for _ in range(steps % 6):
        q, r = -r, q + r
    return q, r


def side_cells(text: str) -> list[tuple[int, int, str]]:
    rows = [row.split() for row in text.strip("\n").splitlines()]
    out = []
    for r, row in zip(range(-3, 4), rows, strict=True):
        qs = range(max(-3, -3 - r), min(3, 3 - r) + 1)
        out.extend((q, r, code) for q, code in zip(qs, row, strict=True))
    return out


def board_cells(
    board: int, text: str, rotation: int, at: tuple[int, int], fountain: str
) -> list[dict]:
    cells = []
    for q, r, code in side_cells(text):
        rq, rr = rotate(q, r, rotation)
        cell: dict = {"q": rq + at[0], "r": rr + at[1], "board": board}
        if code == "S":
            cell["terrain"] = "sand"
        elif code == "T":
            cell["terrain"] = "tablet"
        elif code == "F":
            cell |= {"terrain": "fountain", "fountain": fountain}
        else:
            cell |= {"terrain": "rock", "rock": GEM[code], "gem": True}
        cells.append(cell)
    return cells


def tile(tid: str, shape: str, spaces: list[str]) -> dict:
    out = []
    for code in spaces:
        if code == "G":
            out.append({"kind": "grass", "flowers": 0, "icon": None})
        else:
            icon = code[2] if len(code) > 2 else None
            out.append({"kind": "flower", "flowers": int(code[1]), "icon": icon})
    return {"tile": tid, "shape": shape, "start": tid.endswith("start"), "spaces": out}


def midgame_view() -> dict:
    layout = [
        (1, "a", SIDE_1A, 0, (0, 0), "red"),
        (2, "b", SIDE_1B, 2, (4, 3), "purple"),
        (3, "a", SIDE_1A, 4, (-3, 7), "white"),
        (4, "b", SIDE_1B, 1, (1, 10), "purple"),
    ]
    cells: list[dict] = []
    for board, _side, text, rot, at, fountain in layout:
        cells.extend(board_cells(board, text, rot, at, fountain))
    by_key = {(c["q"], c["r"]): c for c in cells}
    placed = [
        ("line-start", "line", ["F1a", "F1", "G"], [(1, 0), (2, 0), (3, -1)], 0, 1),
        ("chevron-06", "chevron", ["G", "F4", "G"], [(-1, 1), (-1, 2), (-2, 3)], 1, 2),
        (
            "triangle-08",
            "triangle",
            ["F2a", "F2", "G"],
            [(0, -1), (1, -1), (-1, 0)],
            0,
            3,
        ),
    ]
    tiles, spaces = [], []
    for tid, shape, codes, tcells, by, turn in placed:
        t = tile(tid, shape, codes)
        tiles.append(
            {
                "tile": tid,
                "shape": shape,
                "by": by,
                "turn": turn,
                "cells": [list(c) for c in tcells],
            }
        )
        for (q, r), sp in zip(tcells, t["spaces"], strict=True):
            if (q, r) in by_key and by_key[(q, r)]["terrain"] == "rock":
                by_key[(q, r)]["gem"] = False
            spaces.append(
                {
                    "q": q,
                    "r": r,
                    **sp,
                    "tile": tid,
                    "token": None,
                    "assistant": None,
                    "tree": None,
                }
            )
    spaces[0]["assistant"] = 0
    spaces[6]["assistant"] = 1
    spaces[2]["tree"] = 7
    spaces[5] |= {"kind": "flower", "flowers": 3, "token": "F3"}
    hand = tile("line-05", "line", ["F2w", "F2", "F1"])
    market = [
        {
            "card": 1,
            "name": "Date Palm",
            "cost": {"purple": 2, "red": 0, "white": 0},
            "vp": 3,
            "tree": True,
        },
        {
            "card": 9,
            "name": "Pomegranate",
            "cost": {"purple": 1, "red": 1, "white": 1},
            "vp": 8,
            "tree": True,
        },
        {
            "card": 14,
            "name": "Cedar",
            "cost": {"purple": 0, "red": 3, "white": 0},
            "vp": 8,
            "tree": True,
        },
        {
            "card": 21,
            "name": "Fig",
            "cost": {"purple": 0, "red": 1, "white": 3},
            "vp": 14,
            "tree": True,
        },
        {
            "card": 25,
            "name": "Olive",
            "cost": {"purple": 0, "red": 0, "white": 2},
            "vp": 7,
            "tree": False,
        },
    ]
    piles = [
        {"cup": "line", "size": 3, "top": None},
        {
            "cup": "triangle",
            "size": 4,
            "top": tile("triangle-start", "triangle", ["F2a", "G", "G"]),
        },
        {
            "cup": "chevron",
            "size": 2,
            "top": tile("chevron-02", "chevron", ["F1", "F2s", "G"]),
        },
        {"cup": "line", "size": 0, "top": None},
        {
            "cup": "chevron",
            "size": 4,
            "top": tile("chevron-start", "chevron", ["F1a", "F1", "G"]),
        },
        {
            "cup": "triangle",
            "size": 3,
            "top": tile("triangle-05", "triangle", ["F2w", "G", "G"]),
        },
    ]
    return {
        "game": "ishtar",
        "format": 1,
        "viewer": 0,
        "phase": "place",
        "current": 0,
        "turn": 4,
        "first_player": 1,
        "end_triggered": False,
        "piles_to_end": 2,
        "players": [
            {
                "seat": 0,
                "colour": "blue",
                "gems": {"purple": 2, "red": 1, "white": 0},
                "assistants_supply": 1,
                "assistants_carpet": 2,
                "skills": {"F": ["purple", "red"]},
                "tree_cards": [],
                "reserved": None,
                "trees_planted": 0,
            },
            {
                "seat": 1,
                "colour": "yellow",
                "gems": {"purple": 0, "red": 2, "white": 1},
                "assistants_supply": 1,
                "assistants_carpet": 2,
                "skills": {},
                "tree_cards": [7],
                "reserved": None,
                "trees_planted": 1,
            },
        ],
        "layout": [
            {"board": b, "side": s, "rotation": rot, "at": list(at)}
            for b, s, _, rot, at, _ in layout
        ],
        "cells": cells,
        "tiles": tiles,
        "spaces": spaces,
        "carpet": {
            "piles": piles,
            "can": 0,
            "blooming_tokens": {"F2": 2, "F3": 1, "F1F1": 2, "F1F2": 2},
        },
        "hand": hand,
        "market": market,
        "deck_size": 16,
        "trees_left": 15,
        "scores": None,
    }


def write(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / "midgame.json"
    path.write_text(json.dumps(midgame_view()))
    return path


if __name__ == "__main__":
    print(write(Path("test-artifacts")))
