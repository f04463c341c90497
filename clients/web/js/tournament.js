// One tournament (#/tournaments/<id>): its name, format and state, a countdown (to its start, an arena's
// end, a Swiss' next round), the live standings, the player's Join / Pause (withdraw) with a private one's
// entry code, the organiser's Start and Terminate, and the games to watch (its matches in play, the best
// placed first).
//
// GET /v1/tournaments/{id}?page= draws it; its stream (GET …/stream as Server-Sent Events: EventSource
// reconnects by itself, resuming with Last-Event-ID) keeps it live: a standings line is drawn at once, a
// pairing or a result makes the page read it again (the caller's entry and the games in play are in the
// GET only). A slow look every few seconds covers a stream a proxy holds back.
//
// The player's next game opens by itself: a gameStart of the account stream (challenges.js hears it for
// every page) whose game.tournament is this one, or the entry's `playing` game, opens the table — once: a
// game the player left to come here is offered by a button instead.

import { ApiError } from "./api.js";
import { add, clear, h } from "./dom.js";
import { focusHeading, pageFrame, pageHref, when } from "./site.js";
import * as storage from "./storage.js";
import { tournamentFacts } from "./tournaments.js";

const LOOK_EVERY = 15000; // ms between two plain looks, beside the stream
const opened = new Set(); // the games of tournaments this page has opened once (this visit)
const codes = new Map(); // tournament id -> the entry code answered at its creation (shown to the organiser)

/** Keep a new private tournament's entry code for its page (the service shows it once). */
export function rememberEntryCode(tournamentId, code) {
  if (code) codes.set(tournamentId, code);
}

/** A player's name with a badge for a bot (a house bot's player "bot-simple" is shown "simple"). */
export function playerName(name, bot) {
  if (!name) return h("span", { class: "player-name" }, "—");
  const shown = name.startsWith("bot-") ? name.slice(4) : name;
  return h("span", { class: "player-name" }, shown, bot ? h("span", { class: "badge bot", title: "A bot" }, "BOT") : null);
}

/** "4:05", "1:02:03". */
function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** What the countdown says now. */
function countdownText(t) {
  const left = (at) => at - Date.now() / 1000;
  if (t.status === "created") return left(t.starts_at) > 0 ? `Starts in ${clockText(left(t.starts_at))}` : "Starting…";
  if (t.status === "canceled") return "Cancelled";
  if (t.status === "finished") return `Finished ${when(t.finished_at)}`;
  if (t.format === "arena" && t.ends_at) return left(t.ends_at) > 0 ? `Ends in ${clockText(left(t.ends_at))}` : "Ending…";
  const round = `Round ${t.round}${t.rounds ? ` of ${t.rounds}` : ""}`;
  if (t.next_round_at && left(t.next_round_at) > 0) return `${round} · the next in ${clockText(left(t.next_round_at))}`;
  return round;
}

