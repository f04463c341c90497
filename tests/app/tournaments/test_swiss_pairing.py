"""The Swiss: pairings against bbpPairings' (the FIDE-endorsed program lichess's Swiss runs), the bye, no
pair twice over random tournaments, late joiners, withdrawals, and the standings' Sonneborn–Berger by hand."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from ginrummy.app.tournaments.scoring import Played
from ginrummy.app.tournaments.swiss_pairing import SwissPlayer, Unpairable, pair_round, swiss_standings
from hypothesis import given, settings
from hypothesis import strategies as st

RESULTS = {"1": "won", "0": "lost", "=": "drawn", "U": "won"}

# A tournament of 15 players and 7 rounds made by bbpPairings 5.0.1's random tournament generator
# (`bbpPairings --dutch -g` with seed 5): every round as bbpPairings paired it, in TRF(x) columns — each
# player's rating, then per round the opponent's number (0000: the bye), its colour and its result.
BBP_SEED_5 = [
    "2622   8 w =    12 b 1    15 w 1     3 b =     4 w 1     2 b =    10 w 1",
    "2617   9 b 0    10 w =    11 b 1     5 w =     7 b 1     1 w =     3 b 1",
    "2600  10 w 1     9 b 1     4 w =     1 w =     8 b =     6 b =     2 w 0",
    "2574  11 b =    13 w 1     3 b =     7 w 1     1 b 0     8 w 1     6 b 1",
    "2563  12 w =     8 b =     9 w =     2 b =    13 w 1    10 b 0    14 b 1",
    "2535  13 b =    11 w 1     7 b =     8 w 0     9 b 1     3 w =     4 w 0",
    "2505  14 w 1    15 b =     6 w =     4 b 0     2 w 0    13 b 1  0000 - U",
    "2481   1 b =     5 w =    14 b 1     6 b 1     3 w =     4 b 0    11 w 1",
    "2460   2 w 1     3 w 0     5 b =    13 b =     6 w 0  0000 - U    12 b 0",
    "2456   3 b 0     2 b =    12 w =    15 w 1    14 b 1     5 w 1     1 b 0",
    "2443   4 w =     6 b 0     2 w 0  0000 - U    15 b 1    12 w =     8 b 0",
    "2421   5 b =     1 w 0    10 b =    14 w =  0000 - U    11 b =     9 w 1",
    "2398   6 w =     4 b 0  0000 - U     9 w =     5 b 0     7 w 0    15 w =",
    "2336   7 b 0  0000 - U     8 w 0    12 b =    10 w 0    15 b 1     5 w 0",
    "23080000 - U     7 w =     1 b 0    10 b 0    11 w 0    14 w 0    13 b =",
]


def read_table(table: list[str]) -> tuple[dict[str, float], dict[str, list[tuple[str | None, str, str]]]]:
    """Ratings and rounds (opponent or None, colour, result code) by player name ``p1``, ``p2``, …"""
    ratings, rounds = {}, {}
    for number, line in enumerate(table, 1):
        ratings[f"p{number}"] = float(line[:4])
        entries = [line[4 + 10 * i : 4 + 10 * i + 8] for i in range((len(line) - 4 + 2) // 10)]
        rounds[f"p{number}"] = [
            (None if e[:4] == "0000" else f"p{int(e[:4])}", e[5], e[7]) for e in entries if e.strip()
        ]
    return ratings, rounds


def players_before(
    ratings: dict[str, float], rounds: dict[str, list[tuple[str | None, str, str]]], number: int
):
    """What the director passes when pairing round ``number``: the players' state after the rounds before."""
    players = []
    for player, mine in rounds.items():
        past = mine[: number - 1]
        played = tuple(
            Played(opponent, RESULTS[code], None if opponent is None else ratings[opponent])  # type: ignore[arg-type]
            for opponent, _, code in past
        )
        players.append(
            SwissPlayer(
                player=player,
                rating=ratings[player],
                points=sum(1.0 if m.result == "won" else 0.5 if m.result == "drawn" else 0.0 for m in played),
                opponents=tuple(opponent for opponent, _, _ in past if opponent is not None),
                seats=tuple(
                    0 if colour == "w" else 1 for opponent, colour, _ in past if opponent is not None
                ),
                had_bye=any(opponent is None for opponent, _, _ in past),
                played=played,
            )
        )
    return players


