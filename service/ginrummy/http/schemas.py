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


# --- responses (documentation) ---------------------------------------------------------------------
class Out(ma.Schema):
    """A response body: documented members, and more may come (clients ignore what they do not know)."""

    class Meta:
        unknown = ma.INCLUDE


class HandOut(Out):
    cards = fields.List(fields.String())
    melds = fields.List(fields.List(fields.String()))
    deadwood_cards = fields.List(fields.String())
    deadwood = fields.Integer()
    discards = fields.List(
        fields.Dict(), metadata={"description": "With 11 cards: deadwood after each discard"}
    )


class PlayerOut(Out):
    seat = fields.Integer()
    player = fields.String(allow_none=True, metadata={"description": "The player (POST /v1/players) seated"})
    name = fields.String(allow_none=True)
    type = fields.String(metadata={"description": "human or bot"})
    bot = fields.String(metadata={"description": "The bot's name (bots only)"})
    joined = fields.Boolean(metadata={"description": "Whether the human has taken the seat"})
    card_count = fields.Integer(metadata={"description": "Cards in the seat's hand (spectator view)"})
    known_cards = fields.List(
        fields.String(), metadata={"description": "Its cards anyone has seen it take or lay down"}
    )
    cards = fields.List(fields.String(), metadata={"description": "Its whole hand, once the hand is over"})


class ClockOut(Out):
    per_move = fields.Integer(allow_none=True)
    bank = fields.Integer(allow_none=True)
    increment = fields.Integer()
    remaining = fields.List(
        fields.Float(), allow_none=True, metadata={"description": "Bank seconds left, by seat"}
    )
    running = fields.Integer(allow_none=True, metadata={"description": "The seat whose clock runs"})
    move_remaining = fields.Float(
        allow_none=True, metadata={"description": "Seconds the running seat has left for this move"}
    )


class ViewOut(Out):
    """A seat's view of the game (docs/rules.md §11): never the opponent's hidden cards or the stock."""

    game_id = fields.String()
    version = fields.Integer(metadata={"description": "Also the ETag; send it back in If-Match"})
    seat = fields.Integer(allow_none=True, metadata={"description": "null for a spectator"})
    phase = fields.String(
        metadata={
            "description": "upcard_nondealer, upcard_dealer, draw, discard, fiftieth_card, layoff, "
            "hand_over, game_over or match_over"
        }
    )
    turn = fields.Integer(
        allow_none=True, metadata={"description": "Seat to act; null: either human may deal"}
    )
    dealer = fields.Integer()
    hand_number = fields.Integer()
    rules = fields.Dict(metadata={"description": "Every rule option in force"})
    knock_limit = fields.Integer(metadata={"description": "In force this hand (Oklahoma: from the upcard)"})
    spades_double = fields.Boolean()
    hand = fields.Nested(HandOut, metadata={"description": "The caller's cards (absent for spectators)"})
    opponent = fields.Dict(metadata={"description": '{"seat", "card_count", "known_cards"}'})
    players = fields.List(fields.Nested(PlayerOut))
    discard_pile = fields.List(fields.String(), metadata={"description": "Bottom to top"})
    stock_size = fields.Integer()
    knock = fields.Dict(allow_none=True)
    result = fields.Dict(
        allow_none=True, metadata={"description": "When the hand is over: outcome and points"}
    )
    legal_actions = fields.List(
        fields.Nested(ActionSchema),
        metadata={
            "description": "Exactly the bodies POST /v1/games/{id}/actions accepts, now, from this seat"
        },
    )
    history = fields.List(
        fields.Dict(),
        metadata={
            "description": "The live hand's moves as this seat saw them; in GET views only (a change's "
            "response carries its events instead)"
        },
    )
    scores = fields.Dict()
    hands = fields.List(fields.Dict())
    stats = fields.List(
        fields.Dict(),
        metadata={"description": "Per seat: hands won, gins, knocks, …; in GET views only"},
    )
    commitment = fields.String(
        allow_none=True,
        metadata={"description": "SHA-256 commitment to this hand's deck order (docs/api.md)"},
    )
    waiting_for_opponent = fields.Boolean()
    cursor = fields.String(
        metadata={
            "description": "The events cursor of this view: GET …/events?after=<cursor> answers the "
            "events that follow it (opaque, like every cursor)"
        }
    )
    can_undo = fields.Boolean(
        metadata={
            "description": "POST /undo would take back this seat's last move now (games against a bot, "
            "not rated, the hand live and nobody has knocked)"
        }
    )
    can_hint = fields.Boolean(
        metadata={"description": "GET /hint advises this seat (games against a bot, not rated)"}
    )
    your_move = fields.Boolean(
        metadata={
            "description": "The seat has a move to make now (legal_actions holds more than resign and "
            "abort, which are legal at any time): wait for the opponent while false"
        }
    )
    rated = fields.Boolean()
    private = fields.Boolean()
    clock = fields.Nested(ClockOut, allow_none=True, metadata={"description": "null: no time control"})
    claim_after = fields.Float(
        allow_none=True,
        metadata={
            "description": "Seconds until this seat may claim the game as abandoned (POST claim-victory): "
            "in a game without a clock, while it is the other person's move (GIN_ABANDON_AFTER after their "
            "last move; 0: now). null: nothing to claim this way (a clock's runs out instead)"
        },
    )
    rematch = fields.Dict(metadata={"description": "Once the match is over: offered_by (seats), game_id"})
    end_reason = fields.String(
        allow_none=True,
        metadata={"description": "How the match ended early: resigned, timeout, abandoned or aborted"},
    )
    forfeited_by = fields.Integer(
        allow_none=True, metadata={"description": "The seat that resigned/lost on time"}
    )


