"""Melds and deadwood: what is a meld, the least deadwood, every optimal arrangement, discards."""

from __future__ import annotations

import doctest
import random

import pytest
from ginrummy.engine import melds
from ginrummy.engine.cards import card_text, card_value, cards_of, mask_of, parse_card, texts
from ginrummy.engine.errors import BadCardError, InvalidMeldError
from ginrummy.engine.melds import (
    Arrangement,
    Meld,
    MeldKind,
    best_arrangement,
    best_melds,
    deadwood,
    discard_options,
    knock_deadwood,
    meld_kind,
    min_deadwood,
    validate_arrangement,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def hand(text: str) -> int:
    return mask_of(text.split())


def test_doctests_run() -> None:
    result = doctest.testmod(melds)
    assert result.attempted > 10
    assert result.failed == 0


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("7C 7D 7H", MeldKind.SET),
        ("QC QD QH QS", MeldKind.SET),
        ("AH 2H 3H", MeldKind.RUN),
        ("JS QS KS", MeldKind.RUN),
        ("4C 5C 6C 7C 8C 9C TC", MeldKind.RUN),
        ("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", MeldKind.RUN),
        ("QH KH AH", None),  # the ace is low only
        ("KH AH 2H", None),  # nothing wraps
        ("7C 7D", None),
        ("4H 5H", None),
        ("4H 5H 7H", None),
        ("4H 5H 6D", None),
        ("7C 7D 8C", None),
        ("KC AD 2D", None),  # adjacent bits across a suit boundary are no run
        ("", None),
        ("5S", None),
    ],
)
def test_meld_kind(cards: str, kind: MeldKind | None) -> None:
    assert meld_kind(hand(cards)) is kind


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("", 0),
        ("KS", 10),
        ("AC 2C 3C", 0),
        ("QS KS AS", 21),
        ("KH AH 2H", 13),
        ("7C 7D 7H 7S", 0),
        ("7C 7D 7H 7S 6H 8H", 0),  # 6H 7H 8H + 7C 7D 7S
        ("7C 7D 7H 6H 8H", 14),  # either the set or the run: 6 + 8 or 7 + 7
        ("7C 7D 7H 5C 6C 8D 9D", 7),  # two runs through the 7s beat the set
        ("7C 7D 7H 5C 6C 8H 9H", 7),  # 5C 6C 7C + 7H 8H 9H, 7D left
        ("3C 3D 3H 4C 5C", 6),  # 3C 4C 5C with 3D 3H left, or the set with 4 + 5 = 9
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC", 0),  # 11 cards all melded: big gin
        ("2C 2D 2H 3C 3D 3H 4C 4D 4H", 0),  # three sets or three runs
        ("2C 2D 2H 3C 3D 3H 4C 4D 4H KS KD", 20),
        ("TC JC QC KC TD TH TS JD JH JS", 0),  # four sets' worth, 10 cards
        ("AC 2D 4H 6S 8C TD QH KS 3C 5D", 59),
    ],
)
def test_deadwood_table(cards: str, expected: int) -> None:
    mask = hand(cards)
    assert min_deadwood(mask) == expected
    assert deadwood(cards.split()) == expected
    assert deadwood(cards_of(mask)) == expected
    assert best_arrangement(mask).deadwood == expected
    assert all(a.deadwood == expected for a in best_melds(mask))


def test_deadwood_accepts_texts_ints_glyphs_and_iterators() -> None:
    assert deadwood(["10h", "j♥", "QH", 0]) == 1
    assert deadwood(iter([parse_card("7S"), parse_card("8S"), parse_card("9S")])) == 0
    assert deadwood(()) == 0


@pytest.mark.parametrize("bad", [[True, 5, 6], [0, 0], ["7H", "7h"], ["XX"], "7H", 7, [52], [[1]]])
def test_deadwood_rejects_bad_cards(bad: object) -> None:
    with pytest.raises(BadCardError):
        deadwood(bad)  # type: ignore[arg-type]


def describe(arrangements: list[Arrangement]) -> list[list[str]]:
    return [[str(meld) for meld in a.melds] + ["|"] + texts(a.deadwood_mask) for a in arrangements]


def test_best_melds_lists_every_optimal_arrangement() -> None:
    # 7H can go with the set or with the run; both leave 6H 8H or 7C 7D ... compare values:
    # set 7C 7D 7H leaves 6H 8H = 14; run 6H 7H 8H leaves 7C 7D = 14. Both optimal.
    assert describe(best_melds(["7C", "7D", "7H", "6H", "8H"])) == [
        ["6H 7H 8H", "|", "7C", "7D"],
        ["7C 7D 7H", "|", "6H", "8H"],
    ]


