"""A parser of the ICU MessageFormat subset of docs/i18n.md, for the catalogue tests.

It reads a pattern into nodes and renders it the way static/js/i18n.js does, in English
only (plural "one" for 1, numbers written plainly): enough to check that every pattern
parses, which arguments it names, and that an English message reads as the server's reason.
A pattern this parser refuses is one the browser would show as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS = ("plural", "select")


class PatternError(ValueError):
    """A pattern outside the subset (unbalanced braces, an unknown kind, no `other`)."""


@dataclass
class Arg:
    name: str
    kind: str | None = None
    branches: dict[str, list[Node]] = field(default_factory=dict)


@dataclass
class Hash:
    """`#` in a plural branch: the plural's number."""


Node = str | Arg | Hash


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def nodes(self, in_branch: bool) -> list[Node]:
        out: list[Node] = []
        buf = ""
        while self.at < len(self.text):
            c = self.text[self.at]
            if c == "{":
                if buf:
                    out.append(buf)
                buf = ""
                self.at += 1
                out.append(self.argument())
            elif c == "}":
                if not in_branch:
                    raise PatternError(f"unmatched }} at {self.at}")
                break
            elif c == "#" and in_branch:
                if buf:
                    out.append(buf)
                buf = ""
                out.append(Hash())
                self.at += 1
            else:
                buf += c
                self.at += 1
        if in_branch and self.at >= len(self.text):
            raise PatternError("unclosed branch")
        if buf:
            out.append(buf)
        return out

    def argument(self) -> Arg:
        rest = self.text[self.at :]
        ends = [i for i in (rest.find(","), rest.find("}")) if i >= 0]
        if not ends:
            raise PatternError("unclosed argument")
        end = min(ends)
        name = rest[:end].strip()
        if not name.replace("_", "").isalnum():
            raise PatternError(f"bad argument name {name!r}")
        self.at += end
        if self.text[self.at] == "}":
            self.at += 1
            return Arg(name)
        self.at += 1
        kind_end = self.text.find(",", self.at)
        if kind_end < 0:
            raise PatternError("argument without branches")
        kind = self.text[self.at : kind_end].strip()
        if kind not in KINDS:
            raise PatternError(f"unknown kind {kind!r}")
        self.at = kind_end + 1
        branches: dict[str, list[Node]] = {}
        while True:
            while self.at < len(self.text) and self.text[self.at].isspace():
                self.at += 1
            if self.at >= len(self.text):
                raise PatternError("unclosed argument")
            if self.text[self.at] == "}":
                self.at += 1
                break
            open_ = self.text.find("{", self.at)
            if open_ < 0:
                raise PatternError("branch without text")
            label = self.text[self.at : open_].strip()
            if not label or " " in label:
                raise PatternError(f"bad branch label {label!r}")
            self.at = open_ + 1
            branches[label] = self.nodes(True)
            self.at += 1
        if "other" not in branches:
            raise PatternError(f"{name}: no 'other' branch")
        return Arg(name, kind, branches)


def parse(pattern: str) -> list[Node]:
    return _Parser(pattern).nodes(False)


def arguments(nodes: list[Node]) -> set[str]:
    """Every argument a pattern names, in its text and in its branches."""
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, Arg):
            names.add(node.name)
            for branch in node.branches.values():
                names |= arguments(branch)
    return names


def _value(value: Any, catalogue: Mapping[str, str]) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, dict) and "key" in value:
        return render(catalogue[value["key"]], value.get("params", {}), catalogue)
    if isinstance(value, dict) and "list" in value:
        items = [_value(v, catalogue) for v in value["list"]]
        return (
            items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
        )
    return str(value)


def _render(
    nodes: list[Node],
    params: Mapping[str, Any],
    catalogue: Mapping[str, str],
    number: float | None = None,
) -> str:
    out = ""
    for node in nodes:
        if isinstance(node, str):
            out += node
        elif isinstance(node, Hash):
            out += "#" if number is None else _value(number, catalogue)
        elif node.kind is None:
            out += (
                _value(params[node.name], catalogue)
                if node.name in params
                else f"{{{node.name}}}"
            )
        elif node.kind == "plural":
            n = float(params[node.name])
            exact = node.branches.get(f"={n:g}")
            branch = exact or node.branches.get("one" if n == 1 else "other")
            out += _render(branch or node.branches["other"], params, catalogue, n)
        else:
            chosen = node.branches.get(str(params.get(node.name)))
            out += _render(chosen or node.branches["other"], params, catalogue, number)
    return out


def render(
    pattern: str, params: Mapping[str, Any], catalogue: Mapping[str, str]
) -> str:
    """The English text of `pattern` with `params` (nested messages from `catalogue`)."""
    return _render(parse(pattern), params, catalogue)
