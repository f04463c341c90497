// The people of the start page: quick pairing (the pools' grid: pools.js), the lobby (GET /v1/lobby: open
// seeks, each with a Play button that takes it, as the player signed in or logged in on this service:
// account.js), a quick match (POST /v1/seeks: paired at once, or waiting with a long poll on GET
// /v1/seeks/{id} until someone takes it, with a Cancel button — and, after a while in a pool, the house bot
// the service offers instead), and a small leaderboard. A seek's token becomes the seat's token of the game
// it starts; the page keeps it (storage.js) so that a reload goes on waiting.

import { ApiError, NetworkError, sleep } from "./api.js";
import { clear, h } from "./dom.js";
import { poolGrid } from "./pools.js";
import * as storage from "./storage.js";

const LOBBY_EVERY = 3000; // ms between two looks at the open seeks while the start page is shown
const SEEK_WAIT = 25; // seconds of one long poll on the seek

/** A time control in words: "30 s for the match", "1 min a move", "5 min + 5 s a move". */
export function clockWords(clock) {
  if (!clock) return "no clock";
  const preset = CLOCK_CHOICES.find(([key, , spec]) => spec?.preset && spec.preset === clock.preset);
  if (preset) return preset[1];
  const parts = [];
  if (clock.bank != null) parts.push(`${duration(clock.bank)} for the match`);
  if (clock.per_move != null) parts.push(`${duration(clock.per_move)} a move`);
  let text = parts.join(", ") || "no clock";
  if (clock.increment) text += ` + ${duration(clock.increment)} a move`;
  return text;
}

