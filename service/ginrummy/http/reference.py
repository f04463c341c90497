"""The ``meta`` resource (its OpenAPI tag): what the service offers — the rules and their presets, the
bots — and the stateless analysis of a hand."""

from __future__ import annotations

from typing import Any

from flask import Response

from ginrummy.app.shapes.players import Bots, RulesCatalog
from ginrummy.engine import PRESETS, Rules, analyze_hand
from ginrummy.engine.rules import OPTION_DOCS, PRESET_DOCS
from ginrummy.engine.shapes import Analysis

from . import contract, schemas
from .docs import doc, error_responses
from .games import services
from .parsing import ApiBlueprint
from .requests import json_body, respond

blp = ApiBlueprint("meta", __name__, url_prefix="/v1", description="Rules, bots and stateless hand analysis")

analyze_in = schemas.AnalyzeIn()


@blp.route("/rules", methods=["GET"])
@blp.response(200, contract.ref(RulesCatalog))
@blp.doc(**doc("getRules", error_responses()))
def rules() -> Response:
    """The presets and every rule option with its default and meaning"""
    presets = [
        {"name": name, "description": PRESET_DOCS.get(name, ""), "rules": Rules.from_options(name).to_dict()}
        for name in PRESETS
    ]
    return json_body({"presets": presets, "options": OPTION_DOCS})


@blp.route("/bots", methods=["GET"])
@blp.response(200, contract.ref(Bots))
@blp.doc(**doc("listBots", error_responses()))
def bots() -> Response:
    """The computer opponents one can play: the house bots with their ratings, and the bot accounts
    online now"""
    return respond(services().accounts.bots())


@blp.route("/analyze", methods=["POST"])
@blp.arguments(analyze_in, example={"cards": ["7H", "8H", "9H", "KS", "KD", "KC", "2C", "3D", "4S", "QS"]})
@blp.response(200, contract.ref(Analysis))
@blp.doc(**doc("analyzeHand", error_responses(422)))
def analyze(body: dict[str, Any]) -> Response:
    """Stateless analysis of a hand: melds, deadwood, whether it can knock or gin, best discards"""
    return json_body(analyze_hand(body["cards"], body["knock_limit"]))
