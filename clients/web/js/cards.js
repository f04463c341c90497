// Card notation only (the service knows the rules): "7H" ↔ "7 of hearts", glyphs, colours, a card's
// points, and the card elements the table is drawn with. Every face-up card element carries data-card="7H".

import { h } from "./dom.js";

const RANK_NAMES = {
  A: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
  T: "10", J: "jack", Q: "queen", K: "king",
};
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const GLYPHS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** The keys that pick the cards of a hand, left to right. */
export const CARD_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-"];

export function rankText(card) {
  return card[0] === "T" ? "10" : card[0];
}

/** Cards in the order a hand is listed: by suit (clubs, diamonds, hearts, spades), then by rank. */
export function sortCards(cards) {
  const order = (card) => "CDHS".indexOf(card[1]) * 16 + "A23456789TJQK".indexOf(card[0]);
  return [...cards].sort((a, b) => order(a) - order(b));
}

/** "7 of hearts": the accessible name of a card. */
export function cardName(card) {
  return `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]] || card[1]}`;
}

/** "7♥": a card in running text. */
export function cardText(card) {
  return rankText(card) + (GLYPHS[card[1]] || card[1]);
}

/** What a card counts as deadwood: ace 1, 2 to 10 their number, jack, queen and king 10 (docs/rules.md §1). */
export function cardPoints(card) {
  if (card[0] === "A") return 1;
  return "TJQK".includes(card[0]) ? 10 : Number(card[0]);
}

export function isRed(card) {
  return card[1] === "H" || card[1] === "D";
}

/** A card in running text as an element (coloured), e.g. in the move log. */
export function cardInline(card) {
  return h("span", { class: `inline-card ${isRed(card) ? "red" : "black"}`, "data-card": card }, cardText(card));
}

/**
 * A face-up card. With `onclick` it is a <button> (so it takes the focus, Enter and Space);
 * otherwise a figure with role="img". `label` replaces the accessible name.
 */
export function cardFace(card, { onclick, label, extraClass = "", small = false, attrs = {}, badge, keyLabel } = {}) {
  const suit = GLYPHS[card[1]] || "?";
  const rank = rankText(card);
  const cls = `card face ${isRed(card) ? "red" : "black"} ${small ? "small" : ""} ${extraClass}`.trim();
  const inner = [
    h("span", { class: "corner top", "aria-hidden": "true" }, h("span", { class: "rank" }, rank), h("span", { class: "suit" }, suit)),
    h("span", { class: "pip", "aria-hidden": "true" }, suit),
    h("span", { class: "corner bottom", "aria-hidden": "true" }, h("span", { class: "rank" }, rank), h("span", { class: "suit" }, suit)),
    keyLabel ? h("kbd", { class: "key", "aria-hidden": "true" }, keyLabel) : null,
    badge !== undefined && badge !== null ? h("span", { class: "badge", "aria-hidden": "true" }, badge) : null,
  ];
  const common = { class: cls, "data-card": card, "aria-label": label || cardName(card), title: label || cardName(card), ...attrs };
  if (onclick) return h("button", { type: "button", ...common, onclick }, inner);
  return h("div", { role: "img", ...common }, inner);
}

/** A face-down card. */
export function cardBack({ extraClass = "", small = false, label } = {}) {
  const attrs = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  return h("div", { class: `card back ${small ? "small" : ""} ${extraClass}`.trim(), ...attrs });
}
