"""The rule options of a game, as one frozen value, and the named presets of docs/rules.md §10.

>>> Rules.from_options("tournament").target
250
>>> Rules.from_options("standard", knock_limit=8).knock_limit
8
>>> Rules.from_options("no-such-preset")
Traceback (most recent call last):
...
ginrummy.engine.errors.BadRulesError: unknown preset 'no-such-preset' (presets: standard, tournament, \
big-gin-50, oklahoma, hollywood, straight)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadRulesError

SHUTOUT_CHOICES = ("double_hand_points", "double_bonuses", "none")
NEXT_DEALER_CHOICES = ("loser", "alternate", "winner")
WALL_CHOICES = ("cancel", "fiftieth_card")
REDEAL_CHOICES = ("same_dealer", "next_dealer")


@dataclass(frozen=True)
class Rules:
    """Every option of the rule book; the defaults are the `standard` preset."""

    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin: bool = True
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    target: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout: str = "double_hand_points"
    next_dealer: str = "loser"
    wall: str = "cancel"
    redeal_after_wall: str = "same_dealer"
    max_discard_draws: int = 50
    games: int = 1
    oklahoma: bool = False
    hollywood: bool = False

    def __post_init__(self) -> None:
        for name, (low, high) in _INT_RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadRulesError(f"option {name} takes a whole number, not {value!r}")
            if not low <= value <= high:
                raise BadRulesError(f"option {name} must be between {low} and {high}, not {value}")
        for name in _BOOL_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise BadRulesError(f"option {name} takes true or false, not {getattr(self, name)!r}")
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise BadRulesError(
                    f"option {name} must be one of {', '.join(choices)}, not {getattr(self, name)!r}"
                )
        if self.oklahoma and self.knock_limit != 10:
            raise BadRulesError(
                "oklahoma sets the knock limit from the upcard: knock_limit cannot be changed with it"
            )
        if self.hollywood and self.games != 1:
            raise BadRulesError("hollywood already scores three games at once: games must be 1")

    @classmethod
    def from_options(cls, preset: str = "standard", **overrides: Any) -> Rules:
        """A preset by name with explicit option overrides on top."""
        try:
            base = PRESETS[preset]
        except (KeyError, TypeError):
            raise BadRulesError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})") from None
        unknown = sorted(set(overrides) - set(OPTION_NAMES))
        if unknown:
            raise BadRulesError(f"unknown option {', '.join(unknown)} (options: {', '.join(OPTION_NAMES)})")
        return dataclasses.replace(base, **overrides)

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> Rules:
        """The inverse of :meth:`to_dict` (missing options take their defaults)."""
        return _rules_from_items(tuple(sorted(options.items())))

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, JSON-safe (a new dict)."""
        made: dict[str, Any] | None = self.__dict__.get("_dict")
        if made is None:  # made once per (frozen) Rules: every view shows it
            made = self.__dict__["_dict"] = {name: getattr(self, name) for name in OPTION_NAMES}
        return dict(made)

    def changes(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (a compact form for storage)."""
        return {k: v for k, v in self.to_dict().items() if v != _DEFAULTS[k]}


@functools.lru_cache(maxsize=256)  # saved games name few distinct rule sets; Rules is immutable
def _rules_from_items(items: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_options("standard", **dict(items))


_INT_RANGES = {
    "knock_limit": (0, 100),
    "gin_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "target": (1, 10000),
    "game_bonus": (0, 10000),
    "box_bonus": (0, 1000),
    "max_discard_draws": (1, 1000),
    "games": (1, 99),
}
_BOOL_OPTIONS = ("big_gin", "undercut_on_tie", "oklahoma", "hollywood")
_CHOICES = {
    "shutout": SHUTOUT_CHOICES,
    "next_dealer": NEXT_DEALER_CHOICES,
    "wall": WALL_CHOICES,
    "redeal_after_wall": REDEAL_CHOICES,
}
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)}

PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "tournament": Rules(target=250, games=5, wall="fiftieth_card"),
    "big-gin-50": Rules(undercut_bonus=20, big_gin_bonus=50),
    "oklahoma": Rules(oklahoma=True),
    "hollywood": Rules(hollywood=True),
    "straight": Rules(knock_limit=0),
}

PRESET_DOCS: dict[str, str] = {
    "standard": "Knock at 10, gin 25, big gin 31, undercut 25 (ties too), game to 100, loser deals.",
    "tournament": "Standard, but games to 250, best of 5, and the fiftieth-card wall rule.",
    "big-gin-50": "Standard with an undercut bonus of 20 and a big gin bonus of 50.",
    "oklahoma": "The upcard sets the knock limit (ace: gin only); a spade upcard doubles the hand.",
    "hollywood": "Three games scored at once: first win in game 1, second in 1-2, then all three.",
    "straight": "Straight gin: no knocking, only gin or big gin end a hand.",
}

_DESCRIPTIONS = {
    "knock_limit": "Highest deadwood count with which a player may knock (0: straight gin).",
    "gin_bonus": "Bonus for going gin, on top of the defender's deadwood.",
    "big_gin": "Whether big gin (all 11 cards melded, no discard) is allowed.",
    "big_gin_bonus": "Bonus for big gin, on top of the defender's deadwood.",
    "undercut_bonus": "Bonus to the defender for an undercut, on top of the difference.",
    "undercut_on_tie": "Whether equal deadwood is an undercut (otherwise a tie scores nothing).",
    "target": "Running total that ends a game.",
    "game_bonus": "Bonus to the player who reached the target.",
    "box_bonus": "Bonus for every hand won, added at the end of the game.",
    "shutout": "When the loser won no hand: double the hand points, double the bonuses, or nothing.",
    "next_dealer": "Who deals the next hand: the loser of the last hand, alternately, or the winner.",
    "wall": "When two stock cards are left: cancel the hand, or the tournament fiftieth-card rule.",
    "redeal_after_wall": "After a cancelled hand, the same dealer deals again or the deal passes.",
    "max_discard_draws": "A hand ends cancelled once the discard pile has been drawn from this often.",
    "games": "Number of games in a match (best of N).",
    "oklahoma": "Oklahoma gin: the upcard sets the knock limit; a spade upcard doubles the hand.",
    "hollywood": "Hollywood gin: three games scored at once.",
}


def option_docs() -> list[dict[str, Any]]:
    """Every option with its type, default, allowed values and meaning (for `GET /v1/rules`)."""
    docs = []
    for f in dataclasses.fields(Rules):
        doc: dict[str, Any] = {
            "name": f.name,
            "default": f.default,
            "description": _DESCRIPTIONS[f.name],
        }
        if f.name in _CHOICES:
            doc["type"] = "string"
            doc["choices"] = list(_CHOICES[f.name])
        elif f.name in _BOOL_OPTIONS:
            doc["type"] = "boolean"
        else:
            low, high = _INT_RANGES[f.name]
            doc.update(type="integer", minimum=low, maximum=high)
        docs.append(doc)
    return docs


OPTION_DOCS: list[dict[str, Any]] = option_docs()
