"""Request and response schemas (marshmallow 4), instantiated once per module.

Request schemas validate and load bodies. Response schemas document the responses in the OpenAPI
document; the views render their JSON themselves (the engine's seat view is already plain JSON, and
re-dumping it through marshmallow on every move would cost time without adding anything).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import marshmallow as ma
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from marshmallow import fields, validate

from ginrummy.app.clocks import PRESETS as CLOCK_PRESETS
from ginrummy.app.shapes.chat import PRESETS as CHAT_PRESETS
from ginrummy.bots import BOTS
from ginrummy.engine import PRESETS
from ginrummy.engine.actions import KINDS, PLAY
from ginrummy.engine.cards import CARD_PATTERN
from ginrummy.engine.rules import OPTION_DOCS


class _Converter(OpenAPIConverter):
    """apispec's converter, plus what a schema's ``Meta.json_schema`` adds: JSON Schema that marshmallow
    fields cannot say (a oneOf of forms, a discriminated union, an example). With ``"replace": True`` it is
    the whole schema."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        json_schema: dict[str, Any] = super().schema2jsonschema(schema)  # type: ignore[no-untyped-call]
        extra = dict(getattr(getattr(schema, "Meta", None), "json_schema", {}))
        if extra.pop("replace", False):
            return extra
        return {**json_schema, **extra}


class SchemaPlugin(MarshmallowPlugin):
    Converter = _Converter


# Text that is shown to people or kept in PostgreSQL: no control characters (NUL among them, which
# PostgreSQL cannot store), no line or bidirectional-override characters.
PRINTABLE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]+$"
# A player's name is shown to the other player and to spectators: printable text only.
NAME = [validate.Length(min=1, max=40), validate.Regexp(PRINTABLE_PATTERN, error="a name is printable text")]

CARD_DOC = (
    'A card: its text, rank then suit in any case ("7H", "TD", "10d", "7♥"), or its number 0–51 '
    "(suit × 13 + rank: clubs, diamonds, hearts, spades; ace 0 … king 12). Outputs use the canonical text."
)
# The one description of a card in the document: the component "Card", referenced by every card field.
CARD_SCHEMA: dict[str, Any] = {
    "description": CARD_DOC,
    "oneOf": [
        {"type": "string", "pattern": CARD_PATTERN, "examples": ["7H", "TD", "10d", "7♥"]},
        {"type": "integer", "minimum": 0, "maximum": 51},
    ],
}
CARD_REF = {"$ref": "#/components/schemas/Card"}


class Card(fields.Raw):
    """A card as the client writes it (the component "Card"); the engine parses it and refuses a bad one
    with ``bad_card``. ``allow_none``: JSON null is documented as allowed too."""

    def __init__(self, **kwargs: Any) -> None:
        shape = {"oneOf": [CARD_REF, {"type": "null"}]} if kwargs.get("allow_none") else {"allOf": [CARD_REF]}
        kwargs["metadata"] = {**shape, **kwargs.get("metadata", {})}
        super().__init__(**kwargs)


class WholeNumber(fields.Integer):
    """A JSON integer: no string, no fraction and no boolean (``true`` is an int in Python)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Flag(fields.Boolean):
    """A JSON boolean, nothing else (marshmallow's Boolean also takes "yes", 1, …)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


def _option_schema(doc: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": doc["type"],
        "description": doc["description"],
        "default": doc["default"],
    }
    if "choices" in doc:
        schema["enum"] = doc["choices"]
    if "minimum" in doc:
        schema.update(minimum=doc["minimum"], maximum=doc["maximum"])
    return schema


# Rule options as the engine checks them (its OPTION_DOCS); combinations it refuses get 422 bad_rules.
RULE_OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {doc["name"]: _option_schema(doc) for doc in OPTION_DOCS},
    "additionalProperties": False,
}
# The rules of a game as responses show them (the component "Rules"): every option, with its value.
RULES_SCHEMA: dict[str, Any] = {
    **RULE_OPTIONS_SCHEMA,
    "required": [doc["name"] for doc in OPTION_DOCS],
    "description": "Every rule option in force, with its value (GET /v1/rules describes each)",
}


