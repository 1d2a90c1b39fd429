"""Set-up (spec §4, RB "Set Up"): every shuffle of the set-up happens here, from the seed.

Order of the draws from ``random.Random(seed)``: the single pile, the multi pile (each
shuffled, then the floor dealt from them in reading order), the scoreboards (option
``random``), then the first-player draw (R-6) unless the host fixed the first player.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.babylon.components import KINDS, SLOTS, TILES, TILES_OF_KIND
from engine.babylon.errors import IllegalAction
from engine.babylon.floors import DEFAULT_FLOOR, FLOOR_IDS, floor
from engine.babylon.scoreboards import BOARDS
from engine.babylon.state import Draw, State, kind_index
from engine.babylon.words import refusal

OPTIONS: dict[str, Any] = {
    "floor": DEFAULT_FLOOR,
    "scoreboards": "random",
    "teams": False,
    "first_player": None,
}
"""The options and their defaults (docs/games/babylon/contract.md)."""

PLAYERS = range(2, 5)
"""2 to 4 players: there are 4 scoreboards."""

assert SLOTS == 25


def check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options normalised (every key present), or `IllegalAction` saying what is wrong."""
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or players not in PLAYERS
    ):
        raise IllegalAction(refusal("options.players"))
    if options is not None and not isinstance(options, Mapping):
        raise IllegalAction(refusal("options.object"))
    given = dict(options or {})
    unknown = sorted(str(key)[:40] for key in given if key not in OPTIONS)
    if unknown:
        raise IllegalAction(refusal("options.unknown", option=repr(unknown[0])))
    out = {**OPTIONS, **given}
    if out["floor"] not in FLOOR_IDS:
        raise IllegalAction(refusal("options.floor", floors=", ".join(FLOOR_IDS)))
    if out["scoreboards"] not in ("random", "choose"):
        raise IllegalAction(refusal("options.scoreboards"))
    if not isinstance(out["teams"], bool):
        raise IllegalAction(refusal("options.teams"))
    if out["teams"] and players != 4:
        raise IllegalAction(refusal("options.teams_players"))
    first = out["first_player"]
    if first is not None and (
        not isinstance(first, int)
        or isinstance(first, bool)
        or not 0 <= first < players
    ):
        raise IllegalAction(refusal("options.first_player", last=players - 1))
    return out


def new_game(
    players: int, seed: int, options: Mapping[str, Any] | None = None
) -> State:
    """The starting position: piles shuffled, the floor dealt (and turned face up, RB),
    scoreboards dealt or to be chosen, and the first player drawn or fixed."""
    opts = check_options(players, options)
    rng = random.Random(seed)
    piles = [list(TILES_OF_KIND[kind]) for kind in KINDS]
    for pile in piles:
        rng.shuffle(pile)
    the_floor = floor(opts["floor"])
    tiles = tuple(
        piles[kind_index(the_floor.kinds[at])].pop() for at in the_floor.spaces
    )
    sides: tuple[str | None, ...]
    if opts["scoreboards"] == "random":
        boards = rng.sample(BOARDS, players)
        sides = tuple(f"{board}{rng.choice((1, 2))}" for board in boards)
    else:
        sides = (None,) * players
    draws: tuple[Draw, ...] = ()
    if opts["first_player"] is None:
        first, draws = _draw_first_player(players, piles[1], rng)
    else:
        first = opts["first_player"]
    choosing = opts["scoreboards"] == "choose"
    return State(
        players=players,
        seed=seed,
        options=tuple(sorted(opts.items())),
        floor_id=the_floor.id,
        tiles=tiles,
        gems=(0,) * len(tiles),
        piles=(tuple(piles[0]), tuple(piles[1])),
        discards=((), ()),
        sides=sides,
        winks=((),) * players,
        phase="scoreboard" if choosing else "irrigate",
        current=0 if choosing else first,
        turn=0 if choosing else 1,
        first_player=first,
        draws=draws,
    )


def _draw_first_player(
    players: int, multi: list[str], rng: random.Random
) -> tuple[int, tuple[Draw, ...]]:
    """R-6: each player draws a multi tile; the most flowers starts; tied highest players
    draw again from what is left. All drawn tiles go back and the pile is reshuffled.

    R-18: if what is left cannot give each tied player a tile, the drawn tiles go back into
    the pile, it is reshuffled and the tied players draw again (a round of its own)."""
    drawn: list[str] = []
    draws: list[Draw] = []
    contenders = list(range(players))
    round_no = 0
    while True:
        round_no += 1
        if len(multi) < len(contenders):
            multi.extend(drawn)
            drawn.clear()
            rng.shuffle(multi)
        got = {seat: multi.pop() for seat in contenders}
        drawn.extend(got.values())
        draws.extend(Draw(seat, tile, round_no) for seat, tile in got.items())
        best = max(TILES[tile].flowers for tile in got.values())
        contenders = [seat for seat, tile in got.items() if TILES[tile].flowers == best]
        if len(contenders) == 1:
            break
    multi.extend(drawn)
    rng.shuffle(multi)
    return contenders[0], tuple(draws)


def public_setup(state: State) -> dict[str, Any]:
    """What the seed drew that everyone sees: the floor's tiles, the scoreboards dealt, the
    first-player draws and the first player (records carry it; checking a record re-runs it)."""
    start = new_game(state.players, state.seed, state.option)
    return {
        "floor": start.floor_id,
        "tiles": [
            {"at": list(at), "tile": tile}
            for at, tile in zip(start.floor.spaces, start.tiles, strict=True)
        ],
        "sides": list(start.sides),
        "draws": [
            {"seat": d.seat, "tile": d.tile, "round": d.round} for d in start.draws
        ],
        "first_player": start.first_player,
    }