def as_paired(rounds: dict[str, list[tuple[str | None, str, str]]], number: int) -> tuple[set, str | None]:
    pairs = {(p, mine[number - 1][0]) for p, mine in rounds.items() if mine[number - 1][1] == "w"}
    byes = [p for p, mine in rounds.items() if mine[number - 1][0] is None]
    return pairs, (byes[0] if byes else None)


def test_every_round_of_a_bbppairings_tournament_is_paired_as_bbppairings_paired_it() -> None:
    ratings, rounds = read_table(BBP_SEED_5)
    for number in range(1, 8):
        pairs, bye = pair_round(players_before(ratings, rounds, number), number, 7)
        assert (set(pairs), bye) == as_paired(rounds, number), f"round {number}"
    # Round 1: the top half meets the bottom half, colours alternating down the boards; the lowest sits out.
    assert pair_round(players_before(ratings, rounds, 1), 1, 7)[0][:3] == [
        ("p1", "p8"),
        ("p9", "p2"),
        ("p3", "p10"),
    ]


def test_a_late_joiner_is_paired_as_in_bbppairings_own_test() -> None:
    # bbpPairings' test/tests/dutch_2025_C9: p5 was absent from round 1; round 2 pairs it, p4 gets the bye.
    ratings = {"p1": 2720.0, "p2": 2701.0, "p3": 2697.0, "p4": 2689.0, "p5": 2673.0}
    rounds: dict[str, list[tuple[str | None, str, str]]] = {
        "p1": [("p3", "w", "1")],
        "p2": [("p4", "b", "1")],
        "p3": [("p1", "b", "0")],
        "p4": [("p2", "w", "0")],
        "p5": [],
    }
    pairs, bye = pair_round(players_before(ratings, rounds, 2), 2, 3)
    assert (pairs, bye) == ([("p2", "p1"), ("p3", "p5")], "p4")


def test_the_bye_goes_to_the_lowest_and_never_twice() -> None:
    ratings = {f"p{i}": 2000.0 - 10 * i for i in range(1, 6)}
    rounds: dict[str, list[tuple[str | None, str, str]]] = {p: [] for p in ratings}
    byes = []
    for number in range(1, 6):
        pairs, bye = pair_round(players_before(ratings, rounds, number), number, 5)
        assert bye is not None and bye not in byes
        byes.append(bye)
        for white, black in pairs:  # the better rated wins
            won = ratings[white] > ratings[black]
            rounds[white].append((black, "w", "1" if won else "0"))
            rounds[black].append((white, "b", "0" if won else "1"))
        rounds[bye].append((None, "-", "U"))
    assert byes[0] == "p5"  # round 1: the lowest rated
    assert sorted(byes) == sorted(ratings)  # five rounds, five players: each has sat out exactly once


