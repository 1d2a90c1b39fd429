"""Read py-spy's collapsed stacks (``--format raw``) as a table of the hottest frames.

    python -m bench.flame /tmp/prof/ishtar.txt [--top 30] [--match app/]

Inclusive share: the fraction of samples with the frame anywhere on the stack (each frame
counted once per stack); self share: the fraction with it on top. Frames are printed as
``function (file:line)`` as py-spy wrote them.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def load(path: Path) -> tuple[Counter[str], Counter[str], int]:
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        total += n
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
    return inclusive, own, total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="hottest frames of a py-spy raw profile"
    )
    parser.add_argument("path", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--match", default="", help="only frames containing this text")
    args = parser.parse_args(argv)
    inclusive, own, total = load(args.path)
    print(f"{total} samples")
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"-- {title}")
        rows = [(f, n) for f, n in counter.most_common() if args.match in f]
        for frame, n in rows[: args.top]:
            print(f"{100 * n / total:6.1f}%  {frame}")


if __name__ == "__main__":
    main()
