"""The documentation's relative links lead somewhere: README.md and every page of docs/.

A link to a file names one that exists, and a link to a section (`page.md#anchor`) names a
heading of that page, by the anchors GitHub derives from headings. Links inside code
blocks and links to other sites are not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"\s*(```|~~~)")
SCHEME = re.compile(r"[a-zA-Z][a-zA-Z+.-]*:")


def prose_lines(page: Path) -> list[tuple[int, str]]:
    """The page's lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to
    hyphens, and a repeated one numbered (`-1`, `-2`, ...)."""
    seen: dict[str, int] = {}
    for _, line in prose_lines(page):
        heading = HEADING.fullmatch(line)
        if heading is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if count:
            seen[f"{slug}-{count}"] = 1
    return set(seen)


def broken_links() -> list[str]:
    found = []
    for page in PAGES:
        for number, line in prose_lines(page):
            for target in LINK.findall(line):
                if SCHEME.match(target):
                    continue
                path, _, fragment = target.partition("#")
                linked = (page.parent / path).resolve() if path else page
                where = f"{page.relative_to(ROOT)}:{number}: {target}"
                if not linked.exists():
                    found.append(f"{where} (no such file)")
                elif linked.suffix == ".md" and fragment not in {"", *anchors(linked)}:
                    found.append(f"{where} (no such section)")
    return found


def test_every_relative_link_leads_to_a_file_and_section_that_exist() -> None:
    assert broken_links() == []


def test_a_heading_anchor_is_made_as_github_makes_it(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Replays, records and rematch (`app/web/routes/records.py`)\n"
        "## Notes\n## Notes\n```\n# not a heading\n```\n",
        encoding="utf-8",
    )
    assert anchors(page) == {
        "replays-records-and-rematch-appwebroutesrecordspy",
        "notes",
        "notes-1",
    }
