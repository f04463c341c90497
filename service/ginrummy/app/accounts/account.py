"""Accounts: sign up (or claim a name-and-token player with a password), sign in from any device to a
session, sign out (one device, this one, everywhere), change the password, personal API tokens with
scopes, who am I, the account's matches in play, becoming a bot account, and the bots one may play.

Sessions last :attr:`Config.session_days` days, sliding: every use (written at most once a minute)
pushes the expiry that far again, so a device in use stays signed in and one left alone for that long is
signed out. Session and API tokens are 192 random bits behind a prefix
(:mod:`~ginrummy.app.players.identity`), shown once and stored as SHA-256 digests.

Sign-in limits (docs/operations.md): failures are counted per account and per client address in a
window of :attr:`Config.signin_window` seconds; past :attr:`Config.signin_account_failures` for the name,
or :attr:`Config.signin_address_failures` from the address, sign-in is refused (``rate_limited``,
``Retry-After``) before any password is hashed, until the window ends. An attack on one account thus
locks its owner's NEW sign-ins for at most one window after the attack stops; signed-in devices and API
tokens are never touched by it.
"""

from __future__ import annotations

from typing import Any

from ginrummy import bots
from ginrummy.store.account_live import AccountLive
from ginrummy.store.accounts import AccountStore
from ginrummy.store.games import GameStore
from ginrummy.store.players import NameTaken

from .. import security
from ..calls import Caller, Result
from ..config import Config
from ..errors import ServiceError
from ..players import ratings
from ..players.feed import AccountFeed
from ..players.identity import SESSION_PREFIX, TOKEN_PREFIX, Identities, Identity
from ..players.profiles import RESERVED_PREFIX
from ..playing.match import Match
from ..playing.seats import players_json
from ..playing.starting import DEFAULT_BOT, bot_player
from ..shapes.players import FamilyRating
from .passwords import Offload, Passwords, inline

BAD_CREDENTIALS = "the name or the password is wrong"


def _address_summary(address: str) -> str:
    """What a session list shows of an address: its network, not the host (198.51.100.x).

    >>> _address_summary("198.51.100.7"), _address_summary("2001:db8::1")
    ('198.51.100.x', '2001:db8:…')
    """
    if "." in address:
        return ".".join(address.split(".")[:3] + ["x"])
    if ":" in address:
        return ":".join(address.split(":")[:2]) + ":…"
    return ""


