"""``gin replay``: a finished match stepped through hand by hand and move by move, from its export
document (``GET /v1/games/{id}/export``).

Nothing here knows the rules. A finished hand's record reveals the whole deal — both hands, the upcard,
the deck — and every action with every card drawn, so the replay only moves the recorded cards where the
recorded actions put them: a draw from the stock or the pile into the drawer's hand, a discard onto the
pile, a knock's discard face down. How a hand ended (arrangements, lay-offs, points) is its record's
``result``, shown as it is; the score as it stood is the points of those results so far, counted in the
game whose score sheet they add up to; the end of the match is the export's score sheets (bonuses, grand
totals) and rating changes.

>>> record = {"number": 1, "dealer": 0, "upcard": "2H", "initial_hands": [["TC", "KC"], ["7C", "9C"]],
...           "actions": [{"seat": 1, "type": "draw", "source": "discard", "card": "2H"},
...                       {"seat": 1, "type": "discard", "card": "9C"},
...                       {"seat": 0, "type": "draw", "source": "stock", "card": "5D"},
...                       {"seat": 0, "type": "knock", "discard": "KC"}]}
>>> for frame in hand_frames(0, record):
...     print(frame.kind, frame.step, *frame.hands, "pile", frame.pile, "stock", frame.stock)
deal 0 ('TC', 'KC') ('7C', '9C') pile ('2H',) stock 47
move 1 ('TC', 'KC') ('7C', '9C', '2H') pile () stock 47
move 2 ('TC', 'KC') ('7C', '2H') pile ('9C',) stock 47
move 3 ('TC', 'KC', '5D') ('7C', '2H') pile ('9C',) stock 46
move 4 ('TC', '5D') ('7C', '2H') pile ('9C',) stock 46
result 5 ('TC', '5D') ('7C', '2H') pile ('9C',) stock 46
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import card_order
from .people import clock_words, rating_words
from .results import end_text, render_game_over, render_result
from .screen import Part, Screen
from .table import describe_move, pile_parts, player_names

DECK_SIZE = 52
KEYS_HELP = "n/Enter next · p previous · N/P next/previous hand · q quit"
MARKS_HELP = "m/M next/previous marked move (?! inaccuracy · ? mistake · ?? blunder)"


@dataclass(frozen=True)
class Frame:
    """One step of the replay. ``kind``: ``deal`` (the cards as dealt), ``move`` (the table after the
    ``step``-th action, ``action``), ``result`` (the hand's end) or ``end`` (the match's). ``hand``: the
    hand's place in the export's ``hands`` (their count for the end); ``hands``: both seats' cards,
    ``pile``: the discard pile, bottom first; ``stock``: the cards left in it."""

    kind: str
    hand: int
    step: int = 0
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    pile: tuple[str, ...] = ()
    stock: int = 0
    action: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Note:
    """A remark shown under a move (``gin replay --review``: the review's verdict and the better move);
    ``marked``: the move is one the ``m`` key goes to (a review's inaccuracy, mistake or blunder)."""

    parts: tuple[Part, ...]
    marked: bool = False


def hand_frames(index: int, record: Mapping[str, Any]) -> Iterator[Frame]:
    """The frames of a finished hand: the deal, one after each recorded action, and its result."""
    hands = [list(cards) for cards in (record.get("initial_hands") or [[], []])[:2]]
    pile = [record["upcard"]] if record.get("upcard") else []
    deck = record.get("deck") or []
    stock = (len(deck) or DECK_SIZE) - len(hands[0]) - len(hands[1]) - len(pile)

    def frame(kind: str, step: int, action: Mapping[str, Any] | None = None) -> Frame:
        shown = (tuple(sorted(hands[0], key=card_order)), tuple(sorted(hands[1], key=card_order)))
        return Frame(kind, index, step, shown, tuple(pile), stock, action)

    yield frame("deal", 0)
    actions = record.get("actions") or []
    for step, action in enumerate(actions, start=1):
        seat, kind, card = action.get("seat"), action.get("type"), action.get("card")
        held = hands[seat] if seat in (0, 1) else []
        if kind == "draw":
            if action.get("source") == "discard":
                taken = pile.pop() if pile else card
            else:
                taken, stock = card, stock - 1
            if taken:
                held.append(taken)
        elif kind == "discard" and card in held:
            held.remove(card)
            pile.append(card)
        elif kind == "knock" and action.get("discard") in held:
            held.remove(action["discard"])  # face down: not onto the pile
        yield frame("move", step, action)
    yield frame("result", len(actions) + 1)


@dataclass(frozen=True)
class Standing:
    """The score around one hand: the ``game`` it counted in (None: Hollywood, whose games are scored
    at once — then the points are the match's hand points so far), the points before it and after it."""

    game: int | None
    before: tuple[int, int]
    after: tuple[int, int]


ENDED_WORDS = {
    "resigned": "resigned",
    "timeout": "lost on time",
    "abandoned": "left the game (claimed)",
    "aborted": "the match was aborted",
}
"""How a match that ended in the middle of a hand ended, in words (the hand's record says ``ended``)."""


def standings(export: Mapping[str, Any]) -> list[Standing]:
    """The score as it stood around each hand: the points of the hands' results, added up game by game.

    A hand counts in the game whose score sheet its points add up to: once the points of a finished game
    are reached, the next hand starts the next game.

    >>> export = {"rules": {"games": 2}, "result": {"games": [
    ...     {"number": 1, "points": [30, 0], "over": True}, {"number": 2, "points": [0, 5], "over": True}]},
    ...     "hands": [{"result": {"outcome": {"winner": 0, "points": 30}}},
    ...               {"result": {"outcome": {"winner": None, "points": 0}}},
    ...               {"result": {"outcome": {"winner": 1, "points": 5}}}]}
    >>> [(s.game, s.before, s.after) for s in standings(export)]
    [(1, (0, 0), (30, 0)), (2, (0, 0), (0, 0)), (2, (0, 0), (0, 5))]
    """
    sheets = (export.get("result") or {}).get("games") or []
    hollywood = bool((export.get("rules") or {}).get("hollywood"))
    game, points, out = 0, [0, 0], []
    for record in export.get("hands") or []:
        while (
            not hollywood
            and game + 1 < len(sheets)
            and sheets[game].get("over")
            and points == list(sheets[game].get("points") or [0, 0])
        ):
            game, points = game + 1, [0, 0]
        before = (points[0], points[1])
        outcome = (record.get("result") or {}).get("outcome") or {}
        if outcome.get("winner") in (0, 1):
            points[outcome["winner"]] += int(outcome.get("points") or 0)
        number = None if hollywood else int(sheets[game].get("number", game + 1)) if sheets else 1
        out.append(Standing(number, before, (points[0], points[1])))
    return out


class Replay:
    """A finished match ready to be stepped through: its ``frames`` in order, the score around each hand
    (``standings``), the players' ``names``, and the ``notes`` shown under moves, by the ``(hand, step)``
    of their frame (none, unless the replay is given a review's: :mod:`gin_cli.review`)."""

    def __init__(self, export: Mapping[str, Any]) -> None:
        self.export = export
        self.records: list[Mapping[str, Any]] = list(export.get("hands") or [])
        self.names = player_names({"players": export.get("players") or []})
        self.standings = standings(export)
        self.frames = [frame for i, record in enumerate(self.records) for frame in hand_frames(i, record)]
        self.frames.append(Frame("end", len(self.records)))
        self.notes: dict[tuple[int, int], Note] = {}

    def next_hand(self, at: int) -> int:
        """The frame where the hand after the one of frame ``at`` starts (the end, after the last)."""
        return next(
            (i for i in range(at + 1, len(self.frames)) if self.frames[i].kind in ("deal", "end")), at
        )

    def previous_hand(self, at: int) -> int:
        """The frame where the hand of frame ``at`` starts, or the hand before when ``at`` is its start."""
        starts = [i for i in range(at) if self.frames[i].kind == "deal"]
        return starts[-1] if starts else 0

    def marked(self, index: int) -> bool:
        """Whether frame ``index`` is a move with a marked note."""
        frame = self.frames[index]
        note = self.notes.get((frame.hand, frame.step)) if frame.kind == "move" else None
        return note is not None and note.marked

    def next_mark(self, at: int) -> int:
        """The next frame after ``at`` whose move is marked (``at`` itself when there is none)."""
        return next((i for i in range(at + 1, len(self.frames)) if self.marked(i)), at)

    def previous_mark(self, at: int) -> int:
        """The last frame before ``at`` whose move is marked (``at`` itself when there is none)."""
        return next((i for i in range(at - 1, -1, -1) if self.marked(i)), at)

    # --- drawing ----------------------------------------------------------------------------------------

    def header(self, screen: Screen) -> None:
        """Who played what, when, and how many hands."""
        export = self.export
        rules = export.get("rules") or {}
        what = [
            f"{self.names[0]} vs {self.names[1]}",
            f"{export.get('family') or 'casual rules'}, {'rated' if export.get('rated') else 'unrated'}",
            f"to {rules['target']}" if rules.get("target") else "",
            clock_words(export.get("clock")),
            f"finished {when(export.get('finished_at'))}",
            f"{len(self.records)} hand{'' if len(self.records) == 1 else 's'}",
        ]
        screen.rule(f"Replay of game {export.get('game_id', '?')}")
        screen.para(" · ".join(part for part in what if part), indent=2)

    def ended_here(self, record: Mapping[str, Any]) -> str:
        """How the match ended in the middle of this hand (its record has no result, and says ``ended``).

        >>> replay = Replay({"players": [{"name": "Ann"}, {"name": "Bob"}], "result": {"forfeited_by": 1}})
        >>> replay.ended_here({"ended": "resigned"}), replay.ended_here({"ended": "timeout"})
        ('the match ended here: Bob resigned', 'the match ended here: Bob lost on time')
        """
        seat = (self.export.get("result") or {}).get("forfeited_by")
        words = ENDED_WORDS.get(str(record.get("ended")), f"ended ({record.get('ended')})")
        if record.get("ended") == "aborted" or seat not in (0, 1):
            return f"the match ended here: {words}"
        return f"the match ended here: {self.names[seat]} {words}"

    def caption(self) -> str:
        """``Replay of game g8x… · Ann vs simple (bot)``: a line above each frame while stepping."""
        return f"Replay of game {self.export.get('game_id', '?')} · {self.names[0]} vs {self.names[1]}"

    def render(self, screen: Screen, frame: Frame, *, table: bool = True) -> None:
        """Draw ``frame``; ``table``: with the hand's title and the score (on every frame when stepping;
        printed as text, only at the deal)."""
        if frame.kind == "end":
            self.render_end(screen)
            return
        record = self.records[frame.hand]
        if frame.kind == "result" and not record.get("result") and record.get("ended"):
            screen.line((f"Hand {record.get('number', frame.hand + 1)}: {self.ended_here(record)}.", "bold"))
            self.score_line(screen, frame.hand, after=True)
            return
        if frame.kind == "result":
            view = {"result": record.get("result") or {}, "hand_number": record.get("number", frame.hand + 1)}
            render_result(screen, view, self.names, scores=False)
            self.score_line(screen, frame.hand, after=True)
            return
        if table or frame.kind == "deal":
            screen.rule(self.title(frame.hand))
            self.score_line(screen, frame.hand, after=False)
        if frame.kind == "deal":
            screen.line("The deal: the upcard is ", screen.card(str(record.get("upcard", "?"))))
        else:
            assert frame.action is not None
            seat = frame.action.get("seat")
            name = self.names[seat] if seat in (0, 1) else "?"
            moves = len(record.get("actions") or [])
            view = {"result": record.get("result") or {}}
            screen.line(
                f"Move {frame.step} of {moves}: ", *describe_move(screen, dict(frame.action), name, view)
            )
            note = self.notes.get((frame.hand, frame.step))
            if note is not None:
                screen.line("  ", *note.parts)
        width = min(18, max(len(name) for name in self.names)) + 2
        for seat in (0, 1):
            screen.line(f"  {self.names[seat][:18]:<{width}}", *screen.cards(frame.hands[seat]))
        screen.line("  ", *pile_parts(screen, frame.pile, frame.stock))

    def title(self, index: int) -> str:
        """``Game 2 · Hand 5 · Ann dealt · knock at 10``."""
        record = self.records[index]
        rules = self.export.get("rules") or {}
        title = f"Hand {record.get('number', index + 1)}"
        game = self.standings[index].game
        if (rules.get("games") or 1) > 1 and game is not None:
            title = f"Game {game} · {title}"
        dealer = record.get("dealer")
        if dealer in (0, 1):
            title += f" · {self.names[dealer]} dealt"
        limit = record.get("knock_limit")
        title += f" · knock at {limit}" if limit else " · gin only"
        if record.get("spades_double"):
            title += " · spades double"
        return title

    def score_line(self, screen: Screen, index: int, *, after: bool) -> None:
        """The score as it stood before hand ``index`` (``after``: once it was over)."""
        standing = self.standings[index]
        points = standing.after if after else standing.before
        names = self.names
        parts: list[Part] = [
            "Score: " if standing.game is not None else "Hand points so far: ",
            (f"{names[0]} {points[0]}", "bold"),
            " · ",
            (f"{names[1]} {points[1]}", "bold"),
        ]
        rules = self.export.get("rules") or {}
        if standing.game is None:
            parts.append("   (the games' totals at the end)")
        elif rules.get("target"):
            parts.append(f"   (game to {rules['target']})")
        sheets = (self.export.get("result") or {}).get("games") or []
        if standing.game is not None and (rules.get("games") or 1) > 1:
            earlier = [sheet.get("winner") for sheet in sheets if (sheet.get("number") or 0) < standing.game]
            parts.append(f"   games won {earlier.count(0)}–{earlier.count(1)}")
        screen.line(*parts)

    def render_end(self, screen: Screen) -> None:
        """How the match ended: the score sheets, the final score, the winner, the rating changes."""
        result = self.export.get("result") or {}
        names = self.names
        if not self.records:
            screen.line("No hand was played to its end.")
        reason = result.get("end_reason")
        early = end_text(
            {
                "end_reason": None if reason == "finished" else reason,
                "forfeited_by": result.get("forfeited_by"),
            },
            names,
        )
        render_game_over(screen, {"scores": result}, names, all_games=True)
        sheets = result.get("games") or []
        totals = [
            sum(int((sheet.get("grand_totals") or [0, 0])[seat]) for sheet in sheets) for seat in (0, 1)
        ]
        screen.line((f"Final score: {names[0]} {totals[0]} · {names[1]} {totals[1]}", "bold"))
        winner = result.get("match_winner", result.get("winner"))
        if early:
            screen.line(early)
        elif len(sheets) <= 1:  # several games: the score sheets said who won the match
            screen.line(f"{names[winner]} wins the match." if winner in (0, 1) else "No winner.")
        for seat, change in enumerate((self.export.get("ratings") or [])[:2]):
            if change:
                before = rating_words(change.get("before")) if change.get("before") else "none"
                screen.line(f"Rating of {names[seat]}: {before} → {rating_words(change.get('after'))}")


def when(iso: Any) -> str:
    """An ISO 8601 UTC time as shown: ``2026-11-24 17:59 UTC``.

    >>> when("2026-11-24T17:59:53.906Z"), when(None)
    ('2026-11-24 17:59 UTC', '?')
    """
    if not isinstance(iso, str) or len(iso) < 16:
        return "?"
    return f"{iso[:10]} {iso[11:16]} UTC"


def print_replay(screen: Screen, replay: Replay) -> None:
    """The whole replay as text: every hand, every move with both hands and the pile, every result."""
    replay.header(screen)
    for frame in replay.frames:
        replay.render(screen, frame, table=False)


# --- stepping through it at a terminal ------------------------------------------------------------------


def split_keys(text: str) -> list[str]:
    """Keys in what a terminal sent: each character, an arrow key's escape sequence as one.

    >>> split_keys("nN\\x1b[Cq")
    ['n', 'N', '\\x1b[C', 'q']
    """
    keys, i = [], 0
    while i < len(text):
        size = 3 if text.startswith("\x1b[", i) and i + 2 < len(text) else 1
        keys.append(text[i : i + size])
        i += size
    return keys


class Keys:
    """The keys pressed, one at a time: a terminal is read key by key (no Enter needed, no echo) until
    :meth:`close`; a pipe, character by character. The end of input reads as ``q``."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending: list[str] = []
        self.saved: list[Any] | None = None
        if os.name == "posix" and os.isatty(fd):
            import termios
            import tty

            self.saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)

    def read(self) -> str:
        if not self.pending:
            data = os.read(self.fd, 16 if self.saved is not None else 1)  # a key's bytes come together
            self.pending = split_keys(data.decode("utf-8", "replace")) if data else ["q"]
        return self.pending.pop(0)

    def close(self) -> None:
        if self.saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


MOVES_BY_KEY = {
    "n": "next", "\n": "next", "\r": "next", " ": "next", "\x1b[C": "next",
    "p": "previous", "\x1b[D": "previous",
    "N": "next hand", "\x1b[B": "next hand",
    "P": "previous hand", "\x1b[A": "previous hand",
    "m": "next mark", "M": "previous mark",
    "q": "quit", "Q": "quit", "\x04": "quit",
}  # fmt: skip
"""What each key does (the arrows too: → next, ← previous, ↓ next hand, ↑ previous hand)."""


def step_through(screen: Screen, replay: Replay, keys: Keys) -> None:
    """Show one frame at a time on the terminal's alternate screen (as a pager does), moving as the keys
    say, until ``q`` (or the end of input)."""
    at, shown = 0, None
    last = len(replay.frames) - 1
    marks = any(note.marked for note in replay.notes.values())
    with alternate_screen(screen):
        while True:
            if at != shown:  # a key that moves nowhere (the end, an unknown key) draws nothing again
                shown = at
                frame = replay.frames[at]
                screen.clear()
                screen.line((replay.caption(), "dim"))
                replay.render(screen, frame, table=True)
                where = (
                    f"hand {frame.hand + 1} of {len(replay.records)}" if frame.kind != "end" else "the end"
                )
                screen.blank()
                screen.line((f"[{where}] {KEYS_HELP}", "dim"))
                if marks:
                    screen.line((MARKS_HELP, "dim"))
            move = MOVES_BY_KEY.get(keys.read())
            if move == "quit":
                return
            if move == "next":
                at = min(at + 1, last)
            elif move == "previous":
                at = max(at - 1, 0)
            elif move == "next hand":
                at = replay.next_hand(at)
            elif move == "previous hand":
                at = replay.previous_hand(at)
            elif move == "next mark":
                at = replay.next_mark(at)
            elif move == "previous mark":
                at = replay.previous_mark(at)


@contextlib.contextmanager
def alternate_screen(screen: Screen) -> Iterator[None]:
    """The terminal's alternate screen while the block runs: what was on it before comes back after."""
    screen.out.write("\x1b[?1049h")
    try:
        yield
    finally:
        screen.out.write("\x1b[?1049l")
        screen.out.flush()
