"""Dealing and the house bots: a new match's first deal, every deal's shuffle commitment (see
:mod:`ginrummy.app.playing.fairness`), and the bot's replies — played in the same request as the move
they answer, except a searching bot's (the master's), which a bot worker plays
(:mod:`ginrummy.app.playing.bot_turns`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import random
import time
from typing import Any

from ginrummy import bots
from ginrummy.engine import Action, Event, Game, Rules, seat_view, texts
from ginrummy.engine.errors import GinRummyError
from ginrummy.engine.game import cut_for_dealer

from .. import metrics
from . import fairness
from .match import Match
from .metadata import MatchMeta, Shuffle
from .render import BOT_VIEW_OMITS

log = logging.getLogger(__name__)

MAX_BOT_STEPS = 400  # a hand cannot take this many bot moves in a row; a guard against a stuck loop


def dealing_rng(meta: MatchMeta, hand_number: int) -> random.Random:
    """A secure random source; with a duplicate pair's secret deal seed (a tournament's, the same for the
    pair's two matches) or a test seed, a reproducible one per hand."""
    if meta.deal_seed is not None:
        return random.Random(f"{meta.deal_seed}:{hand_number}")
    if meta.test_seed is not None:
        return random.Random(f"{meta.test_seed}:{hand_number}")
    return random.SystemRandom()


def start(
    game_id: str, meta: MatchMeta, rules: Rules, first_dealer: int | None = None
) -> tuple[Match, list[Event]]:
    """A new match (version 0) with its first hand dealt and committed to; the first dealer is cut for
    unless given (a rematch starts with the other one)."""
    dealer = cut_for_dealer(dealing_rng(meta, 0)) if first_dealer is None else first_dealer
    game, events = Game.start(rules, dealing_rng(meta, 0), first_dealer=dealer)
    match = Match(game_id, 0, dataclasses.replace(meta, first_dealer=dealer), game)
    return match, _committed(match, events)


def deal(match: Match) -> list[Event]:
    """Deal the next hand and commit to its deck order."""
    game = match.game
    events = game.apply(0, Action.deal(), rng=dealing_rng(match.meta, game.hand_number))
    return _committed(match, events)


def _committed(match: Match, events: list[Event]) -> list[Event]:
    """Publish the new hand's shuffle commitment in its deal event (and keep its salt, to reveal later)."""
    game = match.game
    salt = fairness.new_salt()
    commitment = fairness.commitment(salt, texts(list(game.hand_deck())))
    match.meta = dataclasses.replace(match.meta, shuffle=Shuffle(game.hand_number, salt, commitment))
    return [
        dataclasses.replace(e, data={**e.data, "commitment": commitment}) if e.type == "deal" else e
        for e in events
    ]


def decision_seed(salt: str, game_id: str, version: int, step: int) -> int:
    """A 63-bit seed for one bot decision, from the game's secret salt and public position: play is
    reproducible from the stored game, and yet no client can predict it."""
    raw = hashlib.sha256(f"{salt}\n{game_id}\n{version}\n{step}".encode()).digest()
    return int.from_bytes(raw[:8], "big") >> 1


def fallback_action(view: dict[str, Any]) -> dict[str, Any]:
    """What is played when a bot fails: the first legal play, preferring anything to a pass (never a
    resignation)."""
    legal: list[dict[str, Any]] = bots.play_actions(view)
    return next((a for a in legal if a.get("type") != "pass"), legal[0])


def bot_to_act(match: Match) -> int | None:
    """The house bot's seat whose move it is (None: a person's move, between hands, or the end)."""
    to_act = match.game.to_act
    return to_act if to_act is not None and match.meta.seats[to_act].is_bot else None


def bots_between_hands(match: Match) -> bool:
    """Whether two house bots (a tournament's match) are between hands: the next is dealt by
    :meth:`~ginrummy.app.playing.bot_turns.BotTurns.next_hand`, a commit of its own, so that every hand's
    record is kept as it ends."""
    game = match.game
    return all(seat.is_bot for seat in match.meta.seats) and not game.match_over and game.to_act is None


def searching_bot(match: Match) -> bool:
    """Whether the house bot to act (else the match's house bot) is one whose decisions cost too much CPU
    for a web request."""
    seat = bot_to_act(match)
    if seat is None:
        seat = match.meta.bot_seat
    if seat is None:
        return False
    name = match.meta.seats[seat].bot
    return name in bots.BOTS and bots.BOTS[name].searches


def awaits_bot_worker(match: Match) -> bool:
    """Whether a searching bot is to act: its turn is queued for the bot workers."""
    return bot_to_act(match) is not None and searching_bot(match)


def bot_replies(match: Match, *, search: bool = False) -> list[Event]:
    """While a house bot is to act, let it act (in this same request). A searching bot acts only with
    ``search`` (in a bot worker): a web request leaves its turn to the workers. Two house bots (a
    tournament's) play so to the end of the hand."""
    game = match.game
    out: list[Event] = []
    step = 0
    while (bot_seat := bot_to_act(match)) is not None:
        if searching_bot(match) and not search:
            break
        if step >= MAX_BOT_STEPS:
            raise RuntimeError("the bot did not finish its turn")
        name = match.meta.seats[bot_seat].bot
        assert name is not None
        view = seat_view(game, bot_seat, BOT_VIEW_OMITS)
        seed = decision_seed(match.meta.bot_salt, match.game_id, match.version, step)
        started = time.perf_counter()
        try:
            choice = dict(bots.make_bot(name, seed).choose(view))
        except Exception:  # a bot's bug must not block the game: log it and play a legal move
            log.exception("bot %s failed; playing a legal action instead", name)
            choice = fallback_action(view)
        metrics.observe_bot_decision(time.perf_counter() - started, name)
        try:
            out += game.apply(bot_seat, choice)
        except GinRummyError:
            log.exception("bot %s chose an illegal action %r; playing a legal one instead", name, choice)
            out += game.apply(bot_seat, fallback_action(view))
        step += 1
    return out
