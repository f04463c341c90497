"""The fair-shuffle commitment.

At each deal the server draws a secret salt and publishes

    commitment = SHA-256( salt + ":" + ",".join(deck) )   (hex; deck = the 52 card texts in deck order)

in the view. The finished hand's record (``GET /v1/games/{id}/hands/{n}``) reveals ``salt`` and
``deck``; any client recomputes the hash, checks it equals the commitment it saw while the hand was live,
and checks that its initial hand and the upcard are the ones the revealed deck deals. So the deck was
fixed before the first card was seen and the server could not change the stock afterwards.

>>> commitment("00ff", ["AC", "2C"])
'445ae989cec0be4a465c64579c0bc2da5d80e36b317267d3aa91ceffb44fea16'
>>> verify({"salt": "00ff", "deck": ["AC", "2C"], "commitment": commitment("00ff", ["AC", "2C"])})
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from ginrummy.engine.export import commitment

__all__ = ["commitment", "new_salt", "verify"]


def new_salt() -> str:
    """128 secret bits, hex."""
    return secrets.token_hex(16)


def verify(shuffle: Mapping[str, Any]) -> bool:
    """What a client does with a revealed hand's ``shuffle`` member."""
    return bool(commitment(shuffle["salt"], shuffle["deck"]) == shuffle["commitment"])
