"""Game positions in memory: decoded engine states by version, and what each viewer sees.

A `Position` is the engine state of one game at one version. It serialises each viewer's
view (and the legal actions of the seat to act) at most once, so every spectator of a room
shares the same JSON text. `Positions` keeps the last few positions of each game; it is a
cache only: the database is the truth, and a position is used only for the version it has.

The cache is bounded in bytes (`ISHTAR_POSITION_CACHE_BYTES`), the least recently played
game dropped first. Each position counts what it holds as it computes it: the JSON texts
at their size in memory, the view values they were made from, what the engine memoised of
the legal actions, and a fixed weight for the engine state (`Weights`). What states share
(an Ishtar layout's geometry, 270-450 KiB: one per game on a random layout, one for every
game on a preset one) the engine names with its size (`shared_parts`, optional: none
when the engine does not say, app/play/rules.py) and the
cache counts once while any of its positions holds it. What consecutive versions of a game
share is counted once too: a view entry that did not change by the oldest version held
that has it (the next one takes its count over when it goes, `Positions._hand_on`), and a
state made by one move from a held one as a step (`Weights.STATE_STEP`).

tests/app/play/test_position_cache.py checks the count against what tracemalloc finds the
cache alone keeping alive (the engines' memos emptied), for every game and option. For
watched 4-player Ishtar games the count is 1.03 times what is held on a random layout
(641 KiB a game), 1.49 times on the preset (180 KiB a game; the preset's geometry, counted
once, is also kept by the engine's memo); counting each version whole, it was 1.15 and
1.92 times. A watched 2-player game on the preset is counted at about 150 KiB (201 KiB
before), so the default bound, 512 MiB, holds some 3,400 of them. Before issue 33 it was 0.14 times on a
random layout (2.7 MiB a game: the previews memoised per layout hung from the geometry)
and 0.9 times on the preset. A watched 4-player game held 1.3-2 MiB in 8 versions, each with
every audience's whole view as text; now three versions are held, each as the entries of
its views, which it shares with the next version (the same text objects), and only the
latest with its legal actions; a whole view is joined from its entries when a welcome or
a sync sends it. By tracemalloc, a watched 2-player game held 409 KiB with four versions,
two of them whole, and 226 KiB with three, one whole (docs/journal/benchmarks-history.md,
"Second pass"), before the whole views were no longer kept.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from typing import Any

from app.play.protocol import dumps
from app.play.rules import Rules

EMPTY_LIST = "[]"


class Position:
    """The state of a game at `version`, with its views computed on demand, once.

    Each view is kept as its top-level entries, each serialised once: an entry whose value
    is the very object of another audience's view, or of the previous version's view (the
    engine shares the parts of a view that did not change, docs/contract.md), reuses that
    JSON text instead of serialising it again. `changes_json` is what an `update` carries:
    the entries that differ from the previous version's view.
    """

    __slots__ = (
        "_base",
        "_borrowed",
        "_legal",
        "_memoised",
        "_owner",
        "_parts",
        "_stepped",
        "_texts",
        "_trimmed",
        "bytes",
        "current",
        "over",
        "rules",
        "shared",
        "state",
        "version",
    )

    def __init__(
        self,
        rules: Rules[Any, Any],
        version: int,
        state: Any,
        after: Position | None = None,
    ) -> None:
        """`after`: the position whose state one move made `state` from (its
        unchanged parts are shared), if so."""
        self.rules = rules
        self.version = version
        self.state = state
        self.current: int | None = rules.current_player(state)
        self.over: bool = bool(rules.is_over(state))
        self._parts: dict[int | None, dict[str, Part]] = {}
        self._texts: dict[int, Part] = {}  # id(value) -> (value, its JSON text)
        self._legal: str | None = None
        self._trimmed = False  # nothing of its legal actions held since `trim`
        self._memoised = 0  # of `bytes`: what the engine state memoised of its moves
        # Not in `bytes`: the view entries it shares with the version before, counted
        # there while both are held by the same cache (`Positions._hand_on`).
        self._borrowed = 0
        # The state it was made from, until the cache counts it (`Positions.put`): a
        # state made by one move from one held weighs only what the move changed.
        self._base: Any = after.state if after is not None else None
        self._stepped = False  # counted as a step from the version before (`_base`)
        self.bytes = Weights.STATE  # what it holds, by the estimate of `Weights`
        self.shared: tuple[tuple[object, int], ...] = tuple(rules.shared_parts(state))
        """What its state keeps alive with other states (the engine says, optional): each
        object with its bytes, which the cache counts once, not in `bytes`."""
        self._owner: Positions | None = None  # the cache that counts it, while it does

    def _hold(self, size: int) -> None:
        self.bytes += size
        if self._owner is not None:
            self._owner.grew(size)

    def trim(self) -> None:
        """Forget the legal actions (kept: the entries of the views,
        which the next version shares and compares with), and what the engine memoised
        about this state's moves, if it says how (`forget_legal`, optional). Once done,
        nothing is left to forget until its legal actions are asked for again: each move
        trims the versions kept before it, and asks the engine nothing for them."""
        if self._trimmed:
            return
        self._trimmed = True
        freed = 0
        if self._legal is not None:
            freed += sys.getsizeof(self._legal)
        self._legal = None
        if self.rules.forgets_legal:
            self.rules.forget_legal(self.state)
            freed += self._memoised
            self._memoised = 0
        self._hold(-freed)

    def parts(
        self, seat: int | None, before: Position | None = None
    ) -> dict[str, Part]:
        """The entries of `view_for(state, seat)`, each with its JSON text."""
        parts = self._parts.get(seat)
        if parts is not None:
            return parts
        view: dict[str, Any] = self.rules.view_for(self.state, seat)
        earlier = before._parts.get(seat) if before is not None else None
        # An entry shared with the version before is counted by the oldest version held
        # that has it (`Positions._release` hands the count on), so only when both are
        # held by the same cache may this one leave it uncounted.
        counted_there = (
            before is not None
            and self._owner is not None
            and before._owner is self._owner
        )
        texts = self._texts
        parts = {}
        size = Weights.VIEW + Weights.ENTRY * len(view)  # the entries' slots
        borrowed = 0
        if earlier is None:
            earlier = {}
        for key, value in view.items():
            part = texts.get(id(value))
            if part is None or part[0] is not value:
                old = earlier.get(key)
                if old is not None and old[0] is value:
                    part = old
                    if counted_there:
                        borrowed += part[2]
                    else:
                        size += part[2]
                else:
                    part = new_part(value)
                    size += part[2]
                texts[id(value)] = part  # kept alive here, so its id stays unique
            parts[key] = part
        self._parts[seat] = parts
        self._borrowed += borrowed
        self._hold(size)
        return parts

    def view_json(self, seat: int | None) -> str:
        """`view_for(state, seat)` as JSON text (seat None: the public view).

        Joined from the entries' texts at each call, not kept: only a welcome or a sync
        sends a whole view, and the message it goes into is a copy of its own. Kept, the
        text was a third of a 2-player room's position (11 KB an audience)."""
        return _object_json(self.parts(seat))

    def changes_json(self, seat: int | None, before: Position) -> str:
        """The entries of the view that differ from `before`'s, as a JSON object."""
        mine = self.parts(seat, before)
        theirs = before.parts(seat)
        changed = {
            key: part
            for key, part in mine.items()
            if (old := theirs.get(key)) is None
            or (old[0] is not part[0] and old[1] != part[1])
        }
        for key in theirs.keys() - mine.keys():  # an entry gone from the view
            changed[key] = GONE
        return _object_json(changed)

    def view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = self.rules.view_for(self.state, seat)
        return view

    def legal(self) -> list[dict[str, Any]]:
        """Every legal action of the seat to act, with its public preview."""
        self._trimmed = False  # the engine may have memoised them
        return list(self.rules.legal_with_previews(self.state))

    def legal_json(self, seat: int | None) -> str:
        """The legal actions as JSON text for `seat`: empty unless it is that seat's turn."""
        if seat is None or seat != self.current or self.over:
            return EMPTY_LIST
        if self._legal is None:
            self._trimmed = False
            rules = self.rules
            self._legal = rules.legal_json(self.state, dumps)
            text = sys.getsizeof(self._legal)
            if rules.memoises_legal and rules.forgets_legal:
                # What the engine memoised to make the text (the list, its entries, the
                # placements: 7-7.5 times the text for Ishtar) goes at once: only the
                # text is sent again. At 1,000 live rooms, counted, it made the games
                # outgrow the cache, which then rebuilt them from the database between
                # moves (docs/journal/benchmarks-history.md, "The serving core, third pass").
                rules.forget_legal(self.state)
            elif rules.memoises_legal:
                # The engine keeps the list it made the text from.
                self._memoised += text * Weights.LEGAL_PER_TEXT_BYTE
                text += text * Weights.LEGAL_PER_TEXT_BYTE
            self._hold(text)
        return self._legal

    def encoded(self) -> str:
        """The full state (hidden information included) for the database, never for clients."""
        return dumps(self.rules.encode_state(self.state))


