"""Babylon Gardens' engine's refusals and log lines in English (tests/engine/in_english.py)."""

from __future__ import annotations

from engine import babylon
from engine.babylon import Action, State
from tests.engine.in_english import InEnglish

_WORDED: InEnglish[State, Action] = InEnglish(babylon)
why_illegal = _WORDED.why_illegal
narrate = _WORDED.narrate
