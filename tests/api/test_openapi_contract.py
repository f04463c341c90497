"""The OpenAPI document as a contract generators can use: valid OpenAPI 3.1, a stable operationId on
every operation, typed bodies (the action union discriminated on ``type``), every error documented as
problem+json, and links from the operations that hand out a seat to the game's operations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]
SPEC: dict[str, Any] = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
OPERATIONS = [
    (path, method, operation)
    for path, item in SPEC["paths"].items()
    for method, operation in item.items()
    if method in ("get", "post", "put", "patch", "delete")
]
ACTIONS = {"deal", "draw", "pass", "discard", "knock", "layoff", "resign", "abort", "rematch"}


def schema_of(name: str) -> dict[str, Any]:
    """A component schema with its references resolvable (for jsonschema)."""
    return {**SPEC["components"]["schemas"][name], "components": SPEC["components"]}


def test_the_document_is_valid_openapi_3_1() -> None:
    assert SPEC["openapi"] == "3.1.0"
    validate(SPEC)  # openapi-spec-validator: raises on any error


def test_every_operation_has_a_unique_readable_operation_id() -> None:
    ids = [operation.get("operationId") for _, _, operation in OPERATIONS]
    assert all(ids) and len(set(ids)) == len(ids), ids
    assert all(i.isidentifier() and i[0].islower() for i in ids), ids
    wanted = {"createGame", "getGame", "joinGame", "postAction", "getEvents", "getHand", "getHint", "undo"}
    assert wanted <= set(ids)


def test_every_error_status_is_documented_as_problem_json() -> None:
    for path, method, operation in OPERATIONS:
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")) and status != "414":  # 414: gunicorn's own, documented
                content = response.get("content", {})
                assert "application/problem+json" in content, (path, method, status)


def test_the_action_union_is_discriminated_on_type() -> None:
    action = SPEC["components"]["schemas"]["Action"]
    assert action["discriminator"]["propertyName"] == "type"
    assert set(action["discriminator"]["mapping"]) == ACTIONS
    assert len(action["oneOf"]) == len(ACTIONS)
    body = SPEC["paths"]["/v1/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/Action"}
    legal = SPEC["components"]["schemas"]["View"]["properties"]["legal_actions"]
    assert legal["items"] == {"$ref": "#/components/schemas/Action"}


@pytest.mark.parametrize(
    "action",
    [
        {"type": "deal"},
        {"type": "draw", "source": "stock"},
        {"type": "pass"},
        {"type": "discard", "card": "7H"},
        {"type": "discard", "card": 51},
        {"type": "discard", "card": "10♥"},
        {"type": "knock", "discard": None},
        {"type": "knock", "discard": "KS", "melds": [["7H", "8H", "9H"]]},
        {"type": "layoff", "best": True},
        {"type": "layoff", "melds": [], "layoffs": [{"card": "2C", "meld": 0}]},
    ],
)
def test_the_action_schema_takes_every_form_of_the_rules(action: dict[str, Any]) -> None:
    jsonschema.validate(action, schema_of("Action"))


@pytest.mark.parametrize(
    "action",
    [
        {"type": "fly"},
        {"type": "draw", "source": "sky"},
        {"type": "discard", "card": "1H"},
        {"type": "discard", "card": 52},
        {"type": "discard", "card": True},
        {"type": "discard"},
        {"type": "layoff", "best": True, "melds": []},
        {"type": "layoff", "melds": []},
        {"type": "layoff", "best": False},
        {"type": "pass", "card": "7H"},
    ],
)
def test_the_action_schema_refuses_what_the_engine_refuses(action: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(action, schema_of("Action"))


def test_a_new_seat_links_to_the_games_operations() -> None:
    for path, status in (("/v1/games", "201"), ("/v1/games/{game_id}/join", "200")):
        links = SPEC["paths"][path]["post"]["responses"][status]["links"]
        assert {link["operationId"] for link in links.values()} >= {"getGame", "postAction", "getEvents"}
        assert all(link["parameters"] == {"game_id": "$response.body#/game_id"} for link in links.values())


def test_rule_options_are_typed() -> None:
    options = SPEC["components"]["schemas"]["RulesIn"]["properties"]["options"]
    assert options["additionalProperties"] is False
    assert options["properties"]["knock_limit"]["type"] == "integer"
    assert options["properties"]["wall"]["enum"] == ["cancel", "fiftieth_card"]
    assert options["properties"]["oklahoma"]["type"] == "boolean"
