"""Hypothesis state machine over the room websocket: many seats and spectators, hostile input.

Each example opens a fresh room on one live server with 2–4 seats and 0–3 spectators, then
interleaves legal moves with random, malformed, oversized, stale, out-of-turn, duplicated,
spectator and back-to-back (concurrent) messages, reconnects and oversized frames. The model
is the engine itself, replayed from the stored set-up. Required throughout:

- every message to every connection passes `tests.fuzz.audit` (nothing hidden is sent; views
  and legal actions are exactly the engine's for that viewer and version);
- a refused message gets an error with a code and changes nothing: no update reaches anyone,
  and the version over HTTP stays put;
- on every connection, the `version` of each message is at least that of every message
  before it (docs/protocol.md, "Versions on a connection");
- the server never closes a connection it should keep, and never answers 5xx;
- after every step, the database holds exactly the accepted moves, its snapshot equals the
  model's state at the snapshot's version, replaying the log reproduces the snapshot, and
  the engine's invariants (tests/engine/ishtar/invariants.py) hold on the stored and current state.
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from engine import ishtar
from tests.chaos.ledger import canonical
from tests.engine.ishtar.invariants import check_all
from tests.fuzz.audit import Audit, expected_legal
from tests.fuzz.wire import Line, Predicate
from tests.support.examples import examples
from tests.support.live import LiveServer

pytestmark = pytest.mark.slow

MAX_BYTES = 16384
FUZZ_ENV = {  # the rate limits have tests of their own (tests/security)
    "ISHTAR_WS_MESSAGES_PER_S": "100000",
    "ISHTAR_WS_BURST": "100000",
    "ISHTAR_ROOMS_PER_MINUTE": "100000",
    "ISHTAR_WS_HELLO_BURST": "100000",
}
REFUSED = {"malformed", "unknown_type", "malformed_action", "illegal_move", "too_large"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
actionish = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["choose", "place", "discard", "pass", "skill", "plant", "end"]
        )
    },
    optional={
        "pile": st.integers(-2, 8),
        "pay": st.lists(
            st.sampled_from(["purple", "red", "white", "gold"]), max_size=3
        ),
        "at": st.lists(st.integers(-8, 8), min_size=0, max_size=3),
        "rotation": st.integers(-1, 7),
        "skill": st.text(max_size=2),
        "card": st.integers(-1, 40),
    },
)


def is_kind(kind: str, **fields: Any) -> Predicate:
    return lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items())


class Database:
    """One asyncpg connection on a loop of its own thread, for blocking reads per step."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
        self.conn = self.run(asyncpg.connect(dsn))

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=30)

    def setup(self, room_id: str) -> dict[str, Any]:
        row = self.run(
            self.conn.fetchrow(
                "SELECT setup, seed FROM games WHERE room_id = $1", room_id
            )
        )
        setup = dict(json.loads(row["setup"]))
        setup.setdefault("seed", row["seed"])
        return setup

    def log(self, room_id: str) -> tuple[int, int, Any, list[tuple[str, Any]]]:
        game = self.run(
            self.conn.fetchrow(
                "SELECT id, version, snapshot, snapshot_version FROM games"
                " WHERE room_id = $1",
                room_id,
            )
        )
        moves = self.run(
            self.conn.fetch(
                "SELECT move_id, action FROM moves WHERE game_id = $1 ORDER BY seq",
                game["id"],
            )
        )
        snapshot = json.loads(game["snapshot"])
        log = [(m[0], json.loads(m[1])) for m in moves]
        # The snapshot is written every few moves, after them, and with the last one
        # (app/play/snapshots.py): it is the state after the first snapshot_version moves.
        return game["version"], game["snapshot_version"], snapshot, log

    def close(self) -> None:
        self.run(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()


class Monotone(Line):
    """A line that also checks that versions never go down on its connection."""

    def __init__(
        self, url: str, seat: int | None, token: str | None, audit: Audit
    ) -> None:
        super().__init__(url, seat, token, audit)
        self.highest: int | None = None

    def receive(self) -> dict[str, Any]:
        message = super().receive()
        version = message.get("version")
        if version is not None:
            assert self.highest is None or version >= self.highest, (
                f"seat {self.seat}: version {version} after {self.highest}: "
                f"{list(self.history)}"
            )
            self.highest = version
        return message


class ProtocolMachine(RuleBasedStateMachine):
    base: str = ""
    db: Database

    def __init__(self) -> None:
        super().__init__()
        self.http = httpx.Client(base_url=self.base, timeout=30)
        self.lines: list[Line] = []
        self.players = 0
        self.acked: dict[
            str, tuple[int, int, dict[str, Any]]
        ] = {}  # id -> seat, version, move

    # -- set-up ------------------------------------------------------------------------

    @initialize(players=st.integers(2, 4), spectators=st.integers(0, 3))
    def open_room(self, players: int, spectators: int) -> None:
        created = (
            self.http.post(
                "/api/rooms",
                json={"players": players, "name": "p0", "seat_order": "fixed"},
            )
            .raise_for_status()
            .json()
        )
        self.room_id, tokens = created["room_id"], [created["token"]]
        for seat in range(1, players):
            joined = self.http.post(
                f"/api/rooms/{self.room_id}/seats",
                json={"name": f"p{seat}", "seat": seat},
            )
            tokens.append(joined.raise_for_status().json()["token"])
        auth = {"Authorization": f"Bearer {created['host_token']}"}
        self.http.post(
            f"/api/rooms/{self.room_id}/start", headers=auth
        ).raise_for_status()
        self.players = players
        self.audit = Audit(
            self.db.setup(self.room_id),
            [*tokens, created["host_token"]],
        )
        url = self.base.replace("http://", "ws://") + f"/ws/rooms/{self.room_id}"
        self.url = url
        for seat in [*range(players), *[None] * spectators]:
            line = Monotone(
                url, seat, None if seat is None else tokens[seat], self.audit
            )
            welcome = line.hello(None)
            assert welcome["version"] == 0
            assert welcome["you"]["seat"] == seat
            self.lines.append(line)

    def teardown(self) -> None:
        for line in self.lines:
            line.close()
        self.http.close()

    # -- helpers -----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return ishtar.is_over(self.audit.state)

    @property
    def current(self) -> int:
        seat = ishtar.current_player(self.audit.state)
        assert seat is not None
        return seat

    def legal(self, pick: int) -> dict[str, Any]:
        options = expected_legal(self.audit.state, self.current)
        return dict(options[pick % len(options)]["action"])

    def spectators(self) -> list[Line]:
        return [line for line in self.lines if line.seat is None]

    def move(self, line: Line, move: Any, version: Any, move_id: Any = None) -> str:
        move_id = move_id or uuid.uuid4().hex
        line.send(
            {
                "type": "move",
                "move": move,
                "expected_version": version,
                "move_id": move_id,
            }
        )
        return str(move_id)

    def accepted(
        self,
        sender: Line,
        move_id: str,
        move: dict[str, Any],
        also: dict[int, list[Predicate]] | None = None,
    ) -> None:
        """The move was accepted: ack to the sender, the update to everyone, and `also`
        (line index -> more messages that line gets meanwhile), in any order."""
        version = self.audit.version + 1
        self.audit.applied(move)
        for index, line in enumerate(self.lines):
            update = is_kind("update", version=version)
            wanted, optional = [update], []
            if line is sender:
                wanted.append(is_kind("ack", move_id=move_id, version=version))
            extra = (also or {}).get(index, [])
            if any(p({"type": "sync", "version": version}) for p in extra):
                # A stale_version's sync at this version replaces the update (protocol:
                # the sync carries the missed events); an update may still come first.
                wanted.remove(update)
                optional.append(update)
            for message in line.expect_all(wanted + extra, optional):
                if message["type"] == "update":
                    assert message["event"]["seq"] == version
                    assert canonical(message["event"]["action"]) == canonical(move)
        self.acked[move_id] = (sender.seat or 0, version, move)

    def refused(self, line: Line, codes: set[str], move_id: str | None = None) -> str:
        error = line.expect(lambda m: m["type"] == "error", f"an error in {codes}")
        assert error["code"] in codes, error
        assert error.get("reason")
        if move_id is not None and error["code"] != "malformed":
            # (a message too malformed to read is answered without its move_id)
            assert error.get("move_id") == move_id
        if error["code"] == "stale_version":
            line.expect(is_kind("sync", version=self.audit.version), "sync after stale")
        return str(error["code"])

    # -- rules -------------------------------------------------------------------------

    @precondition(lambda self: self.lines and not self.over)
    @rule(pick=st.integers(0, 10**6))
    def legal_move(self, pick: int) -> None:
        line, move = self.lines[self.current], self.legal(pick)
        self.accepted(line, self.move(line, move, self.audit.version), move)

    @precondition(lambda self: self.acked)
    @rule(pick=st.integers(0, 10**6), shift=st.integers(-3, 3), other=st.booleans())
    def duplicate(self, pick: int, shift: int, other: bool) -> None:
        move_id = sorted(self.acked)[pick % len(self.acked)]
        seat, version, move = self.acked[move_id]
        payload = {"type": "pass"} if other else move  # the id decides, not the body
        self.move(
            self.lines[seat], payload, max(0, self.audit.version + shift), move_id
        )
        ack = self.lines[seat].expect(is_kind("ack", move_id=move_id), "a repeated ack")
        assert ack["seq"] == version, "the version the move produced"
        assert ack["version"] == self.audit.version, "the connection's version"
        assert ack["duplicate"] is True

    @precondition(lambda self: self.acked and self.players > 1)
    @rule(pick=st.integers(0, 10**6), other=st.integers(1, 3))
    def move_id_of_another_seat(self, pick: int, other: int) -> None:
        """A move_id another seat used is refused with its own code, whatever the move."""
        move_id = sorted(self.acked)[pick % len(self.acked)]
        seat = (self.acked[move_id][0] + other) % self.players
        if seat == self.acked[move_id][0]:
            return
        mine = not self.over and seat == self.current
        move = self.legal(pick) if mine else {"type": "pass"}
        self.move(self.lines[seat], move, self.audit.version, move_id)
        self.refused(self.lines[seat], {"move_id_taken"}, move_id)

    @precondition(lambda self: self.lines)
    @rule(who=st.integers(0, 6), back=st.integers(0, 200), fresh=st.booleans())
    def hello_again(self, who: int, back: int, fresh: bool) -> None:
        """A second hello on an open connection is answered with a welcome."""
        line = self.lines[who % len(self.lines)]
        since = None if fresh else max(0, self.audit.version - back)
        welcome = line.hello(since)
        assert welcome["version"] == self.audit.version
        assert welcome["you"]["seat"] == line.seat
        if since is not None:
            assert [e["seq"] for e in welcome["events"]] == list(
                range(since + 1, self.audit.version + 1)
            )

    @precondition(lambda self: self.lines and not self.over)
    @rule(pick=st.integers(0, 10**6), shift=st.integers(1, 5), ahead=st.booleans())
    def stale(self, pick: int, shift: int, ahead: bool) -> None:
        version = self.audit.version + shift if ahead else self.audit.version - shift
        line = self.lines[self.current]
        move_id = self.move(line, self.legal(pick), version)
        self.refused(
            line, {"stale_version"} if version >= 0 else {"malformed"}, move_id
        )

    @precondition(lambda self: self.lines and not self.over)
    @rule(pick=st.integers(0, 10**6), who=st.integers(1, 3))
    def out_of_turn(self, pick: int, who: int) -> None:
        line = self.lines[(self.current + who) % self.players]
        if line.seat == self.current:
            return
        move_id = self.move(line, self.legal(pick), self.audit.version)
        self.refused(line, {"not_your_turn"}, move_id)

    @precondition(lambda self: self.lines and not self.over)
    @rule(pick=st.integers(0, 10**6), who=st.integers(0, 2))
    def spectator_moves(self, pick: int, who: int) -> None:
        spectators = self.spectators()
        if spectators:
            line = spectators[who % len(spectators)]
            move_id = self.move(line, self.legal(pick), self.audit.version)
            self.refused(line, {"forbidden"}, move_id)

    @precondition(lambda self: self.lines and not self.over)
    @rule(move=json_values | actionish)
    def random_move(self, move: Any) -> None:
        line = self.lines[self.current]
        move_id = self.move(line, move, self.audit.version)
        try:
            legal = (
                ishtar.why_illegal(self.audit.state, ishtar.decode_action(move)) is None
            )
        except (ishtar.IllegalAction, TypeError, ValueError, KeyError, AttributeError):
            legal = False
        if legal:
            action = ishtar.encode_action(ishtar.decode_action(move))
            self.accepted(line, move_id, action)
        else:
            self.refused(
                line, {"malformed", "malformed_action", "illegal_move"}, move_id
            )

    @precondition(lambda self: self.lines)
    @rule(
        who=st.integers(0, 6),
        data=json_values | st.text(max_size=64) | st.binary(max_size=64),
    )
    def garbage(self, who: int, data: Any) -> None:
        line = self.lines[who % len(self.lines)]
        if isinstance(data, dict) and data.get("type") in ("hello", "move", "ping"):
            return  # maybe valid: the other rules cover these
        line.send(data if isinstance(data, str | bytes) else json.dumps(data))
        self.refused(line, {"malformed", "unknown_type"})

    @precondition(lambda self: self.lines)
    @rule(
        who=st.integers(0, 6),
        field=st.sampled_from(["move_id", "move_id_nul", "expected_version", "move"]),
    )
    def bad_fields(self, who: int, field: str) -> None:
        line = self.lines[who % len(self.lines)]
        message: dict[str, Any] = {
            "type": "move",
            "move": {"type": "pass"},
            "expected_version": 0,
            "move_id": "x",
        }
        message[field.removesuffix("_nul")] = {
            "move_id": "y" * 65,
            "move_id_nul": "a\x00b",  # PostgreSQL text cannot hold it: never a 500
            "expected_version": "zero",
            "move": "pass",
        }[field]
        line.send(message)
        code = self.refused(line, {"malformed", "malformed_action", "forbidden"})
        if field == "move_id_nul":
            assert code == "malformed"

    @precondition(lambda self: self.lines)
    @rule(who=st.integers(0, 6), extra=st.integers(1, 20000))
    def oversized(self, who: int, extra: int) -> None:
        line = self.lines[who % len(self.lines)]
        line.send(json.dumps({"type": "ping", "pad": "x" * (MAX_BYTES + extra)}))
        self.refused(line, {"too_large"})

    @precondition(lambda self: self.lines and not self.over)
    @rule(pick=st.integers(0, 10**6), who=st.integers(0, 6))
    def double_click(self, pick: int, who: int) -> None:
        """The seat to act sends one move twice under two ids, while another line chatters."""
        sender = self.current
        line, move, version = self.lines[sender], self.legal(pick), self.audit.version
        first, second = self.move(line, move, version), self.move(line, move, version)
        chatter = who % len(self.lines)
        also: dict[int, list[Predicate]] = {sender: []}
        if chatter != sender:
            self.lines[chatter].send("not json")
            also[chatter] = [is_kind("error", code="malformed")]
        after = ishtar.apply(self.audit.state, ishtar.decode_action(move))
        if ishtar.is_over(after):  # judged before the version: "the game is over"
            also[sender].append(is_kind("error", move_id=second, code="game_over"))
        else:
            also[sender].append(is_kind("error", move_id=second, code="stale_version"))
            also[sender].append(is_kind("sync", version=version + 1))
        self.accepted(line, first, move, also)

    @precondition(lambda self: self.lines)
    @rule(who=st.integers(0, 6), back=st.integers(0, 200), fresh=st.booleans())
    def reconnect(self, who: int, back: int, fresh: bool) -> None:
        index = who % len(self.lines)
        old = self.lines[index]
        old.close()
        line = Monotone(self.url, old.seat, old.token, self.audit)
        since = None if fresh else max(0, self.audit.version - back)
        welcome = line.hello(since)
        assert welcome["version"] == self.audit.version
        if since is not None:
            assert [e["seq"] for e in welcome["events"]] == list(
                range(since + 1, self.audit.version + 1)
            )
        self.lines[index] = line

    @precondition(lambda self: self.lines)
    @rule(who=st.integers(0, 6))
    def ping(self, who: int) -> None:
        line = self.lines[who % len(self.lines)]
        line.send({"type": "ping"})
        while True:  # pong is noise to `expect`: read it here
            message = line.receive()
            if message["type"] == "pong":
                assert message["version"] == self.audit.version
                return

    @invariant()
    def nothing_changed_behind_our_back(self) -> None:
        """Over HTTP and in the database: exactly the accepted moves, nothing else."""
        if not self.lines:
            return
        response = self.http.get(f"/api/rooms/{self.room_id}/view")
        assert response.status_code == 200, response.text
        assert response.json()["version"] == self.audit.version
        self.audit.check(response.text, None)
        version, upto, snapshot, moves = self.db.log(self.room_id)
        assert version == self.audit.version
        assert [m[0] for m in moves] == sorted(
            self.acked, key=lambda k: self.acked[k][1]
        )
        expected = ishtar.encode_state(self.audit.states[upto])
        assert canonical(snapshot) == canonical(expected)
        replayed = ishtar.replay(self.audit.setup, [m[1] for m in moves[:upto]])
        assert canonical(ishtar.encode_state(replayed)) == canonical(snapshot)
        # the engine's invariants (conservation of gems, trees, assistants, tokens;
        # gardens; hidden information) on the stored state and on the current one
        check_all(ishtar.decode_state(snapshot))
        check_all(self.audit.state)


def test_protocol_state_machine(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(database_url=database_url, env=FUZZ_ENV)
    ProtocolMachine.base, ProtocolMachine.db = server.url, Database(database_url)
    try:
        run_state_machine_as_test(
            ProtocolMachine,
            settings=settings(
                max_examples=examples(25),
                stateful_step_count=30,
                deadline=None,
                derandomize=True,
                # Shrinking against a live server takes minutes; the steps are printed anyway.
                phases=[Phase.explicit, Phase.reuse, Phase.generate],
                suppress_health_check=list(HealthCheck),
            ),
        )
    finally:
        ProtocolMachine.db.close()
