// Drawing one seat's game from its view: the scores, the opponent, the stock and the discard pile, the
// hand grouped in melds and deadwood, the moves on offer (only those of legal_actions), the editors for a
// knock or lay-offs, the end of a hand and of a game, the clocks, resigning, aborting, claiming, the end of
// the match and its rematch. Everything drawn comes from the service's answers.
//
// The drawing knows no controller: each function takes what it shows (the view, or the parts of it, and
// the few facts the page adds: the seat, the names, the editor, the hint…) and the callbacks of what the
// player may do there (`on.act(action)`, `on.openKnock()`…). It calls no API and changes no state: the
// seat's page (game.js) keeps the state, builds the table to draw (GameController.table()) and answers
// the callbacks.

import { CARD_KEYS, cardBack, cardFace, cardInline, cardName, cardPoints, cardText } from "./cards.js";
import { add, clear, h, showLatest } from "./dom.js";
import { clockWords } from "./lobby.js";
import { describeMove, findAction } from "./moves.js";
import { pageHref } from "./site.js";

export const END_TEXT = {
  knock: "{k} knocked",
  undercut: "{d} undercut {k}",
  gin: "{k} went gin",
  big_gin: "{k} went big gin",
  tie: "A tie: no score",
  wall: "The wall: the hand is cancelled",
  draw_limit: "Too many draws from the discard pile: the hand is cancelled",
};

/** How a match ended early (the view's end_reason), said of the seat that forfeited it. */
export const END_REASON = {
  resigned: "{f} resigned",
  timeout: "{f} lost on time",
  abandoned: "{f} left the game: it was claimed",
  aborted: "The game was aborted: no result",
};

const BONUS_LABELS = {
  game: "Game bonus",
  box: "Box bonus (per hand won)",
  shutout_hand_points: "Shutout (hand points doubled)",
  shutout_bonuses: "Shutout (bonuses doubled)",
};

export const STAT_LABELS = [
  ["hands_played", "Hands played"],
  ["hands_won", "Hands won"],
  ["knocks", "Knocks"],
  ["gins", "Gins"],
  ["big_gins", "Big gins"],
  ["undercuts_given", "Undercuts given"],
  ["undercuts_suffered", "Undercuts suffered"],
  ["walls", "Walls / cancelled"],
  ["points", "Hand points won"],
  ["avg_deadwood", "Average deadwood"],
  ["points_per_hand", "Points per hand"],
];

/** Text with cards: parts are strings, and card codes ("7H") become coloured inline cards. */
export function withCards(parts) {
  return parts.map((p) => (typeof p === "string" && /^[A2-9TJQK][CDHS]$/.test(p) ? cardInline(p) : p));
}

/** Whether the device has no fine pointer (a finger only): words then speak of tapping, not of keys. Some
 * phones report hover, so "(hover: none)" alone does not tell; the CSS hides the key letters likewise. */
export function touchOnly() {
  return Boolean(window.matchMedia) && !window.matchMedia("(any-pointer: fine)").matches;
}

/** " (D)" after an action's words, on a device with a keyboard. */
function keyHint(letter) {
  return touchOnly() ? "" : ` (${letter})`;
}

function button(label, action, onclick, { key, primary = false, title, disabled = false } = {}) {
  return h(
    "button",
    {
      type: "button",
      class: `btn ${primary ? "primary" : ""}`.trim(),
      "data-action": action,
      "data-focus": `btn:${action}`,
      title: title || (key ? `${label} (${key})` : label),
      "aria-keyshortcuts": key && key.length === 1 ? key.toUpperCase() : key || null,
      disabled,
      onclick,
    },
    label,
    key ? h("kbd", { "aria-hidden": "true" }, key) : null,
  );
}

/**
 * Draw one seat's game into `root`. `table` is what it shows, plain data (GameController.table()):
 *   view          the seat's view (null while loading); legal: its legal_actions
 *   seat, names   this seat; the players' names by seat ("You" for this one)
 *   yourMove, matchOver, againstBot, busy (a move is on its way)
 *   mode, editor  null, or "knock"/"layoff" and its editor (editor.js)
 *   hint, log     the hint asked for ({action, explanation}) or null; the hand's moves so far
 *   lastDrawn, freshDiscard   the card this seat just drew; the opponent's discard that just arrived
 *   clock         the clocks as of now ({times, running, move, perMove, bank}) or null
 *   claim         {kind: "time" | "idle", secondsLeft} when the waiting seat may claim the game, else null
 *   rating        the rated match's rating change ({pending} | {missing} | {family, before, after}) or null
 *   shuffle       {verified, commitments}: the fair-shuffle checks and commitments by hand number
 *   inviteLink    the link to send a friend, or null
 *   connection, helpOpen, confirming   the live feed's state; the help open; "resign"/"abort" being asked
 *   tournament    {id, name} of a tournament's game (after it: back there, no rematch), else null
 *   mayBerserk    whether to offer berserk (an arena's game, before this seat's first move)
 *   muted         whether the sounds are muted (the speaker switch in the top bar)
 *   online        whether the opponent, a person seated as a player, is online (true/false), or null: unknown
 * `on` is what the player may do, each a callback: act(action), openKnock({gin}), chooseKnockDiscard(card),
 * closeEditor(), editorToggle(card), editorMakeMeld(), editorBreak(index), editorBest(), editorLayOff(index),
 * editorTakeBack(card), editorConfirm(), askHint(), undo(), claimVictory(), confirmEnd(type | null),
 * confirmClosed(), endMatch(type), rematch(), berserk(), openRematch(gameId), leave(), openHelp(), helpClosed(),
 * toggleMute(), notice(text).
 */
export function renderGame(root, table, on) {
  const { view, names, yourMove, matchOver, mode, busy, helpOpen, confirming } = table;
  const screen = h("div", {
    id: "game",
    class: "game-screen",
    "data-phase": view?.phase || "loading",
    "data-version": view?.version ?? "",
    "data-hand": view?.hand_number ?? "",
    "data-my-turn": yourMove ? "yes" : "no",
    "data-over": matchOver ? "yes" : "no",
    "data-mode": mode || "play",
    "data-busy": busy ? "yes" : "no",
  });
  screen.append(topbar(table, on));
  if (!view) {
    screen.append(h("p", { class: "loading" }, "Loading the game…"));
    clear(root).append(screen);
    return;
  }
  const felt = h("section", { id: "felt", class: "felt", "aria-label": "Card table" });
  felt.append(handInfo(view, table.seat, names, "on-felt"), opponentArea(view, table.seat, names, matchOver, table.online));
  if (view.waiting_for_opponent && !matchOver) {
    felt.append(invitePanel(table.inviteLink, on.notice));
  } else if (view.result) {
    felt.append(resultPanel(table, on));
  } else if (matchOver) {
    felt.append(endedPanel(table, on)); // ended early: resigned, lost on time, claimed, aborted
  } else {
    // The knocker has laid down: no more draws, and the room goes to the melds to lay off onto.
    felt.append(view.knock ? h("div", { class: "center" }, knockArea(view.knock, table, on)) : centerArea(table, on.act));
    felt.append(h("p", { id: "prompt", class: "prompt", tabindex: "-1" }, prompt(table)));
    felt.append(handArea(table, on));
    felt.append(actionBar(table, on));
  }
  const board = h("div", { class: "board" }, felt, sidePanel(table));
  screen.append(board, helpDialog(on.helpClosed));
  if (confirming) screen.append(confirmDialog(confirming, names[1 - table.seat], view.rated, on));
  clear(root).append(screen);
  if (helpOpen) screen.querySelector("#help").showModal();
  if (confirming) screen.querySelector("#confirm").showModal();
  const log = screen.querySelector("#log");
  showLatest(log); // the latest move in sight, the top row whole
  const yourTurn = yourMove && !view.result;
  document.title = `${yourTurn ? "● Your turn — " : ""}Gin Rummy`;
}

