// The master's review of a finished match, as the replay shows it (POST/GET /v1/games/{id}/review): asking
// for it, waiting calmly while a bot worker computes it, then its marks on the moves (?! an inaccuracy, ? a
// mistake, ?? a blunder — the sign and its word, never the colour alone), a popover per mark with the
// better move, the points given up and the master's estimates in its own words, and a summary per seat.
//
// Nothing here judges a move: every verdict, figure and word is the service's. The page only says them, and
// names a move the master preferred in words ("take 9♦ from the pile"), the pile's top card taken from the
// recorded step before it (a legal action to take the discard does not name its card).

import { ApiError, NetworkError, sleep } from "./api.js";
import { cardName } from "./cards.js";
import { add, clear, h } from "./dom.js";
import { withCards } from "./table.js";

/** Each verdict's sign, its word, and how several are called. */
export const VERDICTS = {
  inaccuracy: { sign: "?!", word: "Inaccuracy", plural: "Inaccuracies" },
  mistake: { sign: "?", word: "Mistake", plural: "Mistakes" },
  blunder: { sign: "??", word: "Blunder", plural: "Blunders" },
};

const CARD_CODE = /\b([A2-9TJQK][CDHS])\b/g;

/** A text of the service's ("Take 9D: it completes a meld") as parts, its card codes kept apart (drawn as
 * cards by withCards). */
export function textParts(text) {
  return String(text || "").split(CARD_CODE).filter((part) => part !== "");
}

/** The same text for a screen reader: its card codes as card names ("9 of diamonds"). */
function spoken(parts) {
  return parts.map((part) => (/^[A2-9TJQK][CDHS]$/.test(part) ? cardName(part) : part)).join("");
}

/** A move the master weighed, as something to do: ["take ", "9D", " from the pile"]. `pileTop`: the pile's
 * top card before the move (the card a take from the pile takes). */
export function actionParts(action, pileTop) {
  switch (action?.type) {
    case "draw":
      if (action.source === "discard") return pileTop ? ["take ", pileTop, " from the pile"] : ["take the discard"];
      return ["draw from the stock"];
    case "pass":
      return ["pass (leave the upcard)"];
    case "discard":
      return ["discard ", action.card];
    case "knock":
      return action.discard ? ["knock, discarding ", action.discard] : ["go big gin"];
    case "layoff":
      return ["lay off the best way"];
    default:
      return [String(action?.type || "?")];
  }
}

/** The judged moves of a review by their place in the export: "<hand>:<index in its actions>". */
export function judgedMoves(review) {
  return new Map((review?.moves || []).map((move) => [`${move.hand}:${move.index}`, move]));
}

/** "11.4": points, as the review gives them (to one decimal). */
function points(value) {
  return (Math.round(Number(value) * 10) / 10).toFixed(1);
}

/** "+8.5" or "−5.3": a mean of hand points for the player (negative: the opponent scores them). */
function signed(value) {
  const shown = points(value);
  return Number(shown) > 0 ? `+${shown}` : Number(shown) < 0 ? `−${shown.slice(1)}` : shown;
}

/** A verdict's sign as a small coloured badge with its word for a screen reader. */
export function verdictSign(verdict, { big = false } = {}) {
  const v = VERDICTS[verdict];
  return h("span", { class: `mark-sign ${verdict} ${big ? "big" : ""}`.trim(), "aria-hidden": "true" }, v.sign);
}

/** What a marked move was, in one line: "Blunder: Ann gave up 11.4 points. The master's move: take 9♦ from
 * the pile." — as parts (cards apart), for the popover's heading, the callout and a mark's accessible name. */
function summaryParts(move, who, pileTop) {
  const v = VERDICTS[move.verdict];
  return [`${v.word} (${v.sign}): ${who} gave up ${points(move.loss)} points. The master's move: `, ...actionParts(move.best, pileTop), "."];
}

