"""The arena's pairing: lichess's (lila ``arena/AntmaPairing.scala``, ``arena/PairingSystem.scala``), a
minimum-weight matching of the waiting players done by networkx.

The weight of a pair is lichess's: the rank distance times a rank factor (about 2,000 at the top of the
standings down to 300 at the bottom: leaders meet leaders) plus the rating distance, plus the penalty
lichess gave a recent opponent (``(11,500,000 − 3,500,000·x)·x``, ``x`` being how many of the two have the
other among their last opponents). Two players one of whom was the other's last opponent are never paired
(lichess today leaves that edge out), nor two that ``avoid`` keeps apart. The matching pairs as many
players as it can; whoever is left waits for the next wave.

Big waves: networkx's blossom algorithm is pure Python, about cubic in the players matched at once (a
complete graph of 100 players takes ~0.7 s of CPU, one of 1,000 far too long). lichess matches two groups
of up to 100 players by rank, pairs up to six groups more two by two in rank order, without a matching
or a look at their last opponents, and leaves the rest waiting. Here every
player is matched, in consecutive groups of ``GROUP_SIZE`` by rank, each player linked to the next
``WINDOW`` players of its group only: a pair further apart in rank costs at least 300 a rank more, so the
best pairs are local. On three waves of 1,000 (bench/bench_pairing.py's) that gave exactly the total
weight of complete graphs of 100 (lichess's group size) in a sixteenth of the time (0.48 s of CPU against
7.7 s). Whoever a group leaves unpaired joins the next group.

>>> pair_wave([Waiting("ann", 1, 1700.0, ("bob",)), Waiting("bob", 2, 1650.0, ("ann",)),
...            Waiting("cid", 3, 1500.0, ()), Waiting("dee", 4, 1450.0, ())])
[('ann', 'cid'), ('bob', 'dee')]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import networkx as nx

from .scoring import name_order

GROUP_SIZE = 50  # players matched together (lichess: at most 100, in two groups)
WINDOW = 8  # how many of the next players by rank each player may be paired with in its group


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a game in an arena."""

    player: str
    rank: int  # current rank in the standings (1 = first)
    rating: float
    last_opponents: tuple[str, ...]  # most recent first


def recent_penalty(times: int) -> int:
    """lichess's penalty for a pair ``times`` of whom (0–2) met the other lately: 0, 8,000,000, 9,000,000."""
    return (11_500_000 - 3_500_000 * times) * times


def pair_wave(
    waiting: Sequence[Waiting], *, avoid: Callable[[str, str], bool] | None = None
) -> list[tuple[str, str]]:
    """Pair a wave of waiting players: pairs ``(better ranked, other)``, the best ranked pair first.

    Deterministic: the same players give the same pairs whatever their order.
    """
    ordered = sorted(waiting, key=lambda entry: (entry.rank, name_order(entry.player)))
    if len({entry.player for entry in ordered}) != len(ordered):
        raise ValueError("a player is waiting twice in the same wave")
    if len(ordered) < 2:
        return []
    max_rank = max(ordered[-1].rank, 1)

    def weight(a: Waiting, b: Waiting) -> int | None:
        if (a.last_opponents[:1] == (b.player,)) or (b.last_opponents[:1] == (a.player,)):
            return None
        if avoid is not None and avoid(a.player, b.player):
            return None
        rank_factor = 300 + 1700 * (max_rank - min(a.rank, b.rank)) // max_rank
        met = (b.player in a.last_opponents) + (a.player in b.last_opponents)
        return abs(a.rank - b.rank) * rank_factor + round(abs(a.rating - b.rating)) + recent_penalty(met)

    pairs: list[tuple[Waiting, Waiting]] = []
    left: list[Waiting] = []
    for start in range(0, len(ordered), GROUP_SIZE):
        group = left + ordered[start : start + GROUP_SIZE]
        matched = match_group(group, weight)
        pairs += matched
        paired = {entry.player for pair in matched for entry in pair}
        left = [entry for entry in group if entry.player not in paired]
    position = {entry.player: index for index, entry in enumerate(ordered)}
    return [(a.player, b.player) for a, b in sorted(pairs, key=lambda pair: position[pair[0].player])]


def match_group(
    group: list[Waiting], weight: Callable[[Waiting, Waiting], int | None]
) -> list[tuple[Waiting, Waiting]]:
    """The minimum-weight matching of the most players of ``group`` (in rank order), each linked to the
    next ``WINDOW`` players; each pair in rank order."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(group)))
    for i, a in enumerate(group):
        for j in range(i + 1, min(len(group), i + 1 + WINDOW)):
            pair_weight = weight(a, group[j])
            if pair_weight is not None:
                graph.add_edge(i, j, weight=pair_weight)
    matching: set[tuple[int, int]] = nx.min_weight_matching(graph)
    return [(group[min(i, j)], group[max(i, j)]) for i, j in matching]
