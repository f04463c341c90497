"""``gin-bot run BOT --account``: a bot account at work — it listens on its account stream, accepts the
challenges that pass its filter (declining the others with the reason), sends challenges of its own
(``--challenge NAME``), and plays every game of the account at once, each on its own thread and its own
event stream, all with the account's API token (no seat token).

After a restart the stream, opened afresh, starts with a ``gameStart`` for every game in play: they are
played on from where they stand, and a game already in the ``--results`` file is not written twice. An
opponent that sits on its move is claimed (:class:`~gin_bot.play.Table`).

What a challenge may be is an :class:`Acceptance` (the ``--accept-…`` options); what to send, a
:class:`ChallengePlan` (``--challenge``). The run ends when the plan's challenges are answered and their
games over (or, accepting only, after ``--games`` games; 0: at Ctrl-C).

With ``--tournament ID`` the account joins that tournament first (or comes back to it): the director's
pairings come on the stream as ``gameStart`` like any game of the account and are played so, and the run
ends once the tournament is over (its status, read every :data:`TOURNAMENT_EVERY` seconds) and its games
are; Ctrl-C pauses the entry (withdraws it: no match is paired for a bot that is not there).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ginrummy_client import (
    AccountEvent,
    AccountStream,
    ChallengeClosed,
    ChallengeInfo,
    ChallengeNotFound,
    Client,
    ClockSpec,
    GinClientError,
    NotFound,
    RateLimited,
    Unauthorized,
)
from ginrummy_client.tournaments import OVER

from .play import (
    EXIT_ERRORS,
    EXIT_OK,
    GRACE,
    REFUSED,
    TRANSIENT,
    Follow,
    GameFailed,
    Patience,
    Refused,
    Run,
    Settings,
    Stopped,
)

log = logging.getLogger("gin_bot")

CLOCK_PRESETS: dict[str, tuple[int, int]] = {
    "blitz": (180, 2),
    "rapid": (600, 5),
    "classical": (1800, 10),
    "eaai": (30, 0),
}
"""The service's clock presets: (bank, increment) seconds (docs/api.md, *Clocks*). A challenge carries its
clock's numbers; this table only reads one from a service that sent the preset's name alone."""
MOVES_PER_MATCH = 40
"""How many moves a clock's increments are counted for (lichess's estimate of a game's length)."""
SETTLE_EVERY = 10.0
"""Seconds between two looks at the challenges sent and still open (besides the stream's news)."""
LOOP = 0.5
"""Seconds the run's loop waits for the account stream before it looks at everything else."""
TOURNAMENT_EVERY = 2.0
"""Seconds between two reads of the tournament's status (``--tournament``): is it over?"""
PRESENT_WAIT = 5.0
"""Seconds a run started again waits for the stream's first lines (the games in play) before it looks at
the games the last run had in hand."""


def clock_seconds(clock: Mapping[str, Any] | None) -> float | None:
    """A clock's length, the seconds each player has for a match as lichess estimates a game: its bank
    plus :data:`MOVES_PER_MATCH` increments (a per-move limit alone: that many moves of it). None for
    no clock; -1 for a preset this version does not know.

    >>> clock_seconds({"preset": "rapid", "per_move": None, "bank": 600, "increment": 5})
    800.0
    >>> clock_seconds({"bank": 60, "increment": 1}), clock_seconds(None), clock_seconds({"per_move": 10})
    (100.0, None, 400.0)
    >>> clock_seconds({"preset": "rapid"}), clock_seconds({"preset": "glacial"})  # a name alone
    (800.0, -1)
    """
    if not clock:
        return None
    bank, per_move = clock.get("bank"), clock.get("per_move")
    if bank is None and per_move is None and clock.get("preset") is not None:
        if clock["preset"] not in CLOCK_PRESETS:
            return -1
        preset_bank, increment = CLOCK_PRESETS[clock["preset"]]
        return float(preset_bank + MOVES_PER_MATCH * increment)
    if bank is not None:
        return float(bank + MOVES_PER_MATCH * (clock.get("increment") or 0))
    if per_move is not None:
        return float(MOVES_PER_MATCH * per_move)
    return None