EVENT_TYPES = {
    "deal": "a hand was dealt (upcard, commitment, dealer)",
    "draw": "a seat drew (source; the card when the pile was drawn, or when the reader drew it)",
    "pass": "a seat refused the upcard",
    "discard": "a seat discarded (card)",
    "knock": "a seat knocked (deadwood; its melds are shown)",
    "layoff": "the defender laid down and laid off",
    "hand_over": "the hand ended (outcome, points, both hands revealed)",
    "game_over": "a game of the match ended (scores, bonuses, winner)",
    "match_over": "the match ended",
    "joined": "the invited human took the seat",
    "undo": "the caller took back its last move(s)",
    "rematch_offered": "a seat offered a rematch (the match is over)",
    "rematch": "the rematch was accepted: its game_id (the same seat tokens play it)",
}


class EventOut(Out):
    """What happened, as the reader's seat may see it; more members by type (docs/api.md, Events)."""

    id = fields.String(metadata={"description": "The event's cursor: pass it as ?after= to resume"})
    type = fields.String(
        validate=validate.OneOf(list(EVENT_TYPES)),
        metadata={"description": "; ".join(f"{k}: {v}" for k, v in EVENT_TYPES.items())},
    )
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat that acted (or won)"})


class CreatedOut(Out):
    game_id = fields.String()
    seat = fields.Integer()
    token = fields.String(metadata={"description": "This seat's bearer token (shown once)"})
    invitation = fields.String(
        allow_none=True, metadata={"description": "For a human opponent: lets one join"}
    )
    view = fields.Nested(ViewOut)
    events = fields.List(fields.Nested(EventOut))


class JoinedOut(Out):
    game_id = fields.String()
    seat = fields.Integer()
    token = fields.String()
    view = fields.Nested(ViewOut)
    events = fields.List(fields.Nested(EventOut))


class MoveOut(Out):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventOut), metadata={"description": "Incl. the bot's replies"})
    view = fields.Nested(
        ViewOut, metadata={"description": "The play view: the seat view without history and stats"}
    )


class OpponentGoneOut(Out):
    """The opponent seems to have left (lichess's opponentGone): it has sat on its move for a minute (or a
    fifth of GIN_ABANDON_AFTER) in a game without a clock. Not one of the game's events (no id): a stream
    says it in place of its keep-alive line, again at each one while it holds; a page as opponent_gone."""

    type = fields.String(metadata={"enum": ["opponentGone"]})
    gone = fields.Boolean(metadata={"enum": [True]})
    claim_in = fields.Integer(metadata={"description": "Seconds until claim-victory wins the game (0: now)"})


