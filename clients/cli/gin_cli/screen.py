"""Drawing the game on a terminal: the table, the end of a hand, the end of a game.

Everything shown comes from the seat view; nothing here knows the rules. A :class:`Screen` prints lines
made of parts, each a plain string or ``(text, style)``. With colour (a terminal, no ``--no-color``, no
``NO_COLOR``) the parts go through ``rich`` with suit glyphs; otherwise they are joined into plain text
with canonical card names (``7H``), which is also what the tests read. Lines stay within 80 columns.
"""

from __future__ import annotations

import os
import select
import sys
import textwrap
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .cards import display_card, is_red

if TYPE_CHECKING:
    from rich.console import Console

Part = str | tuple[str, str]
WIDTH = 80

END_TEXT = {
    "knock": "{knocker} knocked",
    "undercut": "{defender} undercut {knocker}",
    "gin": "{knocker} went gin",
    "big_gin": "{knocker} went big gin",
    "tie": "a tie: no score",
    "wall": "the wall: the hand is cancelled",
    "draw_limit": "too many draws from the discard pile: the hand is cancelled",
}


BONUS_LABELS = {
    "game": "game bonus",
    "box": "box bonus",
    "shutout_hand_points": "shutout (x2 points)",
}


class TimeUp(Exception):
    """The deadline given to :meth:`Screen.ask` passed before a line was typed."""


class Woken(Exception):
    """The descriptor given to :meth:`Screen.ask` to wake it became readable before a line was typed."""


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
        self.live = (_isatty(self.out) and _isatty(sys.stdin)) if live is None else live
        self._console: Console | None = None
        self._pipe: PipeReader | None = None
        self._status_written = False
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
        elif _isatty(self.out):
            self.out.write("\x1b[H\x1b[2J")
            self.out.flush()

    def progress(self, text: str, *, final: bool = False) -> None:
        """A count of work going on, on stderr: rewritten in place on a terminal (each call), else only
        the ``final`` one is written."""
        if _isatty(self.err):
            self.err.write(f"\r\x1b[2K{text}" + ("\n" if final else ""))
        elif final:
            self.err.write(text + "\n")
        self.err.flush()

    def status(self, text: str) -> None:
        """A line saying what gin waits for, on stderr: redrawn in place at each call on a terminal;
        elsewhere written once, at the first call (a log gets the line, not its ticks)."""
        if _isatty(self.err):
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
        if self._pipe is None and os.name == "posix" and (waits or not _isatty(sys.stdin)):
            self._pipe = PipeReader(sys.stdin.fileno())
        if status is not None:
            self.line(status())
        if self._pipe is None or not (waits or self._pipe.buffer or not _isatty(sys.stdin)):
            # A terminal with nothing to wait for: readline's line editing, and Ctrl-C is never missed.
            # (With a deadline the terminal is read line by line as a pipe is: its own editing only.)
            return input(prompt)
        self.out.write(prompt)
        self.out.flush()
        shown = [status() if status is not None else ""]

        def redraw() -> None:
            assert status is not None
            text = status()
            if text != shown[0]:
                shown[0] = text
                self.out.write(LIVE_REDRAW.format(text))
                self.out.flush()

        tick = redraw if status is not None and self.live else None
        return self._pipe.readline(deadline=deadline, wake=wake, tick=tick)

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


def _isatty(stream: Any) -> bool:
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


# --- names -----------------------------------------------------------------------------------------


