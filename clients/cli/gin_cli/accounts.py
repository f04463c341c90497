"""The account on a terminal: ``gin signup``, ``login``, ``logout``, ``passwd``, ``whoami``, ``sessions``
and ``token`` (personal API tokens), and the table of ``gin games --live``.

A password is read, never taken from the command line or the environment: typed at the terminal without
echo (``getpass``), or — when stdin is not a terminal (a script, a test) — its next line. gin sends it
once and keeps the session token the service answers with (``saved.Logins``, owner-only), which every
command that acts as the player then sends. An API token is printed once, when it is made, on stdout
alone (``T=$(gin token create ci --scope play)``); nothing lists it again.

>>> when(0.0), when(None)
('1970-01-01 00:00', 'never')
"""

from __future__ import annotations

import datetime as dt
import getpass
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ginrummy_client import Client, Unauthorized

from .errors import UsageError
from .saved import PLAYER, SESSION, Login, Logins
from .screen import Screen

EXIT_OK = 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def read_password(prompt: str) -> str:
    """A password: typed at the terminal without echo, or, when stdin is not a terminal, its next line
    (without its line end). An empty one, or none at all, is a usage error."""
    if _isatty(sys.stdin):
        try:
            password = getpass.getpass(prompt)
        except EOFError:
            password = ""
    else:
        password = sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    if not password:
        raise UsageError("no password was given (at a terminal it is typed; otherwise read from stdin)")
    return password


def read_new_password(prompt: str) -> str:
    """A new password: at a terminal typed twice (a typo is not kept); from a pipe one line."""
    password = read_password(prompt)
    if _isatty(sys.stdin) and read_password("The same again: ") != password:
        raise UsageError("the two passwords differ: nothing was changed")
    return password


def when(moment: Any) -> str:
    """A unix time as the account's lists show it: UTC, to the minute (``never`` for none)."""
    if not isinstance(moment, int | float):
        return "never"
    return dt.datetime.fromtimestamp(moment, dt.UTC).strftime("%Y-%m-%d %H:%M")


CREDENTIALS = {"session": "a session", "token": "an API token", "player": "a player's own token"}
"""The kinds of credential the service tells apart (``GET /v1/account``'s ``credential.kind``)."""


class AccountCommands:
    """The commands of the account of one server: ``client`` talks to it, ``logins`` keeps its session.

    ``env_login``: the token of ``GIN_TOKEN``, when given for this server: ``whoami`` shows whose it is;
    the commands that manage the account (sessions, the password, API tokens) need the saved session.
    ``output`` prints a ``--json`` document."""

    def __init__(
        self,
        client: Client,
        screen: Screen,
        logins: Logins,
        *,
        json_mode: bool,
        output: Callable[[Any], None],
        env_login: Login | None = None,
    ) -> None:
        self.client = client
        self.screen = screen
        self.logins = logins
        self.json_mode = json_mode
        self.output = output
        self.env_login = env_login
        self.server = client.server
        self.saved = logins.get(self.server)

    def _said(self, name: str | None, text: str, *more: str) -> int:
        """What a command did: ``{"name", "server"}`` with ``--json``, else the lines."""
        if self.json_mode:
            self.output({"name": name, "server": self.server})
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

    def signup(self, name: str | None, *, claim: bool) -> int:
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
        session = self.client.sign_up(name, password, claim=claim)
        name = self._signed_in(session.name, session.token)
        if claim:
            said = f"{name} now has a password: gin login {name} signs in to it from any machine."
        else:
            said = (
                f"Signed up as {name} on {self.server}, and signed in: your games count for {name}, and "
                f"gin login {name} signs in from any other machine."
            )
        return self._said(name, said, self._kept())

    def login(self, name: str) -> int:
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
                self.client.account()
            except Unauthorized:  # signed out elsewhere, or expired: sign in again
                self.logins.forget(self.server)
            else:
                return self._said(saved.name, f"Already signed in as {saved.name} on {self.server}.")
            self.client.token = None
        password = read_password(f"Password for {name} on {self.server}: ")
        session = self.client.sign_in(name, password)
        name = self._signed_in(session.name, session.token)
        said = (
            f"Signed in as {name} on {self.server}: your games count for {name}, and the account's games"
            " in play can be played from here (gin games --live)."
        )
        return self._said(name, said, self._kept())

    def logout(self, *, everywhere: bool, session_id: str | None) -> int:
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
            ended = self.client.sign_out(which)
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
        ended = self.client.change_password(current, new)
        if self.json_mode:
            self.output({"name": saved.name, "server": self.server, "signed_out": ended})
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
        info: dict[str, Any] = dict(self.client.account())
        if self.json_mode:
            self.output({**info, "server": self.server})
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
        return self._listing("gin sessions", "sessions", self.client.sessions, render_sessions)

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
        if self.json_mode:
            self.output({key: rows})
        else:
            render(self.screen, saved.name, rows)
        return EXIT_OK

    # --- personal API tokens ----------------------------------------------------------------------

    def token_create(self, description: str, scopes: Sequence[str]) -> int:
        self._session("gin token create")
        made: dict[str, Any] = dict(self.client.create_token(description, scopes or ["play"]))
        if self.json_mode:
            self.output(made)  # the one time it is shown: what was asked for
            return EXIT_OK
        # The token alone on stdout (a script keeps it: T=$(gin token create …)); the words on stderr.
        print(made["token"], flush=True)
        self.screen.err.write(
            f"API token {made.get('id')} ({made.get('description')}; scopes"
            f" {', '.join(made.get('scopes') or [])}) — copy it now: it will not be shown again.\n"
        )
        self.screen.err.flush()
        return EXIT_OK

    def token_list(self) -> int:
        return self._listing("gin token list", "tokens", self.client.tokens, render_tokens)

    def token_revoke(self, token_id: str) -> int:
        self._session("gin token revoke")
        self.client.revoke_token(token_id)
        if self.json_mode:
            self.output({"revoked": token_id})
        else:
            self.screen.line(f"API token {token_id} revoked: the service refuses it from now on.")
        return EXIT_OK


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def render_rows(
    screen: Screen,
    title: str,
    row: str,
    header: Mapping[str, str],
    rows: Sequence[Mapping[str, Any]],
    *,
    empty: str,
    footer: str,
) -> None:
    """A table under a heading: ``row`` is the format of a line, ``header`` its headings, ``rows`` the
    cells of each line; ``empty`` is said when there are none, ``footer`` (dim) after them."""
    screen.rule(title)
    if not rows:
        screen.line(f"  {empty}")
        return
    screen.line((row.format(**header).rstrip(), "bold"))
    for cells in rows:
        screen.line(row.format(**cells).rstrip())
    screen.line((footer, "dim"))


