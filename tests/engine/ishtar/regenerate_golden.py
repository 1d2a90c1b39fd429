"""Rewrite the golden playthrough files: ``python -m tests.engine.regenerate_golden``."""

from __future__ import annotations

from tests.engine.ishtar.golden_games import GAMES, GOLDEN_DIR, file_name, play, render


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for players, seed, layout in GAMES:
        path = GOLDEN_DIR / file_name(players, seed)
        path.write_text(render(play(players, seed, layout)))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
