"""The ``gin-bot`` command line: what it says and how it exits when the bot, the arguments or the service
are not right; Ctrl-C; and the secrets it never shows."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from gin_bot.harness import GRACE, main
from ginrummy.store.embedded import free_port

from tests.sdk.proxy import Proxy

from .conftest import SHORT, BotProcess, Ran, gin_bot, tallied

PYTHON_BOT = "examples/python_bot.py:choose"
NOWHERE = "http://127.0.0.1:9"  # never reached: these runs end before they connect


BOT_FILES = {
    "good_bot.py": "NOT_A_FUNCTION = 42\n\ndef choose(view):\n    return view['legal_actions'][0]\n",
    "raises_bot.py": "import json\n\nLIMIT = 1 / 0\n",
    "syntax_bot.py": "def choose(view:\n    pass\n",
    "needs_bot.py": "import no_such_dependency\n",
}


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("missing_module:choose", "no module named 'missing_module' in "),
        ("nowhere/bot.py:choose", "no file 'nowhere/bot.py'"),
        ("good_bot:nope", "good_bot has no nope"),
        ("good_bot.py:NOT_A_FUNCTION", "good_bot.py:NOT_A_FUNCTION is not a function but the int 42"),
        ("good_bot:", "a bot is MODULE:FUNCTION or path/to/file.py:FUNCTION, not 'good_bot:'"),
        ("raises_bot:choose", 'File "RAISES", line 3, in <module>\n    LIMIT = 1 / 0\n'),
        ("syntax_bot.py:choose", "SyntaxError"),
        ("needs_bot", "ModuleNotFoundError: No module named 'no_such_dependency'"),
    ],
    ids=[
        "no-module",
        "no-file",
        "no-function",
        "not-callable",
        "empty-name",
        "raises",
        "syntax",
        "dependency",
    ],
)
def test_a_bot_that_cannot_be_imported_exits_2_saying_why(bot: str, says: str, tmp_path: Path) -> None:
    for name, text in BOT_FILES.items():
        (tmp_path / name).write_text(text)
    ran = gin_bot(["run", bot, "--server", NOWHERE], server=None, cwd=tmp_path)
    assert ran.status == 2 and ran.out == ""
    assert ran.err.startswith("gin-bot: ")
    assert says.replace("RAISES", str(tmp_path / "raises_bot.py")) in ran.err
    assert "harness.py" not in ran.err and "importlib" not in ran.err  # only the author's own frames


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["run"], "the following arguments are required: BOT"),
        (["fly"], "invalid choice: 'fly'"),
        (["run", "json:dumps", "--games", "-1"], "--games is 0 (forever) or more"),
        (["run", "json:dumps", "--concurrency", "0"], "--concurrency 1 or more"),
        (["run", "json:dumps", "--bot", "simple", "--host"], "not allowed with argument --bot"),
        (["run", "json:dumps", "--join", "no-colon"], "an invitation code looks like GAME_ID:INVITATION"),
        (["run", "json:dumps", "--join", "g1:secret", "--games", "3"], "--join plays the one game"),
        (["run", "json:dumps", "--join", "g1:secret", "-o", "target=5"], "--join plays the host's rules"),
        (["run", "json:dumps", "-o", "target"], "an option is KEY=VALUE, not 'target'"),
        (["run", "json:dumps", "--server", "127.0.0.1:8000"], "the server is a URL such as"),
    ],
)
def test_a_bad_command_line_exits_2(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert says in err and out == ""
    assert "secret" not in err


def test_help_lists_the_modes_and_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    for option in (
        "--bot NAME",
        "--host",
        "--join GAME:INVITATION",
        "--games N",
        "--concurrency K",
        "-o KEY=VALUE",
    ):
        assert option in out
    assert "130 interrupted" in out


def test_an_unreachable_service_exits_3() -> None:
    server = f"http://127.0.0.1:{free_port()}"
    ran = gin_bot(["run", PYTHON_BOT, "--server", server], server=None)
    assert ran.status == 3 and ran.out == ""
    assert f"gin-bot: no gin service answers at {server} (GET /v1/bots: cannot reach" in ran.err


@pytest.mark.parametrize(
    ("options", "says"),
    [(["--bot", "nobody"], "there is no bot 'nobody'"), (["-o", "target=0"], "target")],
)
def test_settings_the_service_refuses_exit_2(live_service: str, options: list[str], says: str) -> None:
    ran = gin_bot(["run", PYTHON_BOT, "--games", "3", *options], server=live_service)
    assert ran.status == 2, ran.err
    assert ran.summary() == {**tallied([]), "games": 1, "unfinished": 1}  # the first refusal ended the run
    assert "gin-bot: the service refused the game: " in ran.err and says in ran.err


def interrupt(running: BotProcess) -> tuple[Ran, float]:
    """Ctrl-C: the finished run, and the seconds it took to stop."""
    running.proc.send_signal(signal.SIGINT)
    started = time.monotonic()
    ran = running.finish()
    return ran, time.monotonic() - started


def test_ctrl_c_stops_the_running_matches_and_prints_the_summary(live_service: str) -> None:
    running = BotProcess(
        ["run", PYTHON_BOT, "--games", "0", "--concurrency", "2", "-o", "target=50"], server=live_service
    )
    running.wait_for(r"game \S+: (won|lost)")
    ran, seconds = interrupt(running)
    assert ran.status == 130, ran.err
    assert seconds < GRACE - 1  # the running loops stopped: the summary did not wait out the grace
    summary, played = ran.summary(), ran.results()
    assert summary["won"] + summary["lost"] == len(played) >= 1
    assert summary["errors"] == summary["aborted"] == 0 and summary["unfinished"] <= 2
    assert summary["games"] == len(played) + summary["unfinished"]  # no match started after Ctrl-C
    assert "interrupted: stopping the running games" in ran.err


def test_ctrl_c_while_the_host_waits_for_the_join(live_service: str) -> None:
    running = BotProcess(["run", PYTHON_BOT, "--host"], server=live_service)
    running.wait_for(r"^\S+:\S+$", on="out")
    running.wait_for("waiting for the other player")
    ran, seconds = interrupt(running)
    assert ran.status == 130 and seconds < GRACE - 1, ran.err
    assert ran.summary() == {**tallied([]), "games": 1, "unfinished": 1}


def bearer_tokens(proxy: Proxy) -> set[str]:
    """Every seat token that went through the proxy."""
    headers = [head.headers.get("authorization", "") for head in proxy.requests]
    return {value.split(" ", 1)[1] for value in headers if value.startswith("Bearer ")}


def test_no_token_appears_in_the_output_even_when_verbose(live_service: str) -> None:
    proxy = Proxy(live_service)
    try:
        ran = gin_bot(
            ["run", PYTHON_BOT, "--games", "3", "--concurrency", "3", "-v", *SHORT], server=proxy.url
        )
    finally:
        proxy.close()
    assert ran.status == 0, ran.err
    tokens = bearer_tokens(proxy)
    assert len(tokens) == 3
    assert "DEBUG" in ran.err  # verbose: every request was logged
    for token in tokens:
        assert token not in ran.out + ran.err


@pytest.mark.slow
def test_only_the_host_shows_the_invitation_once_and_no_one_a_token(live_service: str) -> None:
    proxy = Proxy(live_service)
    try:
        host = BotProcess(["run", PYTHON_BOT, "--host", "-v", *SHORT], server=proxy.url)
        code = host.wait_for(r"^(\S+:\S+)$", on="out")[1]
        guest = gin_bot(["run", PYTHON_BOT, "--join", code, "-v"], server=proxy.url)
        hosted = host.finish()
    finally:
        proxy.close()
    assert hosted.status == guest.status == 0, (hosted.err, guest.err)
    invitation = code.split(":", 1)[1]
    assert hosted.out.splitlines()[0] == code and hosted.out.count(invitation) == 1
    for text in (hosted.err, guest.out, guest.err):
        assert invitation not in text
    tokens = bearer_tokens(proxy)
    assert len(tokens) == 2
    for token in tokens:
        for text in (hosted.out, hosted.err, guest.out, guest.err):
            assert token not in text
