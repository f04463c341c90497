"""schemathesis hooks (loaded with ``SCHEMATHESIS_HOOKS=tests.e2e.schemathesis_hooks``).

``accepted_unless_game_reason``: a request the document allows is accepted — answered 2xx — unless the
game refuses it for a reason of the game (an illegal move, not this seat's turn, a stale version, a
meld that is not one, rules that contradict each other, another seat's game…), never for its shape.
schemathesis's own ``positive_data_acceptance`` judges by status alone and would count a 422
``invalid_meld`` (a well-formed knock whose cards are no meld) as a refused shape.
"""

from __future__ import annotations

import schemathesis

# Refusals a well-formed request may meet: the state of the game, the rules or the caller's rights.
GAME_REASONS = {
    # 401/403/404: whose game it is, and whether it (still) exists
    "unauthorized",
    "forbidden",
    "bad_invitation",
    "game_not_found",
    "hand_not_found",
    "player_not_found",
    "seek_not_found",
    "unknown_player",
    # accounts: a wrong password (or an unknown name), an expired session, a token of another kind or
    # scope, a session or token id the account does not have, a name taken, a password too short
    # (sign-ins refused after too many failures are the 429 below)
    "bad_credentials",
    "session_expired",
    "session_required",
    "token_scope",
    "session_not_found",
    "token_not_found",
    "account_exists",
    "weak_password",
    # bot accounts and challenges: an account that has played (or is a bot already), a challenge that
    # does not exist or is answered, the caller challenging itself, a house bot there is not
    # (player_required and rated_needs_preset, below, refuse rated challenges as rated games)
    "already_bot",
    "account_has_games",
    "challenge_not_found",
    "challenge_closed",
    "challenge_self",
    "player_blocked",  # a challenge to a player the caller blocks
    "unknown_bot",
    # tournaments: one that does not exist or is over, a caller who is no account, not its organiser or
    # not entered, entry rules (a code, bots, rated games), settings of another format, a day's quota
    "tournament_not_found",
    "account_required",
    "tournament_started",
    "tournament_over",
    "not_entered",
    "bad_entry_code",
    "bots_not_allowed",
    "bots_only",
    "not_enough_rated_games",
    "bad_tournament",
    "too_many_tournaments",
    "berserk_not_allowed",
    "no_rematch",
    # table chat: a room the caller may not use, free text from a player without an account, a
    # moderator's mute, a game whose chat is closed, a line empty once cleaned or too long, too fast
    "chat_forbidden",
    "chat_presets_only",
    "chat_muted",
    "chat_closed",
    "chat_empty",
    "chat_too_long",
    "chat_too_fast",
    # reports and moderation: the moderators' API for anyone else, a report of oneself, a chat line that
    # is not there or not the reported player's, a day's reports, a report closed, an account closed (or
    # a moderator's, which is not closed)
    "not_moderator",
    "report_self",
    "chat_line_not_found",
    "not_their_line",
    "too_many_reports",
    "report_closed",
    "report_not_found",
    "account_closed",
    "already_closed",
    "moderator_protected",
    # 409: the rules or the game's state refuse it now
    "illegal_action",
    "not_your_turn",
    "game_over",
    "cannot_undo",
    "undo_not_allowed",
    "hint_not_allowed",
    "waiting_for_opponent",
    "nothing_to_do",
    "join_conflict",
    "own_game",
    "name_taken",
    "nothing_to_claim",
    "too_early",
    "not_over",
    "rematch_exists",
    "rematch_offered",
    "seek_taken",
    "seek_incompatible",
    "rated_game",
    # 412/428: concurrency
    "stale_version",
    "precondition_required",
    # 422: well-formed, but not a meld / lay-off / knock the hand allows, or rules that contradict
    "invalid_meld",
    "invalid_layoff",
    "deadwood_too_high",
    "bad_rules",
    "player_required",  # a rated game without a player's token
    "rated_needs_preset",
    "idempotency_key_reused",
    "duplicate_card",  # "7S" and "7s": unique items to JSON Schema, one card to the game
    # the archive: a cursor it did not make (any string is one to the document), a window whose
    # "since" is not before its "until", a game not (yet) archived, an archived game's change
    "bad_cursor",
    "bad_filter",
    "not_archived",
    "review_not_found",  # a review read before anyone asked for it
    "game_archived",
    # 429: the budgets (the suite's service has rate limits off; kept for other runs)
    "rate_limited",
    "too_many_games",
    "overloaded",  # every pooled PostgreSQL connection busy for a moment (a loaded machine): come back
}


@schemathesis.check
def accepted_unless_game_reason(ctx, response, case):  # type: ignore[no-untyped-def]
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code < 400:
        return None
    if response.status_code >= 500:
        return None  # not_a_server_error reports those
    try:
        code = response.json().get("code")
    except Exception:  # noqa: BLE001 - not JSON: content_type_conformance reports it
        code = None
    if code not in GAME_REASONS:
        raise AssertionError(
            f"a request the document allows was refused for its shape: {response.status_code} {code}"
        )
    return None
