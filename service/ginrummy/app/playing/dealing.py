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
    """A secure random source, or with a test seed a reproducible one per hand."""
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


def searching_bot(match: Match) -> bool:
    """Whether the match's house bot is one whose decisions cost too much CPU for a web request."""
    bot_seat = match.meta.bot_seat
    if bot_seat is None:
        return False
    name = match.meta.seats[bot_seat].bot
    return name in bots.BOTS and bots.BOTS[name].searches


def awaits_bot_worker(match: Match) -> bool:
    """Whether a searching bot is to act: its turn is queued for the bot workers."""
    game = match.game
    return searching_bot(match) and not game.match_over and game.to_act == match.meta.bot_seat


def bot_replies(match: Match, *, search: bool = False) -> list[Event]:
    """While the house bot is to act, let it act (in this same request). A searching bot acts only with
    ``search`` (in a bot worker): a web request leaves its turn to the workers."""
    bot_seat = match.meta.bot_seat
    game = match.game
    out: list[Event] = []
    if bot_seat is None or (searching_bot(match) and not search):
        return out
    name = match.meta.seats[bot_seat].bot
    assert name is not None
    step = 0
    while not game.match_over and game.to_act == bot_seat:
        if step >= MAX_BOT_STEPS:
            raise RuntimeError("the bot did not finish its turn")
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
