"""The director: runs tournaments — starts them at their time, pairs, opens each match, follows the
matches to their results, ends them — one step at a time (:meth:`Director.step`, called every second by
``ginrummy-director``, :mod:`ginrummy.director`).

Any number of directors may run (one per service instance, or a few): a director acts on a tournament
only while it holds the tournament's lease (:data:`LEASE_SECONDS`, renewed at each step), and each of its
writes is fenced by it (:mod:`ginrummy.store.tournaments`). A director killed mid-tournament is replaced
by another once its lease runs out; what it did is in PostgreSQL, so nothing is done twice:

- a pairing is written (with its game's id) before its game is made; a pairing whose game is missing
  gets its game from the next step, whoever runs it;
- a result is recorded once (the pairing must still be ``playing``), read from the game itself — in
  Redis while it is kept there, else in the archive — so a result that arrived while no director ran is
  found by the next one.

A match's clock is also enforced here: a player who never shows up loses on time without anyone having to
claim it (in a Swiss, a no-show is withdrawn).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import orjson

from ginrummy.store import StoreUnavailable
from ginrummy.store.database import DatabaseUnreachable
from ginrummy.store.tournaments import LeaseLost, TournamentLive, TournamentState, TournamentStore

from .. import security
from ..errors import ServiceError
from ..players.relations import Relations
from ..playing import dealing
from ..playing.bot_turns import BotTurns
from ..playing.forfeits import Life
from ..playing.match import Match
from ..playing.metadata import Seat
from ..playing.starting import Matches, bot_player
from ..playing.unit_of_work import UnitOfWork
from . import arena_pairing, berger, swiss_pairing
from .shown import pairing_json, tournament_json
from .standings import played, scored, standings

log = logging.getLogger(__name__)

LEASE_SECONDS = 5.0  # a director killed mid-tournament is replaced within this (plus one step)
RECENT_OPPONENTS = 3  # how many of an arena player's last opponents its pairing weighs
TOP = 10  # the standings a stream's line carries


def outcome_of(match: Match) -> dict[str, Any]:
    """A finished match's result as a pairing keeps it."""
    game, meta = match.game, match.meta
    reason = game.end_reason.value if game.end_reason else "finished"
    winner = game.match_winner
    if reason == "aborted":
        outcome = "aborted"
    elif winner is None:
        outcome = "drawn"
    else:
        outcome = f"seat{winner}"
    no_show = None
    if reason == "timeout" and winner is not None:
        loser = 1 - winner
        hand = game.hand
        never_moved = game.hand_number <= 1 and (hand is None or all(e.seat != loser for e in hand.log))
        no_show = loser if never_moved else None
    return {
        "status": "finished",
        "outcome": outcome,
        "end_reason": reason,
        "berserk0": 0 in meta.berserked,
        "berserk1": 1 in meta.berserked,
        "no_show": no_show,
    }


