"""Set-up (RB "Setting Up the Game"): every shuffle of the game happens here, from a seed.

Order of the draws from ``random.Random(seed)``: the layout (when random), the fountains,
the cups on the carpet, the piles, the tree card deck, the first player (unless fixed).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.ishtar.components import (
    ASSISTANTS_IN_SUPPLY,
    ASSISTANTS_ON_CARPET,
    BASIC_PER_PILE,
    BLOOMING_TOKEN_COUNTS,
    CUPS,
    FOUNTAINS,
    GEM_TOTALS,
    MARKET_SIZE,
    PILE_REMOVALS,
    SHAPES,
    START_GEMS,
    TREES,
)
from engine.ishtar.editions import DEFAULT, EDITIONS, Edition
from engine.ishtar.errors import IllegalAction
from engine.ishtar.geometry import geometry_for
from engine.ishtar.layout import LayoutError, layout_to_json, resolve_layout
from engine.ishtar.state import State
from engine.ishtar.words import raw, refusal

OPTIONS = ("layout", "first_player", "turn_end", "edition")
"""The options of a game (docs/games/ishtar/contract.md): the board layout, a fixed first
seat, how a turn ends, and the edition of the component data (engine.ishtar.editions).
Everything else the set-up needs is drawn from the seed."""

TURN_ENDS = ("explicit", "auto")
"""``turn_end``: "explicit" (engine 1.2.0 on: a turn ends with ``end``) or "auto" (the rule
games begun before 1.2.0 were played with, kept so that they replay: a turn with nothing left
to plant or undo ends by itself)."""


def check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options normalised (every key present), or `IllegalAction` saying what is wrong.

    ``layout``: "preset" (the rulebook's, the default), "random" (drawn from the seed) or a
    list of boards ``{"board", "side", "rotation", "at"}``. ``first_player``: a seat number,
    or None for the rulebook's draw (from the seed). ``turn_end``: one of `TURN_ENDS`
    ("explicit", the default). ``edition``: a name of `EDITIONS` (`DEFAULT` if none: a
    game that names none is a new one; the records from before editions are given theirs by
    `upgrade_options`, docs/games/ishtar/rules.md "Editions").
    """
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or players not in PILE_REMOVALS
    ):
        raise IllegalAction(refusal("options.players", players=raw(players)))
    given = dict(options or {})
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise IllegalAction(refusal("options.unknown", option=repr(unknown[0])))
    layout = given.get("layout")
    layout = "preset" if layout is None else layout
    resolve_layout(
        layout, players, random.Random(0)
    )  # a LayoutError says what is wrong
    first = given.get("first_player")
    if first is not None and (
        isinstance(first, bool)
        or not isinstance(first, int)
        or not 0 <= first < players
    ):
        raise IllegalAction(refusal("options.first_player", last=players - 1))
    turn_end = given.get("turn_end")
    turn_end = "explicit" if turn_end is None else turn_end
    if turn_end not in TURN_ENDS:
        raise IllegalAction(refusal("options.turn_end"))
    edition = given.get("edition")
    edition = DEFAULT if edition is None else edition
    if not isinstance(edition, str) or edition not in EDITIONS:
        raise IllegalAction(
            refusal("options.edition", editions=", ".join(EDITIONS), default=DEFAULT)
        )
    return {
        "layout": layout,
        "first_player": first,
        "turn_end": turn_end,
        "edition": edition,
    }


def new_game(
    players: int, seed: int, options: Mapping[str, Any] | None = None
) -> State:
    """A new game for ``players`` (2–4) from ``seed`` with ``options`` (`check_options`).

    Bad options raise `IllegalAction` (a ``ValueError``) with the reason. Without a fixed
    ``first_player`` the first seat is drawn from the seed (RB: "randomly determine").
    """
    chosen = check_options(players, options)
    return set_up(
        players,
        seed,
        chosen["layout"],
        chosen["first_player"],
        auto_end=chosen["turn_end"] == "auto",
        edition=chosen["edition"],
    )


