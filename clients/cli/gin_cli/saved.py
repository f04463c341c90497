"""Seat tokens kept on disk so that ``gin resume`` can pick up an unfinished game.

The file is ``$XDG_CONFIG_HOME/gin/games.json`` (``~/.config/gin/games.json`` by default). A seat token
is a password for that seat, so the directory is created ``0700`` and the file is written ``0600``
(atomically: a temporary file in the same directory, then a rename).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


def config_dir() -> Path:
    """Where the client keeps its files."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gin"


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


class SavedGames:
    """The per-user file of unfinished games, keyed by game id."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "games.json"

    def load(self) -> dict[str, SavedGame]:
        """Every saved game; an absent or unreadable file is an empty list (it is only a convenience)."""
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        entries = raw.get("games") if isinstance(raw, dict) else None
        games: dict[str, SavedGame] = {}
        for game_id, entry in entries.items() if isinstance(entries, dict) else ():
            try:
                games[game_id] = SavedGame(**entry)
            except TypeError:
                continue  # written by another version: skip rather than fail
        return games

    def save(self, game: SavedGame) -> None:
        """Add or refresh one game."""
        games = self.load()
        game.updated = time.time()
        games[game.game_id] = game
        self._write(games)

    def forget(self, game_id: str) -> None:
        """Drop a finished (or vanished) game."""
        games = self.load()
        if games.pop(game_id, None) is not None:
            self._write(games)

    def latest(self, server: str | None = None) -> SavedGame | None:
        """The most recently played saved game (on ``server``, when given)."""
        games = [g for g in self.load().values() if server is None or g.server == server]
        return max(games, key=lambda g: g.updated, default=None)

    def _write(self, games: dict[str, SavedGame]) -> None:
        directory = self.path.parent
        if not directory.exists():
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(directory, 0o700)  # mkdir's mode is filtered by the umask
        data: dict[str, Any] = {"games": {gid: asdict(g) for gid, g in games.items()}}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1, sort_keys=True)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
