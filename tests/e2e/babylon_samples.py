"""Hand-written Babylon Gardens data in the engine's JSON shapes (/work/wt/BABYLON-SHAPES.md,
docs/games/babylon/): a catalogue transcribed from the spec's tables (the spiral, the 4
lines, the 8 sides' borders, the floors), and sample views — a turn in the middle of a path
on the Lower Garden, the scoreboard choice, a finished game on Ishtar's Garden — for drawing
the screen in the browser without a server (tests/e2e/test_babylon_render.py).

The scores in the samples come from a small scorer written here from the spec's rules (§6),
so that the numbers the screen shows agree with the winks it draws; it is test data, not the
engine's scoring."""

from __future__ import annotations

from typing import Any

SPIRAL_GRID = """
25 10 11 12 13
24  9  2  3 14
23  8  1  4 15
22  7  6  5 16
21 20 19 18 17
"""

LINES = [
    ("row", [23, 8, 1, 4, 15]),
    ("column", [11, 2, 1, 6, 19]),
    ("diagonal-down", [25, 9, 1, 5, 17]),
    ("diagonal-up", [21, 7, 1, 3, 13]),
]

SIDES = {
    "A1": "r.y.g/...p./p..../.g..y/.r...",
    "A2": "..r.g/gy.../....p/...r./.p..y",
    "B1": "...y./r..p./....g/.g.../p.r.y",
    "B2": "r..g./.y.../g..../...rp/p.y..",
    "C1": "y.g.r/.p.../....p/g..y./...r.",
    "C2": ".g.../.p..y/r..../...r./g.y.p",
    "D1": "y.g../...ry/p..../.g.../r..p.",
    "D2": ".r..g/...y./....r/pg.../..y.p",
}

FLOORS = {
    "lower": ("Lower Garden", ["MSM", "SWS", "MSM"]),
    "middle": ("Middle Garden", ["..S..", ".MMM.", "MSWSM", ".MMM.", "..S.."]),
    "ishtar": (
        "Ishtar's Garden",
        [
            "S..S..S",
            "MM.M.MM",
            ".MMMMM.",
            "SMMWMMS",
            ".MMMMM.",
            "MM.M.MM",
            "S..S..S",
        ],
    ),
}

COLOURS = {"r": "red", "g": "green", "y": "yellow", "p": "purple"}
SEATS = ["blue", "orange", "white", "black"]


def spiral() -> list[list[int]]:
    rows = [[int(n) for n in line.split()] for line in SPIRAL_GRID.strip().splitlines()]
    cells = {n: [r, c] for r, row in enumerate(rows) for c, n in enumerate(row)}
    return [cells[n] for n in range(1, 26)]


def side_borders(pattern: str) -> list[dict[str, Any]]:
    rows = [[int(n) for n in line.split()] for line in SPIRAL_GRID.strip().splitlines()]
    out = []
    for r, line in enumerate(pattern.split("/")):
        for c, ch in enumerate(line):
            if ch != ".":
                out.append({"slot": rows[r][c], "colour": COLOURS[ch]})
    return sorted(out, key=lambda b: b["slot"])


def tiles_catalogue() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for code, colour in COLOURS.items():
        for n in range(1, 7):
            out[f"S-{code}{n}"] = {"kind": "single", "colour": colour, "flowers": 1}
        for f in (2, 3, 4, 5):
            for k in (1, 2):
                out[f"M-{code}{f}-{k}"] = {
                    "kind": "multi",
                    "colour": colour,
                    "flowers": f,
                }
    return out


def catalogue() -> dict[str, Any]:
    floors = []
    for fid, (name, grid) in FLOORS.items():
        well = next([r, row.index("W")] for r, row in enumerate(grid) if "W" in row)
        floors.append({"id": fid, "name": name, "grid": grid, "well": well})
    return {
        "game": "babylon-gardens",
        "player_colours": SEATS,
        "nectar": list(COLOURS.values()),
        "tiles": tiles_catalogue(),
        "floors": floors,
        "spiral": spiral(),
        "lines": [{"line": name, "slots": slots} for name, slots in LINES],
        "sides": {
            side: {"board": side[0], "borders": side_borders(p)}
            for side, p in SIDES.items()
        },
    }


