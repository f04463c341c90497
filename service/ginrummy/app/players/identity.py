"""Who a bearer token stands for: a player's own token, a session of a signed-in device, or a personal
API token with scopes — and what each may do.

Kinds are told apart by their prefix, as lichess's personal tokens (``lip_``) are: session tokens start
with :data:`SESSION_PREFIX`, API tokens with :data:`TOKEN_PREFIX`; a token without either is a seat's,
a seek's or a player's (``POST /v1/players``). Sessions and API tokens are looked up in PostgreSQL on every
use (never cached: revoking one is refused everywhere at once), and so are players' tokens
(:meth:`ginrummy.store.players.PlayerStore.by_token`), which end when their account signs out everywhere
or changes its password.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from ginrummy.store.accounts import AccountStore
from ginrummy.store.players import PlayerStore

from .. import security
from ..errors import ServiceError
from ..shapes.accounts import Scope

SESSION_PREFIX = "gin_s_"
TOKEN_PREFIX = "gin_p_"
SCOPES: tuple[str, ...] = get_args(Scope)
PLAYING_SCOPES = frozenset({"play", "bot"})


@dataclass(frozen=True)
class Identity:
    """A player as a token presents it: ``kind`` is ``player`` (its own token), ``session`` or
    ``token`` (API); ``credential`` is the session's or token's id."""

    name: str
    kind: str
    scopes: frozenset[str]
    player_id: int | None = None
    credential: int | None = None
    bot: bool = False  # a bot account (its sessions only read: it plays through API tokens)

    @property
    def may_play(self) -> bool:
        return bool(self.scopes & PLAYING_SCOPES)

    def require_play(self) -> Identity:
        """This identity, if it may act in games; else ``token_scope``."""
        if not self.may_play:
            if self.bot and self.kind == "session":
                raise ServiceError(
                    "token_scope", "a bot account plays through the API: use an API token with scope 'bot'"
                )
            raise ServiceError(
                "token_scope", "this API token may only read (scope 'read'): acting needs 'play' or 'bot'"
            )
        return self


class Identities:
    """Finds the identity of a bearer token."""

    def __init__(self, players: PlayerStore, accounts: AccountStore, session_lifetime: int) -> None:
        self.players = players
        self.accounts = accounts
        self.session_lifetime = session_lifetime

    def of(self, token: str) -> Identity | None:
        """The identity of ``token``; None when it is no player's. A session past its expiry is
        refused (``session_expired``)."""
        digest = security.digest(token)
        if token.startswith(SESSION_PREFIX):
            found = self.accounts.session(digest, self.session_lifetime)
            if found is not None and found.expired:
                raise ServiceError("session_expired", "this session has expired: sign in again")
        elif token.startswith(TOKEN_PREFIX):
            found = self.accounts.token(digest)
        else:
            name = self.players.by_token(digest)
            return None if name is None else Identity(name, "player", frozenset({"play", "read"}))
        if found is None:
            return None
        return Identity(found.name, found.kind, frozenset(found.scopes), found.player_id, found.id, found.bot)

    def player(self, token: str | None) -> str | None:
        """The name of the player of this token when it may play (None without a token); 401 for a
        token that is no player's, 403 for a read-only one."""
        if token is None:
            return None
        identity = self.of(token)
        if identity is None:
            raise ServiceError(
                "unknown_player",
                "this bearer token is not a player's token, session or API token (POST /v1/players or "
                "POST /v1/account/sessions makes one)",
            )
        return identity.require_play().name