class Accounts:
    """The use cases of accounts, sessions and API tokens."""

    def __init__(
        self,
        accounts: AccountStore,
        identities: Identities,
        live: AccountLive,
        games: GameStore,
        feed: AccountFeed,
        config: Config,
        offload: Offload[object] = inline,
    ) -> None:
        self.accounts = accounts
        self.identities = identities
        self.live = live
        self.store = games
        self.feed = feed
        self.config = config
        self.passwords = Passwords(
            config.argon2_time_cost, config.argon2_memory_kib, config.argon2_parallelism, offload
        )

    # --- who ----------------------------------------------------------------------------------------
    def identify(self, token: str | None, *, session: bool = False) -> Identity:
        """The caller's identity (``unauthorized`` without a token, ``unknown_player`` for another one);
        ``session``: only a signed-in session will do (managing sessions, tokens and the password)."""
        identity = self.identities.of(security.require_token(token))
        if identity is None:
            raise ServiceError("unknown_player", "this bearer token is no player's, session's or API token's")
        if session and identity.kind != "session":
            raise ServiceError(
                "session_required", "sign in (POST /v1/account/sessions) and use the session token for this"
            )
        if identity.player_id is None:  # a player's own token: find its id
            found = self.accounts.password_of(identity.name)
            if found is None:
                raise ServiceError("unknown_player", "this player no longer exists")
            return Identity(identity.name, identity.kind, identity.scopes, found[0])
        return identity

    # --- signing up, in and out -------------------------------------------------------------------
    def sign_up(self, name: str, password: str, caller: Caller) -> Result:
        """A new account (or, with the player's own token, a password for a name-and-token player),
        signed in at once: the session's token, shown once."""
        name = name.removesuffix("\n")
        password_hash = self.passwords.hash(password, name)
        if caller.token is not None:
            if not self.accounts.claim(name, security.digest(caller.token), password_hash):
                raise ServiceError(
                    "account_exists",
                    "this token is not the token of that player, or the player has a password already",
                )
        else:
            if name.casefold().startswith(RESERVED_PREFIX):
                raise ServiceError("name_reserved", f"names starting with {RESERVED_PREFIX!r} are the bots'")
            try:
                self.accounts.sign_up(name, password_hash)
            except NameTaken:
                raise ServiceError(
                    "account_exists", f"the name {name!r} is taken (names ignore case)"
                ) from None
        found = self.accounts.password_of(name)
        assert found is not None
        return self._new_session(found[0], found[1], caller)

    def sign_in(self, name: str, password: str, caller: Caller) -> Result:
        """A new session for the right name and password; ``bad_credentials`` otherwise (the same
        answer, in the same time, for an unknown name); ``rate_limited`` past the limits."""
        scopes = ("name\n" + name.casefold(), "address\n" + caller.client)
        self._check_limits(*scopes)
        found = self.accounts.password_of(name)
        stored = found[2] if found is not None else None
        # Verified whether or not the name exists (against a dummy hash when not): the same time either way.
        if not self.passwords.verify(stored, password) or found is None:
            for scope in scopes:
                self.live.fail(scope, self.config.signin_window)
            raise ServiceError("bad_credentials", BAD_CREDENTIALS)
        player_id, display, _ = found
        if self.accounts.closed(player_id):  # (said only to whoever knows the password)
            raise ServiceError("account_closed", "this account was closed by the service's moderators")
        if stored is not None and self.passwords.needs_rehash(stored):
            self.accounts.set_password(player_id, self.passwords.rehash(password))
        return self._new_session(player_id, display, caller)

    def _check_limits(self, account_scope: str, address_scope: str) -> None:
        config = self.config
        for scope, most in (
            (account_scope, config.signin_account_failures),
            (address_scope, config.signin_address_failures),
        ):
            failures, left = self.live.failures(scope)
            if failures >= most:
                raise ServiceError(
                    "rate_limited",
                    f"too many failed sign-ins; try again in {max(left, 1)} s",
                    retry_after=max(left, 1),
                )

    def _new_session(self, player_id: int, name: str, caller: Caller) -> Result:
        token = SESSION_PREFIX + security.new_secret()
        lifetime = self.config.session_days * 86400
        session_id = self.accounts.create_session(
            player_id,
            security.digest(token),
            lifetime,
            caller.user_agent[:200],
            _address_summary(caller.client),
        )
        return Result(
            {"name": name, "token": token, "session": str(session_id), "lifetime": lifetime}, created=True
        )

    def sign_out(self, token: str | None, which: str) -> Result:
        """End a session: ``current`` (this one), ``all`` (every one, this one too) or one by its id."""
        me = self.identify(token, session=True)
        assert me.player_id is not None
        if which == "all":  # every credential but the API tokens: the player's own token too
            gone = self.accounts.delete_sessions(me.player_id, player_token=True)
        elif which == "current":
            gone = self.accounts.delete_sessions(me.player_id, only=me.credential)
        else:
            gone = self.accounts.delete_sessions(me.player_id, only=_id(which, "session"))
            if not gone:
                raise ServiceError("session_not_found", f"you have no session {which!r}")
        return Result({"signed_out": gone})

    def sessions(self, token: str | None) -> Result:
        me = self.identify(token, session=True)
        assert me.player_id is not None
        rows = self.accounts.sessions(me.player_id)
        for row in rows:
            row["current"] = row["id"] == str(me.credential)
        return Result({"sessions": rows})

    def change_password(self, token: str | None, current: str, new: str, caller: Caller) -> Result:
        """A new password, given the current one; every other session is signed out, and the player's
        own token (of a claimed name-and-token player) ends: what the old password may have let someone
        keep goes with it. API tokens stay (they are revoked one by one)."""
        me = self.identify(token, session=True)
        assert me.player_id is not None
        # A wrong current password counts as a failed sign-in of the name and the address, under the same
        # limits: a stolen session is no way around them to guess the password.
        scopes = ("name\n" + me.name.casefold(), "address\n" + caller.client)
        self._check_limits(*scopes)
        if not self.passwords.verify(self.accounts.password_hash(me.player_id), current):
            for scope in scopes:
                self.live.fail(scope, self.config.signin_window)
            raise ServiceError("bad_credentials", "the current password is wrong")
        self.accounts.set_password(me.player_id, self.passwords.hash(new, me.name))
        gone = self.accounts.delete_sessions(me.player_id, keep=me.credential, player_token=True)
        return Result({"signed_out": gone})

    # --- API tokens ---------------------------------------------------------------------------------
    def create_token(self, token: str | None, description: str, scopes: list[str]) -> Result:
        me = self.identify(token, session=True)
        assert me.player_id is not None
        secret = TOKEN_PREFIX + security.new_secret()
        listed = self.accounts.create_token(
            me.player_id, security.digest(secret), description, sorted(set(scopes))
        )
        return Result({**listed, "token": secret}, created=True)

    def tokens(self, token: str | None) -> Result:
        me = self.identify(token, session=True)
        assert me.player_id is not None
        return Result({"tokens": self.accounts.tokens(me.player_id)})

    def revoke_token(self, token: str | None, token_id: str) -> Result:
        me = self.identify(token, session=True)
        assert me.player_id is not None
        if not self.accounts.revoke_token(me.player_id, _id(token_id, "token")):
            raise ServiceError("token_not_found", f"you have no API token {token_id!r}")
        return Result({"revoked": token_id})

    def become_bot(self, token: str | None) -> Result:
        """Make the account a bot account, for good (lichess's BOT title): from then on it plays only
        through API tokens (its sessions read), is listed by ``GET /v1/bots`` while its account stream is
        open, and shown as a bot. Only an account that has played no game may."""
        me = self.identify(token, session=True)
        assert me.player_id is not None
        if self.live_matches(me.name, 1):  # its sessions could no longer play them
            raise ServiceError(
                "account_has_games", "finish (or resign) your games in play before the account becomes a bot"
            )
        outcome = self.accounts.make_bot(me.player_id)
        if outcome == "bot":
            raise ServiceError("already_bot", "this account is a bot account already")
        if outcome == "played":
            raise ServiceError(
                "account_has_games", "only an account that has not played a game may become a bot account"
            )
        return self.account(token)

    def bots(self) -> Result:
        """The house bots, with their profiles' ratings, and the bot accounts online now (their account
        stream open), with theirs: whom one can play or challenge."""
        found = {entry["name"].casefold(): entry for entry in self.accounts.bots(self.feed.online())}
        house = []
        for bot in bots.list_bots():
            entry = found.pop(bot_player(bot["name"]), None)
            house.append({**bot, "player": bot_player(bot["name"]), "ratings": _ratings(entry)})
        online = [
            {
                "name": entry["name"],
                "since": entry["since"],
                "played": entry["played"],
                "ratings": _ratings(entry),
            }
            for entry in found.values()
            if not entry["house"]
        ]
        return Result({"bots": house, "default": DEFAULT_BOT, "accounts": online})

    # --- who am I, and my games ---------------------------------------------------------------------
    def account(self, token: str | None) -> Result:
        me = self.identify(token)
        assert me.player_id is not None
        body: dict[str, Any] = self.accounts.account(me.player_id)
        body["credential"] = {"kind": me.kind, "scopes": sorted(me.scopes)}
        return Result(body)

    def games(self, token: str | None, limit: int = 100) -> Result:
        """The caller's games in play, newest first: those whose seat is tied to the caller."""
        out: list[dict[str, Any]] = []
        for match, seat in self.live_matches(self.identify(token).name, limit):
            hand = match.game.hand
            turn = hand.turn if hand is not None and not hand.over else None
            out.append(
                {
                    "game_id": match.game_id,
                    "seat": seat,
                    "players": players_json(match.meta),
                    "rated": match.meta.rated,
                    "version": match.version,
                    "your_move": turn == seat,
                    "game": f"/v1/games/{match.game_id}",
                    "tournament": match.meta.tournament,
                }
            )
        return Result({"games": out})

    def live_matches(self, name: str, limit: int = 100) -> list[tuple[Match, int]]:
        """The player's games in play with its seat in each, newest first (the index is tidied of the
        games that ended or expired)."""
        game_ids = self.live.live_games(name, limit)
        out = []
        for game_id, stored in zip(game_ids, self.store.load_many(game_ids), strict=True):
            match = None if stored is None else Match.decode(game_id, stored.version, stored.doc)
            if match is None or match.game.match_over:
                self.live.untie(game_id, [name])
                continue
            seats = [n for n, seat in enumerate(match.meta.seats) if seat.player == name]
            if seats:
                out.append((match, seats[0]))
        return out


def _ratings(entry: dict[str, Any] | None) -> dict[str, FamilyRating]:
    """A bot's ratings by family, as profiles show them."""
    if entry is None:
        return {}
    return {
        family: {**ratings.shown(mu, sigma), "games": games}
        for family, (mu, sigma, games) in entry["ratings"].items()
    }


def _id(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 18:
        raise ServiceError(f"{what}_not_found", f"there is no {what} {text!r}")
    return int(text)
