// The challenges of the player signed in (or logged in by a name), on every page: each one received with
// who, the rules, the clock and rated or casual, and Accept / Decline (with a reason the challenger reads);
// each one sent, "waiting for Bob to accept" with Cancel — until the game opens, or the page says why not
// (declined, the reason in words; expired). They sit in a box at the top of the page (#challenges).
//
// The page follows the account stream (GET /v1/account/stream) as a long poll of JSON pages resumed with
// ?since=: plain requests, which no proxy buffers and every browser reads, and which the service holds
// as cheaply as a stream. An event only wakes the page: what the box shows comes from GET /v1/challenges
// (those still open) and, for one that is not open any more, GET /v1/challenges/{id} (how it ended). A
// missed or unsent event (a challenge declined on another device of the same account) thus costs a
// little delay, never a wrong box: while something is open, the page looks again at each poll's end.
// Other pages hear the same stream through listen() (a tournament's page: its player's next game).

import { sessionEnded } from "./account.js";
import { ApiError, sleep } from "./api.js";
import { clear, h } from "./dom.js";
import { clockWords } from "./lobby.js";
import { pageHref, playerLabel } from "./site.js";
import * as storage from "./storage.js";

const WAIT = 25; // seconds of one long poll of the account stream

/** The service's decline reasons: what the one declining chooses, and what the challenger reads. */
export const DECLINE_REASONS = [
  ["generic", "No reason", "no reason given."],
  ["later", "Not now: later", "not now — ask again later."],
  ["too_fast", "The clock is too fast", "the clock is too fast — try a slower one."],
  ["too_slow", "The clock is too slow", "the clock is too slow — try a faster one."],
  ["time_control", "Not this clock", "not with this clock — try another one."],
  ["rated", "Only rated games", "only rated games — tick Rated."],
  ["casual", "Only casual games", "only casual games — untick Rated."],
  ["rules", "Not these rules", "not these rules — try other rules."],
  ["no_bot", "No bots", "no games against bots."],
  ["only_bot", "Only bots", "only games against bots."],
];

/** Why a challenge was declined, in words ("not now — ask again later."). */
export function declineWords(reason) {
  return (DECLINE_REASONS.find(([code]) => code === reason) || DECLINE_REASONS[0])[2];
}

/** A challenge's game in a few words: "oklahoma, game to 150 · Rapid: 10 min… · rated". */
export function challengeFacts(challenge) {
  const rules = challenge.rules || {};
  const options = Object.entries(rules.options || {}).map(([key, value]) => {
    if (key === "target") return `game to ${value}`;
    if (key === "knock_limit") return `knock at ≤ ${value}`;
    return `${key.replace(/_/g, " ")} ${value}`;
  });
  return [[rules.preset || "standard", ...options].join(", "), clockWords(challenge.clock), challenge.rated ? "rated" : "casual"].join(" · ");
}

/** What a refused answer to a challenge says when it came too late (409 challenge_closed, 404). */
function tooLate(err, who) {
  if (!(err instanceof ApiError)) return null;
  if (err.code === "challenge_not_found") return `${who}'s challenge is gone.`;
  if (err.code !== "challenge_closed") return null;
  const ended = {
    canceled: "was withdrawn",
    expired: "has expired",
    accepted: "was accepted meanwhile (on another device?)",
    declined: "was declined meanwhile (on another device?)",
  }[err.problem.challenge_status];
  return `Too late: the challenge ${ended || "is closed"}.`;
}

/**
 * The box of challenges: ctx = {api, server, root (the box), go(gameId, seat), showError, clearError,
 * notice, announce, explain, onChange() (who is signed in changed)}. follow(player) at every page: it
 * starts, keeps or stops following that player's challenges.
 */
export class ChallengeBox {
  constructor(ctx) {
    this.ctx = ctx;
    this.key = null;
    this.stopper = null;
    this.listeners = new Set(); // other pages' ears on the account stream (a tournament's next game)
    this.reset(null);
  }

  /** Hear every event of the account stream the box follows (a gameStart…): returns the way to stop. */
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  reset(player) {
    this.player = player;
    this.incoming = new Map(); // id -> challenge received, open
    this.outgoing = new Map(); // id -> {challenge, status, reason}: sent, open or ended (until dismissed)
    this.tokens = new Map(); // id -> the challenge's token, for those sent from this page (the seat's token)
    this.declining = new Map(); // id -> the reason chosen so far, while Decline asks for one (kept across redraws)
    this.syncing = Promise.resolve();
  }

