// The account on the start page: sign up, sign in, sign out (POST /v1/account, POST
// /v1/account/sessions, DELETE /v1/account/sessions/current), or play under a name alone (POST
// /v1/players, as before accounts); a name-only player may add a password to its name. Signed in, the
// session token is kept in this browser (storage.js: gin.session.<service>) until "Sign out"; the password
// is only sent, never kept. The games you start, join or are paired in are the account's, and "Your games"
// lists them from any device (GET /v1/account/games?status=live), each opening with the session, beside the
// games this browser keeps a seat token of: one list.

import { ApiError, sleep } from "./api.js";
import { clear, h } from "./dom.js";
import { pageHref, seatNames } from "./site.js";
import * as storage from "./storage.js";
import { trustField, unconfirmedWords } from "./trust.js";

const IN_PLAY_EVERY = 10000; // ms between two looks at the games in play while the start page is shown
const MIN_PASSWORD = 10; // the service's rule (422 weak_password below it)

/** The service says why a new password is refused (too short, common, repeated, a run, the name). */
export function weakPasswordWords(err) {
  const why = String(err.detail || "").replace(/^choose another password:\s*/i, "");
  return why ? `Choose another password: ${why}.` : `Choose another password: at least ${MIN_PASSWORD} characters, not a common one.`;
}

/** What a refused sign-up or sign-in means to the person at the keyboard. */
export function accountProblem(err, explain) {
  if (!(err instanceof ApiError)) return explain(err);
  switch (err.code) {
    case "bad_credentials":
      return "Wrong name or password. Names ignore case; passwords do not.";
    case "rate_limited": {
      const seconds = err.retryAfter ?? (Number(err.problem.retry_after) || null);
      return `Too many failed sign-ins for this name or from this network. Try again ${seconds ? `in ${waitWords(seconds)}` : "in a few minutes"}.`;
    }
    case "account_exists":
      return "That name is taken: sign in if it is yours, or choose another name.";
    case "weak_password":
      return weakPasswordWords(err);
    case "validation_error": {
      const why = err.problem.errors?.json?.name?.[0];
      return why ? `That name cannot be used: ${why}.` : explain(err);
    }
    case "session_expired":
    case "unauthorized":
    case "unknown_player":
      return "Your session has ended (signed out on another device, or unused for too long): sign in again.";
    default:
      return explain(err);
  }
}

