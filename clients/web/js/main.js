// The page: which service to talk to, the start page (a game against a bot, or an invitation for a
// friend), joining by an invitation link, opening a game, and the pages beside the table. The address says
// where the player is:
//   /play/                                   the start page
//   /play/#game=<game id>&seat=<0|1>         a game (the seat's token is in this browser's storage, or the
//                                            seat is the signed-in account's: its session opens it)
//   /play/#join=<game id>.<invitation>       an invitation: the fragment never reaches a server or a log
//   /play/#/games                            the signed-in player's finished games (records.js)
//   /play/#/players/<name>[/games]           a player's profile with its rating graphs, or its games
//   /play/#/replay/<game id>[?as=<name>&hand=<n>&move=<k>]   a finished match, step by step (replay.js)
//   /play/#/watch[/<game id>]                the public games in play; one of them, live (watch.js)
//   /play/#/challenge[/<name>]               challenge a player or a house bot (challenge.js)
//   /play/#/security                         the account's sessions, API tokens and password (security.js)
//   /play/#/friends                          the players the account follows, online and playing; blocks (friends.js)
//   /play/#/tournaments[/<id>]               the tournaments and the form of a new one (tournaments.js); one
//                                            of them, live, where its player's games open (tournament.js)
//   ?server=http://host:port                 talk to that service, for this visit only (never remembered:
//                                            a banner names it on every page, and no password goes there
//                                            before the person confirms it by name; trust.js)
// The start page's account is in account.js; its pools' grid in pools.js, its lobby and quick match in
// lobby.js. The challenges of the
// player signed in, received and sent, are in a box at the top of every page (challenges.js).

import { accountPanels } from "./account.js";
import { Api, ApiError, NetworkError } from "./api.js";
import { cardInline } from "./cards.js";
import { challengePage } from "./challenge.js";
import { ChallengeBox } from "./challenges.js";
import { add, clear, h } from "./dom.js";
import { friendsPage } from "./friends.js";
import { GameController } from "./game.js";
import { clockWords, peoplePanels } from "./lobby.js";
import { choosePlayerPage, gamesPage, profilePage } from "./records.js";
import { securityPage } from "./security.js";
import { ReplayViewer } from "./replay.js";
import { settingsFields } from "./settings.js";
import { rememberEntryCode, tournamentPage } from "./tournament.js";
import { tournamentsPage } from "./tournaments.js";
import { pageHref, siteNav } from "./site.js";
import * as storage from "./storage.js";
import { Spectator, watchList } from "./watch.js";
import { isForeign, normalizeServer, ownService, serverBanner } from "./trust.js";
import { networkText, problemText } from "./words.js";

const app = document.getElementById("app");
const alertBox = document.getElementById("alert");
const noticeBox = document.getElementById("notice");
const announceBox = document.getElementById("announce");
let current = null;
let noticeTimer = null;

// --- the service -------------------------------------------------------------------------------------------
// The page's own service, or the ?server= of this very address: a service of another origin is used for
// this visit only — never remembered (trust.js) — and named in a banner at the top of every page.
let serverRefused = null; // a ?server= that is not a URL
function chooseServer() {
  const asked = new URLSearchParams(location.search).get("server");
  if (asked) {
    const url = normalizeServer(asked);
    if (url) return url;
    serverRefused = asked;
  }
  return ownService();
}

/** Talk to another service from now on: the page is loaded again with ?server= (none for its own). */
function switchServer(url) {
  const next = new URL(location.href);
  if (url === ownService()) next.searchParams.delete("server");
  else next.searchParams.set("server", url);
  next.hash = "";
  location.href = next.toString();
}

// Earlier versions of this page kept a ?server= for every later visit (localStorage gin.server): a link
// opened once could send every later sign-in elsewhere. Whatever an earlier version kept is dropped.
storage.forgetServer();

const server = chooseServer();
const api = new Api(server);
const foreign = isForeign(server);

/** While a service of another origin is in use, every page says which one, above everything else. */
function showServerBanner() {
  const banner = document.getElementById("server-banner");
  if (!banner || !foreign) return;
  add(clear(banner), serverBanner(server, { onOwn: () => switchServer(ownService()) }));
  banner.hidden = false;
}
showServerBanner();

