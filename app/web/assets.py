"""Versioned static files: a browser never keeps old scripts after a deploy.

At start the whole static tree is hashed once (`tree_hash`: SHA-256 over the sorted relative
paths and the bytes of every file, 12 hex characters) and the files are served twice:

- ``/static/<hash>/<path>`` with ``Cache-Control: public, max-age=31536000, immutable``.
  Pages reference assets only through the Jinja global ``asset('js/main.js')``, which gives
  this URL, and the ES modules import each other with relative paths (``./api.js``), so a
  module loaded under the prefix loads all it imports under the same prefix. A deploy that
  changes any file changes the hash, hence every URL.
- ``/static/<path>`` (no hash) with ``Cache-Control: no-cache``: old pages and bookmarks,
  the notification icon, the browser tests' harness. The browser revalidates (ETag) each time.

A hash that is not the current one (a page from before the last deploy) is served the
*current* file with ``no-cache``, never cached for long under that URL; a redirect would not
be better, since the old page's other modules come from the same new files anyway. A first
path segment of exactly 12 lowercase hex characters is therefore read as a version and never
as a directory of the static tree.

Files are served by Starlette's `StaticFiles` (which refuses paths out of its directory with
404); `VersionedStatic` only strips the version segment and sets ``Cache-Control``. Under the
current version, a text file of the tree (scripts, styles, SVG, JSON) goes gzipped to a
browser that takes gzip: compressed once, at its first such request, and kept while the file
is unchanged on disk (`Gzipped`: one entry a file of the tree, so never more than the tree).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.encodings import takes_gzip

HASH_LENGTH = 12
VERSION = re.compile(rf"^[0-9a-f]{{{HASH_LENGTH}}}$")
IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
# Responses that may be kept for a year under a versioned URL; errors never are.
CACHEABLE = {200, 206, 304}


def tree_files(directory: Path) -> list[str]:
    """The files under `directory` as sorted relative POSIX paths (empty if it is missing)."""
    if not directory.is_dir():
        return []
    return sorted(
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*")
        if path.is_file()
    )


def tree_hash(directory: Path, files: list[str] | None = None) -> str:
    """The version of a static tree: SHA-256 over its sorted relative paths and contents.

    Each path and each content goes in with its length, so moving bytes from one file to
    the next, or renaming a file, changes the hash too.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a.js").write_text("x")
    ...     first = tree_hash(Path(d))
    ...     _ = (Path(d) / "a.js").write_text("y")
    ...     first != tree_hash(Path(d)) and len(first) == 12
    True
    """
    digest = hashlib.sha256()
    for name in tree_files(directory) if files is None else files:
        encoded = name.encode()
        content = (directory / name).read_bytes()
        digest.update(len(encoded).to_bytes(8, "big") + encoded)
        digest.update(len(content).to_bytes(8, "big") + content)
    return digest.hexdigest()[:HASH_LENGTH]


@dataclass(frozen=True)
class Assets:
    """The static tree of this process: its version and the URL of each file."""

    directory: Path
    version: str
    files: frozenset[str] = field(repr=False)
    prefix: str = "/static"

    @classmethod
    def scan(cls, directory: Path, prefix: str = "/static") -> Assets:
        """Hash `directory` now; the result holds until the process ends."""
        files = tree_files(directory)
        return cls(directory, tree_hash(directory, files), frozenset(files), prefix)

    def url(self, path: str) -> str:
        """The versioned URL of a file of the tree (`LookupError` for any other path).

        >>> Assets(Path("static"), "0123456789ab", frozenset({"js/main.js"})).url("js/main.js")
        '/static/0123456789ab/js/main.js'
        """
        path = path.lstrip("/")
        if path not in self.files:
            raise LookupError(f"no static file {path!r} in {self.directory}")
        return f"{self.prefix}/{self.version}/{path}"


@jinja2.pass_context
def asset(context: jinja2.runtime.Context, path: str) -> str:
    """Jinja global ``asset('css/shell.css')``: the versioned URL, from the request's app."""
    assets: Assets = context["request"].app.state.assets
    return assets.url(path)


