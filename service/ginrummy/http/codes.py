"""Every code the service can answer an error with: its HTTP status, its title and the sentence a person
reads — the one registry of the codes.

A code is raised in one place (a :class:`~ginrummy.app.errors.ServiceError` of a use case or of this
adapter, a class of :mod:`ginrummy.engine.errors`, werkzeug's own HTTP errors) and described here, once.
The rest follows from this table: :mod:`ginrummy.http.errors` answers a code with its status and title,
the OpenAPI document lists every code with its status, title and sentence (the Problem's ``code``), and
the clients' tables — the SDK's exception classes, the sentences of the terminal and web clients — are
generated from that document (``make openapi`` runs clients/generate.py). A code raised but missing here,
or listed here but raised nowhere, fails tests/app/test_error_table.py.

The sentence is what a client shows a person for the code: plain words, no HTTP, no seat numbers, no code
(the problem's ``detail`` says what this occurrence was, for developers).

>>> CODES["not_your_turn"]
Code(status=409, title='Not your turn', sentence='It is not your turn.', werkzeug=False)
>>> HTTP_CODES[404], CODES["http_error"].status
('not_found', None)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """What one code is: the HTTP status it is answered with (None for ``http_error``: that of werkzeug's
    error), a title (the problem's ``title``: a few words, the same for every occurrence), the sentence a
    person reads, and whether it is werkzeug's code for its status (``HTTP_CODES``)."""

    status: int | None
    title: str
    sentence: str
    werkzeug: bool = False


CODES: dict[str, Code] = {
    # the request itself; werkzeug's own errors (routing, methods, bodies)
    "bad_request": Code(400, "Bad request", "The service could not read that request.", werkzeug=True),
    "bad_idempotency_key": Code(
        400, "Bad Idempotency-Key", "The request's Idempotency-Key is longer than the service takes."
    ),
    "bad_if_match": Code(
        400, "Bad If-Match", 'The request\'s If-Match is not a version of the game such as "12".'
    ),
    "unauthorized": Code(401, "Unauthorized", "You hold no valid key for that.", werkzeug=True),
    "unknown_player": Code(
        401,
        "Unknown player",
        "The service does not know the player you are signed in as: sign in again.",
    ),
    "forbidden": Code(403, "Forbidden", "Your key does not allow that.", werkzeug=True),
    "bad_invitation": Code(
        403,
        "Bad invitation",
        "This invitation is not valid any more: it has been used, or it is incomplete.",
    ),
    "not_found": Code(404, "Not found", "There is nothing at that address.", werkzeug=True),
    "method_not_allowed": Code(
        405, "Method not allowed", "The service takes no request of that kind there.", werkzeug=True
    ),
    "not_acceptable": Code(
        406, "Not acceptable", "The service cannot answer in the form asked for.", werkzeug=True
    ),
    "conflict": Code(409, "Conflict", "That cannot be done now.", werkzeug=True),
    "stale_version": Code(412, "Stale version", "The game moved on meanwhile."),
    "payload_too_large": Code(
        413, "Payload too large", "That request is too large for the service.", werkzeug=True
    ),
    "unsupported_media_type": Code(
        415, "Unsupported media type", "The service cannot read a body of that type.", werkzeug=True
    ),
    "validation_error": Code(
        422,
        "Validation error",
        "The service refused what was sent: something is missing or not as it should be.",
        werkzeug=True,
    ),
    "bad_cursor": Code(422, "Bad cursor", "That list cannot be continued: load it again."),
    "bad_filter": Code(422, "Bad filter", "Those filters cannot be used."),
    "idempotency_key_reused": Code(
        422, "Idempotency-Key reused", "That Idempotency-Key was used for another request."
    ),
    "precondition_required": Code(
        428,
        "Precondition required",
        "A move must say which version of the game it was chosen from (If-Match).",
        werkzeug=True,
    ),
    "too_many_requests": Code(
        429,
        "Too many requests",
        "Too many requests just now: wait a moment and try again.",
        werkzeug=True,
    ),
    "rate_limited": Code(429, "Rate limited", "Too many requests just now: wait a moment and try again."),
    "too_many_games": Code(
        429, "Too many games", "You have as many games in play as you may: finish some first."
    ),
    "overloaded": Code(429, "Overloaded", "The service is busy just now: try again in a moment."),
    "internal_error": Code(
        500,
        "Internal error",
        "The service has a problem just now: try again in a moment.",
        werkzeug=True,
    ),
    "unavailable": Code(
        503,
        "Unavailable",
        "The service has a problem just now: try again in a moment.",
        werkzeug=True,
    ),
    "service_full": Code(503, "Service full", "The service holds as many games as it can: try again later."),
    "store_unavailable": Code(
        503, "Store unavailable", "The service has a problem just now: try again in a moment."
    ),
    "archive_unavailable": Code(
        503,
        "Archive unavailable",
        "The archive of past games cannot be read just now: try again in a moment.",
    ),
    "http_error": Code(None, "HTTP error", "The service refused that request.", werkzeug=True),
    "web_client_missing": Code(404, "Web client missing", "The web client is not installed on this service."),
    # games
    "game_not_found": Code(
        404,
        "Game not found",
        "This game does not exist any more: it ended a while ago, or it expired.",
    ),
    "hand_not_found": Code(
        404,
        "Hand not found",
        "That hand cannot be shown: it is still being played, or there is no such hand.",
    ),
    "seed_not_allowed": Code(
        422,
        "Seed not allowed",
        "This service deals from a secure random source: it takes no seed.",
    ),
    "unknown_bot": Code(422, "Unknown bot", "There is no such bot on this service."),
    "bots_unavailable": Code(
        503,
        "Bots unavailable",
        "That bot is not playing just now: choose another, or try again later.",
    ),
    "player_required": Code(
        422,
        "Player required",
        "A rated game is played by players: both must be signed in.",
    ),
    "rated_needs_preset": Code(
        422,
        "Rated needs a preset",
        "A rated game plays a preset's rules as they are: no other options.",
    ),
    "waiting_for_opponent": Code(409, "Waiting for opponent", "Your opponent has not joined yet."),
    "join_conflict": Code(409, "Join conflict", "The game changed while you joined: try again."),
    "own_game": Code(409, "Own game", "A player cannot take both seats of a game."),
    "rated_game": Code(409, "Rated game", "A rated game has no hints and no undo."),
    "undo_not_allowed": Code(409, "Undo not allowed", "Undo is only for games against a bot."),
    "hint_not_allowed": Code(409, "Hint not allowed", "Hints are only for games against a bot."),
    "nothing_to_do": Code(409, "Nothing to do", "You have no move to make now."),
    "nothing_to_claim": Code(
        409,
        "Nothing to claim",
        "There is nothing to claim: it is not your opponent's move.",
    ),
    "too_early": Code(409, "Too early", "Your opponent still has time."),
    "not_over": Code(409, "Not over", "A rematch can be offered once the match is over."),
    "rematch_exists": Code(409, "Rematch exists", "The rematch has started already."),
    "rematch_offered": Code(409, "Rematch offered", "You have offered a rematch already."),
    "game_archived": Code(409, "Game archived", "That match is over and archived: it no longer changes."),
    # the rules (ginrummy.engine.errors): a well-formed action refused now is a conflict with the state;
    # a malformed one, or one the rules never allow in that form, is unprocessable
    "illegal_action": Code(409, "Illegal action", "That move is not allowed now."),
    "not_your_turn": Code(409, "Not your turn", "It is not your turn."),
    "game_over": Code(409, "Game over", "The match is over."),
    "cannot_undo": Code(409, "Cannot undo", "There is no move of yours to take back in this hand."),
    "bad_action": Code(422, "Bad action", "That is not a move the service knows."),
    "bad_card": Code(422, "Bad card", "That is not a card."),
    "duplicate_card": Code(422, "Duplicate card", "A card is there twice."),
    "invalid_meld": Code(422, "Invalid meld", "That cannot be laid down."),
    "invalid_layoff": Code(422, "Invalid lay-off", "That lay-off cannot be made."),
    "deadwood_too_high": Code(422, "Deadwood too high", "You cannot knock with that much deadwood."),
    "bad_rules": Code(422, "Bad rules", "Those rules cannot be played."),
    # players and the lobby
    "player_not_found": Code(404, "Player not found", "There is no player of that name on this service."),
    "seek_not_found": Code(404, "Seek not found", "That seek is not in the lobby any more."),
    "name_reserved": Code(
        422,
        "Name reserved",
        "Names starting with bot- belong to the bots: choose another.",
    ),
    "name_taken": Code(409, "Name taken", "That name is taken on this service."),
    "seek_taken": Code(409, "Seek taken", "Somebody took that seek already."),
    "seek_incompatible": Code(
        409,
        "Seek incompatible",
        "That seek is not open to you: its settings or rating limits exclude you.",
    ),
    # accounts, sessions and API tokens
    "bad_credentials": Code(401, "Bad credentials", "Wrong name or password."),
    "session_expired": Code(401, "Session expired", "Your session has ended: sign in again."),
    "session_required": Code(403, "Session required", "That needs you to be signed in with your password."),
    "token_scope": Code(403, "Token scope", "This key may only read, not play."),
    "session_not_found": Code(404, "Session not found", "That device is signed out already."),
    "token_not_found": Code(404, "Token not found", "That token is revoked already."),
    "not_archived": Code(
        404,
        "Not archived",
        "That match is not in the archive yet: it is still being played, or it ended a moment ago.",
    ),
    "review_not_found": Code(404, "Review not found", "No review of that match has been asked for yet."),
    "account_exists": Code(
        409,
        "Account exists",
        "That name is taken: sign in if it is yours, or choose another.",
    ),
    "weak_password": Code(
        422,
        "Weak password",
        "Choose another password: at least 10 characters, and not one of the common ones.",
    ),
    # bot accounts and challenges
    "already_bot": Code(409, "Already a bot", "This account is a bot account already."),
    "account_has_games": Code(
        409,
        "Account has games",
        "Only an account that has not played a game may become a bot account.",
    ),
    "challenge_not_found": Code(404, "Challenge not found", "That challenge is gone: it ended a while ago."),
    "challenge_closed": Code(
        409,
        "Challenge closed",
        "That challenge is closed: it was answered, withdrawn or it expired.",
    ),
    "challenge_self": Code(422, "Challenge to oneself", "You cannot challenge yourself."),
    "player_blocked": Code(403, "Player blocked", "You block that player: unblock them first."),
    # tournaments
    "account_required": Code(401, "Account required", "That is for accounts: sign in first."),
    "tournament_not_found": Code(404, "Tournament not found", "There is no such tournament."),
    "too_many_tournaments": Code(
        429, "Too many tournaments", "You have created as many tournaments as you may today."
    ),
    "bad_tournament": Code(422, "Bad tournament", "Those tournament settings do not fit together."),
    "tournament_started": Code(
        409, "Tournament started", "That tournament has started: it is too late for that."
    ),
    "tournament_over": Code(409, "Tournament over", "That tournament is over."),
    "bad_entry_code": Code(403, "Bad entry code", "That private tournament needs its entry code."),
    "bots_not_allowed": Code(403, "Bots not allowed", "Bot accounts may not join that tournament."),
    "bots_only": Code(403, "Bots only", "That tournament is for bots only."),
    "not_enough_rated_games": Code(
        403, "Not enough rated games", "You need more rated games to join that tournament."
    ),
    "not_entered": Code(409, "Not entered", "You are not in that tournament."),
    "berserk_not_allowed": Code(409, "Berserk not allowed", "You cannot berserk in this game now."),
    "no_rematch": Code(
        409, "No rematch", "A tournament's game has no rematch: your next game comes by itself."
    ),
    # table chat
    "chat_forbidden": Code(403, "Not your room", "You cannot say or do that in this room of the table."),
    "chat_presets_only": Code(
        403, "Preset phrases only", "Players without an account say preset phrases only: sign up to type."
    ),
    "chat_muted": Code(403, "Chat muted", "A moderator has muted your chat for a while."),
    "chat_closed": Code(409, "Chat closed", "This game's chat takes no new lines."),
    "chat_empty": Code(422, "Empty line", "Say a preset phrase or type something."),
    "chat_too_long": Code(422, "Line too long", "A line has at most 140 characters."),
    "chat_too_fast": Code(429, "Chat too fast", "You are chatting too fast: wait a little."),
    # reports and moderation
    "account_closed": Code(403, "Account closed", "This account has been closed by the moderators."),
    "not_moderator": Code(403, "Not a moderator", "That is for the service's moderators."),
    "moderator_protected": Code(
        403, "Moderator protected", "A moderator's account cannot be closed: its role must go first."
    ),
    "chat_line_not_found": Code(404, "Chat line not found", "That game has no such chat line."),
    "report_not_found": Code(404, "Report not found", "There is no such report."),
    "report_closed": Code(409, "Report closed", "That report is closed already."),
    "already_closed": Code(409, "Already closed", "That account is closed already."),
    "report_self": Code(422, "Report of oneself", "You cannot report yourself."),
    "not_their_line": Code(422, "Not their line", "That chat line was not said by the player you report."),
    "too_many_reports": Code(
        429, "Too many reports", "You have sent as many reports as you may today: try again tomorrow."
    ),
}
"""Every code, grouped by what it is about."""

HTTP_CODES: dict[int, str] = {
    entry.status: code for code, entry in CODES.items() if entry.werkzeug and entry.status is not None
}
"""The code of werkzeug's own HTTP errors, by status; any other status of werkzeug's is ``http_error``."""
