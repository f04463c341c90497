// The replay of a finished match (#/replay/<game id>), from its export (GET /v1/games/{id}/export, the
// ginrummy.match document): hand by hand, move by move, with the score as it stood around each hand.
//
// Nothing here knows the rules. A finished hand's record reveals the whole deal — both hands, the upcard,
// the deck — and every action with every card drawn, so the replay only moves the recorded cards where the
// recorded actions put them (as `gin replay` does): a draw from the stock or the pile into the drawer's
// hand, a discard onto the pile, a knock's discard face down. How a hand ended (arrangements, lay-offs,
// points) is its record's result, shown as it is; the score around each hand adds up the points of the
// hands' summaries in the games they counted in; the end is the export's score sheets and rating changes.
//
// What the cards show while a hand is stepped through is chosen ("Cards shown"): as one player saw them
// (their own hand face up; the other's face down but for the cards it took from the pile, which everyone
// saw), as a spectator saw them (both face down but those), or both hands face up, which the page labels
// as a review. Whatever the choice, both hands are shown face up once the hand is over (its result), and
// the knocker's cards once they are laid down. It opens as the player the replay was opened for (the
// games list's or the profile's player, or the account signed in) when that player sat in the game, and
// otherwise as a review. Keys: ← → a move, ↑ ↓ a hand, Home and End the first and last step.
//
// The master's review (review.js) sits at the top of the side panel: read at once if there is one, else
// asked for with a button and waited for; once there, its marks go on the moves of the list and on the table
// when the step shown is a marked move.

import { ApiError } from "./api.js";
import { cardBack, cardFace, cardName, sortCards } from "./cards.js";
import { add, clear, h, showLatest } from "./dom.js";
import { describeMove } from "./moves.js";
import { judgedMoves, markButton, ReviewRequest, ReviewTip, summaryBlocks, VERDICTS, verdictCallout, verdictSign } from "./review.js";
import { focusHeading, pageFrame, pageHref, playerLabel, seatNames, when } from "./site.js";
import { END_TEXT, gameOverPanel, handDetails, handHeading, matchEnd, withCards } from "./table.js";

const DECK_SIZE = 52;

/**
 * The steps of a finished hand: the deal, one after each recorded action, and its result. Each step holds
 * both seats' cards, the cards each seat took from the pile and still holds (seen by everyone), the pile
 * (bottom first), the cards left in the stock, the action that led there, and whether a seat has laid its
 * cards down (the knocker at its knock; both at the lay-off).
 */
export function handFrames(index, record) {
  const hands = [0, 1].map((seat) => [...((record.initial_hands || [])[seat] || [])]);
  const known = [new Set(), new Set()];
  const pile = record.upcard ? [record.upcard] : [];
  const deck = record.deck || [];
  let stock = (deck.length || DECK_SIZE) - hands[0].length - hands[1].length - pile.length;
  const laidDown = [false, false];
  const frames = [];
  const frame = (kind, step, action = null) => frames.push({
    kind, hand: index, step, action, stock,
    hands: hands.map((cards) => [...cards]),
    known: known.map((cards) => [...cards]),
    pile: [...pile],
    laidDown: [...laidDown],
  });
  frame("deal", 0);
  const actions = record.actions || [];
  actions.forEach((action, i) => {
    const seat = action.seat;
    const held = hands[seat] || [];
    if (action.type === "draw") {
      let taken = action.card;
      if (action.source === "discard") {
        taken = pile.length ? pile.pop() : action.card;
        if (taken) known[seat]?.add(taken);
      } else {
        stock -= 1;
      }
      if (taken) held.push(taken);
    } else if (action.type === "discard" && held.includes(action.card)) {
      held.splice(held.indexOf(action.card), 1);
      known[seat]?.delete(action.card);
      pile.push(action.card);
    } else if (action.type === "knock") {
      if (action.discard && held.includes(action.discard)) held.splice(held.indexOf(action.discard), 1); // face down
      laidDown[seat] = true;
    } else if (action.type === "layoff") {
      laidDown[0] = laidDown[1] = true;
    }
    frame("move", i + 1, action);
  });
  frame("result", actions.length + 1);
  return frames;
}

/**
 * The score around each hand: for each hand, the games its points counted in, each with both seats'
 * points before and after it. From the export's hand summaries ({winner, points, games}); a hand that
 * scored in no game (a wall) shows the game in play.
 */