// --- the top bar -----------------------------------------------------------------------------------------
function topbar({ view, seat, names, clock, connection, muted }, { leave, openHelp, toggleMute }) {
  const bar = h("header", { class: "topbar" });
  bar.append(
    h("button", { type: "button", class: "brand", "aria-label": "Gin Rummy: back to the start page (the game is kept)", title: "Back to the start page (the game is kept)", onclick: () => leave() }, h("span", { "aria-hidden": "true" }, "♠ "), h("span", { class: "word" }, "Gin Rummy")),
  );
  if (view) {
    bar.append(scoreboard(view, names));
    if (clock) bar.append(clocksBox(view.clock, clock, seat, names));
    bar.append(handInfo(view, seat, names, "in-header"));
  }
  bar.append(
    h("span", { id: "connection", class: "connection", "data-state": connection, title: "The live feed of the opponent's moves" },
      CONNECTION_WORDS[connection]),
    h("button", { type: "button", class: "icon sound", "aria-label": "Mute sounds", "aria-pressed": muted ? "true" : "false", title: muted ? "Sounds off: turn them on" : "Sounds on: mute them", "data-action": "mute", "data-focus": "mute", onclick: () => toggleMute() }, speakerIcon(muted)),
    h("button", { type: "button", class: "icon", "aria-label": "Keyboard help", title: "Keyboard help (?)", "data-action": "help", onclick: () => openHelp() }, "?"),
  );
  return bar;
}

const SVG = "http://www.w3.org/2000/svg";
const SPEAKER = "M4 9h4l5-4v14l-5-4H4z";
const WAVES = ["M16.5 8.5a5 5 0 0 1 0 7", "M19 6a8.5 8.5 0 0 1 0 12"];
const CROSS = ["M16 9l6 6", "M22 9l-6 6"];

/** The mute switch's speaker: sound waves, or a cross when muted. */
function speakerIcon(muted) {
  const icon = document.createElementNS(SVG, "svg");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("aria-hidden", "true");
  for (const d of [SPEAKER, ...(muted ? CROSS : WAVES)]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    if (d === SPEAKER) path.setAttribute("class", "body");
    icon.append(path);
  }
  return icon;
}

export const CONNECTION_WORDS = { live: "live", reconnecting: "reconnecting…", connecting: "connecting…", closed: "offline" };

/** Say the live feed's state on the dot of the page in `root` (a seat's or a spectator's), if it shows one. */
export function paintConnection(root, state) {
  const dot = root.querySelector("#connection");
  if (dot) {
    dot.dataset.state = state;
    dot.textContent = CONNECTION_WORDS[state];
  }
}

/** The hand's facts: its number, the dealer, the knock limit. In the header; on a phone, where the header
 * keeps two rows (the scores, then the clocks), on the felt instead (CSS shows one of the two). */
function handInfo(view, seat, names, where) {
  const info = [`Hand ${view.hand_number}`];
  if (typeof view.dealer === "number") info.push(view.dealer === seat ? "you dealt" : `${names[view.dealer]} dealt`);
  info.push(view.knock_limit ? `knock at ≤ ${view.knock_limit}` : "gin only");
  if (view.spades_double) info.push("spades double");
  if (view.rated) info.push("rated");
  return h(where === "in-header" ? "span" : "p", { class: `hand-info ${where}` }, info.map((bit, i) => [i ? " · " : "", h("span", { class: "bit" }, bit)]));
}

export function scoreboard(view, names) {
  const scores = view.scores || {};
  const games = scores.games || [];
  const rules = view.rules || {};
  const board = h("div", { class: "scoreboard", "aria-label": "Scores" });
  const shown = rules.hollywood ? games : games.slice(-1);
  for (const game of shown) {
    const points = game.points || [0, 0];
    const label = rules.hollywood || (rules.games || 1) > 1 ? `Game ${game.number}: ` : "";
    board.append(
      h("span", { class: "score", "data-game": game.number },
        label,
        h("b", {}, names[0]), ` ${points[0]}`, h("span", { class: "sep" }, " – "), h("b", {}, names[1]), ` ${points[1]}`),
    );
  }
  if (rules.target) board.append(h("span", { class: "target" }, `to ${rules.target}`));
  if ((rules.games || 1) > 1 && scores.games_won) {
    board.append(h("span", { class: "target" }, `games won ${scores.games_won[0]}–${scores.games_won[1]}`));
  }
  return board;
}

// --- the opponent ----------------------------------------------------------------------------------------
/** What the avatar of a seat (`player`, an entry of the view's players) shows of its presence: "bot" (a
 * house bot is always there: no dot), "online" or "offline" for a person seated as a player (`online` as
 * its profile says), else "none" (an anonymous seat, or not known yet: no dot). */
function presenceOf(player, online) {
  if (player?.type === "bot") return "bot";
  if (!player?.player || typeof online !== "boolean") return "none";
  return online ? "online" : "offline";
}

/** An avatar: the initial of the seat's name in a circle of a colour the name gives (the same name, the same
 * colour), a bot's in a rounded square, with the online dot (`presence`: presenceOf). The name beside it
 * says who it is: the avatar itself is hidden from screen readers. */