/** A mark on a move of the list: a button showing its sign (and, on hover, focus or a tap, the popover). */
export function markButton(move, { who, pileTop, samples, tip }) {
  const button = h("button", {
    type: "button",
    class: `mark ${move.verdict}`,
    "data-mark": move.verdict,
    "data-hand": move.hand,
    "data-index": move.index,
    "aria-label": spoken(summaryParts(move, who, pileTop)),
    "aria-expanded": "false",
    "aria-controls": tip.el.id,
  }, VERDICTS[move.verdict].sign);
  tip.attach(button, () => tipContent(move, { who, pileTop, samples }));
  return button;
}

/** The popover of a mark: the verdict and the points given up, the better move, the master's estimates. */
export function tipContent(move, { who, pileTop, samples }) {
  const v = VERDICTS[move.verdict];
  const same = (a, b) => JSON.stringify(strip(a)) === JSON.stringify(strip(b));
  const estimates = (move.estimates || []).map((estimate) => {
    const tags = [same(estimate.action, move.best) ? "the master's" : null, same(estimate.action, move.played) ? "played" : null].filter(Boolean);
    return h("li", { "data-best": same(estimate.action, move.best) ? "yes" : null, "data-played": same(estimate.action, move.played) ? "yes" : null },
      h("span", { class: "what" }, withCards(actionParts(estimate.action, pileTop)), tags.length ? h("small", { class: "tags" }, ` (${tags.join(", ")})`) : null),
      h("span", { class: "pts" }, signed(estimate.points)),
      estimate.explanation ? h("span", { class: "words" }, withCards(textParts(estimate.explanation))) : null);
  });
  return [
    h("p", { class: "tip-head" }, verdictSign(move.verdict), h("b", {}, v.word), ` — ${who} gave up ${points(move.loss)} points`),
    h("p", { class: "tip-better", "data-best": JSON.stringify(strip(move.best)) }, "Better: ", h("b", {}, withCards(actionParts(move.best, pileTop)))),
    estimates.length ? h("p", { class: "tip-title" }, `The master's estimates: ${who}'s average points over ${samples || "its"} deals`) : null,
    estimates.length ? h("ul", { class: "estimates" }, estimates) : null,
  ];
}

/** An action without its "kind" (the legal action's tag), to compare two of them. */
function strip(action) {
  const { kind: _kind, ...rest } = action || {};
  return rest;
}

/** The prominent word on the table when the step shown is a marked move. */
export function verdictCallout(move, { who, pileTop }) {
  const best = (move.estimates || []).find((e) => JSON.stringify(strip(e.action)) === JSON.stringify(strip(move.best)));
  return h("div", { id: "replay-verdict", class: `verdict-callout ${move.verdict}`, "data-verdict": move.verdict },
    verdictSign(move.verdict, { big: true }),
    h("div", { class: "verdict-words" },
      h("p", {}, h("b", {}, VERDICTS[move.verdict].word), ` — ${who} gave up ${points(move.loss)} points.`),
      h("p", {}, "The master's move: ", h("b", {}, withCards(actionParts(move.best, pileTop))),
        best?.explanation ? [" — ", withCards(textParts(best.explanation))] : null)));
}

/** The review's figures, a block per seat: its accuracy, then the decisions judged, each verdict's count
 * (the sign, and its word for a screen reader) and the points given up. */