def test_best_melds_sets_or_runs_both_listed() -> None:
    assert describe(best_melds(["2C", "2D", "2H", "3C", "3D", "3H", "4C", "4D", "4H"])) == [
        ["2C 3C 4C", "2D 3D 4D", "2H 3H 4H", "|"],
        ["2C 2D 2H", "3C 3D 3H", "4C 4D 4H", "|"],
    ]


def test_best_melds_four_card_set_or_three_and_a_run() -> None:
    # 7S can join the set (7C 7D 7H 7S, then 5S 6S are deadwood: 11) or the run 5S 6S 7S
    # (leaving the 3-set): 0. Only the second is optimal.
    assert describe(best_melds(["7C", "7D", "7H", "7S", "5S", "6S"])) == [["5S 6S 7S", "7C 7D 7H", "|"]]


def test_best_melds_runs_are_maximal() -> None:
    # A 6-card run is one meld, not 3 + 3.
    assert describe(best_melds(["3H", "4H", "5H", "6H", "7H", "8H"])) == [["3H 4H 5H 6H 7H 8H", "|"]]


def test_best_melds_of_no_and_one_card() -> None:
    assert describe(best_melds([])) == [["|"]]
    assert describe(best_melds(["KD"])) == [["|", "KD"]]


def test_best_melds_accepts_a_mask_and_is_deterministic() -> None:
    mask = hand("2C 2D 2H 3C 3D 3H 4C 4D 4H 5C 5D")
    assert best_melds(mask) == best_melds(list(reversed(cards_of(mask))))


def test_seed_002_scoring_examples() -> None:
    # Example 1: melds 7S 7H 7D and 4C 5C 6C, deadwood 2H 3D = 5; opponent K K K + 9S 8H 4D = 21.
    assert deadwood(["7S", "7H", "7D", "4C", "5C", "6C", "2H", "3D"]) == 5
    assert deadwood(["KS", "KH", "KD", "9S", "8H", "4D"]) == 21
    # Example 2: 5S 5H 5D + 9C = 9; opponent AS 2S 3S + JH JD JC + 4H = 4.
    assert deadwood(["5S", "5H", "5D", "9C"]) == 9
    assert deadwood(["AS", "2S", "3S", "JH", "JD", "JC", "4H"]) == 4
    # Example 3: gin, 8S 8H 8D + 2C 3C 4C 5C.
    assert deadwood(["8S", "8H", "8D", "2C", "3C", "4C", "5C"]) == 0


def test_seed_001_knock_discards_the_nine() -> None:
    # "if you have 3, 5, 9 as deadwood you would be allowed to knock with the 9 … 3 + 5 = 8".
    cards = ["AS", "2S", "3S", "4S", "7C", "7D", "7H", "7S", "3C", "5D", "9H"]
    assert deadwood(cards) == 17
    assert knock_deadwood(cards) == 8
    best_card, best_dw = discard_options(mask_of(cards))[0]
    assert (card_text(best_card), best_dw) == ("9H", 8)


def test_big_gin_is_eleven_cards_melded() -> None:
    cards = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "KC", "KD", "KH", "KS"]
    assert deadwood(cards) == 0
    # After any discard the rest is still all melded when the 4-card melds give one up.
    assert knock_deadwood(cards) == 0


def test_discard_options_order_and_content() -> None:
    mask = hand("AS 2S 3S 4S 7C 7D 7H 7S 3C 5D 9H")
    options = discard_options(mask)
    assert [card for card, _ in options] != [] and len(options) == 11
    assert options == sorted(options, key=lambda o: (o[1], o[0]))
    for card, dw in options:
        assert dw == min_deadwood(mask & ~(1 << card))
    assert [(card_text(c), dw) for c, dw in options[:3]] == [("9H", 8), ("5D", 12), ("3C", 14)]


def test_knock_deadwood_needs_a_card() -> None:
    with pytest.raises(BadCardError):
        knock_deadwood([])


def test_meld_value_object() -> None:
    meld = Meld.of(["7H", "7C", "7D"])
    assert meld.kind is MeldKind.SET
    assert meld.cards == (6, 19, 32)
    assert meld.texts() == ["7C", "7D", "7H"]
    assert str(meld) == "7C 7D 7H"
    assert eval(repr(meld), {"Meld": Meld}) == meld  # noqa: S307 - the repr round-trips
    assert Meld.of(hand("4S 5S 6S")).kind is MeldKind.RUN
    with pytest.raises(InvalidMeldError, match="AH QH KH is not a meld"):
        Meld.of(["QH", "KH", "AH"])


