"""The terminal gin writes to and reads from: lines made of parts, headings, prose, the prompt.

A :class:`Screen` prints lines made of parts, each a plain string or ``(text, style)``. With colour (a
terminal, no ``--no-color``, no ``NO_COLOR``) the parts go through ``rich`` with suit glyphs; otherwise they
are joined into plain text with canonical card names (``7H``), which is also what the tests read. Lines
stay within 80 columns. What is drawn of a game is :mod:`table`'s and :mod:`results`'.

Another thread may print a line at any moment (a chat line, :meth:`Screen.interject`): the prompt and a
ticking clock, which leave the cursor on an unfinished line, are drawn again below it.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .cards import display_card, is_red

if TYPE_CHECKING:
    from rich.console import Console

Part = str | tuple[str, str]
WIDTH = 80


class TimeUp(Exception):
    """The deadline given to :meth:`Screen.ask` passed before a line was typed."""


class Woken(Exception):
    """The descriptor given to :meth:`Screen.ask` to wake it became readable before a line was typed."""


TICK = 0.2
"""Seconds between two redraws of a ticking clock while waiting for the opponent."""
CLEAR_LINE = "\r\x1b[2K"
LIVE_REDRAW = "\x1b7\x1b[1A\r\x1b[2K{}\x1b8"
"""Rewrite the line above the cursor and put the cursor back where it was: the prompt's line, with what
is being typed on it, is left alone (save cursor, up one line, clear it, write, restore cursor)."""


class Screen:
    """Where the client writes: ``line`` for output, ``ask`` for a prompt. ``live``: whether a line may be
    redrawn in place (the output and the input are a terminal): a running clock ticks there."""

    def __init__(
        self,
        *,
        color: bool,
        out: TextIO | None = None,
        err: TextIO | None = None,
        live: bool | None = None,
    ) -> None:
        self.color = color
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.live = (isatty(self.out) and isatty(sys.stdin)) if live is None else live
        self._console: Console | None = None
        self._pipe: PipeReader | None = None
        self._status_written = False
        # What another thread's line must not break: written under the lock; the prompt being answered
        # (with the status line above it), the clock ticking on the cursor's line.
        self.lock = threading.RLock()
        self._asking: tuple[str, Callable[[], str] | None] | None = None
        self._ticking: Callable[[], str] | None = None
        if color:
            from rich.console import Console  # only when colour is wanted: it is slow to import

            # markup/emoji off: "[7H 8H 9H]" and ":x:" are card text, not rich markup.
            self._console = Console(
                file=self.out,
                force_terminal=True,
                highlight=False,
                markup=False,
                emoji=False,
                soft_wrap=False,
            )

    def line(self, *parts: Part) -> None:
        """Print one line made of ``parts``."""
        if self._console is None:
            self.out.write("".join(p if isinstance(p, str) else p[0] for p in parts) + "\n")
            self.out.flush()
            return
        from rich.text import Text

        self._console.print(Text.assemble(*parts))

    def para(self, text: str, *, first: str = "", indent: int = 4, style: str = "") -> None:
        """Prose wrapped to 80 columns: ``first`` starts the first line, the others are indented."""
        lines = textwrap.wrap(
            text, WIDTH, initial_indent=" " * len(first), subsequent_indent=" " * indent
        ) or [""]
        lines[0] = first + lines[0][len(first) :]
        for line in lines:
            self.line((line, style) if style else line)

    def blank(self) -> None:
        self.line("")

    def clear(self) -> None:
        """Clear the terminal and put the cursor at its top (only where the output is one)."""
        if self._console is not None:
            self._console.clear()
        elif isatty(self.out):
            self.out.write("\x1b[H\x1b[2J")
            self.out.flush()

    def progress(self, text: str, *, final: bool = False) -> None:
        """A count of work going on, on stderr: rewritten in place on a terminal (each call), else only
        the ``final`` one is written."""
        if isatty(self.err):
            self.err.write(f"\r\x1b[2K{text}" + ("\n" if final else ""))
        elif final:
            self.err.write(text + "\n")
        self.err.flush()

    def status(self, text: str) -> None:
        """A line saying what gin waits for, on stderr: redrawn in place at each call on a terminal;
        elsewhere written once, at the first call (a log gets the line, not its ticks)."""
        if isatty(self.err):
            self.err.write(f"\r\x1b[2K{text}")
        elif not self._status_written:
            self.err.write(text + "\n")
        self._status_written = True
        self.err.flush()

    def rule(self, title: str) -> None:
        """A heading across the screen (80 columns, or the terminal's width when narrower)."""
        width = min(WIDTH, self._console.width) if self._console is not None else WIDTH
        text = f"── {title} "
        self.line((text + "─" * max(3, width - len(text)), "bold"))

    def note(self, text: str) -> None:
        """A remark in the dialogue (an explained refusal, a hint)."""
        self.para(text, indent=2, style="yellow")

    def error(self, text: str) -> None:
        """A failure, on stderr."""
        self.err.write(f"gin: {text}\n")
        self.err.flush()

    def interject(self, *parts: Part) -> None:
        """Print one line that comes on its own, from another thread (a chat line), while the cursor may
        stand on an unfinished line — the prompt, a ticking clock: that line is ended first (on a live
        terminal: cleared, with the status line above the prompt), and drawn again below the line printed.
        What was being typed stays typed (the terminal holds it) though it is no longer shown."""
        with self.lock:
            asking, ticking = self._asking, self._ticking
            status = asking[1] if asking is not None and self.live else None
            if asking is not None or ticking is not None:
                self.out.write(CLEAR_LINE if self.live else "\n")
                if status is not None:
                    self.out.write("\x1b[1A" + CLEAR_LINE)
            self.line(*parts)
            if asking is not None:
                self.out.write((status() + "\n" if status is not None else "") + asking[0])
            elif ticking is not None:
                self.out.write(ticking())
            self.out.flush()

    @contextlib.contextmanager
    def ticking(self, text: Callable[[], str]) -> Iterator[None]:
        """A line that ``text`` draws again and again in place (a thread), until the block ends."""
        stop = threading.Event()
        with self.lock:
            shown = [text()]
            self.out.write(shown[0])
            self.out.flush()
            self._ticking = text

        def tick() -> None:
            while not stop.wait(TICK):
                with self.lock:
                    now = text()
                    if now != shown[0]:
                        shown[0] = now
                        self.out.write(CLEAR_LINE + now)
                        self.out.flush()

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()
            with self.lock:
                self._ticking = None
                self.out.write("\n")
                self.out.flush()

    def ask(
        self,
        prompt: str = "> ",
        *,
        deadline: float | None = None,
        wake: int | None = None,
        status: Callable[[], str] | None = None,
    ) -> str:
        """Read one line; raises EOFError at the end of input.

        ``deadline`` (a :func:`time.monotonic` time): :class:`TimeUp` when it passes first. ``wake`` (a
        file descriptor): :class:`Woken` when it becomes readable first. ``status``: a line shown above
        the prompt, drawn again in place as it changes on a live terminal (a clock that ticks)."""
        self.out.flush()
        waits = deadline is not None or wake is not None
        if self._pipe is None and os.name == "posix" and (waits or not isatty(sys.stdin)):
            self._pipe = PipeReader(sys.stdin.fileno())
        with self.lock:
            if status is not None:
                self.line(status())
            self.out.write(prompt)
            self.out.flush()
            self._asking = (prompt, status)
        try:
            if self._pipe is None or not (waits or self._pipe.buffer or not isatty(sys.stdin)):
                # A terminal with nothing to wait for: its own line editing, and Ctrl-C is never missed.
                # (With a deadline the terminal is read line by line as a pipe is: its own editing only.)
                return input()
            shown = [status() if status is not None else ""]

            def redraw() -> None:
                assert status is not None
                with self.lock:
                    text = status()
                    if text != shown[0]:
                        shown[0] = text
                        self.out.write(LIVE_REDRAW.format(text))
                        self.out.flush()

            tick = redraw if status is not None and self.live else None
            return self._pipe.readline(deadline=deadline, wake=wake, tick=tick)
        finally:
            with self.lock:
                self._asking = None

    def confirm(self, question: str) -> bool:
        """Ask a yes/no question: true for y or yes, false otherwise; EOFError at the end of input."""
        return self.ask(f"{question} [y/N] ").strip().lower() in ("y", "yes")

    def card(self, card: str) -> Part:
        """One card, red or not, with its glyph when colour is on."""
        if not self.color:
            return card
        return (display_card(card, glyphs=True), "bold red" if is_red(card) else "bold")

    def cards(self, cards: Iterable[str], sep: str = " ") -> list[Part]:
        """Cards separated by ``sep``."""
        parts: list[Part] = []
        for i, card in enumerate(cards):
            if i:
                parts.append(sep)
            parts.append(self.card(card))
        return parts

    def melds(self, melds: Sequence[Sequence[str]], *, empty: str = "") -> list[Part]:
        """Melds as ``[AC 2C 3C] [7D 7H 7S]`` (``empty`` when there are none)."""
        parts: list[Part] = [empty] if not melds and empty else []
        for i, meld in enumerate(melds):
            parts.extend([" " if i else "", "[", *self.cards(meld), "]"])
        return parts


def isatty(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (False for one closed, or replaced by something without a file)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class PipeReader:
    """Lines from a pipe or file (scripts, ``--json``), read so that Ctrl-C (SIGINT) is never lost.

    ``input()`` on a pipe blocks in ``read(2)``; a SIGINT that arrives between printing the prompt
    and that call is only noticed once a line comes, i.e. maybe never. Here the wait is a ``select``
    with a short timeout, and Python handles a pending signal as soon as it returns.
    """

    POLL = 0.2
    """Seconds between two looks for a pending signal."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def readline(
        self,
        *,
        deadline: float | None = None,
        wake: int | None = None,
        tick: Callable[[], None] | None = None,
    ) -> str:
        """The next line without its end; EOFError at the end of input. :class:`TimeUp` once
        ``deadline`` (monotonic) has passed, :class:`Woken` once ``wake`` is readable, whichever comes
        before a whole line; ``tick`` is called between looks (every :attr:`POLL` seconds at most)."""
        watched = [self.fd] if wake is None else [self.fd, wake]
        while b"\n" not in self.buffer and not self.eof:
            timeout = self.POLL
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeUp
                timeout = min(timeout, left)
            ready, _, _ = select.select(watched, [], [], timeout)
            if wake is not None and wake in ready:
                raise Woken
            if self.fd in ready:
                chunk = os.read(self.fd, 4096)
                self.eof = not chunk
                self.buffer += chunk
            elif tick is not None:
                tick()
        if not self.buffer:
            raise EOFError
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").removesuffix("\r")
