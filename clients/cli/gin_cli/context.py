"""What the command groups are given: :class:`Output`, where a command's answer goes, and
:class:`Connection`, the SDK's client talking to one server as the player logged in there; a group that
acts for the player (:class:`PlayerCommands`) is given both and the player's seats.

A login is kept per server (``saved.Logins``) and goes to its own server only: the token of ``GIN_TOKEN``
to the server gin was pointed at, a saved session or player token to the server it was made on. A saved
game is played on the server it was saved with unless ``--server`` (or ``GIN_SERVER``) names one.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ginrummy_client import ApiError, Client

from .errors import UsageError
from .exits import EXIT_OK
from .saved import API_TOKEN, SESSION, Login, Logins
from .screen import Screen

if TYPE_CHECKING:
    from .seats import Seats

REFUSED_LOGIN = ("unknown_player", "session_expired")
"""The codes of a credential refused as such: a session ended or expired, a token revoked."""


@dataclass(frozen=True)
class Output:
    """Where a command's answer goes: drawn on ``screen``, or with ``--json`` (``json_mode``) as JSON on
    stdout — one document for a command's answer, one line an event while a game is played or awaited."""

    screen: Screen
    json_mode: bool

    def document(self, data: Any) -> None:
        """The ``--json`` answer of a command."""
        print(json.dumps(data, ensure_ascii=False, indent=2))

    def event(self, line: dict[str, Any]) -> None:
        """One ``--json`` line of what is going on (a seat taken, a seek waiting, a challenge sent)."""
        print(json.dumps(line), flush=True)

    def present(self, data: dict[str, Any], render: Callable[[Screen, dict[str, Any]], None]) -> int:
        """Show an answer of the service: as it is with ``--json``, else drawn by ``render``."""
        if self.json_mode:
            self.document(data)
        else:
            render(self.screen, data)
        return EXIT_OK


class Connection:
    """The SDK's ``client``, with the token of the player logged in on the server it talks to.

    ``explicit_server``: the server named by ``--server`` or ``GIN_SERVER`` (None: the default one), which
    a saved game's own server does not override."""

    def __init__(self, client: Client, logins: Logins, explicit_server: str | None) -> None:
        self.client = client
        self.logins = logins
        self.explicit_server = explicit_server
        self.home_server = client.server  # GIN_TOKEN's: the server named (or the default)
        self.login: Login | None = None
        self.connect(client.server)

    @property
    def named_server(self) -> str | None:
        """The server named explicitly, as the saved games spell it; None when none was."""
        return self.explicit_server.rstrip("/") if self.explicit_server else None

    def connect(self, server: str) -> None:
        """Talk to ``server`` as the player logged in there (a token goes to its server only): with the
        token of ``GIN_TOKEN`` on the server gin was pointed at, else with the login kept for it."""
        self.client.server = server.rstrip("/")
        self.login = self.env_login() or self.logins.get(self.client.server)
        self.client.token = self.login.token if self.login is not None else None

    def follow(self, server: str) -> None:
        """Talk to the server a saved game was played on, unless one was named explicitly."""
        if not self.explicit_server:
            self.connect(server)

    def env_login(self) -> Login | None:
        """The token of ``GIN_TOKEN``, on the server gin was pointed at."""
        token = os.environ.get("GIN_TOKEN", "").strip()
        return Login("", token, API_TOKEN) if token and self.client.server == self.home_server else None

    def my_name(self) -> str | None:
        """The name of the player logged in (asked of the service for a token from the environment)."""
        if self.login is not None and not self.login.name:
            self.login = dataclasses.replace(self.login, name=str(self.client.account.get().get("name", "")))
        return self.login.name if self.login is not None else None

    def need_login(self, what: str) -> Login:
        """The login a command for players needs; a usage error without one."""
        if self.login is None:
            raise UsageError(
                f"{what} is for players: gin login NAME first (or gin signup NAME), on {self.client.server}"
            )
        return self.login

    def refused_login(self, exc: ApiError) -> str | None:
        """When ``exc`` refuses the credential itself rather than the request — the session kept here
        ended elsewhere or expired (then forgotten: it will never work again), or the token of
        ``GIN_TOKEN`` revoked —, what to do about it."""
        if exc.code not in REFUSED_LOGIN:
            return None
        env = self.env_login()
        if env is not None and self.client.token == env.token:
            return "the token in GIN_TOKEN is refused (revoked, or not this service's): unset it, or make one"
        kept = self.logins.get(self.client.server)
        if kept is None or kept.kind != SESSION or self.client.token != kept.token:
            return None
        self.logins.forget(self.client.server)
        return (
            f"you are no longer signed in as {kept.name} on {self.client.server} (the session was ended"
            f" elsewhere or has expired): gin login {kept.name} signs in again"
        )


class PlayerCommands:
    """A group of commands that acts for the player, as ``args`` gives them: ``connection`` asks the
    service, ``out`` says what is done, a game is played (or looked up) on the player's ``seats``."""

    def __init__(self, args: argparse.Namespace, connection: Connection, out: Output, seats: Seats) -> None:
        self.args = args
        self.connection = connection
        self.client = connection.client
        self.out = out
        self.screen = out.screen
        self.seats = seats