class EventsOut(Out):
    events = fields.List(fields.Nested(EventOut))
    cursor = fields.String(allow_none=True, metadata={"description": "Pass as ?after= to resume"})
    truncated = fields.Boolean(metadata={"description": "Older events were trimmed: GET the view again"})
    opponent_gone = fields.Nested(
        OpponentGoneOut,
        allow_none=True,
        metadata={"description": "With no event: whether the opponent seems to have left (null: no)"},
    )


class ShuffleOut(Out):
    salt = fields.String(metadata={"description": "The secret salt of the deal, revealed"})
    commitment = fields.String(metadata={"description": "The commitment shown in the view during the hand"})
    deck = fields.List(fields.String(), metadata={"description": "The deck order, first card dealt first"})


class HandRecordOut(Out):
    """A finished hand revealed to both seats."""

    number = fields.Integer()
    game_id = fields.String()
    dealer = fields.Integer()
    deck = fields.List(fields.String())
    initial_hands = fields.List(fields.List(fields.String()), metadata={"description": "By seat"})
    upcard = fields.String()
    knock_limit = fields.Integer()
    spades_double = fields.Boolean()
    actions = fields.List(fields.Dict(), metadata={"description": "Every action, with the cards drawn"})
    result = fields.Dict(
        allow_none=True,
        metadata={
            "description": "Outcome, both arrangements, lay-offs and points; null for a hand the match's end "
            "cut short (see ended)"
        },
    )
    ended = fields.String(
        metadata={
            "enum": ["resigned", "timeout", "abandoned", "aborted", "disqualified"],
            "description": "Only on a hand the match ended in the middle of: how the match ended",
        }
    )
    shuffle = fields.Nested(ShuffleOut, metadata={"description": "Verify: sha256(salt:deck) == commitment"})


class ReviewOut(Out):
    game_id = fields.String()
    status = fields.String(validate=validate.OneOf(["pending", "done", "failed"]))
    requested_at = fields.String(metadata={"description": "ISO 8601"})
    finished_at = fields.String(allow_none=True, metadata={"description": "ISO 8601; null while pending"})
    review = fields.Dict(
        allow_none=True,
        metadata={
            "description": "Once done: `seats` (by seat: accuracy 0-100 or null with no decision, decisions, "
            "points_lost, "
            "inaccuracies, mistakes, blunders), `moves` (each judged decision: hand, index in the hand's "
            "actions, seat, played, best, loss in points, verdict, estimates: the best moves' mean points "
            "over the sampled deals), `thresholds` (points given up for each verdict), `samples`"
        },
    )


class HintOut(Out):
    action = fields.Dict()
    explanation = fields.String()
    alternatives = fields.List(fields.Dict())
    by = fields.String(
        validate=validate.OneOf(["master", "expert"]),
        metadata={
            "description": "whose advice: the master's (its search, in a bot worker) or, when no bot worker "
            "answers, the expert's"
        },
    )


class AnalyzeIn(ma.Schema):
    cards = fields.List(
        Card(), required=True, validate=validate.Length(min=1, max=11), metadata={"uniqueItems": True}
    )
    knock_limit = WholeNumber(load_default=10, validate=validate.Range(min=0, max=100))


class AnalyzeOut(Out):
    """The verdicts (can_knock, can_gin, big_gin) are null for fewer than 10 cards."""

    cards = fields.List(fields.String())
    melds = fields.List(fields.List(fields.String()))
    deadwood_cards = fields.List(fields.String())
    deadwood = fields.Integer()
    arrangements = fields.Integer(metadata={"description": "How many optimal arrangements there are"})
    can_knock = fields.Boolean(
        allow_none=True,
        metadata={"description": "10 cards: deadwood within the knock limit; 11: after the best discard"},
    )
    can_gin = fields.Boolean(allow_none=True, metadata={"description": "As can_knock, with no deadwood"})
    big_gin = fields.Boolean(allow_none=True, metadata={"description": "11 cards, all in melds"})
    discards = fields.List(
        fields.Dict(), metadata={"description": "With 11 cards: deadwood after each discard"}
    )


class ArchiveStatusOut(Out):
    pending = fields.Integer(
        metadata={"description": "Games whose finished hands or match wait in the outbox"}
    )
    lag_seconds = fields.Float(
        metadata={"description": "Seconds since the oldest of them was announced (0: none)"}
    )


