"""Counting a test's own allocations with tracemalloc, not those of the helpers' threads.

tracemalloc traces every thread of the process. The test helpers' database threads
(tests/support/databases.py) may still be emptying an earlier test's database while a
test counts bytes: a failure of a bound counted 256 KiB of theirs. A worker thread's stack
begins in concurrent.futures, and a test's own never does: trace whole stacks
(`tracemalloc.start(THREAD_DEPTH)`) and filter snapshots with `THIS_THREAD`.
"""

from __future__ import annotations

import tracemalloc

THREAD_DEPTH = 200
"""Frames kept per trace: enough to reach a worker thread's first frame."""

THIS_THREAD = [
    tracemalloc.Filter(False, "*/concurrent/futures/thread.py", all_frames=True)
]
"""Drops every trace whose stack runs through a `concurrent.futures` worker thread."""
