"""Tables of the balance report (docs/games/ishtar/balance.md) from `ishtar simulate --json` outputs.

    ishtar simulate --players 2 --bots medium,medium --games 400 --seed 20261129 --json > b2.json
    python -m bots.ishtar.balance b2.json b3.json b4.json

prints the Markdown tables: first-player advantage, share of points by category, how often a
category decided the game, skills (unlocked, points, win rate) and tree cards bought.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

SKILL_NAMES = {
    "A": "A gems left",
    "B": "B tablets",
    "C": "C fountains",
    "D": "D trees",
    "E": "E flower spaces",
    "F": "F free can step",
    "G": "G single token",
    "H": "H two assistants",
    "I": "I reserve a card",
    "J": "J double token",
}


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def tables(runs: Sequence[dict[str, Any]]) -> str:
    heads = " | ".join(f"{r['players']} players" for r in runs)
    rule = "|---" * (len(runs) + 1) + "|"
    out = [f"| | {heads} |", rule]
    out.append("| games | " + " | ".join(str(r["games"]) for r in runs) + " |")
    out.append(
        "| first player wins | "
        + " | ".join(
            f"{pct(r['first_player_win_rate'])} [{pct(r['first_player_ci'][0])}, "
            f"{pct(r['first_player_ci'][1])}] (fair {pct(1 / r['players'])})"
            for r in runs
        )
        + " |"
    )
    for position in ("1", "2", "3", "4"):
        out.append(
            f"| wins from position {position} | "
            + " | ".join(
                pct(r["position_win_rates"][position])
                if position in r["position_win_rates"]
                else "–"
                for r in runs
            )
            + " |"
        )
    out.append(
        "| game length (turns) | "
        + " | ".join(f"{r['avg_turns']:.1f}" for r in runs)
        + " |"
    )
    out.append("")
    categories = sorted({c for r in runs for c in r["category_share"]})
    out += [f"| share of points | {heads} |", rule]
    for category in categories:
        out.append(
            f"| {category} | "
            + " | ".join(pct(r["category_share"].get(category, 0)) for r in runs)
            + " |"
        )
    out.append("")
    out += [f"| winner alone best in category | {heads} |", rule]
    for category in categories:
        out.append(
            f"| {category} | "
            + " | ".join(pct(r["winner_led_category"].get(category, 0)) for r in runs)
            + " |"
        )
    out.append("")
    out += [
        "| skill | "
        + " | ".join(f"{r['players']}p unlocked / VP / win rate" for r in runs)
        + " |",
        rule,
    ]
    for skill, name in SKILL_NAMES.items():
        cells = []
        for r in runs:
            s = r["skills"][skill]
            vp = f"{s['avg_vp_when_unlocked']:.1f} VP" if skill in "ABCDE" else "–"
            cells.append(
                f"{pct(s['unlock_rate'])} / {vp} / {pct(s['win_rate_when_unlocked'])}"
            )
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out.append("")
    out += [f"| tree cards | {heads} |", rule]
    out.append(
        "| bought per player | "
        + " | ".join(
            f"{sum(r['tree_cards']['avg_per_player'].values()) / len(r['tree_cards']['avg_per_player']):.2f}"
            for r in runs
        )
        + " |"
    )
    out.append(
        "| bought per game (of 20 trees) | "
        + " | ".join(
            f"{sum(r['tree_cards']['bought_per_game'].values()):.2f}" for r in runs
        )
        + " |"
    )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    paths = list(argv if argv is not None else sys.argv[1:])
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            runs.append(json.load(handle))
    print(tables(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