def player_names(view: dict[str, Any], my_name: str = "You") -> list[str]:
    """Names for seats 0 and 1 from the view's ``players``; the viewer is ``my_name``."""
    names = ["Player 1", "Player 2"]
    players = view.get("players")
    entries: list[Any] = []
    if isinstance(players, list):
        entries = players
    elif isinstance(players, dict):
        entries = [players.get(str(seat)) or players.get(seat) for seat in (0, 1)]
    for seat, entry in enumerate(entries[:2]):
        if isinstance(entry, dict):
            name = entry.get("name") or entry.get("bot")
            if entry.get("bot") and name != entry.get("bot"):
                name = f"{name} ({entry['bot']} bot)"
            elif entry.get("bot") or entry.get("type") == "bot":
                name = f"{name} (bot)"
            if name:
                names[seat] = str(name)
        elif isinstance(entry, str) and entry:
            names[seat] = entry
    viewer = view.get("seat")
    if isinstance(viewer, int) and viewer in (0, 1):
        names[viewer] = my_name
        if names[1 - viewer] in ("Player 1", "Player 2"):
            names[1 - viewer] = "Opponent"
    return names


# --- the table -------------------------------------------------------------------------------------


def current_game(view: dict[str, Any]) -> dict[str, Any]:
    """The game in progress (or just finished) from the view's ``scores``."""
    games = (view.get("scores") or {}).get("games") or []
    return dict(games[-1]) if games else {}


def score_line(screen: Screen, view: dict[str, Any], names: list[str]) -> None:
    rules = view.get("rules") or {}
    scores = view.get("scores") or {}
    games = scores.get("games") or []
    target = rules.get("target")
    if rules.get("hollywood") and len(games) > 1:
        # Hollywood: the games are scored at once, so every game's points are shown, game 1 first.
        def tally(seat: int) -> str:
            return "/".join(str((game.get("points") or [0, 0])[seat]) for game in games)

        numbers = "/".join(str(game.get("number", i + 1)) for i, game in enumerate(games))
        screen.line(
            "Score: ",
            (f"{names[0]} {tally(0)}", "bold"),
            " · ",
            (f"{names[1]} {tally(1)}", "bold"),
            f"   (games {numbers}" + (f", each to {target})" if target else ")"),
        )
        return
    game = current_game(view)
    points = game.get("points") or [0, 0]
    parts: list[Part] = [
        "Score: ",
        (f"{names[0]} {points[0]}", "bold"),
        " · ",
        (f"{names[1]} {points[1]}", "bold"),
    ]
    if target:
        parts.append(f"   (game to {target})")
    won = scores.get("games_won")
    if len(games) > 1 or (rules.get("games") or 1) > 1:
        parts.append(f"   games won {won[0]}–{won[1]}" if won else "")
    screen.line(*parts)


def finished_by_last_hand(view: dict[str, Any]) -> list[int]:
    """The numbers of the games the hand on screen brought to an end (Hollywood: possibly several)."""
    games = (view.get("scores") or {}).get("games") or []
    hands = view.get("hands")
    if isinstance(hands, list) and hands and isinstance(hands[-1], dict) and "games" in hands[-1]:
        last = hands[-1]
        if last.get("number") in (None, view.get("hand_number")):
            credited = last.get("games") or []
            return [g["number"] for g in games if g.get("over") and g.get("number") in credited]
        return []
    # A service that does not say which games a hand counted in: the game phase tells.
    if view.get("phase") in ("game_over", "match_over"):
        return [g["number"] for g in games if g.get("over")][-1:]
    return []


def describe_move(
    screen: Screen, item: dict[str, Any], name: str, view: dict[str, Any] | None = None
) -> list[Part]:
    """One history entry in words (cards drawn as on the table); ``view`` tells a gin from a knock."""
    kind = item.get("type")
    card = item.get("card")
    shown: list[Part] = [screen.card(card)] if isinstance(card, str) and card else []
    if kind == "draw":
        if item.get("source") == "discard":
            return (
                [f"{name} took ", *shown, " from the discard pile"] if shown else [f"{name} took the discard"]
            )
        return [f"{name} drew ", *shown, " from the stock"] if shown else [f"{name} drew from the stock"]
    if kind == "discard":
        return [f"{name} discarded ", *shown]
    if kind == "pass":
        return [f"{name} passed"]
    if kind == "knock":
        if item.get("discard") is None and "discard" in item:
            return [f"{name} went big gin"]
        verb = "went gin" if _was_gin(item, view or {}) else "knocked"
        if item.get("discard"):
            return [f"{name} {verb}, discarding ", screen.card(item["discard"])]
        return [f"{name} {verb}"]
    if kind == "layoff":
        return [f"{name} laid down and laid off"]
    if kind == "deal":
        return [f"{name} dealt"]
    return [f"{name}: {kind}"]


