// One seat of one game: the view, the moves, the live event feed, the keyboard.
//
// The page plays from the service's answers: the view says what is legal (legal_actions), each move is
// POSTed with If-Match: "<version of the view it was chosen from>", a 412 fetches the view again. The
// opponent's moves arrive through GET /v1/games/{id}/events read as an NDJSON stream with fetch (an
// EventSource cannot send the seat's Authorization header); when streaming fails, the long poll
// (?after=<cursor>&wait=25) takes over (feed.js). After the opponent moved the page GETs the view again.
// The seat's token is the seat token this browser kept, or the session of the account the seat is tied to.
//
// Whose move it is comes from the view's your_move: legal_actions also lists what ends the match (resign,
// abort) and, once it is over, the rematch, which are never a move of the play. Nothing legal_actions
// rules out is sent: a key or a click the view does not offer gets a word on what is on offer instead.
// The clocks tick here between two views (each view re-syncs them); a running clock that reaches zero
// fetches the view (the service then records the loss on time), and the waiting seat may claim a game its
// opponent left: the view does not say how long the opponent has been idle, so "Claim victory" is offered
// whenever it is a human opponent's move, and the service's 409 too_early (seconds_left) sets a countdown.
//
// The controller keeps the state and makes the calls; the drawing (table.js) gets the table as plain data
// (table()) and the player's intents as callbacks (this.intents), and never sees the controller.

import { Api, ApiError, NetworkError, cursorAfter, sleep } from "./api.js";
import { banner, flights, layout } from "./animate.js";
import { CARD_KEYS, cardName, cardText } from "./cards.js";
import { tableChat } from "./chat.js";
import { KnockEditor, LayoffEditor } from "./editor.js";
import { verifyShuffle } from "./fairness.js";
import { EventFeed } from "./feed.js";
import { describeMove, findAction } from "./moves.js";
import { isMuted, listen, play, playMoves, setMuted } from "./sounds.js";
import { loadPlayer, loadSeat, saveSeat } from "./storage.js";
import { paintClaim, paintClocks, paintConnection, renderGame } from "./table.js";
import { problemText } from "./words.js";

const MOVE_TYPES = new Set(["draw", "pass", "discard", "knock", "layoff"]);
const ACTION_KEYS = ["source", "card", "discard"]; // what tells two moves of one type apart (not melds)
const TICK = 100; // ms between two paints of a running clock
const PRESENCE_EVERY = 60_000; // ms: the opponent's online dot is asked again at most this often

export class GameController {
  /**
   * entry: the saved seat {gameId, seat, token, server, invitation?, commitments, verified}.
   * ui: {root, showError(text), clearError(), notice(text), leave()}.
   */
  constructor(entry, ui) {
    this.entry = entry;
    this.entry.commitments = this.entry.commitments || {};
    this.entry.verified = this.entry.verified || {};
    this.ui = ui;
    this.api = new Api(entry.server);
    this.view = null;
    this.log = [];
    this.logHand = null;
    this.cursor = null;
    this.posting = false;
    this.incoming = [];
    this.mode = null; // null, "knock" or "layoff"
    this.editor = null;
    this.hint = null;
    this.connection = "connecting";
    this.feed = null; // the live feed of the game's events (feed.js)
    this.lastDrawn = null;
    this.freshDiscard = null;
    this.helpOpen = false;
    this.abort = new AbortController();
    this.statsWanted = null;
    this.spoken = null; // what a screen reader was last told: {hand, moves, turn, result}
    this.confirming = null; // "resign" or "abort" while the page asks whether to
    this.clockAt = performance.now(); // when the view's clock was read
    this.claim = null; // what the waiting seat may claim now: "time", "idle" or null
    this.claimWait = null; // {version, until}: the service said "too early" for the game at that version
    this.rematchWatched = false; // saw the match over without a rematch: open it when it starts
    this.stopped = false;
    this.onKey = (event) => this.keydown(event);
    // What the player may do on the table (table.js calls them; renderGame lists them).
    this.intents = {
      act: (action) => this.act(action),
      openKnock: (options) => this.openKnock(options),
      chooseKnockDiscard: (card) => this.chooseKnockDiscard(card),
      closeEditor: () => this.closeEditor(),
      editorToggle: (card) => this.editorToggle(card),
      editorMakeMeld: () => this.editorMakeMeld(),
      editorBreak: (index) => this.editorBreak(index),
      editorBest: () => this.editorBest(),
      editorLayOff: (index) => this.editorLayOff(index),
      editorTakeBack: (card) => this.editorTakeBack(card),
      editorConfirm: () => this.editorConfirm(),
      askHint: () => this.askHint(),
      undo: () => this.undo(),
      claimVictory: () => this.claimVictory(),
      confirmEnd: (type) => this.confirmEnd(type),
      confirmClosed: () => this.confirming && this.confirmEnd(null), // Esc, or the dialog gone
      endMatch: (type) => this.endMatch(type),
      rematch: () => this.rematch(),
      berserk: () => this.berserk(),
      openRematch: (gameId) => this.openRematch(gameId),
      leave: () => this.ui.leave(),
      openHelp: () => this.toggleHelp(true),
      toggleMute: () => this.toggleMute(),
      helpClosed: () => (this.helpOpen = false),
      notice: (text) => this.ui.notice(text),
    };
  }

