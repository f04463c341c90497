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
import { replayChat } from "./chat.js";
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

// --- drawing: from plain data and callbacks, never the controller --------------------------------------------
// Each function takes what it draws and `on`, the callbacks of what the person may do: step(index of a frame),
// previous(), next(), show(the cards shown: "0", "1", "spectator" or "review"), askReview(), readReview(), retry().

/** The first step of a hand (its deal), or the end's when there is no such hand. */
function handStart(frames, hand) {
  const index = frames.findIndex((f) => f.hand === hand);
  return index < 0 ? frames.length - 1 : index;
}

/** Whether the seat's cards are face up at this step, as the cards shown (`show`) show them. */
function faceUp(frame, seat, show) {
  return show === "review" || show === String(seat) || frame.kind === "result" || frame.laidDown?.[seat];
}

/** A move as the chosen view saw it: a stock draw's card only for the drawer (or in a review). */
function seenAction(action, show) {
  if (action.type === "draw" && action.source !== "discard" && !faceUp({ kind: "move" }, action.seat, show)) {
    const { card: _hidden, ...seen } = action;
    return seen;
  }
  return action;
}

/** "Hand 2 of 5 · move 7 of 31", or "The end of the match". */
function stepWhere(frame, records) {
  const moves = (records[frame.hand]?.actions || []).length;
  return frame.kind === "end" ? "The end of the match"
    : `Hand ${frame.hand + 1} of ${records.length} · ${frame.kind === "deal" ? "the deal" : frame.kind === "result" ? "the result" : `move ${frame.step} of ${moves}`}`;
}

/** The match could not be read: why (`text`), and a button to try again. */
function problemPanel(text, { retry }) {
  return [
    h("p", { class: "panel", id: "replay-problem", role: "alert" }, text),
    h("div", { class: "buttons" }, h("button", { type: "button", class: "btn", "data-action": "retry", onclick: () => retry() }, "Try again")),
  ];
}

/** The page around the steps, drawn once: the match's facts, the step buttons, the cards shown (`show`),
 * the hands' chips, the stage and the side panel (each step draws them), the keys and a link back to the
 * list of games (`games`: {href, label} or null). */
function replayPage(doc, names, { frames, show, games }, on) {
  const result = doc.result || {};
  const rules = doc.rules || {};
  const records = doc.hands || [];
  const facts = [
    doc.family || "casual rules",
    doc.rated ? "rated" : "unrated",
    rules.target ? `game to ${rules.target}` : null,
    `finished ${when(doc.finished_at)}`,
    `${records.length} hand${records.length === 1 ? "" : "s"}`,
  ].filter(Boolean);
  const winner = result.match_winner ?? result.winner;
  const outcome = result.end_reason === "aborted" ? "aborted" : typeof winner === "number" ? `${names[winner]} won` : "no winner";
  const choice = h("select", { id: "replay-show", "aria-describedby": "replay-show-note", onchange: (event) => on.show(event.currentTarget.value) },
    [0, 1].map((seat) => h("option", { value: String(seat), selected: show === String(seat) }, `As ${names[seat]} saw them`)),
    h("option", { value: "spectator", selected: show === "spectator" }, "As a spectator saw them"),
    h("option", { value: "review", selected: show === "review" }, "Both hands face up (review)"));
  const last = frames.length - 1;
  const button = (label, action, onclick, keys) => h("button", { type: "button", class: "btn", "data-action": action, "aria-keyshortcuts": keys, title: `${label} (${keys})`, onclick }, label);
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Step through the match" },
    button("« First", "replay-first", () => on.step(0), "Home"),
    button("‹ Previous", "replay-prev", () => on.previous(), "ArrowLeft"),
    button("Next ›", "replay-next", () => on.next(), "ArrowRight"),
    button("Last »", "replay-last", () => on.step(last), "End"));
  const handsNav = h("nav", { class: "replay-hands", "aria-label": "Hands" },
    h("ul", {}, records.map((record, i) => h("li", {}, h("button", { type: "button", class: "chip-btn", "data-hand": i + 1, onclick: () => on.step(handStart(frames, i)) }, `Hand ${record.number ?? i + 1}`))),
      h("li", {}, h("button", { type: "button", class: "chip-btn", "data-hand": "end", onclick: () => on.step(last) }, "The end"))));
  return [
    h("p", { class: "lead replay-facts" }, `${facts.join(" · ")} · ${outcome}${result.end_reason && result.end_reason !== "finished" ? ` (${result.end_reason})` : ""}`),
    h("section", { id: "replay", class: "replay", "aria-label": "Replay" },
      h("div", { class: "replay-bar" },
        controls,
        h("p", { id: "replay-position", class: "replay-position", "aria-live": "off" }),
        h("label", { class: "replay-show" }, "Cards shown ", choice)),
      h("p", { id: "replay-show-note", class: "note replay-show-note" }),
      // What a screen reader hears at each step: one region that stays (the table is drawn anew).
      h("p", { id: "replay-said", class: "visually-hidden", "aria-live": "polite" }),
      handsNav,
      h("div", { class: "board" }, h("div", { class: "replay-stage" }), h("aside", { class: "side replay-side", "aria-label": "The hand's moves and the score" }))),
    h("p", { class: "note" },
      // Keys only where there is a keyboard (hidden on a phone and on touch screens: style.css).
      h("span", { class: "keys-note" }, "Keys: ← → a move, ↑ ↓ a hand, Home and End the first and last step. "),
      games ? h("a", { href: games.href }, games.label) : null),
  ];
}

