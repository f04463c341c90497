"""Running the real ``gin-bot`` command (and the example bots) against the real service.

:func:`gin_bot` runs it to its end; :class:`BotProcess` starts it with its output read on threads, for the
stories that interrupt it or read its invitation while it runs. Matches are made short with
``-o target=1`` (the first hand that scores ends the match: the smallest target ``GET /v1/rules`` allows).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tests.cli.conftest import RESTORE_SIGINT

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
GIN_BOT = str(Path(sys.executable).with_name("gin-bot"))
SHORT = ["-o", "target=1"]
TIMEOUT = 60.0
"""Seconds a whole run may take before it is called stuck (a guard, not a timed assertion)."""

RESULT = re.compile(r"game (\S+): (won|lost|aborted), score (\d+)–(\d+), (\d+) hands?$")
SUMMARY = re.compile(
    r"^summary: games (\d+), won (\d+), lost (\d+), aborted (\d+), errors (\d+), unfinished (\d+), "
    r"bad answers (\d+)$",
    re.MULTILINE,
)
FIELDS = ("games", "won", "lost", "aborted", "errors", "unfinished", "bad_answers")


def bot_env(server: str | None = None, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"}
    for name in ("GIN_SERVER", "GIN_TOKEN", "GIN_PLAYER_TOKEN"):
        env.pop(name, None)
    if server is not None:
        env["GIN_SERVER"] = server
    return {**env, **(extra or {})}


def bot_command(args: list[str]) -> list[str]:
    """``gin-bot`` with ``args``; with Ctrl-C restored when this run ignores it (``make test &``)."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        return [sys.executable, "-c", RESTORE_SIGINT, GIN_BOT, *args]
    return [GIN_BOT, *args]


@dataclass
class Ran:
    """A finished run: exit status and output."""

    status: int
    out: str
    err: str

    def results(self) -> list[Result]:
        """The result lines of stderr, in order."""
        return results(self.err)

    def summary(self) -> dict[str, int]:
        """The counts of the summary line on stdout."""
        match = SUMMARY.search(self.out)
        assert match, f"no summary in {self.out!r}\n{self.err}"
        return dict(zip(FIELDS, map(int, match.groups()), strict=True))


@dataclass(frozen=True)
class Result:
    """A line ``game <id>: won, score a–b, N hands``."""

    game_id: str
    result: str
    mine: int
    theirs: int
    hands: int


def results(text: str) -> list[Result]:
    found = [RESULT.search(line) for line in text.splitlines()]
    return [Result(m[1], m[2], int(m[3]), int(m[4]), int(m[5])) for m in found if m]


def gin_bot(
    args: list[str],
    *,
    server: str | None,
    cwd: Path = CLIENTS,
    timeout: float = TIMEOUT,
    env: dict[str, str] | None = None,
) -> Ran:
    """Run ``gin-bot ARGS`` to its end (the service from ``GIN_SERVER``; ``env``: more variables)."""
    done = subprocess.run(
        bot_command(args),
        cwd=cwd,
        env=bot_env(server, env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


class BotProcess:
    """A running ``gin-bot``, its stdout and stderr collected line by line on threads."""

    def __init__(
        self, args: list[str], *, server: str | None, cwd: Path = CLIENTS, env: dict[str, str] | None = None
    ) -> None:
        self.proc = subprocess.Popen(
            bot_command(args),
            cwd=cwd,
            env=bot_env(server, env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: IO[str], lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    def wait_for(self, pattern: str, *, on: str = "err", timeout: float = TIMEOUT) -> re.Match[str]:
        """The first line of stdout (``on="out"``) or stderr matching ``pattern``, once it is written."""
        lines = self.out if on == "out" else self.err
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(lines):
                if found := re.search(pattern, line):
                    return found
            if self.proc.poll() is not None and not any(reader.is_alive() for reader in self._readers):
                break
            time.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r}; stdout {self.out}, stderr {self.err}")

    def finish(self, timeout: float = TIMEOUT) -> Ran:
        try:
            self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        for reader in self._readers:
            reader.join(5)
        return Ran(self.proc.returncode, "".join(self.out), "".join(self.err))


def spectator_view(server: str, game_id: str) -> dict[str, Any]:
    """The game as anyone may see it (no token), straight from the service."""
    with urllib.request.urlopen(f"{server}/v1/games/{game_id}", timeout=10) as response:
        view: dict[str, Any] = json.load(response)
    return view


def assert_played_to_the_end(server: str, played: list[Result], games: int) -> None:
    """``games`` different games, each at match_over in the service after the hands its line says, and
    never resigned or aborted (the bots here never choose to)."""
    assert len(played) == games and len({result.game_id for result in played}) == games, played
    for result in played:
        view = spectator_view(server, result.game_id)
        assert view["phase"] == "match_over" and view["hand_number"] == result.hands, result
        assert view.get("end_reason") is None and result.result in ("won", "lost"), result


def tallied(played: list[Result]) -> dict[str, int]:
    """The summary that the result lines make, when no game failed."""
    count = {
        kind: sum(1 for result in played if result.result == kind) for kind in ("won", "lost", "aborted")
    }
    return {"games": len(played), **count, "errors": 0, "unfinished": 0, "bad_answers": 0}