def score(side: str, winks: list[str]) -> dict[str, Any]:
    """The running score of `winks` on `side`, by the spec's §6 (test data only)."""
    borders = {b["slot"]: b["colour"] for b in side_borders(SIDES[side])}
    at = {i + 1: c for i, c in enumerate(winks)}
    colour_slots = [s for s, c in borders.items() if at.get(s) == c]
    details = []
    for name, slots in LINES:
        runs: list[dict[str, Any]] = []
        i = 0
        while i < len(slots):
            c = at.get(slots[i])
            j = i
            while c and j + 1 < len(slots) and at.get(slots[j + 1]) == c:
                j += 1
            if c and j > i:
                n = j - i + 1
                runs.append(
                    {
                        "colour": c,
                        "slots": slots[i : j + 1],
                        "points": n * (10 if n == len(slots) else 5),
                    }
                )
            i = j + 1
        details.append(
            {
                "line": name,
                "slots": slots,
                "points": sum(r["points"] for r in runs),
                "runs": runs,
            }
        )
    fill = len(winks)
    colour = 5 * len(colour_slots)
    lines = sum(d["points"] for d in details)
    return {
        "total": fill + colour + lines,
        "fill": fill,
        "colour": colour,
        "lines": lines,
        "colour_slots": sorted(colour_slots),
        "lines_detail": details,
    }