Part = tuple[Any, str, int]
"""A value of a view, its JSON text, and what the two hold besides the entry's slot,
weighed once (`new_part`)."""
GONE: Part = (None, "null", 0)  # an entry that left the view


def new_part(value: Any) -> Part:
    """An entry of a view with its JSON text, weighed."""
    text = dumps(value)
    size = sys.getsizeof(text)
    return (value, text, size * Weights.VALUE_PER_TEXT_BYTE + size)


_KEYS: dict[str, str] = {}  # a view's keys as JSON strings


def _key_json(key: str) -> str:
    text = _KEYS.get(key)
    if text is None:
        text = dumps(key)
        if len(_KEYS) < 4096:
            _KEYS[key] = text
    return text


def _object_json(parts: dict[str, Part]) -> str:
    items = ",".join([f"{_key_json(key)}:{part[1]}" for key, part in parts.items()])
    return "{" + items + "}"


class Weights:
    """The estimate of what a position holds, besides its JSON texts (counted as allocated).

    Measured with tracemalloc on 4-player games of the largest views watched by every audience
    (tests/app/play/test_position_cache.py), rounded up: the count must never be below the
    memory really held, or the bound would not hold.
    """

    STATE = 32 << 10
    """A decoded engine state (a 4-player Ishtar one: 31-34 KiB by tracemalloc, its
    layout's geometry apart)."""
    STATE_STEP = 12 << 10
    """A state made by one move from another that the cache holds: what it does not share
    with it. Measured with tracemalloc, three consecutive states against the last alone:
    3.8-6.9 KiB for Ishtar (2 and 4 players, either layout), 0.7 for Babylon Gardens;
    rounded up so that the whole count stays over what the cache holds (1.03-1.05 times
    it for 4-player Ishtar, tests/app/play/test_position_cache.py)."""
    VALUE_PER_TEXT_BYTE = 1
    """The Python objects of a view's entry, per byte of its JSON text."""
    LEGAL_PER_TEXT_BYTE = 8
    """What an engine that makes the legal list's JSON itself (`legal_json`, optional)
    memoises with it in the state (the list, its previews, the text of each entry, the
    placements), per byte of the text: 7-7.5 times it for Ishtar's, on either layout
    (issue 33: uncounted until then, and kept alive with the layout's memo)."""
    ENTRY = 160
    """An entry of a view: its slot, its (value, text) pair."""
    VIEW = 400
    """The dicts of one audience's view."""


