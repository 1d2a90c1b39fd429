"""Messages and their patterns: the ICU MessageFormat subset of docs/i18n.md, in Python.

What the engines say to people leaves them as a **message**, ``{"key": ..., "params": {...}}``,
which each reader's client renders in their language from a catalogue of patterns; the
engines render their English text (the log's ``text``, an error's ``reason``) from the same
message with this module, so there is one source of English. The browser has its twin
(static/js/i18n.js); both pass tests/fixtures/i18n-cases.json.

A pattern is text with arguments in braces: ``{name}``; ``{n, plural, =0 {..} one {..} other
{..}}`` where ``#`` is the number; ``{c, select, red {..} other {..}}``. Branches nest; there
is no quoting. A param is a string, a number, a message (rendered first), ``{"seat": n}`` or
``{"list": [...]}`` (joined as a conjunction). A missing param renders as ``{name}`` and a
missing key as the key itself, so a mistake shows instead of vanishing.

Standard library only: both engines import it (they stay independent of each other).
Numbers are written plainly (``1234``, ``-1``): the engines' numbers are small, and their
English must stay what it was (the browser formats with ``Intl.NumberFormat``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

Message = dict[str, Any]
"""``{"key": str, "params": {name: value}}``."""

LANGUAGES: tuple[str, ...] = ("en", "fr", "nl")
"""The languages of the catalogues."""


def message(key: str, /, **params: Any) -> Message:
    """A message of ``key`` with ``params``: ``message("x.placed", n=2)``."""
    return {"key": key, "params": params}


def seat(number: int) -> dict[str, int]:
    """The param of a seat: rendered as the seat's name (or colour) by whoever renders."""
    return {"seat": number}


def listed(*items: Any) -> dict[str, list[Any]]:
    """The param of a list: each item rendered, then joined ("a, b and c")."""
    return {"list": list(items)}


def beside(
    values: Mapping[str, Any], after: str, key: str, value: Any
) -> dict[str, Any]:
    """A copy of ``values`` with ``key: value`` placed right after ``after`` (a message next
    to the English it words, such as a score's ``tiebreak_message``)."""
    placed: dict[str, Any] = {}
    for name, item in values.items():
        placed[name] = item
        if name == after:
            placed[key] = value
    return placed


# --- patterns -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Argument:
    """``{name}``."""

    name: str


@dataclass(frozen=True, slots=True)
class Choice:
    """``{name, plural, ...}`` or ``{name, select, ...}``: the branches by selector
    (``=3``, ``one``, ``red``, ``other``)."""

    name: str
    kind: str
    branches: dict[str, tuple[Node, ...]]


@dataclass(frozen=True, slots=True)
class Pound:
    """``#`` in a plural's branch: the number, formatted."""


Node = str | Argument | Choice | Pound
Pattern = tuple[Node, ...]

_NAME_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
)
_KINDS = ("plural", "select")


