"""The tournaments' use cases for players and organisers: create (a few a day per account), list, read
with a page of standings, join (with the entry code of a private one), pause or withdraw, the organiser's
edit, start (or next Swiss round) and end, the results, every game, and the live stream. What happens on
its own — starting at its time, pairing, opening games, results — is the director's
(:mod:`.directing`). lichess's ``/api/tournament`` and ``/api/swiss`` are the anchor."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from ginrummy import bots
from ginrummy.engine import Rules
from ginrummy.store.players import PlayerStore
from ginrummy.store.tournaments import TournamentLive, TournamentState, TournamentStore

from .. import clocks, security
from ..archive.reading import Records
from ..calls import Result
from ..errors import ServiceError
from ..players.identity import Identities, Identity
from ..playing.starting import bot_player, rated_family
from .shown import pairing_json, tournament_json
from .standings import standings

DAY = 24 * 3600
PAGE = 10  # standings per page
LISTED = 20  # tournaments per list
WATCHED = 6  # matches in play shown to watch
OTHER_FORMATS = {
    "arena": ("rounds", "round_interval", "duplicate"),
    "swiss": ("minutes", "duplicate"),
    "round_robin": ("minutes", "rounds", "round_interval"),
}


@dataclass(frozen=True)
class Opened:
    """A tournament's stream: the id it reads after, and what it starts with (opened afresh)."""

    tournament_id: str
    after: str
    present: list[dict[str, Any]]