class RulesIn(ma.Schema):
    preset = fields.String(
        load_default="standard",
        # Documented as an enum, checked by the engine: an unknown preset is 422 bad_rules.
        metadata={"description": "A preset of GET /v1/rules", "enum": list(PRESETS)},
    )
    options = fields.Dict(
        load_default=dict,
        metadata={
            **RULE_OPTIONS_SCHEMA,
            "description": 'Option overrides on top of the preset, e.g. {"knock_limit": 7, "target": 150}; '
            "options that contradict each other or the preset are refused (422 bad_rules)",
        },
    )


class OpponentIn(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(["bot", "human"]))
    bot = fields.String(
        load_default=None,
        allow_none=True,
        # Documented as an enum, checked by the service: another name is 422 unknown_bot.
        metadata={"description": "A bot of GET /v1/bots (null: the default)", "enum": [*BOTS, None]},
    )
    name = fields.String(load_default=None, allow_none=True, validate=NAME)


class ClockIn(ma.Schema):
    """A time control: a preset, or seconds per move and/or a bank per player with an increment."""

    class Meta:
        json_schema = {"example": {"preset": "rapid"}}

    preset = fields.String(
        validate=validate.OneOf(list(CLOCK_PRESETS)),
        metadata={
            "description": "For people: blitz (3 min per player for the match + 2 s per move), rapid "
            "(10 min + 5 s), classical (30 min + 10 s); for bots: eaai (30 s for the match, no increment: "
            "the EAAI competition's). per_move, bank or increment given beside it replace the preset's own"
        },
    )
    per_move = WholeNumber(
        allow_none=True,
        validate=validate.Range(min=1, max=3600),
        metadata={"description": "Seconds per move"},
    )
    bank = WholeNumber(
        allow_none=True,
        validate=validate.Range(min=1, max=86400),
        metadata={"description": "Seconds per player for the whole match"},
    )
    increment = WholeNumber(
        validate=validate.Range(min=0, max=600),
        metadata={
            "description": "Seconds added per move (0 when left out; beside a preset: instead of its own)"
        },
    )


RATED_DOC = (
    "A rated game: both seats players (create/join/seek with a player token), a preset without option "
    "overrides; no hints, no undo. Casual by default"
)


class CreateGameIn(ma.Schema):
    class Meta:
        json_schema = {
            "example": {"rules": {"preset": "standard"}, "opponent": {"type": "bot", "bot": "expert"}}
        }

    rules = fields.Nested(RulesIn, load_default=lambda: {"preset": "standard", "options": {}})
    opponent = fields.Nested(OpponentIn, load_default=lambda: {"type": "bot", "bot": None, "name": None})
    name = fields.String(load_default=None, allow_none=True, validate=NAME)
    rated = Flag(load_default=False, metadata={"description": RATED_DOC})
    private = Flag(
        load_default=False, metadata={"description": "Not listed by GET /v1/games (still spectatable)"}
    )
    clock = fields.Nested(ClockIn, allow_none=True, load_default=None)
    seed = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=2**63 - 1),  # it is stored as a JSON number
        metadata={
            "description": "Fix the deals: only when the service runs with GIN_ALLOW_SEED=1 (tests); "
            "otherwise refused with 422 seed_not_allowed"
        },
    )


class JoinIn(ma.Schema):
    invitation = fields.String(required=True, validate=validate.Length(min=1, max=200))
    name = fields.String(load_default=None, allow_none=True, validate=NAME)


# --- actions -----------------------------------------------------------------------------------------
# Each action has a body schema (what its own endpoint takes) and an action schema (the same with its
# "type": an element of legal_actions, and a body of POST /v1/games/{id}/actions). The engine checks
# every action it is given (Action.from_json); these schemas describe exactly what it accepts.
# A meld's cards; the same card twice (e.g. "7S" and "7s") is refused: 422 duplicate_card.
MELD = fields.List(Card(), metadata={"uniqueItems": True})
MELDS_DOC = "Melds, each a list of cards (a set of 3–4 or a run of 3+ in one suit)"


def _type(name: str) -> fields.String:
    return fields.String(required=True, validate=validate.OneOf([name]))