function avatar(player, presence) {
  const name = player?.name || player?.bot || "";
  let hash = 0;
  for (const ch of name.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return h("span", { class: `avatar ${presence === "bot" ? "bot" : ""}`.trim(), "data-presence": presence, "aria-hidden": "true",
    style: { backgroundColor: name ? `hsl(${hash % 360}, 48%, 34%)` : "#546e7a" } },
  name ? [...name][0].toUpperCase() : "?",
  presence === "online" || presence === "offline" ? h("span", { class: "dot" }) : null);
}

function opponentArea(view, seat, names, matchOver, online) {
  const opp = view.opponent || {};
  const oppSeat = 1 - seat;
  const known = opp.known_cards || [];
  const laidDown = view.knock && view.knock.knocker === oppSeat;
  const area = h("section", { class: "opponent", "aria-label": `${names[oppSeat]}'s hand` });
  const tags = [];
  if (view.dealer === oppSeat) tags.push(h("span", { class: "chip" }, "dealer"));
  if (view.turn === oppSeat && !view.result && !view.waiting_for_opponent) tags.push(h("span", { class: "chip turn" }, "to play"));
  const player = (view.players || []).find((p) => p && p.seat === oppSeat);
  const presence = presenceOf(player, online);
  const dot = presence === "online" || presence === "offline";
  const face = avatar(player, presence);
  if (dot) face.title = `${names[oppSeat]} is ${presence}`;
  area.append(h("div", { class: "who" }, face, h("span", { class: "name" }, names[oppSeat]),
    dot ? h("span", { class: "visually-hidden" }, ` (${presence})`) : null,
    h("span", { class: "count" }, `${opp.card_count ?? "?"} cards`), tags));
  const cards = h("div", { id: "opponent-hand", class: "opp-cards" });
  if (matchOver && !view.result) {
    cards.append(h("span", { class: "note" }, "the game is over"));
  } else if (view.result || laidDown) {
    cards.append(h("span", { class: "note" }, laidDown && !view.result ? "laid down on the table" : "shown below"));
  } else {
    const hidden = Math.max(0, (opp.card_count || 0) - known.length);
    for (let i = 0; i < hidden; i++) cards.append(cardBack({ small: true }));
    for (const card of known) {
      cards.append(cardFace(card, { small: true, extraClass: "known", label: `${cardName(card)} (known: taken from the pile)` }));
    }
    cards.setAttribute("aria-label", `${hidden} hidden cards` + (known.length ? `, known: ${known.map(cardName).join(", ")}` : ""));
    cards.setAttribute("role", "group");
  }
  area.append(cards);
  return area;
}

// --- stock and discard pile --------------------------------------------------------------------------------
function centerArea({ view, legal, hint, freshDiscard }, act) {
  const center = h("div", { class: "center" });
  const drawStock = findAction(legal, { type: "draw", source: "stock" });
  const takePile = findAction(legal, { type: "draw", source: "discard" });
  const hinted = hint?.action || {};

  // The stock and the pile's top card are controls only while the view offers that draw.
  const stock = h("div", { id: "stock", class: "stock" });
  const stockLabel = `Stock: ${view.stock_size} cards` + (drawStock ? ` — draw the top card${keyHint("D")}` : "");
  const stockCard = drawStock
    ? h("button", {
      type: "button",
      class: `card back big playable ${hinted.type === "draw" && hinted.source === "stock" ? "hinted" : ""}`,
      "aria-label": stockLabel,
      title: stockLabel,
      "data-action": "draw-stock",
      "data-focus": "stock",
      onclick: () => act(drawStock),
    })
    : h("div", { class: "card back big", role: "img", "aria-label": stockLabel, title: stockLabel });
  stock.append(stockCard, h("span", { class: "pile-label" }, `Stock ${view.stock_size}`));

  const pileCards = view.discard_pile || [];
  const pile = h("div", { id: "pile", class: "pile" });
  const fan = h("div", { class: "fan" });
  const under = pileCards.slice(-5, -1);
  for (const card of under) fan.append(cardFace(card, { extraClass: "under" }));
  const top = pileCards[pileCards.length - 1];
  if (top) {
    const label = `Discard pile, top: ${cardName(top)}` + (takePile ? ` — take it${keyHint("P")}` : "");
    fan.append(
      cardFace(top, {
        label,
        extraClass: `big top ${takePile ? "playable" : ""} ${freshDiscard === top ? "fresh" : ""} ${hinted.type === "draw" && hinted.source === "discard" ? "hinted" : ""}`,
        onclick: takePile ? () => act(takePile) : null,
        attrs: takePile ? { id: "pile-top", "data-action": "draw-pile", "data-focus": "pile" } : { id: "pile-top" },
      }),
    );
  } else {
    fan.append(h("div", { class: "card empty big", id: "pile-top", "aria-label": "The discard pile is empty", role: "img" }));
  }
  pile.append(fan, h("span", { class: "pile-label" }, view.phase.startsWith("upcard") ? "Upcard" : `Discard pile ${pileCards.length}`));
  // Drag a card of the hand onto the pile to discard it (only cards the view lets go are draggable).
  pile.addEventListener("dragover", (e) => {
    if (e.dataTransfer.types.includes("text/x-card") && legal.some((a) => a.type === "discard")) {
      e.preventDefault();
      pile.classList.add("drop");
    }
  });
  pile.addEventListener("dragleave", () => pile.classList.remove("drop"));
  pile.addEventListener("drop", (e) => {
    e.preventDefault();
    pile.classList.remove("drop");
    const card = e.dataTransfer.getData("text/x-card");
    const discard = card && findAction(legal, { type: "discard", card });
    if (discard) act(discard);
  });
  center.append(stock, pile);
  if (pileCards.length > 1) {
    center.append(
      h("details", { class: "whole-pile" },
        h("summary", {}, `The whole pile (${pileCards.length})`),
        h("p", { class: "pile-list" }, [...pileCards].reverse().map((c, i) => [i ? " " : "", cardInline(c)]))),
    );
  }
  return center;
}

/** The knocker's melds laid down: the defender's lay-off targets (numbered), or the knocker's own view. */
function knockArea(knock, { seat, names, mode, editor: open }, { editorTakeBack, editorLayOff }) {
  const mine = knock.knocker === seat;
  const editor = mode === "layoff" ? open : null;
  const kind = knock.big_gin ? "went big gin" : knock.gin ? "went gin" : "knocked";
  const area = h("section", { class: "knock-area", "aria-label": "The knocker's melds" });
  area.append(h("h3", {}, `${names[knock.knocker]} ${kind} · deadwood ${knock.deadwood}`));
  const targets = h("div", { class: "targets" });
  (knock.melds || []).forEach((meld, i) => {
    const laid = editor ? editor.laidOn(i) : [];
    const label = `Meld ${i + 1}: ${meld.map(cardText).join(" ")}` + (laid.length ? `, laid off: ${laid.map(cardText).join(" ")}` : "");
    const cards = [
      ...meld.map((c) => cardFace(c, { small: true })),
      ...laid.map((c) =>
        cardFace(c, {
          small: true,
          extraClass: "laid-off",
          label: `${cardName(c)}, laid off: take it back`,
          onclick: (e) => {
            e.stopPropagation();
            editorTakeBack(c);
          },
          attrs: { "data-focus": `laid:${c}` },
        }),
      ),
    ];
    const target = editor && !editor.noLayoffs
      ? h("div", { class: "target meld", role: "group", "aria-label": label },
          h("button", { type: "button", class: "target-btn", "data-action": `layoff-onto-${i + 1}`, "data-focus": `target:${i}`,
            "aria-label": `Lay the picked cards off onto meld ${i + 1}`, title: `Lay the picked cards off onto meld ${i + 1} (Shift+${i + 1})`,
            onclick: () => editorLayOff(i) }, h("span", {}, `${i + 1}`), h("kbd", { "aria-hidden": "true" }, `⇧${i + 1}`)),
          cards)
      : h("div", { class: "target meld", role: "group", "aria-label": label }, cards);
    targets.append(target);
  });
  area.append(targets);
  if ((knock.deadwood_cards || []).length) {
    area.append(h("div", { class: "knock-deadwood" }, h("span", {}, "Deadwood "), knock.deadwood_cards.map((c) => cardFace(c, { small: true }))));
  }
  if (mine && knock.discard) area.append(h("p", { class: "note" }, "You discarded ", cardInline(knock.discard), " face down."));
  return area;
}

// --- what to do -----------------------------------------------------------------------------------------
function prompt({ view, legal, seat, names, busy, yourMove, mode }) {
  const opp = names[1 - seat];
  if (busy) return "…";
  if (!yourMove) return view.turn === null ? "Waiting for the next deal…" : `Waiting for ${opp}…`;
  const top = (view.discard_pile || []).slice(-1)[0];
  const has = (type, extra = {}) => Boolean(findAction(legal, { type, ...extra }));
  const touch = touchOnly();
  if (mode === "knock") {
    return touch
      ? "Knock: choose the card to discard face down. Keep the best melds, or tap cards and Make meld for your own."
      : "Knock: pick the card to discard face down, then arrange your melds (pick cards, M makes a meld) or keep the best. Enter knocks.";
  }
  if (mode === "layoff") {
    const k = names[view.knock?.knocker];
    return view.knock?.gin || view.knock?.big_gin
      ? `${k} went gin: lay down your melds (no lay-offs).` + (touch ? "" : " Enter lays down, L takes the best.")
      : `${k} knocked. Make your melds and lay off loose cards onto ${k}'s melds (pick a card, then a meld), or take the best${touch ? "" : " (L)"}.`;
  }
  const key = (letter) => (touch ? "" : ` (${letter})`); // no keyboard letters on a touch screen
  if (view.phase.startsWith("upcard")) return withCards(["Take the upcard ", top, `${key("P")} or pass${key("N")}.`]);
  if (has("draw")) return withCards([`Your turn: draw from the stock${key("D")}`, ...(has("draw", { source: "discard" }) && top ? [" or take ", top, ` from the pile${key("P")}`] : []), "."]);
  if (has("discard") || has("knock")) {
    let text = touch ? "Tap a card to discard it." : "Discard a card: click it, drag it onto the pile, or press its number then Enter.";
    if (legal.some((a) => a.type === "knock" && a.discard === null)) text += ` Big gin is on${key("B")}!`;
    else if (ginOnOffer(view.hand, legal)) text += ` You can go gin${key("G")}!`;
    else if (has("knock")) text += ` You may knock${key("K")}.`;
    return text;
  }
  if (has("deal")) return `Deal the next hand${key("Enter")}.`;
  return "Your move.";
}

/** Whether a knock on offer leaves no deadwood (the hand's analysis: the deadwood after each discard). */
function ginOnOffer(hand, legal) {
  const after = new Map((hand?.discards || []).map((d) => [d.card, d.deadwood]));
  return legal.some((a) => a.type === "knock" && a.discard && after.get(a.discard) === 0);
}

function actionBar({ view, legal, seat, names, hint, mode, editor, againstBot, claim, mayBerserk }, on) {
  const bar = h("div", { class: "actions", role: "toolbar", "aria-label": "Moves" });
  const top = (view.discard_pile || []).slice(-1)[0];
  const hinted = hint?.action?.type;
  const mark = (btn, type) => {
    if (hinted === type) btn.classList.add("hinted");
    return btn;
  };
  if (mode === "knock") {
    const isGin = editor.choices.find((c) => c.card === editor.discard)?.deadwood === 0;
    bar.append(
      button(isGin ? "Go gin" : "Knock", "knock-confirm", () => on.editorConfirm(), { key: "Enter", primary: true, disabled: editor.analyzing }),
      button("Make meld", "make-meld", () => on.editorMakeMeld(), { key: "m" }),
      button("Best arrangement", "best", () => on.editorBest(), { key: "r" }),
      button("Cancel", "cancel", () => on.closeEditor(), { key: "Esc" }),
    );
    return bar;
  }
  if (mode === "layoff") {
    bar.append(
      button("Lay down", "layoff-confirm", () => on.editorConfirm(), { key: "Enter", primary: true }),
      button("Make meld", "make-meld", () => on.editorMakeMeld(), { key: "m" }),
      button("Reset to best", "best", () => on.editorBest(), { key: "r" }),
      mark(button("Lay off: best", "layoff-best", () => on.act({ type: "layoff", best: true }), { key: "l" }), "layoff"),
    );
    return bar;
  }
  for (const action of legal) {
    if (action.type === "draw" && action.source === "stock") {
      bar.append(mark(button("Draw from stock", "draw-stock", () => on.act(action), { key: "d", primary: true }), "draw"));
    } else if (action.type === "draw") {
      const label = top ? `Take ${cardText(top)}` : "Take the discard";
      bar.append(button(label, "draw-pile", () => on.act(action), { key: "p", primary: !legal.some((a) => a.type === "draw" && a.source === "stock") }));
    } else if (action.type === "pass") {
      bar.append(mark(button("Pass", "pass", () => on.act(action), { key: "n" }), "pass"));
    } else if (action.type === "deal") {
      bar.append(button("Deal", "deal", () => on.act(action), { key: "Enter", primary: true }));
    }
  }
  const knocks = legal.filter((a) => a.type === "knock" && a.discard);
  if (knocks.length) {
    const gin = ginOnOffer(view.hand, legal);
    if (gin) bar.append(mark(button("Gin…", "gin", () => on.openKnock({ gin: true }), { key: "g", primary: true }), "knock"));
    bar.append(mark(button("Knock…", "knock", () => on.openKnock(), { key: "k", primary: !gin }), "knock"));
  }
  if (legal.some((a) => a.type === "knock" && a.discard === null)) {
    bar.append(button("Big gin", "big-gin", () => on.act({ type: "knock", discard: null }), { key: "b", primary: true }));
  }
  // What the service offers: hints and undo against a bot only (not rated, not in a tournament), undo
  // while there is a move to take back.
  if (view.can_hint) bar.append(button("Hint", "hint", () => on.askHint(), { key: "h" }));
  if (againstBot && !view.rated && !view.tournament) {
    const undo = button("Undo", "undo", () => on.undo(), { key: "u", title: "Take back your last move (U)" });
    undo.disabled = !view.can_undo;
    bar.append(undo);
  }
  if (mayBerserk) {
    bar.append(button("Berserk ⚡", "berserk", () => on.berserk(), { title: "Half your clock and no increment, before your first move: a win scores one point more" }));
  }
  if (claim) {
    const opp = names[1 - seat];
    const why = claim.kind === "time" ? `${opp}'s time is up` : `${opp} may have left the game`;
    // Certain when the opponent's time is up (the primary button); otherwise only the service knows.
    // The big button once the claim is open (the time is up, or the service's wait is over); a quiet,
    // disabled countdown before.
    const open = claim.kind === "time" || !claim.secondsLeft;
    const claimButton = button("Claim victory", "claim-victory", () => on.claimVictory(), { primary: open, title: `${why}: claim the game` });
    if (!open) claimButton.classList.add("quiet");
    bar.append(claimButton);
    claimCountdown(claimButton, claim.secondsLeft);
  }
  return h("div", { class: "action-area" }, bar, endingBar(legal, names[1 - seat], on.confirmEnd));
}

/** The claim button of the page in `root`, while the service's "too early" runs (called at each tick). */
export function paintClaim(root, secondsLeft) {
  const claim = root.querySelector("[data-action=claim-victory]");
  if (claim) claimCountdown(claim, secondsLeft);
}

/** The claim button: disabled, counting down, while there are `left` seconds to wait. */
function claimCountdown(claim, left) {
  const text = left ? `Claim victory in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "Claim victory";
  if (claim.textContent !== text) claim.textContent = text;
  claim.disabled = Boolean(left);
  claim.classList.toggle("primary", !left);
  claim.classList.toggle("quiet", Boolean(left));
}

/** Resign and abort, when legal: apart from the moves, and each asks first. */
function endingBar(legal, opponent, confirmEnd) {
  const abort = findAction(legal, { type: "abort" });
  const resign = findAction(legal, { type: "resign" });
  if (!abort && !resign) return null;
  return h("div", { class: "ending", role: "group", "aria-label": "End the game" },
    abort ? h("button", { type: "button", class: "btn quiet", "data-action": "abort", "data-focus": "btn:abort", title: "Call the game off: no result (before the first card is drawn)", onclick: () => confirmEnd("abort") }, "Abort") : null,
    resign ? h("button", { type: "button", class: "btn quiet", "data-action": "resign", "data-focus": "btn:resign", title: `Resign: ${opponent} wins the match`, onclick: () => confirmEnd("resign") }, "Resign…") : null);
}

// --- the hand ---------------------------------------------------------------------------------------------
function handArea({ view, legal, names, mode, editor, hint, lastDrawn }, on) {
  const hand = view.hand || {};
  const section = h("section", { class: "my-hand", "aria-label": "Your hand" });
  const row = h("div", { id: "my-hand", class: "hand" });
  let keyIndex = 0;
  const nextKey = () => CARD_KEYS[keyIndex++];

  if (mode === "knock") {
    section.append(knockChoices(editor, on.chooseKnockDiscard));
    if (editor.analyzing) {
      row.append(h("p", { class: "note" }, "Arranging…"));
    } else {
      editor.melds.forEach((meld, i) => row.append(editorGroup(editor, meld, i, nextKey, on)));
      add(row, looseGroup(editor, nextKey, on.editorToggle));
    }
    section.append(row);
    if (editor.bestDeadwood !== null && !editor.analyzing) {
      section.append(
        h("p", { class: "hand-summary" }, editor.edited ? "Your own arrangement: the service counts its deadwood when you knock." : `Best arrangement: deadwood ${editor.bestDeadwood}.`),
      );
    }
    return section;
  }
  if (mode === "layoff") {
    editor.melds.forEach((meld, i) => row.append(editorGroup(editor, meld, i, nextKey, on)));
    add(row, looseGroup(editor, nextKey, on.editorToggle));
    section.append(row, layoffCount(view, editor, names));
    return section;
  }

  const after = new Map((hand.discards || []).map((d) => [d.card, d.deadwood]));
  const bestAfter = after.size ? Math.min(...after.values()) : null;
  const discardable = new Set(legal.filter((a) => a.type === "discard").map((a) => a.card));
  const hinted = hint?.action;
  const hintedCard = hinted && (hinted.card || hinted.discard);
  const card = (c) => {
    const key = nextKey();
    const deadwood = after.get(c);
    let label = cardName(c);
    if (deadwood !== undefined) label += `, deadwood ${deadwood} after discarding it`;
    if (c === lastDrawn) label += ", just drawn";
    const el = cardFace(c, {
      label,
      keyLabel: key,
      badge: deadwood !== undefined ? `${deadwood}` : null,
      extraClass: [
        discardable.has(c) ? "playable" : "",
        c === lastDrawn ? "drawn" : "",
        c === hintedCard ? "hinted" : "",
        deadwood !== undefined && deadwood === bestAfter ? "best" : "",
      ].join(" "),
      // A card is a control (click, Enter, drag onto the pile) only while the view offers its discard.
      onclick: discardable.has(c) ? () => on.act(findAction(legal, { type: "discard", card: c })) : null,
      attrs: { "data-key": key, "data-focus": `card:${c}`, "data-after": deadwood ?? null, draggable: discardable.has(c) ? "true" : null },
    });
    if (discardable.has(c)) {
      el.addEventListener("dragstart", (e) => {
        e.dataTransfer.setData("text/x-card", c);
        e.dataTransfer.effectAllowed = "move";
      });
    }
    return el;
  };
  for (const meld of hand.melds || []) {
    row.append(h("div", { class: "group meld", role: "group", "aria-label": `Meld: ${meld.map(cardText).join(" ")}` }, meld.map(card)));
  }
  const dead = hand.deadwood_cards || [];
  if (dead.length) {
    // The label first: a raised card is drawn over it, not under it.
    row.append(h("div", { class: "group deadwood", role: "group", "aria-label": `Deadwood ${hand.deadwood}` }, h("span", { class: "group-label", "aria-hidden": "true" }, `deadwood ${hand.deadwood}`), dead.map(card)));
  }
  section.append(row);
  const melds = (hand.melds || []).length;
  let summary = `Deadwood ${hand.deadwood ?? "?"} · ${melds} meld${melds === 1 ? "" : "s"}`;
  if (bestAfter !== null) summary += ` · the number on a card: deadwood after discarding it (best ${bestAfter})`;
  section.append(h("p", { class: "hand-summary", id: "deadwood" }, summary));
  return section;
}

/** The defender's deadwood as the chosen melds and lay-offs leave it (the points of the loose cards: the
 * service counts it so when it checks the choice), beside the knocker's, and what that means. */
function layoffCount(view, editor, names) {
  const knock = view.knock || {};
  const k = names[knock.knocker] ?? "The knocker";
  const mine = editor.loose().reduce((sum, card) => sum + cardPoints(card), 0);
  const theirs = knock.deadwood ?? 0;
  let verdict;
  let words;
  if (knock.gin || knock.big_gin) {
    verdict = "gin";
    words = `${k} went ${knock.big_gin ? "big gin" : "gin"}: ${k} scores it.`;
  } else if (mine < theirs || (mine === theirs && view.rules?.undercut_on_tie !== false)) {
    verdict = "undercut";
    words = `${mine < theirs ? "less than" : "as much as"} ${k}'s ${theirs}: you undercut ${k}!`;
  } else if (mine === theirs) {
    verdict = "tie";
    words = `as much as ${k}'s ${theirs}: a tie, nobody scores.`;
  } else {
    verdict = "knocker";
    words = `more than ${k}'s ${theirs}: ${k} wins the hand.`;
  }
  const melds = editor.melds.length;
  const laid = editor.layoffs.length;
  return h("p", { id: "layoff-count", class: `hand-summary layoff-count ${verdict}`, "data-deadwood": mine, "data-verdict": verdict },
    h("b", {}, `Your deadwood: ${mine}`), ` — ${words}`,
    h("span", { class: "detail" }, ` ${melds} meld${melds === 1 ? "" : "s"}, ${laid} card${laid === 1 ? "" : "s"} laid off ${editor.edited ? "(your choice)" : "(the best)"}.`));
}