// --- messages ------------------------------------------------------------------------------------------------
// The alert sits above the page (in its flow: it pushes the page down rather than covering the score bar);
// notices are short-lived and float at the bottom. An alert of `kind` "network" (the service could not be
// reached) goes by itself once a request succeeds: clearError("network").
function showError(text, { actions = null, kind = "error" } = {}) {
  add(clear(alertBox),
    h("span", { class: "text", id: "alert-text" }, text),
    actions,
    h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => clearError() }, "×"));
  alertBox.dataset.kind = kind;
  alertBox.hidden = false;
}

/** Hide the alert (only if it is of `kind`, when one is given). */
function clearError(kind) {
  if (kind && alertBox.dataset.kind !== kind) return;
  alertBox.hidden = true;
  delete alertBox.dataset.kind;
  clear(alertBox);
}

function notice(text) {
  noticeBox.textContent = text;
  noticeBox.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    noticeBox.hidden = true;
    noticeBox.textContent = "";
  }, 6000);
}

/** Say something to a screen reader (a live region that stays in the page: the table is redrawn). */
function announce(text) {
  if (!announceBox || !text) return;
  announceBox.append(h("p", {}, text));
  while (announceBox.childElementCount > 6) announceBox.firstElementChild.remove();
}

const explain = problemText;

function inviteLink(entry) {
  const url = new URL(location.href);
  url.search = "";
  if (entry.server !== location.origin) url.searchParams.set("server", entry.server);
  url.hash = `join=${entry.gameId}.${entry.invitation}`;
  return url.toString();
}

const ui = {
  root: app,
  showError,
  clearError,
  notice,
  announce,
  inviteLink,
  leave() {
    history.pushState(null, "", location.pathname + location.search);
    route();
  },
  /** Open another game of this browser (a rematch): a new entry in the history. */
  open(gameId, seat) {
    history.pushState(null, "", gameAddress(gameId, seat));
    route();
  },
  reload() {
    routed = null;
    route();
  },
  /** Say where the page is now without going anywhere (the replay's step): no new history entry. */
  setAddress(hash) {
    const next = `${location.pathname}${location.search}${hash}`;
    if (next === `${location.pathname}${location.search}${location.hash}`) return;
    history.replaceState(null, "", next);
    routed = location.href;
  },
  explain: (err) => problemText(err),
};

/** What the pages beside the table get: the service, the page's root, the messages, who plays here. */
const pages = {
  api,
  server,
  root: app,
  ui,
  showError,
  clearError,
  notice,
  explain: (err) => problemText(err),
  player: () => storage.loadPlayer(server),
  go: (gameId, seat) => ui.open(gameId, seat),
  onChange: () => ui.reload(),
  announce,
  /** Go to a tournament's page (a new private one's entry code, shown there once). */
  openTournament(tournamentId, entryCode) {
    rememberEntryCode(tournamentId, entryCode);
    location.hash = pageHref("tournaments", tournamentId);
  },
};

// The player's challenges, on every page (it follows whoever is signed in: route() tells it).
const challengeBox = new ChallengeBox({ ...pages, root: document.getElementById("challenges"), announce });
pages.challenges = challengeBox;

// --- routing -------------------------------------------------------------------------------------------------
let routed = null;

function route() {
  if (routed === location.href) return; // hashchange and popstate both report one move
  routed = location.href;
  current?.stop();
  current = null;
  challengeBox.follow(storage.loadPlayer(server));
  if (location.hash.startsWith("#/")) {
    showPage(location.hash.slice(2));
    return;
  }
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("join")) showJoin(fragment.get("join"));
  else if (fragment.has("game")) openGame(fragment.get("game"), Number(fragment.get("seat") || 0));
  else showLobby();
}