def floor_tiles(
    floor: str, faces: list[tuple[str, int]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The floor's view entry and its tiles, dealt in reading order from `faces`
    (tile id, gems on it)."""
    name, grid = FLOORS[floor]
    cat = tiles_catalogue()
    well = next([r, row.index("W")] for r, row in enumerate(grid) if "W" in row)
    tiles = []
    deal = iter(faces)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch in "SM":
                tid, gems = next(deal)
                t = cat[tid]
                assert t["kind"] == ("single" if ch == "S" else "multi"), (tid, ch)
                tiles.append(
                    {
                        "at": [r, c],
                        "kind": t["kind"],
                        "tile": tid,
                        "colour": t["colour"],
                        "flowers": t["flowers"],
                        "gems": gems,
                    }
                )
    entry = {
        "id": floor,
        "name": name,
        "rows": len(grid),
        "cols": len(grid[0]),
        "well": well,
    }
    return entry, tiles


def player(seat: int, side: str | None, winks: list[str]) -> dict[str, Any]:
    return {
        "seat": seat,
        "colour": SEATS[seat],
        "side": side,
        "winks": winks,
        "score": score(side, winks)
        if side
        else {
            "total": 0,
            "fill": 0,
            "colour": 0,
            "lines": 0,
            "colour_slots": [],
            "lines_detail": [],
        },
    }


# The spec's worked example (§6): side A1, 13 winks, 63 points.
WORKED = "r r p r g y g r y g r p p"


def winks(text: str) -> list[str]:
    return [COLOURS[c] for c in text.split()]


def lower_midturn_view() -> dict[str, Any]:
    """Seat 0 (Ana) is on turn 7 of the Lower Garden with a path of two tiles: the well's
    right-hand single (now 1/1, filled) and the top-right multi (2/4). The previous turn
    (seat 1) harvested the bottom-left tile."""
    floor, tiles = floor_tiles(
        "lower",
        [
            ("M-r3-1", 1),  # [0,0]
            ("S-y2", 0),  # [0,1]
            ("M-p4-2", 2),  # [0,2] on the path: its second gem
            ("S-g1", 0),  # [1,0]
            ("S-r4", 1),  # [1,2] on the path: filled
            ("M-y5-1", 0),  # [2,0] just dealt by the last harvest
            ("S-p3", 0),  # [2,1]
            ("M-g2-2", 1),  # [2,2]
        ],
    )
    return {
        "game": "babylon-gardens",
        "format": 1,
        "viewer": 0,
        "phase": "irrigate",
        "current": 0,
        "turn": 7,
        "first_player": 1,
        "floor": floor,
        "tiles": tiles,
        "path": [[1, 2], [0, 2]],
        "piles": {"single": 14, "multi": 25},
        "discards": {"single": ["S-g2", "S-r1"], "multi": ["M-y3-2", "M-g5-1"]},
        "draws": [
            {"seat": 0, "tile": "M-p3-1", "round": 1},
            {"seat": 1, "tile": "M-g5-2", "round": 1},
        ],
        "teams": None,
        "harvested": [
            {
                "at": [2, 0],
                "tile": "M-g5-1",
                "colour": "green",
                "slot": 9,
                "seat": 1,
                "replaced_by": "M-y5-1",
            }
        ],
        "players": [
            player(0, "A1", winks(WORKED)),
            player(1, "C2", winks("g r r g y p g y g")),
        ],
        "scores": None,
    }


def lower_midturn_legal() -> list[dict[str, Any]]:
    """The legal list of that view for seat 0: from [0,2] the path can go left to [0,1]
    (down is [1,2], already on the path), then harvest and undo."""
    view = lower_midturn_view()
    after = score("A1", [*winks(WORKED), "red"])
    before = view["players"][0]["score"]
    return [
        {
            "action": {"type": "irrigate", "at": [0, 1]},
            "preview": {"gems": 1, "flowers": 1, "fills": True, "colour": "yellow"},
        },
        {
            "action": {"type": "harvest"},
            "preview": {
                "winks": [{"colour": "red", "slot": 14}],
                "points": after["total"] - before["total"],
                "ends": False,
                "score": after,
            },
        },
        {"action": {"type": "undo"}, "preview": {"at": [0, 2]}},
    ]


def lower_start_view() -> dict[str, Any]:
    """The same garden at the start of Ana's turn: no path yet, four steps from the well."""
    view = lower_midturn_view()
    view["path"] = []
    for t in view["tiles"]:
        if t["at"] == [1, 2]:
            t["gems"] = 0
        if t["at"] == [0, 2]:
            t["gems"] = 1
    return view


def lower_start_legal() -> list[dict[str, Any]]:
    view = lower_start_view()
    out = []
    for at in ([0, 1], [1, 0], [1, 2], [2, 1]):
        t = next(t for t in view["tiles"] if t["at"] == at)
        gems = t["gems"] + 1
        out.append(
            {
                "action": {"type": "irrigate", "at": at},
                "preview": {
                    "gems": gems,
                    "flowers": t["flowers"],
                    "fills": gems == t["flowers"],
                    "colour": t["colour"],
                },
            }
        )
    return out


def choose_view() -> dict[str, Any]:
    """Phase scoreboard on the Middle Garden: seat 0 took B1, seat 1 (the viewer) chooses."""
    floor, tiles = floor_tiles(
        "middle",
        [
            ("S-r1", 0),
            ("M-g2-1", 0),
            ("M-y3-1", 0),
            ("M-p4-1", 0),
            ("M-r5-1", 0),
            ("S-g1", 0),
            ("S-y1", 0),
            ("M-p2-2", 0),
            ("M-r3-2", 0),
            ("M-g4-2", 0),
            ("M-y5-2", 0),
            ("S-p1", 0),
        ],
    )
    return {
        "game": "babylon-gardens",
        "format": 1,
        "viewer": 1,
        "phase": "scoreboard",
        "current": 1,
        "turn": 0,
        "first_player": 0,
        "floor": floor,
        "tiles": tiles,
        "path": [],
        "piles": {"single": 20, "multi": 24},
        "discards": {"single": [], "multi": []},
        "draws": [],
        "teams": None,
        "harvested": [],
        "players": [player(0, "B1", []), player(1, None, [])],
        "scores": None,
    }


def choose_legal() -> list[dict[str, Any]]:
    return [
        {
            "action": {"type": "scoreboard", "side": side},
            "preview": {"side": side, "board": side[0]},
        }
        for side in ("A1", "A2", "C1", "C2", "D1", "D2")
    ]


def over_view() -> dict[str, Any]:
    """A finished 2-player game on Ishtar's Garden: Björn filled his board."""
    faces = []
    ids = list(tiles_catalogue())
    singles = [i for i in ids if i.startswith("S-")]
    multis = [i for i in ids if i.startswith("M-")]
    _, grid = FLOORS["ishtar"]
    s = m = 0
    for k, ch in enumerate("".join(grid)):
        if ch == "S":
            faces.append((singles[s], 0))
            s += 1
        elif ch == "M":
            tid = multis[(m * 5) % len(multis)]
            faces.append((tid, (k % 3) % int(tid[3])))
            m += 1
    floor, tiles = floor_tiles("ishtar", faces)
    full = winks("r r r r r g y p g g y y p r g p y g r p y g p r y")
    a = winks("g g y p p g r y y g r r p g y")
    players = [player(0, "D2", a), player(1, "B2", full)]
    finals = [
        {
            "seat": p["seat"],
            "total": p["score"]["total"],
            "winks": len(p["winks"]),
            "categories": {k: p["score"][k] for k in ("fill", "colour", "lines")},
            "score": p["score"],
        }
        for p in players
    ]
    best = max(f["total"] for f in finals)
    return {
        "game": "babylon-gardens",
        "format": 1,
        "viewer": None,
        "phase": "over",
        "current": None,
        "turn": 31,
        "first_player": 0,
        "floor": floor,
        "tiles": tiles,
        "path": [],
        "piles": {"single": 9, "multi": 3},
        "discards": {"single": singles[:7], "multi": multis[:5]},
        "draws": [],
        "teams": None,
        "harvested": [],
        "players": players,
        "scores": {
            "players": finals,
            "winners": [f["seat"] for f in finals if f["total"] == best],
            "tiebreak": None,
            "teams": None,
        },
    }
