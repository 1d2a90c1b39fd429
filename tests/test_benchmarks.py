"""The benchmark scripts keep working: each runs a small load end to end and prints its JSON.

Their figures are for docs/benchmarks.md, not for assertions (the machine is shared): these
tests check only that every documented key is there, that no move failed and that every
game was played to its end.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

from bench.rawws import BROWSER, LEAN, Deflate, LeanClient, open_lean, parse_deflate

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def run_json(
    *argv: str, database: str | None = None, timeout: float = 300
) -> dict[str, object]:
    """Run a benchmark with `--json`; its report. `database`: the admin URL of a running
    PostgreSQL for it to make its databases on (the test session's, `postgres`), instead of
    starting an embedded one of its own (about 10 s on a loaded machine)."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    if database is not None:
        env["DATABASE_URL"] = database
    done = subprocess.run(
        [sys.executable, "-m", *argv, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_load_benchmark_plays_complete_games_against_us_and_the_floor(
    postgres: str,
) -> None:
    result = run_json(
        "bench.load", "--rooms", "2", "--spectators", "1", database=postgres
    )
    for key in (
        "moves_per_s",
        "p99_ms",
        "floor_moves_per_s",
        "floor_p99_ms",
        "ratio_moves_per_s",
        "errors",
    ):
        assert key in result, key
    assert result["errors"] == 0
    detail = result["detail"]
    assert isinstance(detail, dict)
    assert detail["ishtar"]["games_over"] == 2, "both rooms played to the end"
    assert detail["ishtar"]["error_kinds"] == {}
    # browser-like by default: all 6 sockets (4 players, 2 spectators) negotiated
    # compression with both servers, and the spectators inflated what they received
    assert result["client"] == "browser"
    for name in ("ishtar", "floor"):
        assert detail[name]["extensions"] == {"permessage-deflate": 6}, name
        assert detail[name]["spectator_messages_compressed"] > 0, name
    assert isinstance(result["moves_per_s"], float) and result["moves_per_s"] > 0
    assert isinstance(result["floor_moves_per_s"], float)
    assert result["floor_moves_per_s"] > 0


def test_the_load_benchmark_plays_babylon_gardens_rooms_to_their_end(
    postgres: str,
) -> None:
    result = run_json(
        "bench.load",
        "--game",
        "babylon-gardens",
        "--rooms",
        "2",
        "--spectators",
        "1",
        "--target",
        "ishtar",
        database=postgres,
    )
    assert result["errors"] == 0
    detail = result["detail"]
    assert isinstance(detail, dict)
    assert detail["plan"]["game"] == "babylon-gardens"
    assert detail["ishtar"]["games_over"] == 2, "both rooms played to the end"
    assert detail["ishtar"]["moves"] > 0


def test_the_engine_benchmark_reports_its_figures() -> None:
    result = run_json("bench.engine", "--games", "2", "--positions", "20")
    for key in ("legal_actions_p99_ms", "apply_p50_ms", "games_per_s"):
        assert key in result, key


def test_the_per_move_benchmark_times_every_part_of_a_move() -> None:
    result = run_json("bench.permove", "--games", "2", "--players", "3")
    parts = ("judge", "view_for", "parts", "changes", "legal", "legal_json")
    assert result["games"] == 2 and result["players"] == 3
    moves = result["moves"]
    assert isinstance(moves, int) and moves > 2 * 30, "two whole games"
    for part in parts:
        value = result[f"{part}_us"]
        assert isinstance(value, float) and value > 0, part
    total = sum(float(result[f"{part}_us"]) for part in parts)  # type: ignore[arg-type]
    assert abs(float(result["total_us"]) - total) < 1  # type: ignore[arg-type]


def test_the_commit_benchmark_measures_every_way_of_writing_a_move(
    postgres: str,
) -> None:
    result = run_json(
        "bench.commits",
        "--seconds",
        "0.3",
        "--clients",
        "1,4",
        "--repeat",
        "1",
        database=postgres,
    )
    rows = result["rows"]
    assert isinstance(rows, list)
    assert {(row["mode"], row["clients"]) for row in rows} == {
        (mode, clients)
        for mode in ("plain", "notify_in_tx", "notify_after")
        for clients in (1, 4)
    }
    for row in rows:
        assert row["commits_per_s"] > 0, row
        if row["mode"] != "plain":
            assert row["notices_heard"] > 0, "a listener heard the notices"


def test_the_scale_benchmark_plays_paced_rooms_and_measures_the_server(
    postgres: str,
    tmp_path: Path,
) -> None:
    heap_dir = tmp_path / "heap"
    result = run_json(
        "bench.scale",
        "--rooms",
        "3",
        "--seconds",
        "2",
        "--think",
        "0.05-0.1",
        "--rest",
        "0.5",
        *("--warmup", "0.5", "--settle", "0.3", "--cycles", "3"),
        *("--heap", str(heap_dir), "--target", "ishtar"),
        database=postgres,
    )
    runs = result["runs"]
    assert isinstance(runs, list) and [r["cycle"] for r in runs] == [1, 2, 3]
    assert all(r["errors"] == 0 for r in runs), [r["error_kinds"] for r in runs]
    run = runs[0]
    assert run["rooms"] == 3 and run["connections"] == 12
    assert run["errors"] == 0, run["error_kinds"]
    assert run["moves"] > 0
    for key in (
        "p50_ms",
        "p99_ms",
        "rss_start_mb",
        "rss_loaded_mb",
        "rss_after_mb",
        "kb_per_room",
        "kb_per_connection",
        "server_cpu_ms_per_move",
        "pg_cpu_ms_per_move",
    ):
        assert isinstance(run[key], float), key
    assert run["rss_start_mb"] > 0 and run["rss_after_mb"] > 0
    assert run["fds_connected"] >= run["fds_start"] + 12, "every socket was open"
    # the window's full collections are some of the server's whole life's, in order
    window, life = run["full_collections_in_window_ms"], run["full_collections_ms"]
    assert isinstance(window, list) and all(isinstance(ms, int) for ms in window)
    assert any(life[i : i + len(window)] == window for i in range(len(life) + 1))
    targets = result["targets"]
    assert isinstance(targets, dict)
    assert {"p99_ratio_met", "kb_per_room_met", "after_met", "errors_met"} <= set(
        targets
    )
    # three cycles on one server: the third's RSS after, against the second's
    after = [r["rss_after_mb"] for r in runs]
    growth = after[2] / after[1] - 1
    assert targets["cycle_growth"] == {"3": round(growth, 3)}
    assert targets["cycle_added_mb"] == {
        "3": [round(after[1] - after[0], 1), round(after[2] - after[1], 1)]
    }
    assert targets["cycle_growth_met"] == (growth <= 0.10)
    # a traced heap at each phase of each cycle, readable by bench.heap
    phases = ("start", "connected", "played", "after")
    names = {f"3-c{c}-{p}.snap" for c in (1, 2, 3) for p in phases}
    assert {f.name for f in heap_dir.iterdir()} == names
    done = subprocess.run(
        [sys.executable, "-m", "bench.heap", "--per", "3"]
        + [str(heap_dir / f"3-c1-{p}.snap") for p in ("start", "connected")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.startswith("grown in all:") and "bytes per 3" in done.stdout


SCALE_SMOKE = (
    *("bench.scale", "--rooms", "2", "--seconds", "2", "--think", "0.05-0.1"),
    *("--rest", "0.5", "--warmup", "0.5", "--settle", "0.3"),
)


def test_the_scale_benchmark_plays_ours_and_the_floor_with_browser_sockets(
    postgres: str,
) -> None:
    """Ours as two worker processes (`ishtar serve --workers 2`), measured as one."""
    result = run_json(*SCALE_SMOKE, "--workers", "2", database=postgres)
    plan = result["plan"]
    assert isinstance(plan, dict) and plan["workers"] == 2
    runs = result["runs"]
    assert isinstance(runs, list)
    assert [(r["target"], r["client"]) for r in runs] == [
        ("ishtar", "browser"),
        ("floor", "browser"),
    ]
    for run in runs:
        assert run["errors"] == 0, (run["target"], run["error_kinds"])
        assert run["undelivered"] == 0, run["target"]
        assert run["moves"] > 0, run["target"]
        # nothing went wrong, so no move reached a client by `sync`; the server's
        # reasons are reported (none counted at its last heartbeat, if it beat)
        assert run["syncs"] == 0, (run["target"], run["sync_reasons"])
        assert isinstance(run["sync_reasons"], dict)
        # every socket negotiated permessage-deflate, and what came compressed was
        # inflated into messages the players and spectators understood (moves counted)
        assert run["deflate_sockets"] == run["connections"] == 8, run["target"]
        assert run["messages_compressed"] > 0, run["target"]
        assert run["rx_window_kb_per_socket"] > 0, run["target"]
        assert run["inflated_bytes_per_update"] > run["rx_bytes_per_update"] > 0
    rows = result["against_floor"]
    assert isinstance(rows, list)
    (row,) = rows
    assert row["n"] == 2 and row["errors"] == 0 and row["floor_errors"] == 0
    for key in ("p50_ms", "p99_ms", "kb_per_room", "kb_per_connection"):
        assert key in row and f"floor_{key}" in row and f"ratio_{key}" in row, key
    assert row["undelivered"] == 0 and row["floor_undelivered"] == 0


def test_the_largest_rooms_search_plays_one_and_two_workers(postgres: str) -> None:
    """bench.largest runs bench.scale for each number of workers, and two rooms are held
    by both (the bound lifted: a smoke never judges a time)."""
    result = run_json(
        *("bench.largest", "--rooms", "2", "--workers", "1,2", "--repeat", "1"),
        *("--seconds", "2", "--p99-ms", "1000000", "--json", "--", *SCALE_SMOKE[5:]),
        database=postgres,
    )
    rows = result["rows"]
    assert isinstance(rows, list)
    assert [(r["rooms"], r["workers"]) for r in rows] == [(2, 1), (2, 2)]
    assert all(r["undelivered"] == 0 and r["errors"] == 0 for r in rows), rows
    assert result["largest"] == {"1": 2, "2": 2}


def test_the_scale_benchmark_lean_sockets_offer_no_compression(postgres: str) -> None:
    result = run_json(
        *SCALE_SMOKE,
        "--client",
        "lean",
        "--target",
        "floor",
        "--floor-pad",
        "2000",
        database=postgres,
    )
    runs = result["runs"]
    assert isinstance(runs, list)
    (run,) = runs
    assert run["target"] == "floor" and run["client"] == "lean"
    assert run["errors"] == 0, run["error_kinds"]
    assert run["moves"] > 0
    assert run["deflate_sockets"] == 0 and run["messages_compressed"] == 0
    assert run["messages"] > 0
    # the floor's updates carried a view of about 2,000 bytes, uncompressed on the wire
    assert run["rx_bytes_per_update"] > run["inflated_bytes_per_update"] > 2000
    assert result["against_floor"] == []  # nothing of ours to compare


def test_the_scale_benchmark_measures_idle_sockets_on_ours_and_the_floor(
    postgres: str,
) -> None:
    result = run_json(
        *("bench.scale", "--idle", "8", "--seconds", "1", "--warmup", "0.5"),
        *("--settle", "0.3", "--idle-ping", "0.25"),
        database=postgres,
    )
    runs = result["runs"]
    assert isinstance(runs, list)
    assert [r["target"] for r in runs] == ["ishtar", "floor"]
    for run in runs:
        assert run["idle"] and run["connections"] == 8, run
        assert run["errors"] == 0, (run["target"], run["error_kinds"])
        assert run["deflate_sockets"] == 8
        assert isinstance(run["kb_per_idle_socket"], float)
        assert isinstance(run["idle_cpu_percent"], float)
        # each socket pinged as a tab does, and its pongs came back
        assert run["app_pings_per_s"] > 8, run
        assert run["rx_idle_bytes_per_socket"] > 0, run
    rows = result["against_floor"]
    assert isinstance(rows, list)
    (row,) = rows
    assert {"ratio_kb_per_idle_socket", "ratio_idle_cpu_percent"} <= set(row)


def test_the_bot_thinking_benchmark_reports_times_and_a_reproducible_fingerprint() -> (
    None
):
    argv = ("bench.bot_think", "--games", "1", "--bots", "medium,easy", "--seed", "3")
    first = run_json(*argv)
    assert first["code"] == str(ROOT)
    assert first["games"] == 1 and sum(first["wins"].values()) == 1  # type: ignore[attr-defined]
    cpu = first["cpu_ms_per_move"]["medium"]  # type: ignore[index]
    assert cpu["moves"] > 0 and cpu["p50"] <= cpu["p99"] <= cpu["max"]
    # the same decisions print the same fingerprint, whatever the machine's speed
    assert run_json(*argv)["fingerprint"] == first["fingerprint"]


async def echo_thrice(
    deflate: ServerPerMessageDeflateFactory, client: str
) -> tuple[LeanClient, list[bytes], list[str]]:
    """A `websockets` server with `deflate` that answers each message with three
    copies of it; what a `LeanClient` in mode `client` sent (three messages) and got."""
    heard: list[str] = []

    async def handler(ws: ServerConnection) -> None:
        async for message in ws:
            assert isinstance(message, str)
            heard.append(message)
            for i in range(3):
                await ws.send(json.dumps({"n": i, "echo": message * 20}))

    got: list[bytes] = []
    nine = asyncio.Event()

    def on_message(message: bytes, _at: float) -> None:
        got.append(message)
        if len(got) == 9:
            nine.set()

    async with serve(handler, "127.0.0.1", 0, extensions=[deflate]) as server:
        port = server.sockets[0].getsockname()[1]
        lean = await open_lean(
            f"ws://127.0.0.1:{port}/", "http://o", on_message, client
        )
        for n in range(3):
            lean.send_text(json.dumps({"type": "hello", "n": n}))
        await asyncio.wait_for(nine.wait(), 30)
        lean.close()
    return lean, got, heard


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, Deflate()),
        (
            {
                "server_no_context_takeover": True,
                "client_no_context_takeover": True,
                "server_max_window_bits": 10,
                "client_max_window_bits": 9,
            },
            Deflate(True, True, 10, 9),
        ),
    ],
)
def test_the_browser_client_inflates_and_deflates_as_negotiated(
    params: dict[str, object], expected: Deflate
) -> None:
    factory = ServerPerMessageDeflateFactory(**params)  # type: ignore[arg-type]
    lean, got, heard = asyncio.run(echo_thrice(factory, BROWSER))
    assert lean.deflate == expected
    # the server inflated the client's compressed messages ...
    assert heard == [json.dumps({"type": "hello", "n": n}) for n in range(3)]
    # ... and the client inflated the server's, each arriving compressed
    assert lean.messages == lean.messages_compressed == 9
    assert [json.loads(m)["echo"] for m in got] == [
        h * 20 for h in heard for _ in "abc"
    ]
    assert lean.bytes_received < lean.message_bytes, "fewer bytes on the wire"


def test_the_lean_client_offers_no_compression() -> None:
    lean, got, heard = asyncio.run(echo_thrice(ServerPerMessageDeflateFactory(), LEAN))
    assert lean.deflate is None and lean.messages_compressed == 0
    assert len(heard) == 3 and lean.messages == len(got) == 9


def test_the_browser_client_refuses_what_it_did_not_offer() -> None:
    for answer in (
        "x-webkit-deflate-frame",
        "permessage-deflate; foo=1",
        "permessage-deflate; server_max_window_bits=16",
        "permessage-deflate, permessage-deflate",
    ):
        with pytest.raises(ConnectionError):
            parse_deflate(answer)