def parse_clock(text: str) -> ClockSpec:
    """A clock as ``--clock`` takes it: a preset's name, ``BANK+INCREMENT`` seconds, or ``KEY=VALUE,…``
    of ``per_move``, ``bank`` and ``increment``. ValueError otherwise.

    >>> parse_clock("rapid"), parse_clock("300+5"), parse_clock("per_move=20,bank=600")
    ('rapid', {'bank': 300, 'increment': 5}, {'per_move': 20, 'bank': 600})
    """
    text = text.strip()
    if text in CLOCK_PRESETS:
        return text
    try:
        if "=" in text:
            clock = {key.strip(): int(value) for key, _, value in (p.partition("=") for p in text.split(","))}
            if clock and set(clock) <= {"per_move", "bank", "increment"}:
                return clock
        else:
            bank, _, increment = text.partition("+")
            return {"bank": int(bank), "increment": int(increment or 0)}
    except ValueError:
        pass
    presets = ", ".join(CLOCK_PRESETS)
    raise ValueError(f"a clock is a preset ({presets}), BANK+INCREMENT seconds or per_move=S, not {text!r}")


@dataclass(frozen=True)
class Acceptance:
    """Which challenges the account accepts (``--accept-…``); the others are declined with the reason
    the service's list has for it. None: anything goes.

    >>> only = Acceptance(families=frozenset({"oklahoma"}), casual=False, clock_max=900)
    >>> only.verdict({"rules": {"preset": "standard"}, "rated": True, "challenger": {"player": "Ann"}})
    'rules'
    >>> only.verdict({"rules": {"preset": "oklahoma"}, "rated": False, "challenger": {"player": "Ann"}})
    'rated'
    >>> only.verdict({"rules": {"preset": "oklahoma"}, "rated": True, "clock": {"preset": "classical"}})
    'too_slow'
    >>> only.verdict({"rules": {"preset": "oklahoma"}, "rated": True, "clock": {"preset": "blitz"}}) is None
    True
    """

    families: frozenset[str] | None = None
    rated: bool = True
    casual: bool = True
    clock_min: float | None = None
    clock_max: float | None = None
    players: frozenset[str] | None = None  # casefolded names

    def verdict(self, challenge: Mapping[str, Any]) -> str | None:
        """None to accept ``challenge``; else the reason to decline it with."""
        challenger = challenge.get("challenger") or {}
        who = str(challenger.get("player") or "").casefold()
        if self.players is not None and who not in self.players:
            return "generic"
        family = (challenge.get("rules") or {}).get("preset") or "standard"
        if self.families is not None and family not in self.families:
            return "rules"
        rated = bool(challenge.get("rated"))
        if rated and not self.rated:
            return "casual"  # "I take casual games only"
        if not rated and not self.casual:
            return "rated"  # "I take rated games only"
        if self.clock_min is None and self.clock_max is None:
            return None
        seconds = clock_seconds(challenge.get("clock"))
        if seconds is None:  # no clock: endless, as it were
            return "time_control" if self.clock_max is not None else None
        if seconds < 0:
            return "time_control"
        if self.clock_min is not None and seconds < self.clock_min:
            return "too_fast"
        if self.clock_max is not None and seconds > self.clock_max:
            return "too_slow"
        return None


@dataclass(frozen=True)
class ChallengePlan:
    """The challenges to send (``--challenge``): ``games`` of them to ``opponent`` under ``rules``, with
    ``clock``, ``rated`` or casual."""

    opponent: str
    games: int
    rules: Mapping[str, Any] = field(default_factory=lambda: {"preset": "standard"})
    clock: ClockSpec | None = None
    rated: bool = False