def _was_gin(item: dict[str, Any], view: dict[str, Any]) -> bool:
    """Whether the knock in ``item`` was a gin, as the view's knock or hand result says."""
    knock = view.get("knock") or {}
    if knock.get("knocker") == item.get("seat") and (knock.get("gin") or knock.get("big_gin")):
        return True
    outcome = (view.get("result") or {}).get("outcome") or {}
    return outcome.get("knocker") == item.get("seat") and outcome.get("end") in ("gin", "big_gin")


def render_table(screen: Screen, view: dict[str, Any], names: list[str], *, clock: bool = True) -> None:
    """The game screen: scores (``clock``: and the clocks), the opponent, the piles, the hand and the
    moves on offer. A spectator's view (``seat`` None) shows what is public of both hands instead."""
    seat = view.get("seat", 0)
    dealer = view.get("dealer")
    title = f"Hand {view.get('hand_number', '?')}"
    rules = view.get("rules") or {}
    if (rules.get("games") or 1) > 1 and not rules.get("hollywood") and current_game(view).get("number"):
        title = f"Game {current_game(view)['number']} · {title}"
    if isinstance(dealer, int):
        title += f" · {names[dealer]} dealt" if dealer != seat else " · you dealt"
    title += f" · knock at {view.get('knock_limit')}" if view.get("knock_limit") else " · gin only"
    if view.get("spades_double"):
        title += " · spades double"
    screen.rule(title)
    score_line(screen, view, names)
    if clock:
        clock_line(screen, view, names)

    if seat is None:
        for number, player in enumerate((view.get("players") or [])[:2]):
            screen.line(*holding_parts(screen, names[number], player if isinstance(player, dict) else {}))
    else:
        screen.line(*holding_parts(screen, names[1 - seat], view.get("opponent") or {}))

    screen.line(*pile_parts(screen, view.get("discard_pile") or [], view.get("stock_size", "?")))

    hand = view.get("hand")
    if hand:
        melds = hand.get("melds") or []
        deadwood_cards = hand.get("deadwood_cards") or []
        screen.line("Your hand: ", *screen.melds(melds), " " if melds and deadwood_cards else "",
                    *screen.cards(deadwood_cards))  # fmt: skip
        screen.line(f"Deadwood: {hand.get('deadwood', 0)} (", *screen.cards(deadwood_cards), ")")
        discards = hand.get("discards") or []
        if discards:
            best = sorted(discards, key=lambda d: (d.get("deadwood", 0), d.get("card", "")))[:5]
            parts: list[Part] = ["Deadwood after discarding: "]
            for i, option in enumerate(best):
                parts += [", " if i else "", screen.card(option["card"]), f" {option['deadwood']}"]
            screen.line(*parts)
    knock = view.get("knock")
    if knock and view.get("phase") == "layoff":
        render_knock(screen, knock, names)


def holding_parts(screen: Screen, name: str, player: dict[str, Any]) -> list[Part]:
    """What the table knows of a hand it does not see: how many cards, and those known (taken from the
    discard pile and still held, or laid down by a knock)."""
    known = player.get("known_cards") or []
    parts: list[Part] = [f"{name}: {player.get('card_count', '?')} cards"]
    if known:
        parts += [" · known: ", *screen.cards(known)]
    return parts


