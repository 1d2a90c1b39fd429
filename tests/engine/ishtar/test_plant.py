"""Plant trees (RB "Plant a Tree"; GAME-SPEC §6, §8)."""

from __future__ import annotations

from engine.ishtar import Action, State, apply, legal_actions
from engine.ishtar.components import TREES
from engine.ishtar.editions import EDITION_1
from tests.engine.ishtar.builders import (
    cell,
    force_tile,
    force_token,
    game,
    with_gems,
    with_plant,
)
from tests.engine.ishtar.in_english import why_illegal
from tests.engine.ishtar.played import reach


def planting(gems=(3, 3, 3), market=(1, 2, 3, 4, 5)):  # type: ignore[no-untyped-def]
    """Seat 0 to plant, with grass at (3,0) (line-02: F2s F1 G) and (1,-1), (3,-1)."""
    state = force_tile(game(), "line-02", (1, 0), 0)
    state = force_tile(state, "line-03", (1, -1), 0)  # G F3 G
    deck = tuple(c for c in EDITION_1.tree_cards if c not in market)
    state = state.evolve(market=market, market_trees=frozenset(market), deck=deck)
    return with_plant(with_gems(state, 0, *gems))


def test_plant_pays_the_exact_gems_and_puts_the_tree_on_free_grass() -> None:
    state = planting()
    card = EDITION_1.tree_cards[2]  # Pomegranate: 1 purple, 1 red
    assert card.cost == (1, 1, 0)
    after = apply(state, Action("plant", card=2, at=(3, 0)))
    assert after.gems[0] == (2, 2, 3)
    assert after.bank == (state.bank[0] + 1, state.bank[1] + 1, state.bank[2])
    assert after.trees == {cell(state, (3, 0)): 2}
    assert after.tree_cards[0] == (2,)


def test_a_new_card_is_revealed_with_a_tree_after_each_purchase() -> None:
    state = planting()
    after = apply(state, Action("plant", card=2, at=(3, 0)))
    assert after.market == (1, state.deck[0], 3, 4, 5)
    assert state.deck[0] in after.market_trees
    assert after.trees_left == state.trees_left - 1


def test_market_short_of_trees_reveals_a_card_without_tree() -> None:
    state = planting().evolve(trees_left=0)
    after = apply(state, Action("plant", card=2, at=(3, 0)))
    new = after.market[1]
    assert new not in after.market_trees
    assert why_illegal(after, Action("plant", card=new, at=(1, -1))) == (
        "that tree card has no tree on it, so it cannot be bought"
    )
    assert all(a.card != new for a in legal_actions(after))


def test_market_shrinks_when_the_deck_is_empty() -> None:
    state = planting().evolve(deck=())
    after = apply(state, Action("plant", card=2, at=(3, 0)))
    assert after.market == (1, 3, 4, 5)


def test_cannot_take_a_card_you_cannot_pay_for() -> None:
    state = planting(gems=(1, 0, 0))
    assert why_illegal(state, Action("plant", card=2, at=(3, 0))) == (
        "not enough gems: this tree costs 1 purple and 1 red gems"
    )


def test_trees_only_on_free_grass() -> None:
    state = planting()
    assert why_illegal(state, Action("plant", card=2, at=(1, 0))) == (
        "a tree goes on a grass space of a vegetation tile"
    )
    assert why_illegal(state, Action("plant", card=2, at=(5, 5))) == (
        "a tree goes on a grass space of a vegetation tile"
    )
    taken = apply(state, Action("plant", card=2, at=(3, 0)))
    assert why_illegal(taken, Action("plant", card=1, at=(3, 0))) == (
        "there is already a tree on that space"
    )


def test_several_trees_may_be_planted_in_one_turn() -> None:
    state = planting()
    state = apply(state, Action("plant", card=2, at=(3, 0)))
    assert state.phase == "plant"
    state = apply(state, Action("plant", card=1, at=(1, -1)))
    assert len(state.tree_cards[0]) == 2


def test_no_free_grass_leaves_only_end() -> None:
    state = planting()
    state = apply(state, Action("plant", card=2, at=(3, 0)))
    state = apply(state, Action("plant", card=1, at=(1, -1)))
    after = apply(state, Action("plant", card=4, at=(3, -1)))
    # nothing more can be planted (and the purchase revealed a card): only "end" is left
    assert (after.phase, after.current) == ("plant", 0)
    assert legal_actions(after) == [Action("end")]
    assert apply(after, Action("end")).current == 1