function knockChoices(editor, chooseKnockDiscard) {
  const row = h("div", { class: "knock-choices", role: "radiogroup", "aria-label": "The card to discard face down" });
  row.append(h("span", { class: "label" }, "Discard face down:"));
  for (const choice of editor.choices) {
    const chosen = choice.card === editor.discard;
    row.append(
      cardFace(choice.card, {
        small: true,
        extraClass: chosen ? "chosen" : "",
        badge: choice.deadwood ?? null,
        label: `Discard ${cardName(choice.card)} face down` + (choice.deadwood !== null ? ` (deadwood ${choice.deadwood})` : ""),
        onclick: () => chooseKnockDiscard(choice.card),
        attrs: { role: "radio", "aria-checked": chosen ? "true" : "false", "data-focus": `choice:${choice.card}`, "data-choice": choice.card },
      }),
    );
  }
  return row;
}

function editorGroup(editor, meld, index, nextKey, { editorToggle, editorBreak }) {
  return h(
    "div",
    { class: "group meld editing", role: "group", "aria-label": `Meld ${index + 1}: ${meld.map(cardText).join(" ")}` },
    meld.map((c) => editorCard(c, editor.selected.has(c), nextKey(), editorToggle)),
    h("button", { type: "button", class: "break", "data-action": `break-${index + 1}`, "aria-label": `Take meld ${meld.map(cardText).join(" ")} apart`, title: "Take this meld apart", onclick: () => editorBreak(index) }, "✕"),
  );
}

