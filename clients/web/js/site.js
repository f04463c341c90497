// The frame of the pages beside the table (my games, a replay, a profile, watching): the brand that leads
// back to the start page, the links between the pages, and the page's heading. Every page has an address
// of its own in the fragment (#/games, #/players/Ann, #/replay/<game>, #/watch/<game>), so it can be
// linked, bookmarked and reloaded; the fragment never reaches a server.

import { sleep } from "./api.js";
import { h } from "./dom.js";

/** The address of a page: `page("players", "Ann")` → "#/players/Ann" (each part encoded). */
export function pageHref(...parts) {
  return `#/${parts.map((p) => encodeURIComponent(p)).join("/")}`;
}

/** The links between the pages; `current` is the one on screen ("play", "games", "profile", "challenge",
 * "friends", "tournaments", "watch"). */
export function siteNav(current, player) {
  const links = [
    ["play", "#/", "Play"],
    ["games", pageHref("games"), player ? "My games" : "Games"],
    ["profile", player ? pageHref("players", player.name) : pageHref("players"), player ? "Profile" : "Players"],
    ["tournaments", pageHref("tournaments"), "Tournaments"],
    ["watch", pageHref("watch"), "Watch"],
  ];
  if (player) links.splice(3, 0, ["challenge", pageHref("challenge"), "Challenge"]);
  if (player?.account) links.splice(4, 0, ["friends", pageHref("friends"), "Friends"]);
  return h("nav", { class: "site-nav", "aria-label": "Pages" },
    h("ul", {}, links.map(([key, href, label]) => h("li", {}, h("a", { href, "data-nav": key, "aria-current": key === current ? "page" : null }, label)))));
}

/**
 * A page of the site: its header (the brand, the links) and its heading. Returns {page, body}: put the
 * page's content in `body`. The heading takes the focus when the page opens (focusHeading), so that the
 * keyboard and a screen reader start at the new content.
 */
export function pageFrame({ title, current, player, lead = null, wide = false }) {
  const heading = h("h1", { id: "page-title", tabindex: "-1" }, title);
  const body = h("div", { class: "page-body" });
  const page = h("section", { class: `site-page ${wide ? "wide" : ""}`.trim(), "aria-labelledby": "page-title" },
    h("header", { class: "site-head" },
      h("a", { class: "brand", href: "#/", title: "The start page" }, h("span", { "aria-hidden": "true" }, "♠ "), h("span", { class: "word" }, "Gin Rummy")),
      siteNav(current, player)),
    h("div", { class: "page-title" }, heading, lead ? h("p", { class: "lead" }, lead) : null),
    body);
  return { page, body, heading };
}

/** Call `look()` now and again every `ms` while the page is in sight (not in a hidden tab), until `signal`
 * aborts (the page goes). */
export function lookEvery(ms, signal, look) {
  (async () => {
    while (!signal.aborted) {
      if (document.visibilityState !== "hidden") await look();
      await sleep(ms, signal);
    }
  })();
}

/** Move the focus to the page's heading (not scrolling: the page opens at its top). */
export function focusHeading(root) {
  root.querySelector("#page-title")?.focus({ preventScroll: true });
}

/** A date and time as this browser's locale writes it: "24 Nov 2026, 21:05". */
export function when(value) {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A player's name as shown: the house bots' players ("bot-simple") as "simple (bot)". */
export function playerLabel(name) {
  if (!name) return "?";
  return name.startsWith("bot-") ? `${name.slice(4)} (bot)` : name;
}

/** The names by seat of a game's players ([{seat, name, type, bot}]): a bot as "simple (bot)". */
export function seatNames(players) {
  const names = ["Player 1", "Player 2"];
  for (const p of players || []) {
    if (!p || typeof p.seat !== "number") continue;
    if (p.type === "bot") names[p.seat] = `${p.name || p.bot} (bot)`;
    else if (p.name) names[p.seat] = p.name;
    else if (p.joined === false) names[p.seat] = "(a free seat)";
  }
  return names;
}
