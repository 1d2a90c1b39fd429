"""Bot tests need the engine's import surface; until it lands they are not collected."""

from __future__ import annotations

import engine

collect_ignore_glob = [] if hasattr(engine, "sample_state") else ["test_*.py"]
