// What the page tells a player when something did not work, in the game's words. The service answers a
// refusal with problem+json: a stable `code` and a `detail` written for developers (it may name the
// engine's phases, "phase: upcard_dealer", or cards as "7H"). A player reads a sentence chosen by the code;
// the detail is shown only for the codes whose detail is a reason in the game's words (a meld that is
// none, a lay-off that does not fit, too much deadwood, a card mistyped), with its cards as cards. A code
// this page does not know gets a generic sentence; the code and the detail go to the console.

import { ApiError, NetworkError } from "./api.js";
import { cardText } from "./cards.js";
import { ServerNotConfirmed } from "./trust.js";

/** A sentence for each refusal a player may meet. */
const SENTENCES = {
  not_your_turn: "It is not your turn.",
  illegal_action: "That move is not allowed now.",
  game_over: "The game is over.",
  waiting_for_opponent: "Your opponent has not joined yet.",
  nothing_to_do: "There is nothing to do now.",
  stale_version: "The game moved on meanwhile.",
  cannot_undo: "There is no move of yours to take back in this hand.",
  undo_not_allowed: "Moves cannot be taken back in a game between two people.",
  rated_game: "A rated game has no hints and no undo.",
  too_early: "Your opponent still has time.",
  nothing_to_claim: "There is nothing to claim: it is not your opponent's move.",
  not_over: "A rematch can be offered once the match is over.",
  rematch_exists: "The rematch has started already.",
  rematch_offered: "You have offered a rematch already.",
  join_conflict: "Somebody else took the seat at the same moment.",
  own_game: "A player cannot take both seats of a game.",
  bad_invitation: "This invitation is not valid any more: it has been used, or the link is incomplete.",
  player_required: "This game is rated: sign in on the start page, then open the link again.",
  game_not_found: "This game does not exist any more: it ended a while ago, or it expired.",
  hand_not_found: "The service no longer keeps that hand.",
  player_not_found: "There is no player of that name on this service.",
  seek_not_found: "That seek is not in the lobby any more.",
  seek_taken: "Somebody took that seek already.",
  seek_incompatible: "That seek is not open to you: its settings or rating limits exclude you.",
  name_taken: "That name is taken on this service.",
  name_reserved: "Names starting with bot- belong to the bots: choose another.",
  unauthorized: "This browser holds no valid key for that.",
  forbidden: "This browser's key does not open that game.",
  unknown_player: "The player kept in this browser is unknown to this service: log out and in again.",
  unknown_bot: "There is no such bot on this service.",
  seed_not_allowed: "This service deals with a secure random source: it takes no seed.",
  rated_needs_preset: "A rated game plays a preset's rules as they are: no other options.",
  bad_credentials: "Wrong name or password.",
  session_expired: "Your session has ended: sign in again.",
  account_exists: "That name is taken: sign in if it is yours, or choose another.",
  weak_password: "Choose another password: at least 10 characters, and not one of the common ones.",
  token_scope: "This key may only read, not play.",
  session_required: "That needs you to be signed in with your password.",
  challenge_not_found: "That challenge is gone: it ended a while ago.",
  challenge_closed: "That challenge is closed: it was answered, withdrawn or it expired.",
  challenge_self: "You cannot challenge yourself.",
  session_not_found: "That device is signed out already.",
  token_not_found: "That token is revoked already.",
  not_archived: "That match is not in the archive yet: it is still being played, or it ended a moment ago.",
  archive_unavailable: "The archive of past games cannot be read just now: try again in a moment.",
  bad_cursor: "That list cannot be continued: load it again.",
  bad_filter: "Those filters cannot be used.",
  rate_limited: "Too many requests just now: wait a moment and try again.",
  too_many_requests: "Too many requests just now: wait a moment and try again.",
  store_unavailable: "The service has a problem just now: try again in a moment.",
  internal_error: "The service has a problem just now: try again in a moment.",
  unavailable: "The service has a problem just now: try again in a moment.",
};

/** Codes whose detail is a reason in the game's words: the sentence, then the reason. */
const WITH_REASON = {
  invalid_meld: "That cannot be laid down:",
  invalid_layoff: "That lay-off cannot be made:",
  deadwood_too_high: "You cannot knock with that arrangement:",
  bad_card: "That is not a card:",
  duplicate_card: "A card is there twice:",
  bad_rules: "Those rules cannot be played:",
};

/** Reasons that name cards as codes ("7H 8H"); bad_card's reason quotes what was typed, as typed. */
const CARDS_IN_REASON = new Set(["invalid_meld", "invalid_layoff", "deadwood_too_high", "duplicate_card"]);

const GENERIC = "The service refused that. If the page looks out of date, reload it.";

/** "7H 8H TH" → "7♥ 8♥ 10♥" in running text. */
export function cardsAsCards(text) {
  return String(text).replace(/\b(10|[A2-9TJQK])([CDHS])\b/g, (code, rank, suit) => cardText((rank === "10" ? "T" : rank) + suit));
}

/** What a player reads for a failed request (an ApiError, a NetworkError or anything else). */
export function problemText(err) {
  if (err instanceof NetworkError) return networkText(err);
  if (err instanceof ServerNotConfirmed) return err.message;
  if (err instanceof ApiError) {
    console.warn(`refused: ${err.status} ${err.code}: ${err.detail}`);
    if (WITH_REASON[err.code]) {
      let reason = err.detail.replace(/^not a card: /, "").replace(/^card given twice: /, "").replace(/^that arrangement /, "it ");
      if (CARDS_IN_REASON.has(err.code)) reason = cardsAsCards(reason);
      return `${WITH_REASON[err.code]} ${reason}${/[.!?)]$/.test(reason) ? "" : "."}`;
    }
    if (SENTENCES[err.code]) return SENTENCES[err.code];
    if (err.status >= 500) return SENTENCES.internal_error;
    return GENERIC;
  }
  console.error(err);
  return "Something went wrong in this page: reload it to go on.";
}

/** Why the service cannot be reached: this device is offline, or (only for a service of another origin,
 * where the browser may refuse its answers) it does not allow this page's origin, or it is down. */
export function networkText(err) {
  if (typeof navigator !== "undefined" && navigator.onLine === false) {
    return "This device is offline: nothing reaches the service until the network is back.";
  }
  const server = err.server || "the service";
  return err.crossOrigin
    ? `The service at ${server} does not answer: it is down, or it does not allow this page's origin (CORS, see GIN_CORS_ORIGINS).`
    : `The service at ${server} does not answer: it is down, or the network is.`;
}