class HealthOut(Out):
    status = fields.String()
    archive = fields.Nested(
        ArchiveStatusOut,
        metadata={"description": "/readyz only: the outbox of records on their way to PostgreSQL"},
    )


class PresetOut(Out):
    name = fields.String()
    description = fields.String()
    rules = fields.Dict(metadata={"description": "Every option's value under this preset"})


class OptionOut(Out):
    name = fields.String()
    type = fields.String(validate=validate.OneOf(["integer", "boolean", "string"]))
    default = fields.Raw()
    description = fields.String()
    choices = fields.List(fields.String(), metadata={"description": "string options: the values allowed"})
    minimum = fields.Integer()
    maximum = fields.Integer()


class RulesOut(Out):
    presets = fields.List(fields.Nested(PresetOut))
    options = fields.List(fields.Nested(OptionOut))


# --- bot accounts ------------------------------------------------------------------------------------
class BotRatingOut(Out):
    rating = fields.Integer()
    deviation = fields.Integer()
    provisional = fields.Boolean()
    ordinal = fields.Integer()
    games = fields.Integer(metadata={"description": "Rated games played in the family"})


class BotAccountOut(Out):
    name = fields.String()
    since = fields.Float(allow_none=True, metadata={"description": "When the account became a bot"})
    played = fields.Integer()
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(BotRatingOut))


class BotOut(Out):
    name = fields.String()
    level = fields.Integer(metadata={"description": "0 (random) … 6 (master): the higher, the stronger"})
    description = fields.String()
    player = fields.String(metadata={"description": "Its player name: its profile, and whom to challenge"})
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(BotRatingOut),
        metadata={"description": "By rules family; seeded from measured play (docs/api.md, Bots)"},
    )


class BotsOut(Out):
    bots = fields.List(fields.Nested(BotOut), metadata={"description": "The house bots"})
    default = fields.String(metadata={"description": "The bot of a game created without one"})
    accounts = fields.List(
        fields.Nested(BotAccountOut),
        metadata={"description": "Bot accounts online now (their account stream open)"},
    )


class PlayerCreatedOut(Out):
    name = fields.String()
    token = fields.String(metadata={"description": "The player's bearer token (shown once)"})


class RatingOut(Out):
    rating = fields.Integer()
    deviation = fields.Integer()
    provisional = fields.Boolean()
    ordinal = fields.Integer(metadata={"description": "rating - 3 deviations: the leaderboard's order"})
    games = fields.Integer()
    rank = fields.Integer(allow_none=True)


class ProfileOut(Out):
    name = fields.String()
    bot = fields.Boolean(
        metadata={"description": "A bot account (a house bot's too): it plays through the API"}
    )
    created = fields.Float(allow_none=True)
    games = fields.Dict(metadata={"description": "played, won, lost"})
    stats = fields.Dict(metadata={"description": "The per-seat statistics of the game view, summed"})
    ratings = fields.Dict(
        keys=fields.String(), values=fields.Nested(RatingOut), metadata={"description": "By rules family"}
    )
    recent = fields.List(fields.Dict(), metadata={"description": "Recent games, newest first, with links"})


class LeaderRowOut(RatingOut):
    name = fields.String()


class LeaderboardOut(Out):
    family = fields.String()
    players = fields.List(fields.Nested(LeaderRowOut))


class SeekOut(Out):
    id = fields.String()
    player = fields.String()
    rating = fields.Integer(allow_none=True)
    family = fields.String()
    rated = fields.Boolean()
    min_rating = fields.Integer(allow_none=True)
    max_rating = fields.Integer(allow_none=True)
    created = fields.Float()
    status = fields.String(metadata={"description": "open, matched or cancelled"})
    rules = fields.Dict()
    expires_in = fields.Integer()
    game_id = fields.String(metadata={"description": "Once matched"})
    seat = fields.Integer(metadata={"description": "Once matched: the owner's seat (its token: the seek's)"})
    game = fields.String()


class SeekWaitingOut(Out):
    seek = fields.Nested(SeekOut)
    token = fields.String(
        metadata={
            "description": "The seek's token: poll GET /v1/seeks/{id} with it; once matched it is "
            "your seat token in the game"
        }
    )


class LobbyOut(Out):
    seeks = fields.List(fields.Nested(SeekOut))