SESSIONS_ROW = "{mark:1} {id:>5}  {created:<16}  {used:<16}  {expires:<10}  {device:<14} {network}"
"""A row of ``gin sessions`` (80 columns)."""


def render_sessions(screen: Screen, name: str, sessions: Sequence[Mapping[str, Any]]) -> None:
    """The account's sessions, newest first, this machine's marked ``*``."""
    header = {"mark": "", "id": "id", "created": "signed in (UTC)", "used": "last used", "expires": "expires",
              "device": "device", "network": "network"}  # fmt: skip
    cells = [
        {
            "mark": "*" if row.get("current") else "",
            "id": str(row.get("id", "?")),
            "created": when(row.get("created")),
            "used": when(row.get("last_used")),
            "expires": when(row.get("expires"))[:10],
            "device": str(row.get("user_agent") or "?").split(" ", 1)[0][:14],
            "network": str(row.get("address") or ""),
        }
        for row in sessions
    ]
    footer = "* this machine. gin logout ends it; --session ID another; --everywhere all of them."
    render_rows(screen, f"Sessions of {name}", SESSIONS_ROW, header, cells, empty="none", footer=footer)


TOKENS_ROW = "  {id:>5}  {description:<24} {scopes:<15} {created:<16}  {used}"
"""A row of ``gin token list`` (80 columns)."""


def render_tokens(screen: Screen, name: str, tokens: Sequence[Mapping[str, Any]]) -> None:
    """The account's API tokens: never the tokens themselves (the service keeps only their digests)."""
    header = {"id": "id", "description": "description", "scopes": "scopes", "created": "created (UTC)",
              "used": "last used"}  # fmt: skip
    cells = [
        {
            "id": str(row.get("id", "?")),
            "description": str(row.get("description") or "")[:24],
            "scopes": ",".join(row.get("scopes") or [])[:15],
            "created": when(row.get("created")),
            "used": when(row.get("last_used")),
        }
        for row in tokens
    ]
    render_rows(
        screen, f"API tokens of {name}", TOKENS_ROW, header, cells,
        empty="none: gin token create DESCRIPTION --scope play makes one",
        footer="gin token revoke ID revokes one: it is refused at once.",
    )  # fmt: skip


LIVE_ROW = "  {game:<21}  {seat:>4}  {opponent:<24} {rated:<6} {move}"
"""A row of ``gin games --live``."""


def render_live_games(screen: Screen, name: str, games: Sequence[Mapping[str, Any]]) -> None:
    """The account's games in play, newest first — from any machine: ``gin resume GAME`` plays one."""
    header = {"game": "game", "seat": "seat", "opponent": "opponent", "rated": "rated", "move": "to move"}
    cells = []
    for game in games:
        seat = int(game.get("seat") or 0)
        players = game.get("players") or []
        other = players[1 - seat] if len(players) == 2 and isinstance(players[1 - seat], Mapping) else {}
        opponent = str(other.get("name") or "?") + (" (bot)" if other.get("type") == "bot" else "")
        cells.append(
            {
                "game": str(game.get("game_id", "?")),
                "seat": str(seat),
                "opponent": opponent[:24],
                "rated": "yes" if game.get("rated") else "no",
                "move": "you" if game.get("your_move") else opponent[:16],
            }
        )
    render_rows(
        screen, f"Games in play of {name} · newest first", LIVE_ROW, header, cells,
        empty="none: gin play, gin host or gin seek starts one",
        footer="gin resume GAME plays one here; gin show GAME shows its table.",
    )  # fmt: skip