def _kind(name: str) -> fields.String:
    kind = KINDS[name]
    return fields.String(
        validate=validate.OneOf([kind]),
        metadata={
            "description": f"{kind!r}: "
            + (
                "a move of the play (what makes it the seat's move)"
                if kind == PLAY
                else "an action on the match as a whole, never the seat's move"
            )
            + ". Always listed in legal_actions; optional when posted"
        },
    )


class DealIn(ma.Schema):
    pass


class DrawIn(ma.Schema):
    kind = _kind("draw")  # a listed action's members, posted to its own endpoint, are its body
    source = fields.String(
        required=True,
        validate=validate.OneOf(["stock", "discard"]),
        metadata={
            "description": "stock, or discard: the top of the discard pile (the upcard during the offer)"
        },
    )


class PassIn(ma.Schema):
    pass


class ResignIn(ma.Schema):
    pass


class AbortIn(ma.Schema):
    pass


class RematchIn(ma.Schema):
    pass


class DiscardIn(ma.Schema):
    kind = _kind("discard")
    card = Card(required=True)


class KnockIn(ma.Schema):
    kind = _kind("knock")
    discard = Card(
        required=True,
        allow_none=True,
        metadata={"description": "The face-down discard; null for big gin (all 11 cards melded)"},
    )
    melds = fields.List(
        MELD,
        allow_none=True,
        metadata={
            "description": MELDS_DOC + ": the knocker's arrangement; omitted or null: a minimum-deadwood one"
        },
    )


class LayoffItem(ma.Schema):
    card = Card(required=True)
    meld = WholeNumber(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "Index into the knocker's melds as shown"},
    )


# Two forms: {"best": true} (the engine lays down and lays off for the least deadwood), or the
# defender's own "melds" and "layoffs" (both present, lists that may be empty; "best" absent or false).
LAYOFF_FORMS: dict[str, Any] = {
    "if": {"properties": {"best": {"const": True}}, "required": ["best"]},
    "then": {"properties": {"melds": False, "layoffs": False}},
    "else": {"required": ["melds", "layoffs"]},
}


class LayoffIn(ma.Schema):
    class Meta:
        json_schema = LAYOFF_FORMS

    kind = _kind("layoff")
    best = Flag(metadata={"description": "true: the engine lays down and lays off for the least deadwood"})
    melds = fields.List(MELD, metadata={"description": MELDS_DOC + ": the defender's"})
    layoffs = fields.List(
        fields.Nested(LayoffItem),
        metadata={"description": "The defender's cards laid off on the knocker's melds"},
    )


def _action(name: str, body: type[ma.Schema]) -> type[ma.Schema]:
    """The action schema of a body schema: the same members, its ``type`` and its ``kind``
    (DrawIn → DrawAction)."""
    return type(f"{name.capitalize()}Action", (body,), {"type": _type(name), "kind": _kind(name)})


ACTION_SCHEMAS: dict[str, type[ma.Schema]] = {
    name: _action(name, body)
    for name, body in (
        ("deal", DealIn),
        ("draw", DrawIn),
        ("pass", PassIn),
        ("discard", DiscardIn),
        ("knock", KnockIn),
        ("layoff", LayoffIn),
        ("resign", ResignIn),
        ("abort", AbortIn),
        ("rematch", RematchIn),
    )
}


class ActionSchema(ma.Schema):
    """Any action: an element of a view's legal_actions, posted back as is. The engine checks it."""

    class Meta:
        unknown = ma.INCLUDE
        json_schema = {
            "replace": True,
            "oneOf": [{"$ref": f"#/components/schemas/{cls.__name__}"} for cls in ACTION_SCHEMAS.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {t: f"#/components/schemas/{cls.__name__}" for t, cls in ACTION_SCHEMAS.items()},
            },
        }

    type = fields.String(required=True, validate=validate.OneOf(list(ACTION_SCHEMAS)))


PLAYER_NAME = validate.Regexp(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,29}$",
    error="a player's name is 1 to 30 letters, digits, '_', '.' or '-', starting with a letter or digit",
)