def pile_parts(screen: Screen, pile: Sequence[str], stock_size: object) -> list[Part]:
    """The stock's size and the discard pile: its top card and the few below it."""
    parts: list[Part] = [f"Stock: {stock_size} · Discard pile: "]
    if pile:
        parts += [*screen.cards(pile[-1:]), " (top)"]
        if len(pile) > 1:
            parts += ["  below: ", *screen.cards(list(reversed(pile[-6:-1])))]
    else:
        parts.append("empty")
    return parts


def render_knock(screen: Screen, knock: dict[str, Any], names: list[str]) -> None:
    """The knocker's melds while the defender lays off (numbered: lay-offs name them)."""
    who = names[knock.get("knocker", 0)]
    kind = "big gin" if knock.get("big_gin") else "gin" if knock.get("gin") else "knocked"
    screen.line((f"{who} {kind}", "bold"), f" with deadwood {knock.get('deadwood', 0)}:")
    for number, meld in enumerate(knock.get("melds") or [], start=1):
        screen.line(f"  meld {number}: ", *screen.cards(meld))
    if knock.get("deadwood_cards"):
        screen.line("  deadwood: ", *screen.cards(knock["deadwood_cards"]))


def moves_line(screen: Screen, view: dict[str, Any]) -> None:
    """The moves on offer, in the words the prompt accepts (from ``legal_actions`` only)."""
    screen.line(*moves_parts(screen, view))


def moves_parts(screen: Screen, view: dict[str, Any]) -> list[Part]:
    """The ``Moves:`` line: the words to type in cyan, the cards named (the pile's top, the discards a
    knock or a gin may make) drawn as on the table (``10♠`` in colour, ``TS`` in plain text)."""
    legal = view.get("legal_actions") or []
    discards = {d.get("card"): d.get("deadwood") for d in (view.get("hand") or {}).get("discards") or []}
    pile = view.get("discard_pile") or []
    offers: list[list[Part]] = []
    kinds: set[str] = set()
    knock_cards: list[str] = []
    gin_cards: list[str] = []

    def words(text: str) -> Part:
        return (text, "cyan")

    for action in legal:
        kind = action.get("type")
        if kind == "draw" and action.get("source") == "stock":
            offers.append([words("draw (d)")])
        elif kind == "draw":
            top: list[Part] = [words("pile "), screen.card(pile[-1]), words(" (p)")] if pile else []
            offers.append(top or [words("pile (p)")])
        elif kind == "pass":
            offers.append([words("pass")])
        elif kind in ("discard", "layoff") and kind not in kinds:
            kinds.add(kind)
            offers.append([words("discard CARD" if kind == "discard" else "layoff")])
        elif kind == "knock" and action.get("discard") is None:
            offers.append([words("big gin")])
        elif kind == "knock":
            (gin_cards if discards.get(action["discard"]) == 0 else knock_cards).append(action["discard"])
        elif kind == "deal":
            offers.append([words("deal (Enter)")])
    if gin_cards:
        offers.append([words("gin CARD: "), *screen.cards(gin_cards)])
    if knock_cards:
        offers.append([words("knock CARD: "), *screen.cards(knock_cards)])
    parts: list[Part] = ["Moves: "]
    for i, offer in enumerate(offers):
        parts += [words(" · ")] if i else []
        parts += offer
    parts += [] if offers else [words("none (wait)")]
    parts.append(" · help")
    # Actions on the match (resign, abort) are on offer nearly always: named while the line keeps within 80
    # columns. Each listed action says its kind: gin keeps no list of its own.
    length = sum(len(p if isinstance(p, str) else p[0]) for p in parts)
    for action in legal:
        word = f" · {action.get('type')}"
        if action.get("kind") == "match" and length + len(word) <= WIDTH:
            parts.append(word)
            length += len(word)
    return parts