/** The editor's cards in no meld: the deadwood as it stands. */
function looseGroup(editor, nextKey, editorToggle) {
  const cards = editor.loose();
  if (!cards.length) return null;
  return h("div", { class: "group deadwood editing", role: "group", "aria-label": "Deadwood" }, h("span", { class: "group-label", "aria-hidden": "true" }, "deadwood"), cards.map((c) => editorCard(c, editor.selected.has(c), nextKey(), editorToggle)));
}

function editorCard(card, selected, key, editorToggle) {
  return cardFace(card, {
    keyLabel: key,
    label: `${cardName(card)}${selected ? ", picked" : ""}`,
    extraClass: selected ? "selected" : "",
    onclick: () => editorToggle(card),
    attrs: { "data-key": key, "data-focus": `card:${card}`, "aria-pressed": selected ? "true" : "false" },
  });
}

// --- the invitation ----------------------------------------------------------------------------------------
function invitePanel(link, notice) {
  const panel = h("section", { class: "invite", "aria-label": "Invite a friend" });
  panel.append(h("h2", {}, "Invite a friend"));
  if (link) {
    const input = h("input", { id: "invite-link", type: "text", readonly: true, value: link, "aria-label": "Invitation link", onfocus: (e) => e.target.select() });
    const copy = h("button", {
      type: "button",
      class: "btn primary",
      id: "copy-link",
      "data-action": "copy-link",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          notice("The invitation link is copied: send it to your friend.");
        } catch {
          input.select();
          document.execCommand?.("copy");
          notice("Select the link and copy it (Ctrl+C).");
        }
      },
    }, "Copy link");
    panel.append(
      h("p", {}, "Send this link to the person you want to play with. Opening it joins this game as your opponent; it works once."),
      h("div", { class: "invite-row" }, input, copy),
    );
  }
  panel.append(h("p", { class: "waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Waiting for your opponent to join…"));
  return panel;
}

// --- the end of a hand, of a game ---------------------------------------------------------------------------
function resultPanel(table, on) {
  const { view, legal, seat, names, matchOver, rating, shuffle } = table;
  const number = view.hand_number;
  const panel = h("section", { id: "result", class: "result", "aria-label": `Hand ${number} result` });
  if (view.end_reason) panel.append(matchEnd(view, names)); // ended early between two hands
  if (matchOver) add(panel, ratingChange(view, rating));
  panel.append(h("h2", { tabindex: "-1" }, `Hand ${number}: ${handHeading(view.result || {}, names)}`));
  add(panel, handDetails(view.result || {}, names));
  panel.append(shuffleLine(shuffle.verified[number], shuffle.commitments[number] || view.commitment || ""));
  const finished = finishedGames(view);
  if (finished.length) panel.append(gameOverPanel(view, names, finished));
  const deal = findAction(legal, { type: "deal" });
  if (matchOver) {
    panel.append(matchActions(table, on));
    return panel;
  }
  const actions = h("div", { class: "actions" });
  if (deal) {
    const next = view.phase === "game_over" ? "Deal the next game" : "Deal the next hand";
    actions.append(button(next, "deal", () => on.act(deal), { key: "Enter", primary: true }));
  } else {
    actions.append(h("p", { class: "note" }, `Waiting for ${names[1 - seat]} to deal…`));
  }
  add(actions, endingBar(legal, names[1 - seat], on.confirmEnd));
  panel.append(actions);
  return panel;
}