class PlayerIn(ma.Schema):
    name = fields.String(
        required=True,
        validate=PLAYER_NAME,
        metadata={
            "description": "Unique, ignoring case; names starting with bot- are the house bots' (422 "
            "name_reserved)",
            "not": {"pattern": "^[Bb][Oo][Tt]-"},
        },
    )


class SeekIn(ma.Schema):
    rules = fields.Nested(RulesIn, load_default=lambda: {"preset": "standard", "options": {}})
    rated = Flag(load_default=False, metadata={"description": RATED_DOC})
    clock = fields.Nested(ClockIn, allow_none=True, load_default=None)
    min_rating = WholeNumber(allow_none=True, load_default=None, validate=validate.Range(min=0, max=10000))
    max_rating = WholeNumber(allow_none=True, load_default=None, validate=validate.Range(min=0, max=10000))
    quick = Flag(
        load_default=True,
        metadata={"description": "Pair with a compatible open seek at once if there is one (else wait)"},
    )


class WaitQuery(ma.Schema):
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=3600),
        metadata={"description": "Long poll: seconds to wait for a change (capped by GIN_MAX_WAIT)"},
    )


class LeaderboardQuery(ma.Schema):
    family = fields.String(
        load_default="standard",
        validate=validate.OneOf(list(PRESETS)),
        metadata={"description": "A rules family: the preset rated games were played under"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class PlayerGamesQuery(ma.Schema):
    """Filters and paging of a player's finished games."""

    since = fields.AwareDateTime(
        default_timezone=dt.UTC,
        metadata={"description": "Games finished at or after this time (ISO 8601; UTC unless it says)"},
    )
    until = fields.AwareDateTime(
        default_timezone=dt.UTC, metadata={"description": "Games finished before this time (ISO 8601)"}
    )
    opponent = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "Only the games against this player"},
    )
    rated = fields.Boolean(metadata={"description": "Only rated (true) or casual (false) games"})
    family = fields.String(
        validate=validate.OneOf([*PRESETS, "casual"]),
        metadata={"description": "Only games of this rules family (a preset; casual: rules with overrides)"},
    )
    result = fields.String(
        validate=validate.OneOf(["won", "lost", "drawn", "aborted"]),
        metadata={"description": "Only the games the player won, lost, drew, or that were aborted"},
    )
    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The `next` of the previous page, as it was (opaque)"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class RatingHistoryQuery(ma.Schema):
    family = fields.String(
        validate=validate.OneOf(list(PRESETS)), metadata={"description": "Only this rules family"}
    )


class GamesQuery(ma.Schema):
    status = fields.String(load_default="live", validate=validate.OneOf(["live"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class EventsQuery(ma.Schema):
    after = fields.String(
        load_default=None,
        validate=validate.Regexp(r"^\d{1,12}-\d{1,6}$", error="a cursor looks like 12-3"),
        metadata={"description": "Cursor: the id of the last event seen (exclusive)"},
    )
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=3600),
        metadata={"description": "Long poll: seconds to wait for an event when there is none (capped)"},
    )
    chat = fields.Boolean(
        load_default=False,
        metadata={"description": "Streams only: also send the chat lines the caller reads, as they are said"},
    )
    chat_after = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0),
        metadata={"description": "With chat: send the lines after this number first (default: from now on)"},
    )


class ChatIn(ma.Schema):
    """A line to say: a preset phrase or free text (one of them)."""

    room = fields.String(
        required=True,
        validate=validate.OneOf(["player", "spectator"]),
        metadata={"description": "player: the two seats' room; spectator: the watchers' room"},
    )
    preset = fields.String(
        validate=validate.OneOf(list(CHAT_PRESETS)), metadata={"description": "A preset phrase's id"}
    )
    text = fields.String(
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "Free text (an account's): at most 140 characters once cleaned"},
    )


class ChatQuery(ma.Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "The number of the last line seen (exclusive)"},
    )
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=3600),
        metadata={"description": "Long poll: seconds to wait for a line when there is none (capped)"},
    )


class AnalyzeIn(ma.Schema):
    cards = fields.List(
        Card(), required=True, validate=validate.Length(min=1, max=11), metadata={"uniqueItems": True}
    )
    knock_limit = WholeNumber(load_default=10, validate=validate.Range(min=0, max=100))
