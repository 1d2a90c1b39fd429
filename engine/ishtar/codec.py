"""JSON codec for states and actions, with a format version.

``encode_state`` keeps everything, hidden information and seed included: it is for the server's
storage only; players get ``view_for``. Cells are written as axial ``[q, r]``.

Format 2 adds ``"undo"`` (engine.rules.undo): ``null``, or the undoable ``steps`` as actions
and the ``checkpoint`` state written as the fields in which it differs from the state (a few
fields of one turn; the lists of placed tiles and tokens only grow, so for them a count of
the state's first entries), so a snapshot stays small. Format 1 (no undo record) is still read.

Format 3 adds ``"auto_end"`` (``State.auto_end``); states of formats 1 and 2 were written by
engines before 1.2.0, whose turns ended by themselves, and are read with it true.

Since engine 1.3.0 a state names its edition of the component data (``"edition"``,
engine.ishtar.editions) unless it is "1": the states written before editions, which name
none, are of edition "1", so their text (and the golden games' digests) stay as they were.
A state of an edition this engine does not have is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ishtar.components import BLOOMING_TOKEN_COUNTS, GAME, GEM_COLOURS, SKILLS
from engine.ishtar.editions import EDITIONS, FIRST
from engine.ishtar.errors import MalformedAction
from engine.ishtar.geometry import geometry_for
from engine.ishtar.layout import layout_to_json, parse_layout
from engine.ishtar.state import PHASES, Action, PlacedTile, PlacedToken, State
from engine.ishtar.words import refusal

STATE_FORMAT = 3
READABLE_FORMATS = (1, 2, 3)


def encode_action(action: Action) -> dict[str, Any]:
    """An action as its JSON dict (docs/games/ishtar/contract.md)."""
    t = action.type
    out: dict[str, Any] = {"type": t}
    if t == "choose":
        out["pile"] = action.pile
        out["pay"] = list(action.pay)
    elif t == "place":
        assert action.at is not None
        out["at"] = [action.at[0], action.at[1]]
        out["rotation"] = action.rotation
    elif t == "skill":
        out["skill"] = action.skill
        out["pay"] = list(action.pay)
    elif t == "bloom":
        out["token"] = action.token
        out["cells"] = [[q, r] for q, r in action.cells]
    elif t == "reserve":
        out["card"] = action.card
    elif t == "plant":
        assert action.at is not None
        out["card"] = action.card
        out["at"] = [action.at[0], action.at[1]]
    return out


_FIELDS: dict[str, tuple[str, ...]] = {
    "choose": ("pile", "pay"),
    "place": ("at", "rotation"),
    "discard": (),
    "assistant": (),
    "skill": ("skill", "pay"),
    "pass": (),
    "bloom": ("token", "cells"),
    "reserve": ("card",),
    "plant": ("card", "at"),
    "end": (),
    "undo": (),
}


def _malformed(name: str, **params: Any) -> MalformedAction:
    return MalformedAction(refusal(f"malformed.{name}", **params))


SHOWN = 40
"""At most this many characters of a client's own text are echoed in a refusal."""