  get seat() {
    return this.entry.seat;
  }

  get legal() {
    return (this.view && this.view.legal_actions) || [];
  }

  /** Whether this seat has a move of the play to make now (resign, abort or a rematch are no move). */
  get yourMove() {
    if (!this.view) return false;
    if (typeof this.view.your_move === "boolean") return this.view.your_move;
    return this.legal.some((a) => a.kind === "play"); // each listed action says its kind
  }

  get matchOver() {
    return this.view?.phase === "match_over" || Boolean(this.view?.scores?.match_over);
  }

  get againstBot() {
    return (this.view?.players || []).some((p) => p && p.type === "bot");
  }

  names() {
    const names = ["Player 1", "Player 2"];
    for (const p of this.view?.players || []) {
      if (!p || typeof p.seat !== "number") continue;
      if (p.type === "bot") names[p.seat] = `${p.name || p.bot} (bot)`;
      else if (p.name) names[p.seat] = p.name;
    }
    const other = (this.view?.players || []).find((p) => p && p.seat === 1 - this.seat);
    if (!other || (!other.name && other.type !== "bot")) names[1 - this.seat] = "Opponent";
    names[this.seat] = "You";
    return names;
  }

  opponentName() {
    return this.names()[1 - this.seat];
  }

  // --- life cycle ---------------------------------------------------------------------------------------
  async start() {
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("online", (this.onOnline = () => this.reconnect()));
    window.addEventListener("offline", this.onOnline);
    document.addEventListener(
      "visibilitychange",
      (this.onVisible = () => {
        if (document.visibilityState === "visible" && this.view) this.refresh().catch(() => undefined);
      }),
    );
    this.ticker = setInterval(() => this.tick(), TICK);
    listen(); // the sounds: audio wakes at the first click or key
    this.render();
    try {
      await this.refresh();
      // Up to date and listening. (The service sends the stream's headers only with its first line, the
      // first event or a keep-alive some seconds later: waiting for them would say "connecting…" meanwhile.)
      this.setConnection("live");
    } catch (err) {
      this.fail(err);
      if (!this.view) return;
    }
    this.eventLoop();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.ticker);
    this.abort.abort();
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    this.chat?.stop();
  }

  /** The network came back or went away: drop the current request and start again (at once). */
  reconnect() {
    this.feed?.reconnect();
  }

  // --- the view -----------------------------------------------------------------------------------------
  async refresh() {
    const view = await this.api.view(this.entry.gameId, this.entry.token);
    this.ui.clearError("network"); // the service answers again: a message that it did not is stale
    this.setView(view, { full: true });
    return view;
  }

  setView(view, { full = false, events = [] } = {}) {
    if (this.stopped) return;
    if (this.view && view.version < this.view.version) return; // an older answer arriving late
    const before = this.view;
    this.view = view;
    this.clockAt = performance.now(); // every view re-syncs the clocks
    if (this.claimWait && this.claimWait.version !== view.version) this.claimWait = null; // a new wait
    // No clock, the opponent's move: the view says in how many seconds the service lets this seat claim.
    if (typeof view.claim_after === "number" && view.claim_after > 0 && !this.claimWait) {
      this.claimWait = { version: view.version, until: performance.now() + view.claim_after * 1000 };
    }
    this.claim = this.claimable();
    if (full) {
      this.bumpCursor(view.cursor); // the view's own cursor: the events after it
      this.log = (view.history || []).map((e) => ({ ...e }));
      this.logHand = view.hand_number;
    } else {
      if (this.logHand !== view.hand_number) {
        this.log = [];
        this.logHand = view.hand_number;
      }
      for (const e of events) if (MOVE_TYPES.has(e.type)) this.log.push(e);
    }
    this.trackDraws(events);
    // The commitment shown while the hand is live is the one the revealed deck must match.
    if (view.commitment && !view.result && !this.entry.commitments[view.hand_number]) {
      this.entry.commitments[view.hand_number] = view.commitment;
      this.save();
    }
    if (view.waiting_for_opponent === false && this.entry.invitation) {
      delete this.entry.invitation; // used: nothing left to share
      this.save();
    }
    if (before && before.hand_number !== view.hand_number) this.hint = null;
    this.syncMode(before);
    if (view.result) this.verifyHand(view);
    const over = view.phase === "game_over" || view.phase === "match_over";
    if (over && !view.stats && this.statsWanted !== view.version) {
      this.statsWanted = view.version; // the play view has no statistics: GET the full view once
      this.refresh().catch((err) => this.fail(err));
    }
    if (this.matchOver && !this.entry.over) {
      this.entry.over = true;
      this.save();
    }
    if (this.matchOver && view.rated && view.end_reason !== "aborted" && !this.ratingAsked) {
      this.ratingAsked = true;
      this.watchRating();
    }
    const other = (view.players || []).find((p) => p && p.seat === 1 - this.seat);
    if (other?.type === "human" && other.name && this.entry.opponentName !== other.name) {
      this.entry.opponentName = other.name; // for the list of this browser's games
      this.save();
    }
    if (this.matchOver && view.rematch) {
      if (!view.rematch.game_id) this.rematchWatched = true;
      else if (this.rematchWatched) {
        this.openRematch(view.rematch.game_id); // it started while this page looked: go there
        return;
      }
    }
    this.render();
  }

  /** Open or close the knock/lay-off editors as the phase demands. */
  syncMode(before) {
    const mayLayOff = this.legal.some((a) => a.type === "layoff");
    if (mayLayOff) {
      if (this.mode !== "layoff" || before?.version !== this.view.version) {
        this.mode = "layoff";
        this.editor = new LayoffEditor(this.view);
      }
      return;
    }
    if (this.mode === "knock" && this.legal.some((a) => a.type === "knock") && before?.version === this.view.version) {
      return;
    }
    this.mode = null;
    this.editor = null;
  }

  trackDraws(events) {
    this.freshDiscard = null;
    for (const e of events) {
      if (e.type === "draw" && e.seat === this.seat && e.card) this.lastDrawn = e.card;
      // "Just drawn" lasts until my turn ends: a later turn's hand shows no old card as new.
      if ((e.type === "discard" || e.type === "knock") && e.seat === this.seat) this.lastDrawn = null;
      if (e.type === "discard" && e.seat !== this.seat) this.freshDiscard = e.card;
    }
    const hand = this.view?.hand?.cards || [];
    if (this.lastDrawn && !hand.includes(this.lastDrawn)) this.lastDrawn = null;
  }

  save() {
    saveSeat(this.entry);
  }

  bumpCursor(id) {
    if (id && cursorAfter(id, this.cursor)) this.cursor = id;
  }

  /** What the table shows now, as plain data: the view and what this page adds to it (renderGame says
   * what each part is). */
  table() {
    const view = this.view;
    return {
      view,
      legal: this.legal,
      seat: this.seat,
      names: view ? this.names() : ["You", "Opponent"],
      yourMove: this.yourMove,
      matchOver: this.matchOver,
      againstBot: this.againstBot,
      busy: this.posting,
      mode: this.mode,
      editor: this.editor,
      hint: this.hint,
      log: this.log,
      lastDrawn: this.lastDrawn,
      freshDiscard: this.freshDiscard,
      clock: this.clockNow(),
      claim: this.claim ? { kind: this.claim, secondsLeft: this.claimSecondsLeft() } : null,
      rating: this.rating,
      shuffle: { verified: this.entry.verified, commitments: this.entry.commitments },
      inviteLink: this.entry.invitation ? this.ui.inviteLink(this.entry) : null,
      connection: this.connection,
      helpOpen: this.helpOpen,
      confirming: this.confirming,
      tournament: this.tournament(),
      mayBerserk: Boolean(this.view?.tournament?.may_berserk),
      muted: isMuted(),
      online: this.presence && this.presence.player === this.opponentPlayer() ? this.presence.online : null,
    };
  }

  /** The player seated opposite, when a person sits there as a player (not a bot, not anonymous). */
  opponentPlayer() {
    const other = (this.view?.players || []).find((p) => p && p.seat === 1 - this.seat);
    return other?.type === "human" && other.player ? other.player : null;
  }

  /** Whether the opponent is online (its profile's `online`, GET /v1/players/{name}): asked when the table
   * opens, then at most once a minute while the page is in sight; null until known. */
  askPresence() {
    const name = this.opponentPlayer();
    if (!name || document.visibilityState === "hidden") return;
    const known = this.presence?.player === name ? this.presence : null;
    if (known && performance.now() - known.at < PRESENCE_EVERY) return;
    this.presence = { player: name, online: known ? known.online : null, at: performance.now() };
    this.api.profile(name).then(
      (profile) => {
        const online = typeof profile.online === "boolean" ? profile.online : null;
        if (this.presence.player !== name || this.presence.online === online) return;
        this.presence.online = online;
        this.render();
      },
      () => undefined, // not known this time: asked again in a minute
    );
  }

  toggleMute() {
    setMuted(!isMuted());
    this.render();
  }

  /** The tournament this game is played in ({id, name}; the view says which, the page that opened it
   * its name), or null. */
  tournament() {
    const id = this.view?.tournament?.id || this.entry.tournament;
    return id ? { id, name: this.entry.tournamentName || "" } : null;
  }

  /** Berserk (POST /v1/games/{id}/berserk, If-Match as a move): half the bank, no increment, a point
   * more for a win. The view says when it is on offer (`tournament.may_berserk`). */
  async berserk() {
    if (!this.view) return;
    const done = await this.post(() => this.api.berserk(this.entry.gameId, this.entry.token, this.view.version), (err) => {
      if (!(err instanceof ApiError) || err.code !== "berserk_not_allowed") return false;
      this.ui.notice(`No berserk: ${err.detail}.`);
      return true;
    });
    if (done) this.ui.notice("Berserk: half your clock and no increment; a win scores one point more.");
  }

  render() {
    if (this.stopped) return;
    const focusKey = document.activeElement?.dataset?.focus;
    const hadFocus = this.ui.root.contains(document.activeElement) && document.activeElement !== this.ui.root;
    if (this.view?.version !== this.drawnVersion) {
      this.before = layout(this.ui.root); // where the cards were: the moves of this version glide from there
      this.drawnVersion = this.view?.version;
    }
    renderGame(this.ui.root, this.table(), this.intents);
    if (this.view && this.chat === undefined) this.chat = tableChat(this.api, this.entry, this.view, this.ui.notice);
    this.chat?.mount(this.ui.root.querySelector(".side"), this.view?.players, { over: this.matchOver }); // the table chat (chat.js)
    let again = focusKey ? this.ui.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`) : null;
    if (!again && hadFocus) {
      // The focused element is gone (a card discarded, the hand over): keep the focus near the play,
      // not back at the top of the page, so that Tab and a screen reader carry on from there.
      again = this.ui.root.querySelector("#result h2, #ended h2, #prompt");
    }
    if (again) again.focus({ preventScroll: !again.matches("#result h2, #ended h2") });
    this.speak();
  }

  /** Tell a screen reader what changed: the opponent's moves, my draws, my turn, the end of a hand. */
  speak() {
    const view = this.view;
    if (!view || !this.ui.announce) return;
    const turn = Boolean(this.yourMove && !view.result);
    const spoken = this.spoken;
    const ended = this.matchOver;
    const now = { hand: view.hand_number, moves: this.log.length, turn, result: Boolean(view.result), mode: this.mode, ended };
    this.spoken = now;
    if (!spoken) {
      if (turn) this.ui.announce(this.spokenText("#prompt"));
      return;
    }
    const fresh = spoken.hand === now.hand ? this.log.slice(Math.min(spoken.moves, this.log.length)) : [];
    for (const item of fresh) {
      if (item.seat === this.seat && !(item.type === "draw" && item.card)) continue; // my own moves, but what I drew
      this.ui.announce(this.describeMove(item).map((p) => (/^[A2-9TJQK][CDHS]$/.test(p) ? cardName(p) : p)).join(""));
    }
    if (now.result && !spoken.result) {
      this.ui.announce([this.spokenText("#match-end h2"), this.spokenText("#result h2"), this.spokenText("#result .points"), this.spokenText("#game-over h2")].filter(Boolean).join(". "));
    } else if (now.ended && !spoken.ended) {
      this.ui.announce([this.spokenText("#match-end h2"), this.spokenText("#game-over h2")].filter(Boolean).join(". "));
    } else if (turn && (!spoken.turn || spoken.mode !== now.mode || fresh.some((item) => item.seat !== this.seat))) {
      this.ui.announce(this.spokenText("#prompt"));
    }
  }

  /** The text of an element on screen, with its inline cards as words ("7 of hearts", not "7♥"). */
  spokenText(selector) {
    const el = this.ui.root.querySelector(selector);
    if (!el) return "";
    const copy = el.cloneNode(true);
    for (const card of copy.querySelectorAll("[data-card]")) card.replaceWith(cardName(card.dataset.card));
    for (const key of copy.querySelectorAll("kbd")) key.remove();
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  // --- moves --------------------------------------------------------------------------------------------
  find(wanted) {
    return findAction(this.legal, wanted);
  }

  /** Whether the view offers this move (a knock or a lay-off with the player's own melds is the move of
   * its type, card or source: the service checks the melds). */
  offered(action) {
    return this.legal.some((a) => a.type === action.type && ACTION_KEYS.every((k) => (a[k] ?? null) === (action[k] ?? null)));
  }

  /** Send a move the view offers; for any other, say what is on offer (nothing is sent). */
  async act(action) {
    if (this.posting || !this.view) return;
    if (!this.yourMove && !this.view.result) {
      this.ui.notice(
        this.matchOver
          ? "The game is over."
          : this.view.waiting_for_opponent
            ? "Your opponent has not joined yet."
            : `It is ${this.opponentName()}'s turn.`,
      );
      return;
    }
    if (!this.offered(action)) {
      this.ui.notice(this.whyNot(action));
      return;
    }
    await this.post(() => this.api.act(this.entry.gameId, this.entry.token, action, this.view.version));
  }

  /** What the view offers now, in words: "take the upcard 8♠ or pass". */
  onOffer() {
    const top = (this.view.discard_pile || []).slice(-1)[0];
    const upcard = (this.view.phase || "").startsWith("upcard");
    const words = [];
    const add = (text) => words.includes(text) || words.push(text);
    for (const a of this.legal) {
      if (a.type === "draw" && a.source === "stock") add("draw from the stock");
      else if (a.type === "draw" && top) add(upcard ? `take the upcard ${cardText(top)}` : `take ${cardText(top)} from the pile`);
      else if (a.type === "pass") add("pass");
      else if (a.type === "discard") add("discard a card");
      else if (a.type === "knock" && a.discard) add("knock");
      else if (a.type === "knock") add("go big gin");
      else if (a.type === "layoff") add("lay down your cards");
      else if (a.type === "deal") add("deal the next hand");
    }
    if (!words.length) return "";
    return words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
  }

  /** Why a move is not on offer, in the game's words, from what the view says (no rule of its own). */
  whyNot(action) {
    const offer = this.onOffer();
    const now = offer ? `Not now: you can ${offer}.` : "There is nothing to do now.";
    const discarding = this.legal.some((a) => a.type === "discard" || a.type === "knock");
    const after = (this.view.hand?.discards || []).map((d) => d.deadwood);
    const best = after.length ? Math.min(...after) : null;
    if (action.type === "knock" && discarding && best !== null) {
      if (action.discard === null && !action.gin) return "No big gin: not all eleven of your cards are in melds.";
      if (action.gin) return `No gin: the best discard leaves you ${best} deadwood.`;
      const limit = this.view.knock_limit;
      return limit
        ? `You cannot knock: the best discard leaves you ${best} deadwood, and the knock limit is ${limit}.`
        : `Only gin ends a hand in this game: the best discard leaves you ${best} deadwood.`;
    }
    if (action.type === "discard" && action.card && this.legal.some((a) => a.type === "discard")) {
      const last = this.log[this.log.length - 1];
      const taken = last && last.seat === this.seat && last.type === "draw" && last.source === "discard" && last.card === action.card;
      return taken
        ? `You took ${cardText(action.card)} from the pile this turn: discard another card.`
        : `${cardText(action.card)} cannot be discarded now.`;
    }
    return now;
  }

  async undo() {
    if (this.posting || !this.view) return;
    if (!this.view.can_undo) {
      // Not on offer (the Undo button is disabled too): say why rather than ask.
      this.ui.notice(this.view.rated ? "A rated game has no undo." : !this.againstBot ? "Undo is only against a bot." : this.view.knock ? "A knock has laid the cards down: nothing can be taken back." : "There is no move of yours to take back in this hand.");
      return;
    }
    const done = await this.post(() => this.api.undo(this.entry.gameId, this.entry.token, this.view.version));
    if (done) {
      this.ui.notice("Your last move is taken back.");
      await this.refresh().catch((err) => this.fail(err)); // the hand's history got shorter
    }
  }

  /** Send a change; `refused(err)` may handle an error response itself (true: handled). */
  async post(send, refused) {
    this.posting = true;
    this.ui.clearError();
    this.hint = null;
    this.render();
    let reply = null;
    try {
      reply = await send();
    } catch (err) {
      this.posting = false;
      if (refused && refused(err)) {
        this.render();
      } else if (err instanceof ApiError && err.status === 412) {
        this.ui.notice("The game moved on meanwhile; here it is again.");
        await this.refresh().catch((e) => this.fail(e));
      } else {
        this.fail(err);
        this.render();
      }
      this.processIncoming();
      return false;
    }
    this.posting = false;
    const events = reply.events || [];
    for (const e of events) this.bumpCursor(e.id);
    const view = reply.view || {};
    if (view.version == null) view.version = reply.version;
    this.setView(view, { events });
    this.animate(events);
    this.processIncoming();
    return true;
  }

  /** Say what went wrong, in a player's words (words.js). A lost connection's message goes by itself once
   * the service answers again. */
  fail(err) {
    if (err && err.name === "AbortError") return;
    this.ui.showError(problemText(err), { kind: err instanceof NetworkError ? "network" : "error" });
  }

  async askHint() {
    if (!this.view) return;
    if (!this.view.can_hint) {
      // Not on offer (the Hint button is not shown either): say why rather than ask.
      this.ui.notice(this.view.rated ? "A rated game has no hints." : !this.againstBot ? "Hints are only against a bot." : this.view.result ? "The hand is over." : `It is ${this.opponentName()}'s turn: a hint is for your move.`);
      return;
    }
    try {
      this.hint = await this.api.hint(this.entry.gameId, this.entry.token);
      this.ui.clearError();
    } catch (err) {
      this.fail(err);
      return;
    }
    this.render();
  }

  // --- ending the match: resign, abort, claim, rematch ----------------------------------------------
  /** Resign or abort: the page asks first (a dialog); `confirmEnd(null)` closes it. */
  confirmEnd(type) {
    const was = this.confirming;
    this.confirming = type;
    this.render();
    if (was && !type) this.ui.root.querySelector(`[data-action="${was}"]`)?.focus(); // back where it was asked
  }

  async endMatch(type) {
    this.confirming = null;
    if (!this.view) return;
    await this.post(() => this.api.end(this.entry.gameId, this.entry.token, type));
  }

  /** Offer a rematch, or accept the opponent's offer (against a bot it starts at once). */
  async rematch() {
    if (!this.view) return;
    const offered = await this.post(() => this.api.end(this.entry.gameId, this.entry.token, "rematch"), (err) => {
      if (err instanceof ApiError && err.code === "rematch_exists" && err.problem.game_id) {
        this.openRematch(err.problem.game_id);
        return true;
      }
      return false;
    });
    if (offered && this.view && !this.view.rematch?.game_id) this.ui.notice(`Rematch offered: ${this.opponentName()} may accept it.`);
  }

  /** Play the rematch: the same seat token plays it; the page keeps it like any game and goes there. */
  openRematch(gameId) {
    if (this.stopped) return;
    if (!loadSeat(gameId, this.seat)) {
      const entry = { ...this.entry, gameId, commitments: {}, verified: {} };
      delete entry.over;
      delete entry.invitation;
      saveSeat(entry);
    }
    this.ui.notice("The rematch starts.");
    this.ui.open(gameId, this.seat);
  }

  /** A rated match is over: the rating change of this seat's player, from its list of games (GET
   * /v1/players/{name}/games?rated=true), once the archive has written the match (a moment after its end:
   * looked at again until then, for a few minutes at most). Sets this.rating = {family, before, after}. */
  async watchRating() {
    const me = (this.view?.players || []).find((p) => p && p.seat === this.seat);
    const name = me?.player;
    if (!name) return;
    this.rating = { pending: true };
    for (let attempt = 0; attempt < 60 && !this.stopped; attempt++) {
      try {
        const own = loadPlayer(this.entry.server); // its credential: a private game is listed for it alone
        const token = own && own.name.toLowerCase() === name.toLowerCase() ? own.token : null;
        const page = await this.api.playerGames(name, { rated: true, limit: 20 }, token);
        const game = (page.games || []).find((g) => g.game_id === this.entry.gameId);
        if (game?.rating) {
          this.rating = { family: game.family, before: game.rating.before, after: game.rating.after };
          this.render();
          return;
        }
      } catch (err) {
        if (!(err instanceof NetworkError || (err instanceof ApiError && err.status >= 500))) break;
      }
      await sleep(Math.min(5000, 1000 + attempt * 250));
    }
    if (this.stopped) return;
    this.rating = { missing: true }; // the archive is slow: the profile will show it
    this.render();
  }

  /** What the waiting seat may claim: "time" (the opponent's clock ran out), "idle" (no clock, the human
   * opponent's move: the view's claim_after says when the service lets it; the button counts down until
   * then, quietly), or null. */
  claimable() {
    const view = this.view;
    if (!view || this.matchOver || view.waiting_for_opponent || typeof view.turn !== "number") return null;
    const opponent = 1 - this.seat;
    const other = (view.players || []).find((p) => p && p.seat === opponent);
    if (view.turn !== opponent || !other || other.type !== "human") return null;
    if (view.clock) {
      const clock = this.clockNow();
      return clock && clock.running === opponent && clock.move === 0 ? "time" : null;
    }
    return typeof view.claim_after === "number" ? "idle" : null;
  }

  /** The service says the opponent seems to have left (it sat on its move a while): say so once per
   * wait, and count the claim button down from what it says. */
  opponentGone(event) {
    if (!this.view || this.stopped) return;
    const left = Math.max(0, Number(event.claim_in) || 0);
    this.claimWait = left > 0 ? { version: this.view.version, until: performance.now() + left * 1000 } : null;
    if (this.goneSaid !== this.view.version) {
      this.goneSaid = this.view.version;
      const when = left >= 90 ? `in about ${Math.ceil(left / 60)} minutes` : left > 0 ? `in ${left} seconds` : "now";
      this.ui.notice(`${this.opponentName()} seems to have left: you can claim the game ${when}.`);
    }
    this.claim = this.claimable();
    this.render();
  }

  async claimVictory() {
    if (!this.view) return;
    await this.post(() => this.api.claimVictory(this.entry.gameId, this.entry.token), (err) => {
      if (!(err instanceof ApiError)) return false;
      if (err.code === "too_early") {
        const left = Math.max(1, Number(err.problem.seconds_left) || 0);
        const wait = left >= 90 ? `${Math.ceil(left / 60)} minutes` : `${Math.ceil(left)} seconds`;
        this.claimWait = { version: this.view.version, until: performance.now() + left * 1000 };
        this.ui.notice(`${this.opponentName()} may still come back: you can claim the game in about ${wait}.`);
        return true;
      }
      if (err.code === "nothing_to_claim" || err.code === "game_over") {
        this.refresh().catch((e) => this.fail(e)); // the opponent moved (or the game ended) meanwhile
        return true;
      }
      return false;
    });
  }

  // --- clocks -------------------------------------------------------------------------------------------
  /** The clocks as of now: {times: [seconds, seconds], running, move} from the last view, counted down
   * locally for the running seat; `move` is what its current move has left. Null without a clock. */
  clockNow() {
    const clock = this.view?.clock;
    if (!clock) return null;
    const elapsed = (performance.now() - this.clockAt) / 1000;
    const running = typeof clock.running === "number" ? clock.running : null;
    const move = running !== null && typeof clock.move_remaining === "number" ? Math.max(0, clock.move_remaining - elapsed) : null;
    const times = [0, 1].map((seat) => {
      if (Array.isArray(clock.remaining)) {
        const left = clock.remaining[seat];
        return seat === running ? Math.max(0, left - elapsed) : left;
      }
      return seat === running && move !== null ? move : clock.per_move; // per move only: the move's time
    });
    return { times, running, move, perMove: clock.per_move, bank: clock.bank, increment: clock.increment };
  }

  tick() {
    if (this.stopped || !this.view) return;
    this.askPresence();
    const clock = this.clockNow();
    // A tick each second of the last ten of my own move's time (the clock shows it red).
    const low = clock && clock.running === this.seat && clock.move !== null && clock.move > 0 && clock.move < 10;
    const second = low ? Math.ceil(clock.move) : null;
    if (second !== null && second !== this.tickSecond) play("tick");
    this.tickSecond = second;
    if (clock && clock.running !== null) {
      paintClocks(this.ui.root, clock, this.names());
      if (clock.running === this.seat && clock.move !== null && clock.move <= 10 && !this.warned) {
        this.warned = this.view.version;
        this.ui.announce(`${Math.ceil(clock.move)} seconds left on your clock.`);
      }
      if (clock.move === 0 && !this.posting && performance.now() - (this.expiryAsked || 0) > 1500) {
        // Time is up: the service records the loss on time at the next read of the game.
        this.expiryAsked = performance.now();
        this.refresh().catch(() => undefined);
      }
    }
    if (this.warned && this.warned !== this.view.version) this.warned = null;
    const claim = this.claimable();
    if (claim !== this.claim) {
      this.claim = claim;
      this.render();
    }
    if (this.claimWait) {
      if (this.claimSecondsLeft() === 0) {
        this.claimWait = null; // the service's wait is over: the button may be pressed again
        this.render();
      } else {
        paintClaim(this.ui.root, this.claimSecondsLeft());
      }
    }
  }

  /** Whole seconds before the service lets this seat claim the game (after its "too early"), or null. */
  claimSecondsLeft() {
    if (!this.claimWait) return null;
    return Math.max(0, Math.ceil((this.claimWait.until - performance.now()) / 1000));
  }

  // --- knock and lay-off editors ------------------------------------------------------------------------
  async openKnock({ gin = false } = {}) {
    const editor = new KnockEditor(this.view, { gin });
    if (!editor.discard) {
      // Not on offer: say why, from the view's figures (e.g. the best discard leaves 23, the limit is 10).
      if (!this.yourMove) this.act({ type: "knock" }); // says whose turn it is
      else this.ui.notice(this.whyNot({ type: "knock", discard: "", gin }));
      return;
    }
    this.mode = "knock";
    this.editor = editor;
    this.render();
    await this.chooseKnockDiscard(editor.discard);
  }

  async chooseKnockDiscard(card) {
    const editor = this.editor;
    if (this.mode !== "knock" || !editor) return;
    const pending = editor.setDiscard(card, this.api, this.view.knock_limit);
    this.render();
    try {
      await pending;
    } catch (err) {
      this.fail(err);
    }
    if (this.editor === editor) this.render();
  }

  closeEditor() {
    if (this.mode === "knock") {
      this.mode = null;
      this.editor = null;
      this.render();
    }
  }

  editorToggle(card) {
    this.editor?.toggle(card);
    this.render();
  }

  editorMakeMeld() {
    if (this.editor && !this.editor.makeMeld()) this.ui.notice("Pick the cards of the meld first.");
    this.render();
  }

  editorBreak(index) {
    this.editor?.breakMeld(index);
    this.render();
  }

  editorBest() {
    this.editor?.resetBest();
    this.render();
  }

  editorLayOff(index) {
    if (this.editor?.layOff && !this.editor.layOff(index)) {
      this.ui.notice("Pick a loose card of your hand first, then the meld to lay it off on.");
    }
    this.render();
  }

  editorTakeBack(card) {
    this.editor?.takeBack?.(card);
    this.render();
  }

  async editorConfirm() {
    if (!this.editor) return;
    if (this.mode === "knock" && this.editor.analyzing) return;
    if (this.editor.selected.size) {
      this.ui.notice("Some cards are picked but in no meld: make a meld of them (M) or pick them again.");
      return;
    }
    await this.act(this.editor.body());
  }

  // --- hand over: the fair shuffle --------------------------------------------------------------------
  async verifyHand(view) {
    const n = view.hand_number;
    if (this.entry.verified[n] !== undefined || this.verifying === n) return;
    this.verifying = n;
    let record;
    try {
      record = await this.api.handRecord(this.entry.gameId, this.entry.token, n);
    } catch (err) {
      this.verifying = null;
      if (err instanceof ApiError && err.code === "hand_not_found") {
        this.entry.verified[n] = { ok: null, reason: "the service no longer keeps this hand" };
        this.save();
        this.render();
      }
      return;
    }
    const seen = this.entry.commitments[n] || view.commitment;
    const result = await verifyShuffle(record, seen);
    record = null; // the revealed deck is only hashed: the page keeps no copy
    this.entry.verified[n] = result;
    this.verifying = null;
    this.save();
    this.render();
  }

  // --- the live feed ------------------------------------------------------------------------------------
  async eventLoop() {
    this.feed = new EventFeed(this.api, this.entry.gameId, this.entry.token, {
      cursor: () => this.cursor,
      refresh: () => this.refresh(),
      onEvent: (e) => this.onEvent(e),
      setConnection: (state) => this.setConnection(state),
      answered: () => this.ui.clearError("network"),
      fail: (err) => this.fail(err),
    });
    await this.feed.run(this.abort.signal);
  }

  setConnection(state) {
    if (this.connection === state) return;
    this.connection = state;
    paintConnection(this.ui.root, state);
  }

  onEvent(event) {
    if (!event || event.type === "keepalive") return;
    if (event.type === "opponentGone") return this.opponentGone(event); // a status line, not an event
    this.incoming.push(event);
    if (!this.posting) {
      clearTimeout(this.incomingTimer);
      this.incomingTimer = setTimeout(() => this.processIncoming(), 30);
    }
  }

  async processIncoming() {
    if (this.posting || !this.incoming.length) return;
    const events = this.incoming.filter((e) => e.id && cursorAfter(e.id, this.cursor));
    this.incoming = [];
    if (!events.length) return;
    for (const e of events) this.bumpCursor(e.id);
    if (events.some((e) => e.type === "joined" && e.seat !== this.seat)) {
      this.ui.notice(`${events.find((e) => e.type === "joined").name || "Your opponent"} joined the game.`);
    }
    if (events.some((e) => e.type === "berserk" && e.seat !== this.seat)) {
      this.ui.notice(`${this.opponentName()} berserks: half a clock, a point more for a win.`);
    }
    if (events.some((e) => e.type === "rematch_offered" && e.seat !== this.seat)) {
      this.ui.notice(`${this.opponentName()} offers a rematch.`);
    }
    try {
      await this.refresh();
    } catch (err) {
      this.fail(err);
      return;
    }
    if (this.stopped) return; // e.g. the rematch started: its page is on screen
    this.trackDraws(events);
    this.render();
    this.animate(events);
  }

  // --- animations and sounds ---------------------------------------------------------------------------
  /** The moves `events` brought, now drawn: their cards glide from where they were (animate.js), their
   * sounds play (sounds.js), a banner says the opponent's knock, pass, new hand or end. */
  animate(events) {
    if (this.stopped) return;
    const root = this.ui.root;
    flights(root, this.before, events, this.seat);
    const opponentMoved = events.some((e) => e.seat === 1 - this.seat);
    playMoves(events, opponentMoved && this.yourMove && !this.view.result);
    const felt = root.querySelector("#felt");
    for (const e of events) {
      const mine = e.seat === this.seat;
      if (e.type === "knock" && !mine) {
        banner(`${this.opponentName()} ${e.big_gin ? "goes big gin!" : e.gin ? "goes gin!" : "knocks!"}`, felt);
      } else if (e.type === "pass" && !mine) {
        banner(`${this.opponentName()} passes`, felt);
      } else if (e.type === "deal" && !mine && events.length === 1) {
        banner("New hand", felt);
      } else if (e.type === "match_over" && e.reason && e.reason !== "aborted" && e.forfeited_by !== this.seat) {
        const what = { resigned: "resigns", timeout: "lost on time", abandoned: "left the game" }[e.reason] || e.reason;
        banner(`${this.opponentName()} ${what}`, felt);
      }
    }
  }

  // --- keyboard -----------------------------------------------------------------------------------------
  keydown(event) {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    if (!this.view) return;
    if (this.confirming) return; // the question's own keys: Tab, Enter, Esc (no)
    const key = event.key;
    if (key === "?") {
      this.toggleHelp();
      event.preventDefault();
      return;
    }
    if (key === "Escape") {
      if (this.helpOpen) this.toggleHelp(false);
      else this.closeEditor();
      return;
    }
    if (this.helpOpen || target?.closest?.("dialog[open]")) return; // no move from behind a dialog
    // Shift+1…9 in the lay-off editor: lay the picked card(s) off onto the knocker's meld of that number.
    if (this.mode === "layoff" && event.shiftKey && /^Digit[1-9]$/.test(event.code)) {
      this.editorLayOff(Number(event.code.slice(5)) - 1);
      event.preventDefault();
      return;
    }
    const cardIndex = CARD_KEYS.indexOf(key);
    if (cardIndex >= 0 && !event.shiftKey) {
      const card = this.root().querySelector(`#my-hand [data-key="${CSS.escape(key)}"]`);
      if (card) {
        if (this.editor) this.editorToggle(card.dataset.card);
        else if (card.tagName === "BUTTON") card.focus(); // a card that may be discarded now
        else this.act({ type: "discard", card: card.dataset.card }); // says why not
        event.preventDefault();
      }
      return;
    }
    const lower = key.length === 1 ? key.toLowerCase() : key;
    const handled = this.shortcut(lower, event);
    if (handled) event.preventDefault();
  }

  root() {
    return this.ui.root;
  }

  shortcut(key, event) {
    const onButton = event.target && event.target.tagName === "BUTTON";
    switch (key) {
      case "d":
        this.act(this.find({ type: "draw", source: "stock" }) || { type: "draw", source: "stock" });
        return true;
      case "p":
        this.act(this.find({ type: "draw", source: "discard" }) || { type: "draw", source: "discard" });
        return true;
      case "n":
        this.act(this.find({ type: "pass" }) || { type: "pass" });
        return true;
      case "k":
        if (this.mode !== "knock") this.openKnock();
        return true;
      case "g":
        if (this.mode !== "knock") this.openKnock({ gin: true });
        return true;
      case "b":
        this.act({ type: "knock", discard: null });
        return true;
      case "l":
        this.act({ type: "layoff", best: true });
        return true;
      case "m":
        if (this.editor) this.editorMakeMeld();
        return Boolean(this.editor);
      case "r":
        if (this.editor) this.editorBest();
        return Boolean(this.editor);
      case "h":
        this.askHint();
        return true;
      case "u":
        this.undo();
        return true;
      case "Enter":
        if (this.editor && (!onButton || event.target.dataset.card)) {
          // In the editors a card is picked with its number (or Space); Enter confirms the whole choice.
          this.editorConfirm();
          return true;
        }
        if (onButton) return false; // the focused button (a card: discard it) does its own thing
        if (this.editor) {
          this.editorConfirm();
          return true;
        }
        if (this.find({ type: "deal" })) {
          this.act({ type: "deal" });
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  toggleHelp(open = !this.helpOpen) {
    this.helpOpen = open;
    const dialog = this.ui.root.querySelector("#help");
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.scrollTop = 0; // from its top, whatever had the focus
    }
    if (!open && dialog.open) dialog.close();
  }

  /** A move of the hand's history (or an event) as words and cards: ["Bob", " discarded ", "7H"]. */
  describeMove(item) {
    return describeMove(item, this.names(), this.view);
  }
}
