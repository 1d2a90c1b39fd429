"""How many examples a Hypothesis test generates: its full count in CI and in a plain
`scripts/test`, a quarter of it in the developers' quick loop.

`scripts/test --quick` sets ``HYPOTHESIS_PROFILE=quick`` (tests/conftest.py registers the
profile: a quarter of Hypothesis' default 100 examples for a test that names no count).
A test that names its own count (`settings(max_examples=...)` overrides any profile) names
it through `examples`, so that the quick loop scales it too. Only the count changes: the
same properties are checked, on fewer generated cases, and CI (`.ci/run` runs
`scripts/test` without `--quick`) still generates every one.
"""

from __future__ import annotations

import os

QUICK_SHARE = 4
"""The quick loop generates one example in this many."""


def quick() -> bool:
    """Whether this run is the quick loop's (``HYPOTHESIS_PROFILE=quick``)."""
    return os.environ.get("HYPOTHESIS_PROFILE") == "quick"


def examples(full: int) -> int:
    """`full` examples, or a quarter of them (at least one) in the quick loop."""
    return max(1, full // QUICK_SHARE) if quick() else full
