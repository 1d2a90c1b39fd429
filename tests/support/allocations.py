"""Counting a test's own allocations with tracemalloc, not those of the helpers' threads.

tracemalloc traces every thread of the process. The test helpers' database threads
(tests/support/databases.py) may still be emptying an earlier test's database while a
test counts bytes: failures of bounds counted 256 KiB and 621 KiB of theirs. Those threads
work only on databases already released: once they are done (`TestDatabases.settle`), a
test that starts no thread and no database of its own is the only one allocating, and a
trace one frame deep counts its bytes. (Whole stacks, to tell the threads apart by their
first frame, made such a test ten times dearer: 9.4 s and 30 s of CPU.)
"""

from __future__ import annotations

import tracemalloc

from tests.support.databases import TestDatabases


def trace_alone(databases: TestDatabases) -> None:
    """Start tracing once no helper thread allocates any more (stop with tracemalloc.stop)."""
    databases.settle()
    tracemalloc.start(1)
