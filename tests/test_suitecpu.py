"""bench/suitecpu.py's summary of the per-worker files (the plugin itself needs root and a
cgroup v1 `cpuacct` mount: docs/benchmarks.md, "The test suite")."""

from __future__ import annotations

import json
from pathlib import Path

from bench.suitecpu import summary


def test_the_summary_adds_the_workers_by_directory_file_and_test(
    tmp_path: Path,
) -> None:
    (tmp_path / "run-gw0.json").write_text(
        json.dumps(
            {
                "rows": [
                    ["tests/e2e/test_a.py::test_one", 10.0, 7.5],
                    ["tests/app/play/test_b.py::test_two[x]", 2.0, 1.0],
                ],
                "total": 9.0,
            }
        )
    )
    (tmp_path / "run-gw1.json").write_text(
        json.dumps(
            {"rows": [["tests/e2e/test_a.py::test_three", 4.0, 2.5]], "total": 3.0}
        )
    )
    report = summary(tmp_path, top=2)
    assert report["total_cpu_s"] == 12.0
    assert report["tests_cpu_s"] == 11.0
    assert report["tests"] == 3
    assert report["by_directory"] == {"tests/e2e": 10.0, "tests/app": 1.0}
    assert report["by_file"] == {
        "tests/e2e/test_a.py": 10.0,
        "tests/app/play/test_b.py": 1.0,
    }
    assert report["dearest_tests"] == [
        ["tests/e2e/test_a.py::test_one", 7.5, 10.0],
        ["tests/e2e/test_a.py::test_three", 2.5, 4.0],
    ]