/** The page's bar at a step (frame `at` of `frames`): the step in #replay's data, where it is (`where`), the
 * buttons that lead nowhere from there, the current hand's chip, what the cards shown (`show`) show. */
function paintStep(body, { frames, at, show, names, where }) {
  const frame = frames[at];
  const replay = body.querySelector("#replay");
  replay.dataset.frame = String(at);
  replay.dataset.kind = frame.kind;
  replay.dataset.hand = String(frame.hand + 1);
  replay.dataset.step = String(frame.step);
  replay.dataset.show = show;
  body.querySelector("#replay-position").textContent = where;
  const last = frames.length - 1;
  for (const [action, disabled] of [["replay-first", at === 0], ["replay-prev", at === 0], ["replay-next", at === last], ["replay-last", at === last]]) {
    body.querySelector(`[data-action=${action}]`).setAttribute("aria-disabled", String(disabled));
  }
  for (const chip of body.querySelectorAll(".replay-hands [data-hand]")) {
    const current = chip.dataset.hand === (frame.kind === "end" ? "end" : String(frame.hand + 1));
    chip.setAttribute("aria-current", current ? "true" : "false");
  }
  body.querySelector("#replay-show-note").textContent = show === "review"
    ? "Review: both hands are face up all along (the match is over)."
    : show === "spectator"
      ? "As a spectator saw them: the hands stay face down (but the cards taken from the pile) until the hand is over."
      : `As ${names[Number(show)]} saw them: ${names[1 - Number(show)]}'s hand stays face down (but the cards taken from the pile) until the hand is over.`;
}

/** Tell a screen reader the step: where it is, then the move and the master's verdict on it, if any (the
 * elements of `selectors`, their cards as words: "7 of hearts"), in the replay's live region. */
function say(body, selectors, where) {
  const said = selectors.map((selector) => {
    const copy = body.querySelector(selector)?.cloneNode(true);
    if (!copy) return "";
    for (const card of copy.querySelectorAll("[data-card]")) card.replaceWith(cardName(card.dataset.card));
    return copy.textContent.replace(/\s+/g, " ").trim();
  }).filter(Boolean);
  if (said.length) body.querySelector("#replay-said").textContent = `${where}. ${said.join(" ")}`;
}

// --- a step of a hand: from its frame, its record and `step` -------------------------------------------------
// A step of a hand takes `step`: {doc (the export), names, show (the cards shown), frames, standings (the
// score around each hand), marks ({judged, samples, tip}: the review's judged moves, its deals, the popover)}.

/** The table at a step of a hand (the seats, the stock and the pile, the move, the master's verdict on it),
 * then the hand's result or the score before it. */
