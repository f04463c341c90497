// The account's security page (#/security): where the account is signed in (GET /v1/account/sessions:
// each device with when it signed in and was last used, this one marked) with a Sign out for each and
// "Sign out everywhere"; the personal API tokens for programs and bots (create one with a name and scopes
// — shown once, with a Copy button —, list them, revoke one); and a new password. The service lets only a
// signed-in session do these (never an API token).
//
// Nothing secret is kept: a new API token lives in this page only, until "Done" or the page is left (it is
// never stored, logged or put in an address); passwords are only sent, and their fields emptied after.

import { sessionEnded, signOut, weakPasswordWords } from "./account.js";
import { ApiError } from "./api.js";
import { clear, h } from "./dom.js";
import { focusHeading, pageFrame, pageHref, when } from "./site.js";
import * as storage from "./storage.js";
import { trustField, unconfirmedWords } from "./trust.js";

const MIN_PASSWORD = 10; // the service's rule (422 weak_password below it)
const SCOPES = [
  ["play", "create, join, seek and play games as you"],
  ["bot", "the same, for a bot program"],
  ["read", "read your account and games, never play"],
];

/** A device as a person knows it, from its User-Agent: "Firefox on Windows", "gin-cli/0.1.0". */
export function deviceWords(userAgent) {
  const ua = userAgent || "";
  const browser = [[/Edg\//, "Edge"], [/OPR\//, "Opera"], [/Firefox\//, "Firefox"], [/HeadlessChrome\//, "Chrome (headless)"], [/Chrome\//, "Chrome"], [/Safari\//, "Safari"]]
    .find(([pattern]) => pattern.test(ua))?.[1];
  const system = [[/Android/, "Android"], [/iPhone|iPad|iPod/, "iOS"], [/Windows/, "Windows"], [/CrOS/, "ChromeOS"], [/Mac OS X|Macintosh/, "macOS"], [/Linux/, "Linux"]]
    .find(([pattern]) => pattern.test(ua))?.[1];
  if (browser) return system ? `${browser} on ${system}` : browser;
  const program = ua.split(/[\s;(]/)[0]; // "gin-cli/0.1.0 python-requests/2.32" → its first product
  return program ? program.slice(0, 40) : "An unknown device";
}

/** The stored seek is withdrawn before signing out (its token would outlive the account's session here). */
async function withdrawStoredSeek(api, server) {
  const seek = storage.loadSeek(server);
  if (!seek) return;
  try {
    await api.cancelSeek(seek.id, seek.token);
  } catch {
    // gone, or taken: nothing of it stays here either way
  }
  storage.forgetSeek(server);
}

export function securityPage(ctx) {
  const player = ctx.player();
  const { page, body } = pageFrame({
    title: "Account security",
    current: "security",
    player,
    lead: player?.account ? `Where ${player.name} is signed in, the keys of its programs, its password.` : null,
  });
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  if (!player?.account) {
    body.append(h("section", { class: "panel", id: "security-sign-in" },
      h("p", {}, player
        ? `${player.name} plays under a name alone: it has no password, so no sessions or API tokens. Add a password on the start page, then sign in.`
        : "Sign in to see where your account is signed in, its API tokens and its password."),
      h("p", {}, h("a", { href: pageHref("account"), "data-action": "to-sign-in" }, player ? "To the start page" : "Sign in"))));
    return { stop() {} };
  }
  // Signing out here leaves for the start page (its sign-in form).
  const leave = { ...ctx, onChange: () => { location.hash = pageHref("account"); }, withdrawSeek: () => withdrawStoredSeek(ctx.api, ctx.server) };
  /** A refusal: the session ended (signed out), or said under `where`. */
  const refused = (err, where) => {
    if (sessionEnded(ctx, player, err)) return;
    where.textContent = ctx.explain(err);
    where.hidden = false;
  };
  const sessions = sessionsPanel(ctx, player, leave, refused);
  const tokens = tokensPanel(ctx, player, refused);
  const password = passwordPanel(ctx, player, refused, () => sessions.load());
  body.append(sessions.panel, tokens.panel, password);
  sessions.load();
  tokens.load();
  return { stop() {} };
}

/** The list `key` of what `read()` answers, or null when it was refused (said under `error`). */
async function listed(read, key, note, error, refused) {
  try {
    return (await read())[key] || [];
  } catch (err) {
    note.textContent = "";
    refused(err, error);
    return null;
  }
}

// --- sessions ------------------------------------------------------------------------------------------------
function sessionsPanel(ctx, player, leave, refused) {
  const list = h("ul", { class: "saved-list session-list", id: "session-list", "aria-label": "Signed-in devices" });
  const note = h("p", { class: "note", id: "sessions-note" }, "Loading…");
  const error = h("p", { class: "field-error", role: "alert", hidden: true });
  const everywhere = h("div", { class: "buttons" });
  const panel = h("section", { class: "panel", id: "sessions", "aria-labelledby": "sessions-title" },
    h("h2", { id: "sessions-title" }, "Signed-in devices"), note, list, error, everywhere);

  function drawEverywhere(asking) {
    clear(everywhere);
    if (!asking) {
      everywhere.append(h("button", { type: "button", class: "btn danger", "data-action": "sign-out-everywhere", onclick: () => {
        drawEverywhere(true);
        everywhere.querySelector("[data-action=confirm-sign-out-everywhere]")?.focus();
      } }, "Sign out everywhere"));
      return;
    }
    everywhere.append(h("div", { class: "confirm-inline", role: "group", "aria-label": "Sign out everywhere?" },
      h("p", { class: "note" }, `Every device signed in as ${player.name} is signed out, this one too. API tokens keep working: revoke them below.`),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn danger", "data-action": "confirm-sign-out-everywhere", onclick: (e) => signOut(leave, player, e.currentTarget, { everywhere: true }) }, "Sign out everywhere"),
        h("button", { type: "button", class: "btn subtle", "data-action": "cancel-sign-out-everywhere", onclick: () => {
          drawEverywhere(false);
          everywhere.querySelector("button")?.focus();
        } }, "Cancel"))));
  }

  async function end(session, button) {
    button.disabled = true;
    error.hidden = true;
    try {
      await ctx.api.endSession(player.token, session.id);
      ctx.notice(`${deviceWords(session.user_agent)} is signed out.`);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "session_not_found")) { // gone already: as good
        button.disabled = false;
        refused(err, error);
        return;
      }
    }
    await load();
    list.querySelector("button")?.focus();
  }

  async function load() {
    const rows = await listed(() => ctx.api.sessions(player.token), "sessions", note, error, refused);
    if (!rows) return;
    note.textContent = rows.length === 1
      ? "Only this device is signed in."
      : `${rows.length} devices are signed in as ${player.name}, the newest first. A session ends when you sign out, or after a month unused.`;
    clear(list).append(...rows.map((s) => {
      const device = deviceWords(s.user_agent);
      const facts = [`signed in ${when(s.created)}`, `last used ${when(s.last_used)}`, s.address ? `from ${s.address}` : null].filter(Boolean).join(" · ");
      const button = s.current
        ? h("button", { type: "button", class: "btn", "data-action": "sign-out-here", onclick: (e) => signOut(leave, player, e.currentTarget) }, "Sign out here")
        : h("button", { type: "button", class: "btn", "data-action": "end-session", "data-session": s.id, "aria-label": `Sign out ${device}, ${facts}`, onclick: (e) => end(s, e.currentTarget) }, "Sign out");
      return h("li", { "data-session": s.id, "data-current": s.current ? "yes" : "no" },
        h("span", { class: "what" }, h("b", {}, device), s.current ? h("span", { class: "chip mine" }, "this device") : null,
          h("small", { title: s.user_agent || "" }, facts)),
        h("span", { class: "buttons" }, button));
    }));
    drawEverywhere(false);
  }
  return { panel, load };
}

