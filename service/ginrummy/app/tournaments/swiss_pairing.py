"""The Swiss: one round's pairings by the FIDE Dutch system, and the standings.

Pure: plain values in, plain values out, deterministic (the engine reads its tournament table from memory:
no file). The Dutch system is py4swiss's (MIT; its matching is bbpPairings' C++, Apache-2.0, in its wheel),
chosen from four libraries on the package index by pairing tournaments round by round and comparing with
bbpPairings, the FIDE-endorsed program lichess's Swiss runs: random tournaments from bbpPairings' own
generator and its test files. py4swiss paired every round exactly as bbpPairings 5.0.1 (the Dutch rules in
force until February 2026) did, colours included; caissify-pairings got the same pairs but often other
colours, and took minutes for a round of 1,000; pairing-core gave no alternating colours in round 1;
gacrux (a checker, driven by files) agreed less often. The price: a round of 1,000 players takes tens of
seconds (a few hundred players, a second or two) — a Swiss pairs once a round.

Seat 0 plays "white": a player's colours are the seats it had. The engine numbers players by rating, then
name, so the outcome depends only on the input. It is told each past round's result (``played``), from
which it knows who floated up or down a score group — the criteria that spread floats need them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from py4swiss.engines import DutchEngine
from py4swiss.engines.common.exceptions import PairingError
from py4swiss.trf import ParsedTrf, TrfLine
from py4swiss.trf.codes import PlayerCode, TournamentCode, XCode
from py4swiss.trf.sections import PlayerSection, TournamentSection, XSection

from .scoring import MATCH_POINTS, Played, name_order, performance


class Unpairable(Exception):
    """No pairing of the round keeps the absolute criteria (no pair twice, one bye each, colours): in a
    small Swiss late in its rounds. The Swiss then ends (as lichess's does)."""


@dataclass(frozen=True)
class SwissPlayer:
    """A player still in a Swiss, as the next round's pairing needs it."""

    player: str
    rating: float
    points: float  # so far (bye = 1, win 1, draw ½)
    opponents: tuple[str, ...]  # every past opponent, in round order (a bye is not an opponent)
    seats: tuple[int, ...]  # the seat (0/1) it had in each of its past matches, in order: colours
    had_bye: bool
    played: tuple[Played, ...]  # its matches and byes so far, in order: each round's result


def pair_round(
    players: Sequence[SwissPlayer], round_number: int, total_rounds: int
) -> tuple[list[tuple[str, str]], str | None]:
    """Pair one round: the pairs ``(seat0, seat1)``, best board first, and who gets the bye (None if even).

    Every player is paired each round (or given the bye), so a player's ``played`` are its last rounds: a
    late joiner's first rounds are absences. A past opponent who has withdrawn stays in the engine's table
    (for its opponents' colours and floats), marked absent from this round.
    """
    _check(players, round_number)
    lines, name = _table(players, round_number, total_rounds)
    try:
        made = DutchEngine.generate_pairings(_trf(lines))
    except PairingError as error:
        raise Unpairable(f"round {round_number} cannot be paired: {error}") from None
    pairs = [(name[p.white], name[p.black]) for p in made if p.black != 0]
    bye = next((name[p.white] for p in made if p.black == 0), None)
    return pairs, bye


def _check(players: Sequence[SwissPlayer], round_number: int) -> None:
    """Each player's record adds up (else ValueError): its points, opponents, seats and bye are its
    ``played``, and it played fewer rounds than this one."""
    for p in players:
        if (
            p.opponents != tuple(m.opponent for m in p.played if m.opponent is not None)
            or len(p.seats) != len(p.opponents)
            or p.points != sum(MATCH_POINTS[m.result] for m in p.played)
            or p.had_bye != any(m.opponent is None for m in p.played)
            or len(p.played) >= round_number
        ):
            raise ValueError(f"{p.player}: its points, opponents, seats or bye do not match what it played")


def _table(
    players: Sequence[SwissPlayer], round_number: int, total_rounds: int
) -> tuple[list[str], dict[int, str]]:
    """The tournament as TRF lines (players numbered by rating, then name; withdrawn past opponents last,
    absent), and the players by number."""
    ordered = sorted(players, key=lambda p: (-p.rating, name_order(p.player)))
    absent = sorted({o for p in players for o in p.opponents} - {p.player for p in players}, key=name_order)
    number = {player: index for index, player in enumerate([p.player for p in ordered] + absent, 1)}
    rounds = {player: ["0000 - Z"] * (round_number - 1) for player in number}
    for p in ordered:
        _record(p, rounds, number, absent, round_number)
    rating = {p.player: min(max(round(p.rating), 0), 9999) for p in ordered}
    lines = [
        f"001 {index:4d}      {'P' + str(index):<34}{rating.get(player, 0):4d}{'':28}"
        + f"{sum(POINTS[r[-1]] for r in rounds[player]):4.1f} {index:4d}"
        + "".join("  " + r for r in rounds[player])
        for player, index in number.items()
    ]
    lines += [f"XXR {total_rounds}", "XXC white1"]
    if absent:
        lines.append(" ".join(["XXZ", *(str(number[o]) for o in absent)]))
    return lines, {index: player for player, index in number.items()}


def _record(
    p: SwissPlayer, rounds: dict[str, list[str]], number: dict[str, int], absent: list[str], round_number: int
) -> None:
    """Write a player's past rounds into the table (a late joiner's first rounds stay absences), and a
    withdrawn opponent's side of each of their matches."""
    first = round_number - 1 - len(p.played)
    seats = iter(p.seats)
    for offset, match in enumerate(p.played, first):
        code = RESULT_CODE[match.result]
        if match.opponent is None:
            rounds[p.player][offset] = "0000 - U"
            continue
        seat = next(seats)
        rounds[p.player][offset] = f"{number[match.opponent]:4d} {'wb'[seat]} {code}"
        if match.opponent in absent:  # the withdrawn side of the match, as seen from here
            rounds[match.opponent][offset] = f"{number[p.player]:4d} {'bw'[seat]} {OTHER_SIDE[code]}"


RESULT_CODE = {"won": "1", "drawn": "=", "lost": "0"}  # TRF's result codes
OTHER_SIDE = {"1": "0", "=": "=", "0": "1"}
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "U": 1.0, "Z": 0.0}


