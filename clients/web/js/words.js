// What the page tells a player when something did not work, in the game's words. The service answers a
// refusal with problem+json: a stable `code` and a `detail` written for developers (it may name the
// engine's phases, "phase: upcard_dealer", or cards as "7H"). A player reads the code's sentence (every
// code's, in sentences.js, generated from the service's OpenAPI document by clients/generate.py); the
// detail is shown only for the codes whose detail is a reason in the game's words (a meld that is none, a
// lay-off that does not fit, too much deadwood, a card mistyped), with its cards as cards. A code this page
// does not know gets a generic sentence; the code and the detail go to the console.

import { ApiError, NetworkError } from "./api.js";
import { cardText } from "./cards.js";
import { SENTENCES } from "./sentences.js";
import { ServerNotConfirmed } from "./trust.js";

/** Codes whose detail is a reason in the game's words: their sentence, as a lead-in ("…:"), then the reason. */
const WITH_REASON = new Set(["invalid_meld", "invalid_layoff", "deadwood_too_high", "bad_card", "duplicate_card", "bad_rules"]);

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
    if (WITH_REASON.has(err.code)) {
      let reason = err.detail.replace(/^not a card: /, "").replace(/^card given twice: /, "");
      if (CARDS_IN_REASON.has(err.code)) reason = cardsAsCards(reason);
      return `${SENTENCES[err.code].replace(/\.$/, ":")} ${reason}${/[.!?)]$/.test(reason) ? "" : "."}`;
    }
    if (Object.hasOwn(SENTENCES, err.code)) return SENTENCES[err.code];
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
