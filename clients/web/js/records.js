// A player's past, from the archive: the finished games (#/players/<name>/games, or #/games for the player
// signed in: GET /v1/players/{name}/games, newest first, a page at a time with its opaque cursor, and its
// filters), each opening the replay; and the profile (#/players/<name>: GET /v1/players/{name}): games,
// statistics, ratings, recent games, and per rules family a graph of the rating after each rated game,
// drawn here as an inline SVG from GET /v1/players/{name}/rating-history.

import { ApiError } from "./api.js";
import { gamesInPlay } from "./account.js";
import { add, clear, h } from "./dom.js";
import { relationBar } from "./friends.js";
import { focusHeading, pageFrame, pageHref, playerLabel, when } from "./site.js";
import { STAT_LABELS } from "./table.js";

const PAGE_SIZE = 20;
const RESULT_WORDS = { won: "Won", lost: "Lost", drawn: "Drawn", aborted: "Aborted" };
const END_WORDS = { finished: "played out", resigned: "resigned", timeout: "on time", abandoned: "abandoned", aborted: "aborted" };

/** A page that names no player: ask for one (`what`: "games" or "profile"). */
export function choosePlayerPage(ctx, what) {
  const { page, body } = pageFrame({ title: what === "games" ? "Games" : "Players", current: what === "games" ? "games" : "profile", player: null });
  const input = h("input", { id: "find-player", name: "player", autocomplete: "off", autocapitalize: "none", spellcheck: "false", required: true });
  body.append(h("form", {
    class: "panel",
    onsubmit: (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (name) location.hash = what === "games" ? pageHref("players", name, "games") : pageHref("players", name);
    },
  },
    h("p", {}, what === "games"
      ? "Sign in (on the start page) to see your own games here, or look at any player's finished games:"
      : "Any player's profile: games, statistics and ratings."),
    h("div", { class: "invite-row" }, h("label", { class: "visually-hidden", for: "find-player" }, "Player's name"), input,
      h("button", { type: "submit", class: "btn primary", "data-action": "find-player" }, "Show"))));
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  return { stop() {} };
}

/** What a failed read of the archive says, for a player's pages. */
function readProblem(ctx, err, name) {
  if (err instanceof ApiError && err.code === "player_not_found") return `There is no player called "${name}" on this service.`;
  if (err instanceof ApiError && err.code === "archive_unavailable") return "The archive cannot be read just now: try again in a moment.";
  return ctx.ui.explain(err);
}

// --- the finished games -------------------------------------------------------------------------------------
export function gamesPage(ctx, name) {
  const stopper = new AbortController();
  const me = ctx.player();
  const mine = me && me.name.toLowerCase() === name.toLowerCase();
  const { page, body } = pageFrame({
    title: mine ? "My games" : `${playerLabel(name)}'s games`,
    current: mine ? "games" : "profile",
    player: me,
    lead: mine ? null : h("a", { href: pageHref("players", name) }, `${playerLabel(name)}'s profile`),
  });
  if (mine) body.append(gamesInPlay(ctx, me, stopper.signal).panel);
  const filters = {
    result: select("filter-result", "Result", [["", "Any result"], ["won", "Won"], ["lost", "Lost"], ["drawn", "Drawn"], ["aborted", "Aborted"]]),
    rated: select("filter-rated", "Rated", [["", "Rated or not"], ["true", "Rated"], ["false", "Casual"]]),
    family: select("filter-family", "Rules", [["", "Any rules"], ["casual", "Own rules (casual)"]]),
  };
  const list = h("ul", { class: "game-list", id: "game-list", "aria-label": "Finished games, newest first" });
  const note = h("p", { class: "note", id: "game-list-note", "aria-live": "polite" }, "Loading the games…");
  const more = h("button", { type: "button", class: "btn", "data-action": "more-games", hidden: true, onclick: () => load(false) }, "More games");
  let next = null;
  let generation = 0;

  async function load(fresh) {
    const mark = ++generation;
    more.disabled = true;
    const query = { limit: PAGE_SIZE, cursor: fresh ? null : next };
    for (const [key, box] of Object.entries(filters)) query[key] = box.querySelector("select").value;
    if (fresh) {
      clear(list);
      note.textContent = "Loading the games…";
    }
    let data;
    try {
      data = await ctx.api.playerGames(name, query, mine ? me.token : null);
    } catch (err) {
      if (mark !== generation || stopper.signal.aborted) return;
      note.textContent = readProblem(ctx, err, name);
      more.disabled = false;
      return;
    }
    if (mark !== generation || stopper.signal.aborted) return;
    const firstNew = list.childElementCount;
    for (const game of data.games || []) list.append(gameRow(game, name));
    next = data.next || null;
    more.hidden = !next;
    more.disabled = false;
    const count = list.childElementCount;
    note.textContent = count
      ? `${count} game${count === 1 ? "" : "s"} shown${next ? "; more below" : ""}.`
      : "No finished game" + (Object.values(filters).some((box) => box.querySelector("select").value) ? " passes these filters." : " yet: games appear here once they are over.");
    if (!fresh) list.children[firstNew]?.querySelector("a")?.focus(); // the first of the new page
  }

  for (const box of Object.values(filters)) box.querySelector("select").addEventListener("change", () => load(true));
  body.append(
    h("section", { class: "panel games-panel", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, "Finished games"),
      h("div", { class: "filters", role: "group", "aria-label": "Filters" }, Object.values(filters)),
      note, list, h("div", { class: "buttons" }, more)));
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  ctx.api.rules().then((rules) => {
    const family = filters.family.querySelector("select");
    for (const preset of rules.presets || []) family.insertBefore(h("option", { value: preset.name }, preset.name), family.lastElementChild);
  }).catch(() => undefined);
  load(true);
  return { stop: () => stopper.abort() };
}