/** A page beside the table: #/games, #/players/<name>[/games], #/replay/<id>?…, #/watch[/<id>]. */
function showPage(path) {
  const [where, query] = path.split("?");
  const parts = where.split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const params = new URLSearchParams(query || "");
  const player = storage.loadPlayer(server);
  clearError();
  document.title = "Gin Rummy";
  switch (parts[0]) {
    case "games":
      current = player ? gamesPage(pages, player.name) : choosePlayerPage(pages, "games");
      return;
    case "players":
      if (!parts[1]) current = player ? profilePage(pages, player.name) : choosePlayerPage(pages, "profile");
      else current = parts[2] === "games" ? gamesPage(pages, parts[1]) : profilePage(pages, parts[1]);
      document.title = `Gin Rummy — ${parts[1] || "players"}`;
      return;
    case "replay":
      if (parts[1]) {
        current = new ReplayViewer(pages, parts[1], { as: params.get("as"), hand: params.get("hand"), move: params.get("move") });
        current.start();
        document.title = "Gin Rummy — replay";
        return;
      }
      break;
    case "watch":
      if (parts[1]) {
        current = new Spectator(pages, parts[1]);
        current.start();
      } else {
        current = watchList(pages);
        document.title = "Gin Rummy — watch";
      }
      return;
    case "challenge":
      current = challengePage(pages, parts[1] || "");
      document.title = "Gin Rummy — challenge";
      return;
    case "tournaments":
      current = parts[1] ? tournamentPage(pages, parts[1]) : tournamentsPage(pages);
      document.title = "Gin Rummy — tournaments";
      return;
    case "friends":
      current = friendsPage(pages);
      document.title = "Gin Rummy — friends";
      return;
    case "security":
      current = securityPage(pages);
      document.title = "Gin Rummy — account security";
      return;
    case "account":
      showLobby(); // the account panel is on the start page
      (app.querySelector("#account-name") || app.querySelector("#player"))?.focus();
      return;
    default:
      break;
  }
  showLobby();
}

function gameAddress(gameId, seat) {
  return `${location.pathname}${location.search}#game=${encodeURIComponent(gameId)}&seat=${seat}`;
}

function go(gameId, seat) {
  // replaceState: an invitation in the address is dropped from the history once it has been used.
  history.replaceState(null, "", gameAddress(gameId, seat));
  route();
}

function openGame(gameId, seat) {
  let entry = storage.loadSeat(gameId, seat);
  const player = storage.loadPlayer(server);
  if (!entry && player) {
    // No seat token here: the seat is the player's (a game of the account started on any device), and the
    // player's session (or key) opens it. What this browser kept of it (the shuffle checks) comes along.
    const kept = storage.loadAccountSeat(gameId, seat, player.name) || {};
    entry = { commitments: {}, verified: {}, ...kept, gameId, seat, server, name: player.name, player: player.name, account: player.name, token: player.token };
  }
  if (!entry) {
    showLobby();
    showError("This browser holds no seat of that game (its seat token is kept only where the game was started or joined). If it is a game of your account, sign in first.");
    return;
  }
  clearError();
  document.title = "Gin Rummy — game";
  current = new GameController(entry, ui);
  current.start();
}

// --- joining -------------------------------------------------------------------------------------------------
// Before the Join button, the page looks at the game as anyone may (GET /v1/games/{id} without a token: the
// spectator view): who invites, with which rules, and whether seat 1 is still free.
async function showJoin(text) {
  const dot = text.indexOf(".");
  const gameId = dot > 0 ? text.slice(0, dot) : "";
  const invitation = dot > 0 ? text.slice(dot + 1) : "";
  if (!gameId || !invitation) {
    showLobby();
    showError("This invitation link is damaged: it should end with #join=<game>.<invitation>.");
    return;
  }
  const mine = storage.loadSeat(gameId, 1);
  if (mine) {
    go(gameId, 1); // joined already (e.g. reloaded the invitation): back to the game
    return;
  }
  document.title = "Gin Rummy — invitation";
  const here = location.href;
  const panel = h("section", { class: "panel join", "aria-live": "polite" }, h("h2", {}, "An invitation to a game of Gin Rummy"), h("p", { class: "note" }, "Looking at the game…"));
  clear(app).append(h("section", { class: "lobby" }, brand(), panel));
  let game = null;
  try {
    game = await api.view(gameId);
  } catch (err) {
    if (location.href !== here) return;
    if (err instanceof ApiError && err.code === "game_not_found") {
      clear(panel).append(h("h2", {}, "This invitation has expired"), h("p", {}, "The game it was for does not exist any more."), toStart());
      return;
    }
    // The game cannot be looked at just now: offer the seat anyway (joining says what is wrong, if anything).
  }
  if (location.href !== here) return; // the player went elsewhere meanwhile
  const seats = game?.players || [];
  const host = seats.find((p) => p && p.seat === 0)?.name || "Your friend";
  const guest = seats.find((p) => p && p.seat === 1)?.name;
  if (game && !game.waiting_for_opponent) {
    clear(panel).append(
      h("h2", {}, `${host}'s game`),
      h("p", {}, `This invitation has been used: the other seat at ${host}'s table is taken${guest ? ` (${guest} joined)` : ""}. An invitation works once; ask ${host} for a new game.`),
      toStart(),
    );
    return;
  }
  if (storage.loadSeat(gameId, 0)) {
    // The host opened their own link (to check it): it is for the friend.
    clear(panel).append(
      h("h2", {}, "Your own invitation"),
      h("p", {}, "This is the link to send to the person you invite: opening it takes the other seat of your game."),
      h("div", { class: "buttons" }, h("button", { type: "button", class: "btn primary", "data-action": "resume", onclick: () => go(gameId, 0) }, "Back to the game")),
    );
    return;
  }
  if (game && (game.phase === "match_over" || game.scores?.match_over)) {
    clear(panel).append(h("h2", {}, `${host}'s game`), h("p", {}, `This game is over: ${host} ended it before anyone joined.`), toStart());
    return;
  }
  drawJoinForm(panel, { gameId, invitation, host, game });
}

