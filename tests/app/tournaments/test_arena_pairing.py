"""The arena's pairing (lichess's AntmaPairing by networkx's matching): stories with weights worked out
by hand, and properties of any wave: nobody twice, never the last opponent again, nobody avoided."""

from __future__ import annotations

import random

import pytest
from ginrummy.app.tournaments.arena_pairing import GROUP_SIZE, Waiting, pair_wave, recent_penalty
from hypothesis import given, settings
from hypothesis import strategies as st


def wave(*ratings: float, last: dict[str, tuple[str, ...]] | None = None) -> list[Waiting]:
    """Players p1, p2, … ranked in that order, with these ratings and last opponents."""
    last = last or {}
    return [Waiting(f"p{i}", i, rating, last.get(f"p{i}", ())) for i, rating in enumerate(ratings, 1)]


def test_neighbours_in_the_standings_are_paired() -> None:
    assert pair_wave(wave(1500, 1500, 1500, 1500)) == [("p1", "p2"), ("p3", "p4")]


def test_the_rank_distance_outweighs_the_rating_distance() -> None:
    # max rank 4: p1–p2 costs 1 × 1,575 + 400; p1–p3 would cost 2 × 1,575 + 0.
    assert pair_wave(wave(1900, 1500, 1900, 1500)) == [("p1", "p2"), ("p3", "p4")]


def test_a_large_rating_distance_can_outweigh_one_rank() -> None:
    # max rank 4: the rank factor is 1,575 for p1, 1,150 for p2, 725 for p3.
    # Neighbours: p1–p2 1,575 + 2,000, p3–p4 725 + 2,000 = 6,300;
    # crossed: p1–p3 2 × 1,575 + 0, p2–p4 2 × 1,150 + 0 = 5,450.
    assert pair_wave(wave(3500, 1500, 3500, 1500)) == [("p1", "p3"), ("p2", "p4")]
    # 1,250 between neighbours: 1,575 + 1,250 + 725 + 1,250 = 4,800 < 5,450. (A flat rank factor of 1,000,
    # lichess's old one, would cross them: 4,500 against 4,000.)
    assert pair_wave(wave(2750, 1500, 2750, 1500)) == [("p1", "p2"), ("p3", "p4")]


def test_the_last_opponent_is_never_met_again_even_if_both_must_wait() -> None:
    assert pair_wave(wave(1500, 1500, last={"p1": ("p2",), "p2": ("p1",)})) == []
    # One side is enough: p2 played p1 last, p1 has played p3 since.
    assert pair_wave(
        wave(1500, 1500, 1500, 1500, last={"p1": ("p3", "p2"), "p2": ("p1",), "p3": ("p1",)})
    ) == [
        ("p1", "p4"),
        ("p2", "p3"),
    ]


def test_a_recent_opponent_is_paired_again_only_when_nothing_else_is_possible() -> None:
    assert recent_penalty(0) == 0
    assert recent_penalty(1) == 8_000_000
    assert recent_penalty(2) == 9_000_000
    # p1 met p2 two games ago: p1–p3 and p2–p4 instead, although further apart in rank.
    assert pair_wave(wave(1500, 1500, 1500, 1500, last={"p1": ("p4", "p2"), "p4": ("p1",)})) == [
        ("p1", "p3"),
        ("p2", "p4"),
    ]
    # Only the two of them: met two games ago, they meet again (lichess penalises, never forbids).
    assert pair_wave(wave(1500, 1500, last={"p1": ("p3", "p2"), "p2": ("p3", "p1")})) == [("p1", "p2")]


def test_avoid_keeps_two_players_apart() -> None:
    def avoid(a: str, b: str) -> bool:
        return {a, b} == {"p1", "p2"}

    assert pair_wave(wave(1500, 1500, 1500, 1500), avoid=avoid) == [("p1", "p3"), ("p2", "p4")]
    assert pair_wave(wave(1500, 1500), avoid=avoid) == []