function handStep(frame, record, { doc, names, show, frames, standings, marks }) {
  const bottom = show === "1" ? 1 : 0;
  const nextSeat = frame.kind === "result" ? null : (record.actions || [])[frame.step]?.seat;
  const drawn = frame.action?.type === "draw" ? frame.action.card : null;
  const seat = (s) => seatRow(frame, s, { names, up: faceUp(frame, s, show), dealer: record.dealer, nextSeat, drawn });
  const felt = add(h("section", { id: "replay-table", class: "felt replay-table", "aria-label": "The table" }),
    seat(1 - bottom),
    centre(frame),
    h("p", { id: "replay-move", class: "prompt" }, caption(frame, record, { doc, names, show })),
    frame.kind === "move" ? callout(frame, { frames, names, marks }) : null,
    seat(bottom));
  const standing = standings[frame.hand] || [];
  if (frame.kind === "result" && !record.result && record.ended) {
    return [felt, h("section", { id: "replay-result", class: "result", "data-ended": record.ended, "aria-label": `Hand ${frame.hand + 1}: the match ended` },
      h("h2", {}, `Hand ${record.number ?? frame.hand + 1}: ${endedHere(record, doc, names)}`),
      scoreLine(standing, "after", names, doc.rules))];
  }
  if (frame.kind === "result") {
    const result = record.result || {};
    const panel = h("section", { id: "replay-result", class: "result", "aria-label": `Hand ${frame.hand + 1} result` },
      h("h2", {}, `Hand ${record.number ?? frame.hand + 1}: ${handHeading(result, names)}`));
    return [felt, add(panel, handDetails(result, names), scoreLine(standing, "after", names, doc.rules))];
  }
  return [felt, scoreLine(standing, "before", names, doc.rules)];
}

/** What the step shows, in words: the deal, the move (as the cards shown saw it) or how the hand ended. */
function caption(frame, record, { doc, names, show }) {
  if (frame.kind === "deal") {
    const dealer = record.dealer === 0 || record.dealer === 1 ? `${names[record.dealer]} dealt` : "The deal";
    return withCards([`${dealer}: 10 cards each; the upcard is `, record.upcard || "?", record.knock_limit ? ` · knock at ≤ ${record.knock_limit}` : " · gin only", record.spades_double ? " · spades double" : ""]);
  }
  if (frame.kind === "result" && !record.result && record.ended) return `Hand ${record.number ?? frame.hand + 1}: ${endedHere(record, doc, names)}.`;
  if (frame.kind === "result") return `Hand ${record.number ?? frame.hand + 1} is over: ${handHeading(record.result || {}, names)}.`;
  const moves = (record.actions || []).length;
  return withCards([`Move ${frame.step} of ${moves}: `, ...describeMove(seenAction(frame.action, show), names, record)]);
}

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

/** The side panel of a hand's step (below the review's box): the hand's moves so far, each a button to its
 * step and with its mark, then every hand of the match. */
