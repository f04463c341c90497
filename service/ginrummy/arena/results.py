"""What a run of the arena found: standings, head-to-head figures with 95% Wilson intervals, forfeits,
and how fast it went — as a table to read, CSV and JSON.

A row is one entrant against all the others (``opponent`` ``"all"``) or against one of them: games,
wins, losses, draws (an aborted match), forfeits (games it lost by an illegal answer or an exception),
the win rate with its Wilson interval, match points for and against (grand totals), hands played and
won, gins (big gins included), knocks and undercuts (given), and its decisions with their time, p50 and
p99 in milliseconds. Decision times and the run's speed are the only figures that are measured rather
than played: without them (``timing=False``, ``--no-timing``) a seed gives the same bytes every time.

>>> wilson(5, 10)
(0.2366, 0.7634)
>>> percentile([3.0, 1.0, 2.0, 4.0], 0.5)
3.0
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from typing import Any

from .games import GameOutcome, Table

FORMAT = "ginrummy.arena.results"
FORMAT_VERSION = 1


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion, to 4 decimals ((0, 1) for no games)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Tally:
    """One entrant's games against one opponent, or against all."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    forfeits: int = 0
    points_for: int = 0
    points_against: int = 0
    hands: int = 0
    hands_won: int = 0
    gins: int = 0
    knocks: int = 0
    undercuts: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, outcome: GameOutcome, seat: int) -> None:
        self.games += 1
        if outcome.winner is None:
            self.draws += 1
        elif outcome.winner == seat:
            self.wins += 1
        else:
            self.losses += 1
        if outcome.forfeit is not None and outcome.forfeit.seat == seat:
            self.forfeits += 1
        self.points_for += outcome.points[seat]
        self.points_against += outcome.points[1 - seat]
        self.hands += outcome.hands
        stats = outcome.stats[seat]
        self.hands_won += stats["hands_won"]
        self.gins += stats["gins"] + stats["big_gins"]
        self.knocks += stats["knocks"]
        self.undercuts += stats["undercuts_given"]
        self.times.extend(outcome.decisions[seat])

    def row(self, entrant: str, opponent: str, timing: bool) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        row: dict[str, Any] = {
            "entrant": entrant,
            "opponent": opponent,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "forfeits": self.forfeits,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "wilson_low": low,
            "wilson_high": high,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "hands": self.hands,
            "hands_won": self.hands_won,
            "gins": self.gins,
            "knocks": self.knocks,
            "undercuts": self.undercuts,
            "decisions": len(self.times),
        }
        if timing:
            row["decision_ms_p50"] = round(percentile(self.times, 0.5) * 1000, 3)
            row["decision_ms_p99"] = round(percentile(self.times, 0.99) * 1000, 3)
        return row


