// Watching: the public games in play (#/watch: GET /v1/games?status=live, looked at again every few
// seconds), and one game as a spectator sees it (#/watch/<game id>): GET /v1/games/{id} and its events
// without a token — the spectator's view, which shows no hidden card: both hands face down but the cards
// taken from the pile, the pile, the stock, the scores, the hand's moves; both hands once a hand is over.
// It follows the game live through the same event feed as a seat (feed.js: the NDJSON stream, or the long
// poll), fetching the view again after each move.

import { ApiError, cursorAfter } from "./api.js";
import { cardBack, cardFace, cardName } from "./cards.js";
import { watchChat } from "./chat.js";
import { add, clear, h, showLatest } from "./dom.js";
import { EventFeed } from "./feed.js";
import { describeMove } from "./moves.js";
import { focusHeading, lookEvery, pageFrame, pageHref, seatNames } from "./site.js";
import { CONNECTION_WORDS, END_REASON, handDetails, handHeading, paintConnection, scoreboard, withCards } from "./table.js";

const CARD_CODE = /^[A2-9TJQK][CDHS]$/;
const LIST_EVERY = 5000; // ms between two looks at the games in play

/** The rules in a few words: "game to 100 · knock at ≤ 10". */
function rulesWords(rules) {
  const words = [];
  if (rules?.target) words.push(`game to ${rules.target}`);
  words.push(rules?.knock_limit ? `knock at ≤ ${rules.knock_limit}` : "gin only");
  if (rules?.oklahoma) words.push("Oklahoma");
  if (rules?.hollywood) words.push("Hollywood");
  return words.join(" · ");
}

// --- the list of games in play --------------------------------------------------------------------------------
export function watchList(ctx) {
  const stopper = new AbortController();
  const signal = stopper.signal;
  const { page, body } = pageFrame({ title: "Watch a game", current: "watch", player: ctx.player(), lead: "The public games being played now: watch one live, as a spectator (no hidden card is shown)." });
  const note = h("p", { class: "note", id: "live-note", "aria-live": "polite" }, "Looking for games…");
  const list = h("ul", { class: "game-list", id: "live-list", "aria-label": "Games in play" });
  body.append(h("section", { class: "panel", "aria-labelledby": "live-title" }, h("h2", { id: "live-title" }, "Games in play"), note, list));
  clear(ctx.root).append(page);
  focusHeading(ctx.root);

  async function refresh() {
    let games;
    try {
      games = (await ctx.api.liveGames(50)).games || [];
    } catch (err) {
      if (!signal.aborted) note.textContent = `The games in play cannot be read just now: ${ctx.ui.explain(err)}`;
      return;
    }
    if (signal.aborted) return;
    const focused = document.activeElement?.closest?.("[data-game]")?.dataset.game;
    note.textContent = games.length ? `${games.length} game${games.length === 1 ? "" : "s"} in play, newest first.` : "Nobody is playing a public game just now. This list looks again every few seconds.";
    clear(list);
    for (const game of games) {
      const names = seatNames(game.players);
      const waiting = (game.players || []).some((p) => p && p.type === "human" && p.joined === false);
      const facts = [waiting ? "waiting for a player" : `hand ${game.hand_number}`, rulesWords(game.rules), game.rated ? "rated" : "casual"];
      list.append(h("li", { class: "game-row", "data-game": game.game_id },
        h("span", { class: "game-what" }, h("span", { class: "against" }, h("b", {}, names[0]), " vs ", h("b", {}, names[1])), h("small", {}, facts.join(" · "))),
        h("a", { class: "btn", href: pageHref("watch", game.game_id), "data-action": "watch", "aria-label": `Watch ${names[0]} vs ${names[1]}` }, "Watch")));
    }
    if (focused) list.querySelector(`[data-game="${CSS.escape(focused)}"] a`)?.focus();
  }

  lookEvery(LIST_EVERY, signal, refresh);
  return { stop: () => stopper.abort() };
}

// --- one game, as a spectator ------------------------------------------------------------------------------------
export class Spectator {
  /** ctx = {api, root, ui, player()}. */
  constructor(ctx, gameId) {
    this.ctx = ctx;
    this.gameId = gameId;
    this.view = null;
    this.cursor = null;
    this.incoming = [];
    this.connection = "connecting";
    this.abort = new AbortController();
    this.stopped = false;
    this.fresh = 0; // how many moves of the log arrived since the last drawing (they are marked)
  }

  async start() {
    const { page, body } = pageFrame({ title: "Watching", current: "watch", player: this.ctx.player(), wide: true });
    this.page = page;
    this.body = body;
    body.append(h("p", { class: "note" }, "Loading the game…"));
    clear(this.ctx.root).append(page);
    focusHeading(this.ctx.root);
    this.onOnline = () => this.feed?.reconnect();
    window.addEventListener("online", this.onOnline);
    try {
      await this.refresh();
    } catch (err) {
      this.problem(err);
      return;
    }
    this.feed = new EventFeed(this.ctx.api, this.gameId, null, {
      cursor: () => this.cursor,
      refresh: () => this.refresh(),
      onEvent: (e) => this.onEvent(e),
      setConnection: (state) => this.setConnection(state),
      answered: () => this.ctx.ui.clearError("network"),
      fail: (err) => this.problem(err),
    });
    this.setConnection("live");
    this.feed.run(this.abort.signal);
  }

