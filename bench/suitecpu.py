"""Where the test suite's CPU goes, test by test: a pytest plugin and its summary.

Each pytest process (every xdist worker, and the controller) moves itself into a `cpuacct`
cgroup of its own at start; what it starts (live servers, the session's PostgreSQL,
Chromium and all its processes) inherits it. A test's CPU is what its worker's cgroup used
from the test's start to its end, so a module's shared server or browser is counted in the
test that started it, and every process is counted, exited ones too (user + system time of
pytest leaves Chromium out: docs/benchmarks.md, "The test suite").

Needs cgroup v1's `cpuacct` controller mounted at /sys/fs/cgroup/cpuacct and the right to
make groups there (root). Off unless `ISHTAR_SUITE_CPU` names a directory:

    ISHTAR_SUITE_CPU=/tmp/cpu PYTEST_ADDOPTS="-p bench.suitecpu" .ci/run
    python -m bench.suitecpu /tmp/cpu            # by directory, file and test

Each process writes `<run>-<worker>.json` there: its tests as [node id, wall s, CPU s] and
its group's whole CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

CGROUPS = Path("/sys/fs/cgroup/cpuacct")
OUT = os.environ.get("ISHTAR_SUITE_CPU", "")
RUN = os.environ.get("ISHTAR_SUITE_CPU_RUN", "suite")
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
GROUP = CGROUPS / f"{RUN}-{WORKER}"
_rows: list[tuple[str, float, float]] = []


def _usage() -> float:
    return int((GROUP / "cpuacct.usage").read_text()) / 1e9


def pytest_configure(config: pytest.Config) -> None:
    if not OUT:
        return
    Path(OUT).mkdir(parents=True, exist_ok=True)
    GROUP.mkdir(exist_ok=True)
    # a group of this name may remain from an earlier run: its count starts again here
    (GROUP / "cpuacct.usage").write_text("0")
    (GROUP / "cgroup.procs").write_text(str(os.getpid()))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    if not OUT:
        yield
        return
    wall, cpu = time.monotonic(), _usage()
    yield
    _rows.append(
        (item.nodeid, round(time.monotonic() - wall, 2), round(_usage() - cpu, 2))
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not OUT:
        return
    report = {"rows": _rows, "total": _usage()}
    (Path(OUT) / f"{RUN}-{WORKER}.json").write_text(json.dumps(report))


def summary(directory: Path, top: int) -> dict[str, Any]:
    """The CPU of every run file in `directory`, by directory, file and test."""
    rows: list[list[Any]] = []
    total = 0.0
    for path in sorted(directory.glob("*.json")):
        report = json.loads(path.read_text())
        rows += report["rows"]
        total += report["total"]
    by_dir: Counter[str] = Counter()
    by_file: Counter[str] = Counter()
    for node, _wall, cpu in rows:
        file = node.split("::")[0]
        by_file[file] += cpu
        by_dir["/".join(file.split("/")[:2])] += cpu
    tests = sorted(rows, key=lambda row: -row[2])[:top]
    return {
        "total_cpu_s": round(total, 1),
        "tests_cpu_s": round(sum(row[2] for row in rows), 1),
        "tests": len(rows),
        "by_directory": {k: round(v, 1) for k, v in by_dir.most_common()},
        "by_file": {k: round(v, 1) for k, v in by_file.most_common(top)},
        "dearest_tests": [[node, cpu, wall] for node, wall, cpu in tests],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    print(json.dumps(summary(args.directory, args.top), indent=1))


if __name__ == "__main__":
    main()
