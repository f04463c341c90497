"""JSON as the service stores it (in Redis: game docs, events, records, outboxes, account events): one
form, compact, written by :func:`compact`."""

from __future__ import annotations

from typing import Any

import orjson


def compact(obj: Any) -> str:
    """JSON as stored: compact, keys as given.

    >>> compact({"a": [1, 2], 3: None})
    '{"a":[1,2],"3":null}'
    """
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