  stop() {
    this.stopped = true;
    this.abort.abort();
    clearTimeout(this.timer);
    window.removeEventListener("online", this.onOnline);
    this.chat?.stop();
  }

  problem(err) {
    if (this.stopped || err?.name === "AbortError") return;
    const gone = err instanceof ApiError && (err.code === "game_not_found" || err.status === 404);
    const text = gone ? "There is no game of that id in play on this service (it may have ended a while ago)." : this.ctx.ui.explain(err);
    if (this.view) this.ctx.ui.showError(text);
    else clear(this.body).append(h("p", { class: "panel", role: "alert", id: "watch-problem" }, text), h("p", {}, h("a", { href: pageHref("watch") }, "The games in play")));
  }

  async refresh() {
    const before = this.view;
    const view = await this.ctx.api.view(this.gameId);
    if (this.stopped || (before && view.version < before.version)) return;
    if (view.cursor && cursorAfter(view.cursor, this.cursor)) this.cursor = view.cursor;
    const sameHand = before && before.hand_number === view.hand_number;
    this.fresh = sameHand ? Math.max(0, (view.history || []).length - (before.history || []).length) : 0;
    this.view = view;
    this.draw();
    // Over, and on its way to the archive: look again until the replay can be linked (three minutes at most).
    const over = view.phase === "match_over" || Boolean(view.scores?.match_over);
    if (over && !view.archived && (this.archiveLooks = (this.archiveLooks || 0) + 1) <= 180) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh().catch((err) => this.problem(err)), 1000);
    }
  }

  onEvent(event) {
    if (!event || event.type === "keepalive" || !event.id || !cursorAfter(event.id, this.cursor)) return;
    this.cursor = event.id;
    // Moves come in bursts (a bot answers at once): one look at the view for them all.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh().catch((err) => this.problem(err)), 40);
  }

  setConnection(state) {
    this.connection = state;
    paintConnection(this.body, state);
  }

  draw() {
    const view = this.view;
    const names = seatNames(view.players);
    this.page.querySelector("#page-title").textContent = `Watching ${names[0]} vs ${names[1]}`;
    document.title = `Gin Rummy — watching ${names[0]} vs ${names[1]}`;
    // A screen reader hears the new moves (the page's live region: the table is drawn anew).
    const history = view.history || [];
    for (const item of history.slice(history.length - this.fresh)) {
      this.ctx.ui.announce?.(describeMove(item, names, view).map((p) => (CARD_CODE.test(p) ? cardName(p) : p)).join(""));
    }
    clear(this.body).append(...watchedGame(view, names, { connection: this.connection, fresh: this.fresh, replayHref: pageHref("replay", this.gameId) }));
    (this.chat ||= watchChat(this.ctx, this.gameId)).mount(this.body.querySelector(".side"), view.players); // the spectators' chat
    showLatest(this.body.querySelector("#watch-log")); // the latest move in sight, the top row whole
  }
}

// --- drawing the watched game: from its view alone ---------------------------------------------------------------
/** The top bar and the board of a watched game: `view` the spectator's view, `names` by seat, `connection`
 * the live feed's state, `fresh` how many of the hand's moves are new (marked), `replayHref` the replay. */
function watchedGame(view, names, { connection, fresh, replayHref }) {
  const over = view.phase === "match_over" || Boolean(view.scores?.match_over);
  const bar = h("div", { class: "topbar watch-bar" },
    scoreboard(view, names),
    h("span", { class: "hand-info" }, [`Hand ${view.hand_number}`, view.knock_limit ? `knock at ≤ ${view.knock_limit}` : "gin only", view.rated ? "rated" : null].filter(Boolean).join(" · ")),
    h("span", { class: "chip watching" }, "spectator"),
    h("span", { id: "connection", class: "connection", "data-state": connection, title: "The live feed of the game's moves" }, CONNECTION_WORDS[connection]));
  const felt = h("section", { id: "watch-table", class: "felt watch-table", "aria-label": "The table, as a spectator sees it", "data-version": view.version, "data-phase": view.phase });
  felt.append(seatArea(view, 1, names), centre(view), h("p", { id: "watch-prompt", class: "prompt" }, prompt(view, names, over)), seatArea(view, 0, names));
  const stage = h("div", { class: "watch-stage" }, felt);
  if (view.result) {
    const panel = h("section", { id: "watch-result", class: "result", "aria-label": "The hand's result" },
      h("h2", {}, `Hand ${view.hand_number}: ${handHeading(view.result, names)}`));
    add(panel, handDetails(view.result, names));
    stage.append(panel);
  }
  if (over) {
    stage.append(h("section", { class: "result", id: "watch-over" },
      h("h2", {}, endWords(view, names)),
      view.archived ? h("p", {}, h("a", { class: "btn", href: replayHref, "data-action": "replay" }, "Replay the match")) : h("p", { class: "note" }, "The replay is ready once the match is in the archive (a moment).")));
  }
  const log = h("ol", { class: "log", id: "watch-log", "aria-label": "Moves of this hand" });
  const history = view.history || [];
  history.forEach((item, i) => log.append(h("li", { class: i >= history.length - fresh ? "fresh-move" : "" }, withCards(describeMove(item, names, view)))));
  const side = h("aside", { class: "side", "aria-label": "The hand's moves" },
    h("section", { class: "moves" }, h("h3", {}, `Hand ${view.hand_number}: moves`), history.length ? log : h("p", { class: "note" }, "No move yet.")),
    h("p", { class: "note" }, h("a", { href: pageHref("watch") }, "Other games in play")));
  return [bar, h("div", { class: "board" }, stage, side)];
}

