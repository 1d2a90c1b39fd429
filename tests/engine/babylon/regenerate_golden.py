"""Rewrite Babylon Gardens' golden playthroughs:
``python -m tests.engine.babylon.regenerate_golden``."""

from __future__ import annotations

from tests.engine.babylon.golden_games import GAMES, GOLDEN_DIR, file_name, play, render


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for players, seed, options in GAMES:
        path = GOLDEN_DIR / file_name(players, seed, options)
        path.write_text(render(play(players, seed, options)))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