def public_setup(state: State) -> dict[str, Any]:
    """What the seed drew that everyone may see: the layout of the boards and the first seat."""
    return {"layout": layout_to_json(state.layout), "first_player": state.first_player}


def set_up(
    players: int,
    seed: int,
    layout: Any = None,
    first_player: int | None = None,
    *,
    auto_end: bool = False,
    edition: str = DEFAULT,
) -> State:
    """The starting position (the options already checked; see `new_game`)."""
    if not isinstance(players, int) or players not in PILE_REMOVALS:
        raise LayoutError(refusal("layout.players", players=raw(players)))
    if first_player is not None and not 0 <= first_player < players:
        raise ValueError(f"first player must be a seat from 0 to {players - 1}")
    ed = EDITIONS[edition]
    rng = random.Random(seed)
    board_layout = resolve_layout(layout, players, rng)
    geo = geometry_for(board_layout, ed)

    fountains = list(FOUNTAINS)
    rng.shuffle(fountains)
    rocks = [c for c, g in enumerate(geo.rock) if g >= 0]
    on_board = [sum(1 for c in rocks if geo.rock[c] == colour) for colour in range(3)]
    start = [n * players for n in START_GEMS]
    bank = (
        GEM_TOTALS[0] - on_board[0] - start[0],
        GEM_TOTALS[1] - on_board[1] - start[1],
        GEM_TOTALS[2] - on_board[2] - start[2],
    )

    cups = list(CUPS)
    rng.shuffle(cups)
    piles, removed = _build_piles(ed, cups, players, rng)

    deck = list(ed.tree_cards)
    rng.shuffle(deck)
    market = tuple(deck[:MARKET_SIZE])
    first = rng.randrange(players) if first_player is None else first_player

    return State(
        players=players,
        seed=seed,
        layout=board_layout,
        geo=geo,
        edition=edition,
        ed=ed,
        first_player=first,
        fountains=tuple(fountains[: len(geo.fountain_cells)]),
        gems_on_board=frozenset(rocks),
        bank=bank,
        flowers=(-1,) * len(geo.hexes),
        placed=(),
        tokens=(),
        assistants={},
        trees={},
        cups=tuple(cups),
        piles=piles,
        can=None,
        tokens_left=dict(BLOOMING_TOKEN_COUNTS),
        discarded=(),
        removed=removed,
        market=market,
        market_trees=frozenset(market),
        deck=tuple(deck[MARKET_SIZE:]),
        trees_left=TREES - len(market),
        gems=(START_GEMS,) * players,
        assistants_supply=(ASSISTANTS_IN_SUPPLY,) * players,
        assistants_carpet=(ASSISTANTS_ON_CARPET,) * players,
        skills=tuple({} for _ in range(players)),
        tree_cards=((),) * players,
        reserved=(None,) * players,
        current=first,
        phase="choose",
        turn=1,
        hand=None,
        bloom=None,
        end_triggered=False,
        auto_end=auto_end,
    )


def _build_piles(
    ed: Edition, cups: list[str], players: int, rng: random.Random
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Deal each shape's 12 basic tiles into its two piles and top them with a starting tile."""
    basics: dict[str, list[str]] = {}
    starts: dict[str, list[str]] = {}
    for shape in SHAPES:
        shape_tiles = [t for t in ed.tiles.values() if t.shape == shape]
        basics[shape] = [t.id for t in shape_tiles if not t.start]
        starts[shape] = [t.id for t in shape_tiles if t.start]
        rng.shuffle(basics[shape])
        rng.shuffle(starts[shape])
    cut = PILE_REMOVALS[players]
    piles: list[tuple[str, ...]] = []
    removed: list[str] = []
    for cup in cups:
        pile = [basics[cup].pop() for _ in range(BASIC_PER_PILE)]  # bottom first
        removed.extend(pile[:cut])
        piles.append((*tuple(pile[cut:]), starts[cup].pop()))
    return tuple(piles), tuple(removed)