  /** Follow `player`'s challenges (null: nobody's). */
  follow(player) {
    const key = player ? `${player.account ? "s" : "p"}:${player.token}` : null;
    if (key === this.key) return;
    this.stop();
    this.key = key;
    this.reset(player);
    this.draw();
    if (!player) return;
    this.stopper = new AbortController();
    this.run(this.stopper.signal);
  }

  stop() {
    this.stopper?.abort();
    this.stopper = null;
    clearTimeout(this.timer);
  }

  /** A challenge this page just sent: waiting for its answer. */
  sent(challenge, token) {
    this.tokens.set(challenge.id, token);
    this.outgoing.set(challenge.id, { challenge, status: "open" });
    this.draw();
    this.ctx.root.querySelector(`[data-challenge="${CSS.escape(challenge.id)}"] .challenge-text`)?.focus();
    this.schedule();
  }

  // --- following the account stream ---------------------------------------------------------------------
  async run(signal) {
    let since = null;
    let failures = 0;
    await this.sync(signal);
    while (!signal.aborted) {
      let page;
      try {
        page = await this.ctx.api.accountEvents(this.player.token, since, WAIT, signal);
        failures = 0;
      } catch (err) {
        if (signal.aborted || err.name === "AbortError") return;
        if (this.signedOut(err)) return;
        if (err instanceof ApiError && err.code === "bad_cursor") since = null; // start afresh
        else await sleep(err.retryAfter ? err.retryAfter * 1000 : Math.min(1000 * 2 ** ++failures, 30000), signal);
        continue;
      }
      since = page.last_id || since;
      const events = (page.events || []).filter((e) => e.type !== "keepalive");
      for (const event of events) for (const listener of this.listeners) listener(event);
      if (events.length || this.anyOpen()) await this.sync(signal, events);
    }
  }

  anyOpen() {
    return this.incoming.size > 0 || [...this.outgoing.values()].some((entry) => entry.status === "open");
  }

  /** Look at the open challenges again (one look at a time); `events`: what woke the page. */
  sync(signal = this.stopper?.signal, events = []) {
    this.syncing = this.syncing.then(() => (signal && !signal.aborted ? this.look(signal, events) : undefined)).catch((err) => {
      if (err?.name !== "AbortError") console.warn("challenges:", err);
    });
    return this.syncing;
  }

  async look(signal, events) {
    const token = this.player.token;
    let open;
    try {
      open = await this.ctx.api.challenges(token, signal);
    } catch (err) {
      this.signedOut(err);
      return;
    }
    if (signal.aborted) return;
    const received = new Map((open.in || []).map((c) => [c.id, c]));
    for (const [id, challenge] of this.incoming) {
      if (received.has(id)) continue;
      this.declining.delete(id);
      if (events.some((e) => e.type === "challengeCanceled" && e.challenge?.id === id)) {
        this.ctx.notice(`${challenge.challenger.name} withdrew the challenge.`);
      }
    }
    for (const [id, challenge] of received) {
      if (!this.incoming.has(id)) this.ctx.announce(`${challenge.challenger.name} challenges you: ${challengeFacts(challenge)}.`);
    }
    this.incoming = received;

    const sent = new Map((open.out || []).map((c) => [c.id, c]));
    for (const [id, challenge] of sent) {
      const known = this.outgoing.get(id);
      if (!known || known.status === "open") this.outgoing.set(id, { challenge, status: "open" });
    }
    for (const [id, entry] of [...this.outgoing]) {
      if (entry.status !== "open" || sent.has(id)) continue;
      let ended = events.find((e) => e.type === "challengeDeclined" && e.challenge?.id === id)?.challenge;
      if (!ended) {
        try {
          ended = await this.ctx.api.challengeStatus(id, token, signal);
        } catch (err) {
          if (this.signedOut(err)) return;
          if (err instanceof ApiError && err.status === 404) this.outgoing.delete(id);
          continue;
        }
      }
      if (signal.aborted) return;
      this.ended(id, entry, ended);
    }
    this.draw();
    this.schedule();
  }

  /** A challenge sent is not open any more: open its game, or say why not. */
  ended(id, entry, challenge) {
    const who = playerLabel(entry.challenge.opponent.name);
    entry.challenge = challenge;
    if (challenge.status === "accepted" && challenge.game_id) {
      entry.status = "accepted";
      if (!location.hash.startsWith("#game=")) this.play(id); // not from under a game on screen
      else this.ctx.announce(`${who} accepted your challenge.`);
    } else if (challenge.status === "declined") {
      entry.status = "declined";
      this.ctx.announce(`${who} declined your challenge: ${declineWords(challenge.decline_reason)}`);
    } else if (challenge.status === "expired") {
      entry.status = "expired";
      this.ctx.announce(`Your challenge to ${who} expired.`);
    } else if (challenge.status === "canceled") {
      this.outgoing.delete(id); // withdrawn here, or on another device
    }
  }

