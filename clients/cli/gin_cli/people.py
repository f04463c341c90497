"""Players and the lobby on a terminal: the ``--clock`` and ``--option`` notations, and the screens of
``gin lobby``, ``gin profile`` and ``gin leaderboard`` (everything shown comes from the service's answers;
the commands are carried out in :mod:`commands_people`).

>>> parse_clock("Rapid"), parse_clock("60"), parse_clock("300+5")
('rapid', {'per_move': 60}, {'bank': 300, 'increment': 5})
>>> rule_options(["target=50", "hollywood=true"])
{'target': 50, 'hollywood': True}
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Mapping
from typing import Any

from ginrummy_client import parse_options

from .errors import UsageError
from .screen import Screen

PRESET_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
"""What a clock preset's name looks like; which names exist is the service's to say (it refuses others)."""


def parse_clock(text: str) -> str | dict[str, int]:
    """``--clock``: the name of a preset of the service's (``rapid``, ``blitz``…: it says which it knows,
    and refuses the others), ``SECONDS`` a move, or ``BANK+INCREMENT`` (seconds for the match, seconds
    added per move). An argparse type: a value of none of these forms is a usage error.

    >>> parse_clock("10 minutes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a clock is a preset's name (rapid), ... not '10 minutes'
    """
    word = text.strip().lower()
    if PRESET_NAME.fullmatch(word):
        return word
    bank, plus, increment = word.partition("+")
    if bank.isdigit() and int(bank) > 0 and (not plus or increment.isdigit()):
        return {"bank": int(bank), "increment": int(increment)} if plus else {"per_move": int(bank)}
    raise argparse.ArgumentTypeError(
        "a clock is a preset's name (rapid), SECONDS a move (60) or BANK+INCREMENT seconds (300+5), "
        f"not {text!r}"
    )


def rule_options(pairs: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as rule options (the SDK's :func:`parse_options`); a usage error
    for a pair of another form."""
    try:
        return parse_options(pairs)
    except ValueError as error:
        raise UsageError(f"--option needs KEY=VALUE: {error}") from None


def clock_words(clock: Mapping[str, Any] | None) -> str:
    """A time control in a few words.

    >>> clock_words(None), clock_words({"preset": "eaai"}), clock_words({"per_move": 60, "increment": 0})
    ('no clock', 'clock eaai', 'clock 60 s a move')
    >>> clock_words({"bank": 300, "increment": 5})
    'clock 300+5 s'
    >>> clock_words({"preset": "rapid", "per_move": None, "bank": 600, "increment": 5})
    'clock rapid (600+5 s)'
    """
    if not clock:
        return "no clock"
    if clock.get("preset"):
        numbers = f" ({clock['bank']}+{clock.get('increment') or 0} s)" if clock.get("bank") else ""
        return f"clock {clock['preset']}{numbers}"
    words = []
    if clock.get("bank"):
        words.append(f"{clock['bank']}+{clock.get('increment') or 0} s")
    if clock.get("per_move"):
        words.append(f"{clock['per_move']} s a move")
    return "clock " + ", ".join(words)


def rules_words(rules: Mapping[str, Any]) -> str:
    """A seek's rules: the preset and its option overrides.

    >>> rules_words({"preset": "standard", "options": {"target": 10}, "clock": None})
    'standard target=10'
    """
    options = rules.get("options") or {}
    return " ".join([str(rules.get("preset") or "standard"), *(f"{k}={v}" for k, v in options.items())])


def ago(when: Any, now: float | None = None) -> str:
    """How long ago a unix time was, roughly.

    >>> ago(100.0, now=130.0), ago(0, now=7200.0), ago(None)
    ('30 s ago', '2 h ago', '')
    """
    if not isinstance(when, int | float):
        return ""
    return span((time.time() if now is None else now) - when) + " ago"


def span(seconds: float) -> str:
    """A length of time, roughly, in its largest unit.

    >>> span(59.9), span(600), span(7200), span(-5), span(200000)
    ('59 s', '10 min', '2 h', '0 s', '2 d')
    """
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min"
    if whole < 86400:
        return f"{whole // 3600} h"
    return f"{whole // 86400} d"


def rating_words(rating: Mapping[str, Any] | None) -> str:
    """A rating as shown: ``1532`` (``1532?`` while provisional), or ``unrated``.

    >>> rating_words({"rating": 1620, "provisional": True}), rating_words(None)
    ('1620?', 'unrated')
    """
    if not rating or rating.get("rating") is None:
        return "unrated"
    return f"{rating['rating']}{'?' if rating.get('provisional') else ''}"


def render_lobby(screen: Screen, seeks: list[dict[str, Any]], games: list[dict[str, Any]]) -> None:
    """The open seeks (take one with ``gin accept``) and the public games in play."""
    screen.rule("Open seeks (gin accept SEEK_ID · gin seek posts one)")
    for seek in seeks:
        rules = seek.get("rules") or {}
        rating = seek.get("rating")
        parts = [
            rules_words(rules),
            "rated" if seek.get("rated") else "casual",
            clock_words(rules.get("clock")),
        ]
        wanted = (seek.get("min_rating"), seek.get("max_rating"))
        if any(w is not None for w in wanted):
            parts.append(f"ratings {wanted[0] or 0}–{wanted[1] or '…'}")
        who = f"{seek.get('player', '?')} ({rating if rating is not None else 'unrated'})"
        when = ago(seek.get("created"))
        screen.line((f"  {seek.get('id', '?')}", "bold"), f"  {who}  ", " · ".join(parts), f"  {when}")
    if not seeks:
        screen.line("  none: gin seek waits here for an opponent")
    screen.rule("Public games in play (gin watch GAME_ID)")
    for game in games:
        names = []
        for player in game.get("players") or []:
            name = str(player.get("name") or "?")
            names.append(f"{name} (bot)" if player.get("type") == "bot" else name)
        rules = game.get("rules") or {}
        what = "rated" if game.get("rated") else "casual"
        screen.line(
            (f"  {game.get('game_id', '?')}", "bold"),
            f"  {' vs '.join(names)}  · {what} · target {rules.get('target', '?')}"
            f" · hand {game.get('hand_number', '?')}",
        )
    if not games:
        screen.line("  none")


def render_profile(screen: Screen, profile: Mapping[str, Any]) -> None:
    """A player's profile: games, followers, ratings with their rank, recent games."""
    games = profile.get("games") or {}
    screen.rule(f"{profile.get('name', '?')}")
    screen.line(
        f"Games: {games.get('played', 0)} played · {games.get('won', 0)} won · {games.get('lost', 0)} lost"
    )
    screen.line(f"Followers: {profile.get('followers', 0)}")
    ratings = profile.get("ratings") or {}
    for family, rating in ratings.items():
        rank = rating.get("rank")
        where = f" · rank {rank}" if rank else ""
        screen.line(
            f"Rating ({family}): {rating_words(rating)} ±{rating.get('deviation', '?')}"
            f" · {rating.get('games', 0)} rated games{where}"
        )
    if not ratings:
        screen.line("Rating: none yet (rated games: gin play --rated, gin seek --rated)")
    recent = profile.get("recent") or []
    if recent:
        screen.line("Recent games:")
    for game in recent[:10]:
        change = game.get("rating_change")
        delta = f" {change:+.0f}" if isinstance(change, int | float) else ""
        reason = f" ({game['reason']})" if game.get("reason") else ""
        kind = "rated" if game.get("rated") else "casual"
        screen.line(
            f"  {str(game.get('result', '?')):<5} vs {game.get('opponent') or '?'}{reason} · "
            f"{kind if game.get('family') == 'casual' else game.get('family', '?') + ' ' + kind}{delta} · "
            f"{ago(game.get('finished_at'))}"
            f" · {game.get('game_id', '')}"
        )


def render_leaderboard(screen: Screen, board: Mapping[str, Any]) -> None:
    """The leaderboard of a rules family."""
    screen.rule(f"Leaderboard · {board.get('family', '?')}")
    rows = board.get("players") or []
    if not rows:
        screen.line("  nobody yet: rated games put players here (gin seek --rated)")
        return
    screen.line(f"  {'#':>3}  {'player':<24} {'rating':>7} {'±':>4} {'games':>6}")
    for row in rows:
        screen.line(
            f"  {row.get('rank', '?'):>3}  {str(row.get('name', '?'))[:24]:<24} {rating_words(row):>7}"
            f" {row.get('deviation', '?'):>4} {row.get('games', 0):>6}"
        )
