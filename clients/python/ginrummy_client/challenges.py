"""``client.challenges``: a game offered to a named player or bot (``/v1/challenges``) — made, listed,
read, accepted, declined and canceled —, the typed bodies, the :class:`Challenge` the challenger holds,
and the small pure helpers of the requests.

A challenge names its opponent, rules, clock and whether it is rated; the challenged side accepts it (the
game starts: the challenger is seat 0, the accepter seat 1) or declines it with a reason; the challenger
may cancel it; an unanswered one expires. A house bot (``bot-expert``) accepts at once.

>>> Challenge.made({"id": "c1", "status": "open", "game_id": None}, "secret")
Challenge(id='c1', status='open', game_id=None)
>>> rules_body("oklahoma"), rules_body({"preset": "standard", "options": {"target": 1}}), rules_body(None)
({'preset': 'oklahoma'}, {'preset': 'standard', 'options': {'target': 1}}, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast, get_args
from urllib.parse import quote

from .bodies import ClockSpec, clock_body, given
from .game import Game, seated
from .models import Challenge as ChallengeBody
from .models import ChallengeCreated, ChallengeInfo, ChallengeList
from .resource import Resource, renamed

# The document's enum of a challenge's decline_reason (its models are generated from it), in its order.
DECLINE_REASONS: tuple[str, ...] = get_args(get_args(ChallengeBody.__annotations__["decline_reason"])[0])
"""Why a challenge is declined (the service's list): ``rated`` — I take only rated games; ``casual`` —
only casual ones; ``too_fast``/``too_slow``/``time_control`` — not this clock; ``rules`` — not these
rules; ``no_bot``/``only_bot`` — not against a bot / only against bots; ``later``; ``generic``."""

RulesSpec = str | Mapping[str, Any]
"""Rules as a challenge takes them: a preset's name, or ``{"preset": …, "options": {…}}``."""


@dataclass(frozen=True)
class Challenge:
    """A challenge made with :meth:`Challenges.create`: its ``id``, ``status`` and ``game_id`` (once
    accepted: at once for a house bot) as the service answered, the whole answer as ``info``, and
    ``token``: the challenger's seat token in the game to come (shown once; never in a ``repr``) — with it
    an anonymous challenger reads and cancels the challenge, and plays the game. A challenger with an
    account needs it for nothing: its own token acts on the game's seat 0."""

    id: str
    status: str
    game_id: str | None
    info: ChallengeInfo = field(repr=False)
    token: str = field(repr=False)

    @classmethod
    def made(cls, info: ChallengeInfo, token: str) -> Challenge:
        """The challenge of the service's answer to ``POST /v1/challenges``."""
        return cls(info["id"], info["status"], info["game_id"], info, token)


def challenge_path(challenge_id: str, *rest: str) -> str:
    """The path of a challenge; the id is quoted, so it can never name another path.

    >>> challenge_path("c1", "accept"), challenge_path("../x")
    ('/v1/challenges/c1/accept', '/v1/challenges/..%2Fx')
    """
    return "/".join(["/v1/challenges", quote(challenge_id, safe=""), *rest])


def rules_body(rules: RulesSpec | None) -> dict[str, Any] | None:
    """The ``rules`` member of a challenge: a preset's name, or the mapping as it is."""
    if rules is None:
        return None
    if isinstance(rules, str):
        return {"preset": rules}
    return dict(rules)


class Challenges(Resource):
    """The challenges of the client's token's account (or, without one, an anonymous challenger's)."""

    def create(
        self,
        opponent: str,
        *,
        rules: RulesSpec | None = None,
        clock: ClockSpec | None = None,
        rated: bool = False,
        name: str | None = None,
    ) -> Challenge:
        """Challenge ``opponent`` — a player's name, or a house bot's player (``bot-expert``), which
        accepts at once (``challenge.game_id`` is set) — to a game under ``rules`` (a preset's name, or
        ``{"preset", "options"}``; default standard), with ``clock`` (``"rapid"``,
        ``{"per_move", "bank", "increment"}``; default none), ``rated`` or casual. With the client's
        token the challenge is the account's (and its game too); without, ``name`` is the anonymous
        challenger's and the answer's token is the only key to it. The opponent learns of it on its
        account stream. Refusals: :class:`PlayerNotFound`, :class:`ChallengeSelf`, :class:`BadRules`,
        :class:`PlayerRequired` and :class:`RatedNeedsPreset` (rated), :class:`UnknownBot`. Not resent
        after a lost answer (a second challenge would be made)."""
        body = {
            "opponent": opponent,
            "rated": rated,
            **given(rules=rules_body(rules), clock=clock_body(clock), name=name),
        }
        reply = self.requestor.request(
            "POST", "/v1/challenges", token=self.token, json=body, idempotent=False
        )
        created = cast(ChallengeCreated, reply.data)
        return Challenge.made(created["challenge"], created["token"])

    def list(self) -> ChallengeList:
        """The account's open challenges: received (``["in"]``) and sent (``["out"]``)."""
        return cast(ChallengeList, self.requestor.request("GET", "/v1/challenges", token=self.token).data)

    def get(self, challenge_id: str, token: str | None = None) -> ChallengeInfo:
        """A challenge as it stands now (open, accepted with its ``game_id``, declined with its
        ``decline_reason``, canceled, expired), to either side: the client's token, or ``token`` (an
        anonymous challenger's challenge token). :class:`ChallengeNotFound` for anyone else."""
        reply = self.requestor.request(
            "GET", challenge_path(challenge_id), token=token if token is not None else self.token
        )
        return cast(ChallengeInfo, reply.data)

    def accept(self, challenge_id: str) -> Game:
        """Accept a challenge made to this account: the game starts, and this is its seat 1 (the
        client's token acts on it too). :class:`ChallengeClosed` (see :meth:`get`) when it is no longer
        open. Not resent after a lost answer: the game was made, or the challenge is still open."""
        reply = self.requestor.request(
            "POST", challenge_path(challenge_id, "accept"), token=self.token, idempotent=False
        )
        return seated(self.client, reply)

    def decline(self, challenge_id: str, reason: str = "generic") -> ChallengeInfo:
        """Decline a challenge made to this account, with a reason the challenger sees (one of
        :data:`DECLINE_REASONS`: ``rules``, ``rated``, ``casual``, ``too_fast``, ``too_slow``,
        ``time_control``, ``later``, …)."""
        reply = self.requestor.request(
            "POST", challenge_path(challenge_id, "decline"), token=self.token, json={"reason": reason}
        )
        return cast(ChallengeInfo, reply.data)

    def cancel(self, challenge_id: str, token: str | None = None) -> ChallengeInfo:
        """Withdraw a challenge this account made (or, with ``token``, an anonymous one's)."""
        reply = self.requestor.request(
            "POST",
            challenge_path(challenge_id, "cancel"),
            token=token if token is not None else self.token,
        )
        return cast(ChallengeInfo, reply.data)

    def __call__(self) -> ChallengeList:
        """The old ``client.challenges()``, for one release: :meth:`list`."""
        renamed("client.challenges()", "client.challenges.list()")
        return self.list()
