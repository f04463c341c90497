"""What the service keeps of a match beside the engine's state: its seats, clock, shuffle commitment,
settings and rematch, as frozen dataclasses.

The stored doc of a match is ``<metadata JSON>\\n<engine dumps>``. The metadata's JSON uses short keys to
keep Redis memory small; they are written and read here and nowhere else (:meth:`MatchMeta.to_json`,
:meth:`MatchMeta.from_json`; the clock's, by :class:`~ginrummy.app.clocks.Clock`), as
:mod:`ginrummy.engine.serialize` does for the engine's state:

``p``   seats, by seat: ``{"n": name, "t": "h"|"b", "b": bot, "k": token digest, "pl": player}``
``iv``  the invitation's digest while seat 1 is free
``bs``  the secret salt of the bot's decision seeds
``sd``  the test seed (only with GIN_ALLOW_SEED)
``sh``  the live hand's shuffle: ``{"n": hand number, "s": salt, "c": commitment}``
``ca``  a digest of the creating client's address: its count of games in play drops when the match ends
``r``   the rating family (a preset name) of a rated game
``ck``  the time control's clock: ``{"m", "b", "i", "l", "s", "t"}`` (:class:`~ginrummy.app.clocks.Clock`)
``ts``  when the game last changed (unix ms): a seat idle that long may be claimed as having left
``fd``  the first dealer (a rematch starts with the other one)
``pv``  1 for a private game (not listed by GET /v1/games)
``rm``  the seats that offered a rematch; ``rg`` the rematch's game id once accepted
``c``   when the game was created (unix ms)
``tn``  the tournament the match is played in; ``ds`` a duplicate pair's secret deal seed; ``ba`` the seats
        that may berserk (an arena's people); ``bz`` the seats that berserked

>>> meta = MatchMeta(seats=(Seat.human("Ann", token_digest="d"), Seat.house_bot("expert")), bot_salt="s")
>>> MatchMeta.from_json(meta.to_json()) == meta
True
>>> meta.to_json()["p"][1]
{'n': 'expert', 't': 'b', 'b': 'expert'}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..clocks import Clock


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a human (joined once it has a token) or a house bot; ``player`` ties the seat
    to a player (``POST /v1/players``; house bots in rated games are ``bot-<name>``)."""

    name: str | None
    bot: str | None = None  # the house bot's name; None: a human
    token_digest: str | None = None  # the seat token's digest; None: a human seat not taken yet
    player: str | None = None

    @staticmethod
    def human(name: str | None, *, token_digest: str | None = None, player: str | None = None) -> Seat:
        return Seat(name, None, token_digest, player)

    @staticmethod
    def house_bot(bot: str, *, name: str | None = None, player: str | None = None) -> Seat:
        return Seat(name or bot, bot, None, player)

    @property
    def is_bot(self) -> bool:
        return self.bot is not None

    @property
    def free(self) -> bool:
        """A human seat nobody has taken yet (the invited player has not joined)."""
        return self.bot is None and self.token_digest is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.name, "t": "b" if self.is_bot else "h"}
        if self.bot is not None:
            out["b"] = self.bot
        else:
            out["k"] = self.token_digest
        if self.player is not None:
            out["pl"] = self.player
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        bot = data.get("b") if data.get("t") == "b" else None
        return Seat(data.get("n"), bot, data.get("k"), data.get("pl"))


@dataclass(frozen=True)
class Shuffle:
    """The live hand's shuffle commitment: the hand's number, the secret salt and the published hash."""

    hand: int
    salt: str
    commitment: str


@dataclass(frozen=True)
class MatchMeta:
    """Everything the service keeps of a match that the engine does not know."""

    seats: tuple[Seat, ...]
    bot_salt: str
    invitation_digest: str | None = None
    test_seed: int | None = None
    shuffle: Shuffle | None = None
    client_key: str | None = None
    rating_family: str | None = None
    clock: Clock | None = None
    last_change_ms: int | None = None
    first_dealer: int = 0
    private: bool = False
    rematch_offers: tuple[int, ...] = ()
    rematch_game: str | None = None
    created_ms: int | None = None
    tournament: str | None = None
    deal_seed: str | None = None
    berserk_allowed: tuple[int, ...] = ()
    berserked: tuple[int, ...] = ()

    @property
    def rated(self) -> bool:
        return self.rating_family is not None

    @property
    def assisted(self) -> bool:
        """Whether the engine may help a seat (hints, undo, the deadwood each discard leaves): against a
        bot, outside tournaments (docs/api.md, "Assistance"); a rated game only shows the discards."""
        return self.bot_seat is not None and self.tournament is None

    @property
    def waiting_for_opponent(self) -> bool:
        """Whether the invited player has not taken the second seat yet."""
        return any(seat.free for seat in self.seats)

    @property
    def bot_seat(self) -> int | None:
        return next((n for n, seat in enumerate(self.seats) if seat.is_bot), None)

    def with_seat(self, number: int, seat: Seat) -> MatchMeta:
        seats = list(self.seats)
        seats[number] = seat
        return replace(self, seats=tuple(seats))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"p": [seat.to_json() for seat in self.seats], "bs": self.bot_salt}
        if self.invitation_digest is not None:
            out["iv"] = self.invitation_digest
        if self.test_seed is not None:
            out["sd"] = self.test_seed
        if self.shuffle is not None:
            out["sh"] = {"n": self.shuffle.hand, "s": self.shuffle.salt, "c": self.shuffle.commitment}
        if self.client_key is not None:
            out["ca"] = self.client_key
        if self.rating_family is not None:
            out["r"] = self.rating_family
        if self.clock is not None:
            out["ck"] = self.clock.to_json()
        if self.last_change_ms is not None:
            out["ts"] = self.last_change_ms
        out["fd"] = self.first_dealer
        if self.private:
            out["pv"] = 1
        if self.rematch_offers:
            out["rm"] = list(self.rematch_offers)
        if self.rematch_game is not None:
            out["rg"] = self.rematch_game
        if self.created_ms is not None:
            out["c"] = self.created_ms
        if self.tournament is not None:
            out["tn"] = self.tournament
        if self.deal_seed is not None:
            out["ds"] = self.deal_seed
        if self.berserk_allowed:
            out["ba"] = list(self.berserk_allowed)
        if self.berserked:
            out["bz"] = list(self.berserked)
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> MatchMeta:
        shuffle = data.get("sh")
        clock = data.get("ck")
        return MatchMeta(
            seats=tuple(Seat.from_json(seat) for seat in data["p"]),
            bot_salt=data.get("bs", ""),
            invitation_digest=data.get("iv"),
            test_seed=data.get("sd"),
            shuffle=Shuffle(shuffle["n"], shuffle["s"], shuffle["c"]) if shuffle else None,
            client_key=data.get("ca"),
            rating_family=data.get("r"),
            clock=Clock.from_json(clock) if clock else None,
            last_change_ms=data.get("ts"),
            first_dealer=data.get("fd", 0),
            private=bool(data.get("pv")),
            rematch_offers=tuple(data.get("rm") or ()),
            rematch_game=data.get("rg"),
            created_ms=data.get("c"),
            tournament=data.get("tn"),
            deal_seed=data.get("ds"),
            berserk_allowed=tuple(data.get("ba") or ()),
            berserked=tuple(data.get("bz") or ()),
        )
