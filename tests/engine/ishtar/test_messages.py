"""Ishtar speaks in messages (docs/i18n.md): catalogues complete in en, fr and nl, every
message the engine can say renders fully in each, and the English is what it always was."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine.ishtar as ishtar
from engine.ishtar import (
    Action,
    IllegalAction,
    apply,
    decode_action,
    is_over,
    legal_actions,
    legal_with_previews,
    narrate,
    new_game,
    preview,
    why_illegal,
)
from engine.ishtar.components import PLAYER_COLOURS
from engine.ishtar.layout import layout_to_json, preset_layout
from engine.ishtar.rules.trees import free_grass
from engine.ishtar.words import CATALOGUES, english
from engine.messages import LANGUAGES, render
from tests.engine import wording
from tests.engine.catalogue_checks import (
    Sent,
    complete,
    english_along,
    in_colours,
    largest,
    refusals,
    scan,
    serves_languages,
    unsaid,
)
from tests.engine.ishtar.golden_games import GOLDEN_DIR
from tests.engine.ishtar.played import load

SEATS = ["Ana", "Bo", "Cy", "Di"]


def test_every_language_has_the_keys_and_arguments_of_english() -> None:
    complete(CATALOGUES)


def test_messages_gives_each_language_and_refuses_another() -> None:
    serves_languages(ishtar.messages, CATALOGUES, "de")
    assert ishtar.messages("nl")["ishtar.word.shape.triangle"] == "driehoek"
    with pytest.raises(ValueError, match=r"^Ishtar speaks en, fr, nl, not 'de'$"):
        ishtar.messages("de")


def _playouts() -> Iterator[Sent]:
    """Every message of seeded random games: each legal action's log line (a sample of the
    many placements) and preview messages, and the refusals of the wording probes."""
    for players, seed, layout in wording.ISHTAR_GAMES[:8]:
        rng = random.Random(seed)
        state = new_game(players, seed, {"layout": layout, "edition": "1"})
        while not is_over(state):
            legal = legal_actions(state)
            shown = legal if len(legal) < 30 else rng.sample(legal, 30)
            for action in shown:
                yield f"seed {seed} {action}", narrate(state, action)
            for entry in legal_with_previews(state):
                for field in ("message", "no_assistant_message"):
                    if field in entry["preview"]:
                        yield f"seed {seed} preview", entry["preview"][field]
            probes = [wording._ishtar_probe(rng, state) for _ in range(wording.PROBES)]
            for probe in probes + _provoked(state):
                found = why_illegal(state, probe)
                if found is not None:
                    yield f"seed {seed} probe", found
            state = apply(state, rng.choice(legal))
        yield "over", why_illegal(state, Action("end")) or {}


def _provoked(state: ishtar.State) -> list[Action]:
    """Refusals random probes seldom meet: a tree on a space that takes none, two spaces
    apart for a double token, a gem of no colour."""
    hexes = state.geo.hexes
    found = [Action("choose", pile=0, pay=("gold",))]
    if state.phase == "plant":
        card = state.market[0] if state.market else None
        found += [
            Action("plant", card=card, at=hexes[cell])
            for cell in (
                state.flowers.index(1) if 1 in state.flowers else 0,
                *state.trees,
            )
        ]
    grass = free_grass(state)
    if state.phase == "bloom" and state.bloom == "double" and grass:
        apart = [c for c in grass if c not in state.geo.neighbours[grass[0]]]
        for token in ("F1F1", "F1F2"):
            found.append(
                Action("bloom", token=token, cells=(hexes[grass[0]], hexes[apart[-1]]))
            )
    return found


def _layouts() -> list[tuple[int, Any]]:
    """Custom layouts breaking each rule of set-up."""
    boards = layout_to_json(preset_layout(2))

    def changed(index: int, **fields: Any) -> list[dict[str, Any]]:
        return [{**b, **fields} if i == index else b for i, b in enumerate(boards)]

    far = [{**b, "at": [b["at"][0] * 9, b["at"][1] * 9]} for b in boards]
    return [
        (2, boards[:3]),
        (2, changed(1, board=9)),
        (2, changed(1, board=boards[0]["board"])),
        (2, changed(1, side="c")),
        (2, changed(1, rotation=7)),
        (2, changed(1, rotation=1.5)),
        (2, changed(1, at="12")),
        (2, changed(1, at=[1, 0])),
        (2, changed(1, at=boards[0]["at"])),
        (2, far),
    ]


def _refusals() -> Iterator[Sent]:
    for players, layout in _layouts():
        try:
            ishtar.check_options(players, {"layout": layout})
        except IllegalAction as error:
            yield f"layout {layout}", error.message
    try:
        ishtar.check_options(2, {"edition": "0"})
    except IllegalAction as error:
        yield "edition 0", error.message
    # Options that are no object are no refusal of the rules: the server checks them first.
    yield from refusals(ishtar, plain=["options"])


def _rare() -> Iterator[Sent]:
    """Positions random play seldom reaches: a tile with nowhere to go (discard)."""
    state = load("discard")
    for action in legal_actions(state):
        yield "discard", narrate(state, action)


def test_every_message_the_engine_says_renders_fully_in_every_language() -> None:
    sent = [*_playouts(), *_refusals(), *_rare()]
    assert scan(CATALOGUES, sent, SEATS) == len(sent)
    logged = {key for key in CATALOGUES["en"] if key.startswith("ishtar.log.")}
    # Every kind of log line is met (the fallback for an unknown action type aside).
    assert unsaid(CATALOGUES["en"], sent, "log") == {"ishtar.log.deed.other"}
    deeds = set()
    for _, message in sent:
        if message["key"] in ("ishtar.log.move", "ishtar.log.undo"):
            deeds.add(message["params"]["deed"]["key"])
    assert logged - deeds == {
        "ishtar.log.move",
        "ishtar.log.undo",
        "ishtar.log.deed.other",
    }
    unmet = unsaid(CATALOGUES["en"], sent, "reason")
    # Met only where the tree cards run out (a market card with no tree left to put on it),
    # or in games begun with a bad set-up the server refuses before the engine sees it.
    assert unmet <= {
        "ishtar.reason.no_tree_to_buy",
        "ishtar.reason.no_tree_to_reserve",
        "ishtar.reason.layout.players",
    }, sorted(unmet)


def test_the_english_is_the_message_rendered_in_english() -> None:
    english_along(
        ishtar, english, new_game(3, 5, {"edition": "1"}), 5, 60, wording._ishtar_probe
    )


def test_an_illegal_action_carries_its_message_next_to_its_reason() -> None:
    state = new_game(2, 101, {"edition": "1"})
    with pytest.raises(IllegalAction) as refused:
        apply(state, decode_action({"type": "choose", "pile": 9, "pay": []}))
    assert refused.value.message == {
        "key": "ishtar.reason.no_pile",
        "params": {"pile": 9, "last": 5},
    }
    assert refused.value.reason == "there is no pile index 9: indices run from 0 to 5"
    with pytest.raises(IllegalAction) as bad:
        ishtar.check_options(2, {"first_player": 3})
    assert bad.value.message["key"] == "ishtar.reason.options.first_player"
    assert render(CATALOGUES["fr"], bad.value.message) == (
        "Le premier joueur doit être une place de 0 à 1."
    )


def _golden_steps() -> list[tuple[ishtar.State, ishtar.Action, str]]:
    record = json.loads((GOLDEN_DIR / "game-2p-seed101.json").read_text())
    state = new_game(2, 101, {"edition": "1"})
    steps = []
    for step in record["steps"][:9]:
        action = decode_action(step["action"])
        steps.append((state, action, step["log"]))
        state = apply(state, action)
    return steps


_in = in_colours(CATALOGUES, PLAYER_COLOURS)


def test_a_french_game_log_reads_in_french() -> None:
    nbsp = "\u00a0"
    french = [_in("fr", narrate(s, a)) for s, a, _ in _golden_steps()]
    assert french[0] == (
        "Blue a posé l’arrosoir sur la pile 5 et a pris une tuile en triangle"
    )
    assert french[2] == (
        f"Blue a annulé{nbsp}: a placé une tuile en triangle et a récolté 1 gemme violette"
    )
    assert french[6] == (
        "Yellow a déplacé l’arrosoir vers la pile 1 (en payant 1 gemme violette) "
        "et a pris une tuile en chevron"
    )
    assert french[8] == "Yellow a placé un assistant sur le nouveau parterre"
    dutch = [_in("nl", narrate(s, a)) for s, a, _ in _golden_steps()]
    assert dutch[6] == (
        "Yellow verplaatste de gieter naar stapel 1 (voor 1 paarse edelsteen) "
        "en nam een chevrontegel"
    )


def test_the_golden_log_lines_are_the_english_of_their_messages() -> None:
    for state, action, line in _golden_steps():
        assert _in("en", narrate(state, action)) == line


def test_a_lost_assistant_is_said_in_the_preview_and_the_log_in_every_language() -> (
    None
):
    for players, seed, layout in wording.ISHTAR_GAMES:
        rng = random.Random(seed)
        state = new_game(players, seed, {"layout": layout, "edition": "1"})
        while not is_over(state):
            legal = legal_actions(state)
            for action in legal:
                shown = preview(state, action)
                if "no_assistant" not in shown:
                    continue
                note = shown["no_assistant_message"]
                assert english(note) == shown["no_assistant"]
                line = narrate(state, action)
                assert line["params"]["deed"]["params"]["why"] == note
                french = _in("fr", line)
                assert "pas d’assistant possible\u00a0: " in french
                assert _in("fr", note) in french
                assert "geen assistent mogelijk: " in _in("nl", line)
                return
            state = apply(state, rng.choice(legal))
    raise AssertionError("no placement lost its assistant in the wording games")


def test_the_undo_preview_carries_its_message() -> None:
    state, action, line = _golden_steps()[2]
    shown = preview(state, action)
    assert shown["text"] == english(shown["message"])
    assert line == f"Blue took back: {shown['text']}"
    assert (
        _in("nl", shown["message"])
        == "legde een driehoekstegel en verzamelde 1 paarse edelsteen"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_message_is_small(lang: str) -> None:
    """The largest messages of the playouts stay far below a log line's bound on the wire."""
    assert largest(_playouts()) < 1024
    assert max(len(_in(lang, m).encode()) for _, m in _refusals()) < 300
