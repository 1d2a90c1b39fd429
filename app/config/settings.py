"""Service configuration: one `Settings` object read from the environment (and `.env`).

Every knob of the service lives here, read once through `get_settings()`. Environment
variables are prefixed with ``ISHTAR_`` except ``DATABASE_URL``, which keeps the name that
hosting platforms and docker compose use. Tests and the CLI build their own `Settings`
(or `model_copy(update=...)` one) instead of mutating the environment.
"""

from __future__ import annotations

import ipaddress
import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import platformdirs
from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

# The repository root when running from a checkout or an editable install.
PROJECT_ROOT = (
    Path(__file__).resolve().parents[2]
)  # app/config/settings.py -> the checkout


def default_data_dir() -> Path:
    """Where the embedded PostgreSQL keeps its files unless told otherwise."""
    return Path(platformdirs.user_data_dir("ishtar", appauthor=False))


def normalise_database_url(url: str) -> str:
    """Accept ``postgres://`` and ``postgresql://`` URLs and use the asyncpg driver.

    >>> normalise_database_url("postgres://u:p@db:5432/ishtar")
    'postgresql+asyncpg://u:p@db:5432/ishtar'
    >>> normalise_database_url("postgresql+asyncpg://u@/d?host=/tmp")
    'postgresql+asyncpg://u@/d?host=/tmp'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    return url


class Settings(BaseSettings):
    """All configuration of the service. Field docs double as the README's table."""

    model_config = SettingsConfigDict(
        env_prefix="ISHTAR_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    database_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "DATABASE_URL", "ISHTAR_DATABASE_URL", "database_url"
        ),
        description="PostgreSQL URL (postgresql+asyncpg://...). Unset: embedded PostgreSQL.",
    )
    data_dir: Path = Field(
        default_factory=default_data_dir,
        description="Directory of the embedded PostgreSQL (its cluster lives in DATA_DIR/pg).",
    )
    host: str = Field(
        default="127.0.0.1", description="Interface `ishtar serve` binds to."
    )
    port: int = Field(default=8000, description="TCP port `ishtar serve` listens on.")
    log_level: str = Field(default="info", description="Log level of the server.")
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description=(
            "Origins allowed to open the websocket, comma-separated. Empty: only the same "
            "host as the request; '*': any origin."
        ),
    )
    max_message_bytes: int = Field(
        default=16384, description="Largest websocket message accepted from a client."
    )
    ws_frame_limit_bytes: int = Field(
        default=1 << 20,
        description=(
            "Websocket frames above this close the connection (1009); between "
            "MAX_MESSAGE_BYTES and this, the message is refused with a too_large error."
        ),
    )
    ws_hello_timeout_s: float = Field(
        default=10.0, description="Seconds a new websocket has to send its hello."
    )
    # A person makes a few moves a second at most; scripts and the load benchmark make
    # dozens, so the limits only stop floods.
    ws_messages_per_s: float = Field(
        default=50.0,
        description="Messages per second one websocket connection may send.",
    )
    ws_burst: float = Field(
        default=100.0,
        description="Burst of messages one websocket connection may send.",
    )
    http_moves_per_s: float = Field(
        default=50.0,
        description="HTTP moves (and why-questions) per second per seat token.",
    )
    rooms_per_minute: float = Field(
        default=30.0, description="Rooms one client address may create per minute."
    )
    default_game: str | None = Field(
        default=None,
        description="The game (app/games.py) of a room whose creation names none; unset: "
        "the registry's first game, as before rooms had games.",
    )
    extra_games: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Modules defining a game `DESCRIPTOR` to register beside the bundled "
        "games (comma-separated; the tests' toy game).",
    )
    readiness_timeout: float = Field(
        default=3.0,
        description="Seconds /readyz waits for the database before answering 503.",
    )
    db_pool_size: int = Field(
        default=10,
        ge=1,
        description="Connections kept open per server process (opened at start).",
    )
    db_max_overflow: int = Field(
        default=20,
        ge=0,
        description="Extra connections a server may open under load, kept while used "
        "(with `--workers N`, shared: each worker may open a Nth of them). A move holds "
        "its connection through its commit's flush to disk; at 3,000 live rooms ten did "
        "not suffice (docs/scaling.md). One opens only for a request that waited "
        "`db_overflow_wait_ms` for the others (app/store/overflow.py).",
    )
    db_overflow_wait_ms: float = Field(
        default=100.0,
        ge=0,
        description="How long a request waits for one of the kept connections before "
        "it may open an extra one: a burst of short reads opens none.",
    )
    db_overflow_idle_s: float = Field(
        default=60.0,
        gt=0,
        description="Seconds an extra connection stays open unused before it closes.",
    )
    static_dir: Path = Field(
        default=PROJECT_ROOT / "static", description="Directory served at /static."
    )
    templates_dir: Path = Field(
        default=PROJECT_ROOT / "templates",
        description="Directory of the Jinja2 templates.",
    )
    bot_delay_s: float = Field(
        default=0.8,
        ge=0,
        description="Seconds a bot waits before it moves, so people can follow (tests: 0).",
    )
    bot_think_s: float = Field(
        default=0.9,
        gt=0,
        description="Seconds the hard bot may search for one move in a room.",
    )
    public_url: str | None = Field(
        default=None,
        description=(
            "The site's address as players reach it (https://ishtar.example), for room "
            "links in webhook calls. Unset: the address the seat's holder used."
        ),
    )
    deadline_poll_s: float = Field(
        default=1.0, gt=0, description="Seconds between looks for passed deadlines."
    )
    deadline_lease_s: float = Field(
        default=120.0,
        gt=0,
        description="Seconds an instance holds a deadline it plays a bot on before another may.",
    )
    left_seat_bot_s: float = Field(
        default=300.0,
        ge=0,
        description=(
            "Seconds after a player leaves a game in play (a room without a time "
            "control) before a bot of the game's middle level takes their seat, if the "
            "host has not handed it on. 0: never by itself, the host decides. In a room "
            "with a time control the seat follows the clock's policy instead."
        ),
    )
    left_seat_poll_s: float = Field(
        default=5.0,
        gt=0,
        description="Seconds between looks for left seats to hand on.",
    )
    webhook_poll_s: float = Field(
        default=1.0,
        gt=0,
        description="Seconds between looks for webhook calls to make.",
    )
    webhook_timeout_s: float = Field(
        default=5.0, gt=0, description="Seconds one webhook call may take."
    )
    webhook_max_attempts: int = Field(
        default=8,
        ge=1,
        description="Attempts of one webhook call before it is given up.",
    )
    webhook_backoff_s: float = Field(
        default=5.0,
        gt=0,
        description="Wait before the first retry of a webhook call; doubled each time (at most 1 h).",
    )
    webhook_allow_private: bool = Field(
        default=False,
        description=(
            "Allow webhook URLs on loopback, private and link-local addresses (tests, "
            "closed networks). Off: such URLs are refused (server-side request forgery)."
        ),
    )

    # --- reaching players with the tab closed (docs/async-play.md) -------------------------
    push_enabled: bool = Field(
        default=True,
        description="Offer Web Push (turn notifications to a closed browser).",
    )
    vapid_private_key: SecretStr | None = Field(
        default=None,
        description=(
            "The Web Push (VAPID) private key: a P-256 key as 32 raw bytes in base64url, "
            "the same on every instance. Unset: one generated once and kept in the database."
        ),
    )
    vapid_subject: str | None = Field(
        default=None,
        description=(
            "The contact push services see in each push (mailto: or https:). Unset: "
            "ISHTAR_PUBLIC_URL, else ISHTAR_MAIL_FROM, else a placeholder."
        ),
    )
    push_ttl_s: int = Field(
        default=86400,
        ge=0,
        le=28 * 86400,
        description="How long a push service keeps a push for a browser that is off.",
    )
    push_per_seat: int = Field(
        default=10,
        ge=1,
        le=100,
        description="Browsers (push subscriptions) one seat may have.",
    )
    smtp_host: str | None = Field(
        default=None,
        description="The SMTP server of the e-mail digest. Unset: no e-mail at all.",
    )
    smtp_port: int = Field(default=587, ge=1, le=65535, description="The SMTP port.")
    smtp_user: str | None = Field(default=None, description="The SMTP user, if any.")
    smtp_password: SecretStr | None = Field(
        default=None, description="The SMTP password, if any."
    )
    smtp_security: str = Field(
        default="starttls",
        pattern="^(starttls|tls|none)$",
        description="starttls (port 587), tls (port 465) or none (a local relay only).",
    )
    smtp_timeout_s: float = Field(
        default=10.0, gt=0, description="Seconds one SMTP exchange may take."
    )
    mail_from: str | None = Field(
        default=None,
        description="The From address of the digest (needed with ISHTAR_SMTP_HOST).",
    )
    mail_digest_period_s: float = Field(
        default=86400.0,
        ge=60,
        description="At most one digest per address in this many seconds (a day).",
    )
    mail_digest_wait_s: float = Field(
        default=3600.0,
        ge=0,
        description="A game is in a digest once its turn waited this long on the seat.",
    )
    mail_poll_s: float = Field(
        default=60.0, gt=0, description="Seconds between looks for digests to send."
    )
    away_most_days: int = Field(
        default=14, ge=1, le=60, description="Days a seat may be away at a time."
    )
    away_days_per_year: int = Field(
        default=30,
        ge=1,
        le=365,
        description="Days a seat may be away in any 365 days.",
    )

    # --- game records: the key that signs exported records (docs/records.md) -----------------
    record_signing_key: SecretStr | None = Field(
        default=None,
        min_length=32,
        description=(
            "Secret (32 characters or more) that signs exported game records (HMAC-SHA256); "
            "the same on every instance. Unset: a random key generated once and kept in the "
            "database. Never sent to clients."
        ),
    )

    # --- bots under load (issue 13: fair thinking, all-bot rooms per address) ---------------
    bot_rooms_per_address: int = Field(
        default=2,
        ge=0,
        description=(
            "Rooms of bots only (every seat a bot) that one client address may have "
            "unfinished at once; filling one more is refused with too_many_bot_rooms."
        ),
    )

    # --- analyses of finished games (issue 38, docs/analysis.md) ------------------------------
    analysis_per_address_per_day: int = Field(
        default=20,
        ge=0,
        description=(
            "New analyses one client address may ask for in a day (an analysis already "
            "asked for by anyone is read for free); beyond it: too_many_analyses."
        ),
    )
    analysis_cpu_s: float = Field(
        default=300.0,
        gt=0,
        description="CPU seconds one analysis may use before it fails as too costly.",
    )
    analysis_share: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description=(
            "Share of this machine's cores the analysis workers may use (worker processes, "
            "at a lower priority than the server's); 0: this instance analyses nothing."
        ),
    )
    analysis_rollouts: int = Field(
        default=0,
        ge=0,
        description="Rollouts per candidate move (0: the analysis's default depth).",
    )
    analysis_luck_samples: int = Field(
        default=0,
        ge=0,
        le=1024,
        description=(
            "Draws sampled to value each random event's luck (0: the analysis's "
            "default, or the game's own)."
        ),
    )
    analysis_policy: str = Field(
        default="",
        pattern="^(|easy|medium|hard|random)$",
        description=(
            "The bot level that plays the rollouts, the decisions' and the luck's "
            "(empty: the analysis's default, medium); the candidate moves stay the "
            "medium and easy bots'."
        ),
    )

    # --- replays and the position cache (issue 13: bounded in bytes, replays rate-limited) --
    replay_requests_per_s: float = Field(
        default=10.0,
        gt=0,
        description="Replay requests (a move of a room's game or of a record) per second per client address.",
    )
    replay_burst: float = Field(
        default=60.0,
        ge=1,
        description="Burst of replay requests one client address may send.",
    )
    replay_cache_bytes: int = Field(
        default=32 << 20,
        ge=0,
        description="Bytes of replayed views kept in memory (their JSON text; 0: none kept).",
    )
    position_cache_bytes: int = Field(
        default=512 << 20,
        ge=0,
        description=(
            "Bytes of live game positions kept in memory (states and the views sent), the "
            "least recently played games dropped first. Counted as an upper bound of what "
            "they hold (about 150 KiB a watched 2-player Ishtar game, 210 KiB a 4-player "
            "one), 512 MiB keep about 3,400 such 2-player games; a game dropped while it "
            "is played is rebuilt from the database at its next move (docs/scaling.md)."
        ),
    )
    warm_up: bool = Field(
        default=True,
        description=(
            "Warm each game's rules engine at start (a few seeded games played in-process, "
            "about 0.4 s of CPU), so that the first moves served are as fast as any "
            "(app/ops/warmup.py). Off: a start is quicker and the first moves of each "
            "game build the engine's memos instead (the tests' servers, which do not "
            "measure latency)."
        ),
    )

    @field_validator("database_url", mode="before")
    @classmethod
    def _normalise_url(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return normalise_database_url(value) if value else None
        return value

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value.lstrip().startswith("["):
                return json.loads(value)
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    @property
    def mail_enabled(self) -> bool:
        """E-mail is on only with an SMTP server and a From address."""
        return bool(self.smtp_host and self.mail_from)

    @property
    def pg_data_dir(self) -> Path:
        """The embedded PostgreSQL cluster directory (PGDATA)."""
        return self.data_dir / "pg"

    # -- the edge: what faces the network (docs/security.md, "At the edge") -----------------
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description=(
            "Host names the server answers to (Host header), comma-separated; '*.example.org' "
            "matches subdomains, '*' any host. Empty: the bound host and PUBLIC_URL's host, "
            "plus localhost, 127.0.0.1 and [::1] when bound to loopback or all interfaces."
        ),
    )
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description=(
            "Addresses or networks of the reverse proxies whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed, comma-separated. Empty: none, every client "
            "is its TCP peer."
        ),
    )
    header_timeout_s: float = Field(
        default=10.0,
        gt=0,
        description=(
            "Seconds a client has to send a complete request head (from its connection, or "
            "the end of the previous response); then the connection is closed."
        ),
    )
    keep_alive_s: int = Field(
        default=8,
        ge=1,
        description=(
            "Seconds an idle keep-alive connection stays open after a response. Longer "
            "than the 5 s for which common clients (httpx, Node) reuse an idle connection, "
            "so that the server never closes one as a client sends its next request on it "
            "(the client would see the connection reset, not an answer). The request head "
            "deadline (header_timeout_s) bounds it too."
        ),
    )
    connections_per_address: int = Field(
        default=64,
        ge=0,
        description=(
            "Open connections one client address (an IPv6 /64) may hold; more are refused "
            "with 429. Trusted proxies are exempt. 0: no cap."
        ),
    )
    reserved_fds: int = Field(
        default=100,
        ge=0,
        description=(
            "File descriptors kept free for the database (besides its pools' connections), "
            "the embedded PostgreSQL's tools, logs and webhooks: client connections beyond "
            "the limit minus these are refused with 503."
        ),
    )

    @field_validator(
        "allowed_hosts", "forwarded_allow_ips", "extra_games", mode="before"
    )
    @classmethod
    def _split_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _check_hosts(cls, hosts: list[str]) -> list[str]:
        for host in hosts:
            if "*" in host[1:] or (
                host.startswith("*") and not host.startswith("*.") and host != "*"
            ):
                raise ValueError(f"{host!r}: a wildcard is '*' or '*.example.org'")
        return [host.lower() for host in hosts]

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _check_networks(cls, entries: list[str]) -> list[str]:
        for entry in entries:
            if entry != "*":
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise ValueError(
                        f"{entry!r} is not an IP address or network (e.g. 172.20.0.2, 10.0.0.0/8)"
                    ) from None
        return entries

    # --- websocket floods (issue 13, attack 1; docs/security.md, "Floods of frames") ---
    ws_connections_per_address: int = Field(
        default=64,
        ge=1,
        description=(
            "Websocket connections one client address may hold open on one server "
            "process; more are refused (rate_limited, close code 4429)."
        ),
    )
    ws_hello_burst: int = Field(
        default=5,
        ge=1,
        description="Hellos one websocket connection may send in a burst.",
    )
    ws_hellos_per_minute: float = Field(
        default=6.0,
        gt=0,
        description="Hellos per minute one websocket connection may send after its burst.",
    )

    # --- Slow readers and memory (docs/security.md, "Slow readers", "Reconnects") ----------
    ws_outbox_bytes: int = Field(
        default=256 * 1024,
        ge=4096,
        description=(
            "Bytes of messages that may wait for one websocket client; beyond, its backlog "
            "is replaced by one sync."
        ),
    )
    ws_outbox_overflows: int = Field(
        default=3,
        ge=1,
        description=(
            "Times a client's outbox may overflow before it catches up; at this many it "
            "is closed with 4413."
        ),
    )
    ws_behind_s: float = Field(
        default=30.0,
        gt=0,
        description=(
            "Seconds a websocket client may stay behind (its outbox overflowed, or its "
            "socket accepts no more bytes) before it is closed (4413) or cut off."
        ),
    )
    workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description=(
            "Server processes `ishtar serve` runs on one port, each an instance of its "
            "own against the one database; a front in the supervisor hands each "
            "connection to one, a room's sockets to the room's own. Same as --workers."
        ),
    )
    ws_frame_cache_bytes: int = Field(
        default=1024 * 1024,
        ge=0,
        description=(
            "Bytes of websocket frames `ishtar serve` keeps built (an update's compressed "
            "frame, shared by every socket of its audience; app/ops/ws_frames.py); 0: "
            "none kept."
        ),
    )
    ws_write_buffer_bytes: int = Field(
        default=64 * 1024,
        ge=4096,
        description=(
            "Bytes `ishtar serve` buffers for a websocket beyond the kernel's before the "
            "server stops writing to it (the transport's high-water mark)."
        ),
    )
    gc_full_every_s: float = Field(
        default=300.0,
        gt=0,
        description=(
            "Longest time between full collections of cyclic garbage (app/ops/collector.py)."
        ),
    )
    gc_full_growth: float = Field(
        default=1.5,
        ge=1.1,
        description=(
            "Growth of the process's peak memory since the last full collection of cyclic "
            "garbage that makes the next one due, once a tenth of "
            "ISHTAR_GC_FULL_AFTER_CLOSED connections closed (app/ops/collector.py)."
        ),
    )
    gc_full_after_closed: int = Field(
        default=1000,
        ge=1,
        description=(
            "Client connections closed that make a full collection of cyclic garbage due "
            "(app/ops/collector.py)."
        ),
    )
    heap_dump_dir: Path | None = Field(
        default=None,
        description=(
            "Set: the server traces its allocations once started, and SIGUSR2 writes a "
            "tracemalloc snapshot here (app/ops/heap_dump.py; read with `python -m "
            "bench.heap`). Unset: no tracing, no handler."
        ),
    )
    heap_dump_frames: int = Field(
        default=12,
        ge=1,
        le=100,
        description="Frames kept per allocation traced with ISHTAR_HEAP_DUMP_DIR.",
    )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use."""
    return Settings()