def test_a_turn_ends_only_with_end_after_the_last_affordable_tree() -> None:
    """docs/games/ishtar/rules.md "A turn ends with end": planting the last tree one can
    afford does not end the turn under the player's hand; it waits for ``end``, and the
    planting can be undone while no card came out of the draw pile."""
    revealing = planting(gems=(1, 1, 0))  # exactly the Pomegranate's price
    after = apply(revealing, Action("plant", card=2, at=(3, 0)))
    assert after.gems[0] == (0, 0, 0)
    assert (after.phase, after.current, after.turn) == ("plant", 0, revealing.turn)
    assert legal_actions(after) == [Action("end")]  # a card was revealed: no undo
    ended = apply(after, Action("end"))
    assert (ended.phase, ended.current) == ("choose", 1)

    quiet = planting(gems=(1, 1, 0)).evolve(deck=())  # nothing comes out of the deck
    after = apply(quiet, Action("plant", card=2, at=(3, 0)))
    assert (after.phase, after.current) == ("plant", 0)
    assert legal_actions(after) == [Action("end"), Action("undo")]
    assert apply(after, Action("undo")) == quiet


def test_games_begun_before_engine_1_2_end_a_turn_by_itself_when_nothing_is_left() -> (
    None
):
    """docs/games/ishtar/rules.md "A turn ends with end": a game begun under an engine
    before 1.2.0 (option ``turn_end: "auto"``) keeps the rule its move log was played by:
    with nothing left to plant and nothing to undo the turn ended by itself; while a step
    can be taken back it waited for ``end``."""
    state = planting().evolve(auto_end=True)
    state = apply(state, Action("plant", card=2, at=(3, 0)))
    state = apply(state, Action("plant", card=1, at=(1, -1)))
    after = apply(state, Action("plant", card=4, at=(3, -1)))  # reveals: no undo
    assert (after.phase, after.current) == ("choose", 1)

    quiet = planting(gems=(1, 1, 0)).evolve(deck=(), auto_end=True)
    after = apply(quiet, Action("plant", card=2, at=(3, 0)))
    assert legal_actions(after) == [Action("end"), Action("undo")]


def test_end_action_ends_the_turn() -> None:
    after = apply(planting(), Action("end"))
    assert (after.phase, after.current, after.turn) == ("choose", 1, 2)


def test_reserved_card_is_planted_later_by_paying_its_cost() -> None:
    state = planting().evolve(reserved=(12, None))
    assert EDITION_1.tree_cards[12].cost == (3, 1, 0)
    after = apply(state, Action("plant", card=12, at=(3, 0)))
    assert after.reserved == (None, None)
    assert after.market == state.market  # no refill for the reserved card
    assert after.tree_cards[0] == (12,)


def test_tree_count_is_twenty() -> None:
    state = game()
    assert state.trees_left + len(state.market_trees) == TREES == 20


def test_no_tree_on_a_blooming_token() -> None:
    state = force_token(planting(), "F2", [(3, 0)])
    assert why_illegal(state, Action("plant", card=2, at=(3, 0))) == (
        "a tree goes on a grass space of a vegetation tile"
    )
    assert all(a.at != (3, 0) for a in legal_actions(state))


def _revealed_card_affordable(state: State) -> bool:
    """A planting step where a purchase turns up a card the player can then buy too."""
    if state.phase != "plant" or not state.deck:
        return False
    for action in legal_actions(state):
        if action.type == "plant" and action.card in state.market:
            after = apply(state, action)
            revealed = state.deck[0]
            if any(a.card == revealed for a in legal_actions(after)):
                return True
    return False


def test_a_card_revealed_mid_turn_can_be_bought_the_same_turn() -> None:
    # RB: "Choose any Tree Card among the available five", "Reveal the next Tree Card from
    # the draw pile"; the engine refills the market after each purchase (docs/games/ishtar/rules.md).
    state = reach(2, None, _revealed_card_affordable)
    seat = state.current
    buy = next(
        a
        for a in legal_actions(state)
        if a.type == "plant"
        and a.card in state.market
        and any(b.card == state.deck[0] for b in legal_actions(apply(state, a)))
    )
    after = apply(state, buy)
    revealed = state.deck[0]
    assert len(after.market) == len(state.market) == 5  # again five to choose among
    assert revealed in after.market and revealed in after.market_trees
    assert after.phase == "plant" and after.current == seat
    assert not after.steps  # the reveal is a boundary: the purchase cannot be undone
    second = next(a for a in legal_actions(after) if a.card == revealed)
    final = apply(after, second)
    assert final.tree_cards[seat][-2:] == (buy.card, revealed)
