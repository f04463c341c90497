"""``gin-bot``'s guide stays true: every code block of its README's "Write a bot" (and of docs/bots.md's
JavaScript bot) is used, in order, as a newcomer would — the SDK and ``gin-bot`` installed with pip into a
fresh environment, the bot saved from the page, then ``gin-bot`` and the JavaScript example against the
real service. The installed ``gin-bot`` points to the guide and prints it, from the package alone. The
README's bot account is made as printed.

A block preceded by ``<!-- file: NAME -->`` is saved as that file; every other block is a shell script,
run with the page's server address replaced by the test service's. The fresh environment sees the
development environment's packages (requests, pip) through a ``.pth`` file, so that the install is the
page's own command, ``pip install ./clients/python ./clients/bot``, on a copy of the checkout's clients.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import uuid
from pathlib import Path

import pytest
from ginrummy_client import Client

from .conftest import CLIENTS, ROOT, SUMMARY, assert_played_to_the_end, bot_env, results

GUIDE = CLIENTS / "bot" / "README.md"
GUIDE_SECTION = "\n## Write a bot: `gin-bot`\n"
DOC = ROOT / "docs" / "bots.md"
DOC_SECTION = "\n### Without Python: a bot in JavaScript\n"
PAGE_SERVER = "http://127.0.0.1:8000"
BLOCK = re.compile(
    r"^(?P<indent> *)```(?P<lang>\w+)\n(?P<body>.*?)^(?P=indent)```$", re.MULTILINE | re.DOTALL
)
FILE_MARK = re.compile(r"<!-- file: (\S+) -->$")


def section(path: Path, heading: str) -> str:
    """The section of ``path`` under ``heading``, up to the next heading of its level or above."""
    level = heading.strip().split(" ", 1)[0]
    text = path.read_text(encoding="utf-8").split(heading, 1)[1]
    return re.split(rf"\n#{{1,{len(level)}}} ", text, maxsplit=1)[0]


def section_blocks() -> list[tuple[str, str, str | None]]:
    """(language, text, file name or None) of each code block of the guide, then of the JavaScript bot."""
    return blocks_of(section(GUIDE, GUIDE_SECTION)) + blocks_of(section(DOC, DOC_SECTION))


def blocks_of(section: str) -> list[tuple[str, str, str | None]]:
    blocks = []
    for block in BLOCK.finditer(section):
        line_before = section[: block.start()].rstrip().splitlines()[-1].strip()
        file = FILE_MARK.fullmatch(line_before)
        blocks.append((block["lang"], textwrap.dedent(block["body"]), file[1] if file else None))
    return blocks


def fresh_environment(where: Path) -> Path:
    """A new virtual environment that can import the development environment's packages, with a ``pip``
    command of its own (that installs into it); its ``bin`` folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "development-packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = where / "bin" / "pip"
    pip.write_text(f"#!{python}\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n")
    pip.chmod(0o755)
    return where / "bin"


@pytest.mark.slow
def test_every_block_of_write_a_bot_runs_as_written(live_service: str, tmp_path: Path) -> None:
    assert shutil.which("node"), "the page's JavaScript example needs node (.ci/run installs Debian's nodejs)"
    blocks = section_blocks()
    assert [(lang, file) for lang, _, file in blocks] == [
        ("sh", None),
        ("python", "my_bot.py"),
        ("sh", None),
        ("sh", None),
    ]
    # The bot on the page is the example, and as short as the page says.
    bot = blocks[1][1]
    assert bot == (CLIENTS / "examples" / "python_bot.py").read_text() and len(bot.splitlines()) <= 20

    # What the commands need of the checkout (a copy: pip builds in the source folder).
    ignore = shutil.ignore_patterns("*.egg-info", "build", "__pycache__")
    for folder in ("python", "bot", "examples"):
        shutil.copytree(CLIENTS / folder, tmp_path / "clients" / folder, ignore=ignore)
    bin_folder = fresh_environment(tmp_path / "env")
    env = {**bot_env(live_service), "PATH": f"{bin_folder}:{bot_env()['PATH']}"}

    outputs = []
    for lang, text, file in blocks:
        if file is not None:
            (tmp_path / file).write_text(text)
            continue
        assert lang == "sh"
        script = "set -euo pipefail\n" + text.replace(PAGE_SERVER, live_service)
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{text}\n{done.stdout}\n{done.stderr}"
        outputs.append(done)
    installed, played, node = outputs

    # The install put gin-bot in the fresh environment, and the plays used it.
    assert (bin_folder / "gin-bot").exists(), installed.stdout
    assert shutil.which("gin-bot", path=env["PATH"]) == str(bin_folder / "gin-bot")

    # Its help points to the guide, which the installed package prints by itself (no file of the
    # repository needed): the README's section, from the distribution's metadata.
    helped = subprocess.run(["gin-bot", "--help"], env=env, capture_output=True, text=True, check=True)
    assert "gin-bot guide" in helped.stdout and "docs/" not in helped.stdout
    printed = subprocess.run(
        ["gin-bot", "guide"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    ).stdout
    expected = GUIDE_SECTION.lstrip("\n") + section(GUIDE, GUIDE_SECTION)
    assert printed == "\n".join(line for line in expected.rstrip().splitlines() if "<!--" not in line) + "\n"
    assert "def choose(view: dict) -> dict:" in printed and "--player-token TOKEN" in printed

    # One match against simple, then six against the expert: every one played to its end.
    summaries = [
        dict(zip(("games", "errors"), (int(m[1]), int(m[5])), strict=True))
        for m in SUMMARY.finditer(played.stdout)
    ]
    assert summaries == [{"games": 1, "errors": 0}, {"games": 6, "errors": 0}], played.stdout
    assert "WARNING" not in played.stderr
    assert_played_to_the_end(live_service, results(played.stderr), 7)

    # The JavaScript bot's two matches.
    assert "summary: games 2, " in node.stdout and "errors 0" in node.stdout
    assert_played_to_the_end(live_service, results(node.stdout), 2)


def test_the_readme_makes_a_bot_account_as_printed(live_service: str, tmp_path: Path) -> None:
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("## A bot account: `gin-bot --account`", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    name = "readme" + uuid.uuid4().hex[:8]
    code = code.replace(PAGE_SERVER, live_service).replace('"MyBot"', repr(name))
    with contextlib.chdir(tmp_path):
        exec(compile(code, str(GUIDE), "exec"), {})
    token = (tmp_path / "mybot.token").read_text()
    with Client(live_service, token=token) as bot:
        account = bot.account.get()
        assert account["name"] == name and account["bot"] is True
        assert account["credential"] == {"kind": "token", "scopes": ["bot"]}
