"""Quick pairing pools, as lichess's home-page grid: a fixed list of seek terms — a rules family, a clock
preset, rated — that everyone seeks under, so that a seek in one is soon paired.

Joining a pool is nothing but a quick seek with its terms (``POST /v1/seeks`` with the pool's ``seek``),
and a seek is in a pool when its terms are exactly the pool's (the same rules text: what makes two seeks
pair; no rating range). Whoever waits in a pool longer than ``GIN_POOL_BOT_AFTER`` seconds is offered a
house bot instead (:mod:`.seeks`).

>>> [pool.id for pool in POOLS][:4]
['standard-blitz', 'standard-rapid', 'standard-classical', 'oklahoma-blitz']
>>> pool_of({"rules": POOLS[4].text, "rated": True, "min_rating": None, "max_rating": None}).id
'oklahoma-rapid'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

FAMILIES = ("standard", "oklahoma", "hollywood")
CLOCKS = ("blitz", "rapid", "classical")


def terms_text(preset: str, options: dict[str, Any], clock: dict[str, Any] | None) -> str:
    """A seek's rules, clock included, as the lobby keeps and compares them (keys sorted)."""
    terms = {"preset": preset, "options": options, "clock": clock}
    return orjson.dumps(terms, option=orjson.OPT_SORT_KEYS).decode()


@dataclass(frozen=True)
class Pool:
    """One pool: a rules family (a preset, unchanged), a clock preset, and rated games."""

    family: str
    clock: str
    rated: bool = True

    @property
    def id(self) -> str:
        return f"{self.family}-{self.clock}"

    @property
    def text(self) -> str:
        return terms_text(self.family, {}, {"preset": self.clock})

    def seek(self) -> dict[str, Any]:
        """The body of ``POST /v1/seeks`` that joins this pool."""
        rules = {"preset": self.family, "options": {}}
        return {"rules": rules, "clock": {"preset": self.clock}, "rated": self.rated}


POOLS = tuple(Pool(family, clock) for family in FAMILIES for clock in CLOCKS)
_BY_TERMS = {(pool.text, pool.rated): pool for pool in POOLS}


def pool_of(seek: dict[str, Any]) -> Pool | None:
    """The pool a seek (as the lobby keeps it) waits in, or None."""
    if seek["min_rating"] is not None or seek["max_rating"] is not None:
        return None
    return _BY_TERMS.get((seek["rules"], seek["rated"]))
