"""How many turns each seat still has: a distribution over the game's end, read off the piles.

The game ends once two piles are empty and the round is completed (rulebook). Which turn
empties the second pile depends on where the watering can goes, and the players choose that:
the next non-empty pile clockwise is free, each further one costs a gem. A single guess (the
piles emptying evenly) is wrong most of the time near the end, and always in the same
direction for the same seat: with two players the first player's last turn came while it
believed two more were to come, so it kept gems for trees it never planted (9 of 11 gems
left over in the games measured, docs/journal/ishtar-balance-history.md,
"The medium bot's horizon").

Here every future take moves the can to one of the next non-empty piles clockwise with the
frequencies the bots were measured to choose them (`STEP_SHARES`, by whether the taker holds
skill F, which makes the second pile free too), and the chance of each
number of takes until the end is summed over those paths. Far from the end the paths are
many and the answer matters little (a seat with four turns left values its gems fully), so
the can is then walked along its free path alone.

A rival's take is not a coin toss, though. A greedy rival that can end the game ends it when
that hurts the others most: with two players the second player, able to end it in about half
of its choices, ended it in 88 of 200 games, and in those the first player was caught with
4.9 gems it never planted (1.4 when it ended the game itself; edition 4, medium bots,
docs/journal/ishtar-balance-history.md, "The rivals' end"). So a seat's outlook is its own
(`outlook` with `seat`): every take of another seat that can end the game, from one of the
piles it reaches cheaply (`RIVAL_REACH`), does; the seat's own takes keep the measured
shares. That is so with
two players, where the ender's lead is the other's loss; with more, an ender plays against
the best of the others, not against each, and the last of three seats won more when every seat
counted on it (the same section): `outlooks` gives each seat its own outlook
with two players and the shared one with more.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

STEP_SHARES: dict[bool, tuple[float, ...]] = {
    False: (0.66, 0.28, 0.05, 0.01),
    True: (0.41, 0.41, 0.12, 0.06),
}
"""Share of the choices that move the can to the 1st, 2nd, 3rd, 4th non-empty pile clockwise,
without and with skill F (medium bots, edition 3, 100 games of 2 players and 40 of 4: 1,800
choices without F, 1,600 with); further piles are not counted."""

RIVAL_REACH = 2
"""A rival ends the game when one of the first so many non-empty piles clockwise would (the
free one and the one a gem away; one more with skill F, which makes the second free)."""

EXACT_WITHIN = 6
"""Paths are weighed when the end can come within this many takes (the two smallest piles);
beyond, the free path alone is walked."""

DEPTH = 4
"""Rounds of takes weighed path by path; the paths still open after them end by the free
path (a seat with four turns still to come values its gems and icons fully either way)."""

WIDEST = 64
"""The most positions of the piles kept after a take: the likeliest (the chances of the
others are shared out among them by scaling back to 1)."""

Outlook = tuple[tuple[float, int], ...]
"""(probability, turns still to start after the current one) pairs, summing to 1."""


def outlook(view: dict[str, Any], seat: int | None = None) -> Outlook:
    """The distribution of how many turns are still to start (the turn in progress not
    counted), from the public facts of a view: turn, phase, pile sizes, the can. Seen by
    `seat`, every other seat's take ends the game when it can (module docstring); with no
    seat, every take follows the measured shares."""
    if view["phase"] == "over":
        return ((1.0, 0),)
    players = len(view["players"])
    turn = int(view["turn"])
    if view.get("end_triggered"):
        return ((1.0, -turn % players),)
    carpet = view["carpet"]
    sizes = tuple(int(p["size"]) for p in carpet["piles"])
    can = carpet.get("can")
    taking = view["phase"] == "choose"
    # Who holds skill F, in the order of the takes to come (the seat to act takes first
    # when it has still to choose, else the next seat).
    first_taker = int(view["current"]) + (0 if taking else 1)
    takers = [(first_taker + k) % players for k in range(players)]
    has_f = tuple("F" in (view["players"][t].get("skills") or {}) for t in takers)
    rivals = tuple(seat is not None and t != seat for t in takers)
    return _outlook(
        players, turn, taking, sizes, None if can is None else int(can), has_f, rivals
    )


@lru_cache(maxsize=16384)
def _outlook(
    players: int,
    turn: int,
    taking: bool,
    sizes: tuple[int, ...],
    can: int | None,
    has_f: tuple[bool, ...],
    rivals: tuple[bool, ...],
) -> Outlook:
    """`outlook` from the facts it reads (an evaluation asks it again for every position
    that shares the piles, the turn and the skills F of its siblings)."""
    takes = _takes_until_end(sizes, can, DEPTH * players, has_f, rivals)
    result: dict[int, float] = {}
    for count, chance in takes:
        # The take that empties the second pile is in turn `trigger`; its round is finished.
        trigger = turn + count - (1 if taking else 0)
        future = -(-trigger // players) * players - turn
        result[future] = result.get(future, 0.0) + chance
    return tuple(sorted((p, f) for f, p in result.items()))


def outlooks(view: dict[str, Any]) -> list[Outlook]:
    """The outlook each seat values its future by, in seat order: its own (rivals end the game
    when they can) with two players, the shared one with more (module docstring)."""
    players = len(view["players"])
    if players == 2:
        return [outlook(view, seat) for seat in range(players)]
    return [outlook(view)] * players


def seat_turns(view: dict[str, Any], seat: int, future: int) -> int:
    """How many of the `future` turns still to start belong to `seat`."""
    players = len(view["players"])
    turn = int(view["turn"])
    first = int(view["first_player"])
    # Turn t (from 1) belongs to seat (first + t - 1) % players.
    offset = (seat - first - turn) % players
    return 0 if offset >= future else 1 + (future - offset - 1) // players


@lru_cache(maxsize=16384)
def _takes_until_end(
    sizes: tuple[int, ...],
    can: int | None,
    depth: int,
    has_f: tuple[bool, ...],
    rivals: tuple[bool, ...],
) -> tuple[tuple[int, float], ...]:
    """(takes, probability) until a take leaves two piles empty, the can at `can`; the paths
    are weighed for `depth` takes; the k-th take (from 0) is by a seat holding skill F when
    ``has_f[k % len(has_f)]``, and by a rival, who ends the game when it can, when
    ``rivals[k % len(rivals)]``."""
    empties = _empties(sizes)
    if empties >= 2:
        return ((0, 1.0),)
    smallest = sorted(s for s in sizes if s)
    soonest = smallest[0] if empties else smallest[0] + smallest[1]
    if soonest > EXACT_WITHIN:
        return ((_free_path(list(sizes), can), 1.0),)
    found: dict[int, float] = {}
    layer: dict[int, float] = {_pack(sizes, can): 1.0}
    takes = 0
    while layer:
        if takes == depth:
            for position, chance in layer.items():
                late = takes + _free_takes(position)
                found[late] = found.get(late, 0.0) + chance
            break
        takes += 1
        following: dict[int, float] = {}
        k = (takes - 1) % len(has_f)
        with_f, rival = has_f[k], rivals[k]
        steps_of = _STEPS[with_f, rival]
        for position, chance in layer.items():
            steps = steps_of.get(position)
            if steps is None:
                steps = _steps(position, with_f, rival)
            for share, after in steps:
                p = chance * share
                if after is None:
                    found[takes] = found.get(takes, 0.0) + p
                else:
                    following[after] = following.get(after, 0.0) + p
        if len(following) > WIDEST:
            kept = sorted(following.items(), key=itemgetter(1))[-WIDEST:]
            following = dict(kept)
        layer = following
    total = sum(found.values()) or 1.0
    return tuple((t, p / total) for t, p in sorted(found.items()))


def _pack(sizes: Sequence[int], can: int | None) -> int:
    """A position of the piles as one number (a cheap key), in fields of 4, 4, 8, 8 and
    8 bits each: the number of piles, the can (0: none, else the pile + 1), which piles
    are empty, which hold one tile, and each pile's size. The first four fields (`_KIND`)
    are all the takes from it depend on (`_kind_steps`)."""
    code = len(sizes) | (0 if can is None else can + 1) << 4
    for i, size in enumerate(sizes):
        code |= size << (24 + 8 * i)
        if size == 0:
            code |= 1 << (8 + i)
        elif size == 1:
            code |= 1 << (16 + i)
    return code


def _unpack(code: int) -> tuple[list[int], int | None]:
    """The sizes of the piles and the can of a `_pack`ed position."""
    can = (code >> 4 & 15) - 1
    sizes = [code >> (24 + 8 * i) & 255 for i in range(code & 15)]
    return sizes, None if can < 0 else can


_KIND = (1 << 24) - 1
"""The fields of a packed position that its takes depend on."""

_STEPS: dict[tuple[bool, bool], dict[int, tuple[tuple[float, int | None], ...]]] = {
    (with_f, rival): {} for with_f in (False, True) for rival in (False, True)
}
"""`_steps` kept, by taker (`with_f`, `rival`) and position."""
STEPS_KEPT = 1 << 14
"""The most positions kept for each taker (emptied when full: any is made again the
same)."""


def _steps(
    position: int, with_f: bool, rival: bool
) -> tuple[tuple[float, int | None], ...]:
    """(share, position after) of each take `_moves` allows from `position` (None after: the
    take ends the game). The same positions recur in the layers of many outlooks."""
    steps: list[tuple[float, int | None]] = []
    for share, pile in _kind_steps(position & _KIND, with_f, rival):
        if pile < 0:
            steps.append((share, None))
            continue
        shift = 24 + 8 * pile
        size = position >> shift & 255
        after = (position - (1 << shift)) & ~0xF0 | (pile + 1) << 4
        if size == 2:
            after |= 1 << (16 + pile)
        elif size == 1:
            after = after & ~(1 << (16 + pile)) | 1 << (8 + pile)
        steps.append((share, after))
    found = tuple(steps)
    kept = _STEPS[with_f, rival]
    if len(kept) >= STEPS_KEPT:
        kept.clear()
    kept[position] = found
    return found


@lru_cache(maxsize=4096)
def _kind_steps(kind: int, with_f: bool, rival: bool) -> tuple[tuple[float, int], ...]:
    """(share, pile) of each take from a position of this kind (-1: the take ends the game).

    `_moves` reads of the piles only which are empty and which hold one tile, so a pile
    of two stands for every bigger one."""
    count, can = kind & 15, (kind >> 4 & 15) - 1
    piles = [
        0 if kind >> (8 + i) & 1 else 1 if kind >> (16 + i) & 1 else 2
        for i in range(count)
    ]
    # a position of a layer has at most one empty pile: a take ends the game when it
    # empties a pile of one tile beside an empty one
    one_empty = _empties(piles) == 1
    return tuple(
        (share, -1 if one_empty and piles[pile] == 1 else pile)
        for pile, share in _moves(piles, None if can < 0 else can, with_f, rival)
    )


@lru_cache(maxsize=16384)
def _free_takes(position: int) -> int:
    """`_free_path` from a position of a layer."""
    piles, at = _unpack(position)
    return _free_path(piles, at)


def _moves(
    piles: Sequence[int], can: int | None, with_f: bool = False, rival: bool = False
) -> list[tuple[int, float]]:
    """(pile, share) of the piles the next take may come from (by a seat holding skill F
    when `with_f`; by a rival, who takes the first pile within its reach that ends the
    game if there is one, when `rival`)."""
    count = len(piles)
    if can is None:
        open_piles = [p for p in range(count) if piles[p]]
        return [(p, 1.0 / len(open_piles)) for p in open_piles]
    order = _ahead(piles, can)
    if not order:
        return [(can, 1.0)] if piles[can] else []
    if rival and _empties(piles) == 1:
        reach = order[: RIVAL_REACH + (1 if with_f else 0)]
        ending = [p for p in reach if piles[p] == 1]  # a last tile beside an empty pile
        if ending:
            return [(ending[0], 1.0)]
    shares = STEP_SHARES[with_f][: len(order)]
    total = sum(shares)
    return [(p, s / total) for p, s in zip(order, shares, strict=False)]


def _free_path(sizes: list[int], can: int | None) -> int:
    """Takes until two piles are empty when the can always moves to the next pile (free)."""
    count = len(sizes)
    takes = 0
    while _empties(sizes) < 2:
        if can is None:
            can = max(range(count), key=lambda p: sizes[p])
        else:
            order = _ahead(sizes, can)
            can = order[0] if order else can
        sizes[can] -= 1
        takes += 1
    return takes


def _ahead(piles: Sequence[int], can: int) -> list[int]:
    """The non-empty piles the can may move to, clockwise from the one it leaves."""
    count = len(piles)
    return [(can + k) % count for k in range(1, count) if piles[(can + k) % count]]


def _empties(sizes: Sequence[int]) -> int:
    return sizes.count(0)