/** "4 min 59 s", "30 s". */
export function waitWords(seconds) {
  const whole = Math.max(1, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  if (!minutes) return `${rest} s`;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}

/** Whether a refusal means the session (or the player's key) kept in this browser is no good any more. */
function signedOutBy(err) {
  return err instanceof ApiError && err.status === 401;
}

/**
 * The account's panels: ctx = {api, server, showError, clearError, notice, explain, go(gameId, seat),
 * onChange() (who is signed in changed: draw the page again), withdrawSeek() (a promise)}.
 * Returns {panel, games (one list of the player's games: gamesInPlay), stop()}.
 */
export function accountPanels(ctx) {
  const stopper = new AbortController();
  const panel = h("section", { class: "panel player", id: "player", "aria-labelledby": "player-title" });
  const player = storage.loadPlayer(ctx.server);
  const games = gamesInPlay(ctx, player, stopper.signal, { browser: true });

  if (!player) drawSignIn(ctx, panel, "sign-in");
  else drawSignedIn(ctx, panel, player);
  return { panel, games: games.panel, stop: () => stopper.abort() };
}

// --- signed out: sign in, sign up, or a name alone ----------------------------------------------------------
function drawSignIn(ctx, panel, mode) {
  const signUp = mode === "sign-up";
  const name = h("input", { id: "account-name", name: "username", maxlength: "30", autocomplete: "username", autocapitalize: "none", spellcheck: "false", required: true, value: storage.playerName() });
  const password = h("input", {
    id: "account-password",
    name: "password",
    type: "password",
    autocomplete: signUp ? "new-password" : "current-password",
    minlength: signUp ? String(MIN_PASSWORD) : null,
    required: true,
    "aria-describedby": signUp ? "password-rule" : null,
  });
  const error = h("p", { id: "account-error", class: "field-error", role: "alert", hidden: true });
  const trust = trustField(ctx.server, "trust-server"); // a service of another origin: asked by name first
  const submit = h("button", { type: "submit", class: "btn primary", "data-action": signUp ? "sign-up" : "sign-in" }, signUp ? "Create the account" : "Sign in");
  const say = (text, field) => {
    error.textContent = text;
    error.hidden = false;
    for (const input of [name, password]) input.toggleAttribute("aria-invalid", input === field);
    (field || password).focus();
  };
  const form = h("form", {
    id: "account-form",
    class: "account-form",
    novalidate: true,
    "aria-labelledby": "account-mode",
    onsubmit: async (event) => {
      event.preventDefault();
      const who = name.value.trim();
      if (!who) return say("Type your name.", name);
      if (!password.value) return say("Type your password.", password);
      if (signUp && password.value.length < MIN_PASSWORD) return say(`Choose a longer password: at least ${MIN_PASSWORD} characters.`, password);
      if (!trust.confirmed()) return say(unconfirmedWords(ctx.server), trust.input);
      error.hidden = true;
      submit.disabled = true;
      ctx.clearError();
      try {
        const session = signUp ? await ctx.api.signUp(who, password.value) : await ctx.api.signIn(who, password.value);
        password.value = ""; // sent once; never kept
        storage.saveSession(ctx.server, session);
        storage.rememberName(session.name);
        ctx.notice(signUp ? `Welcome, ${session.name}: your account is made and you are signed in.` : `Signed in as ${session.name}.`);
        ctx.onChange();
      } catch (err) {
        submit.disabled = false;
        password.value = "";
        const field = err instanceof ApiError && ["account_exists", "name_reserved", "validation_error"].includes(err.code) ? name : password;
        say(accountProblem(err, ctx.explain), field);
      }
    },
  },
    h("div", { class: "row" },
      h("label", { class: "field" }, "Name", name),
      h("label", { class: "field" }, "Password", password)),
    signUp ? h("p", { id: "password-rule", class: "note" }, `At least ${MIN_PASSWORD} characters. The name is yours on this service; sign in with it on any device.`) : null,
    trust.field,
    error,
    h("div", { class: "buttons" }, submit));

  const tab = (which, label) => h("button", {
    type: "button",
    class: "tab",
    "data-action": `mode-${which}`,
    "aria-pressed": String(mode === which),
    onclick: () => {
      if (mode === which) return;
      drawSignIn(ctx, panel, which);
      panel.querySelector(`[data-action=mode-${which}]`)?.focus();
    },
  }, label);

  clear(panel).append(
    h("div", { class: "panel-head" },
      h("h2", { id: "player-title" }, "Account"),
      h("div", { class: "tabs", role: "group", "aria-label": "Sign in or create an account" }, tab("sign-in", "Sign in"), tab("sign-up", "Create an account"))),
    h("p", { class: "note", id: "account-mode" }, signUp
      ? "Create an account: your games and ratings follow you to any device you sign in on."
      : "Sign in to play rated games, meet people in the lobby and pick up your games on any device."),
    form,
    nameOnly(ctx));
}

/** Playing under a name alone, as before accounts: the browser keeps the player's key (no password). */
function nameOnly(ctx) {
  const input = h("input", { id: "player-name", name: "player", maxlength: "40", autocomplete: "nickname", required: true, value: storage.playerName() });
  const form = h("form", {
    class: "invite-row",
    onsubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      const submit = form.querySelector("button");
      submit.disabled = true;
      ctx.clearError();
      try {
        const made = await ctx.api.createPlayer(name);
        storage.savePlayer(ctx.server, made);
        storage.rememberName(made.name);
        ctx.notice(`Logged in as ${made.name}.`);
        ctx.onChange();
      } catch (err) {
        submit.disabled = false;
        if (err instanceof ApiError && err.code === "name_taken") {
          ctx.showError(`The name "${name}" is taken on this service. If it is yours, sign in with its password, or play from the browser where you chose it; otherwise choose another name.`);
        } else {
          ctx.showError(`Cannot log in: ${ctx.explain(err)}`);
        }
      }
    },
  }, h("label", { class: "visually-hidden", for: "player-name" }, "Player name"), input,
    h("button", { type: "submit", class: "btn", "data-action": "login" }, "Log in"));
  return h("details", { class: "name-only", id: "name-only" },
    h("summary", {}, "Or play under a name, without a password"),
    h("p", { class: "note" }, "A new name is yours on this service; only this browser keeps its key. You can add a password later."),
    form);
}

