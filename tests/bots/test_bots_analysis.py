"""The bots' analysis helpers agree with the engine and read the view's history correctly."""

from __future__ import annotations

import random

from ginrummy.bots.analysis import (
    MELDS_WITH,
    defender_deadwood,
    in_some_meld,
    layoff_closure,
    melded_mask,
    read_view,
)
from ginrummy.bots.evaluate import danger, modeled_opponent_hands, sample_opponent_hands
from ginrummy.bots.master import eager_share
from ginrummy.engine import melds
from ginrummy.engine.cards import CARD_VALUES, cards_of, mask_of, parse_card

from .views import make_view


def test_defender_deadwood_is_close_to_the_engines_best_layoff():
    rng = random.Random(4)
    exact = 0
    for _ in range(300):
        cards = rng.sample(range(52), 20)
        knocker, defender = sum(1 << c for c in cards[:10]), sum(1 << c for c in cards[10:])
        knocker_melds = [m.mask for m in melds.best_arrangement(knocker).melds]
        ours = defender_deadwood(defender, knocker_melds)
        best = melds.best_layoff(defender, knocker_melds).deadwood
        assert ours >= best  # never better than the optimum: it is a fast upper bound
        exact += ours == best
    assert exact >= 280


def test_layoffs_build_on_each_other():
    run = mask_of(["4H", "5H", "6H"])
    assert layoff_closure([run], mask_of(["7H", "8H", "KC"])) == mask_of(["7H", "8H"])
    assert layoff_closure([mask_of(["9C", "9D", "9S"])], mask_of(["9H", "8H"])) == mask_of(["9H"])
    assert layoff_closure([mask_of(["QS", "KS", "JS"])], mask_of(["AS"])) == 0
    assert layoff_closure([run], mask_of(["3H", "2H", "AH", "9H"])) == mask_of(["3H", "2H", "AH"])


def test_a_card_fitting_two_melds_goes_onto_the_first():
    # 7S is the 4th seven and extends 4S 5S 6S; on the run it lets 8S follow, on the set it does not.
    run, sevens = mask_of(["4S", "5S", "6S"]), mask_of(["7C", "7D", "7H"])
    cards = mask_of(["7S", "8S"])
    assert layoff_closure([run, sevens], cards) == cards
    assert layoff_closure([sevens, run], cards) == mask_of(["7S"])
    # Two runs of one suit with a one-card gap: the card goes onto the lower run.
    low, high = mask_of(["2H", "3H", "4H"]), mask_of(["6H", "7H", "8H"])
    assert layoff_closure([low, high], mask_of(["5H", "9H"])) == mask_of(["5H", "9H"])


def test_meld_test_of_the_upcard():
    hand = mask_of(["7H", "8H", "9C", "9D"])
    assert in_some_meld(hand, parse_card("9H"))
    assert in_some_meld(hand, parse_card("6H"))
    assert in_some_meld(hand, parse_card("9S"))
    assert not in_some_meld(hand, parse_card("TH"))
    assert not in_some_meld(mask_of(["QH", "KH"]), parse_card("AH"))


def test_card_tracking_from_the_history():
    # Upcard 5C: seat 1 passes it, seat 0 takes it and throws 9D, seat 1 takes 9D and throws KS,
    # seat 0 draws from the stock (declining KS) and throws 2H, seat 1 draws from the stock.
    history = [
        {"seat": 1, "type": "pass"},
        {"seat": 0, "type": "draw", "source": "discard", "card": "5C"},
        {"seat": 0, "type": "discard", "card": "9D"},
        {"seat": 1, "type": "draw", "source": "discard", "card": "9D"},
        {"seat": 1, "type": "discard", "card": "KS"},
        {"seat": 0, "type": "draw", "source": "stock", "card": "3C"},
        {"seat": 0, "type": "discard", "card": "2H"},
        {"seat": 1, "type": "draw", "source": "stock"},
        {"seat": 1, "type": "discard", "card": "QH"},
    ]
    hand = ["5C", "3C", "4C", "AS", "2S", "7D", "7H", "8S", "TC", "JC"]
    view = make_view(hand, pile=["KS", "2H", "QH"], history=history, opp_known=["9D"])
    know = read_view(view)
    assert know.opp_known == mask_of(["9D"])
    assert know.opp_taken == mask_of(["9D"])
    assert know.opp_discarded == mask_of(["KS", "QH"])
    assert know.opp_passed == mask_of(["5C", "2H"])  # passed the upcard; drew from stock over 2H
    assert know.unseen & mask_of(hand + ["KS", "2H", "QH", "9D"]) == 0
    assert know.unseen.bit_count() == 52 - 10 - 3 - 1
    assert know.top == parse_card("QH")