def _int(raw: Any, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise _malformed("whole_number", field=name)
    return raw


def _hex(raw: Any, name: str) -> tuple[int, int]:
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise _malformed("pair", field=name)
    return (_int(raw[0], name), _int(raw[1], name))


def _pay(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, (list, tuple)) or any(c not in GEM_COLOURS for c in raw):
        raise _malformed("pay")
    return tuple(sorted(raw, key=GEM_COLOURS.index))


def decode_action(data: Any) -> Action:
    """An action from its JSON dict; raises MalformedAction if malformed."""
    if not isinstance(data, Mapping):
        raise _malformed("object")
    kind = data.get("type")
    if kind not in _FIELDS:
        shown = kind[:SHOWN] if isinstance(kind, str) else kind
        raise _malformed("type", type=repr(shown)[: SHOWN + 2])
    missing = [f for f in _FIELDS[kind] if f not in data]
    if missing:
        raise _malformed("missing", type=kind, fields=", ".join(missing))
    if kind == "choose":
        return Action("choose", pile=_int(data["pile"], "pile"), pay=_pay(data["pay"]))
    if kind == "place":
        rotation = _int(data["rotation"], "rotation")
        if not 0 <= rotation <= 5:
            raise _malformed("rotation")
        return Action("place", at=_hex(data["at"], "at"), rotation=rotation)
    if kind == "skill":
        if data["skill"] not in SKILLS:
            raise _malformed("skill")
        return Action("skill", skill=data["skill"], pay=_pay(data["pay"]))
    if kind == "bloom":
        if data["token"] not in BLOOMING_TOKEN_COUNTS:
            raise _malformed("token", tokens=", ".join(BLOOMING_TOKEN_COUNTS))
        cells = data["cells"]
        if not isinstance(cells, (list, tuple)) or not 1 <= len(cells) <= 2:
            raise _malformed("cells")
        return Action(
            "bloom", token=data["token"], cells=tuple(_hex(c, "cells") for c in cells)
        )
    if kind == "reserve":
        return Action("reserve", card=_int(data["card"], "card"))
    if kind == "plant":
        return Action(
            "plant", card=_int(data["card"], "card"), at=_hex(data["at"], "at")
        )
    return Action(kind)


def encode_state(state: State) -> dict[str, Any]:
    """The full state as JSON (server-side only: it includes hidden information and the seed)."""
    data = _encode_fields(state)
    if state.checkpoint is not None:
        base = _encode_fields(state.checkpoint)
        data["undo"] = {
            "steps": [encode_action(a) for a in state.steps],
            "checkpoint": {
                k: len(v) if k in _GROWING and v == data[k][: len(v)] else v
                for k, v in base.items()
                if data[k] != v
            },
        }
    else:
        data["undo"] = None
    return data


_GROWING = ("placed", "tokens")
"""Lists that only grow during a turn: a checkpoint holds the first n entries of the state's."""


def _encode_fields(state: State) -> dict[str, Any]:
    hexes = state.geo.hexes

    def cell(c: int) -> list[int]:
        return [hexes[c][0], hexes[c][1]]

    return {
        "game": GAME,
        "format": STATE_FORMAT,
        "players": state.players,
        "seed": state.seed,
        "layout": layout_to_json(state.layout),
        "first_player": state.first_player,
        "fountains": list(state.fountains),
        "gems_on_board": sorted(cell(c) for c in state.gems_on_board),
        "bank": list(state.bank),
        "placed": [
            {
                "tile": p.tile,
                "seat": p.seat,
                "turn": p.turn,
                "at": list(p.at),
                "rotation": p.rotation,
                "cells": [cell(c) for c in p.cells],
            }
            for p in state.placed
        ],
        "tokens": [
            {"token": t.token, "seat": t.seat, "cells": [cell(c) for c in t.cells]}
            for t in state.tokens
        ],
        "assistants": sorted([*cell(c), s] for c, s in state.assistants.items()),
        "trees": sorted([*cell(c), card] for c, card in state.trees.items()),
        "cups": list(state.cups),
        "piles": [list(p) for p in state.piles],
        "can": state.can,
        "tokens_left": dict(state.tokens_left),
        "discarded": list(state.discarded),
        "removed": list(state.removed),
        "market": list(state.market),
        "market_trees": sorted(state.market_trees),
        "deck": list(state.deck),
        "trees_left": state.trees_left,
        "gems": [list(g) for g in state.gems],
        "assistants_supply": list(state.assistants_supply),
        "assistants_carpet": list(state.assistants_carpet),
        "skills": [{k: list(v) for k, v in sorted(s.items())} for s in state.skills],
        "tree_cards": [list(t) for t in state.tree_cards],
        "reserved": list(state.reserved),
        "current": state.current,
        "phase": state.phase,
        "turn": state.turn,
        "hand": state.hand,
        "bloom": state.bloom,
        "end_triggered": state.end_triggered,
        "auto_end": state.auto_end,
        **({} if state.edition == FIRST else {"edition": state.edition}),
    }


def decode_state(data: Mapping[str, Any]) -> State:
    """The state from ``encode_state``'s JSON; raises ValueError on another game or format."""
    if data.get("game") != GAME or data.get("format") not in READABLE_FORMATS:
        raise ValueError(
            f"not an {GAME} state of format {STATE_FORMAT}: "
            f"game={data.get('game')!r} format={data.get('format')!r}"
        )
    state = _decode_fields(data)
    record = data.get("undo")
    if not record:
        return state
    fields = {
        k: data[k][:v] if k in _GROWING and isinstance(v, int) else v
        for k, v in record["checkpoint"].items()
    }
    checkpoint = _decode_fields({**data, **fields})
    steps = tuple(decode_action(a) for a in record["steps"])
    return state.evolve(checkpoint=checkpoint, steps=steps)


def _decode_fields(data: Mapping[str, Any]) -> State:
    if data["phase"] not in PHASES:
        raise ValueError(f"unknown phase {data['phase']!r}")
    edition = data.get("edition", FIRST)
    ed = EDITIONS.get(edition)
    if ed is None:
        raise ValueError(f"no edition {edition!r} of the {GAME} components")
    layout = parse_layout(data["layout"])
    geo = geometry_for(layout, ed)
    index = geo.index

    def cell(raw: Any) -> int:
        return index[(raw[0], raw[1])]

    placed = tuple(
        PlacedTile(
            p["tile"],
            p["seat"],
            p["turn"],
            (p["at"][0], p["at"][1]),
            p["rotation"],
            (cell(p["cells"][0]), cell(p["cells"][1]), cell(p["cells"][2])),
        )
        for p in data["placed"]
    )
    tokens = tuple(
        PlacedToken(t["token"], t["seat"], tuple(cell(c) for c in t["cells"]))
        for t in data["tokens"]
    )
    flowers = [-1] * len(geo.hexes)
    for p in placed:
        for c, space in zip(p.cells, ed.tiles[p.tile].spaces):
            flowers[c] = space.flowers
    for t in tokens:
        for c, n in zip(t.cells, ed.blooming_tokens[t.token]):
            flowers[c] = n
    return State(
        players=data["players"],
        seed=data["seed"],
        layout=layout,
        geo=geo,
        edition=edition,
        ed=ed,
        first_player=data["first_player"],
        fountains=tuple(data["fountains"]),
        gems_on_board=frozenset(cell(c) for c in data["gems_on_board"]),
        bank=_gems(data["bank"]),
        flowers=tuple(flowers),
        placed=placed,
        tokens=tokens,
        assistants={index[(q, r)]: s for q, r, s in data["assistants"]},
        trees={index[(q, r)]: card for q, r, card in data["trees"]},
        cups=tuple(data["cups"]),
        piles=tuple(tuple(p) for p in data["piles"]),
        can=data["can"],
        tokens_left=dict(data["tokens_left"]),
        discarded=tuple(data["discarded"]),
        removed=tuple(data["removed"]),
        market=tuple(data["market"]),
        market_trees=frozenset(data["market_trees"]),
        deck=tuple(data["deck"]),
        trees_left=data["trees_left"],
        gems=tuple(_gems(g) for g in data["gems"]),
        assistants_supply=tuple(data["assistants_supply"]),
        assistants_carpet=tuple(data["assistants_carpet"]),
        skills=tuple({k: tuple(v) for k, v in s.items()} for s in data["skills"]),
        tree_cards=tuple(tuple(t) for t in data["tree_cards"]),
        reserved=tuple(data["reserved"]),
        current=data["current"],
        phase=data["phase"],
        turn=data["turn"],
        hand=data["hand"],
        bloom=data["bloom"],
        end_triggered=data["end_triggered"],
        auto_end=data.get("auto_end", data["format"] < 3),
    )


def _gems(raw: Any) -> tuple[int, int, int]:
    return (int(raw[0]), int(raw[1]), int(raw[2]))