def test_validate_arrangement_accepts_any_legal_choice() -> None:
    h = hand("7C 7D 7H 6H 8H KS")
    # Not the best arrangement (the set), but legal: a player may choose it.
    result = validate_arrangement(h, [hand("6H 7H 8H")])
    assert result.deadwood == 7 + 7 + 10
    assert texts(result.deadwood_mask) == ["7C", "7D", "KS"]
    assert validate_arrangement(h, []).deadwood == 7 * 3 + 6 + 8 + 10
    # Melds may also be Meld objects or lists of card texts.
    assert validate_arrangement(h, [Meld.of(["6H", "7H", "8H"])]) == result
    assert validate_arrangement(h, [["6H", "7H", "8H"]]) == result


@pytest.mark.parametrize(
    ("melds_given", "message"),
    [
        (["7C 7D 6H"], "7C 7D 6H is not a meld"),
        (["7C 7D"], "7C 7D is not a meld"),
        (["6H 7H 8H", "7C 7D 7H"], "7H cannot be in two melds"),
        (["7C 7D 7S"], "uses cards not in the hand: 7S"),
        (["QH KH AH"], "AH QH KH is not a meld"),
    ],
)
def test_validate_arrangement_errors_name_the_cards(melds_given: list[str], message: str) -> None:
    with pytest.raises(InvalidMeldError, match=message):
        validate_arrangement(hand("7C 7D 7H 6H 8H KS"), [hand(m) for m in melds_given])


def test_validate_arrangement_error_code() -> None:
    with pytest.raises(InvalidMeldError) as info:
        validate_arrangement(hand("7C 7D"), [hand("7C 7D")])
    assert info.value.code == "invalid_meld"


# ------------------------------------------------------------------------------------------
# Properties.

hands = st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True)


def dense_hand(draw: st.DrawFn) -> list[int]:
    low = draw(st.integers(0, 9))
    pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 4)]
    size = draw(st.integers(0, 11))
    return draw(st.permutations(pool))[:size]


dense_hands = st.composite(dense_hand)()


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands, dense_hands))
def test_arrangements_are_consistent(cards: list[int]) -> None:
    mask = mask_of(cards)
    least = min_deadwood(mask)
    assert 0 <= least <= sum(card_value(c) for c in cards)
    arrangements = best_melds(mask)
    assert arrangements, "there is always at least one arrangement"
    assert best_arrangement(mask) in arrangements
    keys = {tuple(m.mask for m in a.melds) for a in arrangements}
    assert len(keys) == len(arrangements), "no duplicates"
    for a in arrangements:
        # Each arrangement is a legal one of this hand with the least deadwood.
        checked = validate_arrangement(mask, [m.mask for m in a.melds])
        assert checked.deadwood == a.deadwood == least
        assert checked.deadwood_mask == a.deadwood_mask
        assert a.meld_mask | a.deadwood_mask == mask


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands, dense_hands), st.integers(0, 51))
def test_adding_a_card_never_lowers_deadwood_by_more_than_melding_allows(
    cards: list[int], extra: int
) -> None:
    mask = mask_of(cards)
    if mask >> extra & 1:
        return
    # Keeping every card, one more card can only add its value or make melds: never more than its value.
    assert min_deadwood(mask | 1 << extra) <= min_deadwood(mask) + card_value(extra)
    # And knocking the extra card away is never worse than not having drawn it.
    assert knock_deadwood(cards_of(mask | 1 << extra)) <= min_deadwood(mask)


@settings(max_examples=200, deadline=None)
@given(st.one_of(hands, dense_hands).filter(bool))
def test_knock_deadwood_is_the_best_discard(cards: list[int]) -> None:
    mask = mask_of(cards)
    options = discard_options(mask)
    assert knock_deadwood(cards) == options[0][1] == min(min_deadwood(mask ^ 1 << c) for c in cards)


