"""Round-robin schedules: the FIDE Berger tables (Handbook C.05, Annex 1), and their duplicate-deal form.

The players take the tables' numbers in the order given (the first is 1). With ``n`` even (an odd field
gets a last, empty number: whoever meets it sits the round out) round 1 pairs 1–n, 2–(n−1), …; each next
round adds ``n/2`` to every number but ``n`` (counting 1 to n−1 around), board by board, and ``n`` changes
seats every round: it sits second in odd rounds and first in even ones. A pair is ``(seat 0, seat 1)``:
white first, in the tables' words.

>>> berger_rounds(["1", "2", "3", "4"])
[[('1', '4'), ('2', '3')], [('4', '3'), ('1', '2')], [('2', '4'), ('3', '1')]]
>>> duplicate_rounds(["ann", "bob", "cid"])[0]
[('bob', 'cid'), ('cid', 'bob')]
"""

from __future__ import annotations

from collections.abc import Sequence


def berger_rounds(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every round of a single round robin of ``players``, board by board (none for fewer than two)."""
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    if len(players) < 2:
        return []
    seats: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(seats)
    half = n // 2
    rounds = []
    for number in range(n - 1):
        # The table number each of round 1's numbers stands for in this round; n stays itself.
        now = [(k - 1 + number * half) % (n - 1) + 1 for k in range(1, n)] + [n]
        boards = [(now[i - 1], now[n - i]) for i in range(1, half + 1)]
        if number % 2:
            boards[0] = boards[0][::-1]
        pairs = [(seats[a - 1], seats[b - 1]) for a, b in boards]
        rounds.append([(white, black) for white, black in pairs if white is not None and black is not None])
    return rounds


def duplicate_rounds(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The Berger rounds with every pairing played twice on the same deals, the seats swapped:
    ``[(a, b), (b, a), …]`` in each round."""
    return [[leg for a, b in pairs for leg in ((a, b), (b, a))] for pairs in berger_rounds(players)]
