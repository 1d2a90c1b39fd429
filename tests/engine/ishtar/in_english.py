"""Ishtar's engine's refusals and log lines in English (tests/engine/in_english.py)."""

from __future__ import annotations

from engine import ishtar
from engine.ishtar import Action, State
from tests.engine.in_english import InEnglish

_WORDED: InEnglish[State, Action] = InEnglish(ishtar)
why_illegal = _WORDED.why_illegal
narrate = _WORDED.narrate