/** The page; ctx = the pages' context (main.js) with `challenges` (the account stream's ears). */
export function tournamentPage(ctx, tournamentId) {
  const stopper = new AbortController();
  const signal = stopper.signal;
  const player = ctx.player();
  const { page, body, heading } = pageFrame({ title: "Tournament", current: "tournaments", player, wide: true });
  const facts = h("p", { class: "lead", id: "tournament-facts" });
  const countdown = h("p", { class: "countdown", id: "tournament-countdown", role: "timer", "aria-live": "off" });
  // (data-focus: a redraw — the standings move — gives the focus back, so a code being typed is not lost)
  const code = h("input", { id: "entry-code", name: "code", maxlength: "64", autocomplete: "off", autocapitalize: "none", spellcheck: "false", "data-focus": "entry-code" });
  const parts = { entry: h("section", { class: "panel", id: "my-entry", "aria-labelledby": "my-entry-title" }), standings: h("section", { class: "panel", id: "standings", "aria-labelledby": "standings-title" }), watch: h("section", { class: "panel", id: "watch-games", "aria-labelledby": "watch-title" }) };
  body.append(h("div", { class: "tournament-head" }, facts, countdown), h("div", { class: "tournament-grid" }, parts.entry, parts.standings, parts.watch));
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  let info = null;
  let pageNumber = 1;
  let confirming = false; // the organiser's Terminate asks first
  let busy = false;
  let timer = null;

  // --- reading -----------------------------------------------------------------------------------------------
  async function refresh() {
    clearTimeout(timer);
    try {
      info = await ctx.api.tournament(tournamentId, pageNumber, player?.token, signal);
    } catch (err) {
      if (signal.aborted || err.name === "AbortError") return;
      if (err instanceof ApiError && err.code === "tournament_not_found") {
        heading.textContent = "No such tournament";
        clear(body).append(h("p", { class: "panel", role: "alert" }, "There is no such tournament on this service. ", h("a", { href: pageHref("tournaments") }, "The tournaments")));
        stop();
        return;
      }
      ctx.showError(`The tournament cannot be read just now: ${ctx.explain(err)}`);
    }
    if (signal.aborted) return;
    if (info) {
      draw();
      if (info.me?.playing) offerGame(info.me.playing);
    }
    timer = setTimeout(refresh, LOOK_EVERY);
  }

  /** A look soon (events come in bursts: a result, then the standings, then a pairing). */
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  }

  const stream = new EventSource(ctx.api.tournamentStreamUrl(tournamentId));
  stream.addEventListener("standings", (event) => {
    const line = JSON.parse(event.data);
    if (!info) return;
    info = { ...info, ...line.tournament };
    if (pageNumber === 1) info.standings = { ...info.standings, players: line.standings };
    draw();
  });
  for (const kind of ["pairing", "result"]) stream.addEventListener(kind, soon);

  // The player's next game: the account stream says it first.
  const unlisten = ctx.challenges?.listen((event) => {
    if (event.type === "gameStart" && event.game?.tournament === tournamentId) openGame(event.game.game_id, event.game.seat);
  });

  // --- the player's games ---------------------------------------------------------------------------------------
  /** Open a game of the player's in this tournament, once (a game left to come here waits for its button). */
  async function offerGame(gameId) {
    if (opened.has(gameId) || !player) return;
    try {
      const view = await ctx.api.view(gameId, player.token);
      if (!signal.aborted && typeof view.seat === "number" && !view.scores?.match_over) openGame(gameId, view.seat);
    } catch {
      // gone meanwhile: the next look says what is on
    }
  }

  function openGame(gameId, seat) {
    if (signal.aborted || opened.has(gameId) || !player) return;
    opened.add(gameId);
    const arena = !info || (info.format === "arena" && info.settings?.berserk);
    storage.saveNewSeat({
      gameId, seat, token: player.account ? undefined : player.token, server: ctx.server, name: player.name, player: player.name, opponent: "human",
      tournament: tournamentId, tournamentName: info?.name, berserk: arena, commitments: {}, verified: {},
    }, player);
    ctx.announce?.("Your next tournament game starts.");
    ctx.go(gameId, seat);
  }

  // --- actions -------------------------------------------------------------------------------------------------
  async function act(action, body, done) {
    if (busy) return;
    busy = true;
    ctx.clearError();
    try {
      await ctx.api.tournamentAction(tournamentId, action, player.token, body);
      if (done) ctx.notice(done);
    } catch (err) {
      const why = err instanceof ApiError && err.code === "bad_entry_code" && body?.code ? "the entry code is wrong." : ctx.explain(err);
      ctx.showError(`${{ join: "Cannot join", withdraw: "Cannot withdraw", start: "Cannot start", terminate: "Cannot end it" }[action]}: ${why}`);
    } finally {
      busy = false;
      confirming = false;
    }
    await refresh();
  }

  // --- drawing -------------------------------------------------------------------------------------------------
  function draw() {
    const focused = document.activeElement?.dataset?.focus;
    heading.textContent = info.name;
    document.title = `Gin Rummy — ${info.name}`;
    facts.textContent = `${tournamentFacts(info)} · organised by ${info.organiser} · ${info.players} player${info.players === 1 ? "" : "s"}`;
    page.dataset.status = info.status;
    tick();
    drawEntry();
    drawStandings();
    drawWatch();
    if (focused) ctx.root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  function tick() {
    if (info) countdown.textContent = countdownText(info);
  }

  function button(label, action, onclick, primary = false) {
    return h("button", { type: "button", class: `btn${primary ? " primary" : ""}`, "data-action": action, "data-focus": action, onclick }, label);
  }

  function drawEntry() {
    const open = info.status === "created" || info.status === "started";
    const me = info.me;
    const items = [h("h2", { id: "my-entry-title" }, "You")];
    if (!player) {
      items.push(h("p", {}, open ? [h("a", { href: pageHref("account") }, "Sign in"), " to join."] : "It is over."));
    } else if (!open) {
      const line = (info.standings?.players || []).find((row) => row.player.toLowerCase() === player.name.toLowerCase());
      items.push(h("p", {}, me && line ? `It is over: you are number ${line.rank} of the standings.` : "It is over."));
    } else if (me?.playing) {
      items.push(h("p", { class: "your-game" }, "Your game is on."), h("div", { class: "buttons" }, button("Play your game", "play-game", () => {
        opened.delete(me.playing);
        offerGame(me.playing);
      }, true)));
    } else if (me?.active) {
      items.push(h("p", {}, info.status === "created" ? "You are in: your games open here by themselves once it starts." : "You are in: your next game opens by itself when you are paired."));
    } else if (me) {
      items.push(h("p", {}, info.format === "arena" ? "You are paused: your points stay." : "You have withdrawn."));
    } else if (open) {
      items.push(h("p", {}, "You are not in this tournament."));
    }
    if (player && open) {
      const buttons = h("div", { class: "buttons" });
      if (!me || (!me.active && info.format === "arena")) {
        if (info.private && !me) items.push(h("label", { class: "field" }, "Entry code", code));
        buttons.append(button(me ? "Come back" : "Join", "join", () => act("join", info.private && !me ? { code: code.value.trim() } : undefined, "You are in."), true));
      } else if (me.active) {
        const label = info.status === "created" ? "Leave" : info.format === "arena" ? "Pause" : "Withdraw";
        buttons.append(button(label, "withdraw", () => act("withdraw", undefined, info.format === "arena" && info.status === "started" ? "Paused: join again to come back." : "You are out.")));
      }
      items.push(buttons);
    }
    if (player && info.organiser.toLowerCase() === player.name.toLowerCase()) items.push(...organiserPart(open));
    clear(parts.entry).append(...items);
  }

  function organiserPart(open) {
    const out = [h("h2", { id: "organiser-title" }, "Organiser")];
    const code = codes.get(tournamentId);
    if (code) out.push(h("p", { class: "new-token", id: "entry-code-shown" }, "Entry code: ", h("code", {}, code), h("small", {}, " — give it to the players: it is shown this once.")));
    if (!open) return out;
    const buttons = h("div", { class: "buttons" });
    const startable = info.status === "created" || (info.format === "swiss" && info.status === "started");
    if (startable) buttons.append(button(info.status === "created" ? "Start now" : "Next round now", "start", () => act("start", undefined, "Asked: the director does it in a moment.")));
    if (confirming) {
      buttons.append(button(info.status === "created" ? "Yes, cancel it" : "Yes, end it", "confirm-terminate", () => act("terminate", undefined, "The tournament ends.")),
        button("Keep it", "keep", () => {
          confirming = false;
          drawEntry();
        }));
    } else {
      buttons.append(button(info.status === "created" ? "Cancel…" : "Terminate…", "terminate", () => {
        confirming = true;
        drawEntry();
        parts.entry.querySelector("[data-action=keep]")?.focus();
      }));
    }
    out.push(buttons);
    return out;
  }

  function drawStandings() {
    const standings = info.standings || { page: 1, pages: 1, players: [] };
    const me = player?.name.toLowerCase();
    const arena = info.format === "arena";
    const heads = [["#", "num"], ["Player", "text"], ["Points", "num"], ["Games", "num"], ["W–L–D", "num wld"], [arena ? "Sheet" : "SB", "num extra"], ["Perf.", "num perf"]];
    const rows = standings.players.map((s) => h("tr", { class: [s.player.toLowerCase() === me ? "me" : "", s.active ? "" : "inactive"].join(" ").trim(), "data-player": s.player },
      h("td", { class: "num" }, s.rank),
      h("th", { scope: "row", class: "text" }, playerName(s.player, s.bot), s.active ? null : h("small", {}, arena ? " paused" : " out"), s.fire ? h("span", { class: "chip fire", title: "On a streak: a win scores double" }, "×2") : null),
      h("td", { class: "num points" }, s.points),
      h("td", { class: "num games" }, s.games),
      h("td", { class: "num wld" }, `${s.wins}–${s.losses}–${s.draws}`),
      h("td", { class: "num extra" }, arena ? (s.sheet || []).join(" ") : (s.sonneborn_berger ?? "")),
      h("td", { class: "num perf" }, s.performance == null ? "–" : Math.round(s.performance))));
    const pager = standings.pages > 1
      ? h("div", { class: "buttons pager" },
        h("button", { type: "button", class: "btn", "data-action": "standings-back", "data-focus": "standings-back", disabled: standings.page <= 1, onclick: () => turn(-1) }, "‹ Better placed"),
        h("span", {}, `Page ${standings.page} of ${standings.pages}`),
        h("button", { type: "button", class: "btn", "data-action": "standings-next", "data-focus": "standings-next", disabled: standings.page >= standings.pages, onclick: () => turn(1) }, "More ›"))
      : null;
    add(clear(parts.standings), h("h2", { id: "standings-title" }, "Standings"),
      rows.length
        ? h("div", { class: "sheet-scroll" }, h("table", { class: "sheet standings", id: "standings-table" },
          h("thead", {}, h("tr", {}, heads.map(([label, kind]) => h("th", { scope: "col", class: kind, title: label === "SB" ? "Sonneborn–Berger" : null }, label)))),
          h("tbody", {}, rows)))
        : h("p", { class: "note" }, "Nobody has joined yet."),
      pager);
  }

  function turn(by) {
    pageNumber = Math.max(1, pageNumber + by);
    refresh();
  }

  function drawWatch() {
    const games = info.playing || [];
    const mine = info.me?.playing;
    clear(parts.watch).append(h("h2", { id: "watch-title" }, "Games to watch"),
      games.length
        ? h("ul", { class: "game-list", id: "watch-list" }, games.map((p) => h("li", { class: "game-row", "data-game": p.game_id },
          h("span", { class: "game-what" }, h("span", { class: "against" }, playerName(p.players[0], p.bots[0]), p.berserk[0] ? " ⚡" : "", " vs ", playerName(p.players[1], p.bots[1]), p.berserk[1] ? " ⚡" : ""),
            h("small", {}, info.format === "arena" ? `wave ${p.round}` : `round ${p.round}`)),
          p.game_id === mine
            ? button("Play", "play-game", () => { opened.delete(mine); offerGame(mine); }, true)
            : h("a", { class: "btn", href: pageHref("watch", p.game_id), "data-action": "watch" }, "Watch"))))
        : h("p", { class: "note" }, info.status === "started" ? "No game in play just now." : info.status === "created" ? "The games start with the tournament." : "It is over."));
  }

  function stop() {
    stopper.abort();
    stream.close();
    unlisten?.();
    clearTimeout(timer);
    clearInterval(ticker);
  }

  const ticker = setInterval(tick, 1000);
  refresh();
  return { stop };
}