/** The match ended before a hand's result: why, who won, the totals, the rematch. */
function endedPanel(table, on) {
  const { view, names, rating } = table;
  const panel = h("section", { id: "ended", class: "result", "aria-label": "Game over" });
  panel.append(matchEnd(view, names));
  add(panel, ratingChange(view, rating));
  panel.append(matchActions(table, on)); // the rematch in sight, above the totals
  const finished = finishedGames(view);
  if (finished.length) panel.append(gameOverPanel(view, names, finished));
  return panel;
}

/** How the match ended, in words: "Bob resigned · You win the match". */
export function matchEnd(view, names) {
  const scores = view.scores || {};
  const parts = [];
  const reason = END_REASON[view.end_reason];
  if (reason) parts.push(reason.replace("{f}", names[view.forfeited_by] ?? "A player"));
  const w = scores.match_winner;
  if (typeof w === "number" && view.end_reason !== "aborted") parts.push(`${names[w]} ${names[w] === "You" ? "win" : "wins"} the match`);
  if (!parts.length) parts.push("The match is over");
  return h("section", { id: "match-end", class: "match-end", "data-reason": view.end_reason || "played" },
    h("h2", { tabindex: "-1" }, parts.join(" · ")));
}

/** A rated match's effect on this seat's rating: "Your standard rating: 1500? → 1532 (+32)" once the
 * archive has written it (`rating`, from game.js), "Your new rating is being worked out…" until then. */
function ratingChange(view, rating) {
  if (!view.rated || !rating) return null;
  const box = h("p", { id: "rating-change", class: "rating-change", role: "status" });
  if (rating.pending) {
    box.dataset.state = "pending";
    box.textContent = "Your new rating is being worked out…";
    return box;
  }
  if (rating.missing) {
    box.dataset.state = "missing";
    box.textContent = "Your new rating will be on your profile in a moment.";
    return box;
  }
  const shown = (r) => `${r.rating}${r.provisional ? "?" : ""}`;
  const after = rating.after;
  const delta = rating.before ? after.rating - rating.before.rating : null;
  const sign = delta === null ? "" : delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "±0";
  box.dataset.state = "done";
  box.dataset.delta = delta === null ? "" : String(delta);
  box.classList.toggle("up", delta > 0);
  box.classList.toggle("down", delta < 0);
  add(box,
    `Your ${rating.family ? `${rating.family} ` : ""}rating: `,
    rating.before ? [h("span", { class: "before" }, shown(rating.before)), " → "] : null,
    h("b", { class: "after" }, shown(after)),
    delta === null ? " (your first rated game)" : h("span", { class: "delta" }, ` (${sign})`),
    after.provisional ? h("small", {}, " · ? provisional: a few more games settle it") : null);
  return box;
}

/** After the match: the rematch (offer, accept, waiting, open) and a new game. */
function matchActions({ view, legal, seat, names, againstBot, tournament }, { openRematch, rematch: offerRematch, leave }) {
  const rematch = view.rematch || {};
  const offered = rematch.offered_by || [];
  const opp = names[1 - seat];
  const actions = h("div", { class: "actions rematch", id: "rematch" });
  if (tournament) { // its next game is paired there
    actions.append(h("a", { class: "btn primary", href: pageHref("tournaments", tournament.id), "data-action": "back-to-tournament" }, tournament.name ? `Back to ${tournament.name}` : "Back to the tournament"));
    return actions;
  }
  let main = false;
  if (rematch.game_id) {
    actions.append(button("Play the rematch", "open-rematch", () => openRematch(rematch.game_id), { primary: true }));
    main = true;
  } else if (findAction(legal, { type: "rematch" })) {
    if (offered.includes(1 - seat)) {
      actions.append(h("p", { class: "offer" }, `${opp} offers a rematch.`));
      actions.append(button("Accept the rematch", "rematch", () => offerRematch(), { primary: true, title: "The same rules; the other player deals first" }));
    } else {
      actions.append(button("Rematch", "rematch", () => offerRematch(), { primary: true, title: againstBot ? "Play again: the same rules, the other player deals first" : `Offer ${opp} a rematch` }));
    }
    main = true;
  } else if (offered.includes(seat)) {
    actions.append(h("p", { class: "waiting", role: "status", "data-state": "rematch-offered" }, h("span", { class: "spinner", "aria-hidden": "true" }), `Rematch offered — waiting for ${opp}…`));
  }
  actions.append(button("New game", "new-game", () => leave(), { primary: !main }));
  return actions;
}

/** How a hand ended, from its result: "Bob knocked · Bob scores 12". */
export function handHeading(result, names) {
  const outcome = result.outcome || {};
  const kSeat = result.knocker ? result.knocker.seat : outcome.knocker ?? 0;
  const dSeat = result.defender ? result.defender.seat : 1 - kSeat;
  const end = outcome.end || "over";
  let heading = (END_TEXT[end] || end).replace("{k}", names[kSeat]).replace("{d}", names[dSeat]);
  if (typeof outcome.winner === "number") heading += ` · ${names[outcome.winner]} ${names[outcome.winner] === "You" ? "score" : "scores"} ${outcome.points}`;
  return heading;
}

/** Both arrangements of a finished hand (the knocker's, the defender's with its lay-offs) and how its
 * points were counted. */
export function handDetails(result, names) {
  const outcome = result.outcome || {};
  const knocker = result.knocker;
  const defender = result.defender;
  const kSeat = knocker ? knocker.seat : outcome.knocker ?? 0;
  const dSeat = defender ? defender.seat : 1 - kSeat;
  const end = outcome.end || "over";
  const parts = [];
  if (knocker) {
    parts.push(arrangementRow(`${names[kSeat]} ${end === "gin" ? "(gin)" : end === "big_gin" ? "(big gin)" : "(knocker)"}`, knocker, null));
    parts.push(arrangementRow(`${names[dSeat]} (defender)`, defender || {}, knocker.melds || []));
  } else {
    (result.arrangements || []).forEach((arr, seat) => parts.push(arrangementRow(names[seat], arr, null)));
  }
  if (typeof outcome.winner === "number") parts.push(h("p", { class: "points" }, pointsText(outcome, names)));
  return parts;
}

function arrangementRow(title, arrangement, knockerMelds) {
  const row = h("div", { class: "arrangement" });
  row.append(h("h3", {}, title));
  const groups = h("div", { class: "groups" });
  for (const meld of arrangement.melds || []) {
    groups.append(h("div", { class: "group meld", role: "group", "aria-label": `Meld: ${meld.map(cardText).join(" ")}` }, meld.map((c) => cardFace(c, { small: true }))));
  }
  if (!(arrangement.melds || []).length) groups.append(h("span", { class: "note" }, "no melds"));
  const dead = arrangement.deadwood_cards || [];
  if (dead.length) {
    groups.append(h("div", { class: "group deadwood", role: "group", "aria-label": `Deadwood ${arrangement.deadwood}` }, dead.map((c) => cardFace(c, { small: true }))));
  }
  row.append(groups);
  const facts = [`deadwood ${arrangement.deadwood ?? 0}`];
  const line = h("p", { class: "facts" }, facts.join(""));
  if (arrangement.discard) line.append(" · discarded ", cardInline(arrangement.discard), " face down");
  row.append(line);
  const layoffs = arrangement.layoffs || [];
  if (knockerMelds && layoffs.length) {
    const byMeld = new Map();
    for (const l of layoffs) byMeld.set(l.meld, [...(byMeld.get(l.meld) || []), l.card]);
    const list = h("ul", { class: "layoffs", "aria-label": "Lay-offs" });
    for (const [index, cards] of byMeld) {
      const target = knockerMelds[index] || [];
      list.append(h("li", {}, "laid off ", cards.map((c, i) => [i ? " " : "", cardInline(c)]), ` on meld ${index + 1} `, h("span", { class: "meld-text" }, "[", target.map((c, i) => [i ? " " : "", cardInline(c)]), "]")));
    }
    row.append(list);
  } else if (knockerMelds) {
    row.append(h("p", { class: "facts" }, "no lay-offs"));
  }
  return row;
}