class _Parser:
    """A recursive descent over one pattern; errors say where (``ValueError``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} at character {self.at} of pattern {self.text!r}")

    def body(self, nested: bool, plural: bool) -> Pattern:
        """Nodes up to the end (or, nested, up to the ``}`` closing a branch)."""
        nodes: list[Node] = []
        run: list[str] = []
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "}":
                if not nested:
                    raise self.fail("unbalanced '}'")
                break
            if char == "{":
                if run:
                    nodes.append("".join(run))
                    run = []
                nodes.append(self.argument(plural))
                continue
            if char == "#" and plural:
                if run:
                    nodes.append("".join(run))
                    run = []
                nodes.append(Pound())
            else:
                run.append(char)
            self.at += 1
        else:
            if nested:
                raise self.fail("unclosed '{'")
        if run:
            nodes.append("".join(run))
        return tuple(nodes)

    def spaces(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def word(self, what: str) -> str:
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in _NAME_CHARS:
            self.at += 1
        if self.at == start:
            raise self.fail(f"expected {what}")
        return self.text[start : self.at]

    def expect(self, char: str) -> None:
        if self.at >= len(self.text):
            raise self.fail("unclosed '{'")
        if self.text[self.at] != char:
            raise self.fail(f"expected {char!r}, found {self.text[self.at]!r}")
        self.at += 1

    def argument(self, plural: bool) -> Node:
        self.at += 1  # the "{"
        self.spaces()
        name = self.word("an argument name")
        self.spaces()
        if self.at < len(self.text) and self.text[self.at] == "}":
            self.at += 1
            return Argument(name)
        self.expect(",")
        self.spaces()
        kind = self.word("plural or select")
        if kind not in _KINDS:
            raise self.fail(f"unknown argument type {kind!r} (plural or select)")
        self.spaces()
        self.expect(",")
        branches: dict[str, Pattern] = {}
        while True:
            self.spaces()
            if self.at >= len(self.text):
                raise self.fail("unclosed '{'")
            if self.text[self.at] == "}":
                self.at += 1
                break
            selector = self.selector(kind)
            if selector in branches:
                raise self.fail(f"branch {selector!r} given twice")
            self.spaces()
            self.expect("{")
            branches[selector] = self.body(True, plural or kind == "plural")
            self.expect("}")
        if "other" not in branches:
            raise self.fail(f"the {kind} of {name!r} has no 'other' branch")
        return Choice(name, kind, branches)

    def selector(self, kind: str) -> str:
        if kind == "plural" and self.text[self.at] == "=":
            self.at += 1
            digits = self.word("a number after '='")
            if not digits.isdigit():
                raise self.fail(f"'={digits}' is not a whole number")
            return f"={int(digits)}"
        return self.word("a branch name")


def parse(pattern: str) -> Pattern:
    """The nodes of ``pattern``, or ``ValueError`` saying what is wrong and where."""
    if not isinstance(pattern, str):
        raise ValueError(f"a pattern is a string, not {type(pattern).__name__}")
    return _Parser(pattern).body(False, False)


def arguments(pattern: str | Pattern) -> frozenset[str]:
    """The names of the arguments a pattern uses (at any depth)."""
    nodes = parse(pattern) if isinstance(pattern, str) else pattern
    found: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, Argument):
            found.add(node.name)
        elif isinstance(node, Choice):
            found.add(node.name)
            for branch in node.branches.values():
                stack.extend(branch)
    return frozenset(found)


# --- catalogues -----------------------------------------------------------------------------


class Catalogue(Mapping[str, str]):
    """One language's patterns by key, each parsed once (a bad pattern fails at load)."""

    __slots__ = ("lang", "_patterns", "_parsed")

    def __init__(self, lang: str, patterns: Mapping[str, str]) -> None:
        self.lang = lang
        self._patterns = dict(patterns)
        parsed: dict[str, Pattern] = {}
        for key, pattern in self._patterns.items():
            try:
                parsed[key] = parse(pattern)
            except ValueError as error:
                raise ValueError(f"{lang} catalogue, {key}: {error}") from None
        self._parsed = parsed

    def __getitem__(self, key: str) -> str:
        return self._patterns[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._patterns)

    def __len__(self) -> int:
        return len(self._patterns)

    def __contains__(self, key: object) -> bool:
        return key in self._patterns

    def parsed(self, key: str) -> Pattern | None:
        return self._parsed.get(key)


def load(package: str, lang: str) -> Catalogue:
    """The catalogue ``i18n/<lang>.json`` of a package (package data, so wheels ship it)."""
    source = resources.files(package).joinpath("i18n", f"{lang}.json")
    data = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{package} {lang}.json is not an object of strings")
    return Catalogue(lang, data)


def load_catalogues(package: str) -> dict[str, Catalogue]:
    """Every language's catalogue of a package (`LANGUAGES`), each loaded with `load`."""
    return {lang: load(package, lang) for lang in LANGUAGES}


def messages_factory(
    game: str, catalogues: Mapping[str, Catalogue]
) -> Callable[[str], dict[str, str]]:
    """An engine's ``messages(lang)`` (docs/contract.md) over its loaded ``catalogues``:
    the patterns of one language by key, a new dict at each call; ValueError naming the
    languages ``game`` speaks for another language."""

    def messages(lang: str) -> dict[str, str]:
        """The patterns of one language (``en``, ``fr``, ``nl``), by key; ValueError for
        another."""
        found = catalogues.get(lang)
        if found is None:
            raise ValueError(f"{game} speaks {', '.join(LANGUAGES)}, not {lang!r}")
        return dict(found)

    return messages


# --- rendering ------------------------------------------------------------------------------


def plural_category(lang: str, number: float) -> str:
    """The CLDR plural category of ``number`` (cardinal) in ``lang``, as Intl.PluralRules.

    English and Dutch: ``one`` for 1 (a whole number), else ``other``. French: ``one`` when the
    whole part is 0 or 1 (0, 1, 1.5), ``many`` for whole millions, else ``other``. The sign
    does not count (CLDR's operands are of the absolute value).

    >>> [plural_category("en", n) for n in (0, 1, 2)], plural_category("fr", 0)
    (['other', 'one', 'other'], 'one')
    """
    n = abs(number)
    whole = float(n).is_integer()
    if lang == "fr":
        if int(n) in (0, 1):
            return "one"
        if whole and n % 1_000_000 == 0:
            return "many"
        return "other"
    return "one" if whole and n == 1 else "other"


