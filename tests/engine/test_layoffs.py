"""Lay-offs after a knock: the defender's best choice, and checking an explicit one."""

from __future__ import annotations

import random

import pytest
from ginrummy.engine.cards import card_text, cards_of, mask_of, texts
from ginrummy.engine.errors import InvalidLayoffError, InvalidMeldError
from ginrummy.engine.melds import (
    LayoffResult,
    Meld,
    best_arrangement,
    best_layoff,
    min_deadwood,
    validate_layoff,
)

from tests.engine import reference_solver


def hand(text: str) -> int:
    return mask_of(text.split())


def shown(result: LayoffResult) -> tuple[list[str], list[tuple[str, int]], list[str], int]:
    return (
        [str(m) for m in result.melds],
        [(card_text(card), index) for card, index in result.layoffs],
        texts(result.deadwood_mask),
        result.deadwood,
    )


@pytest.mark.parametrize(
    ("defender", "knocker", "layoffs", "deadwood"),
    [
        # The 4th card of a set.
        ("9S KD", ["9C 9D 9H"], [("9S", 0)], 10),
        # Nothing fits onto a 4-card set.
        ("9S KD", ["9C 9D 9H 9S".replace("9S", "")], [("9S", 0)], 10),
        # Run extensions at either end, chained: 7H then 8H onto 4H 5H 6H, and 3H below.
        ("3H 7H 8H KS", ["4H 5H 6H"], [("3H", 0), ("7H", 0), ("8H", 0)], 10),
        # A gap breaks the chain: 9H cannot go on without 8H.
        ("7H 9H", ["4H 5H 6H"], [("7H", 0)], 9),
        # No wrapping and no ace high: AH does not extend J Q K.
        ("AH 2C", ["JH QH KH"], [], 3),
        # Lay-offs onto two melds.
        ("9S 7H 2C", ["9C 9D 9H", "4H 5H 6H"], [("9S", 0), ("7H", 1)], 2),
    ],
)
def test_best_layoff_simple(
    defender: str, knocker: list[str], layoffs: list[tuple[str, int]], deadwood: int
) -> None:
    result = best_layoff(hand(defender), [hand(m) for m in knocker])
    assert [(card_text(c), i) for c, i in result.layoffs] == layoffs
    assert result.deadwood == deadwood
    assert result.layoff_mask | result.deadwood_mask | sum(m.mask for m in result.melds) == hand(defender)


def test_own_melds_and_layoffs_are_chosen_jointly() -> None:
    # Alone, the defender's best arrangement is the run 7H 8H 9H (7C 7S left: 14; the set 7C 7H 7S
    # would leave 8H 9H: 17). With the knocker's TH JH QH on the table, the set plus laying off
    # 9H then 8H leaves nothing: the joint choice beats "best own melds, then lay off".
    result = best_layoff(hand("7C 7S 7H 8H 9H"), [hand("TH JH QH")])
    assert shown(result) == (["7C 7H 7S"], [("9H", 0), ("8H", 0)], [], 0)
    assert min_deadwood(hand("7C 7S 7H 8H 9H")) == 14


def test_a_card_is_better_kept_in_own_meld_than_laid_off() -> None:
    # 9S could go onto the knocker's 9s, but then 7S 8S is deadwood (15). Keeping 7S 8S 9S leaves 0.
    result = best_layoff(hand("7S 8S 9S"), [hand("9C 9D 9H")])
    assert shown(result) == (["7S 8S 9S"], [], [], 0)


def test_chained_layoffs_across_two_runs_of_one_suit() -> None:
    # 5H 6H 7H sit between two knocker runs; each card can go on at most one of them.
    knocker = [hand("2H 3H 4H"), hand("8H 9H TH")]
    result = best_layoff(hand("5H 6H 7H KC"), knocker)
    assert result.deadwood == 10
    laid = sorted(card_text(c) for c, _ in result.layoffs)
    assert laid == [] or laid == ["5H", "6H", "7H"]
    # Whatever is chosen must itself pass validation.
    again = validate_layoff(hand("5H 6H 7H KC"), knocker, [m.mask for m in result.melds], result.layoffs)
    assert again == result


def test_best_layoff_accepts_meld_objects() -> None:
    result = best_layoff(hand("9S KD"), [Meld.of(["9C", "9D", "9H"])])
    assert result.deadwood == 10


