"""The arena's documentation stays true: the README's arena commands run as printed (on a copy of the example
bot they name) and write what they say, and docs/bots.md's PettingZoo example plays a hand to its end."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def section(path: Path, heading: str) -> str:
    level = heading.split(" ", 1)[0]
    text = path.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    return re.split(rf"\n#{{1,{len(level)}}} ", text, maxsplit=1)[0]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def test_the_readmes_arena_commands_run_as_printed(tmp_path: Path) -> None:
    (block,) = blocks(section(ROOT / "README.md", "### Test it locally: the arena"), "sh")
    shutil.copytree(ROOT / "clients" / "examples", tmp_path / "clients" / "examples")
    commands = [shlex.split(command) for command in block.replace("\\\n", " ").strip().splitlines()]
    assert len(commands) == 2
    for command in commands:
        assert command[0] == ".venv/bin/ginrummy-arena"
        program = [sys.executable, "-m", "ginrummy.arena"]  # the venv's command, run by the suite's python
        ran = subprocess.run(
            [*program, *command[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
        )
        assert ran.returncode == 0, ran.stderr
        assert "clients/examples/python_bot.py:choose" in ran.stdout
    results = json.loads((tmp_path / "results.json").read_text())
    assert [e["name"] for e in results["arena"]["entrants"]] == [
        "clients/examples/python_bot.py:choose",
        "simple",
        "novice",
    ]
    assert results["arena"]["games"] == 12 and results["timing"]["jobs"] == 2
    assert (tmp_path / "games.ndjson").read_text().count("\n") == 12
    assert (tmp_path / "results.csv").read_text().startswith("entrant,opponent,games,wins,")
    assert os.access(Path(sys.executable).parent / "ginrummy-arena", os.X_OK)  # the command the README names


def test_the_pettingzoo_example_plays_a_hand() -> None:
    (example,) = blocks(
        section(ROOT / "docs" / "bots.md", "### Training agents: the PettingZoo environment"), "python"
    )
    namespace: dict[str, object] = {}
    exec(compile(example, "docs/bots.md (PettingZoo)", "exec"), namespace)
    game = namespace["game"]
    assert game.agents == []  # type: ignore[attr-defined]  # every agent stepped out: the hand is over