function toStart() {
  return h("div", { class: "buttons" }, h("button", { type: "button", class: "btn primary", "data-action": "to-start", onclick: () => ui.leave() }, "To the start page"));
}

function drawJoinForm(panel, { gameId, invitation, host, game }) {
  const player = storage.loadPlayer(server); // joins as that player (a rated game needs one)
  const name = h("input", { id: "join-name", name: "name", maxlength: "40", autocomplete: "nickname", value: player?.name || storage.playerName(), "aria-describedby": "join-name-error" });
  const nameError = h("p", { id: "join-name-error", class: "field-error", hidden: true });
  const facts = [];
  if (game) {
    const rules = game.rules || {};
    if (rules.target) facts.push(`game to ${rules.target}`);
    facts.push(rules.knock_limit ? `knock at ≤ ${rules.knock_limit}` : "gin only");
    facts.push(clockWords(game.clock));
    if (game.rated) facts.push("rated");
  }
  const form = h(
    "form",
    {
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        const chosen = name.value.trim();
        if (!chosen) {
          nameError.textContent = `Choose a name: it is the one ${host === "Your friend" ? "your opponent" : host} sees at the table.`;
          nameError.hidden = false;
          name.setAttribute("aria-invalid", "true");
          name.focus();
          return;
        }
        nameError.hidden = true;
        name.removeAttribute("aria-invalid");
        const submit = form.querySelector("button[type=submit]");
        submit.disabled = true;
        clearError();
        storage.rememberName(chosen);
        try {
          const joined = await api.join(gameId, invitation, chosen, player?.token);
          storage.saveNewSeat({ gameId: joined.game_id || gameId, seat: joined.seat, token: joined.token, server, name: chosen, player: player?.name, opponent: "human", commitments: {}, verified: {} }, player);
          go(joined.game_id || gameId, joined.seat);
        } catch (err) {
          submit.disabled = false;
          showError(`Cannot join: ${explain(err)}`);
        }
      },
    },
    h("label", { class: "field" }, "Your name", name),
    nameError,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "btn primary", "data-action": "join" }, "Join the game")),
  );
  add(clear(panel),
    h("h2", {}, game ? `${host} invites you to a game of Gin Rummy` : "You are invited to a game of Gin Rummy"),
    h("p", {}, game ? `${host} is waiting at the table. Choose a name and take your seat.` : "Choose a name and take your seat."),
    facts.length ? h("p", { class: "note" }, facts.join(" · ")) : null,
    player ? h("p", { class: "note" }, `You join as the player ${player.name}.`) : null,
    game?.rated && !player ? h("p", { class: "note" }, "This game is rated: sign in on the start page first, then open the link again.") : null,
    form,
  );
  name.focus();
}

// --- the start page --------------------------------------------------------------------------------------------
function brand(player) {
  return h("header", { class: "lobby-head" },
    h("h1", {}, h("span", { class: "suits", "aria-hidden": "true" }, "♠♥"), " Gin Rummy ", h("span", { class: "suits", "aria-hidden": "true" }, "♦♣")),
    h("p", {}, "Play against the computer, invite a friend, or meet someone in the lobby."),
    player === undefined ? null : siteNav("play", player));
}