_AND = {"en": "and", "fr": "et", "nl": "en"}


def join(items: list[str], lang: str) -> str:
    """A conjunction: "a", "a and b", "a, b and c" (et, en), as the server's English says it.

    >>> join(["a", "b", "c"], "fr")
    'a, b et c'
    """
    if len(items) <= 1:
        return "".join(items)
    word = _AND.get(lang, _AND["en"])
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def number(value: float) -> str:
    """A number as text: whole numbers plainly, others as Python writes them."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def default_seat(number: int) -> str:
    """A seat when the renderer was not told how to name seats: "Seat 1" for seat 0."""
    return f"Seat {number + 1}"


SeatNames = Callable[[int], str]


class _Context:
    """What one rendering needs at every depth (a plain class: made once per render)."""

    __slots__ = ("catalogue", "fallback", "lang", "seat")

    def __init__(
        self,
        catalogue: Mapping[str, str],
        fallback: Mapping[str, str] | None,
        lang: str,
        seat: SeatNames,
    ) -> None:
        self.catalogue = catalogue
        self.fallback = fallback
        self.lang = lang
        self.seat = seat


def render(
    catalogue: Mapping[str, str],
    msg: Message,
    lang: str | None = None,
    seat: SeatNames = default_seat,
    fallback: Mapping[str, str] | None = None,
) -> str:
    """``msg`` as text in the catalogue's language (``lang``, else the catalogue's own).

    A key missing from ``catalogue`` is looked up in ``fallback`` (English), else rendered as
    the key itself; a missing param as ``{name}``. ``seat`` names a ``{"seat": n}`` param.
    """
    chosen: str = lang or getattr(catalogue, "lang", None) or "en"
    return _message(msg, _Context(catalogue, fallback, chosen, seat))


def _pattern(key: str, context: _Context) -> Pattern | None:
    for source in (context.catalogue, context.fallback):
        if isinstance(source, Catalogue):
            found = source.parsed(key)
            if found is not None:
                return found
        elif source is not None and key in source:
            return parse(source[key])
    return None


def _message(msg: Mapping[str, Any], context: _Context) -> str:
    key = msg.get("key")
    if not isinstance(key, str):
        return str(msg)
    nodes = _pattern(key, context)
    if nodes is None:
        return key
    params = msg.get("params")
    if not isinstance(params, dict) and not isinstance(params, Mapping):
        params = {}
    return _nodes(nodes, params, context, None)


def _nodes(
    nodes: Pattern,
    params: Mapping[str, Any],
    context: _Context,
    pound: float | None,
) -> str:
    out: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, Argument):
            if node.name in params:
                out.append(_value(params[node.name], context))
            else:
                out.append("{" + node.name + "}")
        elif isinstance(node, Pound):
            out.append("#" if pound is None else number(pound))
        elif node.name not in params:
            out.append("{" + node.name + "}")
        else:
            branch, count = _branch(node, params[node.name], context.lang, pound)
            out.append(_nodes(branch, params, context, count))
    return "".join(out)


def _branch(
    node: Choice, value: Any, lang: str, pound: float | None
) -> tuple[Pattern, float | None]:
    """The branch a value picks, and the number ``#`` stands for in it."""
    branches = node.branches
    if node.kind == "select":
        chosen = value if isinstance(value, str) else str(value)
        return branches.get(chosen, branches["other"]), pound
    if isinstance(value, bool) or not isinstance(value, int | float):
        return branches["other"], pound
    exact = branches.get(f"={int(value)}") if float(value).is_integer() else None
    if exact is not None:
        return exact, value
    return branches.get(plural_category(lang, value), branches["other"]), value


def _value(value: Any, context: _Context) -> str:
    # The common types first, by exact type: ABC and union isinstance checks are slower.
    kind = type(value)
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return str(value)
    if kind is dict and "key" in value:
        return _message(value, context)
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, Mapping):
        if "key" in value:
            return _message(value, context)
        if "seat" in value and isinstance(value["seat"], int):
            return context.seat(value["seat"])
        if "list" in value and isinstance(value["list"], list):
            return join([_value(item, context) for item in value["list"]], context.lang)
    return str(value)


def keys(msg: Mapping[str, Any]) -> Iterator[str]:
    """Every key a message names, its own and its params' (at any depth)."""
    stack: list[Any] = [msg]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if isinstance(item.get("key"), str):
                yield item["key"]
                params = item.get("params")
                if isinstance(params, Mapping):
                    stack.extend(params.values())
            elif isinstance(item.get("list"), list):
                stack.extend(item["list"])
