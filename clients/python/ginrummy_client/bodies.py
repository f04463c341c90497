"""The small pure helpers of request bodies: the members a call was given, a time control, and the texts a
command line passes (``KEY=VALUE`` rule options, ``GAME_ID:INVITATION``).

>>> given(name="Ann", seed=None)
{'name': 'Ann'}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

ClockSpec = str | Mapping[str, Any]
"""A time control: a preset's name (``"eaai"``: 30 s per player for the match) or
``{"per_move": s, "bank": s, "increment": s}`` (any of them; seconds)."""


def given(**members: Any) -> dict[str, Any]:
    """The members that are given (not None): optional members of a body are left out, not sent as null."""
    return {key: value for key, value in members.items() if value is not None}


def clock_body(clock: ClockSpec | None) -> dict[str, Any] | None:
    """The ``clock`` member of a create, seek or challenge body.

    >>> clock_body("eaai"), clock_body({"per_move": 60}), clock_body(None)
    ({'preset': 'eaai'}, {'per_move': 60}, None)
    """
    if clock is None:
        return None
    if isinstance(clock, str):
        return {"preset": clock}
    return dict(clock)


def rules_of(preset: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``rules`` member of a create or seek body.

    >>> rules_of("oklahoma", None)
    {'preset': 'oklahoma', 'options': {}}
    """
    return {"preset": preset, "options": dict(options or {})}


def parse_options(pairs: Iterable[str]) -> dict[str, Any]:
    """``KEY=VALUE`` rule options (as command lines take them); a value is JSON when it reads as JSON
    (numbers, true), else text. ValueError for a pair without ``=``.

    >>> parse_options(["target=25", "big_gin=false", "next_dealer=alternate"])
    {'target': 25, 'big_gin': False, 'next_dealer': 'alternate'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option is KEY=VALUE, not {pair!r}")
        try:
            options[key.strip()] = json.loads(text)
        except ValueError:
            options[key.strip()] = text
    return options


def parse_invitation(text: str) -> tuple[str, str]:
    """``GAME_ID:INVITATION`` (as ``gin host`` prints it, or :attr:`Game.invitation_code`) into its parts.

    >>> parse_invitation(" gAbc:s3cr3t ")
    ('gAbc', 's3cr3t')
    >>> parse_invitation("no-colon")
    Traceback (most recent call last):
    ...
    ValueError: an invitation code looks like GAME_ID:INVITATION
    """
    game_id, sep, invitation = text.strip().partition(":")
    if not sep or not game_id or not invitation:
        raise ValueError("an invitation code looks like GAME_ID:INVITATION")
    return game_id, invitation
