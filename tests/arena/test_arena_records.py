"""The arena's game records are export documents: member for member the shape of the service's export of a
real game (made by the service's own code: its dealing, the outbox records a commit writes, and
``archiving.export``), valid for the schema the API documents, and with shuffle commitments that check."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
from ginrummy.app.archive.writing import export
from ginrummy.app.playing import fairness
from ginrummy.app.playing.render import BOT_VIEW_OMITS
from ginrummy.arena.cli import main
from ginrummy.arena.games import HOUSE_VIEW_OMITS
from ginrummy.engine import Action, Rules, hand_result
from ginrummy.engine.cards import parse_card
from ginrummy.engine.hand import Hand

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
# The service's document says what an export is: an arena's records are the same documents.
EXPORT = jsonschema_rs.Draft202012Validator(
    {"$ref": "#/components/schemas/MatchExport", "components": DOCUMENT["components"]}
)


def service_export(seed: int) -> dict[str, Any]:
    """A match played to its end through the service's dealing, by the benchmark of the archive (its
    records exactly as the commits write them to the outbox), exported as the service exports it."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_archive import play_template
    finally:
        sys.path.remove(str(ROOT / "bench"))
    template = play_template(seed, "standard", "simple", None)
    hands = [template.hands[f"h:{number}"] for number in range(1, len(template.hands) + 1)]
    return export(template.match["doc"], hands, [None, None])


def members(items: list[dict[str, Any]]) -> set[tuple[str, ...]]:
    """The member lists (in order) of a list of objects."""
    return {tuple(item) for item in items}


def arena_records(folder: Path, *args: str) -> list[dict[str, Any]]:
    path = folder / "games.ndjson"
    assert main([*args, "--records", str(path), "--quiet"]) == 0
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and all(
        line.startswith('{"format":"ginrummy.match"') for line in text.splitlines()
    )
    return [json.loads(line) for line in text.splitlines()]


def test_a_record_has_the_members_of_the_services_export_in_their_order(tmp_path: Path) -> None:
    theirs = service_export(seed=21)
    ours = arena_records(tmp_path, "expert", "simple", "--games", "2")
    assert theirs["hand_count"] >= 2 and all(record["hand_count"] >= 2 for record in ours)
    for record in ours:
        assert list(record) == list(theirs)
        assert list(record["result"]) == list(theirs["result"])
        assert list(record["rules"]) == list(theirs["rules"])
        for member in ("stats", "hand_summaries", "hands"):
            assert members(record[member]) == members(theirs[member]), member
        assert members(record["result"]["games"]) == members(theirs["result"]["games"])
        assert members([h["shuffle"] for h in record["hands"]]) == members(
            [h["shuffle"] for h in theirs["hands"]]
        )
        # Every arena seat has the form of the service's house bot seat.
        assert members(record["players"]) == {tuple(theirs["players"][1])}
        assert record["ratings"] == theirs["ratings"] == [None, None]
        assert (record["format"], record["version"], record["rated"], record["clock"]) == (
            "ginrummy.match",
            1,
            False,
            None,
        )
        assert record["family"] == theirs["family"] == "standard"


def test_a_record_is_valid_for_the_documented_schema_and_its_shuffles_check(tmp_path: Path) -> None:
    (record,) = arena_records(
        tmp_path, "trapper", "knocker", "--games", "1", "--rules", "oklahoma", "-o", "target=30"
    )[:1]
    assert EXPORT.is_valid(record), [e.message for e in EXPORT.iter_errors(record)]  # the service's format
    assert record["family"] is None and record["rules"]["oklahoma"] is True  # overrides: no family
    assert record["hand_count"] == len(record["hands"]) == len(record["hand_summaries"])
    for number, hand in enumerate(record["hands"], start=1):
        assert hand["number"] == number and hand["game_id"] == record["game_id"]
        assert fairness.verify(hand["shuffle"]) and hand["shuffle"]["deck"] == hand["deck"]
    assert record["started_at"] == record["finished_at"] == "1970-01-01T00:00:00.000Z"
    games = record["result"]["games"]
    assert record["result"]["winner"] == record["result"]["match_winner"] == games[-1]["winner"]


def test_a_forfeited_game_is_recorded_up_to_its_last_finished_hand(tmp_path: Path) -> None:
    bot = tmp_path / "late.py"
    bot.write_text(
        "def choose(view):\n"
        "    if view['hand_number'] >= 2:\n"
        "        return {'type': 'resign!'}\n"
        "    return view['legal_actions'][0]\n"
    )
    date = "2026-11-24T17:00:00.000Z"
    (record,) = arena_records(
        tmp_path, f"{bot}:choose", "simple", "--games", "2", "-o", "target=500", "--date", date
    )[:1]
    assert record["started_at"] == record["finished_at"] == date
    assert EXPORT.is_valid(record), [e.message for e in EXPORT.iter_errors(record)]
    assert record["result"]["end_reason"] == "disqualified" and record["result"]["forfeited_by"] == 0
    assert record["hand_count"] == len(record["hands"]) == 1  # the live hand is abandoned, never revealed


def test_house_bots_see_the_view_the_service_shows_them() -> None:
    assert HOUSE_VIEW_OMITS == BOT_VIEW_OMITS


def test_a_record_replays_move_for_move_on_the_engine(tmp_path: Path) -> None:
    """Each recorded hand — its deck and its actions, replayed on a fresh hand — ends as recorded."""
    (record,) = arena_records(tmp_path, "expert", "novice", "--games", "1", "-o", "target=30")[:1]
    rules = Rules.from_dict(record["rules"])
    for recorded in record["hands"]:
        hand = Hand.deal(rules, recorded["dealer"], [parse_card(card) for card in recorded["deck"]])
        for action in recorded["actions"]:
            # A draw's "card" is what the record reveals, not part of the move.
            move = {
                k: v for k, v in action.items() if k != "seat" and (k != "card" or action["type"] != "draw")
            }
            hand.apply(action["seat"], Action.from_json(move))
        assert hand.over and hand_result(hand) == recorded["result"]
