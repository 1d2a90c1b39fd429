"""Checks of catalogue patterns, on the one parser of the ICU subset (engine/messages.py,
whose browser twin is static/js/i18n.js): what a pattern's arguments are, with their kinds,
and whether its plural branches are categories a language has.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.messages import Choice, Node, parse

PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


def argument_kinds(pattern: str) -> set[str]:
    """The arguments `pattern` uses, nested ones included: `name` for a plain one,
    `name:plural` or `name:select` for a choice. ValueError when it does not parse, or a
    plural has a branch that is neither a category nor `=n`."""
    found: set[str] = set()
    _walk(parse(pattern), found)
    return found


def argument_names(pattern: str) -> set[str]:
    """The names of the arguments `pattern` uses, whatever their kind."""
    return {kind.split(":")[0] for kind in argument_kinds(pattern)}


def _walk(nodes: Iterable[Node], found: set[str]) -> None:
    for node in nodes:
        if isinstance(node, Choice):
            found.add(f"{node.name}:{node.kind}")
            if node.kind == "plural":
                odd = [
                    s
                    for s in node.branches
                    if s not in PLURAL_CATEGORIES and not s.startswith("=")
                ]
                if odd:
                    raise ValueError(f"{node.name}: unknown plural category {odd}")
            for branch in node.branches.values():
                _walk(branch, found)
        elif not isinstance(node, str) and hasattr(node, "name"):
            found.add(node.name)
