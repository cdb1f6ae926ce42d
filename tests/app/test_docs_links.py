"""Every relative link in the README and the docs leads to a file of the project, and every
`#anchor` to a heading (GitHub's slug) or an `<a id>` there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("hw/*.md"),
               *ROOT.glob("vision/**/*.md")])
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCED = re.compile(r"```.*?```", re.S)
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCED.sub("", path.read_text(encoding="utf-8"))
    found = {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    return found | set(re.findall(r'<a id="([^"]+)"', text))


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_relative_links_lead_somewhere(doc: Path) -> None:
    text = CODE.sub("", doc.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        file_part, _, anchor = target.partition("#")
        linked = (doc.parent / file_part).resolve() if file_part else doc
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no such heading")
    assert not broken, broken