def _trf(lines: Sequence[str]) -> ParsedTrf:
    """The tournament as py4swiss's engine reads it: its TRF parser's steps, without a file."""
    by_code: dict[object, list[TrfLine]] = defaultdict(list)
    for row, text in enumerate(lines):
        line = TrfLine(row, text)
        by_code[line.code_type].append(line)
    trf = ParsedTrf(
        player_sections=[PlayerSection.from_string(str(line)) for line in by_code[PlayerCode]],
        tournament_section=TournamentSection.from_lines(by_code[TournamentCode]),
        x_section=XSection.from_lines(by_code[XCode]),
    )
    trf.validate_contents()
    return trf


@dataclass(frozen=True)
class SwissRow:
    """One line of a Swiss's standings."""

    rank: int
    player: str
    points: float
    sonneborn_berger: float
    performance: float | None
    wins: int
    losses: int
    draws: int
    byes: int


def swiss_standings(players: Mapping[str, Sequence[Played]]) -> list[SwissRow]:
    """A Swiss's standings: points (a win or a bye 1, a draw ½), then Sonneborn–Berger, then performance
    (none last), then name.

    Sonneborn–Berger sums, over the player's matches, the opponent's final points times the player's score
    in that match. A bye counts as FIDE's tie-break regulations count an unplayed round: a match won
    against a dummy opponent with the player's own final points. An opponent missing from ``players``
    (withdrawn before any result) has 0 points.

    >>> rows = swiss_standings({
    ...     "ann": [Played("bob", "won", 1500.0), Played(None, "won", None)],
    ...     "bob": [Played("ann", "lost", 1500.0), Played("cat", "drawn", 1500.0)],
    ...     "cat": [Played(None, "won", None), Played("bob", "drawn", 1500.0)],
    ... })
    >>> [(row.player, row.points, row.sonneborn_berger) for row in rows]
    [('ann', 2.0, 2.5), ('cat', 1.5, 1.75), ('bob', 0.5, 0.75)]
    """
    points = {
        player: sum(MATCH_POINTS[match.result] for match in played) for player, played in players.items()
    }

    def opponent_points(player: str, match: Played) -> float:
        return points[player] if match.opponent is None else points.get(match.opponent, 0.0)

    rows = []
    for player, played in players.items():
        results = [match.result for match in played if match.opponent is not None]
        rows.append(
            SwissRow(
                rank=0,
                player=player,
                points=points[player],
                sonneborn_berger=sum(
                    opponent_points(player, match) * MATCH_POINTS[match.result] for match in played
                ),
                performance=performance(played),
                wins=results.count("won"),
                losses=results.count("lost"),
                draws=results.count("drawn"),
                byes=len(played) - len(results),
            )
        )

    def order(row: SwissRow) -> tuple[float, float, bool, float, tuple[str, str]]:
        return (
            -row.points,
            -row.sonneborn_berger,
            row.performance is None,
            -(row.performance or 0.0),
            name_order(row.player),
        )

    return [replace(row, rank=rank) for rank, row in enumerate(sorted(rows, key=order), 1)]