// --- personal API tokens ---------------------------------------------------------------------------------------
function tokensPanel(ctx, player, refused) {
  const name = h("input", { id: "token-name", name: "description", maxlength: "100", required: true, autocomplete: "off", placeholder: "my bot" });
  const scopes = SCOPES.map(([scope]) => h("input", { id: `scope-${scope}`, type: "checkbox", value: scope, checked: scope === "play" }));
  const error = h("p", { id: "token-error", class: "field-error", role: "alert", hidden: true });
  const fresh = h("div", { id: "new-token", class: "new-token", hidden: true, tabindex: "-1" });
  const list = h("ul", { class: "saved-list token-list", id: "token-list", "aria-label": "API tokens" });
  const note = h("p", { class: "note", id: "tokens-note" }, "Loading…");

  const form = h("form", { id: "token-form", class: "token-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    const description = name.value.trim();
    const chosen = scopes.filter((box) => box.checked).map((box) => box.value);
    if (!description) return say("Give the token a name: what it is for (\"my bot\", \"CI\").", name);
    if (!chosen.length) return say("Choose what the token may do: at least one scope.", scopes[0]);
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const made = await ctx.api.createApiToken(player.token, description, chosen);
      name.value = "";
      show(made);
      await load();
    } catch (err) {
      refused(err, error);
    } finally {
      submit.disabled = false;
    }
  } },
    h("label", { class: "field" }, "Name", name),
    h("fieldset", { class: "scopes" }, h("legend", {}, "What it may do"),
      SCOPES.map(([scope, words], i) => h("label", { class: "check" }, scopes[i], h("span", {}, scope, h("small", {}, ` — ${words}`))))),
    error,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "btn primary", "data-action": "create-token" }, "Create the token")));

  function say(text, field) {
    error.textContent = text;
    error.hidden = false;
    field.focus();
  }

  /** The new token, this once: a warning, the token, Copy, and Done (which forgets it). */
  function show(made) {
    const value = h("input", { id: "new-token-value", type: "text", readonly: true, autocomplete: "off", spellcheck: "false", value: made.token, "aria-describedby": "new-token-warning" });
    const copied = h("p", { id: "copy-status", class: "note", role: "status" });
    clear(fresh).append(
      h("p", { id: "new-token-warning", class: "warning" }, h("b", {}, "Copy this token now: it is shown this once."),
        ` Anyone who has it can ${made.scopes.includes("read") && made.scopes.length === 1 ? "read" : "play as"} ${player.name} (${made.scopes.join(", ")}) until you revoke it. Keep it like a password: out of shared code, chats and addresses.`),
      h("div", { class: "invite-row" }, h("label", { class: "visually-hidden", for: "new-token-value" }, `The new token "${made.description}"`), value,
        h("button", { type: "button", class: "btn", "data-action": "copy-token", onclick: () => copy(value, copied) }, "Copy")),
      copied,
      h("div", { class: "buttons" }, h("button", { type: "button", class: "btn", "data-action": "token-done", onclick: () => {
        clear(fresh); // the token leaves the page
        fresh.hidden = true;
        name.focus();
      } }, "Done: I have copied it")));
    fresh.hidden = false;
    value.focus();
    value.select();
  }

  async function revoke(token, button) {
    button.disabled = true;
    try {
      await ctx.api.revokeApiToken(player.token, token.id);
      ctx.notice(`The token "${token.description}" is revoked: it is refused from now on.`);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "token_not_found")) {
        button.disabled = false;
        refused(err, error);
        return;
      }
    }
    await load();
    name.focus();
  }

  function row(token, asking = false) {
    const item = h("li", { "data-token": token.id });
    const facts = [`made ${when(token.created)}`, token.last_used ? `last used ${when(token.last_used)}` : "never used"].join(" · ");
    const redraw = (ask) => {
      const other = row(token, ask);
      item.replaceWith(other);
      other.querySelector(ask ? "[data-action=confirm-revoke]" : "[data-action=revoke-token]")?.focus();
    };
    item.append(h("span", { class: "what" }, h("b", {}, token.description), " ", token.scopes.map((s) => h("span", { class: "chip scope" }, s)), h("small", {}, facts)));
    item.append(asking
      ? h("span", { class: "buttons", role: "group", "aria-label": `Revoke "${token.description}"?` },
        h("button", { type: "button", class: "btn danger", "data-action": "confirm-revoke", onclick: (e) => revoke(token, e.currentTarget) }, "Revoke it"),
        h("button", { type: "button", class: "btn subtle", "data-action": "keep-token", onclick: () => redraw(false) }, "Keep"))
      : h("span", { class: "buttons" },
        h("button", { type: "button", class: "btn danger", "data-action": "revoke-token", "aria-label": `Revoke the token "${token.description}"`, onclick: () => redraw(true) }, "Revoke")));
    return item;
  }

  async function load() {
    const tokens = await listed(() => ctx.api.apiTokens(player.token), "tokens", note, error, refused);
    if (!tokens) return;
    note.textContent = tokens.length
      ? "Your tokens, by name (a token itself is never shown again): each works until you revoke it."
      : "No token yet. A program or a bot plays as you with one (GIN_TOKEN for gin and gin-bot) — never with your password.";
    clear(list).append(...tokens.map((t) => row(t)));
  }

  const panel = h("section", { class: "panel", id: "tokens", "aria-labelledby": "tokens-title" },
    h("h2", { id: "tokens-title" }, "API tokens"),
    h("p", { class: "note" }, "A personal token lets a program act as you with the scopes you give it; revoke it when it is done."),
    note, list,
    h("h3", { class: "new-token-title" }, "A new token"),
    form, fresh);
  return { panel, load };
}

