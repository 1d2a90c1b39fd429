"""Print, one per line, the `uv pip install` options that carry pip's own configuration on
this machine (its indexes, find-links and constraints: `pip config list`, environment first),
so that scripts/env.sh's install with uv finds the packages pip would. Run by the venv's
Python; prints nothing when pip has none of them set."""

from __future__ import annotations

import subprocess
import sys

CARRIED = ("index-url", "extra-index-url", "find-links", "constraint")


def main() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    found: dict[str, str] = {}
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        scope, _, name = key.rpartition(".")
        if name not in CARRIED or scope not in (":env:", "global", "install"):
            continue
        if scope == ":env:" or name not in found:  # the environment wins, as in pip
            found[name] = value.strip().strip("'\"")
    for name in CARRIED:
        for value in found.get(name, "").split():
            print(f"--{name}")
            print(value)


if __name__ == "__main__":
    main()
