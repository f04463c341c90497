"""Time controls: per-move seconds and/or a bank with an increment, enforced without a timer.

A clock is a small dict kept in the game's meta (``ck``), changed only by commits:

``m``  seconds per move (or None)          ``b``  the bank in seconds at the start (or None)
``i``  increment in seconds per move       ``l``  milliseconds left in each seat's bank (with a bank)
``s``  the seat whose clock runs (None: nobody's — a bot to act, between hands, the end)
``t``  when it started running (unix milliseconds)

Nothing ticks in the service: every commit settles the running seat's time (:func:`settle`), and the
first request that finds the running seat's deadline passed — any read of the game, a long poll or
stream that wakes at the deadline, or the other seat's ``claim-victory`` — commits the loss on time
(the store's version check makes that happen exactly once, however many requests find it). Bots never
time out: their seat's clock never runs. The bank is for the whole match; between hands nobody's clock
runs (either human may deal).

>>> ck = new_clock({"per_move": None, "bank": 30, "increment": 0})
>>> settle(ck, 0, now_ms=1_000)           # seat 0 to act from t = 1 s
>>> settle(ck, 1, now_ms=5_500)           # seat 0 took 4.5 s; seat 1 to act
>>> ck["l"], ck["s"]
([25500, 30000], 1)
>>> expired(ck, now_ms=35_499), expired(ck, now_ms=35_500)
(None, 1)
"""

from __future__ import annotations

import time
from typing import Any

# The EAAI Gin Rummy competition's control: 30 seconds per player per game, no increment.
PRESETS: dict[str, dict[str, int | None]] = {"eaai": {"per_move": None, "bank": 30, "increment": 0}}


def now_ms() -> int:
    return int(time.time() * 1000)


def new_clock(spec: dict[str, Any] | None) -> dict[str, Any] | None:
    """The clock of a time control (``{"preset"}`` or ``{"per_move", "bank", "increment"}``), or None."""
    if not spec:
        return None
    if spec.get("preset"):
        spec = PRESETS[spec["preset"]]
    per_move, bank = spec.get("per_move"), spec.get("bank")
    if per_move is None and bank is None:
        return None
    return {
        "m": per_move,
        "b": bank,
        "i": spec.get("increment") or 0,
        "l": [bank * 1000, bank * 1000] if bank is not None else None,
        "s": None,
        "t": None,
    }


def _allowed_ms(ck: dict[str, Any], seat: int) -> int:
    """How long the seat's current move may take in all, from when its clock started."""
    limits = []
    if ck["m"] is not None:
        limits.append(ck["m"] * 1000)
    if ck["l"] is not None:
        limits.append(ck["l"][seat])
    return min(limits)


def settle(ck: dict[str, Any], running: int | None, *, now_ms: int, increment: bool = True) -> None:
    """At a commit: charge the seat whose clock ran (bank minus the time taken, plus the increment for a
    move made — none when the match just ended), then start ``running``'s clock (None: nobody's)."""
    seat, started = ck["s"], ck["t"]
    if seat is not None and started is not None and ck["l"] is not None:
        ck["l"][seat] = max(0, ck["l"][seat] - (now_ms - started)) + (ck["i"] * 1000 if increment else 0)
    ck["s"] = running
    ck["t"] = now_ms if running is not None else None


def deadline_ms(ck: dict[str, Any]) -> int | None:
    """When the running seat's time is up (unix milliseconds), or None when no clock runs."""
    if ck["s"] is None or ck["t"] is None:
        return None
    return int(ck["t"] + _allowed_ms(ck, ck["s"]))


def expired(ck: dict[str, Any], *, now_ms: int) -> int | None:
    """The seat whose time is up now, or None."""
    deadline = deadline_ms(ck)
    return ck["s"] if deadline is not None and now_ms >= deadline else None


def clock_view(ck: dict[str, Any], *, now_ms: int) -> dict[str, Any]:
    """What both seats see: the control, each seat's bank left (the running seat's as of now), the seat
    whose clock runs and the seconds its move has left."""
    banks = None
    if ck["l"] is not None:
        banks = [ms / 1000 for ms in ck["l"]]
        if ck["s"] is not None and ck["t"] is not None:
            banks[ck["s"]] = max(0.0, (ck["l"][ck["s"]] - (now_ms - ck["t"])) / 1000)
    deadline = deadline_ms(ck)
    return {
        "per_move": ck["m"],
        "bank": ck["b"],
        "increment": ck["i"],
        "remaining": banks,
        "running": ck["s"],
        "move_remaining": None if deadline is None else max(0.0, (deadline - now_ms) / 1000),
    }
