"""Playing: a match in play. Its use cases — starting one (:mod:`.starting`: create, join, a seek's or a
challenge's match, rematch), moves (:mod:`.moves`: the move pipeline), reading (:mod:`.reading`: views,
hands, hints, public matches), time and forfeits (:mod:`.forfeits`), its events (:mod:`.events`), a
searching bot's turns (:mod:`.bot_turns`), table chat (:mod:`.chat`) — over the :class:`~.match.Match`
aggregate (:mod:`.match`,
:mod:`.metadata`), the unit of work that loads and commits it (:mod:`.unit_of_work`), and their helpers:
seats, rendering (:mod:`.render`), dealing and the house bots' replies (:mod:`.dealing`), the shuffle
commitment (:mod:`.fairness`), bookkeeping, and what a match sends the archive (:mod:`.recording`).
It imports :mod:`ginrummy.app.players` and :mod:`ginrummy.app.archive`."""

from .bot_turns import BotTurns
from .chat import Chat
from .events import EventReader
from .forfeits import Life
from .moves import Moves
from .reading import Reading
from .starting import Matches

__all__ = ["BotTurns", "Chat", "EventReader", "Life", "Matches", "Moves", "Reading"]
