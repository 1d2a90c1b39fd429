"""The `ishtar` command: `ishtar serve`, `ishtar db ...`, `ishtar simulate`, `ishtar verify`.

Each subcommand is one small `register_*` function that adds its parser and sets
``handler`` to a function taking the parsed arguments and returning an exit code. To add a
subcommand, write such a pair (here or in its own module) and append the register function
to `COMMANDS`.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from app.config.settings import Settings, get_settings
from app.games import registry
from app.ops import signals
from app.ops.connection_guard import (
    ConnectionBudget,
    guarded_protocols,
    raise_descriptor_limit,
)
from app.ops.embedded import EmbeddedPostgres, EmbeddedPostgresError
from app.records.analysis import register_analyse
from app.records.verify import register_verify
from app.store import migrate
from bots.simulate import GameBots, register_simulate

log = logging.getLogger("ishtar")

Subparsers = Any  # argparse's _SubParsersAction, which typeshed keeps private
Register = Callable[[Subparsers], None]

STARTUP_FAILURE = 3
"""The exit code of `serve` when the application did not start (uvicorn's own)."""


# -- shared ---------------------------------------------------------------------------------


def _add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="directory of the embedded PostgreSQL (default: ISHTAR_DATA_DIR or the user data dir)",
    )


def _settings(args: argparse.Namespace, **overrides: Any) -> Settings:
    """The process settings with the command line's overrides applied."""
    if getattr(args, "data_dir", None) is not None:
        overrides["data_dir"] = args.data_dir.expanduser().absolute()
    return get_settings().model_copy(update=overrides)


@contextmanager
def database(
    settings: Settings, on_give_up: Callable[[], None] | None = None
) -> Iterator[str]:
    """The database URL to use: DATABASE_URL, or an embedded server started for the duration.

    With `on_give_up`, the embedded server is watched and restarted when it dies
    (`EmbeddedPostgres.watch`); `on_give_up` is called if it cannot be.
    """
    if settings.database_url:
        yield settings.database_url
        return
    log.info(
        "DATABASE_URL is not set: using the embedded PostgreSQL in %s",
        settings.pg_data_dir,
    )
    with EmbeddedPostgres(settings.pg_data_dir) as server:
        if on_give_up is not None:
            server.watch(on_give_up)
        yield server.url


def _interrupt_on_sigterm() -> None:
    """Turn SIGTERM into KeyboardInterrupt so that `finally` blocks (stopping PostgreSQL) run."""

    def _raise(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _raise)


# -- serve ----------------------------------------------------------------------------------


