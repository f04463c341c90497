"""The master: determinized search over the expert's candidate moves.

The expert follows rules; the master checks them by play. At each draw and discard it

1. lists the candidates: take the top discard or not (unless the card melds with nothing and is not
   low); the expert's best discards, and knocking with the best knock discard when the rules allow it
   (gin and big gin are played at once);
2. samples ``samples`` *determinizations* of what it cannot see — the opponent's hidden cards and the
   stock's order — consistent with its view: the opponent holds the cards it was seen taking from the
   pile, its other cards are drawn from the unseen ones with the expert's bias towards hands that
   kept the best of what they saw, conditioned on its last discard as an eager or a patient knocker
   would have made it, in the proportion the match's finished hands suggest
   (:func:`~ginrummy.bots.evaluate.modeled_opponent_hands`, :func:`eager_share`), and the rest of the
   unseen cards, shuffled, are the stock;
3. plays every candidate out to the end of the hand in every determinization (the same samples for
   every candidate: common random numbers, so the differences between candidates are sharp) with a
   fast playout policy for both seats — take a pile card that lowers the deadwood by enough, discard
   to the least deadwood, knock when the deadwood allows — on plain bitmasks, and scores the hand
   points as the rules do (lay-offs, gin and undercut bonuses; a wall scores nothing). A knock needs
   no play-out: it is scored against each sampled opponent hand after its lay-offs;
4. keeps the expert's move unless another candidate is better on average: every candidate is played
   in :attr:`MasterBot.first_samples` deals; when one beats the expert's move, those two are played in
   :attr:`MasterBot.second_samples` more, and the challenger wins only if it gains more than
   :attr:`MasterBot.margin` points *and* ``z`` standard errors of the paired differences. The search
   corrects the expert where the play-outs clearly disagree rather than replacing its judgement by a
   noisy estimate.

Its decision is a function of the view and its seed alone: the random source of each decision is
seeded from the bot's seed and a digest of the view, so a bot asked twice about one view answers the
same, whatever it was asked in between, and no clock is read (the budget is a number of play-outs).
Standard library only, like every bot.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ginrummy.engine.cards import CARD_VALUES, cards_of, parse_card
from ginrummy.engine.melds import knock_min, min_deadwood

from .analysis import (
    NEIGHBOURS,
    Action,
    Knowledge,
    View,
    arrangement_melds,
    defender_deadwood,
    read_view,
)
from .base import Turn, play_actions, read_turn
from .evaluate import KnockEstimate, knock_against, modeled_opponent_hands
from .expert import ExpertBot, Scored

WALL_STOCK = 2
"""The hand is a wall when a discard leaves this many cards in the stock (the engine's rule)."""
LOW_CARD = 4
"""A pile card below this value may be worth taking to cut deadwood even when it melds with nothing."""


@dataclass(frozen=True)
class Scoring:
    """What a finished hand is worth, from the rules in the view."""

    knock_limit: int
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    big_gin: bool = True
    fiftieth_card: bool = False  # the tournament wall rule: the last discard may be taken to knock
    multiplier: int = 1  # 2 when a spade upcard doubles the hand (Oklahoma)
    max_discard_draws: int = 50  # an ordinary discard once the pile was drawn from this often: no score

    @classmethod
    def of(cls, view: View, know: Knowledge) -> Scoring:
        rules: dict[str, Any] = view.get("rules") or {}
        return cls(
            knock_limit=know.knock_limit,
            gin_bonus=int(rules.get("gin_bonus", 25)),
            big_gin_bonus=int(rules.get("big_gin_bonus", 31)),
            undercut_bonus=int(rules.get("undercut_bonus", 25)),
            undercut_on_tie=bool(rules.get("undercut_on_tie", True)),
            big_gin=bool(rules.get("big_gin", True)),
            fiftieth_card=rules.get("wall") == "fiftieth_card",
            multiplier=2 if view.get("spades_double") else 1,
            max_discard_draws=int(rules.get("max_discard_draws", 50)),
        )

    def knock(self, knocker10: int, dw: int, defender: int) -> int:
        """The knocker's points (negative: the defender's) for a knock laying down ``knocker10``."""
        if dw == 0:
            return self.gin_bonus + min_deadwood(defender)
        od = defender_deadwood(defender, arrangement_melds(knocker10))
        if od > dw:
            return od - dw
        if od < dw or self.undercut_on_tie:
            return -(dw - od + self.undercut_bonus)
        return 0


@dataclass
class Deal:
    """One determinization in play: both hands (seat 0 is the master), the stock (top last), the pile,
    and how often the pile was drawn from this hand."""

    hands: list[int]
    stock: list[int]
    pile: list[int]
    pile_draws: int = 0

    def take(self, seat: int) -> int:
        """Seat ``seat`` draws the pile's top card; returns it."""
        card = self.pile.pop()
        self.hands[seat] |= 1 << card
        self.pile_draws += 1
        return card


@dataclass(frozen=True)
class Policy:
    """The play-out policy of both seats: cheap rules on bitmasks."""

    take_gain: int = 3  # take the pile card when it lowers the deadwood by at least this much
    knock_at: int = 10  # knock with at most this much deadwood (and within the knock limit) ...
    knock_late: int = 10  # ... or, once the stock is down to this many cards, whenever allowed

    def takes(self, hand: int, top: int) -> bool:
        return min_deadwood(hand) - knock_min(hand | 1 << top, forbidden=top) >= self.take_gain

    def discard(self, hand: int, forbidden: int | None) -> tuple[int, int]:
        """(card, deadwood left): the least deadwood, the highest card on ties."""
        best_card, best_dw, best_value = -1, 1 << 30, -1
        for card in cards_of(hand):
            if card == forbidden:
                continue
            dw = min_deadwood(hand & ~(1 << card))
            if dw < best_dw or (dw == best_dw and CARD_VALUES[card] > best_value):
                best_card, best_dw, best_value = card, dw, CARD_VALUES[card]
        return best_card, best_dw

    def knocks(self, dw: int, limit: int, stock: int) -> bool:
        return dw <= limit and (dw == 0 or dw <= self.knock_at or stock <= self.knock_late)


def at_the_wall(deal: Deal, thrower: int, card: int, scoring: Scoring, policy: Policy) -> int:
    """Seat 0's points once ``thrower``'s discard of ``card`` left the stock at the wall: nothing, unless
    the fiftieth-card rule lets the other seat take it to knock (then it does, with its best discard)."""
    other = 1 - thrower
    hand = deal.hands[other] | 1 << card
    if not scoring.fiftieth_card or knock_min(hand, forbidden=card) > scoring.knock_limit:
        return 0
    throw, dw = policy.discard(hand, card)
    hand10 = hand & ~(1 << throw)
    points = scoring.knock(hand10, dw, deal.hands[thrower])
    return points if other == 0 else -points


def play_out(deal: Deal, turn: int, taken: int | None, scoring: Scoring, policy: Policy) -> int:
    """Plays the hand to its end from ``turn`` holding 11 cards (``taken``: the card it may not throw).

    Returns seat 0's points (negative when seat 1 scores).
    """
    hands, stock, pile = deal.hands, deal.stock, deal.pile
    while True:
        hand = hands[turn]
        if scoring.big_gin and min_deadwood(hand) == 0:
            points = scoring.big_gin_bonus + min_deadwood(hands[1 - turn])
            return points if turn == 0 else -points
        card, dw = policy.discard(hand, taken)
        hand &= ~(1 << card)
        hands[turn] = hand
        if policy.knocks(dw, scoring.knock_limit, len(stock)):
            points = scoring.knock(hand, dw, hands[1 - turn])
            return points if turn == 0 else -points
        pile.append(card)
        if len(stock) <= WALL_STOCK:
            return at_the_wall(deal, turn, card, scoring, policy)
        if deal.pile_draws >= scoring.max_discard_draws:
            return 0  # the limit of discard draws: the hand ends with no score, as at a wall
        turn = 1 - turn
        if policy.takes(hands[turn], card):
            taken = deal.take(turn)
        else:
            taken = None
            hands[turn] |= 1 << stock.pop()


def draw_then_play(deal: Deal, turn: int, scoring: Scoring, policy: Policy, stock_only: bool = False) -> int:
    """Seat ``turn`` draws (by the policy, or from the stock when ``stock_only``), then the hand goes on."""
    top = deal.pile[-1] if deal.pile else None
    hand = deal.hands[turn]
    if top is not None and not stock_only and policy.takes(hand, top):
        return play_out(deal, turn, deal.take(turn), scoring, policy)
    deal.hands[turn] = hand | 1 << deal.stock.pop()
    return play_out(deal, turn, None, scoring, policy)


def decision_seed(seed: int, view: View) -> int:
    """A seed for one decision from the bot's seed and everything in the view (and nothing else) — but
    resign and abort, which a view may list or not and a bot never plays."""
    played = {**view, "legal_actions": play_actions(view)}
    text = json.dumps(played, sort_keys=True, default=str, separators=(",", ":"))
    digest = hashlib.blake2b(f"{seed}:{text}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass
class Candidate:
    """A move under evaluation: its action and its points in each determinization."""

    scored: Scored
    points: list[int]

    @property
    def mean(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0


@dataclass(frozen=True)
class Estimate:
    """A move judged by play-outs: its mean hand points for the seat (negative: the opponent's) over
    ``deals`` sampled deals (0: a move with nothing to weigh it against), and the expert's words on it
    (a knock: with the expert's sampled ``undercut`` risk, 0–1)."""

    action: Action
    points: float
    deals: int
    explanation: str
    undercut: float | None = None


EAGER_PRIOR = 0.5
"""The chance, before any evidence, that the opponent knocks as soon as it may (see :func:`eager_share`)."""
DEFENDED_LOW = (0.08, 0.55)
"""The chance that an eager (first) or a patient (second) opponent defends a knock or gin holding
no more deadwood than the knock limit, after its lay-offs: measured, the EAAI baseline against the
expert's knocks (81 hands) and the expert against its own (159)."""
WALL_LOW = (0.02, 0.9)
"""The same at a wall: an eager opponent never sits on a knockable hand."""


def eager_share(view: View) -> float:
    """The chance that the opponent knocks as soon as the rules let it rather than waiting, from the
    finished hands of the match (public): each hand in which it defended a knock or gin of this seat's,
    or that ended at the wall, says whether it held a knockable hand without knocking. Bayes' rule from
    :data:`EAGER_PRIOR` with the likelihoods :data:`DEFENDED_LOW` and :data:`WALL_LOW`, kept within
    [0.03, 0.97] so that both models keep a few samples."""
    seat = view.get("seat") or 0
    opponent = 1 - seat
    limit = int((view.get("rules") or {}).get("knock_limit", 10))
    odds = EAGER_PRIOR / (1 - EAGER_PRIOR)
    for hand in view.get("hands") or []:
        deadwood = hand.get("deadwood")
        if not deadwood:
            continue
        if hand.get("knocker") == seat:
            eager, patient = DEFENDED_LOW
        elif hand.get("end") == "wall":
            eager, patient = WALL_LOW
        else:
            continue
        if deadwood[opponent] > limit:
            eager, patient = 1 - eager, 1 - patient
        odds *= eager / patient
    return min(0.97, max(0.03, odds / (1 + odds)))


SEARCHED = ("offer", "draw", "discard")
"""The kinds of decision the master searches (:func:`~ginrummy.bots.base.read_turn`); the others — a
deal, lay-offs, the fiftieth card — have one sound move it plays as the expert does."""


class MasterBot(ExpertBot):
    """Determinized search: the expert's candidate moves played out over sampled deals."""

    name = "master"
    level = 6
    searches = True
    description = (
        "Searches: samples the hidden cards consistently with what it has seen and plays each candidate "
        "move out to the end of the hand."
    )

    # Search knobs. The budget is a number of play-outs, never a clock: the decision must not depend
    # on how loaded the machine is.
    first_samples = 16  # deals for every candidate
    second_samples = 48  # more deals for the expert's move and the best challenger
    max_candidates = 5  # discards searched (besides the knock)
    margin = 1.0  # points: what another move must gain on average to overrule the expert ...
    z = 1.5  # ... and by how many standard errors of the paired differences
    policy = Policy()

    analysis_samples = 64  # deals per candidate in :meth:`analyse` (hints, reviews)

    knock_samples = 64  # (the expert's 128, each now the likeliest of up to 8 candidates)
    eager = EAGER_PRIOR  # the decision's :func:`eager_share`

    def choose(self, view: View) -> Action:
        self.rng = random.Random(decision_seed(self.seed, view))
        self.eager = eager_share(view)
        return super().choose(view)

    def analyse(
        self,
        view: View,
        also: Sequence[Action] = (),
        samples: int | None = None,
        only: Sequence[Action] | None = None,
    ) -> list[Estimate]:
        """The moves the master weighs at this decision — and ``also`` (a move played, to judge it) —
        each played out over the same ``samples`` deals (:attr:`analysis_samples`): best first. With
        ``only``, those moves alone (to weigh a few of them again over more deals).

        A decision it does not search (see :data:`SEARCHED`) or with one legal move gets that move alone,
        with ``deals`` 0. Like :meth:`choose`, a function of the view and the seed alone."""
        self.rng = random.Random(decision_seed(self.seed, view))
        self.eager = eager_share(view)
        turn = read_turn(view)
        if len(turn.legal) == 1 or turn.kind not in SEARCHED:
            action = super().choose(view)
            return [Estimate(action, 0.0, 0, self.rank(view, read_view(view), turn)[0].explanation)]
        know = read_view(view)
        ranked = self.rank(view, know, turn)
        words = [(s.action, s.explanation) for s in ranked]  # the expert's, for every move it ranked
        if turn.kind == "discard":
            knocks = [s for s in ranked if s.action.get("type") == "knock" and s.action.get("discard")][:1]
            discards = [s for s in ranked if s.action.get("type") == "discard"][: self.max_candidates]
            big_gin = [s for s in ranked if s.action is turn.big_gin]
            ranked = big_gin + knocks + discards
        considered = [s.action for s in ranked]
        ranked += [
            Scored(a, float("-inf"), next((w for b, w in words if b == a), ""))
            for a in also
            if a not in considered
        ]
        if only is not None:
            ranked = [s for s in ranked if s.action in only]
        candidates = [Candidate(s, []) for s in ranked]
        self.play(view, know, candidates, samples or self.analysis_samples, Scoring.of(view, know))
        candidates.sort(key=lambda c: -c.mean)
        return [
            Estimate(c.scored.action, c.mean, len(c.points), c.scored.explanation, c.scored.undercut)
            for c in candidates
        ]

    def choose_draw(self, view: View, know: Knowledge, turn: Turn) -> Action:
        ranked = self.rank_draw(view, know, turn)
        top = know.top
        if len(ranked) < 2 or top is None:
            return ranked[0].action
        if not know.hand & NEIGHBOURS[top] and CARD_VALUES[top] >= LOW_CARD:
            return ranked[0].action  # it melds with nothing and is not low: no reason to take it
        return self.search(view, know, ranked).action

    def choose_discard(self, view: View, know: Knowledge, turn: Turn) -> Action:
        ranked = self.rank_discard(view, know, turn)
        first = ranked[0].action
        if len(ranked) < 2 or first is turn.big_gin or self.is_gin(know, first):
            return first
        knocks = [s for s in ranked if s.action.get("type") == "knock"][:1]
        discards = [s for s in ranked if s.action.get("type") == "discard"][: self.max_candidates]
        candidates = sorted(knocks + discards, key=lambda s: -s.value)
        if len(candidates) < 2:
            return first
        return self.search(view, know, candidates).action

    @staticmethod
    def is_gin(know: Knowledge, action: Action) -> bool:
        if action.get("type") != "knock" or action.get("discard") is None:
            return False
        return min_deadwood(know.hand & ~(1 << parse_card(action["discard"]))) == 0

    # ------------------------------------------------------------------------------------- search

    def search(self, view: View, know: Knowledge, ranked: list[Scored]) -> Scored:
        """The expert's first choice, unless the play-outs clearly prefer another candidate.

        Two rounds: every candidate over :attr:`first_samples` deals; then, if some candidate beats the
        expert's on average, those two alone over :attr:`second_samples` more deals, and the verdict.
        """
        scoring = Scoring.of(view, know)
        candidates = [Candidate(s, []) for s in ranked]
        self.play(view, know, candidates, self.first_samples, scoring)
        default = candidates[0]
        best = max(candidates, key=lambda c: c.mean)
        if best is default:
            return default.scored
        self.play(view, know, [default, best], self.second_samples, scoring)
        return self.pick(default, best).scored

    def play(
        self, view: View, know: Knowledge, candidates: list[Candidate], samples: int, scoring: Scoring
    ) -> None:
        """Adds each candidate's points in ``samples`` new deals (the same deals for every candidate)."""
        for deal in self.determinize(know, samples):
            for candidate in candidates:
                points = self.evaluate(view, know, candidate.scored.action, deal, scoring)
                candidate.points.append(scoring.multiplier * points)

    def pick(self, default: Candidate, best: Candidate) -> Candidate:
        """``best`` if it beats the expert's choice by the margin and by ``z`` standard errors."""
        diffs = [b - a for a, b in zip(default.points, best.points, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        error = math.sqrt(var / n)
        return best if mean > self.margin and mean > self.z * error else default

    def determinize(self, know: Knowledge, samples: int) -> list[Deal]:
        """Sampled deals consistent with the view: the opponent's hand, then the stock in random order."""
        hands = modeled_opponent_hands(know, self.rng, samples, self.eager, self.sample_extra)
        deals = []
        for opp in hands:
            stock = cards_of(know.unseen & ~opp)
            self.rng.shuffle(stock)
            stock = stock[: max(0, know.stock_size)]
            deals.append(Deal([know.hand, opp], stock, list(know.discard_pile), know.pile_draws))
        return deals

    def knock_estimate(self, view: View, know: Knowledge, hand10: int) -> KnockEstimate:
        """The expert's estimate (its knock rule reads it), against hands of the opponent modelled."""
        hands = modeled_opponent_hands(know, self.rng, self.knock_samples, self.eager, self.sample_extra)
        scoring = Scoring.of(view, know)
        return knock_against(hand10, hands, scoring.undercut_bonus, scoring.undercut_on_tie)

    def evaluate(self, view: View, know: Knowledge, action: Action, sample: Deal, scoring: Scoring) -> int:
        """Seat 0's (the master's) points for ``action`` in one determinization."""
        deal = Deal(list(sample.hands), list(sample.stock), list(sample.pile), sample.pile_draws)
        kind = action.get("type")
        if kind == "knock":
            if action.get("discard") is None:  # big gin: all eleven cards melded
                return scoring.big_gin_bonus + min_deadwood(deal.hands[1])
            card = parse_card(action["discard"])
            hand10 = know.hand & ~(1 << card)
            return scoring.knock(hand10, min_deadwood(hand10), deal.hands[1])
        if kind == "discard":
            card = parse_card(action["card"])
            deal.hands[0] &= ~(1 << card)
            deal.pile.append(card)
            if len(deal.stock) <= WALL_STOCK:
                return at_the_wall(deal, 0, card, scoring, self.policy)
            if deal.pile_draws >= scoring.max_discard_draws:
                return 0
            return draw_then_play(deal, 1, scoring, self.policy)
        if kind == "draw" and action.get("source") == "discard":
            return play_out(deal, 0, deal.take(0), scoring, self.policy)
        return self.decline(view, deal, action, scoring)

    def decline(self, view: View, deal: Deal, action: Action, scoring: Scoring) -> int:
        """Drawing from the stock, or passing the upcard (then the other seat is offered it or draws)."""
        if action.get("type") != "pass":
            deal.hands[0] |= 1 << deal.stock.pop()
            return play_out(deal, 0, None, scoring, self.policy)
        if view.get("phase") == "upcard_nondealer":
            if self.policy.takes(deal.hands[1], deal.pile[-1]):
                return play_out(deal, 1, deal.take(1), scoring, self.policy)
            return draw_then_play(deal, 0, scoring, self.policy, stock_only=True)
        return draw_then_play(deal, 1, scoring, self.policy, stock_only=True)
