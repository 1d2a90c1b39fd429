"""bots/ishtar/last_seat.py: medium bots with another level for the moves that may be a
seat's last (docs/journal/ishtar-balance-history.md, "Edition 4 (steps 28–30)")."""

from __future__ import annotations

import pytest

from bots.ishtar import last_seat
from engine.ishtar import apply, current_player, legal_actions, new_game, view_for


def test_a_game_counts_each_position_once_and_the_late_level_plays_only_at_the_end() -> (
    None
):
    game = last_seat.play(7, 3, "4", "easy")
    assert sum(game.wins.values()) == pytest.approx(1.0)
    assert sum(game.leaders.values()) == pytest.approx(1.0)
    assert sorted(game.scores) == [0, 1, 2]
    best = max(game.scores.values())
    assert {p for p, share in game.wins.items() if share} == {
        p for p, total in game.scores.items() if total == best
    }
    assert 0 < game.late_moves < game.moves / 2


def test_only_the_turns_near_the_end_may_be_a_seats_last() -> None:
    state = new_game(3, 5, {"first_player": 0, "edition": "4"})
    assert not last_seat.may_be_last(view_for(state, current_player(state)))
    while not view_for(state, None)["end_triggered"]:
        state = apply(state, legal_actions(state)[0])
    seat = current_player(state)
    assert seat is not None
    # after the end is triggered, every seat still to play this round plays its last turn
    assert last_seat.may_be_last(view_for(state, seat))


def test_the_command_prints_each_positions_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = last_seat.main(
        ["--players", "2", "--games", "2", "--jobs", "1", "--late", "easy"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "2 games of 2 players, edition 4" in out
    wins = next(line for line in out.splitlines() if line.startswith("wins"))
    assert len(wins.split()) == 3  # the label and two positions
