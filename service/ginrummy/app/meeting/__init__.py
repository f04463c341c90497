"""Meeting an opponent before a match: seeks in the lobby and quick matching (:mod:`.seeks`), challenges
to a named player or bot (:mod:`.challenges`). Both end in a match started by
:mod:`ginrummy.app.playing.starting`: it imports playing and players."""

from .challenges import Challenges
from .seeks import Seeks

__all__ = ["Challenges", "Seeks"]