def format_seconds(seconds: float) -> str:
    """A time left on a clock: ``m:ss``, with tenths under ten seconds.

    >>> format_seconds(754.2), format_seconds(30), format_seconds(7.25), format_seconds(-1)
    ('12:34', '0:30', '7.2 s', '0.0 s')
    """
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def clock_text(view: dict[str, Any], names: list[str], elapsed: float = 0.0) -> str | None:
    """The clocks of a game with a time control: each seat's bank left, whose clock runs and how long
    its move has left (None without a time control); ``elapsed``: seconds since the view was read, taken
    off the running clock.

    >>> view = {"seat": 0, "clock": {"per_move": None, "bank": 30, "increment": 0,
    ...         "remaining": [21.5, 30.0], "running": 0, "move_remaining": 21.5}}
    >>> clock_text(view, ["You", "Bob"])
    'Clock: You 0:21 · Bob 0:30 · your move: 0:21 left'
    >>> view["clock"].update(per_move=60, bank=None, remaining=None, running=1, move_remaining=42)
    >>> clock_text(view, ["You", "Bob"])
    "Clock: 60 s a move · Bob's move: 0:42 left"
    >>> clock_text(view, ["You", "Bob"], elapsed=40)
    "Clock: 60 s a move · Bob's move: 2.0 s left"
    """
    clock = view.get("clock")
    if not isinstance(clock, dict):
        return None
    parts: list[str] = []
    running, left = clock.get("running"), clock.get("move_remaining")
    if not (isinstance(running, int) and running in (0, 1)):
        running, elapsed = None, 0.0  # nobody's clock runs: the banks stand still
    remaining = clock.get("remaining")
    if isinstance(remaining, list) and len(remaining) == 2:
        banks = [float(remaining[seat]) - (elapsed if seat == running else 0.0) for seat in (0, 1)]
        parts += [f"{names[seat]} {format_seconds(banks[seat])}" for seat in (0, 1)]
    elif clock.get("per_move"):
        parts.append(f"{clock['per_move']} s a move")
    if clock.get("increment"):
        parts.append(f"+{clock['increment']} s a move")
    if running is not None and isinstance(left, int | float):
        whose = "your move" if running == view.get("seat") else f"{names[running]}'s move"
        parts.append(f"{whose}: {format_seconds(float(left) - elapsed)} left")
    return "Clock: " + " · ".join(parts)


def clock_line(screen: Screen, view: dict[str, Any], names: list[str]) -> None:
    """The clocks, under the score line (nothing without a time control)."""
    text = clock_text(view, names)
    if text is not None:
        screen.line(text)


def end_text(view: dict[str, Any], names: list[str]) -> str | None:
    """How a match that ended early ended, and who won it (None for a match played out).

    >>> names = ["You", "Bob"]
    >>> end_text({"seat": 0, "end_reason": "resigned", "forfeited_by": 1}, names)
    'Bob resigned: you win the match.'
    >>> end_text({"seat": 0, "end_reason": "timeout", "forfeited_by": 0}, names)
    'You ran out of time: Bob wins the match.'
    >>> end_text({"seat": 1, "end_reason": "aborted"}, ["Ann", "You"])
    'The match was aborted: no result.'
    """
    reason = view.get("end_reason")
    if not reason:
        return None
    if reason == "aborted":
        return "The match was aborted: no result."
    loser = view.get("forfeited_by")
    if not isinstance(loser, int) or loser not in (0, 1):
        return f"The match ended: {reason}."
    what = {"resigned": "resigned", "timeout": "ran out of time", "abandoned": "left the game"}.get(
        str(reason), str(reason)
    )
    winner = names[1 - loser]
    won = "you win the match" if winner == "You" else f"{winner} wins the match"
    return f"{names[loser]} {what}: {won}."


# --- the end of a hand and of a game ---------------------------------------------------------------


def render_hand_end(screen: Screen, view: dict[str, Any], names: list[str]) -> None:
    """The end of the hand just played, and the totals of the games it ended (in Hollywood a game may
    end while the others go on; usually the phase is game_over)."""
    render_result(screen, view, names)
    ended = finished_by_last_hand(view)
    if ended:
        render_game_over(screen, view, names, numbers=ended)