def test_an_odd_player_out_waits() -> None:
    pairs = pair_wave(wave(1500, 1500, 1500))
    assert len(pairs) == 1
    assert pair_wave(wave(1500)) == []
    assert pair_wave([]) == []


def test_a_player_waiting_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_wave([Waiting("ann", 1, 1500.0, ()), Waiting("ann", 2, 1500.0, ())])


def test_a_player_left_by_one_group_is_paired_in_the_next() -> None:
    # p1 may meet nobody but the last player, who is in the second group of GROUP_SIZE.
    players = wave(*[1500.0] * (GROUP_SIZE + 2))
    last = f"p{GROUP_SIZE + 2}"

    def avoid(a: str, b: str) -> bool:
        return "p1" in (a, b) and last not in (a, b)

    pairs = pair_wave(players, avoid=avoid)
    assert ("p1", last) in pairs
    assert len(pairs) == GROUP_SIZE // 2 + 1  # everyone is paired


def test_the_same_wave_in_any_order_gives_the_same_pairs() -> None:
    rng = random.Random(7)
    players = [
        Waiting(f"p{i}", rank, rng.uniform(1000, 2200), (f"p{rng.randrange(300)}",))
        for i, rank in enumerate(rng.sample(range(1, 400), 300))
    ]
    pairs = pair_wave(players)
    assert pair_wave(rng.sample(players, len(players))) == pairs
    rank = {p.player: p.rank for p in players}
    assert all(rank[a] < rank[b] for a, b in pairs)
    assert [rank[a] for a, _ in pairs] == sorted(rank[a] for a, _ in pairs)


def test_a_wave_of_a_thousand_pairs_everyone_without_a_rematch() -> None:
    rng = random.Random(1)
    names = [f"p{i}" for i in range(1000)]
    players = [
        Waiting(name, rank, rng.gauss(1500, 300), tuple(rng.sample(names, 3)))
        for name, rank in zip(names, rng.sample(range(1, 1001), 1000), strict=True)
    ]
    pairs = pair_wave(players)
    assert len(pairs) == 500
    last = {p.player: p.last_opponents[:1] for p in players}
    assert all((b,) != last[a] and (a,) != last[b] for a, b in pairs)


@st.composite
def waves(draw: st.DrawFn) -> list[Waiting]:
    count = draw(st.integers(0, 40))
    names = [f"p{i}" for i in range(count)]
    ranks = draw(st.permutations(range(1, count + 1)))
    return [
        Waiting(
            name,
            rank,
            draw(st.floats(600, 2800)),
            tuple(draw(st.lists(st.sampled_from(names), max_size=4, unique=True))) if count else (),
        )
        for name, rank in zip(names, ranks, strict=True)
    ]


@settings(deadline=None)  # (a loaded machine: no deadline)
@given(waves(), st.sets(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=30))
def test_any_wave_pairs_each_player_at_most_once_never_with_the_last_opponent_nor_an_avoided_one(
    players: list[Waiting], blocked: set[tuple[int, int]]
) -> None:
    avoided = {frozenset((f"p{a}", f"p{b}")) for a, b in blocked}
    pairs = pair_wave(players, avoid=lambda a, b: frozenset((a, b)) in avoided)
    seated = [name for pair in pairs for name in pair]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {p.player for p in players}
    last = {p.player: p.last_opponents[:1] for p in players}
    for a, b in pairs:
        assert (b,) != last[a] and (a,) != last[b]
        assert frozenset((a, b)) not in avoided


@settings(deadline=None)  # (a loaded machine: no deadline)
@given(st.integers(0, 60))
def test_with_no_constraint_an_even_wave_pairs_everyone(count: int) -> None:
    players = [Waiting(f"p{i}", i + 1, 1500.0, ()) for i in range(count)]
    assert len(pair_wave(players)) == count // 2