def test_a_withdrawn_opponent_is_left_out_and_never_met_again() -> None:
    ratings, rounds = read_table(BBP_SEED_5)
    players = [p for p in players_before(ratings, rounds, 4) if p.player != "p1"]
    pairs, bye = pair_round(players, 4, 7)
    assert bye is None  # 14 players left
    paired = [p for pair in pairs for p in pair]
    assert sorted(paired) == sorted(p.player for p in players)
    met = {frozenset((p.player, o)) for p in players for o in p.opponents}
    assert not met & {frozenset(pair) for pair in pairs}


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 20), st.integers(3, 7), st.integers(0, 2**32 - 1))
def test_no_pair_twice_one_bye_each_everyone_paired(size: int, total: int, seed: int) -> None:
    rng = random.Random(seed)
    total = min(total, size - 1)
    ratings = {f"p{i}": float(rng.randrange(1200, 2200)) for i in range(size)}
    late = f"p{size - 1}"  # joins in round 2
    rounds: dict[str, list[tuple[str | None, str, str]]] = {p: [] for p in ratings}
    met: set[frozenset[str]] = set()
    for number in range(1, total + 1):
        present = {p: r for p, r in rounds.items() if p != late or number > 1}
        try:
            pairs, bye = pair_round(players_before(ratings, present, number), number, total)
        except Unpairable:  # a small field late in its rounds: the Swiss ends there
            assert number > 1, "the first round of a Swiss can always be paired"
            return
        paired = [p for pair in pairs for p in pair] + ([bye] if bye else [])
        assert sorted(paired) == sorted(present)
        assert (bye is None) == (len(present) % 2 == 0)
        assert bye is None or all(o is not None for o, _, _ in rounds[bye])
        for white, black in pairs:
            assert frozenset((white, black)) not in met
            met.add(frozenset((white, black)))
            code = rng.choice("10=")
            rounds[white].append((black, "w", code))
            rounds[black].append((white, "b", {"1": "0", "0": "1", "=": "="}[code]))
        if bye:
            rounds[bye].append((None, "-", "U"))


def test_a_player_whose_record_does_not_add_up_is_refused() -> None:
    ratings, rounds = read_table(BBP_SEED_5)
    players = players_before(ratings, rounds, 3)
    players[0] = replace(players[0], played=())  # its opponents and points, but not the rounds they came from
    with pytest.raises(ValueError, match="p1"):
        pair_round(players, 3, 7)


def test_pairing_is_deterministic_whatever_the_input_order() -> None:
    ratings, rounds = read_table(BBP_SEED_5)
    players = players_before(ratings, rounds, 5)
    assert pair_round(players, 5, 7) == pair_round(list(reversed(players)), 5, 7)


def test_standings_by_points_then_sonneborn_berger_then_performance() -> None:
    rows = swiss_standings(
        {
            "ann": [
                Played("bob", "won", 1500.0),
                Played("cat", "drawn", 1600.0),
                Played("dan", "won", 1400.0),
            ],
            "cat": [Played(None, "won", None), Played("ann", "drawn", 1500.0), Played("bob", "lost", 1500.0)],
            "bob": [
                Played("ann", "lost", 1500.0),
                Played("dan", "drawn", 1400.0),
                Played("cat", "won", 1600.0),
            ],
            "dan": [Played("bob", "drawn", 1500.0), Played("ann", "lost", 1500.0), Played(None, "won", None)],
        }
    )
    # Points: ann 2.5, cat 1.5, bob 1.5, dan 1.5.
    # SB: ann = bob 1.5×1 + cat 1.5×½ + dan 1.5×1 = 3.75;
    #     cat = bye 1.5×1 + ann 2.5×½ + bob 1.5×0 = 2.75;
    #     bob = ann×0 + dan 1.5×½ + cat 1.5×1 = 2.25;
    #     dan = bob 1.5×½ + ann×0 + bye 1.5×1 = 2.25 — tied with bob: performance decides.
    # Performance: bob (1500 − 500 + 1400 + 1600 + 500) / 3 = 1500; dan (1500 + 1500 − 500) / 2 = 1250.
    assert [(r.rank, r.player, r.points, r.sonneborn_berger) for r in rows] == [
        (1, "ann", 2.5, 3.75),
        (2, "cat", 1.5, 2.75),
        (3, "bob", 1.5, 2.25),
        (4, "dan", 1.5, 2.25),
    ]
    assert rows[2].performance == 1500.0 and rows[3].performance == 1250.0
    assert (rows[3].wins, rows[3].losses, rows[3].draws, rows[3].byes) == (0, 1, 1, 1)


def test_standings_equal_on_everything_are_ordered_by_name() -> None:
    rows = swiss_standings({"Bea": [Played(None, "won", None)], "abe": [Played(None, "won", None)]})
    assert [(r.rank, r.player, r.performance) for r in rows] == [(1, "abe", None), (2, "Bea", None)]
