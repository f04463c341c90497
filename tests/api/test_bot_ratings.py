"""The house bots' listed strength (GET /v1/bots): levels in order of strength, and seeded ratings that
agree with the measured results of docs/bots.md — the master above the expert (52.4 % of 2,000 games
against it; 74.05 % of 2,000 against simple: 1500 + 354 ln(p/(1-p)) = 1871, seeded at 1870)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from ginrummy.app.players import ratings
from ginrummy.app.shapes.players import HouseBot
from ginrummy.bots import list_bots, make_bot
from ginrummy.http import contract

MASTER_SEED = 1870
API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_master_is_listed_above_the_expert(client: FlaskClient) -> None:
    bots = {bot["name"]: bot for bot in client.get("/v1/bots").get_json()["bots"]}
    master, expert = bots["master"], bots["expert"]
    assert master["level"] == 6 and expert["level"] == 5
    compared = []
    for family, seeded in master["ratings"].items():
        theirs = expert["ratings"].get(family)
        if seeded["games"] or not theirs or theirs["games"]:
            continue  # a rating rated games have moved: no longer the seed
        assert seeded["rating"] == MASTER_SEED > theirs["rating"], family
        assert seeded["ordinal"] == round(ratings.ordinal(MASTER_SEED, seeded["deviation"]))
        compared.append(family)
    assert compared, "every family's seed has been played away from: none left to compare"


def test_the_seeds_docs_api_lists_are_the_masters() -> None:
    table = dict(re.findall(r"^\| (\w+) \| [^|]* \| (\d+) \|$", API_DOC.read_text(), re.MULTILINE))
    assert int(table["master"]) == MASTER_SEED > int(table["expert"])


def test_the_schema_names_the_levels_the_bots_have() -> None:
    """OpenAPI's HouseBot.level says which levels there are: up to the strongest bot's."""
    components: dict[str, Any] = {}
    contract.schema_of(HouseBot, components)
    level = components["HouseBot"]["properties"]["level"]
    description = level["description"]
    levels = sorted(list_bots(), key=lambda bot: bot["level"])
    weakest, strongest = (f"{bot['level']} ({bot['name']})" for bot in (levels[0], levels[-1]))
    assert weakest in description and strongest in description, description
    assert (level["minimum"], level["maximum"]) == (levels[0]["level"], levels[-1]["level"])


def test_docs_api_says_whose_moves_are_not_in_the_response() -> None:
    """A bot that searches is played by the bot workers after the response (docs/bots.md, "How the service
    plays it"): docs/api.md names it where it says a bot's moves come back in the response to yours."""
    searching = [bot["name"] for bot in list_bots() if make_bot(bot["name"], seed=1).searches]
    assert searching == ["master"]
    text = " ".join(API_DOC.read_text().split())
    for name in searching:
        assert f"appear in the response's `events` (and in the event feed) — all but the **{name}**'s" in text
        assert "the master's moves arrive as events" in text
