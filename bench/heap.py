"""What grew in the server's heap between two tracemalloc snapshots, by allocation site.

    python -m bench.heap BEFORE.snap AFTER.snap [--per 1000] [--by site|ours|file] [--top 30]

The snapshots come from `ishtar serve` run with ISHTAR_HEAP_DUMP_DIR
(app/ops/heap_dump.py), e.g. `python -m bench.scale --rooms 1000 --heap DIR`. Each
allocation is charged to a key:

- `site`: the line that allocated (the traceback's innermost frame);
- `ours` (default): the innermost frame in this project's code (app/, engine/, bots/,
  games/), followed by the innermost frame when that is elsewhere (a library's or the
  standard library's), so that "uvicorn allocated it for app/web/ws.py:120" reads as one row;
- `file`: the innermost frame's file; `package`: its top-level package (`.11` is the
  standard library).

`--per N` divides every figure by N (rooms, say) to read bytes per room. Only what
tracemalloc saw is counted: memory allocated by C code outside Python's allocators (the
kernel's socket buffers, OpenSSL, zlib) is in the RSS but not here.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path

OURS = ("/app/", "/engine/", "/bots/", "/games/")
ROOT = str(Path(__file__).resolve().parents[1]) + "/"


def where(frame: tracemalloc.Frame) -> str:
    """`file:line`, the file relative to this checkout, site-packages or the standard
    library (`.11/asyncio/...`), or, for another checkout's code, to its app/ or engine/."""
    name = frame.filename
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in name:
            return f"{name.split(marker, 1)[1]}:{frame.lineno}"
    if name.startswith(ROOT):
        return f"{name[len(ROOT) :]}:{frame.lineno}"
    for marker in OURS:
        if marker in name:
            name = marker[1:] + name.rsplit(marker, 1)[1]
            break
    return f"{name}:{frame.lineno}"


def ours(traceback: tracemalloc.Traceback) -> str:
    # frames run from the oldest to the most recent (Python 3.7 on)
    inner = where(traceback[-1])
    for frame in reversed(traceback):
        if any(marker in frame.filename for marker in OURS):
            mine = where(frame)
            return mine if mine == inner else f"{mine} <- {inner}"
    return f"(no frame of ours) {inner}"


KEYS: dict[str, Callable[[tracemalloc.Traceback], str]] = {
    "site": lambda tb: where(tb[-1]),
    "ours": ours,
    "file": lambda tb: where(tb[-1]).rsplit(":", 1)[0],
    "package": lambda tb: where(tb[-1]).split("/", 1)[0].split(":", 1)[0],
}


def tally(
    snapshot: tracemalloc.Snapshot, key: Callable[[tracemalloc.Traceback], str]
) -> tuple[Counter[str], Counter[str]]:
    sizes: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for trace in snapshot.traces:
        k = key(trace.traceback)
        sizes[k] += trace.size
        counts[k] += 1
    return sizes, counts


def growth(
    before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, by: str
) -> list[tuple[str, int, int]]:
    """(key, bytes grown, blocks grown), the largest growth first."""
    key = KEYS[by]
    b_sizes, b_counts = tally(before, key)
    a_sizes, a_counts = tally(after, key)
    rows = [
        (k, a_sizes[k] - b_sizes[k], a_counts[k] - b_counts[k])
        for k in set(a_sizes) | set(b_sizes)
    ]
    rows.sort(key=lambda row: -row[1])
    return rows


def report(rows: list[tuple[str, int, int]], per: float, top: int) -> str:
    total = sum(row[1] for row in rows)
    unit = "bytes" if per == 1 else f"bytes per {per:g}"
    lines = [f"grown in all: {total / per:,.0f} {unit}", ""]
    lines.append(f"{'bytes':>12} {'share':>6} {'blocks':>9}  where")
    shown = 0
    for k, size, blocks in rows[:top]:
        shown += size
        share = 100 * size / total if total else 0.0
        lines.append(f"{size / per:>12,.0f} {share:>5.1f}% {blocks / per:>9,.1f}  {k}")
    rest = total - shown
    lines.append(
        f"{rest / per:>12,.0f} {100 * rest / total if total else 0:>5.1f}%  the rest"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--by", choices=sorted(KEYS), default="ours")
    parser.add_argument("--per", type=float, default=1.0, help="divide by this (rooms)")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    if args.per <= 0:
        parser.error("--per must be positive")
    before = tracemalloc.Snapshot.load(args.before)
    after = tracemalloc.Snapshot.load(args.after)
    sys.stdout.write(report(growth(before, after, args.by), args.per, args.top) + "\n")


if __name__ == "__main__":
    main()