async function showLobby() {
  document.title = "Gin Rummy";
  const player = storage.loadPlayer(server);
  const name = h("input", { id: "name", name: "name", maxlength: "40", autocomplete: "nickname", value: storage.playerName(), placeholder: "Player 1" });
  const fields = settingsFields({ player, showError });
  const bot = h("select", { id: "bot", name: "bot", "aria-describedby": "bot-desc" });
  const botDesc = h("p", { id: "bot-desc", class: "note" }, "Loading the bots…");
  const seed = h("input", { id: "seed", name: "seed", type: "number", inputmode: "numeric" });
  // A game is public unless asked otherwise: listed on Watch while it is played (POST /v1/games "private").
  const privateBox = h("input", { id: "private", name: "private", type: "checkbox", "aria-describedby": "public-note" });
  const playButton = h("button", { type: "submit", class: "btn primary", "data-action": "play-bot" }, "Play against the bot");
  const inviteButton = h("button", { type: "button", class: "btn", "data-action": "invite", onclick: () => start(false) }, "Invite a friend");
  const quickButton = player
    ? h("button", { type: "button", class: "btn", "data-action": "quick-match", title: "Play the first person waiting with the same rules and clock, or wait in the lobby", onclick: () => seekGame() }, "Quick match")
    : null;
  let bots = [];

  async function seekGame() {
    const chosen = fields.read();
    if (chosen) await people.quickMatch(chosen, quickButton);
  }

  async function start(againstBot) {
    clearError();
    const chosen = fields.read();
    if (!chosen) return;
    const body = { ...chosen, opponent: againstBot ? { type: "bot", bot: bot.value || undefined } : { type: "human" } };
    const who = player ? player.name : name.value.trim();
    if (!player) storage.rememberName(who);
    if (who && !player) body.name = who;
    if (seed.value !== "") body.seed = Number(seed.value);
    if (privateBox.checked) body.private = true;
    playButton.disabled = inviteButton.disabled = true;
    try {
      const created = await api.create(body, player?.token);
      storage.saveNewSeat({
        gameId: created.game_id,
        seat: created.seat,
        token: created.token,
        invitation: created.invitation || undefined,
        server,
        name: who,
        player: player?.name,
        opponent: againstBot ? bot.value : "human",
        commitments: {},
        verified: {},
      }, player);
      go(created.game_id, created.seat);
    } catch (err) {
      playButton.disabled = inviteButton.disabled = false;
      showError(`The game could not be started: ${explain(err)}`);
    }
  }

  const form = h("form", { id: "new-game", onsubmit: (e) => { e.preventDefault(); start(true); } },
    player ? null : h("label", { class: "field" }, "Your name", name),
    h("label", { class: "field" }, "Opponent", bot),
    botDesc,
    fields.rules(),
    fields.clockRow(),
    h("label", { class: "check" }, privateBox, h("span", {}, "Private", h("small", {}, " — not listed on Watch"))),
    h("p", { class: "note", id: "public-note" },
      "Games are public: while one is played it is listed on ", h("a", { href: "#/watch" }, "Watch"),
      ", where anyone can follow the table (never your cards). Tick Private to keep this game off the list; anyone with its link can still watch it. Games from the lobby and challenges are always listed."),
    h("details", { class: "more" },
      h("summary", {}, "Rule options and a seed"),
      fields.options(),
      h("label", { class: "field" }, "Seed (fixed deals; test services only)", seed)),
    h("div", { class: "buttons" }, playButton, inviteButton, quickButton));
  // Below the pools' grid, folded while a player is signed in (the pools are for players: for anyone else
  // this is the page's way to play, open).
  const moreOptions = h("details", { class: "panel more-options", id: "more-options", open: !player },
    h("summary", {}, h("h2", {}, "More options"), h("span", { class: "note" }, "A bot, a friend, any rules and clock")),
    form);

  const people = peoplePanels({
    api,
    server,
    showError,
    clearError,
    notice,
    announce,
    explain,
    go,
    onSeeking: (on, refocus) => {
      if (!quickButton) return;
      quickButton.disabled = on;
      if (refocus) quickButton.focus();
    },
  });
  const account = accountPanels({ ...pages, go, withdrawSeek: () => people.withdrawSeek() });
  current = { // their polls stop when the page changes
    stop() {
      people.stop();
      account.stop();
    },
  };
  const page = h("section", { class: "lobby" }, brand(player), account.panel, account.games, people.pools, moreOptions, people.lobby, people.leaderboard, analyzePanel(), serverPanel());
  clear(app).append(page);

  try {
    const [botList, rules] = await Promise.all([api.bots(), api.rules()]);
    bots = botList.bots || [];
    for (const b of bots) bot.append(h("option", { value: b.name, selected: b.name === (botList.default || "simple") }, `${b.name} — level ${b.level}`));
    fields.fill(rules);
    people.setFamilies((rules.presets || []).map((p) => p.name));
    const describe = () => {
      const b = bots.find((x) => x.name === bot.value);
      botDesc.textContent = b ? b.description : "";
      playButton.textContent = b ? `Play against ${b.name}` : "Play against the bot";
    };
    bot.addEventListener("change", describe);
    describe();
  } catch (err) {
    fields.fill({}); // no rules to describe
    botDesc.textContent = "";
    botDesc.append("No bots: the service does not answer (see the message above, or change the service below).");
    page.querySelector("details.server")?.setAttribute("open", "");
    const own = ownService();
    const back = server !== own && location.protocol.startsWith("http")
      ? h("button", { type: "button", class: "btn", "data-action": "own-server", onclick: () => switchServer(own) }, `Use ${own}`)
      : null;
    const why = err instanceof NetworkError ? networkText(err) : `The service at ${server} does not answer: ${explain(err)}`;
    showError(why, { actions: back ? h("span", { class: "alert-actions" }, back) : null });
  }
  if (serverRefused) {
    showError(`"?server=${serverRefused}" is not a service URL (it must start with http:// or https://): using ${server}.`);
  }
}

