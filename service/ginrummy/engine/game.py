"""A game (hands to the target, with bonuses) and a match (best of N games, or Hollywood's three at once).

>>> import random
>>> from ginrummy.engine.rules import Rules
>>> game = Game.new(Rules(), random.Random(1))
>>> game.hand_number, game.to_act in (0, 1), game.phase
(1, True, 'upcard_nondealer')
>>> rng = random.Random(2)
>>> while not game.match_over:
...     seat = game.to_act if game.to_act is not None else 0
...     _ = game.apply(seat, rng.choice(game.legal_actions(seat)), rng=rng)
>>> game.match_winner in (0, 1)
True

Ending a match early
--------------------
Besides the play (:meth:`Game.legal_actions`), a seat may end the match (:meth:`Game.ending_actions`):

- ``resign``: either seat, at any time until the match is over (whoever's turn it is, between hands too).
  It is a forfeit by that seat with the reason ``resigned``; the service forfeits a seat the same way
  (:meth:`Game.forfeit`) when it runs out of time (``timeout``) or has left the game (``abandoned``), and
  the arena (:mod:`ginrummy.arena`) a bot that answered an illegal move or raised (``disqualified``).
- ``abort``: either seat, while hand 1 is live and untouched (no card drawn or taken yet; passing the
  upcard does not count). The match ends with no winner and nothing scored.

A forfeit loses the match. Every game still being played (the latest one; in Hollywood each unfinished
one) is settled at once as though the opponent had just reached the target: the opponent's game bonus,
each player's box bonuses for the hands they won in it, the shutout if the forfeiting seat won no hand in
it, the hand points as they stand. The opponent wins that game even when the forfeiting seat's grand
total is higher. The live hand is abandoned: it scores nothing, has no summary and is never revealed.
In a best-of-N match the opponent is also credited with the games it still needed (games never played:
they have no score sheet), so that it has won the match by the count too; in Hollywood the games already
finished keep their winners. The events of a forfeit are a ``game_over`` per settled game and a
``match_over``, each with ``reason`` and ``forfeited_by``; an abort makes one ``match_over`` with
``reason: "aborted"``, ``aborted_by`` and no winner (its ``seat`` is None).

>>> game = Game.new(Rules(), random.Random(1), first_dealer=0)
>>> [a.to_json()["type"] for a in game.ending_actions(1)]
['resign', 'abort']
>>> [(e.type, e.seat, e.data["reason"]) for e in game.apply(0, Action.resign())]
[('game_over', 1, 'resigned'), ('match_over', 1, 'resigned')]
>>> game.phase, game.match_winner, game.end_reason, game.forfeited_by, game.ending_actions(1)
('match_over', 1, <MatchEnd.RESIGNED: 'resigned'>, 0, [])
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any

from . import shapes
from .actions import ABORT, DEAL, RESIGN, Action
from .cards import card_text, texts
from .errors import CannotUndoError, GameOverError, IllegalActionError, NotYourTurnError
from .hand import Event, Hand, HandEnd, HandOutcome, _event
from .melds import min_deadwood
from .rules import Rules

SEATS = (0, 1)
HOLLYWOOD_GAMES = 3


class MatchEnd(enum.StrEnum):
    """How a match ended before its games were played out (it equals its text: ``"resigned"``…)."""

    RESIGNED = "resigned"
    TIMEOUT = "timeout"
    ABANDONED = "abandoned"
    ABORTED = "aborted"
    DISQUALIFIED = "disqualified"  # the arena's: an illegal answer or an exception (the service refuses them)


FORFEITS = (MatchEnd.RESIGNED, MatchEnd.TIMEOUT, MatchEnd.ABANDONED, MatchEnd.DISQUALIFIED)


@dataclass
class GameScore:
    """The score sheet of one game: hand points, hands won, and the bonuses once it is over.
    ``forfeited_by``: the seat that forfeited the match while this game was being played."""

    number: int
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    reached_target: int | None = None
    forfeited_by: int | None = None

    @property
    def over(self) -> bool:
        return self.reached_target is not None or self.forfeited_by is not None

    def settle(self, rules: Rules) -> shapes.GameScore:
        """Bonuses, grand totals and the winner (meaningful once the game is over). A forfeited game is
        settled as though the opponent had reached the target, and the opponent wins it."""
        forfeited = self.forfeited_by
        winner_seat = self.reached_target if forfeited is None else 1 - forfeited
        game_bonus = [0, 0]
        box = [rules.box_bonus * won for won in self.hands_won]
        points = list(self.points)
        shutout = False
        if winner_seat is not None:
            game_bonus[winner_seat] = rules.game_bonus
            shutout = self.hands_won[1 - winner_seat] == 0 and rules.shutout != "none"
            if shutout and rules.shutout == "double_hand_points":
                points[winner_seat] *= 2
            elif shutout:
                game_bonus[winner_seat] *= 2
                box[winner_seat] *= 2
        grand = [points[s] + game_bonus[s] + box[s] for s in SEATS]
        # The higher grand total wins; a tie goes to the player who reached the target.
        winner = winner_seat
        if winner_seat is not None and grand[0] != grand[1] and forfeited is None:
            winner = 0 if grand[0] > grand[1] else 1
        return {
            "number": self.number,
            "points": list(self.points),
            "hands_won": list(self.hands_won),
            "over": self.over,
            "reached_target": self.reached_target,
            "forfeited_by": forfeited,
            "bonuses": {
                "game": game_bonus,
                "box": box,
                "shutout": shutout,
                "shutout_hand_points": [points[s] - self.points[s] for s in SEATS],
            },
            "grand_totals": grand,
            "winner": winner,
        }


@dataclass(frozen=True)
class HandSummary:
    """What the score sheet and the statistics keep of a finished hand."""

    number: int
    end: HandEnd
    winner: int | None
    points: int
    knocker: int | None
    deadwood: tuple[int, int]
    games: tuple[int, ...]  # the game numbers the points went to

    def to_json(self) -> shapes.HandSummary:
        return {
            "number": self.number,
            "end": self.end.value,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "deadwood": list(self.deadwood),
            "games": list(self.games),
        }


class Game:
    """A whole match under one set of rules: the live hand, the score sheets and the deal order."""

    def __init__(self, rules: Rules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer  # dealer of the live hand, or of the next one between hands
        self.hand: Hand | None = None
        self.hand_number = 0
        self.scores: list[GameScore] = (
            [GameScore(n + 1) for n in range(HOLLYWOOD_GAMES)] if rules.hollywood else [GameScore(1)]
        )
        self.games_won = [0, 0]
        self.summaries: list[HandSummary] = []
        self.match_winner: int | None = None
        self.end_reason: MatchEnd | None = None  # set when the match ended early (see the module docstring)
        self.forfeited_by: int | None = None

    @classmethod
    def new(cls, rules: Rules, rng: random.Random, *, first_dealer: int | None = None) -> Game:
        """A new match with its first hand dealt. The first dealer is cut for: higher card deals."""
        return cls.start(rules, rng, first_dealer=first_dealer)[0]

    @classmethod
    def start(
        cls, rules: Rules, rng: random.Random, *, first_dealer: int | None = None
    ) -> tuple[Game, list[Event]]:
        """:meth:`new`, with the events of the first deal."""
        game = cls(rules, cut_for_dealer(rng) if first_dealer is None else first_dealer)
        return game, game._deal(rng)

    # -- queries --------------------------------------------------------------------------------

    @property
    def match_over(self) -> bool:
        return self.match_winner is not None or self.end_reason is not None

    @property
    def hand_over(self) -> bool:
        return self.hand is None or self.hand.over

    @property
    def phase(self) -> str:
        """The hand's phase while it is live, else ``hand_over``, ``game_over`` or ``match_over``."""
        if self.match_over:
            return "match_over"
        if self.hand is not None and not self.hand.over:
            return self.hand.phase.value
        if self._last_hand_ended_a_game():
            return "game_over"
        return "hand_over"

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is; None between hands (either seat may deal) or when all is over."""
        if self.hand is None or self.hand.over or self.match_over:
            return None
        return self.hand.turn

    def legal_actions(self, seat: int) -> list[Action]:
        """The moves of the play `seat` may make now; resign and abort are :meth:`ending_actions`."""
        if self.match_over:
            return []
        if self.hand is None or self.hand.over:
            return [Action.deal()]
        return self.hand.legal_actions(seat)

    def ending_actions(self, seat: int) -> list[Action]:
        """What `seat` may do now to end the match early: resign until the match is over, and abort
        while it may still be called off."""
        if self.match_over or seat not in SEATS:
            return []
        return [Action.resign(), Action.abort()] if self.abort_allowed else [Action.resign()]

    @property
    def abort_allowed(self) -> bool:
        """Whether the match may still be called off: hand 1 is live and no card has been drawn in it."""
        hand = self.hand
        return (
            not self.match_over
            and self.hand_number == 1
            and hand is not None
            and not hand.over
            and hand.untouched
        )

    def hand_deck(self) -> tuple[int, ...]:
        """The live hand's deck order (server-side only: for the shuffle commitment)."""
        assert self.hand is not None
        return self.hand.deck

    def current_scores(self) -> list[GameScore]:
        """The games that are being played now (three in Hollywood, else the latest)."""
        return self.scores if self.rules.hollywood else self.scores[-1:]

    def _current_game_just_ended(self) -> bool:
        return all(score.over for score in self.current_scores())

    # -- moves ----------------------------------------------------------------------------------

    def apply(
        self, seat: int, action: Action | dict[str, Any], rng: random.Random | None = None
    ) -> list[Event]:
        """Validate and apply one seat's action; `rng` shuffles for a deal. Raises a GinRummyError and
        changes nothing when the action is not legal."""
        if seat not in SEATS:
            raise NotYourTurnError(f"there is no seat {seat!r}")
        action = Action.from_json(action)
        if self.match_over:
            raise GameOverError("the match is over")
        if action.type == RESIGN:
            return self.forfeit(seat, MatchEnd.RESIGNED)
        if action.type == ABORT:
            return self._abort(seat)
        if action.type == DEAL:
            if not self.hand_over:
                raise IllegalActionError("the hand is still being played")
            if rng is None:
                raise ValueError("dealing needs a random source")
            return self._deal(rng)
        if self.hand is None or self.hand.over:
            raise IllegalActionError(f"the hand is over: the next action is a deal, not {action.type}")
        events = self.hand.apply(seat, action)
        if self.hand.over:
            events += self._score_hand()
        return events

    def _deal(self, rng: random.Random) -> list[Event]:
        events: list[Event] = []
        if self._current_game_just_ended() and self.hand is not None:
            self.scores.append(GameScore(len(self.scores) + 1))
        deck = list(range(52))
        rng.shuffle(deck)
        self.hand = Hand.deal(self.rules, self.dealer, deck)
        self.hand_number += 1
        hand = self.hand
        events.append(
            _event(
                "deal",
                None,
                {s: {"cards": texts(hand.hands[s])} for s in SEATS},
                hand=self.hand_number,
                dealer=self.dealer,
                upcard=card_text(hand.upcard),
                stock_size=hand.stock_size,
                knock_limit=hand.knock_limit,
                spades_double=hand.spades_double,
                game=self.scores[-1].number,
            )
        )
        return events

    def _score_hand(self) -> list[Event]:
        hand = self.hand
        assert hand is not None and hand.outcome is not None
        outcome = hand.outcome
        winner = outcome.winner
        games: tuple[int, ...] = ()
        events: list[Event] = []
        if winner is not None:
            games = self._credit(winner, outcome)
        self.summaries.append(
            HandSummary(
                self.hand_number,
                outcome.end,
                winner,
                outcome.points,
                outcome.knocker,
                self._final_deadwood(),
                games,
            )
        )
        self.dealer = self._next_dealer(outcome)
        for score in self.scores:
            # A finished game takes no more points: a game credited by this hand and now over ended with it.
            if score.number in games and score.over:
                sheet = score.settle(self.rules)
                assert sheet["winner"] is not None  # a game over has a winner
                self.games_won[sheet["winner"]] += 1
                events.append(_event("game_over", sheet["winner"], **sheet))
        if self._current_game_just_ended():
            events += self._decide_match()
        return events

    def _credit(self, winner: int, outcome: HandOutcome) -> tuple[int, ...]:
        if self.rules.hollywood:
            wins = sum(1 for s in self.summaries if s.winner == winner) + 1
            targets = self.scores[: min(wins, HOLLYWOOD_GAMES)]
        else:
            targets = self.scores[-1:]
        credited = []
        for score in targets:
            if score.over:
                continue
            score.points[winner] += outcome.points
            score.hands_won[winner] += 1
            credited.append(score.number)
            if score.points[winner] >= self.rules.target:
                score.reached_target = winner
        return tuple(credited)

    def _games_needed(self) -> int:
        """How many games win the match: more than half."""
        return (HOLLYWOOD_GAMES if self.rules.hollywood else self.rules.games) // 2 + 1

    def _decide_match(self) -> list[Event]:
        """The games in play are all over: the match ends once a player has won enough of them."""
        leader = 0 if self.games_won[0] >= self.games_won[1] else 1
        if self.games_won[leader] >= self._games_needed() or self.rules.hollywood:
            self.match_winner = leader
            return [_event("match_over", leader, games_won=list(self.games_won))]
        return []

    def _last_hand_ended_a_game(self) -> bool:
        if self.hand is None or not self.hand.over or not self.summaries:
            return False
        last = self.summaries[-1]
        return last.number == self.hand_number and any(self.scores[n - 1].over for n in last.games)

    def _next_dealer(self, outcome: HandOutcome) -> int:
        if outcome.winner is None:
            return self.dealer if self.rules.redeal_after_wall == "same_dealer" else 1 - self.dealer
        rule = self.rules.next_dealer
        if rule == "loser":
            return 1 - outcome.winner
        if rule == "winner":
            return outcome.winner
        return 1 - self.dealer

    def _final_deadwood(self) -> tuple[int, int]:
        """Each seat's deadwood at the end of the hand (after lay-offs for the defender)."""
        hand = self.hand
        assert hand is not None
        if hand.knocker is not None:
            assert hand.knock_arrangement is not None and hand.defender_result is not None
            values = [0, 0]
            values[hand.knocker] = hand.knock_arrangement.deadwood
            values[1 - hand.knocker] = hand.defender_result.deadwood
            return values[0], values[1]
        return min_deadwood(hand.hands[0]), min_deadwood(hand.hands[1])

    # -- ending early ---------------------------------------------------------------------------

    def forfeit(self, seat: int, reason: str) -> list[Event]:
        """End the match with `seat` losing it, for `reason`: ``resigned`` (its ``resign``), ``timeout``
        or ``abandoned`` (claimed by the service), ``disqualified`` (the arena). Scored as the module
        docstring says; returns the events, like :meth:`apply`. Raises GameOverError once the match is
        over."""
        if seat not in SEATS:
            raise NotYourTurnError(f"there is no seat {seat!r}")
        if reason not in FORFEITS:
            raise ValueError(f"a forfeit is {', '.join(FORFEITS)}, not {reason!r}")
        if self.match_over:
            raise GameOverError("the match is over")
        why = MatchEnd(reason)
        winner = 1 - seat
        events: list[Event] = []
        for score in self.current_scores():
            if not score.over:
                score.forfeited_by = seat
                self.games_won[winner] += 1
                events.append(_event("game_over", winner, reason=why.value, **score.settle(self.rules)))
        if not self.rules.hollywood:
            # The games never played go to the opponent: as many as it still needed to win the match.
            self.games_won[winner] = max(self.games_won[winner], self._games_needed())
        self.match_winner, self.end_reason, self.forfeited_by = winner, why, seat
        events.append(
            _event("match_over", winner, games_won=list(self.games_won), reason=why.value, forfeited_by=seat)
        )
        return events

    def _abort(self, seat: int) -> list[Event]:
        if not self.abort_allowed:
            raise IllegalActionError(
                "a match can be aborted only before the first card of its first hand is drawn: resign instead"
            )
        self.end_reason = MatchEnd.ABORTED
        reason = MatchEnd.ABORTED.value
        return [_event("match_over", None, games_won=list(self.games_won), reason=reason, aborted_by=seat)]

    # -- undo -----------------------------------------------------------------------------------

    def undo(self, seat: int) -> int:
        """Take back `seat`'s last action in the live hand and everything after it, replaying the hand on
        the same deck (so the stock stays as it was). Returns how many actions were taken back. Nothing
        can be taken back once the hand is over, nor once someone has knocked: the knocker's cards are
        laid down for both to see (docs/rules.md)."""
        hand = self.hand
        if self.match_over:
            raise CannotUndoError("the match is over: nothing can be taken back")
        if hand is None or hand.over:
            raise CannotUndoError("only moves of a hand still being played can be taken back")
        if hand.knocker is not None:
            raise CannotUndoError("a knock has laid the knocker's cards down: nothing can be taken back now")
        last = self._last_action_of(seat)
        if last is None:
            raise CannotUndoError("you have made no move in this hand yet")
        self.hand = replay_hand(hand, len(hand.log) - last)
        return len(hand.log) - last

    def can_undo(self, seat: int) -> bool:
        """Whether :meth:`undo` would take something back for `seat` now."""
        hand = self.hand
        live = not self.match_over and hand is not None and not hand.over and hand.knocker is None
        return live and self._last_action_of(seat) is not None

    def _last_action_of(self, seat: int) -> int | None:
        assert self.hand is not None
        return max((i for i, e in enumerate(self.hand.log) if e.seat == seat), default=None)

    # -- statistics -----------------------------------------------------------------------------

    def stats(self) -> list[shapes.SeatStats]:
        """Per-seat figures over the finished hands of the match."""
        hands = self.summaries
        figures = [dict.fromkeys(_STAT_COUNTS, 0) for _ in SEATS]
        deadwood = [0, 0]
        counted = 0
        for h in hands:
            cancelled = h.end in (HandEnd.WALL, HandEnd.DRAW_LIMIT)
            if not cancelled:
                counted += 1
            if h.knocker is not None:
                figures[h.knocker]["knocks"] += 1
            for seat in SEATS:
                mine = figures[seat]
                if cancelled:
                    mine["walls"] += 1
                else:
                    deadwood[seat] += h.deadwood[seat]
                if h.winner == seat:
                    mine["hands_won"] += 1
                    mine["points"] += h.points
                    if h.end in _WIN_COUNTS:
                        mine[_WIN_COUNTS[h.end]] += 1
                elif h.end is HandEnd.UNDERCUT:
                    mine["undercuts_suffered"] += 1
        return [
            {
                "hands_played": len(hands),
                "hands_won": mine["hands_won"],
                "gins": mine["gins"],
                "big_gins": mine["big_gins"],
                "knocks": mine["knocks"],
                "undercuts_given": mine["undercuts_given"],
                "undercuts_suffered": mine["undercuts_suffered"],
                "walls": mine["walls"],
                "points": mine["points"],
                "avg_deadwood": round(deadwood[seat] / counted, 2) if counted else 0.0,
                "points_per_hand": round(mine["points"] / len(hands), 2) if hands else 0.0,
            }
            for seat, mine in zip(SEATS, figures, strict=True)
        ]


_STAT_COUNTS = (
    "hands_won", "gins", "big_gins", "knocks", "undercuts_given", "undercuts_suffered", "walls", "points",
)  # fmt: skip
_WIN_COUNTS = {HandEnd.GIN: "gins", HandEnd.BIG_GIN: "big_gins", HandEnd.UNDERCUT: "undercuts_given"}


def replay_hand(hand: Hand, drop: int = 0) -> Hand:
    """A fresh copy of `hand` rebuilt from its deal and its log, less the last `drop` actions."""
    copy = Hand.deal(hand.rules, hand.dealer, hand.deck)
    entries = hand.log[: len(hand.log) - drop]
    for entry in entries:
        copy.apply(entry.seat, entry.action)
    return copy


def cut_for_dealer(rng: random.Random) -> int:
    """Each seat cuts a card; the higher rank deals (ace low), equal ranks cut again."""
    while True:
        first, second = rng.sample(range(52), 2)
        if first % 13 != second % 13:
            return 0 if first % 13 > second % 13 else 1
