"""Follows and blocks on a terminal: what ``gin follow``, ``unfollow``, ``block`` and ``unblock`` say, and
the lists of ``gin following`` — who of the players followed is online now, who plays which game, and for
each the one command to go on with: ``gin watch GAME`` (that game, live) or ``gin challenge NAME`` (a
player online and free) — and ``gin blocking``. Everything shown comes from the service's answers; the
commands are carried out in :mod:`commands_people`.

>>> done("block", {"player": "Bob", "blocking": True})
'You block Bob now: their challenges to you are declined, and they are never told.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .accounts import render_rows
from .challenges import fit
from .screen import Screen

DONE = {
    "follow": "You follow {player} now: gin following shows when they are online and what they play.",
    "unfollow": "You no longer follow {player}.",
    "block": "You block {player} now: their challenges to you are declined, and they are never told.",
    "unblock": "You no longer block {player}.",
}
"""What each command says once the service has answered (``player``: the name as the service spells it)."""


def done(command: str, answer: Mapping[str, Any]) -> str:
    """What ``gin follow`` (``unfollow``, ``block``, ``unblock``) says of the service's answer."""
    return DONE[command].format(player=answer.get("player", "?"))


def next_steps(player: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a player followed is doing, each with the command to go on from there: a game in play (to
    watch), free while online (to challenge), else nothing.

    >>> next_steps({"name": "Bob", "online": True, "playing": ["g1", "g2"]})
    [('playing', 'gin watch g1'), ('playing', 'gin watch g2')]
    >>> next_steps({"name": "Cy", "online": True, "playing": []})
    [('free', 'gin challenge Cy')]
    >>> next_steps({"name": "Dee", "online": False, "playing": []})
    [('', '')]
    """
    games = player.get("playing") or []
    if games:
        return [("playing", f"gin watch {game}") for game in games]
    if player.get("online"):
        return [("free", f"gin challenge {player.get('name', '?')}")]
    return [("", "")]


FOLLOWING_ROW = "  {name:<20} {now:<7}  {doing:<7}  {next}"
"""A row of ``gin following`` (80 columns)."""


def render_following(screen: Screen, name: str, players: Sequence[Mapping[str, Any]]) -> None:
    """The players ``name`` follows, by name: online or not, each game in play on a line of its own."""
    header = {"name": "player", "now": "now", "doing": "doing", "next": "next"}
    cells = []
    for player in players:
        shown = fit(str(player.get("name", "?")) + (" (bot)" if player.get("bot") else ""), 20)
        now = "online" if player.get("online") else "offline"
        for line, (doing, command) in enumerate(next_steps(player)):
            first = line == 0
            cells.append({"name": shown if first else "", "now": now if first else "", "doing": doing,
                          "next": command})  # fmt: skip
    online = sum(1 for player in players if player.get("online"))
    title = f"{name} follows" + (f" · {online} of {len(players)} online" if players else "")
    render_rows(
        screen, title, FOLLOWING_ROW, header, cells,
        empty="nobody yet: gin follow NAME follows a player (a person or a bot account)",
        footer="gin watch GAME watches a game live; gin challenge NAME offers one.",
    )  # fmt: skip


def render_blocking(screen: Screen, name: str, players: Sequence[str]) -> None:
    """The players ``name`` blocks (only the account sees them)."""
    render_rows(
        screen, f"{name} blocks · only you see this", "  {name}", {"name": "player"},
        [{"name": player} for player in players],
        empty="nobody: gin block NAME declines a player's challenges (they are never told)",
        footer="gin unblock NAME stops blocking a player.",
    )  # fmt: skip
