"""Time controls: per-move seconds and/or a bank with an increment, enforced without a timer.

A clock (:class:`Clock`) is part of the match's metadata (:mod:`ginrummy.app.playing.metadata`) and
changes only at commits. Nothing ticks in the service: every commit settles the running seat's time
(:func:`settle`), and the first request that finds the running seat's deadline passed — any read of the
match, a long poll or stream that wakes at the deadline, or the other seat's ``claim-victory`` — commits
the loss on time (the store's version check makes that happen exactly once, however many requests find
it). Bots never time out: their seat's clock never runs. The bank is for the whole match; between hands
nobody's clock runs (either human may deal).

>>> ck = new_clock({"per_move": None, "bank": 30, "increment": 0})
>>> ck = settle(ck, 0, now_ms=1_000)      # seat 0 to act from t = 1 s
>>> ck = settle(ck, 1, now_ms=5_500)      # seat 0 took 4.5 s; seat 1 to act
>>> ck.left_ms, ck.running
((25500, 30000), 1)
>>> expired(ck, now_ms=35_499), expired(ck, now_ms=35_500)
(None, 1)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

# Named time controls. People play a bank with an increment; the EAAI Gin Rummy competition's control
# (30 seconds per player for the whole game, no increment) is for bots.
PRESETS: dict[str, dict[str, int | None]] = {
    "blitz": {"per_move": None, "bank": 180, "increment": 2},
    "rapid": {"per_move": None, "bank": 600, "increment": 5},
    "classical": {"per_move": None, "bank": 1800, "increment": 10},
    "eaai": {"per_move": None, "bank": 30, "increment": 0},
}


@dataclass(frozen=True)
class Clock:
    """A time control and its state, kept in the game's metadata: seconds per move and/or a bank with an
    increment, each seat's bank left, and the seat whose clock runs since when."""

    per_move: int | None
    bank: int | None
    increment: int = 0
    left_ms: tuple[int, int] | None = None  # each seat's bank left (with a bank)
    running: int | None = None  # the seat whose clock runs (None: nobody's)
    started_ms: int | None = None  # when it started running (unix ms)
    berserk: tuple[int, ...] = ()  # seats that berserked: half their bank, no increment

    def to_json(self) -> dict[str, Any]:
        left = list(self.left_ms) if self.left_ms is not None else None
        out: dict[str, Any] = {
            "m": self.per_move,
            "b": self.bank,
            "i": self.increment,
            "l": left,
            "s": self.running,
            "t": self.started_ms,
        }
        if self.berserk:
            out["z"] = list(self.berserk)
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> Clock:
        left = data.get("l")
        return Clock(
            data.get("m"),
            data.get("b"),
            data.get("i") or 0,
            (int(left[0]), int(left[1])) if left is not None else None,
            data.get("s"),
            data.get("t"),
            tuple(data.get("z") or ()),
        )


def now_ms() -> int:
    return int(time.time() * 1000)


def described(spec: dict[str, Any] | None) -> dict[str, Any] | None:
    """A time control as asked, with its numbers filled in: ``{"preset", "per_move", "bank",
    "increment"}`` (seconds; ``preset`` None when numbers were asked), so that nobody has to know the
    presets' table to read a challenge's clock. None: no clock.

    >>> described({"preset": "rapid"})
    {'preset': 'rapid', 'per_move': None, 'bank': 600, 'increment': 5}
    >>> described({"per_move": 20}), described(None)
    ({'preset': None, 'per_move': 20, 'bank': None, 'increment': 0}, None)
    """
    clock = new_clock(spec)
    if clock is None or spec is None:
        return None
    return {
        "preset": spec.get("preset") or None,
        "per_move": clock.per_move,
        "bank": clock.bank,
        "increment": clock.increment,
    }


