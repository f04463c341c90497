"""What ``gin`` keeps on disk: the seat tokens of games (so that ``gin resume`` can pick up an unfinished
game, and ``gin rematch`` can ask for a rematch of a finished one), and the logins: one per server, the
session of a signed-in account (``gin signup``, ``gin login``) or the token of a name-and-token player.

The files are ``$XDG_CONFIG_HOME/gin/games.json`` and ``…/gin/players.json`` (``~/.config/gin/`` by
default). A seat token is a password for that seat, and a session or player token for the player, so the
directory is created ``0700`` and the files are written ``0600`` (atomically: a temporary file in the
same directory, then a rename). No password is ever written: gin sends it once and keeps the session.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

FINISHED_KEPT = 20
"""Finished games kept for ``gin rematch`` (the most recent ones)."""
FINISHED_FOR = 24 * 3600.0
"""Seconds a finished game is kept for ``gin rematch`` (the service keeps a finished match a day)."""


def config_dir() -> Path:
    """Where the client keeps its files."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gin"


def read_json(path: Path) -> dict[str, Any]:
    """A file's JSON object; an absent or unreadable file is an empty one (it is only a convenience)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def write_private(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON readable by its owner only: directory 0700, file 0600, atomically."""
    directory = path.parent
    if not directory.exists():
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(directory, 0o700)  # mkdir's mode is filtered by the umask
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


@dataclass
class SavedGame:
    """What it takes to come back to a seat: the server, the game and the seat's token."""

    game_id: str
    server: str
    seat: int
    token: str
    opponent: str = ""
    name: str = ""
    invitation: str = ""
    updated: float = 0.0


def _games(entries: Any) -> dict[str, SavedGame]:
    games: dict[str, SavedGame] = {}
    for game_id, entry in entries.items() if isinstance(entries, dict) else ():
        try:
            games[game_id] = SavedGame(**entry)
        except TypeError:
            continue  # written by another version: skip rather than fail
    return games


class SavedGames:
    """The per-user file of games, keyed by game id: the unfinished ones (``games``), and the last few
    finished ones (``finished``), kept for a rematch."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "games.json"

    def load(self) -> dict[str, SavedGame]:
        """Every unfinished saved game."""
        return _games(read_json(self.path).get("games"))

    def load_finished(self) -> dict[str, SavedGame]:
        """The finished games kept for a rematch."""
        return _games(read_json(self.path).get("finished"))

    def save(self, game: SavedGame) -> None:
        """Add or refresh one unfinished game."""
        games, finished = self.load(), self.load_finished()
        game.updated = time.time()
        games[game.game_id] = game
        finished.pop(game.game_id, None)
        self._write(games, finished)

    def finish(self, game: SavedGame) -> None:
        """A game whose match is over: out of the unfinished ones, kept a while for a rematch."""
        games, finished = self.load(), self.load_finished()
        games.pop(game.game_id, None)
        game.updated = time.time()
        finished[game.game_id] = game
        self._write(games, finished)

    def forget(self, game_id: str) -> None:
        """Drop a game the service no longer knows (or refuses the token of)."""
        games, finished = self.load(), self.load_finished()
        if games.pop(game_id, None) is not None or finished.pop(game_id, None) is not None:
            self._write(games, finished)

    def latest(self, server: str | None = None) -> SavedGame | None:
        """The most recently played unfinished game (on ``server``, when given)."""
        return _latest(self.load(), server)

    def latest_finished(self, server: str | None = None) -> SavedGame | None:
        """The most recently finished game (on ``server``, when given)."""
        return _latest(self.load_finished(), server)

    def _write(self, games: dict[str, SavedGame], finished: dict[str, SavedGame]) -> None:
        cutoff = time.time() - FINISHED_FOR
        recent = sorted((g for g in finished.values() if g.updated >= cutoff), key=lambda g: -g.updated)
        data: dict[str, Any] = {
            "games": {gid: asdict(g) for gid, g in games.items()},
            "finished": {g.game_id: asdict(g) for g in recent[:FINISHED_KEPT]},
        }
        write_private(self.path, data)


def _latest(games: dict[str, SavedGame], server: str | None) -> SavedGame | None:
    chosen = [g for g in games.values() if server is None or g.server == server]
    return max(chosen, key=lambda g: g.updated, default=None)


SESSION = "session"
"""A login that is a signed-in session of an account (``gin_s_…``): it may manage the account."""
PLAYER = "player"
"""A login that is a name-and-token player's own token (no password; what older versions of gin made)."""
API_TOKEN = "token"
"""A personal API token given in ``GIN_TOKEN`` (never saved)."""


@dataclass(frozen=True)
class Login:
    """A player of one server: its name, its token (never shown) and what kind of token that is
    (:data:`SESSION`, :data:`PLAYER` or :data:`API_TOKEN`). The name of an API token from the
    environment is not known before the service is asked (``""``)."""

    name: str
    token: str
    kind: str = PLAYER

    def __repr__(self) -> str:
        return f"Login(name={self.name!r}, kind={self.kind!r})"


class Logins:
    """The per-user file of logins, one per server (``gin login NAME``, ``gin signup NAME``)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "players.json"

    def _load(self) -> dict[str, Any]:
        players = read_json(self.path).get("players")
        return players if isinstance(players, dict) else {}

    def get(self, server: str) -> Login | None:
        """The player logged in on ``server``, if any."""
        entry = self._load().get(server.rstrip("/"))
        if not isinstance(entry, dict):
            return None
        name, token, kind = entry.get("name"), entry.get("token"), entry.get("kind", PLAYER)
        if not (isinstance(name, str) and isinstance(token, str) and kind in (SESSION, PLAYER)):
            return None
        return Login(name, token, kind)

    def save(self, server: str, login: Login) -> None:
        """Keep ``login`` for ``server`` (the logins of other servers stay)."""
        players = self._load()
        players[server.rstrip("/")] = {"name": login.name, "token": login.token, "kind": login.kind}
        write_private(self.path, {"players": players})

    def forget(self, server: str) -> Login | None:
        """Drop the login of ``server``; returns it."""
        login = self.get(server)
        players = self._load()
        if players.pop(server.rstrip("/"), None) is not None:
            write_private(self.path, {"players": players})
        return login
