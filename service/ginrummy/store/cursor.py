"""The cursor of an event: ``<version>-<n>``, the n-th event (from 1) of the change that made the game's
``version``. Events are stored under it (the commit script writes ``version .. '-' .. j``), pages and
streams resume after it, and nothing else interprets it: clients treat it as opaque text.

>>> Cursor.parse("12-3"), str(Cursor(12, 3))
(Cursor(version=12, number=3), '12-3')
>>> last = Cursor(12, 3)
>>> Cursor(12, 4).follows(last), Cursor(13, 1).follows(last), Cursor(13, 2).follows(last)
(True, True, False)
>>> Cursor.valid("12-3"), Cursor.valid("12"), Cursor.valid("-3")
(True, False, False)
"""

from __future__ import annotations

from typing import NamedTuple

MAX_LENGTH = 20
LAST_NUMBER = 999_999  # more events than one change ever makes (the query pattern allows 6 digits)


class Cursor(NamedTuple):
    """An event's id; ordered as the events are."""

    version: int
    number: int

    @staticmethod
    def valid(text: str) -> bool:
        """Whether ``text`` is a cursor (as a client may send it back)."""
        head, _, tail = text.partition("-")
        return head.isdigit() and tail.isdigit() and len(text) <= MAX_LENGTH

    @staticmethod
    def parse(text: str) -> Cursor:
        version, _, number = text.partition("-")
        return Cursor(int(version), int(number or 0))

    @staticmethod
    def after_version(version: int) -> Cursor:
        """The cursor of everything up to ``version`` included: the events after it are the next
        versions' (a view of ``version`` hands it out, so that clients never make one)."""
        return Cursor(version, LAST_NUMBER)

    def follows(self, before: Cursor) -> bool:
        """Whether this is the very next event after ``before`` (nothing was trimmed in between)."""
        return self in (Cursor(before.version, before.number + 1), Cursor(before.version + 1, 1))

    def __str__(self) -> str:
        return f"{self.version}-{self.number}"
