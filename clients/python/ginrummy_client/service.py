"""``client.service``: the service itself — its rules, its bots, the preset phrases of the table chat, the
hand analysis anyone may ask for, and whether it is up and ready. None of these needs a token.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from .models import Analysis, Bots, ChatPresets, Liveness, Readiness, RulesCatalog
from .resource import Resource


class Service(Resource):
    """What the service offers and how it is."""

    def rules(self) -> RulesCatalog:
        """The rule presets and every option, with its default and meaning."""
        return cast(RulesCatalog, self.requestor.request("GET", "/v1/rules").data)

    def bots(self) -> Bots:
        """Whom a bot can play: the house bots (``bots``: name, level, style, ``player`` — the name to
        challenge — and ``ratings`` by family), the ``default`` one, and the bot accounts online now
        (``accounts``: their account stream open)."""
        return cast(Bots, self.requestor.request("GET", "/v1/bots").data)

    def chat_presets(self) -> ChatPresets:
        """The preset phrases of the table chat (``presets``: ``{"id", "text"}`` each, e.g. ``good_luck``,
        "Good luck!"): what a player without an account may say (``game.say(preset=id)``)."""
        return cast(ChatPresets, self.requestor.request("GET", "/v1/chat/presets").data)

    def analyze(self, cards: Iterable[str | int], knock_limit: int = 10) -> Analysis:
        """Melds, deadwood, whether 10 or 11 cards can knock or go gin, and the best discards."""
        body = {"cards": list(cards), "knock_limit": knock_limit}
        return cast(Analysis, self.requestor.request("POST", "/v1/analyze", json=body).data)

    def health(self) -> Liveness:
        """``{"status": "ok"}`` when the service's process is up (it does not ask Redis)."""
        return cast(Liveness, self.requestor.request("GET", "/healthz", retries=0).data)

    def ready(self) -> Readiness:
        """``{"status": "ready", "archive": {"pending", "lag_seconds"}}`` when the service can serve;
        :class:`ServiceUnavailable` otherwise."""
        return cast(Readiness, self.requestor.request("GET", "/readyz", retries=0).data)
