"""``gin review``: a finished match's review — every decision of each seat judged by the service's master
from what that seat knew (docs/api.md, *Reviews*) — shown seat by seat and move by move; and the notes
``gin replay --review`` shows under each judged move.

Nothing here judges: the verdicts, the better moves and the points given up are the review's. The moves
are told from the match's export as :mod:`replay` tells them (its frames give the card a draw from the
pile took: a review's move names no card the seat could not see). The marks are the annotator's: ``?!``
an inaccuracy, ``?`` a mistake, ``??`` a blunder.

>>> screen = Screen(color=False)
>>> move = {"hand": 1, "index": 4, "seat": 0, "played": {"type": "draw", "source": "stock"},
...         "best": {"type": "draw", "source": "discard"}, "loss": 6.29, "verdict": "mistake"}
>>> text(judgement_parts(screen, move, top="8H"))
'?  mistake: better take 8H (6.3 points given up)'
>>> text(judgement_parts(screen, {**move, "loss": 0.8, "verdict": None}, top="8H"))
'good: within 0.8 points of the best (take 8H)'
>>> knock, discard = {"type": "knock", "discard": "6H"}, {"type": "discard", "card": "6H"}
>>> text(judgement_parts(screen, {**move, "played": knock, "best": discard}, top="8H"))
"?  mistake: don't knock, better discard 6H (6.3 points given up)"
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ginrummy_client import Client, ReviewTimeout

from .play import plain
from .replay import Note, Replay
from .screen import Part, Screen
from .table import describe_move

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The mark of each verdict."""
MARK_STYLES = {"inaccuracy": "yellow", "mistake": "red", "blunder": "bold red"}
WAITING = "The master is reviewing the match… ({seconds} s) — Ctrl-C stops waiting"

SEATS_ROW = (
    "  {player:<16} {accuracy:>8} {decisions:>9} {inaccuracies:>12} {mistakes:>8} {blunders:>8} {lost:>9}"
)
"""A row of the seats' table (within 80 columns)."""


def text(parts: list[Part]) -> str:
    """Parts as the plain text they show."""
    return "".join(part if isinstance(part, str) else part[0] for part in parts)


def advice_parts(screen: Screen, action: Mapping[str, Any], top: str | None) -> list[Part]:
    """A move as advice: ``discard 6D``, ``take 8S`` (``top``: the card on the pile), ``draw from the
    stock``, ``pass``, ``knock, discarding 6D``.

    >>> screen = Screen(color=False)
    >>> [text(advice_parts(screen, a, None)) for a in ({"type": "draw", "source": "discard"},
    ...  {"type": "knock", "discard": "6D"}, {"type": "knock", "discard": None}, {"type": "pass"})]
    ['take the discard', 'knock, discarding 6D', 'go big gin', 'pass']
    """
    kind = action.get("type")
    if kind == "draw" and action.get("source") == "discard":
        return ["take ", screen.card(top)] if top else ["take the discard"]
    if kind == "draw":
        return ["draw from the stock"]
    if kind == "discard" and action.get("card"):
        return ["discard ", screen.card(str(action["card"]))]
    if kind == "knock":
        discard = action.get("discard")
        return ["knock, discarding ", screen.card(str(discard))] if discard else ["go big gin"]
    return [str(kind)]


def mark_part(move: Mapping[str, Any], width: int) -> Part:
    """A move's mark, ``width`` wide (blank for a move not marked)."""
    verdict = move.get("verdict")
    if verdict not in MARKS:
        return " " * width
    return (f"{MARKS[verdict]:<{width}}", MARK_STYLES[verdict])


def verdict_parts(screen: Screen, move: Mapping[str, Any], top: str | None) -> list[Part]:
    """The review's word on a move: its verdict, the better move and the points given up; or that it was
    good (the best, or within the points of an inaccuracy of it)."""
    verdict = move.get("verdict")
    loss = float(move.get("loss") or 0.0)
    best = advice_parts(screen, move.get("best") or {}, top)
    if verdict in MARKS:
        better = ": don't knock, better " if knocked_against(move) else ": better "
        return [(verdict, MARK_STYLES[verdict]), better, *best, f" ({loss:.1f} points given up)"]
    if move.get("best") == move.get("played"):
        return [("good: the best move", "green")]
    if round(loss, 1) == 0:
        return [("good", "green"), ": as good as the best (", *best, ")"]
    return [("good", "green"), f": within {loss:.1f} points of the best (", *best, ")"]


def knocked_against(move: Mapping[str, Any]) -> bool:
    """Whether the move played was a knock where the review's better move is not one."""
    played, best = move.get("played") or {}, move.get("best") or {}
    return played.get("type") == "knock" and played.get("discard") is not None and best.get("type") != "knock"