export function summaryBlocks(review, names) {
  return h("div", { id: "review-summary", class: "review-summary" }, [0, 1].map((seat) => {
    const figures = (review.seats || []).find((s) => s.seat === seat) || {};
    const figure = (name, value, ...words) => h("li", { "data-figure": name }, ...words.slice(0, -1), h("b", { class: "value" }, value), words.at(-1));
    return h("section", { class: "review-seat", "data-seat": seat, "aria-label": `${names[seat]}: the master's figures` },
      h("p", { class: "seat-head" }, h("span", { class: "who" }, names[seat]),
        // No decision judged: nothing to score (the review's accuracy is null), not a perfect 100 %.
        h("span", { "data-figure": "accuracy" }, figures.accuracy == null ? "no decisions to judge" : [h("b", { class: "value" }, `${Number(figures.accuracy).toFixed(1)} %`), " accuracy"])),
      h("ul", { class: "seat-figures" },
        figure("decisions", figures.decisions ?? 0, " decisions"),
        Object.entries(VERDICTS).map(([verdict, v]) => figure(verdict, figures[v.plural.toLowerCase()] ?? 0, verdictSign(verdict), " ", h("span", { class: "visually-hidden" }, ` ${v.plural.toLowerCase()}`))),
        figure("points_lost", points(figures.points_lost ?? 0), " points given up")));
  }));
}

/** The one popover of the marks: shown on a mouse's hover or the keyboard's focus while there, kept open
 * by a click or a tap (closed by another, Esc, or a tap elsewhere). It lives in the document's body, placed
 * under its mark (above when there is no room), so that the move list's scrolling box does not clip it. */
export class ReviewTip {
  constructor() {
    this.el = h("div", { id: "review-tip", class: "review-tip", role: "tooltip", hidden: true });
    document.body.append(this.el);
    this.anchor = null;
    this.pinned = false;
    this.onPointerDown = (event) => {
      if (this.anchor && !this.anchor.contains(event.target) && !this.el.contains(event.target)) this.hide();
    };
    this.onMove = () => this.place();
    document.addEventListener("pointerdown", this.onPointerDown, true);
    document.addEventListener("scroll", this.onMove, true);
    window.addEventListener("resize", this.onMove);
  }

  attach(button, content) {
    const mine = () => this.anchor === button;
    button.addEventListener("pointerenter", (event) => {
      // A hover opens it, but leaves one kept open (this mark's or another's) as it is.
      if (event.pointerType === "mouse" && !this.pinned && !mine()) this.show(button, content, false);
    });
    button.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse" && mine() && !this.pinned) this.hide();
    });
    button.addEventListener("focus", () => {
      if (button.matches(":focus-visible")) this.show(button, content, false);
    });
    button.addEventListener("blur", () => {
      if (mine()) this.hide();
    });
    button.addEventListener("click", () => {
      if (mine() && this.pinned) this.hide();
      else this.show(button, content, true);
    });
    button.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && mine()) {
        event.stopPropagation();
        this.hide();
      }
    });
  }

  show(anchor, content, pinned) {
    if (this.anchor && this.anchor !== anchor) this.release();
    this.anchor = anchor;
    this.pinned = pinned;
    add(clear(this.el), content());
    this.el.dataset.for = `${anchor.dataset.hand}:${anchor.dataset.index}`;
    this.el.hidden = false;
    anchor.setAttribute("aria-expanded", String(pinned));
    anchor.setAttribute("aria-describedby", this.el.id);
    this.place();
  }

  release() {
    this.anchor?.setAttribute("aria-expanded", "false");
    this.anchor?.removeAttribute("aria-describedby");
  }

  hide() {
    this.release();
    this.anchor = null;
    this.pinned = false;
    this.el.hidden = true;
  }

  /** Under the mark, its right edge on the mark's (within the window), or above it if there is no room. */
  place() {
    if (!this.anchor || this.el.hidden) return;
    if (!this.anchor.isConnected) {
      this.hide();
      return;
    }
    const mark = this.anchor.getBoundingClientRect();
    const width = this.el.offsetWidth;
    const height = this.el.offsetHeight;
    const room = document.documentElement.clientWidth;
    const left = Math.max(8, Math.min(mark.right - width, room - width - 8));
    let top = mark.bottom + 6;
    if (top + height > window.innerHeight - 8 && mark.top - 6 - height >= 8) top = mark.top - 6 - height;
    this.el.style.left = `${left + window.scrollX}px`;
    this.el.style.top = `${top + window.scrollY}px`;
  }

  remove() {
    this.hide();
    document.removeEventListener("pointerdown", this.onPointerDown, true);
    document.removeEventListener("scroll", this.onMove, true);
    window.removeEventListener("resize", this.onMove);
    this.el.remove();
  }
}

