"""A player's finished games on a terminal: the ``--since``/``--until`` notation and the table of
``gin games`` (everything shown comes from the service's list; the commands of the archive are carried
out in :mod:`commands_records`, a replay shown by :mod:`replay`).

>>> parse_when("2026-11-24"), parse_when("2026-11-24T17:30Z").isoformat()
(datetime.datetime(2026, 11, 24, 0, 0), '2026-11-24T17:30:00+00:00')
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from .screen import Screen


def parse_when(text: str) -> dt.datetime:
    """``--since``/``--until``: an ISO 8601 date, or date and time (UTC unless it says). An argparse
    type: anything else is a usage error.

    >>> parse_when("yesterday")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a time is ISO 8601, e.g. 2026-11-24 or ..., not 'yesterday'
    """
    try:
        return dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a time is ISO 8601, e.g. 2026-11-24 or 2026-11-24T17:00 (UTC unless it says), not {text!r}"
        ) from None


def rating_change_words(change: Mapping[str, Any] | None) -> str:
    """What a game did to the player's rating: ``+12``, ``-88``, ``→1342`` (the first rated game of a
    family), or nothing (an unrated game).

    >>> rating_change_words({"before": {"rating": 1500}, "after": {"rating": 1488}})
    '-12'
    >>> rating_change_words({"before": None, "after": {"rating": 1342}}), rating_change_words(None)
    ('→1342', '')
    """
    if not change or not change.get("after"):
        return ""
    after = int(change["after"]["rating"])
    before = change.get("before")
    if not before:
        return f"→{after}"
    return f"{after - int(before['rating']):+d}"


GAMES_ROW = "  {game:<21} {finished:<10} {result:<7} {points:>7} {opponent:<11} {rules:<10} {rating:>6}"
"""A row of ``gin games``: 80 columns with the service's 21-character game ids."""


def games_row(game: Mapping[str, Any]) -> str:
    """One game of a player's list as a row of the table.

    >>> games_row({"game_id": "gpv7SN5Bab2C-fldsrDdL", "finished_at": "2026-11-24T17:59:53.362Z",
    ...            "result": "lost", "points": [0, 100], "opponent": "bot-simple", "family": "standard",
    ...            "rating": {"before": None, "after": {"rating": 1342}}})
    '  gpv7SN5Bab2C-fldsrDdL 2026-11-24 lost      0–100 bot-simple  standard    →1342'
    """
    points = game.get("points") or []
    return GAMES_ROW.format(
        game=str(game.get("game_id", "?")),
        finished=str(game.get("finished_at") or "")[:10],
        result=str(game.get("result", "?")),
        points=f"{points[0]}–{points[1]}" if len(points) == 2 else "",
        opponent=str(game.get("opponent") or "?")[:11],
        rules=str(game.get("family") or "casual")[:10],
        rating=rating_change_words(game.get("rating")),
    ).rstrip()


def render_games(
    screen: Screen, player: str, games: Sequence[Mapping[str, Any]], *, more: bool, filtered: bool
) -> None:
    """The table of ``gin games``: newest first; ``more``: older games pass the filters too (how to see
    them is said); ``filtered``: some filter was given (said when nothing passed)."""
    screen.rule(f"Games of {player} · newest first")
    if not games:
        screen.line("  none that pass these filters" if filtered else "  none finished yet")
        return
    header = GAMES_ROW.format(
        game="game", finished="finished", result="result", points="points", opponent="opponent",
        rules="rules", rating="rating",
    )  # fmt: skip
    screen.line((header, "bold"))
    for game in games:
        screen.line(games_row(game))
    if more:
        oldest = games[-1].get("finished_at")
        screen.line(("More: a larger --limit, or --until " + str(oldest) + " for the older ones.", "dim"))
    screen.line(("gin replay GAME steps through a game; gin export writes them all as NDJSON.", "dim"))