def best_words(move: Mapping[str, Any]) -> str:
    """The review's words on its better move (why: ``Don't knock: the undercut risk is …``), or ""."""
    best = move.get("best")
    return next(
        (str(e.get("explanation") or "") for e in move.get("estimates") or [] if e.get("action") == best), ""
    )


def judgement_parts(screen: Screen, move: Mapping[str, Any], top: str | None) -> list[Part]:
    """The mark of a move then the review's word on it."""
    marked = move.get("verdict") in MARKS
    return [*([mark_part(move, 2), " "] if marked else []), *verdict_parts(screen, move, top)]


class Judged:
    """A review read beside the match it judges: each judged move's place in the replay's frames, the
    card on the pile when it was made, and its words."""

    def __init__(self, screen: Screen, replay: Replay, review: Mapping[str, Any]) -> None:
        self.screen = screen
        self.replay = replay
        self.review = review
        self.moves: list[Mapping[str, Any]] = list(review.get("moves") or [])
        # The table as it was before each move: the frame of the move before (the deal before the first).
        self.before = {(f.hand, f.step): f for f in replay.frames if f.kind in ("deal", "move")}

    def key(self, move: Mapping[str, Any]) -> tuple[int, int]:
        """The ``(hand, step)`` of the replay's frame of ``move`` (a review counts hands from 1 and a
        hand's moves from 0; the replay its hands from 0 and the frames of a hand's moves from 1)."""
        return int(move["hand"]) - 1, int(move["index"]) + 1

    def top(self, move: Mapping[str, Any]) -> str | None:
        """The card on the discard pile when ``move`` was made."""
        hand, step = self.key(move)
        frame = self.before.get((hand, step - 1))
        return frame.pile[-1] if frame is not None and frame.pile else None

    def record(self, move: Mapping[str, Any]) -> Mapping[str, Any]:
        """The record of the hand of ``move``, as exported."""
        hand = self.key(move)[0]
        return self.replay.records[hand] if 0 <= hand < len(self.replay.records) else {}

    def played_parts(self, move: Mapping[str, Any]) -> list[Part]:
        """The move played, as the replay tells it (with the card a draw from the pile took)."""
        seat = int(move.get("seat") or 0)
        item = {**(move.get("played") or {}), "seat": seat}
        top = self.top(move)
        if item.get("type") == "draw" and item.get("source") == "discard" and top:
            item["card"] = top
        view = {"result": self.record(move).get("result") or {}}
        return describe_move(self.screen, item, self.replay.names[seat], view)

    def notes(self) -> dict[tuple[int, int], Note]:
        """The notes of ``gin replay --review``: every judged move's verdict, by its frame."""
        return {
            self.key(move): Note(
                tuple(judgement_parts(self.screen, move, self.top(move))), move.get("verdict") in MARKS
            )
            for move in self.moves
        }

    def render(self, *, every: bool) -> None:
        """``gin review``: who played, each seat's accuracy and counts, and the marked moves (``every``:
        every judged move: :meth:`render_moves`)."""
        screen, replay, review = self.screen, self.replay, self.review
        seats = review.get("seats") or []
        hands = len(replay.records)
        decisions = sum(int(seat.get("decisions") or 0) for seat in seats)
        screen.rule(f"Review of game {replay.export.get('game_id', '?')}")
        screen.para(
            f"{replay.names[0]} vs {replay.names[1]} · {hands} hand{'' if hands == 1 else 's'} · "
            f"{decisions} decisions judged by the master, each move played out over "
            f"{review.get('samples', '?')} deals",
            indent=2,
        )
        screen.line(
            (
                SEATS_ROW.format(
                    player="player", accuracy="accuracy", decisions="decisions", inaccuracies="inaccuracies",
                    mistakes="mistakes", blunders="blunders", lost="given up",
                ).rstrip(),
                "bold",
            )
        )  # fmt: skip
        for seat in seats:
            screen.line(seat_row(replay.names[int(seat.get("seat") or 0)], seat))
        for seat in seats:
            if not seat.get("decisions"):
                name = replay.names[int(seat.get("seat") or 0)]
                screen.line(f"  {name} made no decision to judge: no accuracy.")
        screen.line((legend(review.get("thresholds") or {}), "dim"))
        self.render_moves(every=every)
        screen.line(("gin replay GAME --review shows each verdict beside its move, at the table.", "dim"))

    def render_moves(self, *, every: bool) -> None:
        """The marked moves (``every``: every judged move), each with its hand and number, who made it
        and what it was, then the review's word on it."""
        screen = self.screen
        shown = [move for move in self.moves if every or move.get("verdict") in MARKS]
        marked = sum(1 for move in self.moves if move.get("verdict") in MARKS)
        judged = len(self.moves)
        screen.rule(
            f"Every judged move ({judged})" if every else f"Marked moves: {marked} of {judged} judged"
        )
        if not self.moves:
            screen.line("  No move was judged: no hand was played to its end.")
        elif not shown:
            screen.line("  None: every move was within the points of an inaccuracy of the master's best.")
        for move in shown:
            where = f"Hand {self.record(move).get('number', move.get('hand'))} · move {self.key(move)[1]} · "
            screen.line("  ", mark_part(move, 3), " ", where, *self.played_parts(move))
            screen.line("        ", *verdict_parts(screen, move, self.top(move)))
            if knocked_against(move) and best_words(move):
                screen.para(best_words(move), first="        ", indent=8, style="dim")