/** What `gin analyze` does: melds, deadwood and the best discards of any 10 or 11 cards. */
function analyzePanel() {
  const input = h("input", { id: "analyze-cards", type: "text", spellcheck: "false", autocomplete: "off", placeholder: "7h 8h 9h 10s js qs ks 2c 2d 5h", "aria-label": "Cards to analyze" });
  const out = h("div", { id: "analysis", class: "analysis", "aria-live": "polite" });
  const form = h("form", {
    onsubmit: async (event) => {
      event.preventDefault();
      clearError();
      const cards = input.value.split(/[\s,]+/).filter(Boolean);
      try {
        const a = await api.analyze(cards);
        const row = (label, list) => h("p", {}, h("b", {}, label), " ", list.length ? list : "none");
        const melds = (a.melds || []).map((m, i) => [i ? " " : "", h("span", { class: "meld-text" }, "[", m.map((c, j) => [j ? " " : "", cardInline(c)]), "]")]);
        const verdicts = [["can_knock", "knock"], ["can_gin", "gin"], ["big_gin", "big gin"]]
          .filter(([key]) => a[key] !== null && a[key] !== undefined)
          .map(([key, label]) => `${label}: ${a[key] ? "yes" : "no"}`)
          .join(" · ");
        const discards = [...(a.discards || [])].sort((x, y) => x.deadwood - y.deadwood).slice(0, 5);
        // Through h(), which skips a missing part: Element.append would write a null as the text "null".
        clear(out).append(h("div", {},
          row("Melds:", melds),
          row(`Deadwood ${a.deadwood}:`, (a.deadwood_cards || []).map((c, i) => [i ? " " : "", cardInline(c)])),
          discards.length ? row("Best discards:", discards.map((d, i) => [i ? ", " : "", cardInline(d.card), ` → ${d.deadwood}`])) : null,
          verdicts ? h("p", {}, verdicts) : null));
      } catch (err) {
        clear(out);
        showError(`Cannot analyze: ${explain(err)}`);
      }
    },
  }, h("p", { class: "note" }, "Type 10 or 11 cards (7h, 10♥, TH, QS…): the service finds the melds, the deadwood and the best discards."),
    h("div", { class: "invite-row" }, input, h("button", { type: "submit", class: "btn", "data-action": "analyze" }, "Analyze")));
  return h("details", { class: "panel analyze" }, h("summary", {}, "Analyze a hand"), form, out);
}

function serverPanel() {
  const input = h("input", { id: "server", type: "url", value: server, "aria-label": "Service URL" });
  return h("details", { class: "panel server" },
    h("summary", {}, "Service: ", h("code", {}, server)),
    h("form", { onsubmit: (e) => {
      e.preventDefault();
      const url = normalizeServer(input.value);
      if (!url) {
        showError("The service URL must start with http:// or https://");
        return;
      }
      switchServer(url);
    } },
      h("p", { class: "note" }, "This page can play on any Gin Rummy service that allows its origin (GIN_CORS_ORIGINS). Another service is used for this visit only (it is in the address), named at the top of every page, and gets a password only once you confirm it."),
      h("div", { class: "invite-row" }, input, h("button", { type: "submit", class: "btn" }, "Use"))));
}

window.addEventListener("hashchange", route);
window.addEventListener("popstate", route);
route();