function select(id, label, options) {
  return h("label", { class: "field" }, label,
    h("select", { id, name: id.replace("filter-", "") }, options.map(([value, text]) => h("option", { value }, text))));
}

/** One finished game: result, opponent, rules, points, rating change, when; Replay. */
function gameRow(game, name) {
  const result = game.result || "";
  const points = game.points || [0, 0];
  const facts = [game.family || "own rules", game.rated ? "rated" : "casual", `${game.hands} hand${game.hands === 1 ? "" : "s"}`, END_WORDS[game.end_reason] || game.end_reason];
  const change = ratingChange(game.rating);
  const opponent = game.opponent;
  const replay = `${pageHref("replay", game.game_id)}?as=${encodeURIComponent(name)}`;
  return h("li", { class: "game-row", "data-game": game.game_id, "data-result": result },
    h("span", { class: `result-chip ${result}` }, RESULT_WORDS[result] || result),
    h("span", { class: "game-what" },
      h("span", { class: "against" }, "against ", opponent ? h("a", { href: pageHref("players", opponent) }, playerLabel(opponent)) : "a guest",
        h("span", { class: "points" }, ` ${points[0]}–${points[1]}`)),
      h("small", {}, `${facts.join(" · ")}${change ? ` · ${change}` : ""} · ${when(game.finished_at)}`)),
    h("a", { class: "btn", href: replay, "data-action": "replay", "aria-label": `Replay the game against ${playerLabel(opponent)} of ${when(game.finished_at)}` }, "Replay"));
}

/** "rating 1342 → 1221 (−121)", or "" for an unrated game. */
function ratingChange(rating) {
  if (!rating || !rating.after) return "";
  const after = rating.after.rating;
  if (!rating.before) return `rating ${after} (first rated game)`;
  const diff = after - rating.before.rating;
  return `rating ${rating.before.rating} → ${after} (${diff >= 0 ? "+" : "−"}${Math.abs(diff)})`;
}

// --- the profile ---------------------------------------------------------------------------------------------
export function profilePage(ctx, name) {
  const stopper = new AbortController();
  const me = ctx.player();
  const mine = me && me.name.toLowerCase() === name.toLowerCase();
  const { page, body } = pageFrame({ title: playerLabel(name), current: mine ? "profile" : "profile", player: me });
  body.append(h("p", { class: "note", id: "profile-loading" }, "Loading the profile…"));
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  const graphs = [];
  (async () => {
    let profile;
    let history;
    try {
      [profile, history] = await Promise.all([ctx.api.profile(name), ctx.api.ratingHistory(name, mine ? me.token : null)]);
    } catch (err) {
      if (stopper.signal.aborted) return;
      clear(body).append(h("p", { class: "panel", role: "alert", id: "profile-problem" }, readProblem(ctx, err, name)));
      return;
    }
    if (stopper.signal.aborted) return;
    page.querySelector("#page-title").textContent = playerLabel(profile.name);
    drawProfile(body, profile, history, graphs, mine);
    relationBar(ctx, body.querySelector("#profile-summary .buttons"), profile, body.querySelector("#profile-followers"), stopper.signal); // follow, block, report (friends.js)
  })();
  return {
    stop() {
      stopper.abort();
      for (const graph of graphs) graph.disconnect();
    },
  };
}

