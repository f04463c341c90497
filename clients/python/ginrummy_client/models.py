"""The service's JSON bodies as ``TypedDict``\\ s: at run time they are the plain dicts decoded from the
response (a view can be handed to a bot as it is), and a type checker knows their members.

They follow from the service's OpenAPI document: ``_models`` is generated from it by clients/generate.py
(``make openapi``), one ``TypedDict`` for each object schema an answer holds, named as the document names it
(``View``, ``Moved``, ``DealEvent``, ``Challenge``, ``Profile``, …), and a type alias for each union — a
discriminated ``oneOf`` is the union of its members (``Event = DealEvent | DrawEvent | …``), which a type
checker tells apart by their ``type`` (``if event["type"] == "deal": event["upcard"]``). A member the
document does not require is ``NotRequired`` (read it with ``.get``): e.g. ``history`` and ``stats`` are
only in a view read with GET (the *full view*), not in the *play view* a move answers with; one that may be
null is ``X | None``; a closed set of values a ``Literal``. Cards are always the canonical two-character
text (``"7H"``, ``"TD"``); a *meld* is a list of cards. The SDK's own names of some components are aliases
of them (``MoveResult`` is ``Moved``, ``SeatPlayer`` is ``Player``, ``ChallengeInfo`` is ``Challenge``:
the SDK's :class:`~ginrummy_client.Challenge` is a class of its own).

The service may add members in a later version; clients ignore what they do not know.
"""

from ._models import *  # noqa: F403
