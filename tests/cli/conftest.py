"""Running the real ``gin`` command against the real service, with scripted input.

:class:`GinProcess` starts the venv's ``gin`` entry point with pipes, reads its output on a thread and
waits for the prompt (``> `` at the start of a line); :func:`scripted_reply` is the simple strategy the
tests play with, read off the screen the client prints: pass the upcard, draw from the stock, knock or
go gin when offered, otherwise discard the highest deadwood card.
"""

from __future__ import annotations

import codecs
import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pytest

GIN = str(Path(sys.executable).with_name("gin"))
PROMPT = "\n> "
QUESTION = "[y/N] "
"""How a yes/no question ends (resign? a rematch?): a prompt too."""
STEP_TIMEOUT = 30.0
"""Seconds to wait for the next prompt before calling the client stuck (a guard, not a timed assert)."""

RANK_VALUES = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


def gin_env(config_home: Path, server: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIN_SERVER=server,
        XDG_CONFIG_HOME=str(config_home),
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
        PYTHONIOENCODING="utf-8",
    )
    return env


RESTORE_SIGINT = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
"""Run gin with Ctrl-C restored: a test run started in the background (``make test &``) ignores SIGINT,
and an ignored signal stays ignored across exec, which would make the Ctrl-C tests hang."""


CONTROLLING_TERMINAL = (
    "import fcntl, os, sys, termios; os.setsid(); fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Run gin in a session of its own whose controlling terminal is its stdin (a pseudo-terminal): what
``getpass`` reads from (``/dev/tty``), as it is for a person at a terminal — never the terminal the test
run itself may have."""


def gin_command(args: list[str], program: str = GIN) -> list[str]:
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        return [sys.executable, "-c", RESTORE_SIGINT, program, *args]
    return [program, *args]


class GinProcess:
    """One running ``gin`` (``program``: the venv's, unless another is given) with its stdin/stdout/stderr
    piped."""

    def __init__(self, args: list[str], env: dict[str, str], program: str = GIN) -> None:
        self.proc = subprocess.Popen(
            gin_command(args, program),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            bufsize=0,
        )
        self.output = ""
        self.errors = ""
        self.consumed = 0
        self.awaiting_answer = False  # a prompt was read and not answered yet
        self._changed = threading.Condition()
        self._closed = 0
        for stream, attr in ((self.proc.stdout, "output"), (self.proc.stderr, "errors")):
            assert stream is not None
            threading.Thread(target=self._pump, args=(stream, attr), daemon=True).start()

    def _pump(self, stream: IO[bytes], attr: str) -> None:
        # os.read returns whatever is there: a prompt has no newline, so no line or block buffering.
        decoder = codecs.getincrementaldecoder("utf-8")()
        while True:
            data = os.read(stream.fileno(), 4096)
            text = decoder.decode(data, final=not data)
            with self._changed:
                setattr(self, attr, getattr(self, attr) + text)
                if not data:
                    self._closed += 1
                self._changed.notify_all()
            if not data:
                return

    def at_prompt(self) -> bool:
        """Whether the client is waiting for a line (everything it printed has been read)."""
        with self._changed:
            return self._prompt_pending()

    def _prompt_pending(self) -> bool:
        tail = self.output[self.consumed :]
        return tail.endswith((PROMPT, QUESTION)) or tail == "> "

    def wait_prompt(self, timeout: float = STEP_TIMEOUT) -> str | None:
        """Wait for the next prompt; returns the screen since the last answer, None when gin exited."""
        with self._changed:
            ok = self._changed.wait_for(lambda: self._prompt_pending() or self._closed == 2, timeout)
            if not ok:
                raise AssertionError(f"gin is stuck; last output:\n{self.output[-1500:]}\n{self.errors}")
            if not self._prompt_pending():
                return None
            screen = self.output[self.consumed :]
            self.consumed = len(self.output)
            self.awaiting_answer = True
            return screen

    def wait_for(self, pattern: str, timeout: float = STEP_TIMEOUT) -> re.Match[str]:
        """Wait until ``pattern`` appears anywhere in the output."""
        with self._changed:
            ok = self._changed.wait_for(lambda: re.search(pattern, self.output) or self._closed == 2, timeout)
            match = re.search(pattern, self.output)
            if not ok or match is None:
                raise AssertionError(f"{pattern!r} never came; output:\n{self.output[-1500:]}\n{self.errors}")
            return match

    def next_line(self, timeout: float = STEP_TIMEOUT) -> str | None:
        """The next whole line of output not read yet; None once gin has exited."""
        with self._changed:
            ok = self._changed.wait_for(
                lambda: "\n" in self.output[self.consumed :] or self._closed == 2, timeout
            )
            if not ok:
                raise AssertionError(f"gin is stuck; last output:\n{self.output[-1500:]}\n{self.errors}")
            line, newline, _ = self.output[self.consumed :].partition("\n")
            if not newline:
                return None
            self.consumed += len(line) + 1
            return line

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.awaiting_answer = False
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def close_input(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def wait(self, timeout: float = STEP_TIMEOUT) -> int:
        code = self.proc.wait(timeout)
        with self._changed:
            self._changed.wait_for(lambda: self._closed == 2, timeout)
        return code

    def interrupt(self) -> None:
        self.proc.send_signal(signal.SIGINT)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(STEP_TIMEOUT)


class TerminalGin:
    """One running ``gin`` whose stdin, stdout and stderr are a terminal (a pseudo-terminal), as when a
    person types the command: what it writes (with the terminal's echo of what is typed, line ends as
    ``\n``) is read on a thread."""

    def __init__(self, args: list[str], env: dict[str, str], *, controlling: bool = False) -> None:
        self.master, slave = pty.openpty()
        command = gin_command(args)
        if controlling:  # the terminal is gin's /dev/tty too
            command = [sys.executable, "-c", CONTROLLING_TERMINAL, *command]
        self.proc = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.output = ""
        self._closed = False
        self._changed = threading.Condition()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:  # EIO: every end of the terminal's other side is closed (gin exited)
                data = b""
            with self._changed:
                self.output += decoder.decode(data, final=not data).replace("\r\n", "\n")
                self._closed = not data
                self._changed.notify_all()
            if not data:
                return

    def wait_for(self, pattern: str, timeout: float = STEP_TIMEOUT, after: int = 0) -> re.Match[str]:
        """Wait until ``pattern`` appears in the output (from offset ``after`` on)."""
        with self._changed:
            self._changed.wait_for(lambda: re.search(pattern, self.output[after:]) or self._closed, timeout)
            match = re.search(pattern, self.output[after:])
            if match is None:
                raise AssertionError(f"{pattern!r} never came; output:\n{self.output[-1500:]}")
            return match

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait(self, timeout: float = STEP_TIMEOUT) -> int:
        code = self.proc.wait(timeout)
        with self._changed:
            self._changed.wait_for(lambda: self._closed, timeout)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(STEP_TIMEOUT)
        with self._changed:
            self._changed.wait_for(lambda: self._closed, STEP_TIMEOUT)
        os.close(self.master)


def last_line(text: str, prefix: str) -> str | None:
    lines = [line for line in text.splitlines() if line.startswith(prefix)]
    return lines[-1][len(prefix) :].strip() if lines else None


def scripted_reply(output: str) -> str:
    """The test's strategy, from the last ``Moves:`` and ``Deadwood:`` lines gin printed; no to a
    question (the rematch offered at the end)."""
    if output.endswith(QUESTION):
        return "n"
    moves = last_line(output, "Moves:") or ""
    if "deal" in moves:
        return "deal"
    if "layoff" in moves:
        return "layoff"
    if "big gin" in moves:
        return "big gin"
    if "gin CARD" in moves:
        return "gin"
    if "knock CARD" in moves:
        return "knock"
    if "pass" in moves:
        return "pass"
    if "draw (d)" in moves:
        return "draw"
    if "discard CARD" in moves:
        return f"discard {highest_deadwood(output)}"
    raise AssertionError(f"no move to make from {moves!r}")


def highest_deadwood(output: str) -> str:
    """The highest deadwood card on the last ``Deadwood: N (cards)`` line, else the hand's last card."""
    deadwood = last_line(output, "Deadwood:") or ""
    match = re.search(r"\((.*)\)", deadwood)
    cards = match.group(1).split() if match else []
    if not cards:
        hand = (last_line(output, "Your hand:") or "").replace("[", " ").replace("]", " ").split()
        cards = hand[-1:]
    return max(cards, key=lambda c: (RANK_VALUES[c[0]], c))


def first_at_prompt(*gins: GinProcess, timeout: float = 15.0) -> GinProcess:
    """The first of ``gins`` to ask for a move (the others wait for it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for gin in gins:
            if gin.at_prompt():
                return gin
        time.sleep(0.02)
    raise AssertionError("nobody was asked for a move: " + " | ".join(g.output[-500:] for g in gins))


def resign_whoever_moves(*gins: GinProcess) -> GinProcess:
    """The first of ``gins`` asked for a move resigns the match, and says yes when asked; every one is
    told, says no to a rematch and exits 0. Returns the one who resigned."""
    mover = first_at_prompt(*gins)
    mover.wait_prompt()
    mover.send("resign")
    mover.wait_prompt()
    mover.send("y")
    for gin in gins:
        gin.wait_for(r"resigned: .*\n(.*\n)*Play a rematch\? \[y/N\] $")
        gin.send("n")
        assert gin.wait() == 0, gin.errors
    return mover


def play_to_end(gin: GinProcess, *, max_steps: int = 2000) -> int:
    """Answer every prompt with the scripted strategy until gin exits; returns its exit status."""
    for _ in range(max_steps):
        if not gin.awaiting_answer and gin.wait_prompt() is None:
            return gin.wait()
        gin.send(scripted_reply(gin.output))
    raise AssertionError("the game did not end")


@pytest.fixture
def config_home(tmp_path: Path) -> Path:
    home = tmp_path / "config"
    home.mkdir()
    return home


@pytest.fixture
def run_gin(live_service: str, config_home: Path):  # type: ignore[no-untyped-def]
    """Start ``gin ARGS…`` against the live service; every process is killed at the end of the test."""
    started: list[GinProcess] = []

    def start(*args: str, home: Path | None = None, server: str | None = None) -> GinProcess:
        gin = GinProcess(list(args), gin_env(home or config_home, server or live_service))
        started.append(gin)
        return gin

    yield start
    for gin in started:
        if gin.proc.poll() is None:
            gin.kill()


@pytest.fixture
def run_gin_at_terminal(live_service: str, config_home: Path):  # type: ignore[no-untyped-def]
    """Start ``gin ARGS…`` on a terminal of its own (a pseudo-terminal); killed at the end of the test."""
    started: list[TerminalGin] = []

    def start(*args: str, home: Path | None = None, controlling: bool = False) -> TerminalGin:
        gin = TerminalGin(list(args), gin_env(home or config_home, live_service), controlling=controlling)
        started.append(gin)
        return gin

    yield start
    for gin in started:
        gin.kill()


def run_once(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``gin`` to completion (non-interactive commands)."""
    return subprocess.run(
        [GIN, *args], input=stdin, capture_output=True, text=True, env=env, timeout=STEP_TIMEOUT, check=False
    )


PASSWORD = "correct horse battery"
"""The password of the accounts the stories sign up."""


def signup(home: Path, server: str, name: str) -> str:
    """``gin signup NAME`` on the machine whose config directory is ``home``, the password on stdin; the
    session token gin kept."""
    done = run_once(["signup", name], gin_env(home, server), stdin=PASSWORD + "\n")
    assert done.returncode == 0, done.stderr
    assert f"Signed up as {name} on {server}, and signed in" in done.stdout
    return kept_session(home, server)


def kept_session(home: Path, server: str) -> str:
    entry = json.loads((home / "gin" / "players.json").read_text())["players"][server]
    assert entry["kind"] == "session" and entry["token"].startswith("gin_s_")
    return str(entry["token"])