def render_match_end(
    screen: Screen, view: dict[str, Any], names: list[str], *, result_shown: bool, closing: str
) -> None:
    """The end of a match: the last hand's end (unless ``result_shown``), the totals of the game it
    ended, how the match ended when it ended early, and ``closing``."""
    if view.get("result") and not result_shown:
        render_result(screen, view, names)
    render_game_over(screen, view, names, numbers=finished_by_last_hand(view) or None)
    ended = end_text(view, names)
    if ended:
        screen.line((ended, "bold"))
    screen.line((closing, "bold"))


def render_result(screen: Screen, view: dict[str, Any], names: list[str], *, scores: bool = True) -> None:
    """Both arrangements, lay-offs and the points of the hand that just ended (``scores``: then the score
    line of the view)."""
    result = view.get("result") or {}
    outcome = result.get("outcome") or {}
    knocker = result.get("knocker") or {}
    defender = result.get("defender") or {}
    end = str(outcome.get("end", "over"))
    k_seat = int(knocker.get("seat", outcome.get("knocker")) or 0)
    d_seat = int(defender.get("seat", 1 - k_seat))
    what = END_TEXT.get(end, end).format(knocker=names[k_seat], defender=names[d_seat])
    winner = outcome.get("winner")
    title = f"Hand {view.get('hand_number', '?')} over: {what}"
    if isinstance(winner, int):
        title += f" · {names[winner]} +{outcome.get('points', 0)}"
    screen.rule(title)
    if knocker:
        parts: list[Part] = [
            (f"{names[k_seat]}", "bold"),
            ": ",
            *screen.melds(knocker.get("melds") or [], empty="no melds"),
        ]
        screen.line(*parts)
        deadwood = knocker.get("deadwood_cards") or []
        parts = [
            f"  deadwood {knocker.get('deadwood', 0)}",
            ": " if deadwood else "",
            *screen.cards(deadwood),
        ]
        if knocker.get("discard"):
            parts += ["  · discarded ", screen.card(knocker["discard"])]
        screen.line(*parts)
        screen.line(
            (f"{names[d_seat]}", "bold"), ": ", *screen.melds(defender.get("melds") or [], empty="no melds")
        )
        layoffs = defender.get("layoffs") or []
        if layoffs:
            # Grouped by the knocker's meld, in the order laid off: "4S 3S on [5S 6S 7S 8S]" (3S fits
            # only after 4S, so "3S on [5S 6S 7S 8S]" alone would look wrong); one line per meld.
            melds = knocker.get("melds") or []
            by_meld: dict[Any, list[str]] = {}
            for layoff in layoffs:
                by_meld.setdefault(layoff.get("meld"), []).append(layoff["card"])
            for index, cards in by_meld.items():
                target = melds[index] if isinstance(index, int) and 0 <= index < len(melds) else []
                screen.line("  laid off ", *screen.cards(cards), " on ", *screen.melds([target]))
        deadwood = defender.get("deadwood_cards") or []
        screen.line(
            f"  deadwood {defender.get('deadwood', 0)}", ": " if deadwood else "", *screen.cards(deadwood)
        )
    else:
        for seat, arrangement in enumerate(result.get("arrangements") or []):
            deadwood = arrangement.get("deadwood_cards") or []
            melds = screen.melds(arrangement.get("melds") or [], empty="no melds")
            screen.line((names[seat], "bold"), ": ", *melds, f"  deadwood {arrangement.get('deadwood', 0)}",
                        ": " if deadwood else "", *screen.cards(deadwood))  # fmt: skip
    if isinstance(winner, int):
        screen.line(points_text(outcome, names))
    if scores:
        score_line(screen, view, names)