class AccountBot(Run):
    """The account mode of ``gin-bot``: see the module's docstring. ``accept`` None: challenges received
    are left alone (a run that only sends); ``plan`` None: none are sent. ``games``: with no plan, the
    games after which the run ends (0: until stopped). ``max_games``: games in play at once — challenges
    received beyond it wait (and are accepted when a game ends), none is sent. ``tournament``: the id of
    a tournament to join and play to its end."""

    refused_what = "the account's run"

    def __init__(
        self,
        settings: Settings,
        *,
        accept: Acceptance | None,
        plan: ChallengePlan | None,
        games: int = 0,
        max_games: int = 4,
        tournament: str | None = None,
    ) -> None:
        super().__init__(settings)
        self.accept = accept
        self.plan = plan
        self.games = games
        self.max_games = max_games
        self.tournament = tournament
        self._tournament_status = ""
        self._tournament_read_at = 0.0
        self.me = ""
        self._client = Client(settings.server, token=settings.token)
        results = settings.results
        playing = None if results is None else results.path.with_name(results.path.name + ".playing")
        self._journal = Journal(playing)
        self._threads: dict[str, threading.Thread] = {}  # every game seen, by id (never removed)
        self._waiting: dict[str, ChallengeInfo] = {}  # received, to accept once a game ends
        self._answered: set[str] = set()  # received challenges answered (or given up)
        self._sent_open: dict[str, ChallengeInfo] = {}
        self._sent = 0
        self._settle_at = 0.0
        self._send_after = 0.0
        self.counts = {
            "received": 0,
            "accepted": 0,
            "declined": 0,
            "sent": 0,
            "sent_accepted": 0,
            "refused": 0,
        }

    # --- the run -----------------------------------------------------------------------------------------

    def run(self) -> int:
        stream: Follow | None = None
        patience = Patience(self.stop)
        account_failed = False
        try:
            self._whoami()
            self._join()
            since: str | None = None
            in_hand = bool(self._journal.ids)  # games the last run had in hand: see once the present is in
            while not self.stop.is_set() and (in_hand or not self._done()):
                self._settle()
                self._accept_waiting()
                self._send()
                if stream is None:
                    stream = Follow(self._client.account.stream(since=since), "gin-bot-account-stream")
                # A stream opened afresh starts with the games in play: waited for, before the games in hand.
                for item in stream.next(PRESENT_WAIT if in_hand else LOOP):
                    if isinstance(item, dict):  # an event
                        self._on(cast(AccountEvent, item))
                        continue
                    # The stream gave up (or ended): a new one, from where this one stood.
                    since = self._stream_of(stream).last_id
                    stream.close()
                    stream = None
                    if isinstance(item, TRANSIENT):
                        patience.wait("the account stream", item)
                    elif isinstance(item, Exception):
                        raise item
                    break
                else:
                    patience.reset()
                if in_hand:
                    in_hand = False
                    self._in_hand()
        except Refused as refusal:
            self.refuse(refusal)
        except Stopped:
            pass
        except (GameFailed, GinClientError) as error:
            log.error("the account stream: %s", error)
            account_failed = True
            self.stop.set()
        finally:
            if stream is not None:
                stream.close()
        self._pause()
        self._wait_for_games()
        self._client.close()
        status = self.conclude()
        counts = self.counts
        print(
            f"challenges: received {counts['received']}, accepted {counts['accepted']}, declined "
            f"{counts['declined']}; sent {counts['sent']}, accepted {counts['sent_accepted']}, refused "
            f"{counts['refused']}",
            flush=True,
        )
        if status == EXIT_OK and (counts["refused"] or account_failed):
            return EXIT_ERRORS  # challenges sent were declined or expired, or the account stream failed
        return status

    def _in_hand(self) -> None:
        """The games the last run had in hand that the stream did not tell of as in play: they ended
        while no run was there (a resign, a claim, the opponent's gin) — read and written down."""
        for game_id in sorted(self._journal.ids):
            if game_id not in self._threads:
                self._start(game_id, "in hand when the last run stopped")

    @staticmethod
    def _stream_of(follow: Follow) -> AccountStream:
        feed = follow.feed
        assert isinstance(feed, AccountStream)
        return feed

    def _whoami(self) -> None:
        try:
            account = self._client.account.get()
        except Unauthorized as error:
            raise Refused(f"the token is no account's ({error})") from error
        self.me = account.get("name", "")
        credential = account.get("credential") or {}
        scopes = set(credential.get("scopes") or [])
        if not scopes & {"play", "bot"}:
            raise Refused(
                f"this token of {self.me} may not play (scopes {sorted(scopes)}): make an API token with "
                "scope bot (POST /v1/account/tokens)"
            )
        kind = "bot account" if account.get("bot") else "account"
        log.info("playing as the %s %s (%s)", kind, self.me, credential.get("kind", "token"))

    def _join(self) -> None:
        """``--tournament``: enter it (or come back after a pause)."""
        if self.tournament is None:
            return
        try:
            entered = self._client.tournaments.join(self.tournament)
        except REFUSED as refusal:
            raise Refused(f"tournament {self.tournament}: {refusal}") from refusal
        who = entered["player"]
        log.info("tournament %s: in, as %s; its pairings are played as they come", self.tournament, who)

    def _tournament_over(self) -> bool:
        """Whether the tournament is over (its status read again every :data:`TOURNAMENT_EVERY` s)."""
        assert self.tournament is not None
        if time.monotonic() >= self._tournament_read_at:
            self._tournament_read_at = time.monotonic() + TOURNAMENT_EVERY
            try:
                status = self._client.tournaments.get(self.tournament)["status"]
            except TRANSIENT as error:
                log.warning("tournament %s: %s", self.tournament, error)
                return False
            if status != self._tournament_status:
                log.info("tournament %s: %s", self.tournament, status)
            self._tournament_status = status
        return self._tournament_status in OVER

    def _pause(self) -> None:
        """A run stopped before its tournament is over pauses its entry (withdraws it)."""
        if self.tournament is None or not self.stop.is_set() or self._tournament_status in OVER:
            return
        try:
            self._client.tournaments.withdraw(self.tournament)
        except GinClientError as error:
            log.warning("tournament %s: could not pause (%s)", self.tournament, error)
            return
        log.info("tournament %s: paused (run again with --tournament to come back)", self.tournament)

    def _done(self) -> bool:
        """Whether the run has done what it was asked: the tournament over and its games too; the plan's
        challenges answered and their games over; accepting only, ``games`` games over."""
        if self._running():
            return False
        if self.tournament is not None:
            return self._tournament_over()
        if self.plan is not None:
            return bool(self.plan.games) and self._sent >= self.plan.games and not self._sent_open
        return bool(self.games) and self.tally.started >= self.games

    def _running(self) -> int:
        return sum(thread.is_alive() for thread in self._threads.values())

    def _wait_for_games(self) -> None:
        """Until the games have stopped (at most :data:`GRACE` seconds once the run is stopped)."""
        deadline = time.monotonic() + GRACE
        for thread in list(self._threads.values()):
            thread.join(max(0.0, deadline - time.monotonic()) if self.stop.is_set() else None)

    # --- the stream's news ---------------------------------------------------------------------------

    def _on(self, event: AccountEvent) -> None:
        if event["type"] == "gameStart" or event["type"] == "gameFinish":
            game = event["game"]
            now = "in play" if event["type"] == "gameStart" else "over"
            self._start(game["game_id"], f"{now}, against {game['opponent']['name']}")
            if self._sent_open:
                self._settle_at = 0.0  # a challenge of ours may have turned into this game
        elif event["type"] == "challenge":
            challenge = event["challenge"]
            if self._is_mine(challenge):
                self._received(challenge)
        elif event["type"] == "challengeCanceled":
            challenge_id = event["challenge"]["id"]
            if self._waiting.pop(challenge_id, None) is not None:
                log.info("challenge %s: cancelled by the challenger", challenge_id)
        elif event["type"] == "challengeDeclined":
            self._answer(event["challenge"])

    def _is_mine(self, challenge: Mapping[str, Any]) -> bool:
        opponent = challenge.get("opponent") or {}
        return str(opponent.get("player") or "").casefold() == self.me.casefold()

    # --- challenges received ------------------------------------------------------------------------

    def _received(self, challenge: ChallengeInfo) -> None:
        challenge_id = challenge["id"]
        if self.accept is None or challenge_id in self._answered or challenge_id in self._waiting:
            return
        self.counts["received"] += 1
        who = (challenge.get("challenger") or {}).get("name")
        reason = self.accept.verdict(challenge)
        if reason is None:
            if self._full():
                log.info("challenge %s from %s: waiting, accepted once a game ends", challenge_id, who)
            self._waiting[challenge_id] = challenge
            return
        self._answered.add(challenge_id)
        try:
            self._client.challenges.decline(challenge_id, reason)
        except ChallengeClosed:
            return
        except GinClientError as error:
            log.warning("challenge %s: could not decline it (%s)", challenge_id, error)
            return
        self.counts["declined"] += 1
        log.info("challenge %s from %s: declined (%s)", challenge_id, who, reason)

    def _full(self) -> bool:
        return self._running() >= self.max_games or self._limit_reached()

    def _limit_reached(self) -> bool:
        return self.plan is None and bool(self.games) and self.tally.started >= self.games

    def _accept_waiting(self) -> None:
        while self._waiting and not self._full() and not self.stop.is_set():
            challenge_id, challenge = next(iter(self._waiting.items()))
            try:
                game = self._client.challenges.accept(challenge_id)
            except TRANSIENT as error:
                log.warning("challenge %s: %s; accepting it again later", challenge_id, error)
                return
            except (ChallengeClosed, ChallengeNotFound) as error:
                log.info("challenge %s: no longer open (%s)", challenge_id, error)
            except GinClientError as error:
                log.warning("challenge %s: could not accept it (%s)", challenge_id, error)
            else:
                self.counts["accepted"] += 1
                who = (challenge.get("challenger") or {}).get("name")
                self._start(game.game_id, f"challenge {challenge_id} from {who} accepted")
            del self._waiting[challenge_id]
            self._answered.add(challenge_id)

    # --- challenges sent ------------------------------------------------------------------------------

    def _send(self) -> None:
        plan = self.plan
        if plan is None or self.stop.is_set() or time.monotonic() < self._send_after:
            return
        while (not plan.games or self._sent < plan.games) and self._running() + len(
            self._sent_open
        ) < self.max_games:
            try:
                made = self._client.challenges.create(
                    plan.opponent, rules=plan.rules, clock=plan.clock, rated=plan.rated
                )
            except RateLimited as error:
                self._send_after = time.monotonic() + (error.retry_after or 5.0)
                log.info("challenges: %s; the next in %.0f s", error, error.retry_after or 5.0)
                return
            except TRANSIENT as error:
                self._send_after = time.monotonic() + 2.0
                log.warning("challenges: %s; trying again", error)
                return
            except REFUSED as refusal:
                raise Refused(str(refusal)) from refusal
            self._sent += 1
            self.counts["sent"] += 1
            if made.game_id is not None:  # a house bot accepts at once
                self.counts["sent_accepted"] += 1
                self._start(made.game_id, f"challenge {made.id} to {plan.opponent} accepted")
            else:
                self._sent_open[made.id] = made.info
                number = f"{self._sent} of {plan.games}" if plan.games else str(self._sent)
                log.info("challenge %s: sent to %s (%s)", made.id, plan.opponent, number)

    def _settle(self) -> None:
        """What became of the challenges sent and still open: accepted (their games are played), or
        declined, cancelled or expired."""
        if not self._sent_open or time.monotonic() < self._settle_at:
            return
        self._settle_at = time.monotonic() + SETTLE_EVERY
        try:
            still_open = {challenge["id"] for challenge in self._client.challenges.list()["out"]}
            for challenge_id in [c for c in self._sent_open if c not in still_open]:
                self._answer(self._client.challenges.get(challenge_id))
        except GinClientError as error:
            log.warning("challenges: %s", error)

    def _answer(self, challenge: ChallengeInfo) -> None:
        """A challenge of ours was answered (or expired)."""
        if self._sent_open.pop(challenge["id"], None) is None:
            return
        game_id = challenge.get("game_id")
        if challenge.get("status") == "accepted" and game_id:
            self.counts["sent_accepted"] += 1
            self._start(game_id, f"challenge {challenge['id']} accepted")
            return
        self.counts["refused"] += 1
        why = challenge.get("decline_reason")
        status = challenge.get("status", "closed")
        log.warning("challenge %s: %s%s", challenge["id"], status, f" ({why})" if why else "")

    # --- the games ------------------------------------------------------------------------------------

    def _start(self, game_id: str, why: str = "") -> None:
        """Play the account's game ``game_id`` on a thread of its own, unless it is played already (or its
        result is written: a run started again); ``why`` is logged."""
        if game_id in self._threads or self.stop.is_set():
            return
        if self.results is not None and game_id in self.results:
            self._journal.discard(game_id)
            return
        if why:
            log.info("game %s: %s", game_id, why)
        self._journal.add(game_id)
        with self._lock:
            self.tally.started += 1
        thread = threading.Thread(target=self._game, args=(game_id,), name=f"gin-bot-{game_id}", daemon=True)
        self._threads[game_id] = thread
        thread.start()

    def _game(self, game_id: str) -> None:
        with Client(self.server, token=self.settings.token) as client:
            patience = Patience(self.stop)
            while True:
                try:
                    game = client.games.get(game_id)
                    break
                except TRANSIENT as error:
                    try:
                        patience.wait(f"game {game_id}", error)
                    except Stopped:
                        log.info("game %s: unfinished (stopped)", game_id)
                        return
                    except GameFailed as failed:
                        self.count("errors")
                        log.error("game %s: error, %s", game_id, failed)
                        return
                except GinClientError as error:
                    self.count("errors")
                    log.error("game %s: error, %s", game_id, error)
                    if isinstance(error, NotFound):  # gone (finished too long ago): nothing to come back to
                        self._journal.discard(game_id)
                    return
            self.play_game(client, game, patience)
        if self.results is not None and game_id in self.results:
            self._journal.discard(game_id)