/** How the hand's points were counted, in the order of the subtraction: a knock scores the defender's
 * deadwood minus the knocker's, an undercut the knocker's minus the defender's, gin the defender's. */
function pointsText(outcome, names) {
  const end = outcome.end;
  const winner = names[outcome.winner];
  const kSeat = outcome.knocker ?? 0;
  const dSeat = 1 - kSeat;
  const own = (seat) => (names[seat] === "You" ? "your" : `${names[seat]}'s`);
  const other = (seat) => (names[seat] === "You" ? "yours" : `${names[seat]}'s`);
  const kd = outcome.knocker_deadwood ?? 0;
  const dd = outcome.defender_deadwood ?? 0;
  let text;
  if (end === "gin" || end === "big_gin") text = `${end === "gin" ? "Gin" : "Big gin"} — ${own(dSeat)} deadwood: ${dd}`;
  else if (end === "undercut") text = `Undercut — ${own(kSeat)} deadwood minus ${other(dSeat)}: ${kd} − ${dd} = ${outcome.difference ?? 0}`;
  else text = `Knock — ${own(dSeat)} deadwood minus ${other(kSeat)}: ${dd} − ${kd} = ${outcome.difference ?? 0}`;
  if (outcome.bonus) {
    const label = { undercut: "undercut", gin: "gin", big_gin: "big gin" }[end] || "";
    text += ` + ${outcome.bonus} ${label} bonus`;
  }
  if ((outcome.multiplier || 1) > 1) text += `, ×${outcome.multiplier} (spade upcard)`;
  return `${text} → ${winner} ${winner === "You" ? "score" : "scores"} ${outcome.points ?? 0}`;
}

/** The fair shuffle of the hand on screen: `check` as fairness.js left it (or none yet), against the
 * commitment shown at the deal. */
function shuffleLine(check, commitment) {
  let state = "pending";
  let text = "Fair shuffle: checking…";
  if (check && check.ok === true) {
    state = "ok";
    text = "✓ Fair shuffle verified";
  } else if (check && check.ok === false) {
    state = "fail";
    text = `✗ Shuffle check failed: ${check.reason}`;
  } else if (check && check.ok === null) {
    state = "gone";
    text = `Fair shuffle: not checked (${check.reason})`;
  }
  const title = check?.ok ? `${check.reason} (${commitment})` : commitment;
  return h("p", { id: "shuffle-check", class: `shuffle ${state}`, "data-verified": state, title },
    text, state === "ok" ? h("span", { class: "detail" }, ` — SHA-256 of the revealed salt and deck equals the commitment ${commitment.slice(0, 10)}… shown at the deal`) : null);
}

/** The games the hand on screen brought to an end (Hollywood: maybe several), else the phase says. */
function finishedGames(view) {
  const games = view.scores?.games || [];
  const hands = view.hands || [];
  const last = hands[hands.length - 1];
  const forfeited = (g) => g.forfeited_by !== null && g.forfeited_by !== undefined; // settled by a forfeit
  if (last && last.number === view.hand_number && Array.isArray(last.games)) {
    return games.filter((g) => g.over && (last.games.includes(g.number) || forfeited(g)));
  }
  if (view.phase === "game_over" || view.phase === "match_over") return games.filter((g) => g.over).slice(-1);
  return [];
}

/** The totals of the games that ended (`games`: their score sheets), the match's result when it has several
 * games, and the statistics: from a view, or anything with its `scores` and `stats`. */
export function gameOverPanel(view, names, games) {
  const scores = view.scores || {};
  const panel = h("section", { id: "game-over", class: "game-over", "aria-label": "Game over" });
  for (const game of games) {
    const winner = game.winner;
    panel.append(h("h2", {}, `Game ${game.number} over` + (typeof winner === "number" ? `: ${names[winner]} ${names[winner] === "You" ? "win" : "wins"}` : "")));
    const rows = [["Hand points", game.points], ["Hands won", game.hands_won]];
    for (const [key, value] of Object.entries(game.bonuses || {})) {
      if (Array.isArray(value) && value.some(Boolean)) rows.push([BONUS_LABELS[key] || key.replace(/_/g, " "), value]);
    }
    rows.push(["Grand total", game.grand_totals]);
    panel.append(table(names, rows, "totals", `Game ${game.number} totals`));
    if (game.bonuses?.shutout) panel.append(h("p", { class: "note" }, "Shutout: the loser did not win a hand."));
  }
  if (scores.match_over && (scores.games || []).length > 1) {
    const w = scores.match_winner;
    panel.append(h("p", { class: "points" }, `Match over: ${typeof w === "number" ? names[w] : "nobody"} ${names[w] === "You" ? "win" : "wins"} (games ${scores.games_won[0]}–${scores.games_won[1]})`));
  }
  if (Array.isArray(view.stats)) {
    const rows = STAT_LABELS.filter(([key]) => view.stats.some((s) => s && key in s)).map(([key, label]) => [label, view.stats.map((s) => fmt(s[key]))]);
    const played = view.stats.some((s) => s && s.hands_played); // a game resigned before any hand: no figures
    if (played) panel.append(h("h3", {}, "Statistics"), table(names, rows, "stats", "Statistics per player"));
  } else {
    panel.append(h("p", { class: "note" }, "Loading the statistics…"));
  }
  return panel;
}

function fmt(value) {
  return typeof value === "number" && !Number.isInteger(value) ? value.toFixed(1) : value ?? "";
}

function table(names, rows, id, caption) {
  return h("table", { class: `sheet ${id}`, id },
    h("caption", { class: "visually-hidden" }, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), h("th", { scope: "col" }, names[0]), h("th", { scope: "col" }, names[1]))),
    h("tbody", {}, rows.map(([label, value]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, cell(value, 0)), h("td", {}, cell(value, 1))))));
}

function cell(value, seat) {
  if (Array.isArray(value)) return String(value[seat] ?? "");
  return seat === 0 ? String(value ?? "") : "";
}

// --- the side panel -------------------------------------------------------------------------------------------
function sidePanel({ view, seat, names, hint, log: moves, shuffle }) {
  const side = h("aside", { class: "side", "aria-label": "Game details" });
  if (hint) {
    const words = hintWords(hint.action || {}, view);
    side.append(h("section", { class: "hint", id: "hint", role: "status" }, h("h3", {}, "Hint"), h("p", {}, withCards(words)), hint.explanation ? h("p", { class: "note" }, withCards(String(hint.explanation).split(/\b([A2-9TJQK][CDHS])\b/))) : null));
  }
  const log = h("ol", { class: "log", id: "log", "aria-label": "Moves of this hand" });
  for (const item of moves) { // all of them, numbered from 1 (the list scrolls)
    const mine = item.seat === seat;
    log.append(h("li", { class: mine ? "mine" : "theirs" }, withCards(describeMove(item, names, view))));
  }
  side.append(h("section", { class: "moves" }, h("h3", {}, `Hand ${view.hand_number}: moves`), moves.length ? log : h("p", { class: "note" }, "No moves yet.")));

  const hands = view.hands || [];
  if (hands.length) {
    const rows = hands.map((hand) => {
      const check = shuffle.verified[hand.number];
      const mark = check?.ok === true ? "✓" : check?.ok === false ? "✗" : "–";
      const what = (END_TEXT[hand.end] || hand.end || "").replace("{k}", names[hand.knocker] ?? "").replace("{d}", names[1 - (hand.knocker ?? 0)] ?? "");
      return h("tr", { "data-hand": hand.number },
        h("td", {}, hand.number),
        h("td", {}, what),
        h("td", {}, typeof hand.winner === "number" ? `${names[hand.winner]} +${hand.points}` : "—"),
        h("td", { class: `verified ${check?.ok ? "ok" : ""}`, title: check ? check.reason : "not checked in this browser", "aria-label": check?.ok ? "fair shuffle verified" : "not verified" }, mark));
    });
    side.append(
      h("section", { class: "hands" }, h("h3", {}, "Hands"),
        h("table", { class: "sheet" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "End"), h("th", { scope: "col" }, "Points"), h("th", { scope: "col", title: "Fair shuffle verified in this browser" }, "✓"))),
          h("tbody", {}, rows))),
    );
  }
  if (view.commitment) {
    side.append(h("p", { class: "commitment", title: view.commitment }, "Deck commitment of this hand: ", h("code", {}, `${view.commitment.slice(0, 16)}…`)));
  }
  const rules = view.rules || {};
  side.append(
    h("details", { class: "rules" }, h("summary", {}, "Rules of this game"),
      h("dl", {}, Object.entries(rules).map(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, String(v))]))),
  );
  return side;
}