def register_serve(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("serve", help="run the web server")
    parser.add_argument(
        "--host", help="interface to bind (default: ISHTAR_HOST or 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=int,
        help="port to listen on; 0: any free port (default: ISHTAR_PORT or 8000)",
    )
    parser.add_argument(
        "--port-file",
        type=Path,
        help="once listening, write the port there (useful with --port 0)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="server processes sharing the port, each an instance of its own "
        "(default: ISHTAR_WORKERS or 1)",
    )
    # A worker's channel from `--workers`' supervisor, whose front hands it its connections
    # (app/ops/workers.py, app/ops/front.py).
    parser.add_argument("--handoff-fd", type=int, help=argparse.SUPPRESS)
    _add_data_dir(parser)
    parser.set_defaults(handler=serve)


def _listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to (host, port), as uvicorn would bind it; port 0: any free one.

    Bound here rather than by uvicorn so that the port is known (and held) before the
    server starts: `--port 0 --port-file F` lets a caller start a server without ever
    choosing a port number it does not hold.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio sets TCP_NODELAY on the connections it accepts only
    # when the listening socket says TCP (`sock.proto`), as the sockets it binds itself do.
    # With proto 0, Nagle's algorithm held each response's body until the client's delayed
    # ACK of its head: 44 ms a request instead of 1 (tests/app/ops/test_listen.py).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _write_port_file(path: Path, port: int) -> None:
    """Write `port` to `path` whole at once: a reader sees no file or the whole number."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(f"{port}\n")
    partial.replace(path)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.ops.main import create_app
    from app.ops.ws_transport import PING_INTERVAL_S, bounded_websockets

    overrides = {
        key: value
        for key in ("host", "port")
        if (value := getattr(args, key)) is not None
    }
    settings = _settings(args, **overrides)
    workers = args.workers if args.workers is not None else settings.workers
    if workers < 1:
        log.error("--workers must be at least 1 (got %d)", workers)
        return 2
    _interrupt_on_sigterm()
    signals.ignore_unused()  # SIGHUP, SIGUSR1, SIGUSR2, ...: logged, never fatal
    # Before PostgreSQL starts, so that it inherits the raised limit too.
    limit = raise_descriptor_limit()
    lost_database = threading.Event()

    def give_up() -> None:  # from the watcher's thread: stop as SIGTERM would
        lost_database.set()
        os.kill(os.getpid(), signal.SIGTERM)

    try:
        with database(settings, on_give_up=give_up) as url:
            if not migrate.at_head(url):
                migrate.upgrade(url)
            if workers > 1 and args.handoff_fd is None:
                return _supervise(settings, url, workers, args.port_file)
            app = create_app(settings.model_copy(update={"database_url": url}))
            # A peer that stops reading holds a bounded buffer, then is cut off
            # (app/ops/ws_transport.py; docs/security.md, "Slow readers").
            bounded = bounded_websockets(
                settings.ws_write_buffer_bytes,
                settings.ws_behind_s,
                settings.ws_frame_cache_bytes,
            )
            http, ws = guarded_protocols(
                _connection_budget(settings, limit), settings.header_timeout_s, bounded
            )
            listener: socket.socket | None = None
            if args.handoff_fd is not None:  # a worker: the front accepts for it
                port = settings.port
            else:
                listener = _listen(settings.host, settings.port)
                port = listener.getsockname()[1]
                log.info("bound to %s port %d", settings.host, port)
                if args.port_file is not None:
                    _write_port_file(args.port_file, port)
            config = uvicorn.Config(
                app,
                host=settings.host,
                port=port,
                log_level=settings.log_level,
                ws_max_size=settings.ws_frame_limit_bytes,
                ws_ping_interval=PING_INTERVAL_S,
                timeout_graceful_shutdown=10,
                timeout_keep_alive=settings.keep_alive_s,
                http=http,
                ws=ws,
                # uvicorn believes X-Forwarded-For from loopback by default: only named proxies.
                proxy_headers=bool(settings.forwarded_allow_ips),
                forwarded_allow_ips=settings.forwarded_allow_ips or None,
            )
            if listener is None:
                from app.ops.handoff import HandedServer

                channel = socket.socket(fileno=args.handoff_fd)
                server: uvicorn.Server = HandedServer(config, channel)
                sockets = None
            else:
                server = uvicorn.Server(config)
                sockets = [listener]
            try:
                server.run(sockets=sockets)
            except (
                KeyboardInterrupt
            ):  # as uvicorn.run: a signal during the run stops it
                pass
            finally:
                if listener is not None:
                    listener.close()
            if not server.started and not lost_database.is_set():
                return STARTUP_FAILURE
    except KeyboardInterrupt:  # SIGTERM, Ctrl-C, or give_up's own SIGTERM
        if not lost_database.is_set():
            raise
    return 1 if lost_database.is_set() else 0


def _supervise(
    settings: Settings, url: str, workers: int, port_file: Path | None
) -> int:
    """Run `workers` server processes on one port until stopped (app/ops/workers.py)."""
    from app.ops.workers import FrontLimits, Supervisor, shared_overflow

    limits = FrontLimits(
        head_timeout_s=settings.header_timeout_s,
        per_address=_per_address(settings),
    )
    supervisor = Supervisor(workers, settings.host, _listen, url, [], limits)
    supervisor.env["ISHTAR_DB_MAX_OVERFLOW"] = str(
        shared_overflow(settings.db_max_overflow, workers)
    )
    listener = supervisor.bind(settings.port)
    log.info(
        "bound to %s port %d for %d workers", settings.host, supervisor.port, workers
    )
    if port_file is not None:
        _write_port_file(port_file, supervisor.port)
    try:
        supervisor.start(listener)
        return supervisor.run()
    except KeyboardInterrupt:  # SIGTERM or Ctrl-C: every worker stops gracefully
        supervisor.stop()
        raise


def _connection_budget(settings: Settings, limit: int) -> ConnectionBudget:
    """The client connections `serve` admits, with descriptors kept back for the rest.

    The budget measures what the started server holds at its first connection; kept back
    on top: the connections its pools may still open (SQLAlchemy's, opened on demand, and
    both pools' overflow) and `reserved_fds` for everything else.
    """
    later = settings.db_pool_size + 2 * settings.db_max_overflow
    exempt = [
        ipaddress.ip_network(entry, strict=False)
        for entry in settings.forwarded_allow_ips
        if entry != "*"
    ]
    return ConnectionBudget(
        limit, later + settings.reserved_fds, _per_address(settings), exempt
    )


def _per_address(settings: Settings) -> int:
    """Client connections admitted per address; 0 (any number) behind a proxy of any
    address."""
    if "*" in settings.forwarded_allow_ips:
        return 0
    return settings.connections_per_address


# -- db -------------------------------------------------------------------------------------


def register_db(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("db", help="database schema migrations (Alembic)")
    commands = parser.add_subparsers(
        dest="db_command", required=True, metavar="COMMAND"
    )

    upgrade = commands.add_parser(
        "upgrade", help="upgrade the schema (default: to head)"
    )
    upgrade.add_argument("rev", nargs="?", default="head")
    upgrade.set_defaults(handler=db_upgrade)

    downgrade = commands.add_parser(
        "downgrade", help="downgrade the schema to REV ('base': empty)"
    )
    downgrade.add_argument("rev")
    downgrade.set_defaults(handler=db_downgrade)

    current = commands.add_parser(
        "current", help="print the database's revision and the head"
    )
    current.set_defaults(handler=db_current)

    revision = commands.add_parser("revision", help="write a new revision file")
    revision.add_argument("-m", "--message", required=True)
    revision.add_argument(
        "--autogenerate",
        action="store_true",
        help="draft it from app.store.models (review it!)",
    )
    revision.set_defaults(handler=db_revision)

    for command in (upgrade, downgrade, current, revision):
        _add_data_dir(command)


def db_upgrade(args: argparse.Namespace) -> int:
    with database(_settings(args)) as url:
        migrate.upgrade(url, args.rev)
    return 0


def db_downgrade(args: argparse.Namespace) -> int:
    with database(_settings(args)) as url:
        migrate.downgrade(url, args.rev)
    return 0


def db_current(args: argparse.Namespace) -> int:
    with database(_settings(args)) as url:
        print(f"current: {migrate.current(url) or '(none)'}")
    print(f"head:    {','.join(migrate.heads())}")
    return 0


def db_revision(args: argparse.Namespace) -> int:
    if args.autogenerate:
        with database(_settings(args)) as url:
            rev = migrate.new_revision(args.message, url=url, autogenerate=True)
    else:
        rev = migrate.new_revision(args.message)
    print(f"wrote revision {rev} in {migrate.MIGRATIONS_DIR / 'versions'}")
    return 0


# -- entry point ----------------------------------------------------------------------------


def _game_bots(game_id: str) -> GameBots | None:
    """A registered game as the simulator plays it (`ishtar simulate --game ID`)."""
    games = registry(get_settings().extra_games)
    if game_id not in games:
        return None
    game = games.get(game_id)
    if game.think is None:
        return GameBots(game.rules.__name__, _no_bots, (), game.players)
    return GameBots(game.rules.__name__, game.think, game.bots, game.players)


def _no_bots(*_args: object) -> None:  # pragma: no cover - never called: no levels
    raise RuntimeError("this game has no bots")


COMMANDS: list[Register] = [
    register_serve,
    register_db,
    lambda subparsers: register_simulate(subparsers, _game_bots),
    register_verify,
    register_analyse,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ishtar", description="Ishtar Online server.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMANDS:
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(levelname)-8s %(name)s: %(message)s"
    )
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        log.info("stopped")
        return 0
    except EmbeddedPostgresError as error:
        log.error("%s", error)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
