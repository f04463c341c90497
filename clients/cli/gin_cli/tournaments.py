"""Tournaments on a terminal: the lists of ``gin tournaments``, a tournament in a few words, its
standings (between the games ``gin tournament join`` plays, and in ``gin tournament show``), and which of
the account stream's games are a tournament's.

>>> format_words({"format": "round_robin", "settings": {"duplicate": True}, "rounds": 3, "round": 1})
'round robin with duplicate deals, round 1 of 3'
>>> format_words({"format": "arena", "settings": {"minutes": 5}})
'arena of 5 min'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .accounts import render_rows
from .challenges import fit
from .people import ago, clock_words, rules_words, span
from .screen import Screen

OVER = ("finished", "canceled")
"""The statuses of a tournament that is over."""


def tournament_games(events: Iterable[Mapping[str, Any]], tournament_id: str) -> list[str]:
    """The ids of the games of ``tournament_id`` that a page of the account stream starts.

    >>> start = {"type": "gameStart", "game": {"game_id": "g1", "tournament": "t1"}}
    >>> tournament_games([start, {"type": "challenge"}], "t1"), tournament_games([start], "t2")
    (['g1'], [])
    """
    return [
        str(event["game"]["game_id"])
        for event in events
        if event.get("type") == "gameStart" and (event.get("game") or {}).get("tournament") == tournament_id
    ]


def format_words(tournament: Mapping[str, Any]) -> str:
    """The format of a tournament and how far it is, in a few words."""
    settings = tournament.get("settings") or {}
    kind = tournament.get("format")
    if kind == "arena":
        return f"arena of {span(60 * float(settings.get('minutes') or 0))}"
    words = "Swiss" if kind == "swiss" else "round robin"
    if settings.get("duplicate"):
        words += " with duplicate deals"
    rounds = tournament.get("rounds") or settings.get("rounds")
    if tournament.get("round") and rounds:
        words += f", round {tournament['round']} of {rounds}"
    elif rounds:
        words += f" of {rounds} rounds"
    return words


def terms_words(tournament: Mapping[str, Any]) -> str:
    """Its matches' terms: rules, clock, rated or casual, bots allowed, private.

    >>> terms_words({"settings": {"rules": {"preset": "standard"}, "clock": None, "rated": False,
    ...                           "bots": True}, "private": True})
    'standard, no clock, casual, bots allowed, private'
    """
    settings = tournament.get("settings") or {}
    words = [
        rules_words(settings.get("rules") or {}),
        clock_words(settings.get("clock")),
        "rated" if settings.get("rated") else "casual",
    ]
    if settings.get("bots"):
        words.append("bots allowed")
    if tournament.get("private"):
        words.append("private")
    return ", ".join(words)


def when_words(tournament: Mapping[str, Any], now: float | None = None) -> str:
    """When it starts (upcoming), ends (a running arena), or finished.

    >>> when_words({"status": "created", "starts_at": 160.0}, now=100.0)
    'starts in 1 min'
    >>> when_words({"status": "finished", "finished_at": 40.0}, now=100.0)
    'finished 1 min ago'
    """
    now = time.time() if now is None else now
    status = tournament.get("status")
    if status == "created":
        left = float(tournament.get("starts_at") or now) - now
        return f"starts in {span(left)}" if left >= 1 else "starts now"
    if status == "started":
        ends = tournament.get("ends_at")
        return f"ends in {span(float(ends) - now)}" if isinstance(ends, int | float) else "running"
    return f"{status} {ago(tournament.get('finished_at'), now)}".rstrip()


LIST_ROW = "  {id:<12}  {name:<22} {format:<28} {players:>7}  {when}"
"""A row of ``gin tournaments``."""


def render_lists(screen: Screen, listing: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """``gin tournaments``: upcoming, running and recently finished."""
    header = {"id": "id", "name": "name", "format": "format", "players": "players", "when": "when"}
    for status, title, footer in (
        ("created", "Upcoming tournaments", "gin tournament join ID enters one."),
        ("started", "Running", "gin tournament show ID: its standings and games; join ID plays."),
        ("finished", "Finished", "gin tournament show ID: the final standings."),
    ):
        cells = [
            {
                "id": str(row.get("id")),
                "name": fit(str(row.get("name") or ""), 22),
                "format": fit(format_words(row), 28),
                "players": str(row.get("players", 0)),
                "when": when_words(row),
            }
            for row in listing.get(status) or []
        ]
        empty = "none: gin tournament create NAME makes one" if status == "created" else "none"
        render_rows(screen, title, LIST_ROW, header, cells, empty=empty, footer=footer)


STANDING_ROW = "{mark:1} {rank:>3}  {player:<24} {points:>6} {games:>5} {wins:>4} {losses:>4} {draws:>4}"
"""A row of the standings."""


def points_words(points: float) -> str:
    """Points as shown: whole numbers without a decimal.

    >>> points_words(3.0), points_words(2.5)
    ('3', '2.5')
    """
    return str(int(points)) if float(points).is_integer() else str(points)


def render_standings(
    screen: Screen, tournament: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], me: str | None
) -> None:
    """The standings (``me``: the player's own line, marked ``>``); an arena's players on a streak say so."""
    header = {"mark": "", "rank": "#", "player": "player", "points": "points", "games": "games",
              "wins": "won", "losses": "lost", "draws": "drawn"}  # fmt: skip
    cells = []
    for row in rows:
        name = str(row.get("player") or "?")
        marks = [" (bot)" if row.get("bot") else "", " (on fire)" if row.get("fire") else ""]
        if not row.get("active", True):
            marks.append(" (paused)" if tournament.get("format") == "arena" else " (withdrawn)")
        cells.append(
            {
                "mark": ">" if me is not None and name.casefold() == me.casefold() else "",
                "rank": str(row.get("rank", "")),
                "player": fit(name + "".join(marks), 24),
                "points": points_words(float(row.get("points") or 0)),
                "games": str(row.get("games", 0)),
                "wins": str(row.get("wins", 0)),
                "losses": str(row.get("losses", 0)),
                "draws": str(row.get("draws", 0)),
            }
        )
    title = f"Standings of {tournament.get('name')} ({format_words(tournament)}, {when_words(tournament)})"
    render_rows(screen, title, STANDING_ROW, header, cells, empty="nobody has joined yet", footer="")


def render_tournament(screen: Screen, info: Mapping[str, Any], me: str | None) -> None:
    """``gin tournament show``: what it is, its standings (a page), its matches in play and your entry."""
    by = f" (tournament {info.get('id')}, by {info.get('organiser')})"
    screen.line((str(info.get("name")), "bold"), by)
    players = f"{info.get('players', 0)} players"
    screen.line(f"{format_words(info)}: {terms_words(info)}; {players}; {when_words(info)}.")
    if info.get("description"):
        screen.line(str(info["description"]))
    standings = info.get("standings") or {}
    render_standings(screen, info, standings.get("players") or [], me)
    if int(standings.get("pages") or 1) > 1:
        screen.line((f"page {standings.get('page')} of {standings.get('pages')} (--page N)", "dim"))
    playing = info.get("playing") or []
    if playing:
        screen.rule("Playing now")
        for pairing in playing:
            players = " vs ".join(str(name) for name in pairing.get("players") or [])
            screen.line(f"  {pairing.get('game_id')}  {players}")
        screen.line(("gin watch GAME follows one.", "dim"))
    entry = info.get("me")
    if entry:
        state = "in" if entry.get("active") else "paused (gin tournament join comes back)"
        game = f", playing game {entry['playing']}" if entry.get("playing") else ""
        screen.line(f"You ({entry.get('player')}): {state}{game}.")