class LiveGameOut(Out):
    game_id = fields.String()
    players = fields.List(fields.Nested(PlayerOut))
    rated = fields.Boolean()
    rules = fields.Dict()
    hand_number = fields.Integer()
    spectate = fields.String()


class GamesOut(Out):
    games = fields.List(fields.Nested(LiveGameOut))


class ShownRatingOut(Out):
    rating = fields.Integer()
    deviation = fields.Integer()
    provisional = fields.Boolean()
    ordinal = fields.Integer()


class RatingChangeOut(Out):
    before = fields.Nested(ShownRatingOut, allow_none=True, metadata={"description": "None: the first"})
    after = fields.Nested(ShownRatingOut)


class MatchExportOut(Out):
    """A finished match in one document: what the SDK, the replay viewer and bot authors' tools read.
    ``format`` is ``ginrummy.match``; ``version`` changes only when a reader of the previous one would
    break (new members may be added within a version)."""

    format = fields.String(metadata={"description": "Always `ginrummy.match`"})
    version = fields.Integer(metadata={"description": "The format's version: 1"})
    game_id = fields.String()
    rules = fields.Dict(metadata={"description": "Every option's value"})
    family = fields.String(
        allow_none=True, metadata={"description": "The preset the rules are (None: overrides)"}
    )
    rated = fields.Boolean()
    clock = fields.Dict(allow_none=True, metadata={"description": "per_move, bank, increment (seconds)"})
    players = fields.List(fields.Dict(), metadata={"description": "By seat: seat, name, type, bot, player"})
    started_at = fields.String(metadata={"description": "ISO 8601, UTC"})
    finished_at = fields.String(metadata={"description": "ISO 8601, UTC"})
    result = fields.Dict(
        metadata={
            "description": "winner (a seat; None: a draw or aborted), end_reason (finished, resigned, "
            "timeout, abandoned, aborted), forfeited_by, games (score sheets), games_won, match_over, "
            "match_winner"
        }
    )
    stats = fields.List(fields.Dict(), metadata={"description": "By seat: the match's statistics"})
    hand_count = fields.Integer(metadata={"description": "Hands played to their end"})
    hand_summaries = fields.List(
        fields.Dict(),
        metadata={
            "description": "By hand: number, end, winner, points, knocker, deadwood, and the games (of "
            "the score sheets) its points went to"
        },
    )
    shuffle = fields.String(metadata={"description": "How to check each hand's shuffle commitment"})
    hands = fields.List(
        fields.Nested(HandRecordOut), metadata={"description": "Every finished hand, as GET …/hands/{n}"}
    )
    ratings = fields.List(
        fields.Nested(RatingChangeOut, allow_none=True),
        metadata={"description": "By seat: the rating change of a rated game (None: unrated)"},
    )


class PlayerGameOut(Out):
    game_id = fields.String()
    seat = fields.Integer()
    result = fields.String(metadata={"description": "won, lost, drawn or aborted"})
    end_reason = fields.String()
    rated = fields.Boolean()
    family = fields.String(allow_none=True)
    opponent = fields.String(allow_none=True, metadata={"description": "The opponent's player or shown name"})
    points = fields.List(fields.Integer(), metadata={"description": "[the player's, the opponent's]"})
    hands = fields.Integer()
    started_at = fields.String()
    finished_at = fields.String()
    rating = fields.Nested(RatingChangeOut, allow_none=True)
    export = fields.String(metadata={"description": "The whole match: GET this"})


class PlayerGamesOut(Out):
    player = fields.String()
    games = fields.List(fields.Nested(PlayerGameOut), metadata={"description": "Newest first"})
    next = fields.String(
        allow_none=True, metadata={"description": "?cursor= of the next page (None: no more)"}
    )


class RatingPointOut(Out):
    game_id = fields.String(
        allow_none=True, metadata={"description": "null for a private game, unless the player itself asks"}
    )
    at = fields.String()
    before = fields.Nested(ShownRatingOut, allow_none=True)
    after = fields.Nested(ShownRatingOut)


class RatingHistoryOut(Out):
    player = fields.String()
    families = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(RatingPointOut)),
        metadata={"description": "By rules family: each rated game's change, oldest first"},
    )
