"""How the suite's tests are shared among pytest-xdist workers (`scripts/test`).

A work unit is the tests of one module when they share a fixture of module or package
scope (a live server, a browser: every module of tests/e2e, and any module that declares
such a fixture), else a single test. Each unit goes whole to the next idle worker, in
collection order, which tests/conftest.py makes the dearest units first.

xdist's own `loadgroup` would group by an `xdist_group` marker, but with pytest 9 its
renaming of the test ids no longer takes (it sets `_nodeid`; pytest reads `_id`), so every
test went alone: a browser module's live server was started by every worker that ran one of
its tests.
"""

from __future__ import annotations

import functools
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[2]
SHARED_SCOPES = ('scope="module"', 'scope="package"')


@functools.cache
def shares_fixtures(module: str) -> bool:
    """Whether the tests of `module` (a path from the project's root) share a fixture of
    module or package scope."""
    if module.startswith("tests/e2e/"):
        return True  # tests/e2e/conftest.py: a live server per module, a browser
    try:
        text = (ROOT / module).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(scope in text for scope in SHARED_SCOPES)


def work_unit(nodeid: str) -> str:
    """The unit a test is scheduled in: its module, or the test alone."""
    module = nodeid.split("::", 1)[0]
    return module if shares_fixtures(module) else nodeid


class ModuleUnits(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's scheduling by scope, with `work_unit` as the scope."""

    def _split_scope(self, nodeid: str) -> str:
        return work_unit(nodeid)
