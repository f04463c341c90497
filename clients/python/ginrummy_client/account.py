"""What the SDK reads of accounts: a signed-in :class:`Session`, and the typed bodies of the account,
its sessions, its API tokens and its games in play (``/v1/account``).

>>> Session("Ann", "gin_s_secret", "12")
Session(name='Ann', id='12')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from .models import SeatPlayer


@dataclass(frozen=True)
class Session:
    """A session made by :meth:`Client.sign_up` or :meth:`Client.sign_in`: the account's ``name``, the
    session ``token`` (shown once by the service; never in a ``repr``) and its ``id``."""

    name: str
    token: str = field(repr=False)
    id: str = ""


class SessionInfo(TypedDict, total=False):
    id: str
    created: float
    last_used: float
    expires: float
    user_agent: str
    address: str
    current: bool


class TokenInfo(TypedDict, total=False):
    id: str
    description: str
    scopes: list[str]
    created: float
    last_used: float | None


class CreatedToken(TokenInfo, total=False):
    token: str


class Credential(TypedDict, total=False):
    kind: str
    scopes: list[str]


class AccountInfo(TypedDict, total=False):
    name: str
    created: float | None
    password: bool
    bot: bool
    sessions: int
    tokens: int
    credential: Credential


class AccountGame(TypedDict, total=False):
    game_id: str
    seat: int
    players: list[SeatPlayer]
    rated: bool
    version: int
    your_move: bool
    game: str
