"""Helpers that stack the deck, so that a test can set up exactly the hand it is about."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ginrummy.engine import Game, Rules
from ginrummy.engine.cards import parse_cards
from ginrummy.engine.hand import Hand


def stacked_deck(
    nondealer: Sequence[str], dealer: Sequence[str], upcard: str, stock: Sequence[str] = ()
) -> list[int]:
    """A deck that deals these ten cards to each seat, this upcard, and this stock on top (the rest of
    the stock in card order)."""
    first, second = parse_cards(nondealer), parse_cards(dealer)
    assert len(first) == len(second) == 10
    top = parse_cards([upcard, *stock])
    stacked = [*first, *second, *top]
    assert len(set(stacked)) == len(stacked), (
        f"stacked twice: {sorted(nondealer + dealer + [upcard, *stock])}"
    )
    deck: list[int] = []
    for a, b in zip(first, second, strict=True):
        deck += [a, b]
    deck += top
    rest = [c for c in range(52) if c not in set(deck)]
    deck += rest
    assert sorted(deck) == list(range(52)), "the same card was stacked twice"
    return deck


def stacked_hand(
    nondealer: Sequence[str],
    dealer: Sequence[str],
    upcard: str,
    stock: Sequence[str] = (),
    rules: Rules | None = None,
    dealer_seat: int = 0,
) -> Hand:
    return Hand.deal(rules or Rules(), dealer_seat, stacked_deck(nondealer, dealer, upcard, stock))


class StackedRandom(random.Random):
    """A random source whose shuffles deal the given decks in turn (then shuffle for real)."""

    def __init__(self, decks: Sequence[list[int]], seed: int = 0) -> None:
        super().__init__(seed)
        self.decks = list(decks)

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        if self.decks:
            x[:] = self.decks.pop(0)
        else:
            super().shuffle(x)


GIN_HAND = ["8S", "8H", "8D", "2C", "3C", "4C", "5C", "KS", "KH", "KD"]
LOSER_HAND = ["9H", "TH", "JH", "QH", "AD", "2D", "3D", "4D", "KC", "8C"]  # deadwood 18


def gin_deck(winner_is_nondealer: bool = True) -> list[int]:
    """A deck where the non-dealer (or the dealer) can go gin at the first draw: 18 + 25 = 43 points."""
    if winner_is_nondealer:
        return stacked_deck(GIN_HAND, LOSER_HAND, "6S", ["6H"])
    return stacked_deck(LOSER_HAND, GIN_HAND, "6S", ["7D", "6H"])


def play_gin(game: Game, rng: random.Random) -> None:
    """Play a hand dealt from gin_deck(): the gin holder ends it at once."""
    hand = game.hand
    assert hand is not None
    nondealer = 1 - hand.dealer
    holder = nondealer if hand.hands[nondealer] >> parse_cards(["8S"])[0] & 1 else hand.dealer
    game.apply(nondealer, {"type": "pass"})
    game.apply(hand.dealer, {"type": "pass"})
    if holder == nondealer:
        game.apply(nondealer, {"type": "draw", "source": "stock"})
        game.apply(nondealer, {"type": "knock", "discard": "6H"})
    else:
        game.apply(nondealer, {"type": "draw", "source": "stock"})
        game.apply(nondealer, {"type": "discard", "card": "7D"})
        game.apply(holder, {"type": "draw", "source": "stock"})
        game.apply(holder, {"type": "knock", "discard": "6H"})


def run_gins(rules: Rules, winners: list[bool], first_dealer: int = 0) -> Game:
    """Play hands that each end in a 43-point gin; winners[i] says whether the non-dealer has it."""
    rng = StackedRandom([gin_deck(w) for w in winners])
    game = Game.new(rules, rng, first_dealer=first_dealer)
    for i in range(len(winners)):
        if i:
            game.apply(0, {"type": "deal"}, rng=rng)
        play_gin(game, rng)
    return game