@settings(max_examples=200, deadline=None)
@given(hands, st.permutations(range(4)))
def test_suit_symmetry(cards: list[int], suits: list[int]) -> None:
    # Renaming the suits changes nothing: sets and runs don't care which suit is which.
    renamed = [suits[c // 13] * 13 + c % 13 for c in cards]
    assert deadwood(renamed) == deadwood(cards)


def test_random_hands_best_arrangement_matches_min() -> None:
    rng = random.Random(7)
    for _ in range(500):
        mask = mask_of(rng.sample(range(52), rng.randrange(0, 12)))
        assert best_arrangement(mask).deadwood == min_deadwood(mask)


def test_knock_min_is_knock_deadwood_of_a_mask() -> None:
    rng = random.Random(9)
    for _ in range(300):
        cards = rng.sample(range(52), 11)
        assert melds.knock_min(mask_of(cards)) == knock_deadwood(cards)


def test_discard_options_match_min_deadwood_on_random_and_dense_hands() -> None:
    rng = random.Random(4)
    window = [suit * 13 + rank for suit in range(4) for rank in range(5, 9)]
    for i in range(2000):
        size = rng.randrange(1, 12)
        mask = mask_of(rng.sample(range(52), size) if i % 2 else rng.sample(window, size))
        expected = sorted(
            ((card, min_deadwood(mask ^ 1 << card)) for card in cards_of(mask)), key=lambda o: (o[1], o[0])
        )
        assert discard_options(mask) == expected


def test_a_forbidden_card_is_left_out_of_the_discards() -> None:
    # The card just taken from the pile may not be thrown back: the options and the knock minimum
    # are over the other cards, whichever path (with sets or without) the solver takes.
    rng = random.Random(13)
    window = [suit * 13 + rank for suit in range(4) for rank in range(3, 7)]
    for i in range(2000):
        size = rng.randrange(2, 12)
        cards = rng.sample(range(52), size) if i % 2 else rng.sample(window, size)
        mask = mask_of(cards)
        forbidden = rng.choice(cards) if i % 5 else rng.choice([c for c in range(52) if c not in cards])
        everything = discard_options(mask)
        allowed = discard_options(mask, forbidden=forbidden)
        assert allowed == [option for option in everything if option[0] != forbidden]
        assert melds.knock_min(mask, forbidden=forbidden) == allowed[0][1]
        assert melds.knock_min(mask, forbidden=None) == melds.knock_min(mask) == everything[0][1]


def test_the_forbidden_card_can_be_the_best_discard() -> None:
    # 9H is the best discard (deadwood 8); taken from the pile, 5D is the best left (12).
    mask = hand("AS 2S 3S 4S 7C 7D 7H 7S 3C 5D 9H")
    assert melds.knock_min(mask) == 8
    assert melds.knock_min(mask, forbidden=parse_card("9H")) == 12
    assert discard_options(mask, forbidden=parse_card("9H"))[0] == (parse_card("5D"), 12)
    assert discard_options(mask, forbidden=parse_card("KD")) == discard_options(mask)


@pytest.mark.parametrize(
    ("defender", "meld", "laid"),
    [
        ("3H 7H 8H TH 4S", "4H 5H 6H", "3H 7H 8H"),
        ("AH 2H 3H", "4H 5H 6H", "AH 2H 3H"),
        ("JH QH KH", "8H 9H TH", "JH QH KH"),
        ("9H 8H", "9C 9D 9S", "9H"),
        ("9H", "9C 9D 9H 9S", ""),  # a set of four takes nothing (and 9H cannot be held twice)
        ("AS 2S", "QS KS JS", ""),  # no wrapping
        ("7H 8D", "4H 5H 6H", "7H"),
        ("KC", "2C 5C 9C", ""),  # not a meld: nothing fits
    ],
)
def test_layoff_cards_is_the_most_a_meld_takes(defender: str, meld: str, laid: str) -> None:
    assert melds.layoff_cards(hand(defender) & ~hand(meld), hand(meld)) == hand(laid)
    if meld_kind(hand(meld)) is not None:
        assert melds.layoff_cards(hand(defender) & ~hand(meld), Meld.of(meld.split())) == hand(laid)


def test_layoff_cards_agrees_with_the_layoff_rules() -> None:
    rng = random.Random(21)
    for _ in range(3000):
        cards = rng.sample(range(52), 20)
        knocker, defender = mask_of(cards[:10]), mask_of(cards[10:])
        knocker_melds = best_arrangement(knocker).melds
        # The best lay-off only ever uses part of what each meld can take.
        for card, index in melds.best_layoff(defender, knocker_melds).layoffs:
            assert melds.layoff_cards(defender, knocker_melds[index]) >> card & 1
        for meld in knocker_melds:
            laid = melds.layoff_cards(defender, meld)
            assert laid & ~defender == 0
            # All of it at once is a valid lay-off, and no other card of the defender fits after.
            result = melds.validate_layoff(defender, [meld], [], [(card, 0) for card in cards_of(laid)])
            assert result.layoff_mask == laid
            for card in cards_of(defender & ~laid):
                assert meld_kind(meld.mask | laid | 1 << card) is None