function handSide(frame, record, { doc, names, show, frames, standings, marks }, on) {
  const actions = record.actions || [];
  const played = frame.kind === "result" ? actions.length : frame.step;
  const list = h("ol", { class: "log", id: "replay-moves", "aria-label": `Moves of hand ${frame.hand + 1}` });
  actions.slice(0, played).forEach((action, i) => {
    const step = i + 1;
    const index = frames.findIndex((f) => f.hand === frame.hand && f.step === step);
    const marked = markedMove(marks.judged, frame.hand, i);
    list.append(h("li", { "aria-current": step === frame.step && frame.kind === "move" ? "step" : null, "data-index": i, "data-verdict": marked?.verdict },
      h("div", { class: "move-row" },
        h("button", { type: "button", class: "step", "data-step": step, onclick: () => on.step(index) },
          withCards(describeMove(seenAction(action, show), names, record))),
        marked ? markButton(marked, markContext(marked, frames, names, marks)) : null)));
  });
  if (played < actions.length) {
    const more = actions.length - played;
    list.append(h("li", { class: "later" }, `${more} more move${more === 1 ? "" : "s"} to come`));
  }
  return [
    h("section", { class: "moves" }, h("h3", {}, `Hand ${record.number ?? frame.hand + 1}: moves`), played ? list : h("p", { class: "note" }, `The deal: ${actions.length} moves to come.`)),
    handsTable(doc, standings, names),
  ];
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

/** The end of the match (`doc`, the export): how it ended, the games' score sheets, the ratings' changes and
 * the players' profiles. */
function matchEndPanel(doc, names) {
  const result = doc.result || {};
  const view = { end_reason: result.end_reason === "finished" ? null : result.end_reason, forfeited_by: result.forfeited_by, scores: result, stats: doc.stats };
  const panel = h("section", { id: "replay-end", class: "result", "aria-label": "The end of the match" }, matchEnd(view, names));
  const sheets = (result.games || []).filter((g) => g.over);
  if (sheets.length) panel.append(gameOverPanel(view, names, sheets));
  const ratings = (doc.ratings || []).map((change, seat) => (change ? h("li", {}, `${names[seat]}: ${change.before ? change.before.rating : "new"} → ${change.after.rating}${change.after.provisional ? " (provisional)" : ""}`) : null)).filter(Boolean);
  if (ratings.length) panel.append(h("h3", {}, `Ratings (${doc.family})`), h("ul", { class: "rating-changes" }, ratings));
  const links = (doc.players || []).filter((p) => p.player).map((p) => h("a", { href: pageHref("players", p.player) }, `${playerLabel(p.player)}'s profile`));
  if (links.length) panel.append(h("p", { class: "note" }, links.map((link, i) => [i ? " · " : "", link])));
  return panel;
}

// --- the master's review -------------------------------------------------------------------------------------

/** The judged move of this hand (0-based) and action index, if it has a verdict (`judged`: by "<hand>:<index>"). */
function markedMove(judged, hand, index) {
  const move = judged.get(`${hand + 1}:${index}`);
  return move && VERDICTS[move.verdict] ? move : null;
}

/** What a mark says of its move: who played it, the pile's top card before it, the deals it was judged over,
 * the popover to show it in. */
function markContext(move, frames, names, { samples, tip }) {
  const before = frames.find((f) => f.hand === move.hand - 1 && f.step === move.index);
  const pile = before?.pile || [];
  return { who: names[move.seat], pileTop: pile[pile.length - 1], samples, tip };
}

/** The master's verdict, large, on the table when the step shown is a marked move. */
function callout(frame, { frames, names, marks }) {
  const move = markedMove(marks.judged, frame.hand, frame.step - 1);
  return move ? verdictCallout(move, markContext(move, frames, names, marks)) : null;
}

/** The review's box, empty: kept across the steps (paintReview fills it). */
function reviewBox() {
  return h("section", { id: "review", class: "review-box", "aria-labelledby": "review-title", "data-status": "loading" },
    h("h3", { id: "review-title", tabindex: "-1" }, "The master's review"), h("div", { class: "review-body" }));
}

/** The review's box as the review stands: `shown` = {status (a ReviewRequest's), review (done), long and
 * trouble (pending: the wait is long; why the last look failed, in words), problem (error: in words)};
 * `match` = {names, records, frames, show} for the list of marked moves. */
function paintReview(box, shown, match, on) {
  const body = clear(box.querySelector(".review-body"));
  box.dataset.status = shown.status;
  const button = (label, action, onclick, primary = false) => h("button", { type: "button", class: `btn ${primary ? "primary" : ""}`.trim(), "data-action": action, onclick }, label);
  const waiting = (...text) => h("p", { class: "waiting review-waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", {}, ...text));
  switch (shown.status) {
    case "loading":
      body.append(h("p", { class: "note" }, "Looking for the master's review…"));
      break;
    case "none":
      body.append(
        h("p", { class: "note" }, "The master can judge every decision of both players from what each knew then: the points each move gave up, and the better move."),
        h("div", { class: "buttons" }, button("Ask the master for a review", "review-ask", () => on.askReview(), true)));
      break;
    case "asking":
      body.append(waiting("Asking the master…"));
      break;
    case "pending":
      body.append(waiting("The master is reviewing the match, every decision of both players. It takes a few seconds to a minute; then the marks appear here and on the moves."));
      if (shown.long) body.append(h("p", { class: "note", "data-state": "long" }, "It is taking longer than usual: the service's bot workers are busy (or none is running). The page keeps asking."));
      if (shown.trouble) body.append(h("p", { class: "note", "data-state": "trouble" }, `The last look did not get through (${shown.trouble}); the page tries again.`));
      break;
    case "done": {
      const review = shown.review;
      const marked = (review.moves || []).filter((move) => VERDICTS[move.verdict]);
      const thresholds = review.thresholds || {};
      body.append(summaryBlocks(review, match.names),
        h("p", { class: "note review-legend" }, "Marks on the moves: ",
          Object.entries(VERDICTS).map(([verdict, v], i) => [i ? ", " : "", verdictSign(verdict), ` ${v.word.toLowerCase()}${thresholds[verdict] ? ` (${thresholds[verdict]}+ points)` : ""}`]),
          ". Hover, focus or tap a mark for the better move."),
        marked.length ? markedList(marked, match, on) : h("p", { class: "note" }, "No move is marked: none gave up 2 points or more."));
      break;
    }
    case "failed":
      body.append(h("p", {}, "The master could not review this match."), h("div", { class: "buttons" }, button("Ask again", "review-ask", () => on.askReview())));
      break;
    default:
      body.append(h("p", { class: "field-error", id: "review-problem" }, `The review cannot be read: ${shown.problem}`),
        h("div", { class: "buttons" }, button("Try again", "review-retry", () => on.readReview())));
  }
}

/** Every marked move of the match, each a button to its step (as the cards shown saw it). */
function markedList(marked, { names, records, frames, show }, { step }) {
  const items = marked.map((move) => {
    const index = frames.findIndex((f) => f.hand === move.hand - 1 && f.step === move.index + 1);
    const record = records[move.hand - 1];
    const action = record?.actions?.[move.index];
    if (index < 0 || !action) return null;
    return h("li", { "data-verdict": move.verdict },
      h("button", { type: "button", class: "step", "data-go": index, onclick: () => step(index) },
        verdictSign(move.verdict), h("span", { class: "visually-hidden" }, `${VERDICTS[move.verdict].word}: `),
        ` Hand ${record.number ?? move.hand}, move ${move.index + 1}: `, withCards(describeMove(seenAction(action, show), names, record))));
  });
  return h("details", { class: "review-marks" }, h("summary", {}, `The marked moves (${marked.length})`), h("ol", { class: "log" }, items));
}

/** What a screen reader hears when the review's state changes (nothing for the quiet ones). */
function reviewWords(state, names) {
  switch (state.status) {
    case "pending":
      return state.long || state.trouble ? "" : "The master is reviewing the match.";
    case "done":
      return `The master's review is ready: ${(state.review.seats || []).map((s) => `${names[s.seat]} ${Number(s.accuracy).toFixed(1)} % accuracy`).join(", ")}.`;
    case "failed":
      return "The master could not review this match.";
    case "error":
      return "The review cannot be read.";
    default:
      return "";
  }
}

/** The replay page. ctx = {api, root, ui, player()}; options = {as (a player's name), hand, move}. It keeps the
 * match, the step shown, the cards shown and the review's request; the functions below draw them from plain
 * data, and what the person does comes back through `this.on`. */
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
    this.on = {
      step: (index) => this.go(index),
      previous: () => this.go(this.at - 1),
      next: () => this.go(this.at + 1),
      show: (choice) => {
        this.show = choice;
        this.drawStep();
      },
      askReview: () => this.review.ask(),
      readReview: () => this.review.load(),
      retry: () => this.start(),
    };
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
      this.problem(err);
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
    this.chat = replayChat(this.ctx, this.gameId); // its chat, read only, under the moves
    this.startReview();
    this.draw();
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("keydown", this.onKey);
    this.review?.stop();
    this.tip?.remove();
    this.chat?.stop();
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

  problem(err) {
    let text;
    if (err instanceof ApiError && err.code === "not_archived") {
      text = "This match is not in the archive yet: it is still being played, or it ended a moment ago.";
    } else if (err instanceof ApiError && (err.code === "game_not_found" || err.status === 404)) {
      text = "There is no finished match of that id on this service.";
    } else {
      text = `The match cannot be read: ${this.ctx.ui.explain(err)}`;
    }
    clear(this.body).append(...problemPanel(text, this.on));
  }

  // --- moving -----------------------------------------------------------------------------------------------
  go(index) {
    const next = Math.max(0, Math.min(this.frames.length - 1, index));
    if (next === this.at) return;
    this.at = next;
    this.drawStep();
  }

  nextHand() {
    this.go(handStart(this.frames, this.frames[this.at].hand + 1));
  }

  previousHand() {
    const frame = this.frames[this.at];
    const start = handStart(this.frames, frame.hand);
    this.go(this.at > start || frame.kind === "end" ? start : handStart(this.frames, Math.max(0, frame.hand - 1)));
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

  // --- drawing: the functions below, given what they draw --------------------------------------------------
  draw() {
    const names = this.names;
    this.page.querySelector("#page-title").textContent = `Replay: ${names[0]} vs ${names[1]}`;
    clear(this.body).append(...replayPage(this.doc, names, { frames: this.frames, show: this.show, games: this.gamesLink() }, this.on));
    this.stage = this.body.querySelector(".replay-stage");
    this.side = this.body.querySelector(".replay-side");
    this.drawStep();
  }

  /** The list of games the replay was opened from, to link back to: {href, label}, or null. */
  gamesLink() {
    const name = this.reviewedName();
    if (!name) return null;
    const mine = name.toLowerCase() === this.ctx.player()?.name.toLowerCase();
    return mine ? { href: pageHref("games"), label: "My games" } : { href: pageHref("players", name, "games"), label: `${playerLabel(name)}'s games` };
  }

  /** Whose games the replay was opened from (else the account's, else the match's first player's). */
  reviewedName() {
    const player = (this.doc.players || []).find((p) => p.player && p.type !== "bot")?.player;
    return this.options.as || this.ctx.player()?.name || player || null;
  }

  drawStep({ announce = true } = {}) {
    const frame = this.frames[this.at];
    const record = this.records[frame.hand];
    const names = this.names;
    const where = stepWhere(frame, this.records);
    paintStep(this.body, { frames: this.frames, at: this.at, show: this.show, names, where });
    // A move of the list had the focus: the list is drawn again, and the focus goes to the current move.
    const inList = this.side.contains(document.activeElement) && (document.activeElement.dataset.step || document.activeElement.dataset.mark);
    this.tip?.hide();
    if (frame.kind === "end") {
      clear(this.stage).append(matchEndPanel(this.doc, names));
      clear(this.side).append(this.reviewBox, handsTable(this.doc, this.standings, names));
    } else {
      const step = { doc: this.doc, names, show: this.show, frames: this.frames, standings: this.standings, marks: this.marks() };
      add(clear(this.stage), handStep(frame, record, step));
      add(clear(this.side), this.reviewBox, handSide(frame, record, step, this.on));
      showLatest(this.side.querySelector("#replay-moves")); // the current move (the last played) in sight, the top row whole
    }
    this.chat.mount(this.side, this.doc.players, { last: true });
    if (announce) say(this.body, frame.kind === "end" ? ["#replay-end h2"] : ["#replay-move", "#replay-verdict"], where);
    if (inList) (this.side.querySelector("[aria-current=step] button") || this.body.querySelector("[data-action=replay-next]"))?.focus();
    this.ctx.ui.setAddress?.(this.address(frame));
  }

  address(frame) {
    const params = new URLSearchParams();
    if (this.options.as) params.set("as", this.options.as);
    params.set("hand", frame.kind === "end" ? "end" : String(frame.hand + 1));
    if (frame.kind !== "end" && frame.step) params.set("move", String(frame.step));
    return `${pageHref("replay", this.gameId)}?${params}`;
  }

  // --- the master's review ------------------------------------------------------------------------------------
  /** The review's box (kept across the steps) and its request: read at once, asked for with its button. */
  startReview() {
    this.review?.stop();
    this.tip?.remove();
    this.tip = new ReviewTip();
    this.judged = new Map();
    this.reviewBox = reviewBox();
    this.review = new ReviewRequest(this.ctx.api, this.gameId, (state) => this.reviewChanged(state));
    this.review.load();
  }

  reviewChanged(state) {
    if (this.stopped) return;
    const had = this.judged.size > 0;
    this.judged = state.status === "done" ? judgedMoves(state.review) : new Map();
    const body = this.reviewBox.querySelector(".review-body");
    const focused = body.contains(document.activeElement);
    const explain = (err) => this.ctx.ui.explain(err);
    const shown = { status: state.status, review: state.review, long: state.long, trouble: state.trouble && explain(state.trouble), problem: state.status === "error" ? explain(state.error) : null };
    paintReview(this.reviewBox, shown, { names: this.names, records: this.records, frames: this.frames, show: this.show }, this.on);
    // The button pressed is gone: the focus goes to the new one to press, else to the box's heading.
    const next = ["none", "failed", "error"].includes(state.status) ? body.querySelector("button") : null;
    if (focused) (next || this.reviewBox.querySelector("#review-title")).focus();
    if (state.status === "done" || had) this.drawStep({ announce: false }); // the marks on the moves, the table
    // Said in the replay's own live region (the box is taken out and put back at each step).
    const said = reviewWords(state, this.names);
    const region = this.body.querySelector("#replay-said");
    if (said && region) region.textContent = said;
  }

  /** The review's marks as the drawing takes them: the judged moves, the deals they were judged over, the
   * popover the marks share. */
  marks() {
    return { judged: this.judged, samples: this.review?.state.review?.samples, tip: this.tip };
  }
}
