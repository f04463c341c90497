"""The account on a terminal: passwords read, and the tables of ``gin sessions``, ``gin token list`` and
``gin games --live`` (the account's commands are carried out in :mod:`commands_account`).

A password is read, never taken from the command line or the environment: typed at the terminal without
echo (``getpass``), or — when stdin is not a terminal (a script, a test) — its next line.

>>> when(0.0), when(None)
('1970-01-01 00:00', 'never')
"""

from __future__ import annotations

import datetime as dt
import getpass
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import UsageError
from .screen import Screen, isatty


def read_password(prompt: str) -> str:
    """A password: typed at the terminal without echo, or, when stdin is not a terminal, its next line
    (without its line end). An empty one, or none at all, is a usage error."""
    if isatty(sys.stdin):
        try:
            password = getpass.getpass(prompt)
        except EOFError:
            password = ""
    else:
        password = sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    if not password:
        raise UsageError("no password was given (at a terminal it is typed; otherwise read from stdin)")
    return password


def read_new_password(prompt: str) -> str:
    """A new password: at a terminal typed twice (a typo is not kept); from a pipe one line."""
    password = read_password(prompt)
    if isatty(sys.stdin) and read_password("The same again: ") != password:
        raise UsageError("the two passwords differ: nothing was changed")
    return password


def when(moment: Any) -> str:
    """A unix time as the account's lists show it: UTC, to the minute (``never`` for none)."""
    if not isinstance(moment, int | float):
        return "never"
    return dt.datetime.fromtimestamp(moment, dt.UTC).strftime("%Y-%m-%d %H:%M")


def render_rows(
    screen: Screen,
    title: str,
    row: str,
    header: Mapping[str, str],
    rows: Sequence[Mapping[str, Any]],
    *,
    empty: str,
    footer: str,
) -> None:
    """A table under a heading: ``row`` is the format of a line, ``header`` its headings, ``rows`` the
    cells of each line; ``empty`` is said when there are none, ``footer`` (dim) after them."""
    screen.rule(title)
    if not rows:
        screen.line(f"  {empty}")
        return
    screen.line((row.format(**header).rstrip(), "bold"))
    for cells in rows:
        screen.line(row.format(**cells).rstrip())
    screen.line((footer, "dim"))


SESSIONS_ROW = "{mark:1} {id:>5}  {created:<16}  {used:<16}  {expires:<10}  {device:<14} {network}"
"""A row of ``gin sessions`` (80 columns)."""


def render_sessions(screen: Screen, name: str, sessions: Sequence[Mapping[str, Any]]) -> None:
    """The account's sessions, newest first, this machine's marked ``*``."""
    header = {"mark": "", "id": "id", "created": "signed in (UTC)", "used": "last used", "expires": "expires",
              "device": "device", "network": "network"}  # fmt: skip
    cells = [
        {
            "mark": "*" if row.get("current") else "",
            "id": str(row.get("id", "?")),
            "created": when(row.get("created")),
            "used": when(row.get("last_used")),
            "expires": when(row.get("expires"))[:10],
            "device": str(row.get("user_agent") or "?").split(" ", 1)[0][:14],
            "network": str(row.get("address") or ""),
        }
        for row in sessions
    ]
    footer = "* this machine. gin logout ends it; --session ID another; --everywhere all of them."
    render_rows(screen, f"Sessions of {name}", SESSIONS_ROW, header, cells, empty="none", footer=footer)


TOKENS_ROW = "  {id:>5}  {description:<24} {scopes:<15} {created:<16}  {used}"
"""A row of ``gin token list`` (80 columns)."""


def render_tokens(screen: Screen, name: str, tokens: Sequence[Mapping[str, Any]]) -> None:
    """The account's API tokens: never the tokens themselves (the service keeps only their digests)."""
    header = {"id": "id", "description": "description", "scopes": "scopes", "created": "created (UTC)",
              "used": "last used"}  # fmt: skip
    cells = [
        {
            "id": str(row.get("id", "?")),
            "description": str(row.get("description") or "")[:24],
            "scopes": ",".join(row.get("scopes") or [])[:15],
            "created": when(row.get("created")),
            "used": when(row.get("last_used")),
        }
        for row in tokens
    ]
    render_rows(
        screen, f"API tokens of {name}", TOKENS_ROW, header, cells,
        empty="none: gin token create DESCRIPTION --scope play makes one",
        footer="gin token revoke ID revokes one: it is refused at once.",
    )  # fmt: skip


LIVE_ROW = "  {game:<21}  {seat:>4}  {opponent:<24} {rated:<6} {move}"
"""A row of ``gin games --live``."""


def render_live_games(screen: Screen, name: str, games: Sequence[Mapping[str, Any]]) -> None:
    """The account's games in play, newest first — from any machine: ``gin resume GAME`` plays one."""
    header = {"game": "game", "seat": "seat", "opponent": "opponent", "rated": "rated", "move": "to move"}
    cells = []
    for game in games:
        seat = int(game.get("seat") or 0)
        players = game.get("players") or []
        other = players[1 - seat] if len(players) == 2 and isinstance(players[1 - seat], Mapping) else {}
        opponent = str(other.get("name") or "?") + (" (bot)" if other.get("type") == "bot" else "")
        cells.append(
            {
                "game": str(game.get("game_id", "?")),
                "seat": str(seat),
                "opponent": opponent[:24],
                "rated": "yes" if game.get("rated") else "no",
                "move": "you" if game.get("your_move") else opponent[:16],
            }
        )
    render_rows(
        screen, f"Games in play of {name} · newest first", LIVE_ROW, header, cells,
        empty="none: gin play, gin host or gin seek starts one",
        footer="gin resume GAME plays one here; gin show GAME shows its table.",
    )  # fmt: skip
