"""Round-robin schedules against the FIDE Berger tables (Handbook C.05, Annex 1), and what any schedule
must be: everyone meets everyone once, each round pairs everyone (but the one sitting out), colours even."""

from __future__ import annotations

from collections import Counter

import pytest
from ginrummy.app.tournaments.berger import berger_rounds, duplicate_rounds


def table(*rounds: str) -> list[list[tuple[str, str]]]:
    """A round as the Handbook prints it: ``"1-8 2-7 3-6 4-5"`` (white first)."""
    return [[tuple(board.split("-")) for board in line.split()] for line in rounds]


FIDE = {
    4: table("1-4 2-3", "4-3 1-2", "2-4 3-1"),
    6: table(
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ),
    8: table(
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ),
}


@pytest.mark.parametrize("count", sorted(FIDE))
def test_the_rounds_are_the_fide_berger_tables(count: int) -> None:
    assert berger_rounds([str(number) for number in range(1, count + 1)]) == FIDE[count]


def test_an_odd_field_plays_the_next_even_table_without_its_last_number() -> None:
    # Five players: the table for six, every pairing with number 6 dropped (that player sits out).
    expected = [[pair for pair in pairs if "6" not in pair] for pairs in FIDE[6]]
    assert berger_rounds(["1", "2", "3", "4", "5"]) == expected


def test_the_players_take_the_numbers_in_the_order_given() -> None:
    assert berger_rounds(["zoe", "amy", "bob", "cid"])[0] == [("zoe", "cid"), ("amy", "bob")]


def test_fewer_than_two_players_play_nothing_and_a_player_entered_twice_is_refused() -> None:
    assert berger_rounds([]) == []
    assert berger_rounds(["ann"]) == []
    assert berger_rounds(["ann", "bob"]) == [[("ann", "bob")]]
    with pytest.raises(ValueError, match="twice"):
        berger_rounds(["ann", "bob", "ann"])


@pytest.mark.parametrize("count", range(2, 25))
def test_everyone_meets_everyone_once_in_perfect_rounds_with_colours_even(count: int) -> None:
    players = [f"p{i}" for i in range(count)]
    rounds = berger_rounds(players)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = Counter(frozenset(pair) for pairs in rounds for pair in pairs)
    assert set(met) == {frozenset((a, b)) for a in players for b in players if a != b}
    assert set(met.values()) == {1}
    for pairs in rounds:
        seated = [player for pair in pairs for player in pair]
        assert len(seated) == len(set(seated)) == count - count % 2
    whites = Counter(white for pairs in rounds for white, _ in pairs)
    blacks = Counter(black for pairs in rounds for _, black in pairs)
    assert all(abs(whites[player] - blacks[player]) <= 1 for player in players)


def test_duplicate_rounds_play_every_pairing_twice_the_seats_swapped() -> None:
    assert duplicate_rounds(["1", "2", "3", "4"]) == [
        [("1", "4"), ("4", "1"), ("2", "3"), ("3", "2")],
        [("4", "3"), ("3", "4"), ("1", "2"), ("2", "1")],
        [("2", "4"), ("4", "2"), ("3", "1"), ("1", "3")],
    ]
    for single, double in zip(berger_rounds(list("abcdefg")), duplicate_rounds(list("abcdefg")), strict=True):
        assert double[0::2] == single
        assert double[1::2] == [(b, a) for a, b in single]