function drawProfile(body, profile, history, graphs, mine) {
  const games = profile.games || {};
  const name = profile.name;
  const summary = h("section", { class: "panel", id: "profile-summary", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title" }, "Games"),
    h("dl", { class: "figures" },
      figure("Played", games.played || 0), figure("Won", games.won || 0), figure("Lost", games.lost || 0), figure("Followers", profile.followers || 0, "profile-followers")),
    h("p", {}, profile.created ? `${mine ? "You have" : `${playerLabel(name)} has`} played here since ${when(profile.created)}. ` : "",
      h("a", { href: pageHref("players", name, "games"), "data-action": "all-games" }, mine ? "All my games" : `All of ${playerLabel(name)}'s games`)),
    mine ? null : h("div", { class: "buttons" },
      h("a", { class: "btn primary", href: pageHref("challenge", name), "data-action": "challenge-player" }, `Challenge ${playerLabel(name)}`)));

  const families = [...new Set([...Object.keys(profile.ratings || {}), ...Object.keys(history.families || {})])];
  const ratings = h("section", { class: "panel", id: "profile-ratings", "aria-labelledby": "ratings-title" }, h("h2", { id: "ratings-title" }, "Ratings"));
  if (!families.length) ratings.append(h("p", { class: "note" }, "No rated game yet: a rated game (rules of a preset, as a signed-in player) starts a rating."));
  for (const family of families) {
    const rating = (profile.ratings || {})[family];
    const points = (history.families || {})[family] || [];
    const facts = rating
      ? [`${rating.rating} ± ${rating.deviation}${rating.provisional ? " (provisional)" : ""}`, rating.rank ? `#${rating.rank} on the leaderboard` : null, `${rating.games} rated game${rating.games === 1 ? "" : "s"}`].filter(Boolean)
      : [];
    const box = h("div", { class: "graph-box" });
    ratings.append(h("section", { class: "family", "data-family": family },
      h("h3", {}, family, facts.length ? h("span", { class: "family-facts" }, ` · ${facts.join(" · ")}`) : null),
      box,
      figuresTable(family, points)));
    graphs.push(drawWhenSized(box, () => ratingGraph(family, points, box.clientWidth)));
  }

  const stats = profile.stats || {};
  const statRows = STAT_LABELS.filter(([key]) => key in stats).map(([key, label]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", { class: "num" }, stats[key])));
  const statsPanel = h("section", { class: "panel", id: "profile-stats", "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, "Statistics"),
    statRows.length ? h("table", { class: "sheet" }, h("caption", { class: "visually-hidden" }, "Statistics over every finished game"), h("tbody", {}, statRows)) : h("p", { class: "note" }, "No hand played yet."));

  const recent = profile.recent || [];
  const recentPanel = h("section", { class: "panel", id: "profile-recent", "aria-labelledby": "recent-title" }, h("h2", { id: "recent-title" }, "Recent games"));
  if (!recent.length) recentPanel.append(h("p", { class: "note" }, "No finished game yet."));
  else {
    recentPanel.append(h("ul", { class: "game-list" }, recent.map((game) => h("li", { class: "game-row", "data-game": game.game_id, "data-result": game.result },
      h("span", { class: `result-chip ${game.result}` }, RESULT_WORDS[game.result] || game.result),
      h("span", { class: "game-what" },
        h("span", { class: "against" }, "against ", game.opponent ? h("a", { href: pageHref("players", game.opponent) }, playerLabel(game.opponent)) : "a guest"),
        h("small", {}, [game.family || "own rules", game.rated ? "rated" : "casual", END_WORDS[game.reason] || game.reason, when(game.finished_at)].filter(Boolean).join(" · "))),
      h("a", { class: "btn", href: `${pageHref("replay", game.game_id)}?as=${encodeURIComponent(name)}`, "data-action": "replay" }, "Replay")))));
  }
  clear(body).append(summary, ratings, statsPanel, recentPanel);
}

function figure(label, value, id = null) {
  return h("div", { class: "figure" }, h("dt", {}, label), h("dd", { id }, String(value)));
}

/** The graph's figures as a table, folded (for a screen reader, or to read the exact values). */
function figuresTable(family, points) {
  if (!points.length) return null;
  return h("details", { class: "figures-table" }, h("summary", {}, "The figures"),
    h("table", { class: "sheet" },
      h("caption", { class: "visually-hidden" }, `Rating in ${family} after each rated game`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "text" }, "Game"), h("th", { scope: "col", class: "text" }, "When"), h("th", { scope: "col", class: "num" }, "Before"), h("th", { scope: "col", class: "num" }, "After"))),
      h("tbody", {}, points.map((p, i) => h("tr", {},
        h("td", { class: "text" }, h("a", { href: pageHref("replay", p.game_id) }, `#${i + 1}`)),
        h("td", { class: "text" }, when(p.at)),
        h("td", { class: "num" }, p.before ? p.before.rating : "—"),
        h("td", { class: "num" }, p.after.rating))))));
}

/** Draw into `box` now and whenever its width changes (the graph is drawn at its size: its text stays
 * readable on a phone). Returns the observer (disconnect() when the page goes). */
function drawWhenSized(box, draw) {
  let width = 0;
  const redraw = () => {
    if (!box.isConnected || box.clientWidth === width) return;
    width = box.clientWidth;
    clear(box).append(draw());
  };
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(redraw) : { observe() {}, disconnect() {} };
  observer.observe(box);
  requestAnimationFrame(redraw);
  return observer;
}

/** A tick step of 1, 2, 2.5 or 5 × a power of ten, near `rough`. */
function niceStep(rough) {
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1e-9)));
  const scaled = rough / power;
  const step = scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 2.5 ? 2.5 : scaled <= 5 ? 5 : 10;
  return step * power;
}

