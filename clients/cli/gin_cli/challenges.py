"""Challenges on a terminal: waiting for the answer to ``gin challenge NAME``, the words of a challenge
that came to nothing, and the table of ``gin challenges``.

A challenge to a person is answered on the challenger's account stream (``challengeDeclined``, or a
``gameStart`` once accepted). Signed in, gin takes the stream's last id *before* sending the challenge
(``client.account.events()``, a page of the stream), then long-polls the pages after it: an answer,
however quick, comes after that mark, and nothing is polled while nobody answers. After each page it
reads the challenge (``GET /v1/challenges/{id}``, with the challenge's token): what the page's events
meant, and also what no event tells the challenger — the challenge expired, or withdrawn from another
terminal. Without an account there is no stream: gin reads the challenge every :data:`POLL` seconds.

>>> not_accepted({"status": "declined", "decline_reason": "rated", "opponent": {"name": "Bob"}})
'Bob declined your challenge: they play rated games only — challenge again with --rated.'
>>> not_accepted({"status": "expired", "opponent": {"name": "Bob"}})
'your challenge to Bob expired unanswered.'
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from ginrummy_client import DECLINE_REASONS, Challenge, ChallengeInfo, Client

from .accounts import render_rows
from .people import ago, clock_words, rules_words, span
from .screen import Screen

EVENT_WAIT = 25.0
"""Seconds one page of the account stream may wait on the server for the answer."""
POLL = 2.0
"""Seconds between two reads of a challenge sent without an account (no stream to wait on)."""

DECLINE_WORDS: dict[str, tuple[str, str]] = {
    "generic": ("no reason given (the default)", ""),
    "later": ("not now: ask me again later", "not now — ask again later"),
    "too_fast": ("the clock is too fast for me", "the clock is too fast for them — try a slower one"),
    "too_slow": ("the clock is too slow for me", "the clock is too slow for them — try a faster one"),
    "time_control": ("not with this clock", "they do not play with this clock — try another"),
    "rated": ("I play rated games only", "they play rated games only — challenge again with --rated"),
    "casual": (
        "I play casual games only",
        "they play casual games only — challenge again without --rated",
    ),
    "rules": ("not these rules", "they do not play these rules now — try other ones"),
    "no_bot": ("I do not play bots", "they do not play against bots"),
    "only_bot": ("I play bots only", "they play against bots only"),
}
"""Each decline reason of the service (``DECLINE_REASONS``): what it says as the one who declines
(``gin challenges decline --help``), and as the challenger reads it."""


def reasons_help() -> str:
    """The decline reasons as ``gin challenges decline --help`` lists them: the service's list (the
    SDK's copy of it), each with what it says.

    >>> print(reasons_help().splitlines()[1])
      generic       no reason given (the default)
    """
    rows = [f"  {reason:<13} {DECLINE_WORDS.get(reason, ('', ''))[0]}".rstrip() for reason in DECLINE_REASONS]
    return "\n".join(["reasons (--reason; the challenger is told which):", *rows])


def not_accepted(info: Mapping[str, Any]) -> str:
    """What became of a challenge sent that was not accepted, as the challenger reads it after ``gin:``:
    declined (and why), expired, or withdrawn (by another ``gin``: this one would have said so)."""
    who = str((info.get("opponent") or {}).get("name") or "your opponent")
    status = info.get("status")
    if status == "declined":
        reason = str(info.get("decline_reason") or "generic")
        said = DECLINE_WORDS[reason][1] if reason in DECLINE_WORDS else reason.replace("_", " ")
        return f"{who} declined your challenge" + (f": {said}." if said else ".")
    if status == "expired":
        return f"your challenge to {who} expired unanswered."
    if status == "canceled":
        return f"your challenge to {who} was withdrawn (gin challenges cancel)."
    return f"your challenge to {who} is {status}."


def until(when: Any, now: float | None = None) -> str:
    """How long until a unix time, roughly; ``now`` once it has come.

    >>> until(400.0, now=100.0), until(50.0, now=100.0), until(None)
    ('5 min', 'now', '')
    """
    if not isinstance(when, int | float):
        return ""
    seconds = when - (time.time() if now is None else now)
    return span(seconds) if seconds >= 1 else "now"


def terms(info: Mapping[str, Any]) -> str:
    """A challenge's game in a few words: rules, rated or casual, the clock.

    >>> terms({"rules": {"preset": "oklahoma"}, "rated": True, "clock": {"preset": "rapid"}})
    'oklahoma, rated, clock rapid'
    """
    rated = "rated" if info.get("rated") else "casual"
    return f"{rules_words(info.get('rules') or {})}, {rated}, {clock_words(info.get('clock'))}"


def wait_for_answer(client: Client, challenge: Challenge, mark: str | None) -> ChallengeInfo:
    """Wait until ``challenge`` is answered or expires; its last state. ``mark``: the account stream's
    last id taken before the challenge was sent (None: no account, so no stream — read it every
    :data:`POLL` seconds). Ctrl-C (``KeyboardInterrupt``) comes through: the caller withdraws it."""
    info = challenge.info
    while info.get("status") == "open":
        # Past the expiry the service says "expired" on the next read; a clock ahead of the service's
        # reads again a second later.
        left = max(1.0, float(info.get("expires") or 0.0) - time.time() + 0.5)
        if mark is None:
            time.sleep(min(POLL, left))
        else:
            mark = client.account.events(since=mark, wait=min(EVENT_WAIT, left))["last_id"]
        info = client.challenges.get(challenge.id, token=challenge.token)
    return info


CHALLENGE_ROW = "  {id:<16}  {who:<13} {rules:<14} {clock:<9} {rated:<6} {sent:>6} {left:>6}"
"""A row of ``gin challenges`` (80 columns)."""


def render_challenges(screen: Screen, name: str, listing: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """The account's open challenges: received (accept or decline them), then sent (cancel them)."""
    header = {"id": "challenge", "who": "", "rules": "rules", "clock": "clock", "rated": "rated",
              "sent": "sent", "left": "expires"}  # fmt: skip
    for side, title, footer in (
        ("in", f"Challenges to {name}", "gin challenges accept ID plays it; decline ID [--reason R]."),
        ("out", f"Challenges from {name}", "gin challenges cancel ID withdraws one."),
    ):
        who_key = "challenger" if side == "in" else "opponent"
        cells = []
        for row in listing.get(side) or []:
            who = row.get(who_key) or {}
            mark = " (bot)" if who.get("bot") else " (guest)" if not who.get("player") else ""
            cells.append(
                {
                    "id": str(row.get("id", "?")),
                    "who": fit(str(who.get("name") or "?") + mark, 13),
                    "rules": fit(rules_words(row.get("rules") or {}), 14),
                    "clock": fit(clock_words(row.get("clock")).removeprefix("clock "), 9),
                    "rated": "rated" if row.get("rated") else "casual",
                    "sent": ago(row.get("created")).removesuffix(" ago"),
                    "left": until(row.get("expires")),
                }
            )
        header["who"] = "from" if side == "in" else "to"
        empty = "none" + (": gin challenge NAME sends one" if side == "out" else "")
        render_rows(screen, title, CHALLENGE_ROW, header, cells, empty=empty, footer=footer)


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns (an ellipsis says it was).

    >>> fit("standard target=50", 14), fit("Bob", 14)
    ('standard targ…', 'Bob')
    """
    return text if len(text) <= width else text[: width - 1] + "…"