class Director:
    """Runs the tournaments that are due, one step at a time."""

    def __init__(
        self,
        store: TournamentStore,
        live: TournamentLive,
        matches: Matches,
        work: UnitOfWork,
        life: Life,
        bot_turns: BotTurns,
        relations: Relations,
        *,
        name: str | None = None,
    ) -> None:
        self.store = store
        self.live = live
        self.matches = matches
        self.work = work
        self.life = life
        self.bot_turns = bot_turns
        self.relations = relations
        # host:pid (the bot workers' way): a lease names the process that holds it.
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(2)}"

    def step(self) -> int:
        """One pass over the tournaments that are due; returns how many this director acted on."""
        acted = 0
        for tournament_id in self.store.due():
            if not self.store.take_lease(tournament_id, self.name, LEASE_SECONDS):
                continue
            try:
                with self._holding(tournament_id):
                    self.direct(tournament_id)
                acted += 1
            except LeaseLost:
                log.info("lost the lease of tournament %s to another director", tournament_id)
            except (StoreUnavailable, DatabaseUnreachable):
                raise  # the stores: the whole step waits (ginrummy.director)
            except Exception:  # one tournament's failure must not stop the others: logged, tried next step
                log.exception("director %s: tournament %s failed a step", self.name, tournament_id)
        return acted

    @contextmanager
    def _holding(self, tournament_id: str) -> Iterator[None]:
        """Renew the lease from a thread while a step of the tournament runs: a long one (a Swiss round of
        a thousand players is paired in tens of seconds) keeps it, and a director that dies loses it."""
        done = threading.Event()

        def renew() -> None:
            while not done.wait(LEASE_SECONDS / 3):
                try:
                    if not self.store.take_lease(tournament_id, self.name, LEASE_SECONDS):
                        return  # lost: the step's fenced writes will say so
                except Exception:  # PostgreSQL down: the lease runs out, another director takes over
                    log.warning("director %s: could not renew the lease of %s", self.name, tournament_id)

        renewer = threading.Thread(target=renew, name=f"lease {tournament_id}", daemon=True)
        renewer.start()
        try:
            yield
        finally:
            done.set()
            renewer.join()

    def release(self) -> None:
        """On a clean stop: hand every lease back at once (instead of after it runs out)."""
        for tournament_id in self.store.due():
            self.store.release_lease(tournament_id, self.name)

    # --- one tournament's step --------------------------------------------------------------------------
    def direct(self, tournament_id: str) -> None:
        state = self.store.state(tournament_id)
        if state is None:
            return
        if state.row["status"] == "created":
            self._start(state)
            state = self.store.state(tournament_id)
            assert state is not None
        changed = self._follow(state)
        if changed:
            state = self.store.state(tournament_id)
            assert state is not None
        step = {"arena": self._arena, "swiss": self._swiss, "round_robin": self._round_robin}
        changed = step[state.row["format"]](state) or changed
        if changed:
            self.publish_standings(tournament_id)

    def _start(self, state: TournamentState) -> None:
        row = state.row
        settings = row["settings"]
        extra: dict[str, Any] = {}
        ends_at = None
        if row["format"] == "arena":
            ends_at = time.time() + 60 * float(settings["minutes"])
        elif row["format"] == "round_robin":
            extra["schedule_rounds"] = len(self._schedule(state.entries, settings))
        self.store.start(row["id"], self.name, ends_at, extra)
        self.publish_standings(row["id"])

    def _follow(self, state: TournamentState) -> bool:
        """The matches in play: make any game still missing, enforce clocks, record the results."""
        changed = False
        for pairing in state.pairings:
            if pairing["status"] != "playing":
                continue
            try:
                match = self.work.load(pairing["game_id"])
            except ServiceError as error:
                if error.code != "game_not_found":
                    raise
                self._open(state, pairing)
                continue
            if not match.game.match_over and match.meta.clock is not None and not match.archived:
                match = self.life.enforce_clock(match)
            while dealing.bots_between_hands(match) and not match.archived:
                # Two house bots: a hand a commit, up to the end (or a searching bot's turn: a worker's).
                if self.bot_turns.next_hand(pairing["game_id"]) != "played":
                    break
                match = self.work.load(pairing["game_id"])
            if match.game.match_over:
                changed |= self._record(state, pairing, outcome_of(match))
        return changed

    def _record(self, state: TournamentState, pairing: Mapping[str, Any], result: dict[str, Any]) -> bool:
        tournament_id = state.row["id"]
        if not self.store.record(tournament_id, self.name, pairing["number"], result):
            return False
        if state.row["format"] == "swiss" and result.get("no_show") is not None:
            self.store.withdraw(tournament_id, self.name, pairing[f"seat{result['no_show']}"])
        done = {**pairing, **result}
        self._tell(tournament_id, "result", {"pairing": pairing_json(done, _bots(state.entries))})
        return True

    def _open(self, state: TournamentState, pairing: Mapping[str, Any]) -> None:
        """Make a pairing's game (again, if a director died between writing the pairing and making it)."""
        entries = {e["player"].casefold(): e for e in state.entries}
        seats = tuple(_seat(entries[pairing[f"seat{n}"].casefold()]) for n in (0, 1))
        row = state.row
        settings = row["settings"]
        arena_berserk = row["format"] == "arena" and bool(settings.get("berserk"))
        people = tuple(n for n in (0, 1) if not entries[pairing[f"seat{n}"].casefold()]["bot"])
        berserk = people if arena_berserk else ()
        try:
            self.matches.start_paired(
                pairing["game_id"],
                (seats[0], seats[1]),
                settings,
                tournament=row["id"],
                deal_seed=pairing["deal_seed"],
                berserk=berserk,
            )
        except ServiceError as error:
            if error.code != "idempotency_key_reused":  # made meanwhile: the store refuses a second one
                raise

    def _pair(self, state: TournamentState, pairs: Sequence[dict[str, Any]], **round_args: Any) -> bool:
        """Write new pairings (fenced), then make their games and tell the tournament's stream."""
        made = self.store.add_pairings(state.row["id"], self.name, list(pairs), **round_args)
        bots = _bots(state.entries)
        for pairing in made:
            full = {
                "outcome": None,
                "end_reason": None,
                "berserk0": False,
                "berserk1": False,
                "mirror_of": None,
                "deal_seed": None,
                **pairing,
            }
            if full["status"] == "playing":
                self._open(state, full)
            self._tell(state.row["id"], "pairing", {"pairing": pairing_json(full, bots)})
        return bool(made) or "round_number" in round_args

    # --- the formats -----------------------------------------------------------------------------------
    def _arena(self, state: TournamentState) -> bool:
        row = state.row
        if row["ends_at"] is not None and time.time() >= row["ends_at"]:
            for pairing in state.pairings:
                if pairing["status"] == "playing":  # still playing at the end: counts for nothing
                    unscored = {"status": "unscored", "outcome": None, "end_reason": None}
                    self._record(state, pairing, {**unscored, "berserk0": False, "berserk1": False})
            self._finish(row["id"])
            return True
        busy = _busy(state.pairings)
        waiting = [e for e in state.entries if e["active"] and e["player"].casefold() not in busy]
        if len(waiting) < 2:
            return False
        ranks = {r["player"]: r["rank"] for r in standings("arena", state.entries, state.pairings)}
        last: dict[str, list[str]] = {}
        seats0: dict[str, int] = {}
        for pairing in reversed(state.pairings):
            if pairing["seat1"] is None:
                continue
            for me, other in ((pairing["seat0"], pairing["seat1"]), (pairing["seat1"], pairing["seat0"])):
                last.setdefault(me.casefold(), []).append(other)
            seats0[pairing["seat0"].casefold()] = seats0.get(pairing["seat0"].casefold(), 0) + 1
        wave = [
            arena_pairing.Waiting(
                player=e["player"],
                rank=ranks.get(e["player"], len(ranks) + 1),
                rating=float(e["rating"]),
                last_opponents=tuple(last.get(e["player"].casefold(), [])[:RECENT_OPPONENTS]),
            )
            for e in waiting
        ]
        blocked = self.relations.blocked_pairs([e["player"] for e in waiting])  # never paired together
        pairs = arena_pairing.pair_wave(
            wave, avoid=lambda a, b: frozenset((a.casefold(), b.casefold())) in blocked
        )
        if not pairs:
            return False
        wave_number = max((p["round"] for p in state.pairings), default=0) + 1
        rows = []
        for a, b in pairs:
            # Seat 0 to the one who sat there less often.
            first, second = (a, b) if seats0.get(a.casefold(), 0) <= seats0.get(b.casefold(), 0) else (b, a)
            rows.append(_playing(wave_number, first, second))
        return self._pair(state, rows)

    def _swiss(self, state: TournamentState) -> bool:
        row = state.row
        if any(p["status"] == "playing" for p in state.pairings):
            return False
        total = int(row["settings"]["rounds"])
        active = [e for e in state.entries if e["active"]]
        ended = row["ends_at"] is not None and time.time() >= row["ends_at"]
        if row["round"] >= total or ended or (row["round"] > 0 and len(active) < 2):
            self._finish(row["id"])
            return True
        if row["round"] > 0 and not self._round_due(row):
            return False
        if len(active) < 2:
            return False
        number = row["round"] + 1
        try:
            pairs, bye = swiss_pairing.pair_round(_swiss_players(state, active), number, total)
        except swiss_pairing.Unpairable as error:
            log.info("tournament %s ends early: %s", row["id"], error)
            self._finish(row["id"])
            return True
        rows = [_playing(number, a, b) for a, b in pairs]
        if bye is not None:
            rows.append({"round": number, "seat0": bye, "seat1": None, "game_id": None, "status": "bye"})
        return self._pair(state, rows, round_number=number, next_round_at=None)

    def _round_due(self, row: Mapping[str, Any]) -> bool:
        """Whether a Swiss' next round is due: its timer ran out, or the organiser asked for it. A round
        just over starts its timer (``round_interval``) or waits for the organiser."""
        due = row["next_round_at"]
        if due is None:
            interval = row["settings"].get("round_interval")
            if interval is not None:
                self.store.schedule_round(row["id"], self.name, time.time() + int(interval))
            return False
        return bool(time.time() >= due)

    def _schedule(
        self, entries: Sequence[Mapping[str, Any]], settings: Mapping[str, Any]
    ) -> list[list[tuple[str, str]]]:
        players = [e["player"] for e in entries]
        return (
            berger.duplicate_rounds(players) if settings.get("duplicate") else berger.berger_rounds(players)
        )

    def _round_robin(self, state: TournamentState) -> bool:
        row = state.row
        if any(p["status"] == "playing" for p in state.pairings):
            return False
        schedule = self._schedule(state.entries, row["settings"])
        if row["round"] >= len(schedule) or (row["ends_at"] is not None and time.time() >= row["ends_at"]):
            self._finish(row["id"])
            return True
        number = row["round"] + 1
        active = {e["player"].casefold() for e in state.entries if e["active"]}
        rows: list[dict[str, Any]] = []
        duplicate = bool(row["settings"].get("duplicate"))
        for index, (a, b) in enumerate(schedule[number - 1]):
            if a.casefold() not in active or b.casefold() not in active:
                continue  # a withdrawn player's matches are not played
            pairing = _playing(number, a, b)
            if duplicate:
                if index % 2 == 0:
                    pairing["deal_seed"] = security.new_secret()
                elif rows and {rows[-1]["seat0"], rows[-1]["seat1"]} == {a, b}:
                    pairing["deal_seed"] = rows[-1]["deal_seed"]
                    pairing["mirror_of"] = "previous"
            rows.append(pairing)
        return self._pair(state, rows, round_number=number, next_round_at=None)

    # --- the end, and what the stream tells ------------------------------------------------------------
    def _finish(self, tournament_id: str) -> None:
        state = self.store.state(tournament_id)
        assert state is not None
        final = standings(state.row["format"], state.entries, state.pairings)
        self.store.finish(tournament_id, self.name, [dict(r) for r in final])
        self.publish_standings(tournament_id)

    def publish_standings(self, tournament_id: str) -> None:
        """Write the live standings and tell the stream (the tournament as it is, and the top)."""
        state = self.store.state(tournament_id)
        if state is None:
            return
        rows = standings(state.row["format"], state.entries, state.pairings)
        self.live.set_standings(tournament_id, orjson.dumps(rows).decode())
        self._tell(
            tournament_id,
            "standings",
            {"tournament": tournament_json(state.row, len(state.entries)), "standings": rows[:TOP]},
        )

    def _tell(self, tournament_id: str, kind: str, body: dict[str, Any]) -> None:
        self.live.publish(tournament_id, [orjson.dumps({"type": kind, **body}).decode()])