/** A short date for an axis: "24 Nov". */
function shortDate(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString(undefined, { day: "numeric", month: "short" });
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  add(el, ...children);
  return el;
}

/**
 * The rating after each rated game of a family, as a line: x the rated games in order (their dates under
 * the first and the last), y the rating, both axes labelled, a point per game with its figures in a tooltip.
 * Drawn at `width` pixels (the viewBox is the size it is shown at).
 */
export function ratingGraph(family, points, width) {
  const W = Math.max(280, Math.min(1000, Math.round(width || 640)));
  const narrow = W < 460;
  const H = narrow ? 220 : 260;
  const left = 62;
  const right = 16;
  const top = 14;
  const bottom = 52;
  const values = points.map((p) => p.after.rating);
  const id = `graph-${family.replace(/[^a-z0-9-]/gi, "")}`;
  const title = s("title", { id: `${id}-title` }, `Rating in ${family} after each rated game`);
  const first = values[0];
  const last = values[values.length - 1];
  const desc = s("desc", { id: `${id}-desc` }, values.length
    ? `${values.length} rated game${values.length === 1 ? "" : "s"} from ${when(points[0].at)} to ${when(points[points.length - 1].at)}: from ${first} to ${last}, lowest ${Math.min(...values)}, highest ${Math.max(...values)}.`
    : "No rated game yet.");
  const svg = s("svg", {
    class: "rating-graph", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`, "data-family": family, "data-points": values.length,
  }, title, desc);
  if (!values.length) {
    svg.append(s("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "axis-label" }, "No rated game yet"));
    return svg;
  }
  let low = Math.min(...values);
  let high = Math.max(...values);
  const step = niceStep(Math.max(high - low, 40) / 4);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  if (high === low) high = low + step;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const x = (i) => left + (values.length === 1 ? plotW / 2 : (i * plotW) / (values.length - 1));
  const y = (v) => top + ((high - v) * plotH) / (high - low);
  const grid = s("g", { class: "grid" });
  for (let v = low; v <= high + step / 2; v += step) {
    grid.append(s("line", { x1: left, x2: W - right, y1: y(v), y2: y(v) }),
      s("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(Math.round(v))));
  }
  const axes = s("g", { class: "axes" },
    s("line", { x1: left, x2: left, y1: top, y2: top + plotH }),
    s("line", { x1: left, x2: W - right, y1: top + plotH, y2: top + plotH }));
  const ticks = s("g", { class: "x-ticks" });
  const every = Math.max(1, Math.ceil(values.length / (narrow ? 5 : 10)));
  values.forEach((_, i) => {
    if (i % every && i !== values.length - 1) return;
    ticks.append(s("line", { x1: x(i), x2: x(i), y1: top + plotH, y2: top + plotH + 4 }),
      s("text", { x: x(i), y: top + plotH + 16, "text-anchor": "middle", class: "tick" }, String(i + 1)));
  });
  const dates = s("g", { class: "dates" },
    s("text", { x: left, y: H - 20, "text-anchor": "start", class: "tick" }, shortDate(points[0].at)),
    values.length > 1 ? s("text", { x: W - right, y: H - 20, "text-anchor": "end", class: "tick" }, shortDate(points[points.length - 1].at)) : null);
  const xLabel = s("text", { x: left + plotW / 2, y: H - 4, "text-anchor": "middle", class: "axis-label" }, "Rated games, oldest to newest");
  const yLabel = s("text", { x: 13, y: top + plotH / 2, "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 13 ${top + plotH / 2})` }, "Rating");
  const d = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
  const line = s("path", { class: "line", d, "data-points": values.length });
  const dots = s("g", { class: "dots" }, points.map((p, i) => {
    const before = p.before ? p.before.rating : null;
    const change = before === null ? "first rated game" : `${before} → ${p.after.rating} (${p.after.rating - before >= 0 ? "+" : "−"}${Math.abs(p.after.rating - before)})`;
    return s("circle", { cx: x(i), cy: y(p.after.rating), r: 4 }, s("title", {}, `Game ${i + 1}, ${when(p.at)}: ${p.after.rating} — ${change}`));
  }));
  svg.append(grid, axes, ticks, dates, xLabel, yLabel, line, dots);
  return svg;
}