def test_danger_follows_what_the_opponent_holds_and_threw():
    base = make_view(["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "3S", "5D"], pile=["9H"])
    plain = danger(read_view(base), parse_card("7H"))
    known = make_view(
        ["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "3S", "5D"], pile=["9H"], opp_known=["7C", "7D"]
    )
    assert danger(read_view(known), parse_card("7H")) > plain
    dead = make_view(
        ["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "7C", "7D"], pile=["7S", "5H", "6H", "8H"]
    )
    assert danger(read_view(dead), parse_card("7H")) < 0.05


def test_sampled_opponent_hands_hold_the_known_cards_and_nothing_seen():
    view = make_view(
        ["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "3S", "5D"], pile=["9H"], opp_known=["7C"]
    )
    know = read_view(view)
    for hand in sample_opponent_hands(know, random.Random(1), 30):
        assert hand.bit_count() == 10
        assert hand & know.opp_known == know.opp_known
        assert hand & know.hand == 0
        assert hand & mask_of(["9H"]) == 0


def after_a_discard(card: str) -> dict:
    """A view in the middle of a hand: the opponent (seat 1) drew from the stock five times and threw
    ``card`` last."""
    throws = ["KC", "QD", "JH", "9S", card]
    history = []
    for throw in throws:
        history += [
            {"seat": 1, "type": "draw", "source": "stock"},
            {"seat": 1, "type": "discard", "card": throw},
        ]
    return make_view(
        ["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "3S", "5D"], pile=throws, history=history
    )


def test_modeled_opponent_hands_are_conditioned_on_the_last_discard():
    know = read_view(after_a_discard("4C"))
    assert know.opp_last_discard == parse_card("4C")
    rng = random.Random(3)
    eager = modeled_opponent_hands(know, rng, 40, eager=1.0)
    patient = modeled_opponent_hands(know, rng, 40, eager=0.0)
    plain = sample_opponent_hands(know, rng, 40)
    for hand in eager + patient:  # what every sample holds: ten cards, none this seat has seen
        assert hand.bit_count() == 10 and hand & (know.hand | mask_of(["KC", "QD", "JH", "9S", "4C"])) == 0

    def over_the_ceiling(hand: int) -> int:  # points of unmelded cards above the 4 thrown (+2)
        return sum(max(0, CARD_VALUES[c] - 6) for c in cards_of(hand & ~melded_mask(hand)))

    # An eager opponent would have knocked: it holds more than the knock limit.
    assert all(melds.min_deadwood(hand) > 10 for hand in eager)
    # A patient one threw its worst card: far less left above it than in plain samples.
    assert sum(map(over_the_ceiling, patient)) * 3 < sum(map(over_the_ceiling, plain))
    # Before the opponent's first discard nothing is conditioned: the plain sampler's hands.
    fresh = read_view(make_view(["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "3S", "5D"], pile=["9H"]))
    assert modeled_opponent_hands(fresh, random.Random(5), 20, eager=1.0) == sample_opponent_hands(
        fresh, random.Random(5), 20
    )


def test_the_master_reads_how_eager_a_knocker_the_opponent_is_off_the_finished_hands():
    view = make_view(["AC"])
    assert eager_share(view) == 0.5  # nothing known yet

    def hand(knocker: int | None, mine: int, theirs: int) -> dict:
        end = "wall" if knocker is None else "knock"
        return {
            "number": 1,
            "end": end,
            "winner": knocker,
            "points": 0,
            "knocker": knocker,
            "deadwood": [mine, theirs],
        }

    # It defended three of my knocks holding a lot: it would have knocked with less.
    view["hands"] = [hand(0, 5, 30), hand(0, 8, 24), hand(0, 3, 19)]
    assert eager_share(view) > 0.85
    # It defended one holding 6 (it sat on a knockable hand): patient.
    view["hands"] = [hand(0, 8, 6)]
    assert eager_share(view) < 0.2
    # At a wall with 4: an eager knocker never waits there.
    view["hands"] = [hand(0, 5, 30), hand(None, 20, 4)]
    assert eager_share(view) < 0.1
    # Its own knocks say nothing of that.
    view["hands"] = [hand(1, 30, 7), hand(1, 25, 2)]
    assert eager_share(view) == 0.5


def test_the_expert_reads_an_early_knocker_off_the_finished_hands():
    from ginrummy.bots.expert import opponent_knocks_early

    view = make_view(["AC"])
    assert not opponent_knocks_early(view)
    view["hands"] = [
        {"number": 1, "end": "knock", "winner": 1, "points": 20, "knocker": 1, "deadwood": [28, 8]}
    ]
    assert opponent_knocks_early(view)
    view["hands"] = [
        {"number": 1, "end": "knock", "winner": 1, "points": 20, "knocker": 1, "deadwood": [28, 2]}
    ]
    assert not opponent_knocks_early(view)
    view["hands"] = [
        {"number": 1, "end": "knock", "winner": 0, "points": 20, "knocker": 0, "deadwood": [8, 28]}
    ]
    assert not opponent_knocks_early(view)  # the bot's own knocks say nothing about the opponent


def test_the_bots_count_with_the_engines_functions():
    # Issue 13: no copy of the engine's counting lives in the bots; they call the engine's.
    from ginrummy.bots import analysis, base, evaluate, expert, simple, styles

    for name in ("deadwood", "deadwood_drop1", "knock_deadwood", "discard_options", "_extends"):
        assert not hasattr(analysis, name), name
    assert evaluate.knock_min is base.knock_min is styles.knock_min is melds.knock_min
    assert evaluate.min_deadwood is simple.min_deadwood is styles.min_deadwood is melds.min_deadwood
    assert expert.discard_options is melds.discard_options


def test_the_meld_table_holds_only_the_engines_melds():
    every = set()
    for card, with_card in enumerate(MELDS_WITH):
        for meld in with_card:
            assert meld >> card & 1 and melds.meld_kind(meld) is not None
            every.add(meld)
    # Every run of 3 to 13 cards (4 suits x 66) and every set of 3 or 4 cards (13 ranks x 5).
    assert len(every) == 4 * sum(14 - n for n in range(3, 14)) + 13 * 5


def test_the_trapper_keeps_its_knock_settings_and_the_expert_is_stricter():
    from ginrummy.bots.expert import ExpertBot, TrapperBot

    assert TrapperBot.patient and not TrapperBot.adaptive
    assert TrapperBot.max_undercut == 0.30 and TrapperBot.knock_samples == 16
    assert ExpertBot.max_undercut < TrapperBot.max_undercut
