"""The special action (RB) for the icon of the tile just placed; optional, cannot be saved.

Assistant icon: put an assistant from your supply on the icon's space, only if its flowerbed
has no assistant. Skill icon: unlock one skill by putting any 2 gems of your supply on it; an
upper skill needs the lower skill below it. Wild: either one. Skill effects happen at once:
H takes your assistants from the carpet, G / J lead to the bloom step, I to the reserve step.
"""

from __future__ import annotations

from engine.ishtar.components import SKILL_COST, SKILLS
from engine.ishtar.rules import bloom, reserve
from engine.ishtar.rules.gardens import gardens
from engine.ishtar.rules.gems import as_counts, covers, minus, payments
from engine.ishtar.rules.turn import to_plant
from engine.ishtar.state import Action, State, replace_at
from engine.ishtar.words import raw, refusal, word
from engine.messages import Message


def icon(state: State) -> tuple[str, int] | None:
    """The icon of the tile placed this turn and the cell of its space, if any."""
    if not state.placed:
        return None
    placed = state.placed[-1]
    for space, cell in zip(state.ed.tiles[placed.tile].spaces, placed.cells):
        if space.icon is not None:
            return space.icon, cell
    return None


def assistant_reason(state: State) -> Message | None:
    found = icon(state)
    if found is None or found[0] not in ("a", "w"):
        return refusal("no_assistant_icon")
    if state.assistants_supply[state.current] == 0:
        return refusal("no_assistant_left")
    g = gardens(state)
    if g.bed[found[1]] in g.bed_assistant:
        return refusal("assistants_share")
    return None


NO_SUPPLY = "supply"
"""Why a tile's assistant icon would give nothing: the player's supply is empty."""

BED_TAKEN = "bed"
"""Why a tile's assistant icon would give nothing: its flowerbed already has an assistant."""


def lost_message(lost: str) -> Message:
    """The words of ``NO_SUPPLY`` or ``BED_TAKEN``: "none left in the supply", "that
    flowerbed has one" (the note after "no assistant possible:")."""
    return word(f"no_assistant.{lost}")


def assistant_lost(state: State, cells: tuple[int, ...]) -> str | None:
    """Why the tile in hand, placed on ``cells``, would give no assistant for its icon.

    None when the tile has no assistant (or wild) icon, or when the assistant would be
    possible; else ``NO_SUPPLY`` or ``BED_TAKEN`` (`lost_message`: the note after "no assistant possible:")
    that the placement's preview and its log line carry (the assistant vanishing silently
    surprised players). The icon's flowerbed after placing is the tile's flower spaces joined
    to the icon's, through each other or through a flowerbed both touch, with the flowerbeds
    they touch; it holds an assistant when one of those does.
    """
    assert state.hand is not None
    spaces = state.ed.tiles[state.hand].spaces
    at = next((i for i, sp in enumerate(spaces) if sp.icon in ("a", "w")), None)
    if at is None:
        return None
    if state.assistants_supply[state.current] == 0:
        return NO_SUPPLY
    if not state.assistants:
        return None
    g = gardens(state)
    flowers = state.flowers
    neighbours = state.geo.neighbours
    new = [cells[i] for i, sp in enumerate(spaces) if sp.flowers > 0]
    touching = {c: {g.bed[n] for n in neighbours[c] if flowers[n] > 0} for c in new}
    joined = {cells[at]}
    beds = set(touching[cells[at]])
    grew = True
    while grew:
        grew = False
        for c in new:
            if c not in joined and (
                touching[c] & beds or any(c in neighbours[j] for j in joined)
            ):
                joined.add(c)
                beds |= touching[c]
                grew = True
    return BED_TAKEN if any(b in g.bed_assistant for b in beds) else None


def open_skills(state: State) -> list[str]:
    """Skills the current player may unlock now (not yet unlocked; upper ones need the lower)."""
    owned = state.skills[state.current]
    return [
        letter
        for letter, skill in sorted(SKILLS.items())
        if letter not in owned and (skill.below is None or skill.below in owned)
    ]


def skill_reason(state: State, action: Action) -> Message | None:
    found = icon(state)
    if found is None or found[0] not in ("s", "w"):
        return refusal("no_skill_icon")
    letter = action.skill
    if letter not in SKILLS:
        return refusal("no_skill", skill=raw(letter))
    owned = state.skills[state.current]
    if letter in owned:
        return refusal("skill_owned", skill=letter)
    below = SKILLS[letter].below
    if below is not None and below not in owned:
        return refusal("skill_below", skill=letter, below=below)
    gems = state.gems[state.current]
    if sum(gems) < SKILL_COST:
        return refusal("skill_short", cost=SKILL_COST)
    counts = as_counts(action.pay)
    if counts is None or len(action.pay) != SKILL_COST:
        return refusal("skill_payment", cost=SKILL_COST)
    if not covers(gems, counts):
        return refusal("not_your_gems")
    return None


def legal(state: State) -> list[Action]:
    actions = []
    if assistant_reason(state) is None:
        actions.append(Action("assistant"))
    found = icon(state)
    gems = state.gems[state.current]
    if found is not None and found[0] in ("s", "w") and sum(gems) >= SKILL_COST:
        for letter in open_skills(state):
            for pay in payments(gems, SKILL_COST):
                actions.append(Action("skill", skill=letter, pay=pay))
    actions.append(Action("pass"))
    return actions


def reason(state: State, action: Action) -> Message | None:
    if action.type == "assistant":
        return assistant_reason(state)
    if action.type == "skill":
        return skill_reason(state, action)
    return None


def enter_special(state: State) -> State:
    """After placing: offer the special action if there is a real choice, else go on."""
    if len(legal(state)) > 1:
        return state.evolve(phase="special")
    return to_plant(state)


def apply(state: State, action: Action) -> State:
    seat = state.current
    if action.type == "assistant":
        found = icon(state)
        assert found is not None
        assistants = dict(state.assistants)
        assistants[found[1]] = seat
        return to_plant(
            state.evolve(
                assistants=assistants,
                assistants_supply=replace_at(
                    state.assistants_supply, seat, state.assistants_supply[seat] - 1
                ),
            )
        )
    if action.type == "pass":
        return to_plant(state)
    assert action.skill is not None
    paid = as_counts(action.pay)
    assert paid is not None
    skills = dict(state.skills[seat])
    skills[action.skill] = tuple(action.pay)
    after = state.evolve(
        gems=replace_at(state.gems, seat, minus(state.gems[seat], paid)),
        skills=replace_at(state.skills, seat, skills),
    )
    return _skill_effect(after, action.skill)


def _skill_effect(state: State, letter: str) -> State:
    seat = state.current
    if letter == "H":
        back = min(state.ed.skill_h_assistants, state.assistants_carpet[seat])
        return to_plant(
            state.evolve(
                assistants_supply=replace_at(
                    state.assistants_supply, seat, state.assistants_supply[seat] + back
                ),
                assistants_carpet=replace_at(
                    state.assistants_carpet, seat, state.assistants_carpet[seat] - back
                ),
            )
        )
    if letter in ("G", "J"):
        blooming = state.evolve(
            phase="bloom", bloom="single" if letter == "G" else "double"
        )
        return blooming if bloom.possible(blooming) else to_plant(state)
    if letter == "I":
        reserving = state.evolve(phase="reserve")
        return reserving if reserve.legal(reserving) else to_plant(state)
    return to_plant(state)
