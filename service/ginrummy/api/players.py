"""Computer players inside the service: which bots exist, their decisions and the hint.

The bots live in :mod:`ginrummy.bots` and see only their seat's view. A bot decision's seed is derived
from server-side state (a per-game secret salt, the game version and the step), so play is reproducible
from the stored game and yet no client can predict it. Should a bot ever fail or choose an illegal
action, the service plays the first legal action instead (preferring anything to a pass), so a game is
never stuck.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ginrummy import bots


def list_bots() -> list[dict[str, Any]]:
    """Every bot that can be played: ``{"name", "level", "description"}``."""
    return [dict(b) for b in bots.list_bots()]


def bot_names() -> list[str]:
    return [b["name"] for b in list_bots()]


def default_bot() -> str:
    names = bot_names()
    return "simple" if "simple" in names else names[0]


def decision_seed(salt: str, game_id: str, version: int, step: int) -> int:
    """A 63-bit seed for one bot decision, from the game's secret salt and public position."""
    raw = hashlib.sha256(f"{salt}\n{game_id}\n{version}\n{step}".encode()).digest()
    return int.from_bytes(raw[:8], "big") >> 1


def choose(bot: str, seed: int, view: dict[str, Any]) -> dict[str, Any]:
    """The bot's action for its seat view (an element of ``view["legal_actions"]``)."""
    return dict(bots.make_bot(bot, seed).choose(view))


def first_legal(view: dict[str, Any]) -> dict[str, Any]:
    """The fallback move: the first legal action, preferring anything to a pass."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    for action in legal:
        if action.get("type") != "pass":
            return action
    return legal[0]


def hint(view: dict[str, Any]) -> dict[str, Any]:
    """Advice for a seat: ``{"action", "explanation", "alternatives"}``."""
    return dict(bots.hint(view))
