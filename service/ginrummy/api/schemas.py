"""Request and response schemas (marshmallow 4), instantiated once per module.

Request schemas validate and load bodies. Response schemas document the responses in the OpenAPI
document; the views render their JSON themselves (the engine's seat view is already plain JSON, and
re-dumping it through marshmallow on every move would cost time without adding anything).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

# A player's name is shown to the other player and to spectators: printable text only.
NAME = [
    validate.Length(min=1, max=40),
    validate.Regexp(
        r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]+$", error="a name is printable text"
    ),
]

CARD_DOC = 'A card: "7H", "TD", "10d", "♥7" or an int 0–51; outputs always use the canonical text.'


class Card(fields.Raw):
    """A card as the client writes it; the engine parses it (and refuses a bad one with ``bad_card``)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {"description": CARD_DOC, "example": "7H"})
        super().__init__(**kwargs)


class RulesIn(ma.Schema):
    preset = fields.String(
        load_default="standard",
        metadata={"description": "A preset of GET /v1/rules: standard, tournament, big-gin-50, oklahoma, …"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": 'Option overrides, e.g. {"knock_limit": 7, "target": 150}'},
    )


class OpponentIn(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(["bot", "human"]))
    bot = fields.String(
        load_default=None, metadata={"description": "A bot of GET /v1/bots (default: simple)"}
    )
    name = fields.String(load_default=None, validate=NAME)


class CreateGameIn(ma.Schema):
    rules = fields.Nested(RulesIn, load_default=lambda: {"preset": "standard", "options": {}})
    opponent = fields.Nested(OpponentIn, load_default=lambda: {"type": "bot", "bot": None, "name": None})
    name = fields.String(load_default=None, validate=NAME)
    seed = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=2**63 - 1),  # it is stored as a JSON number
        metadata={"description": "Fix the deals (only when the service runs with GIN_ALLOW_SEED=1: tests)"},
    )


class JoinIn(ma.Schema):
    invitation = fields.String(required=True, validate=validate.Length(min=1, max=200))
    name = fields.String(load_default=None, validate=NAME)


class DrawIn(ma.Schema):
    source = fields.String(
        required=True,
        validate=validate.OneOf(["stock", "discard"]),
        metadata={
            "description": "stock, or discard: the top of the discard pile (the upcard during the offer)"
        },
    )


class DiscardIn(ma.Schema):
    card = Card(required=True)


class KnockIn(ma.Schema):
    discard = Card(
        required=True,
        allow_none=True,
        metadata={"description": "The face-down discard; null for big gin (all 11 cards melded)"},
    )
    melds = fields.List(
        fields.List(Card()),
        load_default=None,
        metadata={"description": "The knocker's arrangement; omitted: a minimum-deadwood one"},
    )


class LayoffItem(ma.Schema):
    card = Card(required=True)
    meld = fields.Integer(required=True, metadata={"description": "Index into the knocker's melds as shown"})


class LayoffIn(ma.Schema):
    best = fields.Boolean(load_default=None, metadata={"description": "true: let the engine choose the best"})
    melds = fields.List(
        fields.List(Card()), load_default=None, metadata={"description": "The defender's melds"}
    )
    layoffs = fields.List(fields.Nested(LayoffItem), load_default=None)

    @ma.validates_schema
    def _one_form(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("best") is not True and data.get("melds") is None:
            raise ma.ValidationError('give "best": true, or "melds" (and optionally "layoffs")')


class ActionIn(ma.Schema):
    """Any element of a view's legal_actions, posted back as is."""

    class Meta:
        unknown = ma.INCLUDE

    type = fields.String(
        required=True,
        validate=validate.OneOf(["deal", "draw", "pass", "discard", "knock", "layoff"]),
        metadata={"description": "The action type; the other members depend on it (docs/design.md)"},
    )


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
    name = fields.String(allow_none=True)
    type = fields.String(metadata={"description": "human or bot"})
    bot = fields.String(metadata={"description": "The bot's name (bots only)"})
    joined = fields.Boolean(metadata={"description": "Whether the human has taken the seat"})
    card_count = fields.Integer(metadata={"description": "Cards in the seat's hand (spectator view)"})
    known_cards = fields.List(
        fields.String(), metadata={"description": "Its cards anyone has seen it take or lay down"}
    )
    cards = fields.List(fields.String(), metadata={"description": "Its whole hand, once the hand is over"})


class ViewOut(Out):
    """A seat's view of the game (RULES.md §11): never the opponent's hidden cards or the stock."""

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
        fields.Dict(), metadata={"description": "Exactly the bodies POST /v1/games/{id}/actions accepts"}
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


class EventOut(Out):
    class Meta:
        unknown = ma.INCLUDE

    id = fields.String(metadata={"description": "The event's cursor"})
    type = fields.String()
    seat = fields.Integer(allow_none=True)


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


class EventsOut(Out):
    events = fields.List(fields.Nested(EventOut))
    cursor = fields.String(allow_none=True, metadata={"description": "Pass as ?after= to resume"})
    truncated = fields.Boolean(metadata={"description": "Older events were trimmed: GET the view again"})


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
    result = fields.Dict(metadata={"description": "Outcome, both arrangements, lay-offs and points"})
    shuffle = fields.Nested(ShuffleOut, metadata={"description": "Verify: sha256(salt:deck) == commitment"})


class HintOut(Out):
    action = fields.Dict()
    explanation = fields.String()
    alternatives = fields.List(fields.Dict())


class AnalyzeIn(ma.Schema):
    cards = fields.List(Card(), required=True, validate=validate.Length(min=1, max=11))
    knock_limit = fields.Integer(load_default=10, validate=validate.Range(min=0, max=100))


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


class HealthOut(Out):
    status = fields.String()