  /** Look again when the first open challenge expires (the service says nothing then). */
  schedule() {
    clearTimeout(this.timer);
    const ends = [...this.incoming.values(), ...[...this.outgoing.values()].filter((e) => e.status === "open").map((e) => e.challenge)]
      .map((c) => c.expires)
      .filter((t) => typeof t === "number");
    if (!ends.length) return;
    const wait = Math.max(0, Math.min(...ends) * 1000 - Date.now()) + 1000;
    this.timer = setTimeout(() => this.sync(), Math.min(wait, 2 ** 31 - 1));
  }

  /** A 401: the session (or the player's key) kept here is no good any more. True when it was that. */
  signedOut(err) {
    if (!(err instanceof ApiError) || err.status !== 401) return false;
    this.stop();
    sessionEnded(this.ctx, this.player, err);
    return true;
  }

  // --- answers ---------------------------------------------------------------------------------------------
  async accept(challenge, button) {
    button.disabled = true;
    this.ctx.clearError();
    const player = this.player;
    try {
      const game = await this.ctx.api.acceptChallenge(challenge.id, player.token);
      this.incoming.delete(challenge.id);
      this.draw();
      storage.saveNewSeat({ gameId: game.game_id, seat: game.seat, token: game.token, server: this.ctx.server, name: player.name, player: player.name, opponent: "human", opponentName: challenge.challenger.name, commitments: {}, verified: {} }, player);
      this.ctx.go(game.game_id, game.seat);
    } catch (err) {
      this.refused(err, challenge, "Cannot accept the challenge", button);
    }
  }

  async decline(challenge, reason, button) {
    button.disabled = true;
    this.ctx.clearError();
    try {
      await this.ctx.api.declineChallenge(challenge.id, reason, this.player.token);
      this.incoming.delete(challenge.id);
      this.declining.delete(challenge.id);
      this.draw();
      this.ctx.notice(`You declined ${challenge.challenger.name}'s challenge.`);
    } catch (err) {
      this.refused(err, challenge, "Cannot decline the challenge", button);
    }
  }

  async cancel(challenge, button) {
    button.disabled = true;
    this.ctx.clearError();
    try {
      await this.ctx.api.cancelChallenge(challenge.id, this.player.token);
      this.outgoing.delete(challenge.id);
      this.draw();
      this.ctx.notice(`Your challenge to ${playerLabel(challenge.opponent.name)} is withdrawn.`);
    } catch (err) {
      if (err instanceof ApiError && err.code === "challenge_closed") {
        this.sync(); // answered meanwhile: its game opens, or the box says why not
        return;
      }
      this.refused(err, challenge, "Cannot withdraw the challenge", button);
    }
  }

  refused(err, challenge, what, button) {
    if (this.signedOut(err)) return;
    const late = tooLate(err, challenge.challenger.name);
    if (late) {
      this.incoming.delete(challenge.id);
      this.draw();
      this.ctx.showError(late);
      return;
    }
    button.disabled = false;
    this.ctx.showError(`${what}: ${this.ctx.explain(err)}`);
  }

  /** Open the game of a challenge sent and accepted. */
  play(id) {
    const entry = this.outgoing.get(id);
    if (!entry) return;
    this.outgoing.delete(id);
    this.draw();
    const { challenge } = entry;
    const token = this.tokens.get(id); // the seat's token (an account's session opens the seat without it)
    if (this.player.account || token) {
      storage.saveNewSeat({ gameId: challenge.game_id, seat: 0, token, server: this.ctx.server, name: this.player.name, player: this.player.name, opponent: "human", opponentName: challenge.opponent.name, commitments: {}, verified: {} }, this.player);
    }
    this.ctx.announce(`${playerLabel(challenge.opponent.name)} accepted your challenge: the game starts.`);
    this.ctx.go(challenge.game_id, 0);
  }

