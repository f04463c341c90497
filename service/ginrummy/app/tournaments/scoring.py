"""Tournament scoring: the record of a finished match, performance, arena sheets and round-robin standings.

Pure: plain values in, plain values out. A player's matches come in the order they finished; a standings
function returns its rows best first, ``rank`` counting from 1 (the position after the tie-breaks; players
equal on everything are ordered by name, case-folded, so that the order never depends on the input's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ginrummy.arena.results import wilson as wilson

Result = Literal["won", "lost", "drawn"]


@dataclass(frozen=True)
class Played:
    """One finished match of a player, in the order the matches finished."""

    opponent: str | None  # None: a bye (Swiss)
    result: Result
    opponent_rating: float | None  # None for a bye
    berserk: bool = False  # the player berserked in this match (arena)


def name_order(player: str) -> tuple[str, str]:
    """The last tie-break of every standings: the name, case-folded (then as written, for determinism)."""
    return player.casefold(), player


def performance(played: Sequence[Played]) -> float | None:
    """The performance rating (lichess's tie-break): the opponents' average rating plus
    500 × (wins − losses) / games over the matches whose opponent's rating is known (byes have none);
    None when there is no such match.

    >>> performance([Played("ann", "won", 1600.0), Played("bob", "lost", 1400.0), Played(None, "won", None)])
    1500.0
    >>> performance([Played("ann", "drawn", 1550.0), Played("bob", "won", 1450.0)])
    1750.0
    >>> performance([]) is None
    True
    """
    total = 0.0
    games = 0
    for match in played:
        if match.opponent_rating is None:
            continue
        games += 1
        total += match.opponent_rating + 500 * ((match.result == "won") - (match.result == "lost"))
    return total / games if games else None


ARENA_POINTS = {"won": 2, "drawn": 1, "lost": 0}


@dataclass(frozen=True)
class ArenaSheet:
    """A player's arena score: ``scores`` holds each match's points in order (lichess's sheet)."""

    points: int
    scores: tuple[int, ...]
    fire: bool  # on fire now: the last two matches were won, the next one scores double
    wins: int
    losses: int
    draws: int
    berserks: int  # berserked matches won (each scored 1 more)
    performance: float | None


def arena_sheet(played: Sequence[Played]) -> ArenaSheet:
    """Score a player's arena matches as lichess does (lila ``arena/ArenaSheet.scala``).

    A win scores 2, a draw 1, a loss 0. After two wins in a row the player is on fire: every further match
    scores double (a win 4, a draw 2) until one is not won — a draw played on fire is still doubled, and
    ends the streak. A berserked win adds 1, never doubled. (lila also scores a quick draw nothing, a draw
    after a draw in a short game nothing, and no berserk point for a very short game: a match's length is
    not in :class:`Played`, so none of that is done here.)

    >>> sheet = arena_sheet([Played("a", r, 1500.0) for r in ("won", "won", "won", "drawn", "won")])
    >>> sheet.scores, sheet.points, sheet.fire
    ((2, 2, 4, 2, 2), 12, False)
    """
    scores: list[int] = []
    streak = 0  # matches won in a row so far
    for match in played:
        won = match.result == "won"
        doubled = 2 if streak >= 2 else 1
        scores.append(ARENA_POINTS[match.result] * doubled + (1 if won and match.berserk else 0))
        streak = streak + 1 if won else 0
    results = [match.result for match in played]
    return ArenaSheet(
        points=sum(scores),
        scores=tuple(scores),
        fire=streak >= 2,
        wins=results.count("won"),
        losses=results.count("lost"),
        draws=results.count("drawn"),
        berserks=sum(match.berserk and match.result == "won" for match in played),
        performance=performance(played),
    )


@dataclass(frozen=True)
class ArenaRow:
    """One line of an arena's standings."""

    rank: int
    player: str
    sheet: ArenaSheet


def arena_standings(players: Mapping[str, Sequence[Played]]) -> list[ArenaRow]:
    """The arena's standings: by points, then performance (none last), then name."""
    sheets = {player: arena_sheet(played) for player, played in players.items()}

    def order(player: str) -> tuple[int, bool, float, tuple[str, str]]:
        sheet = sheets[player]
        return -sheet.points, sheet.performance is None, -(sheet.performance or 0.0), name_order(player)

    return [
        ArenaRow(rank, player, sheets[player]) for rank, player in enumerate(sorted(sheets, key=order), 1)
    ]


@dataclass(frozen=True)
class RoundRobinRow:
    """One line of a round robin's standings; ``interval`` is the 95% Wilson interval of points/games."""

    rank: int
    player: str
    points: float
    wins: int
    losses: int
    draws: int
    games: int
    sonneborn_berger: float
    interval: tuple[float, float]


MATCH_POINTS = {"won": 1.0, "drawn": 0.5, "lost": 0.0}


def round_robin_standings(players: Mapping[str, Sequence[Played]]) -> list[RoundRobinRow]:
    """A round robin's standings: a win 1, a draw ½; by points, then Sonneborn–Berger, then name.

    Sonneborn–Berger sums, over the player's matches, the opponent's points times the player's score in
    that match (the points of the opponents beaten, half of those drawn with): with duplicate deals every
    match of a pairing counts. Byes (no opponent) count for nothing; an opponent missing from ``players``
    has 0 points.
    """
    matches = {
        player: [match for match in played if match.opponent is not None]
        for player, played in players.items()
    }
    points = {
        player: sum(MATCH_POINTS[match.result] for match in played) for player, played in matches.items()
    }
    rows = []
    for player, played in matches.items():
        results = [match.result for match in played]
        rows.append(
            RoundRobinRow(
                rank=0,
                player=player,
                points=points[player],
                wins=results.count("won"),
                losses=results.count("lost"),
                draws=results.count("drawn"),
                games=len(played),
                sonneborn_berger=sum(
                    points.get(match.opponent or "", 0.0) * MATCH_POINTS[match.result] for match in played
                ),
                # The arena's wilson is typed for whole wins; the formula holds for a score rate with halves.
                interval=wilson(points[player], len(played)),
            )
        )
    rows.sort(key=lambda row: (-row.points, -row.sonneborn_berger, name_order(row.player)))
    return [replace(row, rank=rank) for rank, row in enumerate(rows, 1)]
