"""Every SQL statement of the server is in the store (app/store/), on one driver (issue 14).

Read from the source, not run: outside app/store/ no module of app/ may import a database
driver (asyncpg, SQLAlchemy), call a query method (`execute`, `fetch`, ...) or hold a string
that is a SQL statement. Migrations (migrations/) are Alembic's and are not under app/.

The few modules still waiting for their store part are listed in `PENDING`, each with what
it still does; an entry that is no longer needed fails the test too, so the list only
shrinks.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
APP = ROOT / "app"
STORE = APP / "store"

DRIVERS = ("asyncpg", "sqlalchemy", "psycopg", "psycopg2")
# What asyncpg connections and pools, and SQLAlchemy connections and sessions, run SQL with.
QUERY_METHODS = frozenset(
    {
        "execute",
        "executemany",
        "fetch",
        "fetchrow",
        "fetchval",
        "fetchmany",
        "cursor",
        "prepare",
        "copy_from_query",
        "copy_to_table",
        "copy_records_to_table",
        "scalar",
        "scalars",
        "stream",
        "add_listener",
    }
)
# A statement, not a word in a sentence: the keyword opens the string (after blanks or an
# opening bracket) and is followed by the shape only SQL has.
SQL = re.compile(
    r"^[\s(]*(?:"
    r"SELECT\s+\S"
    r"|INSERT\s+INTO\s"
    r"|UPDATE\s+\w+\s+(?:\w+\s+)?SET\s"
    r"|DELETE\s+FROM\s"
    r"|WITH\s+\w+\s+AS\s*\("
    r"|(?:CREATE|ALTER|DROP|TRUNCATE)\s+(?:TABLE|INDEX|TRIGGER|FUNCTION|DATABASE)\s"
    r"|(?:LISTEN|NOTIFY|UNLISTEN)\s+\w"
    r")"
)  # case-sensitive: the server writes SQL's keywords in capitals, prose does not

# Not the server's SQL: like the migrations, work on the cluster before any server runs.
ADMINISTRATION = {
    "app/ops/embedded.py": "creates the embedded cluster's database through psql",
}

PENDING: dict[str, str] = {}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (prose may quote SQL), and of the literal parts of
    f-strings (read with their f-string)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.update(id(part) for part in node.values)
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
            ):
                found.add(id(body[0].value))
    return found


def _strings(node: ast.AST) -> list[str]:
    """A string constant, or an f-string's literal parts joined (its holes as '?')."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [
            "".join(
                part.value if isinstance(part, ast.Constant) else "?"
                for part in node.values
            )
        ]
    return []


def sql_in(source: str, path: str) -> list[Finding]:
    """What in `source` talks to the database: driver imports, query calls, statements."""
    tree = ast.parse(source)
    skipped = _skipped(tree)
    found: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in DRIVERS:
                    found.append(Finding(path, node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and (node.module or "").split(".")[0] in DRIVERS:
                found.append(Finding(path, node.lineno, f"imports from {node.module}"))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in QUERY_METHODS:
                found.append(Finding(path, node.lineno, f"calls .{func.attr}()"))
        if id(node) in skipped:
            continue
        for text in _strings(node):
            if SQL.match(text):
                found.append(Finding(path, node.lineno, f"SQL {text.strip()[:40]!r}"))
    return found


def _modules() -> dict[str, list[Finding]]:
    """Every module of app/ outside the store, and what it does with the database."""
    return {
        path.relative_to(ROOT).as_posix(): sql_in(
            path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()
        )
        for path in sorted(APP.rglob("*.py"))
        if STORE not in path.parents
    }


def test_no_module_outside_the_store_talks_to_the_database() -> None:
    offending = [
        str(finding)
        for path, findings in _modules().items()
        if path not in PENDING and path not in ADMINISTRATION
        for finding in findings
    ]
    assert offending == [], "SQL belongs in a part of app/store/:\n" + "\n".join(
        offending
    )


def test_every_pending_module_still_needs_its_exemption() -> None:
    """Once a module's SQL has moved to the store, its entry goes too."""
    modules = _modules()
    exempt = set(PENDING) | set(ADMINISTRATION)
    assert exempt <= set(modules), "an exempted module no longer exists"
    done = [path for path in {**PENDING, **ADMINISTRATION} if not modules[path]]
    assert done == [], f"remove from PENDING: {done}"


def test_the_store_itself_is_seen_to_run_sql() -> None:
    """The detector finds what it is for, in the store's real modules: not vacuous."""
    for part in ("webhooks", "deadlines", "records", "replays", "room_limits"):
        path = STORE / f"{part}.py"
        findings = sql_in(path.read_text(encoding="utf-8"), part)
        whats = {finding.what.split(" ")[0] for finding in findings}
        assert {"calls", "SQL"} <= whats, (part, findings)


@pytest.mark.parametrize(
    "source",
    [
        "import asyncpg",
        "from sqlalchemy import text",
        "import sqlalchemy.ext.asyncio as sa",
        "async def f(conn):\n    await conn.fetchval('SELECT 1')",
        "async def f(c):\n    await c.execute(query, 1)",
        "Q = 'UPDATE rooms SET revision = revision + 1 WHERE id = $1'",
        "Q = (\n    'SELECT g.room_id FROM games g'\n    ' WHERE g.status = $1'\n)",
        "Q = f'DELETE FROM {table} WHERE id = $1'",
        "Q = 'WITH due AS (SELECT 1) UPDATE t SET x = 1'",
        "Q = '''\n    INSERT INTO room_creations (a) VALUES ($1)'''",
        "Q = 'LISTEN ishtar_rooms'",
        "cmd = ['psql', '-c', f'CREATE DATABASE \"{name}\"']",
    ],
)
def test_the_detector_sees(source: str) -> None:
    assert sql_in(source, "sample"), source


@pytest.mark.parametrize(
    "source",
    [
        '"""Claims rows with SELECT ... FOR UPDATE SKIP LOCKED."""',
        "def f():\n    '''INSERT INTO the outbox happens in the trigger.'''",
        "reason = 'Select a seat to update it.'",
        "text = 'Update the room, then select a game'",
        "from app.store.webhooks import WebhookStore",
        "await loop.run_in_executor(None, think)",
    ],
)
def test_the_detector_lets_prose_and_other_calls_be(source: str) -> None:
    assert sql_in(source, "sample") == [], source
