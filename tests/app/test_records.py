"""A player's NDJSON export line is joined from the archive's JSON texts, not parsed and printed again: it
must be the very document that GET /v1/games/{id}/export serves."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from ginrummy.app.archive.reading import export_line
from ginrummy.app.archive.writing import export

HAND = {"number": 1, "deck": ["7H", "8H"], "actions": [{"seat": 0, "type": "pass"}], "score": None}
RATED = {"before": None, "after": (27.5, 7.9)}


@pytest.mark.parametrize(
    ("document", "hands", "changes"),
    [
        (
            {"format": "ginrummy.match", "version": 1, "players": [{"name": "Zoë"}]},
            [HAND, HAND],
            [None, None],
        ),
        (
            {"format": "ginrummy.match", "result": {"winner": 0}},
            [],
            [RATED, {"before": (25.0, 8.3), "after": (23.1, 8.0)}],
        ),
        ({}, [HAND], [None, RATED]),
    ],
)
def test_an_export_line_is_the_export_document(
    document: dict[str, Any], hands: list[Any], changes: list[dict[str, Any] | None]
) -> None:
    for text in (json.dumps(document), orjson.dumps(document).decode(), json.dumps(document, indent=2)):
        line = export_line(text, ",".join(orjson.dumps(hand).decode() for hand in hands), changes)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert orjson.loads(line) == orjson.loads(orjson.dumps(export(document, hands, changes)))