const FIRST_WAIT = 1000; // ms before the first look at a pending review; each next one waits longer
const GROWTH = 1.5;
const LONGEST_WAIT = 10_000;
const LONG_WAIT = 60_000; // pending for longer than this: said (the bot workers may be busy, or none runs)

/** Whether a failed look is worth another one later (the service or the network, not the request). */
function passing(err) {
  return err instanceof NetworkError || (err instanceof ApiError && (err.status >= 500 || err.status === 429));
}

/**
 * A match's review as the page knows it, and the requests that get it there. `state.status`: "loading",
 * "none" (not asked for), "asking", "pending" (a bot worker is on it: looked at again, each time a little
 * later, or when the service's Retry-After says), "done" (with `review`), "failed" (may be asked again),
 * "error" (with `error`). `onChange(state)` is called at each change; `stop()` ends every request and wait
 * (the page was left).
 */
export class ReviewRequest {
  constructor(api, gameId, onChange) {
    this.api = api;
    this.gameId = gameId;
    this.onChange = onChange;
    this.state = { status: "loading" };
    this.controller = new AbortController();
    this.polling = false;
  }

  get stopped() {
    return this.controller.signal.aborted;
  }

  stop() {
    this.controller.abort();
  }

  set(state) {
    if (this.stopped) return;
    this.state = state;
    this.onChange(state);
  }

  /** Read the review there is (none: "none"). */
  load() {
    this.set({ status: "loading" });
    return this.send(false);
  }

  /** Ask for a review (POST): pending, or done at once if it was there already. */
  ask() {
    this.set({ status: "asking" });
    return this.send(true);
  }

  async send(ask) {
    let reply;
    try {
      reply = await this.api.review(this.gameId, { ask, signal: this.controller.signal });
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof ApiError && err.code === "review_not_found") this.set({ status: "none" });
      else this.set({ status: "error", error: err });
      return;
    }
    this.settle(reply);
  }

  settle(reply) {
    const data = reply.data || {};
    if (reply.status === 202 || data.status === "pending") {
      this.set({ status: "pending", since: Date.now() });
      this.poll(reply.retryAfter);
    } else if (data.status === "done" && data.review) {
      this.set({ status: "done", review: data.review });
    } else {
      this.set({ status: "failed" });
    }
  }

  /** Look again until the review is no longer pending: after 1 s, then each time half as long again (10 s
   * at most), or after what a Retry-After says; a passing failure (the network, a 503) is waited out. */
  async poll(retryAfter) {
    if (this.polling) return;
    this.polling = true;
    const since = this.state.since ?? Date.now();
    let wait = FIRST_WAIT;
    let told = retryAfter;
    while (!this.stopped) {
      const pause = told !== null && told !== undefined ? Math.max(250, told * 1000) : wait;
      wait = Math.min(LONGEST_WAIT, wait * GROWTH);
      await sleep(pause, this.controller.signal);
      if (this.stopped) break;
      let reply;
      try {
        reply = await this.api.review(this.gameId, { signal: this.controller.signal });
      } catch (err) {
        if (this.stopped) break;
        if (!passing(err)) {
          this.polling = false;
          this.set({ status: "error", error: err });
          return;
        }
        told = err.retryAfter;
        this.set({ status: "pending", since, trouble: err, long: Date.now() - since > LONG_WAIT });
        continue;
      }
      told = reply.retryAfter;
      if (reply.status === 202) {
        const long = Date.now() - since > LONG_WAIT;
        if (long !== Boolean(this.state.long) || this.state.trouble) this.set({ status: "pending", since, long });
        continue;
      }
      this.polling = false;
      this.settle(reply);
      return;
    }
    this.polling = false;
  }
}