def _swiss_players(
    state: TournamentState, active: Sequence[Mapping[str, Any]]
) -> list[swiss_pairing.SwissPlayer]:
    """The active players as the Swiss pairing takes them: points, past opponents and seats, bye."""
    matches = played(state.entries, state.pairings)
    seats: dict[str, list[int]] = {}
    for pairing in scored(state.pairings):  # (the same matches, in the same order)
        if pairing["seat1"] is not None:
            seats.setdefault(pairing["seat0"].casefold(), []).append(0)
            seats.setdefault(pairing["seat1"].casefold(), []).append(1)
    score = {"won": 1.0, "drawn": 0.5, "lost": 0.0}
    return [
        swiss_pairing.SwissPlayer(
            player=e["player"],
            rating=float(e["rating"]),
            points=sum(score[m.result] for m in matches[e["player"]]),
            opponents=tuple(m.opponent for m in matches[e["player"]] if m.opponent is not None),
            seats=tuple(seats.get(e["player"].casefold(), [])),
            had_bye=any(m.opponent is None for m in matches[e["player"]]),
            played=tuple(matches[e["player"]]),
        )
        for e in active
    ]


def _seat(entry: Mapping[str, Any]) -> Seat:
    if entry["house"]:
        return Seat.house_bot(entry["house"], player=bot_player(entry["house"]))
    return Seat.human(entry["player"], player=entry["player"])


def _bots(entries: Sequence[Mapping[str, Any]]) -> dict[str, bool]:
    return {e["player"].casefold(): bool(e["bot"]) for e in entries}


def _busy(pairings: Sequence[Mapping[str, Any]]) -> set[str]:
    busy = set()
    for pairing in pairings:
        if pairing["status"] == "playing":
            busy |= {pairing["seat0"].casefold(), (pairing["seat1"] or "").casefold()}
    return busy


def _playing(round_number: int, seat0: str, seat1: str) -> dict[str, Any]:
    return {
        "round": round_number,
        "seat0": seat0,
        "seat1": seat1,
        "game_id": security.new_game_id(),
        "status": "playing",
    }