@dataclass
class Results:
    """The outcomes of a run, in the schedule's order, and what is made of them."""

    table: Table
    games_per_pairing: int
    outcomes: list[GameOutcome]
    seconds: float
    jobs: int

    @property
    def names(self) -> list[str]:
        return [entrant.name for entrant in self.table.entrants]

    @property
    def hands(self) -> int:
        return sum(outcome.hands for outcome in self.outcomes)

    @property
    def stopped(self) -> bool:
        """Whether the run stopped at a forfeit (``strict``) before its last game."""
        pairings = len(self.names) * (len(self.names) - 1) // 2
        return len(self.outcomes) < pairings * self.games_per_pairing

    def _tallies(self) -> tuple[list[Tally], dict[tuple[int, int], Tally]]:
        totals = [Tally() for _ in self.names]
        against: dict[tuple[int, int], Tally] = {}
        for outcome in self.outcomes:
            for seat, me in enumerate(outcome.task.seats):
                other = outcome.task.seats[1 - seat]
                totals[me].add(outcome, seat)
                against.setdefault((me, other), Tally()).add(outcome, seat)
        return totals, against

    def standings(self, timing: bool = True) -> list[dict[str, Any]]:
        """A row per entrant against all the others, in the entrants' order."""
        totals, _ = self._tallies()
        return [tally.row(name, "all", timing) for name, tally in zip(self.names, totals, strict=True)]

    def head_to_head(self, timing: bool = True) -> list[dict[str, Any]]:
        """A row per entrant and opponent that met."""
        _, against = self._tallies()
        names = self.names
        return [against[(me, other)].row(names[me], names[other], timing) for me, other in sorted(against)]

    def forfeits(self) -> list[dict[str, Any]]:
        return [
            {
                "game": outcome.task.number,
                "game_id": self.table.game_id(outcome.task),
                "deal_seed": outcome.task.deal_seed,
                "entrant": self.names[outcome.task.seats[forfeit.seat]],
                "seat": forfeit.seat,
                "hand": forfeit.hand,
                "problem": forfeit.problem,
                "detail": forfeit.detail,
            }
            for outcome in self.outcomes
            if (forfeit := outcome.forfeit) is not None
        ]

    def to_json(self, timing: bool = True) -> dict[str, Any]:
        table = self.table
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "arena": {
                "entrants": [{"name": e.name, "spec": e.spec} for e in table.entrants],
                "rules": table.rules.to_dict(),
                "seed": table.seed,
                "games_per_pairing": self.games_per_pairing,
                "games": len(self.outcomes),
                "hands": self.hands,
                "stopped": self.stopped,
            },
            "standings": self.standings(timing),
            "head_to_head": self.head_to_head(timing),
            "forfeits": self.forfeits(),
        }
        if timing:
            out["timing"] = {
                "jobs": self.jobs,
                "seconds": round(self.seconds, 3),
                "games_per_second": round(len(self.outcomes) / self.seconds, 2) if self.seconds else 0.0,
                "hands_per_second": round(self.hands / self.seconds, 2) if self.seconds else 0.0,
            }
        return out

    def json_text(self, timing: bool = True) -> str:
        return json.dumps(self.to_json(timing), indent=2, ensure_ascii=False) + "\n"

    def csv_text(self, timing: bool = True) -> str:
        """The standings, then the head-to-head rows, one CSV table."""
        rows = self.standings(timing) + self.head_to_head(timing)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()

    def text(self, timing: bool = True) -> str:
        """The standings (best win rate first) and, with more than two entrants, a cross-table."""
        lines = [
            f"{len(self.outcomes)} game{'' if len(self.outcomes) == 1 else 's'} ({self.games_per_pairing} a"
            f" pairing, mirrored deals from seed "
            f"{self.table.seed}), {self.hands} hands"
        ]
        if timing and self.seconds:
            process = "process" if self.jobs == 1 else "processes"
            lines[0] += (
                f" in {self.seconds:.1f} s: {len(self.outcomes) / self.seconds:.1f} games/s, "
                f"{self.hands / self.seconds:.0f} hands/s ({self.jobs} {process})"
            )
        rows = sorted(self.standings(timing), key=lambda row: -row["win_rate"])
        width = max(len(name) for name in self.names) + 2
        header = f"{'':<{width}}{'games':>6}{'wins':>6}{'win rate':>9}  {'95% CI':<16}{'pts/game':>9}"
        header += f"{'gins':>6}{'knocks':>7}{'undercuts':>10}{'forfeits':>9}"
        lines.append(header + (f"{'p50 ms':>8}{'p99 ms':>8}" if timing else ""))
        for row in rows:
            games = row["games"] or 1
            interval = f"[{row['wilson_low']:.1%}, {row['wilson_high']:.1%}]"
            line = (
                f"{row['entrant']:<{width}}{row['games']:>6}{row['wins']:>6}{row['win_rate']:>9.1%}  "
                f"{interval:<16}"
                f"{(row['points_for'] - row['points_against']) / games:>+9.1f}"
                f"{row['gins']:>6}{row['knocks']:>7}{row['undercuts']:>10}{row['forfeits']:>9}"
            )
            if timing:
                line += f"{row['decision_ms_p50']:>8.2f}{row['decision_ms_p99']:>8.2f}"
            lines.append(line)
        if len(self.names) > 2:
            lines += ["", "Row's win rate against column (games)", self._cross_table(width)]
        for forfeit in self.forfeits():
            where = f"game {forfeit['game']} (deal seed {forfeit['deal_seed']}, hand {forfeit['hand']})"
            lines.append(f"forfeit: {where}: {forfeit['entrant']} {forfeit['problem']}")
        if self.stopped:
            lines.append("stopped at the first forfeit (--strict)")
        return "\n".join(lines) + "\n"

    def _cross_table(self, width: int) -> str:
        names = self.names
        cell = max(14, max(len(n) for n in names) + 2)
        lines = [" " * width + "".join(f"{n:>{cell}}" for n in names)]
        rows = {(row["entrant"], row["opponent"]): row for row in self.head_to_head(timing=False)}
        for me in names:
            cells = []
            for other in names:
                row = rows.get((me, other))
                if row is None:
                    cells.append(f"{'-':>{cell}}")
                else:
                    cells.append(f"{format(row['win_rate'], '.1%') + ' (' + str(row['games']) + ')':>{cell}}")
            lines.append(f"{me:<{width}}" + "".join(cells))
        return "\n".join(lines)
