// Short animations a player can follow: a card flies from where it was to where it goes (the stock, the
// discard pile, a hand). They are decoration only: the table is already drawn in its new state, the
// flying card is a copy laid over it, and the player may act at once. Skipped when the system asks for
// reduced motion.

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export const FLIGHT_MS = 380;

/**
 * Fly `node` (a card element, not yet in the document) from `fromEl` to `toEl`; `hide` (an element of
 * the table, e.g. the pile's new top card) stays invisible until the card lands.
 */
export function fly(node, fromEl, toEl, { hide = null, duration = FLIGHT_MS } = {}) {
  if (!fromEl || !toEl || reduced() || !node.animate) return Promise.resolve();
  const from = fromEl.getBoundingClientRect();
  const to = toEl.getBoundingClientRect();
  if (!from.width || !to.width) return Promise.resolve();
  node.classList.add("flying");
  node.setAttribute("aria-hidden", "true");
  node.removeAttribute("role");
  node.removeAttribute("aria-label");
  node.removeAttribute("data-card"); // a copy: the card is counted where it lies on the table
  Object.assign(node.style, { left: `${from.left}px`, top: `${from.top}px` });
  document.body.append(node);
  if (hide) hide.classList.add("arriving");
  const dx = to.left + (to.width - node.offsetWidth) / 2 - from.left;
  const dy = to.top + (to.height - node.offsetHeight) / 2 - from.top;
  const animation = node.animate(
    [
      { transform: "translate(0, 0) rotate(0deg)", opacity: 0.9 },
      { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 6 : -6}deg)`, opacity: 1 },
    ],
    { duration, easing: "cubic-bezier(.3,.7,.4,1)" },
  );
  return animation.finished
    .catch(() => undefined)
    .then(() => {
      node.remove();
      if (hide) hide.classList.remove("arriving");
    });
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