def test_validate_layoff_union_semantics() -> None:
    knocker = [hand("4H 5H 6H"), hand("9C 9D 9H")]
    # 8H before 7H in the list is fine: what counts is 4H..8H being one run.
    result = validate_layoff(hand("8H 7H 9S KS"), knocker, [], [("8H", 0), ("7H", 0), ("9S", 1)])
    assert result.deadwood == 10
    assert [(card_text(c), i) for c, i in result.layoffs] == [("8H", 0), ("7H", 0), ("9S", 1)]
    # Ints work as well as texts.
    assert validate_layoff(hand("9S"), knocker, [], [(mask_of(["9S"]).bit_length() - 1, 1)]).deadwood == 0


def test_validate_layoff_with_own_melds() -> None:
    knocker = [hand("4H 5H 6H")]
    defender = hand("7H 8H 2C 2D 2S KS")
    result = validate_layoff(defender, knocker, [hand("2C 2D 2S")], [("7H", 0), ("8H", 0)])
    assert shown(result) == (["2C 2D 2S"], [("7H", 0), ("8H", 0)], ["KS"], 10)


@pytest.mark.parametrize(
    ("defender", "own", "layoffs", "message"),
    [
        ("8H KS", [], [("8H", 0)], "8H does not fit onto 4H 5H 6H"),
        (
            "7H 9H",
            [],
            [("7H", 0), ("9H", 0)],
            r"7H 9H does not fit onto 4H 5H 6H \(4H 5H 6H 7H 9H is not a meld\)",
        ),
        ("7H KS", [], [("7D", 0)], "cannot lay off 7D: it is not in your hand"),
        ("7H 7C 7D 7S", ["7C 7D 7S"], [("7C", 1)], "cannot lay off 7C: it is in one of your own melds"),
        ("7H KS", [], [("7H", 0), ("7H", 0)], "7H is laid off twice"),
        ("7H KS", [], [("7H", 5)], "onto meld 5: the knocker has melds 0 to 1"),
        ("7H KS", [], [("7H", -1)], "onto meld -1"),
        ("7H KS", [], [("7H", "0")], "onto meld '0'"),
        ("7H KS", [], ["7H"], "a lay-off is"),
        ("3D KS", [], [("3D", 1)], "3D does not fit onto 9C 9D 9H"),
    ],
)
def test_validate_layoff_errors(defender: str, own: list[str], layoffs: list[object], message: str) -> None:
    knocker = [hand("4H 5H 6H"), hand("9C 9D 9H")]
    with pytest.raises(InvalidLayoffError, match=message) as info:
        validate_layoff(hand(defender), knocker, [hand(m) for m in own], layoffs)  # type: ignore[arg-type]
    assert info.value.code == "invalid_layoff"


def test_validate_layoff_bad_own_meld() -> None:
    with pytest.raises(InvalidMeldError, match="2C 2D is not a meld"):
        validate_layoff(hand("2C 2D 7H"), [hand("4H 5H 6H")], [hand("2C 2D")], [("7H", 0)])


def test_validate_layoff_against_no_melds() -> None:
    with pytest.raises(InvalidLayoffError, match="the knocker has no melds"):
        validate_layoff(hand("2C"), [], [], [("2C", 0)])


def random_knock(rng: random.Random) -> tuple[int, list[int]]:
    """A dealt knocker hand's best melds and a defender hand from the rest of the deck."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        knocker = mask_of(deck[:10])
        melds = [m.mask for m in best_arrangement(knocker).melds]
        if melds:
            return mask_of(deck[10:20]), melds


def dense_knock(rng: random.Random) -> tuple[int, list[int]]:
    """Both hands from a narrow window of ranks, so lay-offs and sets interact a lot."""
    while True:
        low = rng.randrange(0, 8)
        pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 6)]
        rng.shuffle(pool)
        melds = [m.mask for m in best_arrangement(mask_of(pool[:10])).melds]
        if melds:
            return mask_of(pool[10:20]), melds


def test_best_layoff_matches_brute_force() -> None:
    rng = random.Random(11)
    for i in range(120):
        defender, melds = dense_knock(rng) if i % 2 else random_knock(rng)
        result = best_layoff(defender, melds)
        expected = reference_solver.best_layoff_deadwood(cards_of(defender), [cards_of(m) for m in melds])
        assert result.deadwood == expected, (texts(defender), [texts(m) for m in melds])
        # The result is a legal choice with the deadwood it claims.
        again = validate_layoff(defender, melds, [m.mask for m in result.melds], result.layoffs)
        assert again.deadwood == result.deadwood
        assert result.deadwood <= min_deadwood(defender)