def install_template_globals(environment: jinja2.Environment) -> None:
    """Make ``asset()`` available to every template of `environment`."""
    environment.globals["asset"] = asset


def _route_path(scope: Scope) -> str:
    """The path below the mount point (what StaticFiles serves)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        return path[len(root) :]
    return path


COMPRESSIBLE = frozenset(
    {".js", ".css", ".svg", ".json", ".html", ".txt", ".webmanifest"}
)
"""The suffixes of the files worth gzipping (images and fonts are compressed already)."""


class Gzipped:
    """The gzipped bytes of the tree's text files, each made at its first request and made
    again when the file changes on disk (its size or modification time): one entry a file
    of the tree, never a path that is not one."""

    def __init__(self, assets: Assets) -> None:
        self.assets = assets
        self.kept: dict[str, tuple[int, int, bytes, str]] = {}

    def get(self, path: str) -> tuple[bytes, str] | None:
        """`path`'s bytes gzipped and their ETag, or None when it is no text file of the
        tree."""
        if path not in self.assets.files or Path(path).suffix not in COMPRESSIBLE:
            return None
        full = self.assets.directory / path
        try:
            stat = full.stat()
            kept = self.kept.get(path)
            if kept is not None and kept[:2] == (stat.st_size, stat.st_mtime_ns):
                return kept[2], kept[3]
            zipped = gzip.compress(full.read_bytes(), compresslevel=9, mtime=0)
        except OSError:
            return None  # gone since the scan: StaticFiles says so
        etag = f'"{hashlib.sha256(zipped).hexdigest()[:16]}-gzip"'
        self.kept[path] = (stat.st_size, stat.st_mtime_ns, zipped, etag)
        return zipped, etag


class VersionedStatic:
    """ASGI app for the static mount: ``/<version>/<path>`` and ``/<path>``, with caching.

    The version segment is moved from the path into ``root_path`` (so StaticFiles serves
    the rest); a current version gets the immutable header on a good response, anything
    else ``no-cache``. A current version's text file goes gzipped to a client that takes
    gzip (`Gzipped`); a range request, any other method and any other URL go to StaticFiles.
    """

    def __init__(self, assets: Assets, files: ASGIApp | None = None) -> None:
        self.assets = assets
        self.files: ASGIApp = files or StaticFiles(
            directory=assets.directory, check_dir=False
        )
        self.gzipped = Gzipped(assets)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.files(scope, receive, send)
            return
        parts = _route_path(scope).split("/", 2)
        first = parts[1:2]
        versioned = bool(first) and VERSION.match(first[0]) is not None
        current = versioned and first[0] == self.assets.version
        if current and len(parts) == 3 and scope["method"] == "GET":
            headers = Headers(scope=scope)
            zipped = (
                None
                if "range" in headers
                or not takes_gzip(headers.get("accept-encoding", ""))
                else self.gzipped.get(parts[2])
            )
            if zipped is not None:
                body, etag = zipped
                kept = {
                    "Cache-Control": IMMUTABLE,
                    "ETag": etag,
                    "Vary": "Accept-Encoding",
                }
                if headers.get("if-none-match") == etag:
                    answer = Response(status_code=304, headers=kept)
                else:
                    answer = Response(
                        body,
                        media_type=mimetypes.guess_type(parts[2])[0] or "text/plain",
                        headers=kept | {"Content-Encoding": "gzip"},
                    )
                await answer(scope, receive, send)
                return
        if versioned:
            scope = dict(scope, root_path=f"{scope.get('root_path', '')}/{first[0]}")

        async def send_with_cache(message: Message) -> None:
            if message["type"] == "http.response.start":
                keep = current and message["status"] in CACHEABLE
                MutableHeaders(scope=message)["Cache-Control"] = (
                    IMMUTABLE if keep else NO_CACHE
                )
            await send(message)

        await self.files(scope, receive, send_with_cache)
