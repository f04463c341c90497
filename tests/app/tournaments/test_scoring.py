"""Scoring stories, worked out by hand: performance, an arena's streaks and berserk wins (lila's
``arena/ArenaSheet.scala``), the arena's standings and a round robin's with Sonneborn–Berger."""

from __future__ import annotations

import random

from ginrummy.app.tournaments.scoring import (
    Played,
    arena_sheet,
    arena_standings,
    performance,
    round_robin_standings,
    wilson,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def matches(results: str, berserk: str = "") -> list[Played]:
    """``"WWDL"`` → won, won, drawn, lost against 1500s; a ``B`` in ``berserk`` at the same place: berserked."""
    names = {"W": "won", "L": "lost", "D": "drawn"}
    return [
        Played(f"op{i}", names[r], 1500.0, berserk=berserk[i : i + 1] == "B") for i, r in enumerate(results)
    ]


def test_performance_is_the_average_opponent_rating_plus_500_a_net_win() -> None:
    played = [
        Played("ann", "won", 1800.0),
        Played("bob", "won", 1600.0),
        Played("cid", "drawn", 1500.0),
        Played("dee", "lost", 1300.0),
        Played(None, "won", None),  # a bye: not a match
    ]
    # (1800 + 1600 + 1500 + 1300) / 4 = 1550, plus 500 × (2 − 1) / 4 = 125
    assert performance(played) == 1675.0
    assert performance([Played(None, "won", None)]) is None
    assert performance([]) is None


def test_two_wins_in_a_row_set_a_player_on_fire_and_the_next_wins_score_double() -> None:
    sheet = arena_sheet(matches("WWWWL"))
    assert sheet.scores == (2, 2, 4, 4, 0)
    assert sheet.points == 12
    assert not sheet.fire
    assert (sheet.wins, sheet.losses, sheet.draws, sheet.berserks) == (4, 1, 0, 0)
    assert arena_sheet(matches("WW")).fire
    assert not arena_sheet(matches("LW")).fire


def test_a_draw_on_fire_is_doubled_and_ends_the_streak() -> None:
    sheet = arena_sheet(matches("WWDWWW"))
    # 2 + 2, the draw on fire 2, then the streak starts again: 2 + 2, on fire 4
    assert sheet.scores == (2, 2, 2, 2, 2, 4)
    assert sheet.points == 14
    assert sheet.fire
    assert arena_sheet(matches("DD")).scores == (1, 1)


def test_a_berserked_win_adds_one_never_doubled_and_a_berserked_loss_or_draw_adds_nothing() -> None:
    sheet = arena_sheet(matches("WWWLD", berserk="B.B.B"))
    # 2 + 1 (berserk), 2, on fire 4 + 1 (berserk, not doubled), a loss 0, a berserked draw 1
    assert sheet.scores == (3, 2, 5, 0, 1)
    assert sheet.points == 11
    assert sheet.berserks == 2
    assert arena_sheet(matches("WWD", berserk="..B")).scores == (2, 2, 2)


def test_the_arena_ranks_by_points_then_performance_none_last_then_name() -> None:
    rows = arena_standings(
        {
            "zed": [Played("a", "won", 1900.0)],  # 2 points, performance 2400
            "amy": [Played("b", "won", 1500.0)],  # 2 points, performance 2000
            "Bob": [Played("c", "won", 1500.0)],  # the same as amy: by name, case-folded
            "cat": [Played("d", "won", 1500.0), Played("e", "won", 1500.0), Played("f", "won", 1500.0)],
            "dan": [],  # no match: no performance
            "eve": [Played("g", "lost", 1200.0)],  # 0 points, performance 700
        }
    )
    assert [(row.rank, row.player, row.sheet.points) for row in rows] == [
        (1, "cat", 8),
        (2, "zed", 2),
        (3, "amy", 2),
        (4, "Bob", 2),
        (5, "eve", 0),
        (6, "dan", 0),
    ]
    assert rows[1].sheet.performance == 2400.0
    assert rows[5].sheet.performance is None


def test_a_round_robin_ranks_by_points_then_sonneborn_berger() -> None:
    # Four players, duplicate deals: each pair played twice.
    #   eve: beat bob twice, drew cid twice, lost to dee twice      → 3
    #   bob: lost to eve twice, beat cid twice, beat dee twice       → 4
    #   cid: drew eve twice, lost to bob twice, beat dee, lost to dee → 2
    #   dee: beat eve twice, lost to bob twice, lost to cid, beat cid → 3
    def legs(opponent: str, *results: str) -> list[Played]:
        return [Played(opponent, r, 1500.0) for r in results]

    players = {
        "eve": legs("bob", "won", "won") + legs("cid", "drawn", "drawn") + legs("dee", "lost", "lost"),
        "bob": legs("eve", "lost", "lost") + legs("cid", "won", "won") + legs("dee", "won", "won"),
        "cid": legs("eve", "drawn", "drawn") + legs("bob", "lost", "lost") + legs("dee", "won", "lost"),
        "dee": legs("eve", "won", "won") + legs("bob", "lost", "lost") + legs("cid", "lost", "won"),
    }
    rows = round_robin_standings(players)
    # eve and dee have 3 points each, and dee comes first by name: Sonneborn–Berger decides.
    # eve 4 + 4 (bob twice) + ½·2 + ½·2 (cid) = 10; dee 3 + 3 (eve) + 2 (cid once) = 8;
    # bob 2 + 2 (cid) + 3 + 3 (dee) = 10; cid ½·3 + ½·3 (eve) + 3 (dee once) = 6.
    assert [(row.rank, row.player, row.points, row.sonneborn_berger) for row in rows] == [
        (1, "bob", 4.0, 10.0),
        (2, "eve", 3.0, 10.0),
        (3, "dee", 3.0, 8.0),
        (4, "cid", 2.0, 6.0),
    ]
    eve = rows[1]
    assert (eve.wins, eve.losses, eve.draws, eve.games) == (2, 2, 2, 6)
    assert eve.interval == wilson(3, 6) == (0.1876, 0.8124)
    assert rows[0].interval == wilson(4, 6)


def test_a_round_robin_interval_counts_a_draw_as_half_a_win() -> None:
    rows = round_robin_standings(
        {"ann": [Played("bob", "drawn", 1500.0)], "bob": [Played("ann", "drawn", 1500.0)]}
    )
    assert rows[0].points == 0.5
    # One game scored ½: the interval is centred on ½ and wide (z = 1.96, n = 1).
    assert rows[0].interval == (0.0546, 0.9454)


RESULTS = st.sampled_from(["won", "lost", "drawn"])


@settings(deadline=None)  # (a loaded machine: no deadline)
@given(st.lists(st.tuples(RESULTS, st.booleans()), max_size=30))
def test_an_arena_sheet_adds_up(results: list[tuple[str, bool]]) -> None:
    played = [Played("op", result, 1500.0, berserk) for result, berserk in results]
    sheet = arena_sheet(played)
    assert sheet.points == sum(sheet.scores)
    assert len(sheet.scores) == sheet.wins + sheet.losses + sheet.draws == len(played)
    for match, score in zip(played, sheet.scores, strict=True):
        allowed = {"won": {2, 3, 4, 5}, "drawn": {1, 2}, "lost": {0}}[match.result]
        assert score in allowed
    # Never more than 5 a match (a berserked win on fire), and at least 2 a win.
    assert 2 * sheet.wins <= sheet.points <= 5 * sheet.wins + 2 * sheet.draws


@settings(deadline=None)  # (a loaded machine: no deadline)
@given(
    st.dictionaries(st.text(min_size=1, max_size=5), st.lists(RESULTS, max_size=6), max_size=8), st.randoms()
)
def test_standings_do_not_depend_on_the_order_players_are_given_in(
    results: dict[str, list[str]], rng: random.Random
) -> None:
    names = list(results)
    players = {
        name: [Played(rng.choice(names), result, 1500.0) for result in played]
        for name, played in results.items()
    }
    shuffled = dict(rng.sample(sorted(players.items()), len(players)))
    assert arena_standings(players) == arena_standings(shuffled)
    assert round_robin_standings(players) == round_robin_standings(shuffled)
    assert [row.rank for row in arena_standings(players)] == list(range(1, len(players) + 1))
    points = [row.points for row in round_robin_standings(players)]
    assert points == sorted(points, reverse=True)