class Journal:
    """The games a run has in hand and has not written down yet, kept in a file beside ``--results``
    (``<results>.playing``): a run started again after a crash plays or writes each of them — also one
    that ended while no run was there (its last view is still to be read), which no stream tells of
    again. Without ``--results``, kept in memory only."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.ids: set[str] = set()
        if path is not None and path.exists():
            try:
                found = json.loads(path.read_text(encoding="utf-8") or "[]")
            except ValueError:
                found = []
            self.ids = {game_id for game_id in found if isinstance(game_id, str)}

    def add(self, game_id: str) -> None:
        with self._lock:
            if game_id not in self.ids:
                self.ids.add(game_id)
                self._save()

    def discard(self, game_id: str) -> None:
        with self._lock:
            if game_id in self.ids:
                self.ids.discard(game_id)
                self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        spare = self.path.with_name(self.path.name + ".new")
        spare.write_text(json.dumps(sorted(self.ids)), encoding="utf-8")
        os.replace(spare, self.path)


def families(values: Iterable[str]) -> frozenset[str] | None:
    """``--accept-family standard,oklahoma`` (repeatable) as a set; None when none was given.

    >>> sorted(families(["standard, oklahoma", "straight"]))
    ['oklahoma', 'standard', 'straight']
    """
    found = frozenset(part.strip() for value in values for part in value.split(",") if part.strip())
    return found or None


def names(values: Iterable[str]) -> frozenset[str] | None:
    """``--accept-from Ann Bob,Cy`` as a set of casefolded names; None when none was given."""
    found = families(values)
    return None if found is None else frozenset(name.casefold() for name in found)