def points_text(outcome: dict[str, Any], names: list[str]) -> str:
    """How the hand's points were made: difference, bonus, doubling. The difference is the loser's
    deadwood minus the winner's: the defender's minus the knocker's for a knock, the other way round for
    an undercut (the knocker has the more, or as much).

    >>> knock = {"end": "knock", "winner": 0, "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 8,
    ...          "difference": 5, "bonus": 0, "points": 5}
    >>> points_text(knock, ["You", "Bob"])
    'Points: deadwood 8 − 3 = 5 → You score 5'
    >>> undercut = {"end": "undercut", "winner": 1, "knocker": 0, "knocker_deadwood": 8,
    ...             "defender_deadwood": 3, "difference": 5, "bonus": 25, "points": 30}
    >>> points_text(undercut, ["You", "Bob"])
    'Points: deadwood 8 − 3 = 5 + 25 undercut bonus → Bob scores 30'
    """
    end = outcome.get("end")
    winner = names[outcome["winner"]]
    knocker, defender = outcome.get("knocker_deadwood", 0), outcome.get("defender_deadwood", 0)
    if end in ("gin", "big_gin"):
        text = f"Points: {defender} deadwood"
    else:
        loser, won = (knocker, defender) if end == "undercut" else (defender, knocker)
        text = f"Points: deadwood {loser} − {won} = {outcome.get('difference', 0)}"
    if outcome.get("bonus"):
        label = {"undercut": "undercut", "gin": "gin", "big_gin": "big gin"}.get(str(end), "")
        text += f" + {outcome['bonus']} {label} bonus".replace("  ", " ")
    if (outcome.get("multiplier") or 1) > 1:
        text += f", ×{outcome['multiplier']} (spade upcard)"
    verb = "score" if winner == "You" else "scores"
    return f"{text} → {winner} {verb} {outcome.get('points', 0)}"


def render_game_over(
    screen: Screen,
    view: dict[str, Any],
    names: list[str],
    *,
    all_games: bool = False,
    numbers: Collection[int] | None = None,
) -> None:
    """Finished games' totals, each bonus, and the match result once the match is over.

    Which games: ``numbers`` when given, every finished game with ``all_games``, else the last one.
    """
    scores = view.get("scores") or {}
    finished = [game for game in scores.get("games") or [] if game.get("over")]
    if numbers is not None:
        shown = [game for game in finished if game.get("number") in numbers]
    else:
        shown = finished if all_games else finished[-1:]
    for game in shown:
        winner = game.get("winner")
        title = f"Game {game.get('number', '?')} over"
        if isinstance(winner, int):
            title += f": {names[winner]} {'win' if names[winner] == 'You' else 'wins'}"
        screen.rule(title)
        rows: list[tuple[str, Any]] = [
            ("hand points", game.get("points")),
            ("hands won", game.get("hands_won")),
        ]
        bonuses = game.get("bonuses") or {}
        for key, value in bonuses.items():
            if isinstance(value, list) and any(value):
                rows.append((BONUS_LABELS.get(key, key.replace("_", " ")), value))
        rows.append(("grand total", game.get("grand_totals")))
        screen.line(f"{'':<22}{names[0][:14]:>16}{names[1][:14]:>16}")
        for label, value in rows:
            screen.line(f"{label:<22}" + "".join(f"{_cell(value, s):>16}" for s in (0, 1)))
        if bonuses.get("shutout"):
            screen.line(("Shutout: the loser did not win a hand.", "bold"))
    if scores.get("match_over"):
        won = scores.get("games_won") or [0, 0]
        winner = scores.get("match_winner")
        if len(scores.get("games") or []) > 1:
            who = names[winner] if isinstance(winner, int) else "nobody"
            verb = "win" if who == "You" else "wins"
            tally = f"{names[0]} {won[0]}, {names[1]} {won[1]}"
            screen.line((f"Match over: {who} {verb} the match (games won: {tally})", "bold"))


def _cell(value: Any, seat: int) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return str(value[seat])
    if isinstance(value, dict):
        return str(value.get(str(seat), value.get(seat, "")))
    return "" if value is None else str(value) if seat == 0 else ""