function duration(seconds) {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The clocks a new game or a seek may have (the form's select). */
export const CLOCK_CHOICES = [
  ["", "No clock", null],
  ["blitz", "Blitz: 3 min for the match + 2 s a move", { preset: "blitz" }],
  ["rapid", "Rapid: 10 min for the match + 5 s a move", { preset: "rapid" }],
  ["classical", "Classical: 30 min for the match + 10 s a move", { preset: "classical" }],
  ["move60", "1 min a move", { per_move: 60 }],
  ["eaai", "EAAI (bots): 30 s for the whole match", { preset: "eaai" }],
];

/** The seat of a game the lobby started, saved like any other (the game page reads it from storage). */
function saveStarted(ctx, { gameId, seat, token, opponent = "human" }) {
  const player = storage.loadPlayer(ctx.server);
  storage.saveNewSeat({ gameId, seat, token, server: ctx.server, name: player?.name || "", player: player?.name, opponent, commitments: {}, verified: {} }, player);
  ctx.go(gameId, seat);
}

/**
 * The start page's people: ctx = {api, server, showError, clearError, notice, announce, go(gameId, seat),
 * explain(err)}. Returns {pools, lobby, leaderboard} panels, quickMatch(), withdrawSeek() and stop().
 */
export function peoplePanels(ctx) {
  const stopper = new AbortController();
  const signal = stopper.signal;
  let seekAbort = null;

  // --- quick pairing: the pools, and the wait for an opponent --------------------------------------------
  const seeking = h("div", { id: "seeking", class: "seeking", hidden: true });
  const pools = poolGrid({
    api: ctx.api,
    player: storage.loadPlayer(ctx.server),
    join: (pool, button) => quickMatch(pool.seek, button, pool.id),
  });
  const poolsPanel = h("section", { class: "panel pools-panel", id: "quick-pairing", "aria-labelledby": "pools-title" },
    h("h2", { id: "pools-title" }, "Quick pairing"),
    h("p", { class: "note" }, storage.loadPlayer(ctx.server)
      ? "Rated games: pick a pool and play the next person who picks it."
      : "Sign in (above) to play in a pool — or play a bot or a friend under More options."),
    pools.grid, seeking);

  // --- the lobby -----------------------------------------------------------------------------------------
  const seekList = h("ul", { id: "seeks", class: "seek-list", "aria-label": "Open seeks" });
  const lobbyNote = h("p", { class: "note", id: "lobby-note" }, "Looking at the lobby…");
  const lobbyPanel = h("section", { class: "panel lobby-panel", id: "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, "Lobby"), lobbyNote, seekList);

  /** The open seeks; the player's token leaves out those of players in a block with it (when it is no good
   * any more, the account panel says so: the lobby is read without it). */
  async function readLobby(player) {
    try {
      return (await ctx.api.lobby(signal, player?.token)).seeks || [];
    } catch (err) {
      if (player && err instanceof ApiError && err.status === 401) return readLobby(null);
      throw err;
    }
  }

  async function refreshLobby() {
    const player = storage.loadPlayer(ctx.server);
    let seeks;
    try {
      seeks = await readLobby(player);
    } catch {
      if (!signal.aborted) lobbyNote.textContent = "The lobby cannot be read just now.";
      return;
    }
    const mine = storage.loadSeek(ctx.server);
    const others = seeks.filter((s) => !(mine && mine.id === s.id) && !(player && s.player === player.name)).length;
    if (!seeks.length) {
      lobbyNote.textContent = player
        ? "Nobody is waiting. Quick match puts you in the lobby until someone comes."
        : "Nobody is waiting. Sign in (above) to seek a game here.";
    }
    else if (!others) lobbyNote.textContent = "Only your seek is open for now.";
    else lobbyNote.textContent = player ? "Players waiting for an opponent: Play takes their seek and starts the game." : "Players waiting for an opponent. Sign in (above) to play them.";
    const focused = document.activeElement?.dataset?.seek;
    clear(seekList);
    for (const seek of seeks) {
      const own = (mine && mine.id === seek.id) || (player && seek.player === player.name);
      const rules = seek.rules || {};
      const facts = [rules.preset || seek.family, clockWords(rules.clock), seek.rated ? "rated" : "casual"];
      if (rules.options && Object.keys(rules.options).length) facts.push(Object.entries(rules.options).map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(", "));
      const play = own
        ? h("span", { class: "chip mine" }, "yours")
        : h("button", {
          type: "button",
          class: "btn",
          "data-action": "accept-seek",
          "data-seek": seek.id,
          disabled: !player,
          title: player ? `Play ${seek.player}` : "Sign in to play",
          "aria-label": `Play ${seek.player}: ${facts.join(", ")}`,
          onclick: (event) => accept(seek, event.currentTarget),
        }, "Play");
      seekList.append(h("li", { "data-seek": seek.id },
        h("span", { class: "what" }, h("b", {}, seek.player), seek.rating != null ? ` (${seek.rating})` : "", h("small", {}, ` · ${facts.join(" · ")}`)),
        play));
    }
    if (focused) seekList.querySelector(`[data-seek="${CSS.escape(focused)}"] button`)?.focus();
  }

  async function lobbyLoop() {
    while (!signal.aborted) {
      if (document.visibilityState !== "hidden") await Promise.all([refreshLobby(), pools.refresh(signal)]);
      await sleep(LOBBY_EVERY, signal);
    }
  }

  async function accept(seek, button) {
    const player = storage.loadPlayer(ctx.server);
    if (!player) return;
    button.disabled = true;
    ctx.clearError();
    const mine = storage.loadSeek(ctx.server);
    if (mine && !(await cancelSeek(mine, { quiet: true }))) return; // ours was taken meanwhile: that game
    try {
      const game = await ctx.api.acceptSeek(seek.id, player.token);
      saveStarted(ctx, { gameId: game.game_id, seat: game.seat, token: game.token });
    } catch (err) {
      button.disabled = false;
      ctx.showError(`Cannot play ${seek.player}: ${ctx.explain(err)}`);
      refreshLobby();
    }
  }

  // --- seeking -------------------------------------------------------------------------------------------
  /** Post a seek (of the pool `pool`, when it is one's): a game at once, or a wait in the lobby. */
  async function quickMatch(body, button, pool = null) {
    const player = storage.loadPlayer(ctx.server);
    if (!player) return;
    ctx.clearError();
    if (button) button.disabled = true;
    try {
      const reply = await ctx.api.seek({ ...body, quick: true }, player.token);
      if (reply.status === 201) {
        saveStarted(ctx, { gameId: reply.data.game_id, seat: reply.data.seat, token: reply.data.token });
        return;
      }
      const seek = { id: reply.data.seek.id, token: reply.data.token, rules: body.rules, clock: body.clock || null, rated: Boolean(body.rated), pool, since: Date.now() };
      storage.saveSeek(ctx.server, seek);
      waitForMatch(seek);
      seeking.querySelector("[data-action=cancel-seek]")?.focus(); // Quick match is disabled meanwhile
      refreshLobby();
      pools.refresh(signal);
    } catch (err) {
      ctx.showError(`No quick match: ${ctx.explain(err)}`);
    } finally {
      if (button && !storage.loadSeek(ctx.server)) button.disabled = false; // still disabled while seeking
    }
  }

  /** The wait for an opponent (none: not waiting), with the house bot offered instead, if any. */
  let shownPool = null;
  function drawSeeking(seek, offer = null) {
    if (!seek) {
      const hadFocus = seeking.contains(document.activeElement);
      seeking.hidden = true;
      clear(seeking);
      pools.waitingIn(null, false);
      ctx.onSeeking?.(false, hadFocus && !shownPool); // the focus goes back to Quick match, or to the pool
      if (hadFocus && shownPool) pools.focus(shownPool);
      shownPool = null;
      return;
    }
    shownPool = seek.pool || null;
    const facts = [seek.rules?.preset || "standard", clockWords(seek.clock), seek.rated ? "rated" : "casual"];
    const focused = seeking.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    clear(seeking).append(
      h("p", { class: "waiting", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", {}, h("b", {}, "Looking for an opponent…"), ` ${facts.join(" · ")}. The game starts as soon as someone takes your seek.`)),
      offer && !seek.keepWaiting ? botOffer(seek, offer) : null,
      h("div", { class: "buttons" }, h("button", { type: "button", class: "btn", "data-action": "cancel-seek", onclick: () => cancelSeek(seek) }, "Cancel")),
    );
    seeking.hidden = false;
    pools.waitingIn(shownPool, true);
    ctx.onSeeking?.(true);
    // The focus stays on the same button, or goes to Cancel when that one went (Keep waiting).
    if (focused) (seeking.querySelector(`[data-action=${focused}]`) || seeking.querySelector("[data-action=cancel-seek]"))?.focus();
  }

  /** "Play simple (1500) instead?": the service's offer after a while in a pool, or keep waiting. */
  function botOffer(seek, offer) {
    const question = `Nobody yet. Play ${offer.bot} (${offer.rating}) instead?`;
    ctx.announce?.(question);
    return h("div", { class: "bot-offer", id: "bot-offer", role: "group", "aria-label": question },
      h("p", {}, "Nobody yet. Play ", h("b", {}, offer.bot), ` (${offer.rating}) instead?`),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn primary", "data-action": "play-offered-bot", onclick: (event) => playBot(seek, offer, event.currentTarget) }, `Play ${offer.bot}`),
        h("button", {
          type: "button",
          class: "btn",
          "data-action": "keep-waiting",
          onclick: () => {
            seek.keepWaiting = true;
            storage.saveSeek(ctx.server, seek);
            drawSeeking(seek);
          },
        }, "Keep waiting")));
  }

  /** The offered bot instead: the seek withdrawn, a game with its terms against the bot (POST /v1/games). */
  async function playBot(seek, offer, button) {
    const player = storage.loadPlayer(ctx.server);
    if (!player) return;
    button.disabled = true;
    ctx.clearError();
    if (!(await cancelSeek(seek, { quiet: true }))) return; // taken meanwhile: that game is opened
    const body = { rules: seek.rules, clock: seek.clock || undefined, rated: seek.rated, opponent: { type: "bot", bot: offer.bot } };
    try {
      const game = await ctx.api.create(body, player.token);
      saveStarted(ctx, { gameId: game.game_id, seat: game.seat, token: game.token, opponent: offer.bot });
    } catch (err) {
      ctx.showError(`The game against ${offer.bot} could not be started: ${ctx.explain(err)}`);
    }
  }

  /** Long-poll the seek until someone takes it (then open the game), it is cancelled or it expires. */
  async function waitForMatch(seek) {
    seekAbort?.abort();
    const mine = new AbortController();
    seekAbort = mine;
    const stop = () => mine.abort();
    signal.addEventListener("abort", stop);
    drawSeeking(seek);
    let failures = 0;
    try {
      while (!mine.signal.aborted) {
        let status;
        try {
          status = await ctx.api.seekStatus(seek.id, seek.token, SEEK_WAIT, mine.signal);
          failures = 0;
        } catch (err) {
          if (mine.signal.aborted || err.name === "AbortError") return;
          if (err instanceof ApiError && [403, 404].includes(err.status)) {
            storage.forgetSeek(ctx.server);
            drawSeeking(null);
            ctx.notice("Your seek is no longer in the lobby (it expired): nobody took it.");
            return;
          }
          if (!(err instanceof NetworkError) && !(err instanceof ApiError && err.status >= 500)) throw err;
          await sleep(Math.min(500 * 2 ** ++failures, 10000), mine.signal);
          continue;
        }
        if (status.status === "matched" && status.game_id) {
          storage.forgetSeek(ctx.server);
          ctx.announce?.("An opponent took your seek: the game starts.");
          saveStarted(ctx, { gameId: status.game_id, seat: status.seat ?? 0, token: seek.token });
          return;
        }
        if (status.status === "cancelled") {
          storage.forgetSeek(ctx.server);
          drawSeeking(null);
          return;
        }
        if (status.bot_offer && !seeking.querySelector("#bot-offer") && !seek.keepWaiting) drawSeeking(seek, status.bot_offer);
      }
    } catch (err) {
      ctx.showError(`Waiting for an opponent failed: ${ctx.explain(err)}`);
    } finally {
      signal.removeEventListener("abort", stop);
    }
  }

  /** Withdraw the seek. False when it had been taken meanwhile: its game is opened instead. */
  async function cancelSeek(seek, { quiet = false } = {}) {
    seekAbort?.abort();
    try {
      await ctx.api.cancelSeek(seek.id, seek.token);
    } catch (err) {
      if (err instanceof ApiError && err.code === "seek_taken") {
        try {
          const status = await ctx.api.seekStatus(seek.id, seek.token, 0);
          if (status.status === "matched" && status.game_id) {
            storage.forgetSeek(ctx.server);
            ctx.notice("Too late to cancel: someone took your seek. Here is the game.");
            saveStarted(ctx, { gameId: status.game_id, seat: status.seat ?? 0, token: seek.token });
            return false;
          }
        } catch {
          // gone: nothing to open
        }
      } else if (!(err instanceof ApiError && [403, 404].includes(err.status))) {
        ctx.showError(`Cannot cancel the seek: ${ctx.explain(err)}`);
        waitForMatch(seek);
        return false;
      }
    }
    storage.forgetSeek(ctx.server);
    drawSeeking(null);
    if (!quiet) ctx.notice("Your seek is withdrawn from the lobby.");
    refreshLobby();
    return true;
  }

  // --- the leaderboard (a bonus: the best rated players of a rules family) ---------------------------------
  const board = h("div", { id: "leaderboard" });
  const family = h("select", { id: "leaderboard-family", "aria-label": "Rules family" });
  const leaderboardPanel = h("details", {
    class: "panel leaderboard",
    ontoggle: (event) => {
      if (event.currentTarget.open) drawBoard();
    },
  }, h("summary", {}, "Leaderboard"), h("div", { class: "invite-row" }, h("span", {}, "Rated games of"), family), board);
  family.addEventListener("change", () => drawBoard());

  async function drawBoard() {
    clear(board).append(h("p", { class: "note" }, "Loading…"));
    try {
      const data = await ctx.api.leaderboard(family.value || "standard", 10);
      const rows = data.players || [];
      const me = storage.loadPlayer(ctx.server)?.name;
      clear(board).append(rows.length
        ? h("table", { class: "sheet" },
          // Each column aligned one way, its header with it: figures right, names left.
          h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col", class: "text" }, "Player"), h("th", { scope: "col", class: "num" }, "Rating"), h("th", { scope: "col", class: "num" }, "Games"))),
          h("tbody", {}, rows.map((r) => h("tr", { class: r.name === me ? "me" : "" }, h("td", { class: "num" }, r.rank), h("th", { scope: "row", class: "text" }, r.name), h("td", { class: "num" }, `${r.rating}${r.provisional ? "?" : ""}`), h("td", { class: "num" }, r.games)))))
        : h("p", { class: "note" }, "No rated game of these rules yet."));
    } catch (err) {
      clear(board).append(h("p", { class: "note" }, `The leaderboard cannot be read: ${ctx.explain(err)}`));
    }
  }

  lobbyLoop();
  const pending = storage.loadSeek(ctx.server);
  if (pending && storage.loadPlayer(ctx.server)) waitForMatch(pending);

  return {
    pools: poolsPanel,
    lobby: lobbyPanel,
    leaderboard: leaderboardPanel,
    quickMatch,
    /** Withdraw this browser's open seek, if any (before signing or logging out). */
    async withdrawSeek() {
      const seek = storage.loadSeek(ctx.server);
      if (seek) await cancelSeek(seek, { quiet: true });
    },
    setFamilies(names) {
      clear(family).append(...names.map((n) => h("option", { value: n }, n)));
    },
    stop() {
      stopper.abort();
      seekAbort?.abort();
    },
  };
}