/** Copy the token (the Clipboard API, or the selection where that is refused). */
async function copy(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = "Copied.";
  } catch {
    input.focus();
    input.select();
    status.textContent = document.execCommand("copy") ? "Copied." : "Select it and copy it (Ctrl+C or ⌘C).";
  }
}

// --- the password ---------------------------------------------------------------------------------------------
function passwordPanel(ctx, player, refused, changed) {
  const current = h("input", { id: "current-password", type: "password", autocomplete: "current-password", required: true });
  const next = h("input", { id: "new-password", type: "password", autocomplete: "new-password", minlength: String(MIN_PASSWORD), required: true, "aria-describedby": "new-password-rule" });
  const again = h("input", { id: "new-password-again", type: "password", autocomplete: "new-password", required: true });
  const error = h("p", { id: "password-error", class: "field-error", role: "alert", hidden: true });
  const done = h("p", { id: "password-done", class: "note", role: "status" });
  const trust = trustField(ctx.server, "password-trust-server"); // a service of another origin: asked by name
  const say = (text, field) => {
    error.textContent = text;
    error.hidden = false;
    for (const input of [current, next, again]) input.toggleAttribute("aria-invalid", input === field);
    field.focus();
  };
  const form = h("form", { id: "password-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    done.textContent = "";
    if (!current.value) return say("Type your current password.", current);
    if (next.value.length < MIN_PASSWORD) return say(`Choose a longer new password: at least ${MIN_PASSWORD} characters.`, next);
    if (next.value !== again.value) return say("The two new passwords differ: type it again.", again);
    if (!trust.confirmed()) return say(unconfirmedWords(ctx.server), trust.input);
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const reply = await ctx.api.changePassword(player.token, current.value, next.value);
      for (const input of [current, next, again]) input.value = ""; // sent once; never kept
      const others = reply.signed_out || 0;
      done.textContent = `Your password is changed. ${others ? `${others} other device${others === 1 ? " is" : "s are"} signed out; this one stays signed in.` : "No other device was signed in."}`;
      changed();
    } catch (err) {
      current.value = "";
      if (err instanceof ApiError && err.code === "bad_credentials") say("That is not your current password.", current);
      else if (err instanceof ApiError && err.code === "weak_password") say(weakPasswordWords(err), next);
      else refused(err, error);
    } finally {
      submit.disabled = false;
    }
  } },
    // For password managers: whose password this is.
    h("input", { type: "text", name: "username", autocomplete: "username", value: player.name, readonly: true, hidden: true, tabindex: "-1" }),
    h("label", { class: "field" }, "Current password", current),
    h("div", { class: "row" }, h("label", { class: "field" }, "New password", next), h("label", { class: "field" }, "The new password again", again)),
    h("p", { class: "note", id: "new-password-rule" }, `At least ${MIN_PASSWORD} characters. Every other device is signed out; this one stays signed in.`),
    trust.field,
    error, done,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "btn primary", "data-action": "change-password" }, "Change the password")));
  return h("section", { class: "panel", id: "password", "aria-labelledby": "password-title" }, h("h2", { id: "password-title" }, "Password"), form);
}
