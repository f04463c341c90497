"""docs/rules.md is the rule book and stands alone: nothing in the repository cites a rule book that is not
in it, every ``docs/rules.md §N`` names a section the page has, and every link into the page lands on a
heading."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
MISSING_BOOK = "RULES" + ".md"  # spelled so that this file does not cite it
SCANNED = ("docs", "service", "clients", "tests", "deploy", "bench", "openapi")
TEXT = {".md", ".py", ".js", ".mjs", ".html", ".json", ".txt", ".yaml", ".yml", ".toml"}


def repository_texts() -> list[Path]:
    paths = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "pyproject.toml"]
    for folder in SCANNED:
        for path in (ROOT / folder).rglob("*"):
            parts = path.relative_to(ROOT).parts
            hidden = any(p.startswith(".") or p == "node_modules" or p.endswith(".egg-info") for p in parts)
            if path.suffix in TEXT and path.is_file() and not hidden:
                paths.append(path)
    return paths


def sections() -> dict[int, str]:
    """The numbered sections of docs/rules.md: number → heading."""
    found = re.findall(r"^## (\d+)\. (.+)$", RULES.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {int(number): title for number, title in found}


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_no_file_cites_a_rule_book_outside_the_repository() -> None:
    citing = [
        str(path.relative_to(ROOT))
        for path in repository_texts()
        if MISSING_BOOK in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert citing == []


def test_the_page_holds_the_rules_themselves_numbered_as_cited() -> None:
    numbered = sections()
    assert sorted(numbered) == list(range(1, len(numbered) + 1)), numbered
    titles = " | ".join(numbered.values())
    for subject in ("Cards", "Melds and deadwood", "The deal", "Turns", "Laying down and laying off",
                    "Scoring a hand", "Variants", "Hidden information"):  # fmt: skip
        assert subject in titles
    page = RULES.read_text(encoding="utf-8")
    assert "seeds/" not in page and "rule book is silent" not in page


def test_every_section_cited_by_number_exists() -> None:
    numbered = sections()
    cited = 0
    for path in repository_texts():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in re.finditer(r"rules\.md\]?\)? ?§(\d+)(?: and §(\d+))?", text):
            for number in filter(None, match.groups()):
                cited += 1
                assert int(number) in numbered, f"{path.relative_to(ROOT)} cites docs/rules.md §{number}"
    assert cited >= 6  # the engine's modules, the API schema, the docs


def test_every_link_into_the_page_lands_on_a_heading() -> None:
    headings = re.findall(r"^#+ (.+)$", RULES.read_text(encoding="utf-8"), flags=re.MULTILINE)
    anchors = {anchor(heading) for heading in headings}
    links = 0
    for path in repository_texts():
        if path.suffix != ".md":
            continue
        for target in re.findall(
            r"\]\((?:\.\./)*(?:docs/)?rules\.md#([^)]+)\)", path.read_text(encoding="utf-8")
        ):
            links += 1
            assert target in anchors, f"{path.relative_to(ROOT)} links to rules.md#{target}"
    assert links >= 3