// --- signed in (an account), or logged in by a name alone ----------------------------------------------------
function drawSignedIn(ctx, panel, player, { confirmLogout = false } = {}) {
  const stats = h("span", { class: "player-stats", id: "player-stats" });
  const links = h("span", { class: "player-links" },
    h("a", { href: pageHref("games"), "data-action": "my-games" }, "My games"), " · ",
    h("a", { href: pageHref("players", player.name), "data-action": "my-profile" }, "Profile"), " · ",
    h("a", { href: pageHref("challenge"), "data-action": "to-challenge" }, "Challenge"),
    player.account ? [" · ", h("a", { href: pageHref("security"), "data-action": "to-security" }, "Security")] : null);
  const row = h("div", { class: "player-row" },
    h("p", { class: "who-am-i" }, player.account ? "Signed in as " : "Logged in as ", h("b", { id: "player-me" }, player.name), " ", stats),
    links);
  clear(panel).append(h("h2", { id: "player-title" }, player.account ? "Account" : "Player"), row);
  if (player.account) {
    row.append(h("button", { type: "button", class: "btn subtle", "data-action": "sign-out", onclick: (event) => signOut(ctx, player, event.currentTarget) }, "Sign out"));
  } else if (confirmLogout) {
    row.append(
      h("div", { class: "confirm-inline", role: "group", "aria-label": "Log out?" },
        h("p", { class: "note" }, `This browser forgets ${player.name}'s key: the name cannot be used here again without it (unless you add a password first).`),
        h("div", { class: "buttons" },
          h("button", { type: "button", class: "btn", "data-action": "logout-confirm", onclick: () => logout(ctx) }, "Log out"),
          h("button", { type: "button", class: "btn subtle", "data-action": "logout-cancel", onclick: () => drawSignedIn(ctx, panel, player) }, "Cancel"))),
    );
  } else {
    row.append(h("button", { type: "button", class: "btn subtle", "data-action": "logout", onclick: () => {
      drawSignedIn(ctx, panel, player, { confirmLogout: true });
      panel.querySelector("[data-action=logout-cancel]")?.focus();
    } }, "Log out"));
    panel.append(addPassword(ctx, player));
  }
  ctx.api.profile(player.name).then((profile) => {
    const games = profile.games || {};
    const parts = [];
    for (const [family, r] of Object.entries(profile.ratings || {})) parts.push(`${family} ${r.rating}${r.provisional ? "?" : ""}${r.rank ? ` (#${r.rank})` : ""}`);
    parts.push(`${games.played || 0} played, ${games.won || 0} won`);
    stats.textContent = `· ${parts.join(" · ")}`;
  }).catch(() => undefined);
}

/** A name-only player claims its name with a password (POST /v1/account with the player's own token). */
function addPassword(ctx, player) {
  const password = h("input", { id: "claim-password", type: "password", autocomplete: "new-password", minlength: String(MIN_PASSWORD), "aria-describedby": "claim-rule" });
  const error = h("p", { class: "field-error", role: "alert", hidden: true });
  const trust = trustField(ctx.server, "claim-trust-server");
  const form = h("form", {
    novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      if (password.value.length < MIN_PASSWORD || !trust.confirmed()) {
        error.textContent = password.value.length < MIN_PASSWORD ? `Choose a longer password: at least ${MIN_PASSWORD} characters.` : unconfirmedWords(ctx.server);
        error.hidden = false;
        (password.value.length < MIN_PASSWORD ? password : trust.input).focus();
        return;
      }
      const submit = form.querySelector("button");
      submit.disabled = true;
      try {
        const session = await ctx.api.signUp(player.name, password.value, player.token);
        password.value = "";
        storage.saveSession(ctx.server, session);
        storage.forgetPlayer(ctx.server); // the account's session replaces the name's key here
        ctx.notice(`${session.name} has a password now: sign in with it on any device.`);
        ctx.onChange();
      } catch (err) {
        submit.disabled = false;
        password.value = "";
        error.textContent = accountProblem(err, ctx.explain);
        error.hidden = false;
        password.focus();
      }
    },
  },
    h("label", { class: "field" }, "New password", password),
    h("p", { id: "claim-rule", class: "note" }, `At least ${MIN_PASSWORD} characters. Then sign in as ${player.name} on any device.`),
    trust.field,
    error,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "btn", "data-action": "add-password" }, "Add the password")));
  return h("details", { class: "name-only" }, h("summary", {}, "Add a password: play as this name on any device"), form);
}

