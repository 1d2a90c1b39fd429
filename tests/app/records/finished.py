"""A finished game record of bots, built as the server exports one (for the analysis tests)."""

from __future__ import annotations

from typing import Any

from app.games import registry
from app.records.gamerecord import build_record
from bots.base import derive_seed


def bot_record(
    game_id: str, players: int, seed: int, level: str = "easy"
) -> dict[str, Any]:
    """The record of a whole game between bots of `level`, finished."""
    game = registry(()).get(game_id)
    rules, think = game.rules, game.think
    assert think is not None
    options = game.check_options(players, {"first_player": 0})
    state = rules.new_game(players, seed, options)
    public = rules.public_setup(state)
    moves = []
    while (seat := rules.current_player(state)) is not None:
        legal = rules.legal_actions(state)
        action = think(
            level,
            rules.view_for(state, seat),
            legal,
            derive_seed(seed, len(moves)),
            None,
        )
        moves.append(
            {
                "seq": len(moves) + 1,
                "seat": seat,
                "action": rules.encode_action(action),
                "text": rules.english(rules.narrate(state, action)),
            }
        )
        state = rules.apply(state, action)
    return build_record(
        game,
        room_id="analysis-test",
        engine_version=rules.ENGINE_VERSION,
        players=[{"seat": s, "name": f"Bot {s}"} for s in range(players)],
        setup={"players": players, "options": options},
        seed=seed,
        moves=moves,
        started_at="2026-01-01T00:00:00Z",
        finished_at="2026-01-01T01:00:00Z",
        public_setup=public,
        result=rules.final_scores(state),
    )
