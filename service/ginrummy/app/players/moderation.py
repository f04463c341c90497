"""Reports and moderation (lila's ``report`` and ``mod``): an account reports a player — for abuse, spam,
cheating or another reason, about a game, quoting one of its chat lines —, and the service's moderators
read the reports, close them, mute a player's chat for a while or close an account. Every act of a
moderator is written to the moderation log.

Moderators are appointed only from the command line (``ginrummy-admin moderator grant NAME``,
:mod:`ginrummy.admin`), never over the API. A moderator acts through its session or an API token that may
play (a ``read`` token only reads the reports and the log). A moderator's account is never closed: its
role is revoked first, from the command line.

Closing an account ends its credentials at once (sessions, API tokens, its player token: every process
refuses them at their next use) and refuses its sign-ins (``account_closed``); its games and its archive
stay, and its profile says ``closed``. Its challenges and seeks are left to expire, and its games in play
to end as any (their seat tokens are the games', not the account's).
"""

from __future__ import annotations

import re
import time
from typing import Any

from ginrummy.store.moderation import ChatLine, ModerationStore, Player

from .. import security
from ..calls import Result
from ..errors import ServiceError
from .identity import Identities, Identity
from .profiles import RESERVED_PREFIX

REPORTS_PER_DAY = 20  # reports one account may file in any 24 hours
DAY = 86400
# Taken out of a report's text: control characters (but the line break) and the marks that reorder text.
UNPRINTABLE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
REPORTS_CURSOR = re.compile(r"^([01])-([0-9]{1,18})$")
LOG_CURSOR = re.compile(r"^[0-9]{1,18}$")


def cleaned(text: str) -> str:
    """A report's text as kept: without control characters (line breaks stay) and surrounding spaces.

    >>> cleaned(" rude\\r\\nagain\\x00\\u202e ")
    'rude\\nagain'
    """
    return UNPRINTABLE.sub("", text.replace("\r\n", "\n").replace("\t", " ")).strip()


def _bad_cursor() -> ServiceError:
    return ServiceError("bad_cursor", "this cursor was not made by this service: use the 'next' of a page")


