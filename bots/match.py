"""One game between bots, from set-up to final scores: the loop the simulator runs.

Each step the seat to act gets its own view and the legal actions, exactly as the server would
hand them; the bot's seed is derived from the game seed and the step number, so a game is
reproducible from its seed and the bots' settings alone.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.base import Bot, derive_seed

Think = Callable[[str, dict[str, Any], list[Any], int, float | None], Any]
"""A game's bots as one function: ``think(level, view, legal, seed, think_s)``; a searching
bot thinks for at most `think_s` seconds (None: by its iteration budget alone, the same
on every machine)."""


class _Thinker:
    """A bot of one level of any game, through the game's `think` function."""

    def __init__(self, think: Think, level: str, think_s: float | None) -> None:
        self.think, self.level, self.think_s = think, level, think_s

    def act(self, view: dict[str, Any], legal: Sequence[Any], seed: int) -> Any:
        return self.think(self.level, view, list(legal), seed, self.think_s)


@dataclass
class GameRecord:
    """What one bot game produced, in plain data (picklable, JSON-ready)."""

    seed: int
    levels: list[str]
    first_player: int
    scores: dict[str, Any]
    turns: int
    steps: int
    skills: list[dict[str, list[str]]]
    tree_cards: list[list[int]]
    think_ms: dict[str, list[float]] = field(default_factory=dict)
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)


def play_game(
    levels: Sequence[str],
    seed: int,
    first_player: int | None = 0,
    bots: Sequence[Bot] | None = None,
    max_steps: int = 5000,
    *,
    rules: str = "engine.ishtar",
    think: Think | None = None,
    think_s: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Play a whole game with a bot of `levels[seat]` in every seat (through `think`, the
    game's bots: the registry's descriptor, app/games.py), or with `bots`; `rules` names
    the game's engine module. `options` are the game's own options (its `check_options`
    judges them); `first_player` is added to them unless they name it."""
    engine = importlib.import_module(rules)
    apply, current_player, view_for = (
        engine.apply,
        engine.current_player,
        engine.view_for,
    )
    legal_actions = engine.legal_actions
    players = len(levels)
    if bots is not None:
        seated: list[Bot] = list(bots)
    elif think is not None:
        seated = [_Thinker(think, level, think_s) for level in levels]
    else:
        raise ValueError("play_game needs the game's bots: `think` or `bots`")
    state = engine.new_game(
        players, seed, {"first_player": first_player, **dict(options or {})}
    )
    think_ms: dict[str, list[float]] = {level: [] for level in levels}
    cpu_ms: dict[str, list[float]] = {level: [] for level in levels}
    steps = 0
    while (seat := current_player(state)) is not None:
        if steps >= max_steps:
            raise RuntimeError(f"game {seed} did not end within {max_steps} steps")
        legal = legal_actions(state)
        view = view_for(state, seat)
        started, cpu = time.perf_counter(), time.process_time()
        action = seated[seat].act(view, legal, derive_seed(seed, steps))
        think_ms[levels[seat]].append((time.perf_counter() - started) * 1000)
        cpu_ms[levels[seat]].append((time.process_time() - cpu) * 1000)
        state = apply(state, action)
        steps += 1
    final = view_for(state, None)
    return GameRecord(
        seed=seed,
        levels=list(levels),
        first_player=int(final.get("first_player", first_player or 0)),
        scores=engine.final_scores(state),
        turns=int(final.get("turn", 0)),
        steps=steps,
        skills=[dict(p.get("skills") or {}) for p in final["players"]],
        tree_cards=[list(p.get("tree_cards") or []) for p in final["players"]],
        think_ms=think_ms,
        cpu_ms=cpu_ms,
    )