  // --- the box ------------------------------------------------------------------------------------------
  draw() {
    const box = this.ctx.root;
    const focused = box.contains(document.activeElement) ? document.activeElement.dataset?.focus : null;
    const items = [
      ...[...this.incoming.values()].map((c) => this.received(c)),
      ...[...this.outgoing.entries()].map(([id, entry]) => this.sentItem(id, entry)),
    ];
    clear(box);
    box.hidden = !items.length;
    if (!items.length) return;
    box.append(h("ul", { class: "challenge-list" }, items));
    if (focused) box.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  received(challenge) {
    const who = challenge.challenger.name;
    const id = challenge.id;
    const text = h("p", { class: "challenge-text" },
      h("b", {}, who), challenge.challenger.player ? "" : " (not signed in)", " challenges you",
      h("small", {}, challengeFacts(challenge)));
    let buttons;
    if (this.declining.has(id)) {
      const reason = h("select", { id: `decline-reason-${id}`, class: "decline-reason", "data-focus": `reason-${id}`, onchange: (e) => this.declining.set(id, e.currentTarget.value) },
        DECLINE_REASONS.map(([code, label]) => h("option", { value: code, selected: code === this.declining.get(id) }, label)));
      buttons = h("div", { class: "buttons decline-row" },
        h("label", { for: reason.id }, "Why not?"), reason,
        h("button", { type: "button", class: "btn danger", "data-action": "confirm-decline", "data-focus": `confirm-${id}`, onclick: (e) => this.decline(challenge, reason.value, e.currentTarget) }, "Decline"),
        h("button", { type: "button", class: "btn subtle", "data-action": "decline-back", "data-focus": `back-${id}`, onclick: () => {
          this.declining.delete(id);
          this.draw();
          this.ctx.root.querySelector(`[data-focus="decline-${CSS.escape(id)}"]`)?.focus();
        } }, "Back"));
    } else {
      buttons = h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn primary", "data-action": "accept-challenge", "data-focus": `accept-${id}`, "aria-label": `Accept ${who}'s challenge`, onclick: (e) => this.accept(challenge, e.currentTarget) }, "Accept"),
        h("button", { type: "button", class: "btn", "data-action": "decline-challenge", "data-focus": `decline-${id}`, "aria-label": `Decline ${who}'s challenge…`, onclick: () => {
          this.declining.set(id, "generic");
          this.draw();
          this.ctx.root.querySelector(`[data-focus="reason-${CSS.escape(id)}"]`)?.focus();
        } }, "Decline…"));
    }
    return h("li", { class: "challenge incoming", "data-challenge": id, "data-direction": "in", "data-status": "open", role: "group", "aria-label": `Challenge from ${who}` }, text, buttons);
  }

  sentItem(id, entry) {
    const { challenge, status } = entry;
    const who = playerLabel(challenge.opponent.name);
    const facts = h("small", {}, challengeFacts(challenge));
    const dismiss = h("button", { type: "button", class: "btn subtle", "data-action": "dismiss-challenge", "data-focus": `dismiss-${id}`, onclick: () => {
      this.outgoing.delete(id);
      this.draw();
    } }, "Dismiss");
    let text;
    let buttons;
    if (status === "open") {
      text = h("p", { class: "challenge-text waiting", tabindex: "-1" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", {}, "Waiting for ", h("b", {}, who), " to accept your challenge", facts));
      buttons = h("div", { class: "buttons" }, h("button", { type: "button", class: "btn", "data-action": "cancel-challenge", "data-focus": `cancel-${id}`, "aria-label": `Cancel the challenge to ${who}`, onclick: (e) => this.cancel(challenge, e.currentTarget) }, "Cancel"));
    } else if (status === "accepted") {
      text = h("p", { class: "challenge-text", tabindex: "-1" }, h("b", {}, who), " accepted your challenge", facts);
      buttons = h("div", { class: "buttons" }, h("button", { type: "button", class: "btn primary", "data-action": "play-challenge", "data-focus": `play-${id}`, onclick: () => this.play(id) }, "Play"));
    } else if (status === "declined") {
      text = h("p", { class: "challenge-text", tabindex: "-1", id: `declined-${id}` }, h("b", {}, who), " declined your challenge: ",
        h("span", { class: "decline-words", "data-reason": challenge.decline_reason || "generic" }, declineWords(challenge.decline_reason)), facts);
      buttons = h("div", { class: "buttons" },
        h("a", { class: "btn", href: pageHref("challenge", challenge.opponent.name), "data-action": "challenge-again", onclick: () => { this.outgoing.delete(id); this.draw(); } }, "Challenge again"),
        dismiss);
    } else {
      const minutes = Math.round((challenge.expires - challenge.created) / 60);
      text = h("p", { class: "challenge-text", tabindex: "-1" }, `Your challenge to `, h("b", {}, who), ` expired: nobody answered within ${minutes > 1 ? `${minutes} minutes` : "the time"}.`, facts);
      buttons = h("div", { class: "buttons" }, dismiss);
    }
    return h("li", { class: `challenge outgoing ${status}`, "data-challenge": id, "data-direction": "out", "data-status": status, role: "group", "aria-label": `Your challenge to ${who}` }, text, buttons);
  }
}