export function standings(doc) {
  const summaries = doc.hand_summaries || (doc.hands || []).map((record) => ({ ...(record.result?.outcome || {}), games: [1] }));
  const totals = new Map();
  let last = 1;
  const scored = summaries.map((summary) => {
    const games = summary.games && summary.games.length ? summary.games : [last];
    last = games[games.length - 1];
    return games.map((number) => {
      const before = totals.get(number) || [0, 0];
      const after = [...before];
      if (summary.winner === 0 || summary.winner === 1) after[summary.winner] += Number(summary.points) || 0;
      totals.set(number, after);
      return { number, before, after };
    });
  });
  // A hand the match's end cut short (resigned in the middle of it) scored nothing: the score stands.
  for (let i = scored.length; i < (doc.hands || []).length; i++) {
    const score = totals.get(last) || [0, 0];
    scored.push([{ number: last, before: [...score], after: [...score] }]);
  }
  return scored;
}

const ENDED_WORDS = { resigned: "resigned", timeout: "lost on time", abandoned: "left the game (claimed)", aborted: "the match was aborted" };

/** How the match ended in the middle of a hand (its record has no result, and says `ended`). */
export function endedHere(record, doc, names) {
  const seat = doc.result?.forfeited_by;
  const words = ENDED_WORDS[record.ended] || `the match ended (${record.ended})`;
  return record.ended === "aborted" || !(seat === 0 || seat === 1) ? `the match ended here: ${words}` : `the match ended here: ${names[seat]} ${words}`;
}

// --- drawing a step: from the frame and the match's record alone ---------------------------------------------
/** A seat's cards at a step: face up (`up`) or down but for the cards it took from the pile; `dealer` and
 * `nextSeat` its chips, `drawn` the card the step's draw brought. */
function seatRow(frame, seat, { names, up, dealer, nextSeat, drawn }) {
  const cards = sortCards(frame.hands[seat] || []);
  const known = frame.known[seat] || [];
  const row = h("div", { class: "replay-seat", "data-seat": seat, "data-face": up ? "up" : "down" });
  const chips = [];
  if (dealer === seat) chips.push(h("span", { class: "chip" }, "dealer"));
  if (nextSeat === seat) chips.push(h("span", { class: "chip turn" }, "to play"));
  row.append(h("div", { class: "who" }, h("span", { class: "name" }, names[seat]), h("span", { class: "count" }, `${cards.length} cards`), chips));
  const hand = h("div", { class: "replay-hand", role: "group" });
  if (up) {
    for (const card of cards) hand.append(cardFace(card, { extraClass: card === drawn && frame.action?.seat === seat ? "drawn" : "" }));
    hand.setAttribute("aria-label", `${names[seat]}'s hand: ${cards.map(cardName).join(", ")}`);
  } else {
    const shown = cards.filter((c) => known.includes(c));
    for (let i = 0; i < cards.length - shown.length; i++) hand.append(cardBack());
    for (const card of shown) hand.append(cardFace(card, { extraClass: "known", label: `${cardName(card)} (known: taken from the pile)` }));
    hand.setAttribute("aria-label", `${names[seat]}'s hand: ${cards.length - shown.length} hidden cards${shown.length ? `, known: ${shown.map(cardName).join(", ")}` : ""}`);
  }
  row.append(hand);
  return row;
}

/** The stock and the pile at a step. */
function centre(frame) {
  const pile = frame.pile || [];
  const top = pile[pile.length - 1];
  const fresh = frame.action?.type === "discard" ? frame.action.card : null;
  const fan = h("div", { class: "fan" }, pile.slice(-4, -1).map((card) => cardFace(card, { extraClass: "under" })));
  fan.append(top
    ? cardFace(top, { extraClass: `top ${top === fresh ? "fresh-static" : ""}`.trim(), label: `Discard pile, top: ${cardName(top)}`, attrs: { id: "replay-pile-top" } })
    : h("div", { class: "card empty", role: "img", "aria-label": "The discard pile is empty" }));
  return h("div", { class: "center" },
    h("div", { class: "stock" }, cardBack({ label: `Stock: ${frame.stock} cards` }), h("span", { class: "pile-label" }, `Stock ${frame.stock}`)),
    h("div", { class: "pile" }, fan, h("span", { class: "pile-label" }, frame.kind === "deal" ? "Upcard" : `Discard pile ${pile.length}`)));
}