def seat_row(name: str, seat: Mapping[str, Any]) -> str:
    """A seat's line of the table.

    >>> seat_row("Ann", {"accuracy": 89.9, "decisions": 7, "points_lost": 17.6, "inaccuracies": 3,
    ...                  "mistakes": 1, "blunders": 0})
    '  Ann                 89.9%         7            3        1        0      17.6'
    >>> seat_row("Bob", {"accuracy": None, "decisions": 0, "points_lost": 0})
    '  Bob                     —         0            0        0        0       0.0'
    """
    return SEATS_ROW.format(
        player=name[:16],
        accuracy="—" if seat.get("accuracy") is None else f"{float(seat['accuracy']):.1f}%",
        decisions=seat.get("decisions", 0),
        inaccuracies=seat.get("inaccuracies", 0),
        mistakes=seat.get("mistakes", 0),
        blunders=seat.get("blunders", 0),
        lost=f"{float(seat.get('points_lost') or 0):.1f}",
    )


def legend(thresholds: Mapping[str, Any]) -> str:
    """What the marks mean, with the review's thresholds.

    >>> legend({"blunder": 10.0, "mistake": 5.0, "inaccuracy": 2.0})
    '  ?! inaccuracy: 2+ points given up · ? mistake: 5+ · ?? blunder: 10+'
    """
    parts: list[str] = []
    for verdict, mark in MARKS.items():
        points = thresholds.get(verdict)
        shown = f"{float(points):g}+" if isinstance(points, int | float) else "?"
        parts.append(f"{mark} {verdict}: {shown}{' points given up' if not parts else ''}")
    return "  " + " · ".join(parts)


class Waiting:
    """The line ``The master is reviewing the match… (N s)`` while gin waits for a review. :meth:`sleep`
    is the pause the SDK makes between two reads of the review: the line ticks each second meanwhile (on
    a terminal; elsewhere it is written once). ``quiet`` (``--json``): no line."""

    def __init__(self, screen: Screen, *, quiet: bool = False) -> None:
        self.screen = screen
        self.quiet = quiet
        self.started = time.monotonic()
        self.shown = False

    def seconds(self) -> int:
        return int(time.monotonic() - self.started)

    def sleep(self, pause: float) -> None:
        end = time.monotonic() + pause
        while True:
            if not self.quiet:
                self.screen.status(WAITING.format(seconds=self.seconds()))
                self.shown = True
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(1.0, left))

    def finish(self, said: str) -> None:
        """End the waiting line (when one was shown) with what came of it."""
        if self.shown:
            self.screen.progress(said, final=True)


def await_review(
    client: Client, screen: Screen, game_id: str, wait: float, *, quiet: bool = False
) -> tuple[dict[str, Any] | None, str]:
    """The review of a finished match — asked for when there is none, then waited for up to ``wait``
    seconds while the line ``The master is reviewing the match… (N s)`` ticks (``quiet``: no line, no
    words on stderr) — and how the wait ended: ``done``; ``failed`` (the service could not review it);
    ``pending`` (still being computed: the last answer comes with it); ``stopped`` (Ctrl-C: no review).
    The review goes on in the service whenever gin stops waiting for it."""
    waiting = Waiting(screen, quiet=quiet)
    later = f"gin review {game_id} shows it once done"
    try:
        status = plain(client.reviews.wait(game_id, max(0.0, wait), sleep=waiting.sleep))
    except ReviewTimeout as pending:
        waiting.finish(f"The master is still reviewing the match ({waiting.seconds()} s).")
        if not quiet:
            screen.error(f"no review after {pending.waited:.0f} s (is a bot worker running?): {later}")
        return plain(pending.status), "pending"
    except KeyboardInterrupt:
        waiting.finish(f"The master is still reviewing the match ({waiting.seconds()} s).")
        screen.error(f"stopped waiting: the review goes on in the service; {later}")
        return None, "stopped"
    if status.get("status") != "done":
        waiting.finish("The master could not review the match.")
        if not quiet:
            screen.error(f"the service's review of game {game_id} failed: gin review {game_id} asks again")
        return status, "failed"
    waiting.finish(f"The master reviewed the match in {waiting.seconds()} s.")
    return status, "done"