def new_clock(spec: dict[str, Any] | None) -> Clock | None:
    """The clock of a time control (``{"preset"}`` or ``{"per_move", "bank", "increment"}``), or None.
    Numbers given beside a preset take the place of the preset's own (``rapid`` with ``increment`` 3).

    >>> new_clock({"preset": "rapid", "increment": 3}).increment, new_clock({"preset": "rapid"}).increment
    (3, 5)
    """
    if not spec:
        return None
    if spec.get("preset"):
        given = {k: v for k, v in spec.items() if k in ("per_move", "bank", "increment") and v is not None}
        spec = {**PRESETS[spec["preset"]], **given}
    per_move, bank = spec.get("per_move"), spec.get("bank")
    if per_move is None and bank is None:
        return None
    left = (bank * 1000, bank * 1000) if bank is not None else None
    return Clock(per_move, bank, spec.get("increment") or 0, left)


def restarted(clock: Clock) -> Clock:
    """The same time control at the start of a new match (a rematch)."""
    spec = {"per_move": clock.per_move, "bank": clock.bank, "increment": clock.increment}
    fresh = new_clock(spec)
    assert fresh is not None
    return fresh


def _allowed_ms(clock: Clock, seat: int) -> int:
    """How long the seat's current move may take in all, from when its clock started."""
    limits = []
    if clock.per_move is not None:
        limits.append(clock.per_move * 1000)
    if clock.left_ms is not None:
        limits.append(clock.left_ms[seat])
    return min(limits)


def settle(clock: Clock, running: int | None, *, now_ms: int, increment: bool = True) -> Clock:
    """At a commit: charge the seat whose clock ran (bank minus the time taken, plus the increment for a
    move made — none when the match just ended), then start ``running``'s clock (None: nobody's)."""
    left = clock.left_ms
    seat, started = clock.running, clock.started_ms
    if seat is not None and started is not None and left is not None:
        added = clock.increment * 1000 if increment and seat not in clock.berserk else 0
        spent = max(0, left[seat] - (now_ms - started)) + added
        left = (spent, left[1]) if seat == 0 else (left[0], spent)
    return replace(clock, left_ms=left, running=running, started_ms=now_ms if running is not None else None)


def berserked(clock: Clock, seat: int) -> Clock:
    """The seat berserks: half its bank (what is left of it), and no increment from now on.

    >>> ck = berserked(new_clock({"preset": "blitz"}), 1)
    >>> ck.left_ms, ck.berserk
    ((180000, 90000), (1,))
    """
    left = clock.left_ms
    if left is not None:
        left = (left[0] // 2, left[1]) if seat == 0 else (left[0], left[1] // 2)
    return replace(clock, left_ms=left, berserk=(*clock.berserk, seat))


def deadline_ms(clock: Clock) -> int | None:
    """When the running seat's time is up (unix milliseconds), or None when no clock runs."""
    if clock.running is None or clock.started_ms is None:
        return None
    return int(clock.started_ms + _allowed_ms(clock, clock.running))


def expired(clock: Clock | None, *, now_ms: int) -> int | None:
    """The seat whose time is up now, or None (also without a clock)."""
    if clock is None:
        return None
    deadline = deadline_ms(clock)
    return clock.running if deadline is not None and now_ms >= deadline else None


def clock_view(clock: Clock, *, now_ms: int) -> dict[str, Any]:
    """What both seats see: the control, each seat's bank left (the running seat's as of now), the seat
    whose clock runs and the seconds its move has left."""
    banks = None
    if clock.left_ms is not None:
        banks = [ms / 1000 for ms in clock.left_ms]
        if clock.running is not None and clock.started_ms is not None:
            spent = now_ms - clock.started_ms
            banks[clock.running] = max(0.0, (clock.left_ms[clock.running] - spent) / 1000)
    deadline = deadline_ms(clock)
    return {
        "per_move": clock.per_move,
        "bank": clock.bank,
        "increment": clock.increment,
        "remaining": banks,
        "running": clock.running,
        "move_remaining": None if deadline is None else max(0.0, (deadline - now_ms) / 1000),
    }