class Moderation:
    """Reports, and what the moderators do."""

    def __init__(self, store: ModerationStore, identities: Identities) -> None:
        self.store = store
        self.identities = identities

    def _account(self, token: str | None) -> Identity:
        me = self.identities.of(security.require_token(token))
        if me is None or me.player_id is None:
            raise ServiceError("account_required", "reports are an account's: sign in first")
        return me

    def _moderator(self, token: str | None, *, acting: bool = False) -> int:
        """The caller's player id when it is a moderator (``acting``: with a credential that may act)."""
        me = self.identities.of(security.require_token(token))
        if me is None:
            raise ServiceError("unknown_player", "this bearer token is no player's, session's or API token's")
        if me.player_id is None or not self.store.is_moderator(me.player_id):
            raise ServiceError("not_moderator", "this is for the service's moderators")
        if acting:
            me.require_play()
        return me.player_id

    def _player(self, name: str) -> Player:
        found = self.store.player(name)
        if found is None:
            raise ServiceError("player_not_found", f"there is no player {name!r}")
        return found

    # --- reports ----------------------------------------------------------------------------------
    def report(self, body: dict[str, Any], token: str | None) -> Result:
        """File a report of ``body["player"]`` (with ``reason``, and ``text``, ``game_id``, ``line``)."""
        me = self._account(token).require_play()
        assert me.player_id is not None
        reported = self._player(body["player"])
        if reported.id == me.player_id:
            raise ServiceError("report_self", "you cannot report yourself")
        line = self._quoted(body.get("game_id"), body.get("line"), reported)
        filed, oldest = self.store.reports_since(me.player_id, DAY)
        if filed >= REPORTS_PER_DAY:
            wait = max(1, int((oldest or time.time()) + DAY - time.time()))
            raise ServiceError(
                "too_many_reports", f"{REPORTS_PER_DAY} reports a day at most", retry_after=wait
            )
        report_id = self.store.file_report(
            me.player_id,
            reported.id,
            body["reason"],
            cleaned(body.get("text", "")),
            body.get("game_id"),
            line,
        )
        return Result({"id": report_id, "player": reported.name, "reason": body["reason"]}, created=True)

    def _quoted(self, game_id: str | None, n: int | None, reported: Player) -> ChatLine | None:
        """The chat line ``n`` of the game, when it is the reported player's."""
        if n is None:
            return None
        if game_id is None:
            raise ServiceError("chat_line_not_found", "a chat line is one of a game: give its game_id")
        line = self.store.chat_line(game_id, n)
        if line is None:
            raise ServiceError("chat_line_not_found", f"game {game_id!r} has no chat line {n}")
        if line.author_id != reported.id:
            raise ServiceError("not_their_line", f"chat line {n} was not said by {reported.name}")
        return line

    def reports(self, token: str | None, cursor: str | None, limit: int) -> Result:
        """The reports, open ones first, newest first, a page at a time."""
        self._moderator(token)
        after = None
        if cursor is not None:
            match = REPORTS_CURSOR.match(cursor)
            if match is None:
                raise _bad_cursor()
            after = (match[1] == "1", int(match[2]))
        rows = self.store.reports(after, limit)
        last = rows[-1] if len(rows) == limit else None
        following = None if last is None else f"{int(last['closed'] is not None)}-{last['id']}"
        return Result({"reports": rows, "next": following})

    def close_report(self, token: str | None, report_id: str, note: str) -> Result:
        moderator = self._moderator(token, acting=True)
        if not report_id.isdigit() or len(report_id) > 18:
            raise ServiceError("report_not_found", f"there is no report {report_id!r}")
        found = self.store.close_report(int(report_id), moderator, note)
        if found is None:
            raise ServiceError("report_not_found", f"there is no report {report_id!r}")
        report, closed_now = found
        if not closed_now:
            raise ServiceError("report_closed", f"report {report_id} is closed already")
        return Result(report)

    # --- a moderator's acts on players ------------------------------------------------------------
    def chat_mute(self, token: str | None, name: str, minutes: int, reason: str) -> Result:
        """Mute the player's chat for ``minutes`` from now (replacing a mute in force: a short one lifts a
        long one)."""
        moderator = self._moderator(token, acting=True)
        player = self._player(name)
        until = self.store.chat_mute(moderator, player.id, minutes, reason)
        return Result({"player": player.name, "chat_muted_until": until})

    def close_account(self, token: str | None, name: str, reason: str) -> Result:
        moderator = self._moderator(token, acting=True)
        player = self._player(name)
        if player.name.casefold().startswith(RESERVED_PREFIX):
            raise ServiceError("forbidden", "a house bot is the service's own: it cannot be closed")
        if not (player.moderator or player.closed):
            closed = self.store.close_account(moderator, player.id, reason)
            if closed is not None:
                return Result(
                    {
                        "player": player.name,
                        "closed": closed.at,
                        "signed_out": closed.sessions,
                        "tokens_revoked": closed.tokens,
                    }
                )
            player = self._player(name)  # it changed meanwhile: say how
        if player.moderator:
            raise ServiceError(
                "moderator_protected", "a moderator's account is not closed: revoke its role first"
            )
        raise ServiceError("already_closed", f"the account {player.name} is closed already")

    # --- the log ----------------------------------------------------------------------------------
    def log(self, token: str | None, cursor: str | None, limit: int) -> Result:
        """Every act of the moderators (and every appointment), newest first, a page at a time."""
        self._moderator(token)
        if cursor is not None and not LOG_CURSOR.match(cursor):
            raise _bad_cursor()
        rows = self.store.log(None if cursor is None else int(cursor), limit)
        return Result({"entries": rows, "next": rows[-1]["id"] if len(rows) == limit else None})
