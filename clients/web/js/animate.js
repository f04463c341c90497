// Short animations a player can follow: a card drawn glides from the stock or the pile into the hand, a card
// discarded from the hand (or the opponent's side) onto the pile. FLIP: the table is already drawn in its
// new state; for each card that moved, a stand-in (a copy, hidden from screen readers, letting every click
// and touch through) starts at its old place and glides to its new one (the Web Animations API, a
// transform only), while the real card waits there unseen — but in place and clickable. Decoration only:
// nothing waits for an animation. None when the system asks for reduced motion.

const reduced = () => Boolean(window.matchMedia) && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const FLIGHT_MS = 240;
const STAGGER_MS = 30; // moves that arrive together (a bot's answer) start one after the other
const LAST_START_MS = 60; // …all within FLIGHT_MS + 60 = 300 ms

/** Where the table in `root` shows its cards now: each card by its code, the stock, the pile's top and the
 * opponent's hand (their boxes on screen). Taken just before a new state of the game is drawn. */
export function layout(root) {
  const box = (el) => (el ? el.getBoundingClientRect() : null);
  const cards = new Map();
  for (const el of root.querySelectorAll("#felt .card[data-card]")) cards.set(el.dataset.card, el.getBoundingClientRect());
  return {
    cards,
    stock: box(root.querySelector("#stock .card")),
    pile: box(root.querySelector("#pile-top")),
    opponent: box(root.querySelector("#opponent-hand")),
  };
}

/** Glide the cards `events` (moves of the game, in order) moved, from where `before` (a layout()) had them
 * to where the table in `root` shows them now. `seat`: this page's seat. */
export function flights(root, before, events, seat) {
  if (!before || reduced() || !Element.prototype.animate) return;
  const places = new Map(before.cards); // where each card was, as the moves went
  let started = 0;
  for (const e of events) {
    let card = null;
    let from = null;
    if (e.type === "draw") {
      // A card drawn from the stock shows only in my hand; the opponent's is its newest hidden card.
      card = e.card ? root.querySelector(`#felt .card[data-card="${e.card}"]`) : [...root.querySelectorAll("#opponent-hand .card.back")].pop();
      from = e.source === "discard" ? places.get(e.card) || before.pile : before.stock;
    } else if (e.type === "discard") {
      card = root.querySelector(`#pile .card[data-card="${e.card}"]`);
      from = places.get(e.card) || (e.seat === seat ? null : before.opponent);
      if (card) places.set(e.card, before.pile); // else taken again at once: it goes on from where it was
    }
    if (card && from && glide(card, from, Math.min(started * STAGGER_MS, LAST_START_MS))) started++;
  }
}

/** Glide a stand-in of `card` from the box `from` to the card, landing with a small bump; the card itself
 * stays where it is, unseen until the stand-in lands. Whether anything moved. */
function glide(card, from, delay) {
  const to = card.getBoundingClientRect();
  if (!to.width || !from.width) return false;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.hypot(dx, dy) < 4) return false;
  const copy = card.cloneNode(true);
  for (const name of ["id", "role", "aria-label", "title", "data-card", "data-focus", "data-action", "data-key", "tabindex", "draggable"]) {
    copy.removeAttribute(name);
  }
  copy.classList.add("flying");
  copy.setAttribute("aria-hidden", "true");
  copy.inert = true;
  const width = card.offsetWidth;
  const height = card.offsetHeight;
  Object.assign(copy.style, {
    left: `${to.left + to.width / 2 - width / 2}px`,
    top: `${to.top + to.height / 2 - height / 2}px`,
    width: `${width}px`,
    height: `${height}px`,
  });
  document.body.append(copy);
  const scale = Math.min(1.5, Math.max(0.5, from.height / to.height)); // a small card grows, a big one shrinks
  const timing = { duration: FLIGHT_MS, delay, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" };
  const flight = copy.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
      { transform: "translate(0px, 0px) scale(1.08)", offset: 0.8 },
      { transform: "translate(0px, 0px) scale(1)" },
    ],
    timing,
  );
  card.animate([{ opacity: 0 }, { opacity: 0 }], { duration: FLIGHT_MS + delay });
  const land = () => copy.remove();
  flight.finished.then(land, land);
  return true;
}

/** A short banner over the table ("Bob knocks!"). */
export function banner(text, host) {
  if (!host) return;
  const el = document.createElement("div");
  el.className = "banner";
  el.setAttribute("aria-hidden", "true");
  el.textContent = text;
  host.append(el);
  setTimeout(() => el.remove(), reduced() ? 900 : 1600);
}