/** "Score before this hand: Ann 0 – Bob 54 (game to 100)", for each game the hand counted in (`standing`). */
function scoreLine(standing, which, names, rules) {
  const several = rules?.hollywood || (rules?.games || 1) > 1;
  const games = standing.length ? standing : [{ number: 1, before: [0, 0], after: [0, 0] }];
  return h("p", { id: "replay-score", class: "replay-score", "data-when": which },
    which === "after" ? "Score after this hand: " : "Score before this hand: ",
    games.map((game, i) => [i ? " · " : "", several ? `game ${game.number}: ` : "", h("b", {}, names[0]), ` ${game[which][0]} – `, h("b", {}, names[1]), ` ${game[which][1]}`]),
    rules?.target ? ` (game to ${rules.target})` : "");
}

/** Every hand of the match (`doc`, the export): how it ended, its points and the score after it. */
function handsTable(doc, standings, names) {
  const rows = (doc.hands || []).map((record, i) => {
    const outcome = record.result?.outcome || {};
    const knocker = outcome.knocker ?? record.result?.knocker?.seat ?? 0;
    const what = !record.result && record.ended
      ? endedHere(record, doc, names).replace(/^the match ended here: /, "cut short: ")
      : (END_TEXT[outcome.end] || outcome.end || "").replace("{k}", names[knocker] ?? "").replace("{d}", names[1 - knocker] ?? "");
    const after = (standings[i] || []).slice(-1)[0]?.after || [0, 0];
    return h("tr", { "data-hand": i + 1 },
      h("td", { class: "num" }, record.number ?? i + 1),
      h("td", { class: "text" }, what, typeof outcome.winner === "number" ? h("b", {}, ` +${outcome.points}`) : null),
      h("td", { class: "num" }, `${after[0]}–${after[1]}`));
  });
  return h("section", { class: "hands" }, h("h3", {}, "Hands"),
    rows.length
      ? h("table", { class: "sheet" },
        h("caption", { class: "visually-hidden" }, "Every hand: how it ended, its points and the score after it"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col", class: "text" }, "How it ended"), h("th", { scope: "col", class: "num" }, "Score"))),
        h("tbody", {}, rows))
      : h("p", { class: "note" }, "No hand was played to its end."));
}

/** The replay page. ctx = {api, root, ui, player()}; options = {as (a player's name), hand, move}. */
export class ReplayViewer {
  constructor(ctx, gameId, options = {}) {
    this.ctx = ctx;
    this.gameId = gameId;
    this.options = options;
    this.doc = null;
    this.frames = [];
    this.at = 0;
    this.show = "review";
    this.stopped = false;
    this.onKey = (event) => this.keydown(event);
    this.review = null; // the master's review: a ReviewRequest, once the match is read
    this.judged = new Map(); // its judged moves, by "<hand>:<index>"
    this.tip = null;
  }

  async start() {
    const player = this.ctx.player();
    const { page, body } = pageFrame({ title: "Replay", current: "games", player, wide: true });
    this.page = page;
    this.body = body;
    body.append(h("p", { class: "note", id: "replay-loading" }, "Loading the match…"));
    clear(this.ctx.root).append(page);
    focusHeading(this.ctx.root);
    try {
      this.doc = await this.ctx.api.exportGame(this.gameId);
    } catch (err) {
      if (this.stopped) return;
      this.drawProblem(err);
      return;
    }
    if (this.stopped) return;
    this.names = seatNames(this.doc.players);
    this.records = this.doc.hands || [];
    this.standings = standings(this.doc);
    this.frames = this.records.flatMap((record, i) => handFrames(i, record));
    this.frames.push({ kind: "end", hand: this.records.length, step: 0 });
    this.show = this.defaultShow(player);
    this.at = this.startFrame();
    this.startReview();
    this.draw();
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("keydown", this.onKey);
    this.review?.stop();
    this.tip?.remove();
  }

  /** The seat of the player the replay was opened for (or of the account signed in), else a review. */
  defaultShow(player) {
    const wanted = [this.options.as, player?.name].filter(Boolean).map((n) => n.toLowerCase());
    for (const name of wanted) {
      const seat = (this.doc.players || []).find((p) => [p.player, p.name].some((n) => n && n.toLowerCase() === name))?.seat;
      if (seat === 0 || seat === 1) return String(seat);
    }
    return "review";
  }

  /** The step the address names (?hand=2&move=5), else the first. */
  startFrame() {
    const hand = Number(this.options.hand);
    if (!Number.isInteger(hand) || hand < 1) return 0;
    const move = Math.max(0, Number(this.options.move) || 0);
    const first = this.frames.findIndex((f) => f.hand === hand - 1);
    if (first < 0) return this.frames.length - 1;
    const within = this.frames.findIndex((f, i) => i >= first && f.hand === hand - 1 && f.step === move);
    return within >= 0 ? within : first;
  }

  drawProblem(err) {
    let text;
    if (err instanceof ApiError && err.code === "not_archived") {
      text = "This match is not in the archive yet: it is still being played, or it ended a moment ago.";
    } else if (err instanceof ApiError && (err.code === "game_not_found" || err.status === 404)) {
      text = "There is no finished match of that id on this service.";
    } else {
      text = `The match cannot be read: ${this.ctx.ui.explain(err)}`;
    }
    clear(this.body).append(
      h("p", { class: "panel", id: "replay-problem", role: "alert" }, text),
      h("div", { class: "buttons" }, h("button", { type: "button", class: "btn", "data-action": "retry", onclick: () => this.start() }, "Try again")));
  }

  // --- moving -----------------------------------------------------------------------------------------------
  go(index) {
    const next = Math.max(0, Math.min(this.frames.length - 1, index));
    if (next === this.at) return;
    this.at = next;
    this.drawStep();
  }

  handStart(hand) {
    const index = this.frames.findIndex((f) => f.hand === hand);
    return index < 0 ? this.frames.length - 1 : index;
  }

  nextHand() {
    this.go(this.handStart(this.frames[this.at].hand + 1));
  }

  previousHand() {
    const frame = this.frames[this.at];
    const start = this.handStart(frame.hand);
    this.go(this.at > start || frame.kind === "end" ? start : this.handStart(Math.max(0, frame.hand - 1)));
  }

  keydown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    const moves = {
      ArrowRight: () => this.go(this.at + 1),
      ArrowLeft: () => this.go(this.at - 1),
      ArrowDown: () => this.nextHand(),
      ArrowUp: () => this.previousHand(),
      Home: () => this.go(0),
      End: () => this.go(this.frames.length - 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  }

  // --- drawing ----------------------------------------------------------------------------------------------
  draw() {
    const doc = this.doc;
    const names = this.names;
    const result = doc.result || {};
    const rules = doc.rules || {};
    const title = this.page.querySelector("#page-title");
    title.textContent = `Replay: ${names[0]} vs ${names[1]}`;
    const facts = [
      doc.family || "casual rules",
      doc.rated ? "rated" : "unrated",
      rules.target ? `game to ${rules.target}` : null,
      `finished ${when(doc.finished_at)}`,
      `${this.records.length} hand${this.records.length === 1 ? "" : "s"}`,
    ].filter(Boolean);
    const winner = result.match_winner ?? result.winner;
    const outcome = result.end_reason === "aborted" ? "aborted" : typeof winner === "number" ? `${names[winner]} won` : "no winner";
    const show = h("select", { id: "replay-show", "aria-describedby": "replay-show-note", onchange: (event) => {
      this.show = event.currentTarget.value;
      this.drawStep();
    } },
      [0, 1].map((seat) => h("option", { value: String(seat), selected: this.show === String(seat) }, `As ${names[seat]} saw them`)),
      h("option", { value: "spectator", selected: this.show === "spectator" }, "As a spectator saw them"),
      h("option", { value: "review", selected: this.show === "review" }, "Both hands face up (review)"));
    const button = (label, action, onclick, keys) => h("button", { type: "button", class: "btn", "data-action": action, "aria-keyshortcuts": keys, title: `${label} (${keys})`, onclick }, label);
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Step through the match" },
      button("« First", "replay-first", () => this.go(0), "Home"),
      button("‹ Previous", "replay-prev", () => this.go(this.at - 1), "ArrowLeft"),
      button("Next ›", "replay-next", () => this.go(this.at + 1), "ArrowRight"),
      button("Last »", "replay-last", () => this.go(this.frames.length - 1), "End"));
    const handsNav = h("nav", { class: "replay-hands", "aria-label": "Hands" },
      h("ul", {}, this.records.map((record, i) => h("li", {}, h("button", { type: "button", class: "chip-btn", "data-hand": i + 1, onclick: () => this.go(this.handStart(i)) }, `Hand ${record.number ?? i + 1}`))),
        h("li", {}, h("button", { type: "button", class: "chip-btn", "data-hand": "end", onclick: () => this.go(this.frames.length - 1) }, "The end"))));
    this.stage = h("div", { class: "replay-stage" });
    this.side = h("aside", { class: "side replay-side", "aria-label": "The hand's moves and the score" });
    clear(this.body).append(
      h("p", { class: "lead replay-facts" }, `${facts.join(" · ")} · ${outcome}${result.end_reason && result.end_reason !== "finished" ? ` (${result.end_reason})` : ""}`),
      h("section", { id: "replay", class: "replay", "aria-label": "Replay" },
        h("div", { class: "replay-bar" },
          controls,
          h("p", { id: "replay-position", class: "replay-position", "aria-live": "off" }),
          h("label", { class: "replay-show" }, "Cards shown ", show)),
        h("p", { id: "replay-show-note", class: "note replay-show-note" }),
        // What a screen reader hears at each step: one region that stays (the table is drawn anew).
        h("p", { id: "replay-said", class: "visually-hidden", "aria-live": "polite" }),
        handsNav,
        h("div", { class: "board" }, this.stage, this.side)),
      h("p", { class: "note" },
        // Keys only where there is a keyboard (hidden on a phone and on touch screens: style.css).
        h("span", { class: "keys-note" }, "Keys: ← → a move, ↑ ↓ a hand, Home and End the first and last step. "),
        this.gamesLink()));
    this.drawStep();
  }

  /** A link back to the list of games the replay was opened from. */
  gamesLink() {
    const name = this.reviewedName();
    if (!name) return null;
    const mine = name.toLowerCase() === this.ctx.player()?.name.toLowerCase();
    return h("a", { href: mine ? pageHref("games") : pageHref("players", name, "games") }, mine ? "My games" : `${playerLabel(name)}'s games`);
  }

  /** Whose games the replay was opened from (else the account's, else the match's first player's). */
  reviewedName() {
    const player = (this.doc.players || []).find((p) => p.player && p.type !== "bot")?.player;
    return this.options.as || this.ctx.player()?.name || player || null;
  }

  /** Whether the seat's cards are face up at this step, as the chosen view shows them. */
  faceUp(frame, seat) {
    return this.show === "review" || this.show === String(seat) || frame.kind === "result" || frame.laidDown?.[seat];
  }

  drawStep({ announce = true } = {}) {
    const frame = this.frames[this.at];
    const replay = this.body.querySelector("#replay");
    replay.dataset.frame = String(this.at);
    replay.dataset.kind = frame.kind;
    replay.dataset.hand = String(frame.hand + 1);
    replay.dataset.step = String(frame.step);
    replay.dataset.show = this.show;
    const count = this.records.length;
    const record = this.records[frame.hand];
    const moves = (record?.actions || []).length;
    const where = frame.kind === "end" ? "The end of the match"
      : `Hand ${frame.hand + 1} of ${count} · ${frame.kind === "deal" ? "the deal" : frame.kind === "result" ? "the result" : `move ${frame.step} of ${moves}`}`;
    this.body.querySelector("#replay-position").textContent = where;
    for (const [action, disabled] of [["replay-first", this.at === 0], ["replay-prev", this.at === 0], ["replay-next", this.at === this.frames.length - 1], ["replay-last", this.at === this.frames.length - 1]]) {
      this.body.querySelector(`[data-action=${action}]`).setAttribute("aria-disabled", String(disabled));
    }
    for (const chip of this.body.querySelectorAll(".replay-hands [data-hand]")) {
      const current = chip.dataset.hand === (frame.kind === "end" ? "end" : String(frame.hand + 1));
      chip.setAttribute("aria-current", current ? "true" : "false");
    }
    const names = this.names;
    this.body.querySelector("#replay-show-note").textContent = this.show === "review"
      ? "Review: both hands are face up all along (the match is over)."
      : this.show === "spectator"
        ? "As a spectator saw them: the hands stay face down (but the cards taken from the pile) until the hand is over."
        : `As ${names[Number(this.show)]} saw them: ${names[1 - Number(this.show)]}'s hand stays face down (but the cards taken from the pile) until the hand is over.`;
    // A move of the list had the focus: the list is drawn again, and the focus goes to the current move.
    const inList = this.side.contains(document.activeElement) && (document.activeElement.dataset.step || document.activeElement.dataset.mark);
    if (frame.kind === "end") this.drawEnd();
    else this.drawHandStep(frame, record);
    if (announce) this.say(frame.kind === "end" ? ["#replay-end h2"] : ["#replay-move", "#replay-verdict"], where);
    if (inList) (this.side.querySelector("[aria-current=step] button") || this.body.querySelector("[data-action=replay-next]"))?.focus();
    this.ctx.ui.setAddress?.(this.address(frame));
  }

  /** Tell a screen reader the step: where it is, then the move and the master's verdict on it, if any (their
   * cards as words: "7 of hearts"). */
  say(selectors, where) {
    const said = selectors.map((selector) => {
      const copy = this.body.querySelector(selector)?.cloneNode(true);
      if (!copy) return "";
      for (const card of copy.querySelectorAll("[data-card]")) card.replaceWith(cardName(card.dataset.card));
      return copy.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean);
    if (said.length) this.body.querySelector("#replay-said").textContent = `${where}. ${said.join(" ")}`;
  }

  address(frame) {
    const params = new URLSearchParams();
    if (this.options.as) params.set("as", this.options.as);
    params.set("hand", frame.kind === "end" ? "end" : String(frame.hand + 1));
    if (frame.kind !== "end" && frame.step) params.set("move", String(frame.step));
    return `${pageHref("replay", this.gameId)}?${params}`;
  }

  /** A move as the chosen view saw it: a stock draw's card only for the drawer (or in a review). */
  seenAction(action, frame) {
    if (action.type === "draw" && action.source !== "discard" && !this.faceUp({ ...frame, kind: "move", laidDown: [false, false] }, action.seat)) {
      const { card: _hidden, ...seen } = action;
      return seen;
    }
    return action;
  }

  drawHandStep(frame, record) {
    const names = this.names;
    const stage = clear(this.stage);
    const bottom = this.show === "1" ? 1 : 0;
    const felt = h("section", { id: "replay-table", class: "felt replay-table", "aria-label": "The table" });
    const nextSeat = frame.kind === "result" ? null : (record.actions || [])[frame.step]?.seat;
    const drawn = frame.action?.type === "draw" ? frame.action.card : null;
    add(felt,
      seatRow(frame, 1 - bottom, { names, up: this.faceUp(frame, 1 - bottom), dealer: record.dealer, nextSeat, drawn }),
      centre(frame),
      h("p", { id: "replay-move", class: "prompt" }, this.caption(frame, record)),
      frame.kind === "move" ? this.callout(frame) : null,
      seatRow(frame, bottom, { names, up: this.faceUp(frame, bottom), dealer: record.dealer, nextSeat, drawn }));
    stage.append(felt);
    const standing = this.standings[frame.hand] || [];
    if (frame.kind === "result" && !record.result && record.ended) {
      stage.append(h("section", { id: "replay-result", class: "result", "data-ended": record.ended, "aria-label": `Hand ${frame.hand + 1}: the match ended` },
        h("h2", {}, `Hand ${record.number ?? frame.hand + 1}: ${endedHere(record, this.doc, names)}`),
        scoreLine(standing, "after", names, this.doc.rules)));
    } else if (frame.kind === "result") {
      const result = record.result || {};
      const panel = h("section", { id: "replay-result", class: "result", "aria-label": `Hand ${frame.hand + 1} result` },
        h("h2", {}, `Hand ${record.number ?? frame.hand + 1}: ${handHeading(result, names)}`));
      add(panel, handDetails(result, names), scoreLine(standing, "after", names, this.doc.rules));
      stage.append(panel);
    } else {
      stage.append(scoreLine(standing, "before", names, this.doc.rules));
    }
    this.drawSide(frame, record);
  }

  caption(frame, record) {
    const names = this.names;
    if (frame.kind === "deal") {
      const dealer = record.dealer === 0 || record.dealer === 1 ? `${names[record.dealer]} dealt` : "The deal";
      return withCards([`${dealer}: 10 cards each; the upcard is `, record.upcard || "?", record.knock_limit ? ` · knock at ≤ ${record.knock_limit}` : " · gin only", record.spades_double ? " · spades double" : ""]);
    }
    if (frame.kind === "result" && !record.result && record.ended) return `Hand ${record.number ?? frame.hand + 1}: ${endedHere(record, this.doc, names)}.`;
    if (frame.kind === "result") return `Hand ${record.number ?? frame.hand + 1} is over: ${handHeading(record.result || {}, names)}.`;
    const moves = (record.actions || []).length;
    return withCards([`Move ${frame.step} of ${moves}: `, ...describeMove(this.seenAction(frame.action, frame), names, record)]);
  }

  drawSide(frame, record) {
    const side = clear(this.side);
    const names = this.names;
    const actions = record.actions || [];
    const played = frame.kind === "result" ? actions.length : frame.step;
    const list = h("ol", { class: "log", id: "replay-moves", "aria-label": `Moves of hand ${frame.hand + 1}` });
    this.tip?.hide();
    actions.slice(0, played).forEach((action, i) => {
      const step = i + 1;
      const index = this.frames.findIndex((f) => f.hand === frame.hand && f.step === step);
      const marked = this.marked(frame.hand, i);
      list.append(h("li", { "aria-current": step === frame.step && frame.kind === "move" ? "step" : null, "data-index": i, "data-verdict": marked?.verdict },
        h("div", { class: "move-row" },
          h("button", { type: "button", class: "step", "data-step": step, onclick: () => this.go(index) },
            withCards(describeMove(this.seenAction(action, this.frames[index]), names, record))),
          marked ? markButton(marked, this.markContext(marked)) : null)));
    });
    if (played < actions.length) {
      const more = actions.length - played;
      list.append(h("li", { class: "later" }, `${more} more move${more === 1 ? "" : "s"} to come`));
    }
    side.append(this.reviewBox);
    side.append(h("section", { class: "moves" }, h("h3", {}, `Hand ${record.number ?? frame.hand + 1}: moves`), played ? list : h("p", { class: "note" }, `The deal: ${actions.length} moves to come.`)));
    side.append(handsTable(this.doc, this.standings, names));
    showLatest(list); // the current move (the last played) in sight, the top row whole
  }

  drawEnd() {
    const doc = this.doc;
    const names = this.names;
    const result = doc.result || {};
    const stage = clear(this.stage);
    const view = { end_reason: result.end_reason === "finished" ? null : result.end_reason, forfeited_by: result.forfeited_by, scores: result, stats: doc.stats };
    const panel = h("section", { id: "replay-end", class: "result", "aria-label": "The end of the match" }, matchEnd(view, names));
    const sheets = (result.games || []).filter((g) => g.over);
    if (sheets.length) panel.append(gameOverPanel(view, names, sheets));
    const ratings = (doc.ratings || []).map((change, seat) => (change ? h("li", {}, `${names[seat]}: ${change.before ? change.before.rating : "new"} → ${change.after.rating}${change.after.provisional ? " (provisional)" : ""}`) : null)).filter(Boolean);
    if (ratings.length) panel.append(h("h3", {}, `Ratings (${doc.family})`), h("ul", { class: "rating-changes" }, ratings));
    const links = (doc.players || []).filter((p) => p.player).map((p) => h("a", { href: pageHref("players", p.player) }, `${playerLabel(p.player)}'s profile`));
    if (links.length) panel.append(h("p", { class: "note" }, links.map((link, i) => [i ? " · " : "", link])));
    stage.append(panel);
    const side = clear(this.side);
    this.tip?.hide();
    side.append(this.reviewBox, handsTable(doc, this.standings, names));
  }

  // --- the master's review ------------------------------------------------------------------------------------
  /** The review's box (kept across the steps) and its request: read at once, asked for with its button. */
  startReview() {
    this.review?.stop();
    this.tip?.remove();
    this.tip = new ReviewTip();
    this.judged = new Map();
    this.reviewBody = h("div", { class: "review-body" });
    this.reviewBox = h("section", { id: "review", class: "review-box", "aria-labelledby": "review-title", "data-status": "loading" },
      h("h3", { id: "review-title", tabindex: "-1" }, "The master's review"), this.reviewBody);
    this.review = new ReviewRequest(this.ctx.api, this.gameId, (state) => this.reviewChanged(state));
    this.review.load();
  }

  reviewChanged(state) {
    if (this.stopped) return;
    const had = this.judged.size > 0;
    this.judged = state.status === "done" ? judgedMoves(state.review) : new Map();
    const focused = this.reviewBody.contains(document.activeElement);
    this.drawReview(state);
    // The button pressed is gone: the focus goes to the new one to press, else to the box's heading.
    const next = ["none", "failed", "error"].includes(state.status) ? this.reviewBody.querySelector("button") : null;
    if (focused) (next || this.reviewBox.querySelector("#review-title")).focus();
    if (state.status === "done" || had) this.drawStep({ announce: false }); // the marks on the moves, the table
    // Said in the replay's own live region (the box is taken out and put back at each step).
    const said = this.reviewWords(state);
    const region = this.body.querySelector("#replay-said");
    if (said && region) region.textContent = said;
  }

  /** What a screen reader hears when the review's state changes (nothing for the quiet ones). */
  reviewWords(state) {
    switch (state.status) {
      case "pending":
        return state.long || state.trouble ? "" : "The master is reviewing the match.";
      case "done":
        return `The master's review is ready: ${(state.review.seats || []).map((s) => `${this.names[s.seat]} ${Number(s.accuracy).toFixed(1)} % accuracy`).join(", ")}.`;
      case "failed":
        return "The master could not review this match.";
      case "error":
        return "The review cannot be read.";
      default:
        return "";
    }
  }

  drawReview(state) {
    const names = this.names;
    const body = clear(this.reviewBody);
    this.reviewBox.dataset.status = state.status;
    const button = (label, action, onclick, primary = false) => h("button", { type: "button", class: `btn ${primary ? "primary" : ""}`.trim(), "data-action": action, onclick }, label);
    const waiting = (...text) => h("p", { class: "waiting review-waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", {}, ...text));
    switch (state.status) {
      case "loading":
        body.append(h("p", { class: "note" }, "Looking for the master's review…"));
        break;
      case "none":
        body.append(
          h("p", { class: "note" }, "The master can judge every decision of both players from what each knew then: the points each move gave up, and the better move."),
          h("div", { class: "buttons" }, button("Ask the master for a review", "review-ask", () => this.review.ask(), true)));
        break;
      case "asking":
        body.append(waiting("Asking the master…"));
        break;
      case "pending":
        body.append(waiting("The master is reviewing the match, every decision of both players. It takes a few seconds to a minute; then the marks appear here and on the moves."));
        if (state.long) body.append(h("p", { class: "note", "data-state": "long" }, "It is taking longer than usual: the service's bot workers are busy (or none is running). The page keeps asking."));
        if (state.trouble) body.append(h("p", { class: "note", "data-state": "trouble" }, `The last look did not get through (${this.ctx.ui.explain(state.trouble)}); the page tries again.`));
        break;
      case "done": {
        const review = state.review;
        const marked = (review.moves || []).filter((move) => VERDICTS[move.verdict]);
        const thresholds = review.thresholds || {};
        body.append(summaryBlocks(review, names),
          h("p", { class: "note review-legend" }, "Marks on the moves: ",
            Object.entries(VERDICTS).map(([verdict, v], i) => [i ? ", " : "", verdictSign(verdict), ` ${v.word.toLowerCase()}${thresholds[verdict] ? ` (${thresholds[verdict]}+ points)` : ""}`]),
            ". Hover, focus or tap a mark for the better move."),
          marked.length ? this.markedList(marked) : h("p", { class: "note" }, "No move is marked: none gave up 2 points or more."));
        break;
      }
      case "failed":
        body.append(h("p", {}, "The master could not review this match."), h("div", { class: "buttons" }, button("Ask again", "review-ask", () => this.review.ask())));
        break;
      default:
        body.append(h("p", { class: "field-error", id: "review-problem" }, `The review cannot be read: ${this.ctx.ui.explain(state.error)}`),
          h("div", { class: "buttons" }, button("Try again", "review-retry", () => this.review.load())));
    }
  }

  /** Every marked move of the match, each a button to its step. */
  markedList(marked) {
    const names = this.names;
    const items = marked.map((move) => {
      const index = this.frames.findIndex((f) => f.hand === move.hand - 1 && f.step === move.index + 1);
      const record = this.records[move.hand - 1];
      const action = record?.actions?.[move.index];
      if (index < 0 || !action) return null;
      return h("li", { "data-verdict": move.verdict },
        h("button", { type: "button", class: "step", "data-go": index, onclick: () => this.go(index) },
          verdictSign(move.verdict), h("span", { class: "visually-hidden" }, `${VERDICTS[move.verdict].word}: `),
          ` Hand ${record.number ?? move.hand}, move ${move.index + 1}: `, withCards(describeMove(this.seenAction(action, this.frames[index]), names, record))));
    });
    return h("details", { class: "review-marks" }, h("summary", {}, `The marked moves (${marked.length})`), h("ol", { class: "log" }, items));
  }

  /** The judged move of this hand (0-based) and action index, if it has a verdict. */
  marked(hand, index) {
    const move = this.judged.get(`${hand + 1}:${index}`);
    return move && VERDICTS[move.verdict] ? move : null;
  }

  /** What a mark says of its move: who played it, the pile's top card before it, the deals it was judged over. */
  markContext(move) {
    const before = this.frames.find((f) => f.hand === move.hand - 1 && f.step === move.index);
    const pile = before?.pile || [];
    return { who: this.names[move.seat], pileTop: pile[pile.length - 1], samples: this.review?.state.review?.samples, tip: this.tip };
  }

  /** The master's verdict, large, on the table when the step shown is a marked move. */
  callout(frame) {
    const move = this.marked(frame.hand, frame.step - 1);
    return move ? verdictCallout(move, this.markContext(move)) : null;
  }
}
