"""What the player reads when a move or a request is refused, in the game's words.

The service answers a refusal with a stable ``code`` and a ``detail`` meant for developers, which may
speak of phases (``phase: upcard_dealer``), seats (``seat 1``) or HTTP (``GET /v1/bots``). Here the codes
and phases become sentences; the codes themselves are shown only with ``--json``. A move whose kind is
not among the view's ``legal_actions`` is not sent at all: :func:`not_on_offer` says why from the view
(what is offered comes from ``legal_actions`` alone). A move that is on offer with another card (a card
not held, the card just taken, a knock over the limit) is sent, and the service's reason — in the game's
words already — is shown. So is a knock when none is on offer to a player who is to discard, unless the
view's figures (the deadwood each discard leaves, the knock limit) already say why.

>>> view = {"phase": "upcard_dealer", "legal_actions": [{"type": "draw", "source": "discard"},
...         {"type": "pass"}, {"type": "resign"}]}
>>> not_on_offer({"type": "discard", "card": "7H"}, view)
'You cannot discard now: the upcard is on offer — take it or pass.'
>>> not_on_offer({"type": "pass"}, view) is None
True
>>> refusal("illegal_action", "discard is not allowed now (phase: upcard_dealer)",
...         action={"type": "discard", "card": "7H"}, view=view)
'You cannot discard now: the upcard is on offer — take it or pass.'
>>> refusal("not_your_turn", "it is seat 1's move, not seat 0's", view={"seat": 0}, names=["You", "Bob"])
"It is not your move: it is Bob's."
>>> refusal("challenge_closed", "this challenge is expired", problem={"challenge_status": "expired"})
'The challenge is no longer open: it expired unanswered.'
>>> refusal("player_required", "a rated game needs a player: send Authorization: Bearer <player token>")
'A rated game is played by players: both must be signed in.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ._sentences import SENTENCES

PHASES = {
    "upcard_nondealer": "the upcard is on offer — take it or pass",
    "upcard_dealer": "the upcard is on offer — take it or pass",
    "draw": "draw first, from the stock or the discard pile",
    "discard": "you have drawn — discard a card, or knock",
    "fiftieth_card": "the last discard may only be taken to knock or go gin with it",
    "layoff": "the hand was knocked — lay down and lay off (layoff)",
    "hand_over": "the hand is over — deal the next one",
    "game_over": "the game is over — deal the first hand of the next one",
    "match_over": "the match is over",
}
"""What each phase of a hand asks for, as a sentence (the service's phase names are not shown)."""

MOVES = {
    ("draw", "stock"): "draw from the stock",
    ("draw", "discard"): "take the discard",
    ("pass", None): "pass",
    ("discard", None): "discard",
    ("knock", None): "knock",
    ("layoff", None): "lay off",
    ("deal", None): "deal",
    ("resign", None): "resign",
    ("abort", None): "abort the match",
}
"""A kind of move in words, as in "You cannot … now"."""

OWN_WORDS = frozenset(
    {
        "game_over",
        "waiting_for_opponent",
        "undo_not_allowed",
        "nothing_to_do",
        "player_required",
        "unknown_player",
        "not_over",
        "nothing_to_claim",
        "seed_not_allowed",
        "join_conflict",
        "session_required",
        "chat_presets_only",
        "chat_empty",
    }
)
"""Codes whose detail is worded for developers (HTTP paths, headers): the player reads the code's sentence
(``SENTENCES``, every code's, generated from the OpenAPI document). Any other refusal's detail names what was
refused (a card, a name, a game) and is shown, in plain words."""

CHALLENGE_CLOSED = {
    "accepted": "it was accepted",
    "declined": "it was declined",
    "canceled": "the challenger withdrew it",
    "expired": "it expired unanswered",
}
"""What became of a challenge no longer open (``challenge_closed``'s ``challenge_status``)."""


def move_kind(action: Mapping[str, Any]) -> tuple[Any, Any]:
    """What kind of move ``action`` is: its type, and for a draw its source."""
    kind = action.get("type")
    return (kind, action.get("source") if kind == "draw" else None)


def phase_words(view: Mapping[str, Any]) -> str | None:
    """What the phase of ``view`` asks for, as a clause (None for a phase this client does not know)."""
    return PHASES.get(str(view.get("phase")))


def not_on_offer(action: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
    """Why ``action`` cannot be made, when no action of its kind is in the view's ``legal_actions``;
    None when one is (the service then judges the details: which card, which melds)."""
    kind = move_kind(action)
    legal = view.get("legal_actions") or []
    if any(move_kind(offered) == kind for offered in legal):
        return None
    if kind[0] == "abort" and legal:
        return "The match can no longer be aborted: a card of its first hand has been drawn."
    if kind[0] == "knock" and any(offered.get("type") == "discard" for offered in legal):
        return knock_refused(action, view)
    return f"You cannot {MOVES.get(kind, str(kind[0]))} now" + _because(view) + "."


def knock_refused(action: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
    """Why no knock is on offer to a player who is to discard: the deadwood the view says a discard
    leaves, against the view's knock limit. Without those figures (a game between people has none) a
    knock naming a card gets None: it is sent, and the service's answer names the limit.

    >>> view = {"knock_limit": 10, "hand": {"discards": [{"card": "QS", "deadwood": 26},
    ...         {"card": "9C", "deadwood": 27}]}, "legal_actions": [{"type": "discard", "card": "QS"}]}
    >>> knock_refused({"type": "knock", "discard": "QS"}, view)
    'You cannot knock: 26 deadwood after discarding QS, the knock limit is 10.'
    >>> knock_refused({"type": "knock"}, view)
    'You cannot knock: 26 deadwood after the best discard, the knock limit is 10.'
    >>> knock_refused({"type": "knock", "discard": "QS"}, {**view, "hand": {}}) is None
    True
    """
    after = {
        option.get("card"): option.get("deadwood")
        for option in (view.get("hand") or {}).get("discards") or []
        if isinstance(option, Mapping)
    }
    card = action.get("discard")
    limit = view.get("knock_limit")
    if not isinstance(limit, int):
        return None if card else f"You cannot knock now{_because(view)}."
    rule = "only gin ends this hand" if limit == 0 else f"the knock limit is {limit}"
    if card and isinstance(after.get(card), int):
        return f"You cannot knock: {after[card]} deadwood after discarding {card}, {rule}."
    if card:
        return None  # the service knows what that discard leaves, and says so
    figures = [d for d in after.values() if isinstance(d, int)]
    if figures:
        return f"You cannot knock: {min(figures)} deadwood after the best discard, {rule}."
    if limit == 0:
        return "You cannot knock: only gin ends this hand, and every discard leaves deadwood."
    return f"You cannot knock: every discard leaves more deadwood than the knock limit, {limit}."


def _because(view: Mapping[str, Any]) -> str:
    reason = phase_words(view)
    return f": {reason}" if reason else ""


def refusal(
    code: str,
    detail: str,
    *,
    action: Mapping[str, Any] | None = None,
    view: Mapping[str, Any] | None = None,
    names: list[str] | None = None,
    problem: Mapping[str, Any] | None = None,
) -> str:
    """A refusal of the service (``code``, ``detail``; the whole body in ``problem``) as a sentence for the
    player; ``action`` and ``view``: the move refused and the view it was made from, when there is one."""
    if code == "not_your_turn":
        seat = (view or {}).get("seat")
        if names and isinstance(seat, int) and seat in (0, 1):
            return f"It is not your move: it is {names[1 - seat]}'s."
        return "It is not your move."
    if code in OWN_WORDS:
        return SENTENCES[code]
    if code == "deadwood_too_high":  # the service names the deadwood left and the limit
        return sentence("You cannot knock: " + lower_first(detail))
    if code == "illegal_action" and action is not None and _internal(detail):
        return (
            f"You cannot {MOVES.get(move_kind(action), str(action.get('type')))} now"
            + _because(view or {})
            + "."
        )
    if code == "unknown_bot":
        named = re.search(r"no bot ('[^']*')", detail)
        return f"There is no bot {named[1]}." if named else "There is no such bot."
    if code == "validation_error":
        return _invalid(detail, (problem or {}).get("errors"))
    if code == "challenge_closed":
        status = (problem or {}).get("challenge_status")
        return f"The challenge is no longer open: {CHALLENGE_CLOSED.get(str(status), 'it was answered')}."
    return sentence(_plain(detail))


def _internal(detail: str) -> bool:
    """Whether a detail speaks of the engine's phases rather than the game."""
    return "(phase:" in detail or "is not allowed now" in detail or "(seat " in detail


def _plain(detail: str) -> str:
    """A detail with the API's words taken out: seat numbers, HTTP requests."""
    detail = re.sub(r";? ?(GET|POST|DELETE) /v1/\S+( lists? (it|them))?", "", detail)
    return re.sub(r"\bseat (\d)'s\b", "the other player's", detail)


def _invalid(detail: str, errors: Any) -> str:
    """A request the service's schema refused: a clock it does not know, or the fields it names."""
    fields = dict(_flatten(errors.get("json", errors))) if isinstance(errors, dict) else {}
    preset = fields.get("clock.preset")
    if preset:
        known = re.search(r"Must be one of: (.*?)\.?$", preset)
        its = f": it knows {known[1]}" if known else ""
        return f"The service has no such clock{its}."
    if fields:
        return "The service refused " + "; ".join(f"{k.replace('.', ' ')}: {v}" for k, v in fields.items())
    return sentence(detail.replace("the request does not match the schema: json.", "refused: "))


def _flatten(errors: Any, prefix: str = "") -> list[tuple[str, str]]:
    """marshmallow's nested messages as (dotted field, message) pairs."""
    if isinstance(errors, dict):
        pairs: list[tuple[str, str]] = []
        for key, value in errors.items():
            pairs += _flatten(value, f"{prefix}.{key}" if prefix else str(key))
        return pairs
    if isinstance(errors, list):
        return [(prefix, " ".join(str(e) for e in errors))]
    return [(prefix, str(errors))]


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, a full stop last.

    >>> sentence("you do not hold 7H")
    'You do not hold 7H.'
    """
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def lower_first(text: str) -> str:
    """A sentence to follow a colon (``gin: …``); a card or a word in capitals keeps its case.

    >>> lower_first("There is no bot 'x'."), lower_first("QS was just taken")
    ("there is no bot 'x'.", 'QS was just taken')
    """
    first = text.split(" ", 1)[0]
    return text if len(first) > 1 and first.isupper() else text[:1].lower() + text[1:]
