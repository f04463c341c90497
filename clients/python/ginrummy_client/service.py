"""``client.service``: the service itself — its rules, its bots, the hand analysis anyone may ask for, and
whether it is up and ready. None of these needs a token.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from .models import Analysis, BotsInfo, Health, RulesInfo
from .resource import Resource


class Service(Resource):
    """What the service offers and how it is."""

    def rules(self) -> RulesInfo:
        """The rule presets and every option, with its default and meaning."""
        return cast(RulesInfo, self.requestor.request("GET", "/v1/rules").data)

    def bots(self) -> BotsInfo:
        """Whom a bot can play: the house bots (``bots``: name, level, style, ``player`` — the name to
        challenge — and ``ratings`` by family), the ``default`` one, and the bot accounts online now
        (``accounts``: their account stream open)."""
        return cast(BotsInfo, self.requestor.request("GET", "/v1/bots").data)

    def analyze(self, cards: Iterable[str | int], knock_limit: int = 10) -> Analysis:
        """Melds, deadwood, whether 10 or 11 cards can knock or go gin, and the best discards."""
        body = {"cards": list(cards), "knock_limit": knock_limit}
        return cast(Analysis, self.requestor.request("POST", "/v1/analyze", json=body).data)

    def health(self) -> Health:
        """``{"status": "ok"}`` when the service's process is up (it does not ask Redis)."""
        return cast(Health, self.requestor.request("GET", "/healthz", retries=0).data)

    def ready(self) -> Health:
        """``{"status": "ready", "archive": {"pending", "lag_seconds"}}`` when the service can serve;
        :class:`ServiceUnavailable` otherwise."""
        return cast(Health, self.requestor.request("GET", "/readyz", retries=0).data)