function endWords(view, names) {
  const reason = END_REASON[view.end_reason];
  const parts = [];
  if (reason) parts.push(reason.replace("{f}", names[view.forfeited_by] ?? "A player"));
  const w = view.scores?.match_winner;
  if (typeof w === "number" && view.end_reason !== "aborted") parts.push(`${names[w]} wins the match`);
  return parts.join(" · ") || "The match is over";
}

function prompt(view, names, over) {
  if (over) return "The match is over.";
  if (view.waiting_for_opponent) return "Waiting for a second player to join…";
  if (view.result) return "The hand is over: the next deal follows.";
  if (view.knock) return `${names[view.knock.knocker]} ${view.knock.gin ? "went gin" : "knocked"}: ${names[1 - view.knock.knocker]} lays off.`;
  if (typeof view.turn === "number") return `${names[view.turn]} to play.`;
  return "";
}

/** A seat as a spectator sees it: its cards face down, but those it took from the pile. */
function seatArea(view, seat, names) {
  const player = (view.players || []).find((p) => p && p.seat === seat) || {};
  const known = player.known_cards || [];
  const count = player.card_count ?? 0;
  const chips = [];
  if (view.dealer === seat) chips.push(h("span", { class: "chip" }, "dealer"));
  if (view.turn === seat && !view.result && !view.waiting_for_opponent) chips.push(h("span", { class: "chip turn" }, "to play"));
  const area = h("section", { class: "opponent watch-seat", "data-seat": seat, "aria-label": `${names[seat]}'s hand` },
    h("div", { class: "who" }, h("span", { class: "name" }, names[seat]), h("span", { class: "count" }, `${count} cards`), chips));
  const cards = h("div", { class: "opp-cards", role: "group" });
  const laid = view.knock && view.knock.knocker === seat;
  if (view.result || laid) {
    cards.append(h("span", { class: "note" }, view.result ? "shown below" : "laid down on the table"));
  } else {
    const hidden = Math.max(0, count - known.length);
    for (let i = 0; i < hidden; i++) cards.append(cardBack({ small: true }));
    for (const card of known) cards.append(cardFace(card, { small: true, extraClass: "known", label: `${cardName(card)} (known: taken from the pile)` }));
    cards.setAttribute("aria-label", `${hidden} hidden cards${known.length ? `, known: ${known.map(cardName).join(", ")}` : ""}`);
  }
  area.append(cards);
  return area;
}

function centre(view) {
  if (view.knock && !view.result) {
    const knock = view.knock;
    return h("div", { class: "center" }, h("section", { class: "knock-area", "aria-label": "The knocker's melds" },
      h("h3", {}, `Laid down · deadwood ${knock.deadwood ?? "?"}`),
      h("div", { class: "targets" }, (knock.melds || []).map((meld) => h("div", { class: "target" }, meld.map((c) => cardFace(c, { small: true })))))));
  }
  const pile = view.discard_pile || [];
  const top = pile[pile.length - 1];
  const fan = h("div", { class: "fan" }, pile.slice(-4, -1).map((card) => cardFace(card, { extraClass: "under" })));
  fan.append(top
    ? cardFace(top, { extraClass: "big top", label: `Discard pile, top: ${cardName(top)}`, attrs: { id: "watch-pile-top" } })
    : h("div", { class: "card empty big", role: "img", "aria-label": "The discard pile is empty" }));
  return h("div", { class: "center" },
    h("div", { class: "stock" }, cardBack({ extraClass: "big", label: `Stock: ${view.stock_size ?? "?"} cards` }), h("span", { class: "pile-label" }, `Stock ${view.stock_size ?? "?"}`)),
    h("div", { class: "pile" }, fan, h("span", { class: "pile-label" }, (view.phase || "").startsWith("upcard") ? "Upcard" : `Discard pile ${pile.length}`)));
}
