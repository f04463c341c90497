"""The README stays true: its configuration table names every setting the code reads, and its engine
examples run as printed."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest
from ginrummy.app.config import Config

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def configuration_table() -> set[str]:
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z0-9_]+)` \|", section, flags=re.MULTILINE))


def test_every_service_setting_is_in_the_configuration_table() -> None:
    documented = configuration_table()
    assert {Config.env_name(f.name) for f in fields(Config)} <= documented


def test_every_gin_variable_read_anywhere_is_in_the_configuration_table() -> None:
    used: set[str] = set()
    for folder in ("service", "clients", "deploy"):
        for path in (ROOT / folder).rglob("*.py"):
            used |= set(re.findall(r"\b(GIN_[A-Z][A-Z0-9_]*[A-Z0-9])\b", path.read_text()))
    assert used, "the scan found nothing: the pattern is wrong"
    missing = used - configuration_table()
    assert not missing, f"README's configuration table misses {sorted(missing)}"


def test_the_quick_start_is_two_commands() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = quick.split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make serve", "make test"]
    assert "test:" in (ROOT / "Makefile").read_text() and "make test" in (ROOT / ".ci" / "run").read_text()


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def test_the_engine_examples_run_as_printed_and_play_a_whole_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    section = README.split("## The rules engine", 1)[1].split("\n## ", 1)[0]
    blocks = python_blocks(section)
    assert len(blocks) == 2, "the section's examples moved: update this test"
    first: dict[str, object] = {}
    exec(compile(blocks[0], "README.md (engine, first example)", "exec"), first)
    match: dict[str, object] = {}
    exec(compile(blocks[1], "README.md (engine, a whole match)", "exec"), match)
    game = match["game"]
    # Played past the first deal to the end of the match (a deal needs the example's random source).
    assert game.match_over and game.hand_number > 1  # type: ignore[attr-defined]
    loads, dumps = match["loads"], match["dumps"]
    assert dumps(loads(match["saved"])) == match["saved"]  # type: ignore[operator]
    assert capsys.readouterr().out.startswith(f"seat {game.match_winner} wins after ")  # type: ignore[attr-defined]


def test_the_number_of_computer_opponents_is_the_bots_list() -> None:
    from ginrummy.bots import list_bots

    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    said = re.search(r"\*\*computer opponents\*\* of (\w+) styles", README)
    assert said is not None and said[1] == words[len(list_bots())], said
