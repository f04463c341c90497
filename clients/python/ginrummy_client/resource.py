"""What every resource client of a :class:`~ginrummy_client.Client` shares (``client.games``,
``client.account``, ``client.challenges``, …), as berserk's clients share theirs (lichess-org/berserk):
the client it belongs to, whose one :class:`~ginrummy_client.transport.Requestor` sends every request and
whose ``token`` is the caller's — read at each call, since signing in or out changes it.

And the warning of an old name (the :class:`Client`'s flat methods, ``client.create_game(…)``), kept for
one release as an alias of its new call.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .client import Client
    from .transport import Requestor


class Resource:
    """A part of the API, as ``client.<name>`` offers it."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.client!r}>"

    @property
    def requestor(self) -> Requestor:
        """The client's Requestor, through which every request passes."""
        return self.client.requestor

    @property
    def token(self) -> str | None:
        """The caller's token: the client's, as it is now."""
        return self.client.token


def renamed(old: str, new: str) -> None:
    """Warn that the old call ``old`` is ``new`` now, pointing at the line that called the
    alias (which calls this)."""
    warnings.warn(
        f"{old} is deprecated and goes in the next release: use {new}", DeprecationWarning, stacklevel=3
    )
