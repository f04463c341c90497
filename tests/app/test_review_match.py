"""A match's review (ginrummy.bots.review.review): every judged decision of each seat from its own view,
verdicts by the documented thresholds, accuracy per seat — deterministic, and harsher on worse play."""

from __future__ import annotations

from typing import Any

from ginrummy.app.archive.reviews import review_match
from ginrummy.bots.review import THRESHOLDS, accuracy, judged, verdict
from ginrummy.engine import Rules
from ginrummy.engine.replay import positions

from tests.support import bot_match


def records_of(bots: tuple[str, str], hands: int, seed: int) -> tuple[Rules, list[dict[str, Any]]]:
    game, records = bot_match(bots, Rules.from_options("standard", target=400), seed, hands=hands)
    return game.rules, records


def test_every_judged_decision_is_reviewed_with_the_move_played_and_the_verdict_of_its_loss() -> None:
    rules, records = records_of(("expert", "random"), 2, 7)
    done = review_match(rules, records, samples=16)
    expected = [(p.hand, p.index, p.seat, p.action) for p in positions(rules, records) if judged(p.view)]
    assert [(m["hand"], m["index"], m["seat"], m["played"]) for m in done["moves"]] == expected
    for move in done["moves"]:
        assert move["loss"] >= 0 and move["verdict"] == verdict(move["loss"])
        assert move["played"] in [e["action"] for e in move["estimates"]]
        assert move["best"] == move["estimates"][0]["action"]
    for seat in done["seats"]:
        mine = [m for m in done["moves"] if m["seat"] == seat["seat"]]
        assert seat["decisions"] == len(mine)
        assert seat["accuracy"] == accuracy([m["loss"] for m in mine])
        assert seat["blunders"] == sum(m["verdict"] == "blunder" for m in mine)
        assert seat["mistakes"] == sum(m["verdict"] == "mistake" for m in mine)
        assert seat["inaccuracies"] == sum(m["verdict"] == "inaccuracy" for m in mine)
    assert done["thresholds"] == dict(THRESHOLDS) and done["samples"] == 16
    # Random play gives up far more than the expert's.
    expert, rand = done["seats"]
    assert rand["points_lost"] > expert["points_lost"] and rand["accuracy"] < expert["accuracy"]
    assert rand["blunders"] + rand["mistakes"] > 0


def test_a_review_is_the_same_every_time() -> None:
    rules, records = records_of(("simple", "novice"), 1, 3)
    assert review_match(rules, records, samples=8) == review_match(rules, records, samples=8)