function hintWords(action, view) {
  switch (action.type) {
    case "draw":
      return action.source === "stock" ? ["Draw from the stock."] : ["Take ", (view.discard_pile || []).slice(-1)[0] || "the discard", " from the pile."];
    case "discard":
      return ["Discard ", action.card, "."];
    case "knock":
      return action.discard ? ["Knock, discarding ", action.discard, "."] : ["Big gin!"];
    case "pass":
      return ["Pass."];
    case "layoff":
      return ["Lay off the best way."];
    case "deal":
      return ["Deal the next hand."];
    default:
      return [String(action.type || "?")];
  }
}

// --- the clocks -----------------------------------------------------------------------------------------------
/** The time on a clock: 1:05:00, 4:59, 0:30, then tenths under ten seconds (9.4). */
function clockText(seconds) {
  if (typeof seconds !== "number") return "–";
  if (seconds < 10) return seconds.toFixed(1);
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

function clockLabel(name, seconds, running, perMoveOnly) {
  const whole = typeof seconds === "number" ? Math.ceil(seconds) : null;
  const left = whole === null ? "no time shown" : `${Math.floor(whole / 60) ? `${Math.floor(whole / 60)} min ` : ""}${whole % 60} s`;
  const whose = name === "You" ? "Your clock" : `${name}'s clock`;
  return `${whose}: ${left}${perMoveOnly && !running ? " a move" : " left"}${running ? ", running" : ""}`;
}

/** Both seats' clocks for the top bar (mine first): the view's time control, and `clock` as of now (the
 * running one ticks: paintClocks). */
function clocksBox(control, clock, mySeat, names) {
  const box = h("div", { class: "clocks", id: "clocks", role: "group", "aria-label": `Clocks: ${clockWords(control)}`, title: `Time control: ${clockWords(control)}` });
  for (const seat of [mySeat, 1 - mySeat]) {
    box.append(h("span", { class: "clock", "data-seat": seat, role: "timer", "aria-live": "off" },
      h("span", { class: "who", "aria-hidden": "true" }, names[seat]),
      h("span", { class: "time", "aria-hidden": "true" }),
      h("span", { class: "move", "aria-hidden": "true" })));
  }
  clockTimes(box, clock, names);
  return box;
}

/** The clocks of the page in `root` as of now (called at every tick). */
export function paintClocks(root, clock, names) {
  const box = root.querySelector("#clocks");
  if (box && clock) clockTimes(box, clock, names);
}

/** Set the clocks' times: the text, the running one, low time, the labels. */
function clockTimes(box, clock, names) {
  const perMoveOnly = clock.bank == null;
  for (const el of box.querySelectorAll(".clock")) {
    const seat = Number(el.dataset.seat);
    const seconds = clock.times[seat];
    const running = clock.running === seat;
    const text = clockText(seconds);
    const time = el.querySelector(".time");
    if (time.textContent !== text) time.textContent = text;
    const move = el.querySelector(".move");
    const moveText = running && clock.perMove != null && clock.bank != null && clock.move !== null ? ` · move ${clockText(clock.move)}` : "";
    if (move.textContent !== moveText) move.textContent = moveText;
    el.dataset.running = running ? "yes" : "no";
    el.classList.toggle("low", running && clock.move !== null && clock.move < 10);
    el.classList.toggle("out", running && clock.move === 0);
    const label = clockLabel(names[seat], running && clock.move !== null && !perMoveOnly ? Math.min(seconds, clock.move) : seconds, running, perMoveOnly);
    if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
  }
}

// --- resign or abort: the question --------------------------------------------------------------------------
function confirmDialog(what, opp, rated, { confirmEnd, confirmClosed, endMatch }) {
  const resign = what !== "abort";
  const title = resign ? "Resign this game?" : "Abort this game?";
  const text = resign
    ? `${opp} wins the match${rated ? "; it counts for your rating" : ""}.`
    : "It ends now with no result: nobody wins, nothing is rated.";
  return h("dialog", { id: "confirm", class: "help confirm", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text", onclose: () => confirmClosed() },
    h("h2", { id: "confirm-title" }, title),
    h("p", { id: "confirm-text" }, text),
    // "Keep playing" is the default answer: highlighted, focused, Enter; ending the match is the quiet one.
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "btn danger", "data-action": resign ? "confirm-resign" : "confirm-abort", "data-focus": "confirm-yes", onclick: () => endMatch(resign ? "resign" : "abort") }, resign ? "Resign" : "Abort the game"),
      h("button", { type: "button", class: "btn primary", "data-action": "confirm-cancel", "data-focus": "confirm-no", autofocus: true, onclick: () => confirmEnd(null) }, "Keep playing")));
}

// --- help ------------------------------------------------------------------------------------------------------
function helpDialog(helpClosed) {
  const keys = [
    ["D", "draw from the stock"],
    ["P", "take the top of the discard pile (or the upcard)"],
    ["N", "pass (refuse the upcard)"],
    ["1 … 9, 0, -", "pick a card of your hand; Enter discards it (or click it, or drag it onto the pile)"],
    ["K", "knock: choose the face-down discard and your melds"],
    ["G", "go gin"],
    ["B", "big gin"],
    ["M", "make a meld of the picked cards (knock and lay-off)"],
    ["R", "back to the best arrangement"],
    ["Shift+1 … 9", "lay the picked cards off onto the knocker's meld of that number"],
    ["L", "lay off the best way (one key)"],
    ["Enter", "confirm (knock, lay down) or deal the next hand"],
    ["Esc", "cancel the knock"],
    ["H", "hint"],
    ["U", "undo your last move (against a bot)"],
    ["?", "this help"],
  ];
  // The first control is at the top (a dialog focuses its first control, and would scroll down to a
  // Close button at the bottom of a help taller than the screen).
  return h("dialog", { id: "help", class: "help", "aria-labelledby": "help-title", onclose: () => helpClosed() },
    h("div", { class: "help-head" },
      h("h2", { id: "help-title" }, "Keyboard"),
      h("form", { method: "dialog" }, h("button", { class: "close", "aria-label": "Close the help", title: "Close (Esc)", autofocus: true }, "×"))),
    h("dl", {}, keys.map(([k, text]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, text)])),
    h("p", { class: "note" }, "Resign, Abort, Claim victory and Rematch have no key on purpose: Tab to them, then Enter. Resigning and aborting ask first (Esc: keep playing)."),
    h("p", { class: "note" }, "✓ on a finished hand: this browser checked, with SHA-256, that the deck revealed after the hand is the one the service committed to when it dealt."),
    h("form", { method: "dialog" }, h("button", { class: "btn primary", "data-action": "close-help" }, "Close")));
}