/** Sign out: this session ends (`everywhere`: every session of the account), this browser forgets it. */
export async function signOut(ctx, player, button, { everywhere = false } = {}) {
  button.disabled = true;
  await ctx.withdrawSeek?.();
  try {
    await (everywhere ? ctx.api.signOutEverywhere(player.token) : ctx.api.signOut(player.token));
  } catch (err) {
    // Ended already (expired, or signed out elsewhere): this browser forgets it all the same. Any other
    // refusal (the service unreachable) too: the token leaves this browser, and it expires unused.
    if (!signedOutBy(err)) console.warn("sign-out not confirmed by the service:", err);
  }
  storage.forgetSession(ctx.server);
  ctx.notice(everywhere ? "Signed out everywhere." : "Signed out.");
  ctx.onChange();
}

/** After a refusal: when it says the session kept here has ended (401), forget it, say so and draw the
 * page again (signed out). True when it was that. */
export function sessionEnded(ctx, player, err) {
  if (!signedOutBy(err) || !player.account) return false;
  storage.forgetSession(ctx.server);
  ctx.showError(accountProblem(err, ctx.explain));
  ctx.onChange();
  return true;
}

async function logout(ctx) {
  await ctx.withdrawSeek?.();
  storage.forgetPlayer(ctx.server);
  ctx.notice("Logged out.");
  ctx.onChange();
}

// --- your games: in play on any device, and those this browser keeps ----------------------------------------------
/**
 * One list of the player's games. With a player (`player`): its games in play on any device (GET
 * /v1/account/games?status=live), looked at again every few seconds while the page is shown, each opening
 * with the session (or the player's key) — no seat token needed. With `browser` (the start page): the
 * games this browser keeps a seat token of (started or joined without an account, or on another service;
 * finished ones for a day) join the same list, each once. Returns {panel, refresh()}.
 */
