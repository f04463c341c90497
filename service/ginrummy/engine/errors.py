"""Errors raised by the rules engine.

Every failure has its own class under :class:`GinRummyError`, and each class carries a stable,
machine-readable ``code`` that the HTTP layer passes on to clients unchanged.
"""

from __future__ import annotations


class GinRummyError(Exception):
    """Base class of every error the engine raises."""

    code = "gin_rummy_error"


class BadCardError(GinRummyError, ValueError):
    """A card text or number that names no card (or, as a DuplicateCardError, a card given twice)."""

    code = "bad_card"


class DuplicateCardError(BadCardError):
    """The same card given twice in one list (``7S`` and ``7s`` are the same card)."""

    code = "duplicate_card"


class BadActionError(GinRummyError, ValueError):
    """An action that is malformed: unknown type, missing or unexpected fields."""

    code = "bad_action"


class IllegalActionError(GinRummyError):
    """A well-formed action that the rules do not allow now."""

    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""

    code = "not_your_turn"


class InvalidMeldError(IllegalActionError):
    """An arrangement with a group that is not a meld, overlaps, or uses cards not held."""

    code = "invalid_meld"


class InvalidLayoffError(IllegalActionError):
    """A lay-off onto a meld that the card does not extend."""

    code = "invalid_layoff"


class DeadwoodTooHighError(IllegalActionError):
    """A knock whose deadwood is above the knock limit in force."""

    code = "deadwood_too_high"


class GameOverError(IllegalActionError):
    """An action after the match has ended."""

    code = "game_over"


class CannotUndoError(IllegalActionError):
    """An undo with nothing of the seat's to take back in the live hand."""

    code = "cannot_undo"


class BadRulesError(GinRummyError, ValueError):
    """An unknown preset, an unknown option, a bad value or a bad combination of options."""

    code = "bad_rules"


class BadStateError(GinRummyError, ValueError):
    """A serialized game that cannot be read back."""

    code = "bad_state"
