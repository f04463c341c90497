"""The commands of the account: ``gin signup``, ``login``, ``logout``, ``passwd``, ``whoami``, ``sessions``
and ``token`` (personal API tokens).

gin sends a password once (:func:`accounts.read_password`) and keeps the session token the service answers
with (``saved.Logins``, owner-only), which every command that acts as the player then sends. An API token
is printed once, when it is made, on stdout alone (``T=$(gin token create ci --scope play)``); nothing
lists it again.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ginrummy_client import Client, Unauthorized

from .accounts import read_new_password, read_password, render_sessions, render_tokens, when
from .context import Output
from .errors import UsageError
from .exits import EXIT_OK
from .saved import PLAYER, SESSION, Login, Logins
from .screen import Screen

COMMANDS = ("signup", "login", "logout", "passwd", "whoami", "sessions", "token")
"""The commands carried out here, each by the method of its name."""

CREDENTIALS = {"session": "a session", "token": "an API token", "player": "a player's own token"}
"""The kinds of credential the service tells apart (``GET /v1/account``'s ``credential.kind``)."""


class AccountCommands:
    """The commands of the account of one server, as ``args`` gives them: ``client`` talks to it,
    ``logins`` keeps its session.

    ``env_login``: the token of ``GIN_TOKEN``, when given for this server: ``whoami`` shows whose it is;
    the commands that manage the account (sessions, the password, API tokens) need the saved session."""

    def __init__(
        self,
        args: argparse.Namespace,
        client: Client,
        logins: Logins,
        out: Output,
        *,
        env_login: Login | None = None,
    ) -> None:
        self.args = args
        self.client = client
        self.logins = logins
        self.out = out
        self.screen = out.screen
        self.env_login = env_login
        self.server = client.server
        self.saved = logins.get(self.server)

    def _said(self, name: str | None, text: str, *more: str) -> int:
        """What a command did: ``{"name", "server"}`` with ``--json``, else the lines."""
        if self.out.json_mode:
            self.out.document({"name": name, "server": self.server})
        else:
            for line in (text, *more):
                self.screen.line(line)
        return EXIT_OK

    def _kept(self) -> str:
        return f"(The session token is kept in {self.logins.path}, readable by you only.)"

    def _signed_in(self, name: str, token: str) -> str:
        """Keep the new session of ``name``; the account's name as the service spells it."""
        self.logins.save(self.server, Login(name, token, SESSION))
        self.saved = self.logins.get(self.server)
        return name

    def _session(self, command: str) -> Login:
        """The saved session, which the command sends: managing the account needs one."""
        saved = self.saved
        if saved is None or saved.kind != SESSION:
            held = f" ({saved.name}, kept here, has no password: gin signup --claim)" if saved else ""
            raise UsageError(f"{command} needs a signed-in session: gin login NAME first{held}")
        self.client.token = saved.token
        return saved

    # --- signing up, in and out -------------------------------------------------------------------

    def signup(self) -> int:
        name: str | None = self.args.name or None
        claim: bool = self.args.claim
        saved = self.saved
        if claim:
            if saved is None or saved.kind != PLAYER:
                raise UsageError(
                    "--claim gives a password to the player without one that gin keeps for this server, "
                    f"and there is none on {self.server} (gin signup NAME makes an account)"
                )
            if name and name.casefold() != saved.name.casefold():
                raise UsageError(f"the player kept here is {saved.name}: gin signup --claim")
            name = saved.name
            self.client.token = saved.token
        elif not name:
            raise UsageError("gin signup NAME: the name of the new account")
        elif saved is not None and saved.kind == PLAYER and saved.name.casefold() == name.casefold():
            raise UsageError(f"{saved.name} is kept here without a password: gin signup --claim gives it one")
        elif saved is not None:
            raise UsageError(f"you are logged in as {saved.name} on {self.server}: gin logout first")
        password = read_new_password(f"A password for {name} (10 characters or more): ")
        session = self.client.account.sign_up(name, password, claim=claim)
        name = self._signed_in(session.name, session.token)
        if claim:
            said = f"{name} now has a password: gin login {name} signs in to it from any machine."
        else:
            said = (
                f"Signed up as {name} on {self.server}, and signed in: your games count for {name}, and "
                f"gin login {name} signs in from any other machine."
            )
        return self._said(name, said, self._kept())

    def login(self) -> int:
        name: str = self.args.name
        saved = self.saved
        if saved is not None and saved.name.casefold() != name.casefold():
            raise UsageError(f"you are logged in as {saved.name} on {self.server}: gin logout first")
        if saved is not None and saved.kind == PLAYER:
            return self._said(
                saved.name,
                f"Already logged in as {saved.name} on {self.server}.",
                "(A player without a password: gin signup --claim gives it one, to sign in anywhere.)",
            )
        if saved is not None:
            self.client.token = saved.token
            try:
                self.client.account.get()
            except Unauthorized:  # signed out elsewhere, or expired: sign in again
                self.logins.forget(self.server)
            else:
                return self._said(saved.name, f"Already signed in as {saved.name} on {self.server}.")
            self.client.token = None
        password = read_password(f"Password for {name} on {self.server}: ")
        session = self.client.account.sign_in(name, password)
        name = self._signed_in(session.name, session.token)
        said = (
            f"Signed in as {name} on {self.server}: your games count for {name}, and the account's games"
            " in play can be played from here (gin games --live)."
        )
        return self._said(name, said, self._kept())

    def logout(self) -> int:
        everywhere: bool = self.args.everywhere
        session_id = self.args.session.strip() if self.args.session else None
        saved = self.saved
        if saved is None:
            return self._said(None, f"Not logged in on {self.server}.")
        if saved.kind == PLAYER:
            if everywhere or session_id:
                raise UsageError(f"{saved.name} has no password, hence no sessions: gin logout forgets it")
            self.logins.forget(self.server)
            return self._said(
                saved.name,
                f"Logged out {saved.name}: its token is forgotten, so this player cannot be used from"
                " here again.",
            )
        self.client.token = saved.token
        which = "all" if everywhere else session_id or "current"
        try:
            ended = self.client.account.sign_out(which)
        except Unauthorized:  # this session had ended already (elsewhere, or expired)
            if which != "current":
                raise
            ended = 0
        if which in ("current", "all"):
            self.logins.forget(self.server)
        if everywhere:
            said = f"Signed out {saved.name} everywhere: {ended} session{_s(ended)} ended, this one too."
        elif session_id:
            said = f"Session {session_id} of {saved.name} ended."
        else:
            said = f"Signed out {saved.name} on {self.server}: this machine's session has ended."
        return self._said(saved.name, said)

    def passwd(self) -> int:
        saved = self._session("gin passwd")
        current = read_password(f"Current password of {saved.name}: ")
        new = read_new_password("New password (10 characters or more): ")
        ended = self.client.account.change_password(current, new)
        if self.out.json_mode:
            self.out.document({"name": saved.name, "server": self.server, "signed_out": ended})
        else:
            self.screen.line(
                f"Password changed. {ended} other session{_s(ended)} of {saved.name} signed out;"
                " this one stays signed in."
            )
        return EXIT_OK

    # --- who, and where -----------------------------------------------------------------------------

    def whoami(self) -> int:
        login = self.env_login or self.saved
        if login is None:
            raise UsageError(f"not logged in on {self.server}: gin login NAME (or gin signup NAME)")
        self.client.token = login.token
        info: dict[str, Any] = dict(self.client.account.get())
        if self.out.json_mode:
            self.out.document({**info, "server": self.server})
            return EXIT_OK
        credential = info.get("credential") or {}
        scopes = ", ".join(credential.get("scopes") or [])
        if login is self.env_login:
            kind = CREDENTIALS.get(str(credential.get("kind")), "a token")
            how = f"GIN_TOKEN, {kind} (scopes {scopes})"
        elif login.kind == SESSION:
            how = f"this machine's session (kept in {self.logins.path})"
        else:
            how = f"the player's own token, kept in {self.logins.path}"
        s = self.screen
        s.rule(f"{info.get('name', '?')} on {self.server}")
        s.line(f"Signed in with: {how}")
        s.line(f"Password: {'yes' if info.get('password') else 'no (gin signup --claim sets one)'}")
        s.line(f"Bot account: {'yes' if info.get('bot') else 'no'}")
        s.line(f"Sessions: {info.get('sessions', 0)} · API tokens: {info.get('tokens', 0)}")
        if info.get("created") is not None:
            s.line(f"Account since: {when(info.get('created'))} UTC")
        return EXIT_OK

    def sessions(self) -> int:
        return self._listing("gin sessions", "sessions", self.client.account.sessions, render_sessions)

    def _listing(
        self,
        command: str,
        key: str,
        read: Callable[[], Sequence[Mapping[str, Any]]],
        render: Callable[[Screen, str, Sequence[Mapping[str, Any]]], None],
    ) -> int:
        """A list of the account's that needs the session (its sessions, its API tokens): as the
        service sent it with ``--json`` (``{key: [...]}``), else drawn by ``render``."""
        saved = self._session(command)
        rows = [dict(row) for row in read()]
        if self.out.json_mode:
            self.out.document({key: rows})
        else:
            render(self.screen, saved.name, rows)
        return EXIT_OK

    # --- personal API tokens ----------------------------------------------------------------------

    def token(self) -> int:
        """``gin token create``, ``list`` or ``revoke``."""
        action = self.args.token_command
        if action == "create":
            return self._token_create(self.args.description, self.args.scopes)
        if action == "revoke":
            return self._token_revoke(self.args.token_id.strip())
        return self._listing("gin token list", "tokens", self.client.account.tokens, render_tokens)

    def _token_create(self, description: str, scopes: Sequence[str]) -> int:
        self._session("gin token create")
        made: dict[str, Any] = dict(self.client.account.create_token(description, scopes or ["play"]))
        if self.out.json_mode:
            self.out.document(made)  # the one time it is shown: what was asked for
            return EXIT_OK
        # The token alone on stdout (a script keeps it: T=$(gin token create …)); the words on stderr.
        print(made["token"], flush=True)
        self.screen.err.write(
            f"API token {made.get('id')} ({made.get('description')}; scopes"
            f" {', '.join(made.get('scopes') or [])}) — copy it now: it will not be shown again.\n"
        )
        self.screen.err.flush()
        return EXIT_OK

    def _token_revoke(self, token_id: str) -> int:
        self._session("gin token revoke")
        self.client.account.revoke_token(token_id)
        if self.out.json_mode:
            self.out.document({"revoked": token_id})
        else:
            self.screen.line(f"API token {token_id} revoked: the service refuses it from now on.")
        return EXIT_OK


def _s(count: int) -> str:
    return "" if count == 1 else "s"