export function gamesInPlay(ctx, player, signal, { browser = false } = {}) {
  const list = h("ul", { class: "saved-list in-play-list", id: "in-play-list" });
  const note = h("p", { class: "note", id: "in-play-note" }, player ? "Looking for your games…" : "");
  const title = browser ? "Your games" : "Your games in play";
  const panel = h("section", { class: "panel in-play", id: "in-play", "aria-labelledby": "in-play-title" },
    h("h2", { id: "in-play-title" }, title), note, list);

  /** The seats this browser keeps (a token each), but for those the account's list has already. */
  function keptSeats(listed) {
    if (!browser) return [];
    const day = 86400000;
    return storage.savedSeats()
      .filter((s) => !s.over || Date.now() - (s.updated || 0) < day)
      .filter((s) => !listed.has(`${s.gameId}.${s.seat}`) || s.server !== ctx.server);
  }

  function keptItem(s) {
    const against = s.opponent && s.opponent !== "human" ? `against ${s.opponent} (bot)` : `against ${s.opponentName || "a person"}`;
    const facts = [s.over ? "finished" : "kept in this browser", new Date(s.updated || 0).toLocaleString()];
    if (s.server !== ctx.server) facts.push(s.server);
    return h("li", { "data-game": s.gameId, "data-kept": "browser" },
      h("span", { class: "what" }, `${s.over ? "Finished" : "Game"} ${against}`, h("small", {}, ` · ${facts.join(" · ")}`)),
      h("span", { class: "buttons" },
        h("button", { type: "button", class: "btn", "data-action": "resume", "data-game": s.gameId, onclick: () => ctx.go(s.gameId, s.seat) }, s.over ? "Show" : "Resume"),
        h("button", { type: "button", class: "btn subtle", "data-action": "forget", "aria-label": `Forget the game ${against}`, onclick: () => { storage.forgetSeat(s.gameId, s.seat); draw(lastGames); } }, "Forget")));
  }

  let lastGames = [];
  function draw(games) {
    lastGames = games;
    const focused = document.activeElement?.dataset?.game;
    const listed = new Set(games.map((g) => `${g.game_id}.${g.seat}`));
    const kept = keptSeats(listed);
    clear(list);
    for (const game of games) {
      const names = seatNames(game.players);
      const opponent = names[1 - game.seat];
      const facts = [game.your_move ? "your move" : `${opponent}'s move`];
      if (game.rated) facts.push("rated");
      list.append(h("li", { "data-game": game.game_id, "data-kept": "account" },
        h("span", { class: "what" }, `Against ${opponent}`, h("small", {}, ` · ${facts.join(" · ")}`)),
        h("span", { class: "buttons" },
          h("button", {
            type: "button",
            class: `btn ${game.your_move ? "primary" : ""}`.trim(),
            "data-action": "open-in-play",
            "data-game": game.game_id,
            "aria-label": `Play the game against ${opponent} (${facts.join(", ")})`,
            onclick: () => ctx.go(game.game_id, game.seat),
          }, "Play"))));
    }
    for (const s of kept) list.append(keptItem(s));
    if (!games.length && !kept.length) {
      note.textContent = player
        ? "None: the games you start or join appear here, on any device you sign in on."
        : "Games you start or join are kept in this browser, so that you can come back to them.";
    } else if (player) {
      note.textContent = `Your games in play on any device${player.account ? " you signed in on" : ""}${kept.length ? ", and those kept in this browser" : ""}: Play opens the game here.`;
    } else {
      note.textContent = "Kept in this browser, so that you can come back to them.";
    }
    if (focused) list.querySelector(`button[data-game="${CSS.escape(focused)}"]`)?.focus();
  }

  async function refresh() {
    let games;
    try {
      games = (await ctx.api.accountGames(player.token, signal)).games || [];
    } catch (err) {
      if (signal.aborted || err.name === "AbortError") return;
      if (sessionEnded(ctx, player, err)) return;
      draw([]);
      note.textContent = "Your games in play cannot be read just now.";
      return;
    }
    draw(games);
  }

  if (!player) {
    draw([]);
    return { panel, refresh: () => draw([]) };
  }
  if (browser) draw([]); // this browser's games at once; the account's when the service answers
  if (player) note.textContent = "Looking for your games…";
  (async () => {
    while (!signal.aborted) {
      if (document.visibilityState !== "hidden") await refresh();
      await sleep(IN_PLAY_EVERY, signal);
    }
  })();
  return { panel, refresh };
}