class Positions:
    """The most recent positions of the most recently used games, within `max_bytes`."""

    FULL_VERSIONS = 1
    """Versions of a game that keep their legal actions: the latest, which welcomes
    send. An update is built whole when it is fanned out, and needs of the version
    before only the entries of its views (kept by every version held)."""

    DEPTH = 3
    """Versions held per game: the latest, the one before (what an update is the change
    from), and one more for a publisher a move behind its room's commits."""

    def __init__(self, max_bytes: int = 512 << 20, depth: int = DEPTH) -> None:
        self._games: OrderedDict[int, OrderedDict[int, Position]] = OrderedDict()
        self._shared: dict[int, Shared] = {}
        """What the positions held share (`Position.shared`), by id: counted once each."""
        self.max_bytes = max_bytes
        self.bytes = 0
        self._depth = depth

    def __len__(self) -> int:
        """The number of games held."""
        return len(self._games)

    def get(self, game_id: int, version: int) -> Position | None:
        history = self._games.get(game_id)
        if history is None:
            return None
        self._games.move_to_end(game_id)
        return history.get(version)

    def latest(self, game_id: int) -> Position | None:
        history = self._games.get(game_id)
        if not history:
            return None
        return history[next(reversed(history))]

    def put(self, game_id: int, position: Position) -> Position:
        history = self._games.get(game_id)
        if history is None:
            history = self._games[game_id] = OrderedDict()
        self._games.move_to_end(game_id)
        replaced = history.get(position.version)
        if replaced is not None and replaced is not position:
            del history[position.version]
            self._release(replaced, history)
        history[position.version] = position
        history.move_to_end(position.version)
        base, position._base = position._base, None
        if position._owner is not self:
            # Held again after its game was dropped: what it borrowed from versions no
            # longer counted is its own to count now.
            position.bytes += position._borrowed
            position._borrowed = 0
            position._stepped = False
            previous = history.get(position.version - 1)
            if base is not None and previous is not None and previous.state is base:
                step = Weights.STATE - Weights.STATE_STEP
                position.bytes -= step
                position._borrowed += step
                position._stepped = True
            position._owner = self
            self.grew(position.bytes + self._share(position))
        while len(history) > self._depth:
            self._release(history.popitem(last=False)[1], history)
        for older, kept in enumerate(reversed(history.values())):
            if older >= self.FULL_VERSIONS:
                kept.trim()
        return position

    def grew(self, size: int) -> None:
        """A position of ours holds `size` bytes more (or fewer): drop the least recently
        used games while over the bound (never the one in use, the most recent)."""
        self.bytes += size
        while self.bytes > self.max_bytes and len(self._games) > 1:
            _game, history = self._games.popitem(last=False)
            for position in history.values():
                self._release(position)

    def _share(self, position: Position) -> int:
        """Count `position` as a holder of what it shares; the bytes new to the cache."""
        new = 0
        for thing, size in position.shared:
            shared = self._shared.get(id(thing))
            if shared is None:
                self._shared[id(thing)] = Shared(thing, size)
                new += size
            else:
                shared.holders += 1
        return new

    def _release(
        self, position: Position, kept: OrderedDict[int, Position] | None = None
    ) -> None:
        """Stop counting `position`; `kept`: the versions of its game still held, which
        take over the count of the view entries they share with it."""
        if kept:
            self._hand_on(position, kept)
        position._owner = None
        self.bytes -= position.bytes
        for thing, _size in position.shared:
            shared = self._shared[id(thing)]
            shared.holders -= 1
            if shared.holders == 0:
                del self._shared[id(thing)]
                self.bytes -= shared.size

    @staticmethod
    def _hand_on(position: Position, kept: OrderedDict[int, Position]) -> None:
        """Each view entry is counted by the oldest version held that has it (a later
        version borrows the entries of the one before that did not change,
        `Position.parts`). Before `position` goes, the oldest later version holding each
        entry it counted takes the entry's count over."""
        older = [p for p in kept.values() if p.version < position.version]
        later = sorted(
            (p for p in kept.values() if p.version > position.version),
            key=lambda p: p.version,
        )
        if not later:
            return
        heir = kept.get(position.version + 1)
        if heir is not None and heir._stepped:  # its state now weighs whole
            step = min(Weights.STATE - Weights.STATE_STEP, heir._borrowed)
            position.bytes -= step
            heir.bytes += step
            heir._borrowed -= step
            heir._stepped = False
        older_texts = [p._texts for p in older]
        for key, part in position._texts.items():
            if older_texts and any(texts.get(key) is part for texts in older_texts):
                continue  # counted by an older version, which stays
            for heir in later:
                if heir._texts.get(key) is part:
                    # At most what the heir left uncounted: one that counted the entry
                    # itself (its parts made while either was not held) needs nothing.
                    # The cache's total stays as it is.
                    size = min(part[2], heir._borrowed)
                    position.bytes -= size
                    heir.bytes += size
                    heir._borrowed -= size
                    break

    def advance(
        self, game_id: int, action: dict[str, Any], version: int
    ) -> Position | None:
        """The position at `version` by applying a logged `action` to the one before, if known."""
        known = self.get(game_id, version)
        if known is not None:
            return known
        before = self.get(game_id, version - 1)
        if before is None:
            return None
        rules = before.rules
        state = rules.apply(before.state, rules.decode_action(action))
        return self.put(game_id, Position(rules, version, state, after=before))


class Shared:
    """Something positions share (a layout's geometry), the number held, its bytes."""

    __slots__ = ("holders", "size", "thing")

    def __init__(self, thing: object, size: int) -> None:
        self.thing = thing  # kept, so that its id stays unique while counted
        self.holders = 1
        self.size = size


def catalogue_colours(rules: Rules[Any, Any]) -> list[str | None]:
    """The colour of each seat, from the engine's catalogue (as the room status names them)."""
    try:
        catalogue = rules.catalogue()
    except Exception:
        return []
    colours = catalogue.get("player_colours", catalogue.get("colours"))
    if isinstance(colours, list):
        return [c if isinstance(c, str) else None for c in colours]
    if isinstance(colours, dict):
        return [str(c) for c in colours]
    return []
