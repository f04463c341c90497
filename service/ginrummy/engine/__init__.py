"""The Gin Rummy rules engine: pure Python, standard library only, deterministic given its random source.

>>> deadwood(["7S", "7H", "7D", "4C", "5C", "6C", "2H", "3D"])
5
>>> knock_deadwood(["AS", "2S", "3S", "JH", "JD", "JC", "4H", "3H", "5D", "9C", "KD"])
21
"""

from .actions import Action
from .cards import card_text, card_value, mask_of, parse_card, parse_cards, texts
from .errors import GinRummyError
from .game import Game, MatchEnd
from .hand import Event, Hand, HandEnd, HandOutcome, Phase, hand_result
from .melds import Arrangement, Meld, MeldKind, best_melds, deadwood, knock_deadwood
from .rules import OPTION_DOCS, PRESET_DOCS, PRESETS, Rules
from .serialize import dumps, loads
from .views import analyze_hand, hand_history, hand_record, seat_view

__all__ = [
    "OPTION_DOCS",
    "PRESETS",
    "PRESET_DOCS",
    "Action",
    "Arrangement",
    "Event",
    "Game",
    "GinRummyError",
    "Hand",
    "HandEnd",
    "HandOutcome",
    "MatchEnd",
    "Meld",
    "MeldKind",
    "Phase",
    "Rules",
    "analyze_hand",
    "best_melds",
    "card_text",
    "card_value",
    "deadwood",
    "dumps",
    "hand_history",
    "hand_record",
    "hand_result",
    "knock_deadwood",
    "loads",
    "mask_of",
    "parse_card",
    "parse_cards",
    "seat_view",
    "texts",
]