class Tournaments:
    """The use cases of tournaments (the director's are :class:`~.directing.Director`'s)."""

    def __init__(
        self,
        store: TournamentStore,
        live: TournamentLive,
        identities: Identities,
        players: PlayerStore,
        records: Records,
        per_day: int,
    ) -> None:
        self.store = store
        self.live = live
        self.identities = identities
        self.players = players
        self.records = records
        self.per_day = per_day

    def _me(self, token: str | None) -> Identity:
        identity = self.identities.of(security.require_token(token))
        if identity is None or identity.player_id is None:
            raise ServiceError(
                "account_required", "tournaments are for accounts: sign in (POST /v1/account/sessions)"
            )
        return identity

    def _load(self, tournament_id: str, *, playing_only: bool = False) -> TournamentState:
        state = (
            self.store.state(tournament_id, playing_only=playing_only) if len(tournament_id) <= 64 else None
        )
        if state is None:
            raise ServiceError("tournament_not_found", f"there is no tournament {tournament_id!r}")
        return state

    def _organiser(self, tournament_id: str, token: str | None) -> TournamentState:
        me = self._me(token).require_play()
        state = self._load(tournament_id)
        if state.row["organiser_id"] != me.player_id:
            raise ServiceError("forbidden", "only the tournament's organiser may do this")
        return state

    # --- the organiser ---------------------------------------------------------------------------------
    def create(self, body: dict[str, Any], token: str | None) -> Result:
        me = self._me(token).require_play()
        if me.bot:
            raise ServiceError("forbidden", "a bot account does not organise tournaments")
        assert me.player_id is not None
        if self.store.created_since(me.player_id, time.time() - DAY) >= self.per_day:
            raise ServiceError(
                "too_many_tournaments",
                f"an account may create {self.per_day} tournaments a day (GIN_TOURNAMENTS_PER_DAY)",
                retry_after=3600,
            )
        format = body["format"]
        settings = self._settings(format, body)
        starts_at = time.time() + float(body.get("starts_in") or 0)
        code = security.new_secret()[:10] if body.get("private") else None
        tournament_id = security.new_secret()[:12]
        self.store.create(
            tournament_id,
            format=format,
            name=body["name"].strip(),
            organiser=me.name,
            organiser_id=me.player_id,
            settings=settings,
            entry_code_digest=security.digest(code) if code else None,
            starts_at=starts_at,
            next_round_at=None,
        )
        state = self._load(tournament_id)
        return Result({"tournament": tournament_json(state.row, 0), "entry_code": code}, created=True)

    def _settings(self, format: str, body: dict[str, Any]) -> dict[str, Any]:
        """The settings of a tournament, checked: the rules and clock as a challenge takes them, and no
        member of another format."""
        foreign = [name for name in OTHER_FORMATS[format] if body.get(name)]
        if foreign:
            raise ServiceError("bad_tournament", f"{foreign[0]!r} is not a setting of a {format}")
        rules_in = {"preset": (body.get("rules") or {}).get("preset") or "standard"}
        options = dict((body.get("rules") or {}).get("options") or {})
        if options:
            rules_in["options"] = options
        Rules.from_options(rules_in["preset"], **options)
        if body.get("rated"):
            rated_family(rules_in)
        clocks.new_clock(body.get("clock"))
        settings: dict[str, Any] = {
            "rules": rules_in,
            "clock": body.get("clock"),
            "rated": bool(body.get("rated")),
            "bots": bool(body.get("bots")),
            "min_rated_games": int(body.get("min_rated_games") or 0),
            "description": body.get("description") or "",
        }
        if format == "arena":
            if body.get("minutes") is None:
                raise ServiceError("bad_tournament", "an arena needs its minutes")
            settings["minutes"] = body["minutes"]
            settings["berserk"] = bool(body.get("berserk", True)) and body.get("clock") is not None
        elif format == "swiss":
            if body.get("rounds") is None:
                raise ServiceError("bad_tournament", "a Swiss needs its number of rounds")
            settings["rounds"] = body["rounds"]
            settings["round_interval"] = body.get("round_interval")
        else:
            settings["duplicate"] = bool(body.get("duplicate"))
        return settings

    def edit(self, tournament_id: str, body: dict[str, Any], token: str | None) -> Result:
        """Before the start: new settings (the format stays)."""
        state = self._organiser(tournament_id, token)
        row = state.row
        merged = {**_as_body(row), **{k: v for k, v in body.items() if v is not None}}
        settings = self._settings(row["format"], merged)
        starts_at = (
            time.time() + float(body["starts_in"]) if body.get("starts_in") is not None else row["starts_at"]
        )
        if not self.store.update_settings(tournament_id, merged["name"].strip(), settings, starts_at):
            raise ServiceError("tournament_started", "a tournament is edited before it starts")
        self._tell(tournament_id)
        return self.get(tournament_id, token)

    def start(self, tournament_id: str, token: str | None) -> Result:
        """Start now (before its time), or pair a Swiss' next round now."""
        self._organiser(tournament_id, token)
        if not self.store.ask_next_round(tournament_id):
            raise ServiceError("tournament_over", "this tournament is over")
        return self.get(tournament_id, token)

    def terminate(self, tournament_id: str, token: str | None) -> Result:
        """End it: cancelled before its start; else its director ends it at its next step (an arena's
        matches in play count for nothing; a round in play is played to its end)."""
        state = self._organiser(tournament_id, token)
        status = state.row["status"]
        done = self.store.cancel(tournament_id) if status == "created" else self.store.ask_end(tournament_id)
        if not done:
            raise ServiceError("tournament_over", "this tournament is over")
        self._tell(tournament_id)
        return self.get(tournament_id, token)

    def _tell(self, tournament_id: str) -> None:
        """A change of the organiser's or of a player's (an edit, a cancel, an entry) on the tournament's
        stream, as a standings line (the director tells its own)."""
        state = self._load(tournament_id)
        rows = standings(state.row["format"], state.entries, state.pairings)
        if state.row["status"] == "started":  # an entry came or went: the live standings say so at once
            self.live.set_standings(tournament_id, orjson.dumps(rows).decode())
        event = {
            "type": "standings",
            "tournament": tournament_json(state.row, len(state.entries)),
            "standings": rows[:PAGE],
        }
        self.live.publish(tournament_id, [orjson.dumps(event).decode()])

    # --- players ---------------------------------------------------------------------------------------
    def join(self, tournament_id: str, body: dict[str, Any], token: str | None) -> Result:
        """Enter the caller (or, by the organiser, a house bot: ``{"bot": "expert"}``); a paused player
        comes back."""
        me = self._me(token).require_play()
        state = self._load(tournament_id)
        row = state.row
        settings = row["settings"]
        if row["status"] not in ("created", "started"):
            raise ServiceError("tournament_over", "this tournament is over")
        if body.get("bot"):
            return self._enter_house_bot(state, me, body["bot"])
        digest = row["entry_code_digest"]
        entered = any(e["player"].casefold() == me.name.casefold() for e in state.entries)
        if digest is not None and not entered and not security.matches(body.get("code") or "", digest):
            raise ServiceError("bad_entry_code", "this private tournament needs its entry code")
        if me.bot and not settings.get("bots"):
            raise ServiceError("bots_not_allowed", "bot accounts may not join this tournament")
        if settings.get("duplicate") and not me.bot:
            raise ServiceError(
                "bots_only",
                "a round robin with duplicate deals is for bots: a person would remember the first "
                "match's hands and know the opponent's in the second",
            )
        if not entered:
            self._may_enter(state, me.name)
        family = (settings.get("rules") or {}).get("preset") or "standard"
        rating = self.players.rating(me.name, family)
        if not self.store.join(
            tournament_id,
            me.name,
            bot=me.bot,
            house=None,
            rating=rating[0] if rating else 1500.0,
            joined_round=row["round"],
        ):
            raise ServiceError("tournament_over", "this tournament is over")
        self._tell(tournament_id)
        return Result({"tournament": tournament_id, "player": me.name, "active": True})

    def _may_enter(self, state: TournamentState, name: str) -> None:
        row = state.row
        settings = row["settings"]
        started = row["status"] == "started"
        if started and row["format"] == "round_robin":
            raise ServiceError("tournament_started", "a round robin is joined before it starts")
        if started and row["format"] == "swiss" and row["round"] * 2 >= int(settings["rounds"]):
            raise ServiceError("tournament_started", "a Swiss is joined until half its rounds are paired")
        needed = int(settings.get("min_rated_games") or 0)
        if needed:
            family = (settings.get("rules") or {}).get("preset") or "standard"
            profile = self.players.get(name) or {}
            games = int(((profile.get("ratings") or {}).get(family) or {}).get("games") or 0)
            if games < needed:
                raise ServiceError(
                    "not_enough_rated_games",
                    f"this tournament needs {needed} rated {family} matches; you have {games}",
                )

    def _enter_house_bot(self, state: TournamentState, me: Identity, bot: str) -> Result:
        row = state.row
        if row["organiser_id"] != me.player_id:
            raise ServiceError("forbidden", "only the tournament's organiser enters house bots")
        if bot not in bots.BOTS:
            raise ServiceError(
                "unknown_bot", f"there is no bot {bot!r}; GET /v1/bots lists them", bots=list(bots.BOTS)
            )
        name = bot_player(bot)
        if not any(e["player"] == name for e in state.entries):
            self._may_enter(state, name)
        family = (row["settings"].get("rules") or {}).get("preset") or "standard"
        rating = self.players.rating(name, family)
        self.store.join(
            row["id"],
            name,
            bot=True,
            house=bot,
            rating=rating[0] if rating else 1500.0,
            joined_round=row["round"],
        )
        self._tell(row["id"])
        return Result({"tournament": row["id"], "player": name, "active": True})

    def withdraw(self, tournament_id: str, body: dict[str, Any], token: str | None) -> Result:
        """Leave before the start; pause an arena (join again to come back: the points stay); withdraw
        from a Swiss or a round robin (no more pairings). The organiser may withdraw a house bot."""
        me = self._me(token).require_play()
        state = self._load(tournament_id)
        name = me.name
        if body.get("bot"):
            if state.row["organiser_id"] != me.player_id:
                raise ServiceError("forbidden", "only the tournament's organiser withdraws house bots")
            name = bot_player(body["bot"])
        if state.row["status"] not in ("created", "started"):
            raise ServiceError("tournament_over", "this tournament is over")
        if not self.store.leave(tournament_id, name, remove=state.row["status"] == "created"):
            raise ServiceError("not_entered", "you are not in this tournament")
        self._tell(tournament_id)
        return Result({"tournament": tournament_id, "player": name, "active": False})

    # --- reading ---------------------------------------------------------------------------------------
    def listed(self) -> Result:
        return Result({status: self._list((status,)) for status in ("created", "started", "finished")})

    def _list(self, statuses: tuple[str, ...]) -> list[dict[str, Any]]:
        return [
            dict(tournament_json(row, int(row["players"]))) for row in self.store.listed(statuses, LISTED)
        ]

    def _standings(self, state: TournamentState) -> list[dict[str, Any]]:
        """The live standings the director wrote (the final ones once it is over); computed when none."""
        if state.row["status"] == "finished" and state.row["standings"] is not None:
            return list(state.row["standings"])
        text = self.live.standings(state.row["id"])
        if text is not None and state.row["status"] == "started":
            return list(orjson.loads(text))
        full = self._load(state.row["id"])  # (``state`` may hold only the matches in play)
        return [dict(r) for r in standings(full.row["format"], full.entries, full.pairings)]

    def get(self, tournament_id: str, token: str | None, page: int = 1) -> Result:
        state = self._load(tournament_id, playing_only=True)
        rows = self._standings(state)
        pages = max(1, -(-len(rows) // PAGE))
        page = min(max(1, page), pages)
        rank = {r["player"].casefold(): r["rank"] for r in rows}
        bots_of = {e["player"].casefold(): bool(e["bot"]) for e in state.entries}
        playing = [p for p in state.pairings if p["status"] == "playing"]
        playing.sort(
            key=lambda p: min(
                rank.get(p["seat0"].casefold(), 10**6), rank.get((p["seat1"] or "").casefold(), 10**6)
            )
        )
        out: dict[str, Any] = dict(tournament_json(state.row, len(state.entries)))
        out["description"] = state.row["settings"].get("description") or ""
        out["standings"] = {"page": page, "pages": pages, "players": rows[(page - 1) * PAGE : page * PAGE]}
        out["playing"] = [pairing_json(p, bots_of) for p in playing[:WATCHED]]
        out["me"] = self._my_entry(state, token)
        return Result(out)

    def _my_entry(self, state: TournamentState, token: str | None) -> dict[str, Any] | None:
        if token is None:
            return None
        try:
            identity = self.identities.of(token)
        except ServiceError:
            return None
        if identity is None:
            return None
        for entry in state.entries:
            if entry["player"].casefold() == identity.name.casefold():
                now = next(
                    (
                        p["game_id"]
                        for p in reversed(state.pairings)
                        if p["status"] == "playing"
                        and identity.name.casefold() in (p["seat0"].casefold(), (p["seat1"] or "").casefold())
                    ),
                    None,
                )
                return {"player": entry["player"], "active": bool(entry["active"]), "playing": now}
        return None

    def results(self, tournament_id: str) -> Result:
        """The standings, best first: final once it is over."""
        state = self._load(tournament_id)
        return Result({"tournament": tournament_id, "players": self._standings(state)})

    def games(self, tournament_id: str) -> Iterator[dict[str, Any]]:
        """Every finished match of the tournament as the archive exports it, in the order they finished;
        a match whose record is still on its way is left out."""
        state = self._load(tournament_id)
        done = [p for p in state.pairings if p["status"] in ("finished", "unscored") and p["game_id"]]
        done.sort(key=lambda p: (p["finished_seq"] or 0, p["number"]))

        def exports() -> Iterator[dict[str, Any]]:
            for pairing in done:
                try:
                    yield self.records.export(pairing["game_id"]).body
                except ServiceError as error:
                    if error.code != "not_archived":
                        raise

        return exports()

    # --- the stream ------------------------------------------------------------------------------------
    def open_stream(self, tournament_id: str, since: str | None) -> Opened:
        """Opened afresh, it starts with the standings as they are; resumed after ``since``."""
        state = self._load(tournament_id)
        if since is not None:
            return Opened(tournament_id, since, [])
        after = self.live.last_event_id(tournament_id)
        rows = self._standings(state)
        present = {
            "type": "standings",
            "tournament": tournament_json(state.row, len(state.entries)),
            "standings": rows[:PAGE],
        }
        return Opened(tournament_id, after, [present])

    def read_stream(self, opened: Opened, after: str, wait: float) -> list[tuple[str, str]]:
        return self.live.events(opened.tournament_id, after, wait=wait)


def _as_body(row: dict[str, Any]) -> dict[str, Any]:
    """A tournament's settings as a creation's body (an edit changes some of them)."""
    settings = dict(row["settings"])
    return {**settings, "format": row["format"], "name": row["name"]}
