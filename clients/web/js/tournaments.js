// The tournaments (#/tournaments): the upcoming, running and finished ones (GET /v1/tournaments, looked
// at again every few seconds), and, for a signed-in account, the form of a new one (POST /v1/tournaments):
// an arena (its minutes, berserk), a Swiss (its rounds, the pause between two) or a round robin (duplicate
// deals: bots only), with the rules, the clock and "Rated" as a new game asks them (settings.js), bots
// allowed, private (joined with an entry code, shown once) and when it starts. One tournament's own page
// is tournament.js.

import { clear, h } from "./dom.js";
import { clockWords } from "./lobby.js";
import { settingsFields } from "./settings.js";
import { focusHeading, lookEvery, pageFrame, pageHref, when } from "./site.js";

const LIST_EVERY = 5000; // ms between two looks at the lists
export const FORMAT_WORDS = { arena: "Arena", swiss: "Swiss", round_robin: "Round robin" };

/** A tournament's settings in a few words: "Arena · 10 min · blitz… · rated · bots". */
export function tournamentFacts(t) {
  const s = t.settings || {};
  const words = [FORMAT_WORDS[t.format] || t.format];
  if (t.format === "arena" && s.minutes) words.push(`${s.minutes} min`);
  if (t.format === "swiss" && s.rounds) words.push(`${s.rounds} rounds`);
  if (t.format === "round_robin" && s.duplicate) words.push("duplicate deals");
  words.push(s.rules?.preset || "standard", clockWords(s.clock), s.rated ? "rated" : "casual");
  if (s.bots) words.push("bots allowed");
  if (t.private) words.push("private");
  return words.join(" · ");
}

/** The page; ctx = the pages' context (main.js). A private tournament's entry code, answered once on
 * creation, goes to its page through `ctx.openTournament(id, code)`. */
export function tournamentsPage(ctx) {
  const stopper = new AbortController();
  const signal = stopper.signal;
  const player = ctx.player();
  const { page, body } = pageFrame({ title: "Tournaments", current: "tournaments", player, lead: "Arenas, Swiss and round robins: join one, or organise your own." });
  const lists = { created: listPanel("created", "Upcoming"), started: listPanel("started", "Running"), finished: listPanel("finished", "Finished") };
  body.append(lists.started.panel, lists.created.panel, player ? createForm(ctx, player) : signInNote(), lists.finished.panel);
  clear(ctx.root).append(page);
  focusHeading(ctx.root);

  async function refresh() {
    let all;
    try {
      all = await ctx.api.tournaments(signal);
    } catch (err) {
      if (!signal.aborted) lists.started.note.textContent = `The tournaments cannot be read just now: ${ctx.explain(err)}`;
      return;
    }
    for (const [status, list] of Object.entries(lists)) list.fill(all[status] || []);
  }

  lookEvery(LIST_EVERY, signal, refresh);
  return { stop: () => stopper.abort() };
}

function signInNote() {
  return h("section", { class: "panel", id: "tournament-sign-in" },
    h("p", {}, h("a", { href: pageHref("account") }, "Sign in"), " to join a tournament or organise one."));
}

/** One list (upcoming, running, finished): each tournament with its facts, its players and its time. */
function listPanel(status, title) {
  const note = h("p", { class: "note" }, "Looking for tournaments…");
  const list = h("ul", { class: "game-list tournament-list", id: `tournaments-${status}`, "aria-label": `${title} tournaments` });
  const panel = h("section", { class: "panel", "aria-labelledby": `tournaments-${status}-title` }, h("h2", { id: `tournaments-${status}-title` }, title), note, list);
  const timeWords = { created: (t) => `starts ${when(t.starts_at)}`, started: (t) => (t.ends_at ? `ends ${when(t.ends_at)}` : `round ${t.round}${t.rounds ? ` of ${t.rounds}` : ""}`), finished: (t) => `ended ${when(t.finished_at)}` };
  return {
    panel,
    note,
    fill(tournaments) {
      note.textContent = tournaments.length ? "" : { created: "None planned.", started: "None running just now.", finished: "None yet." }[status];
      note.hidden = tournaments.length > 0;
      clear(list).append(...tournaments.map((t) => h("li", { class: "game-row", "data-tournament": t.id },
        h("span", { class: "game-what" }, h("b", {}, t.name), h("small", {}, `${tournamentFacts(t)} · ${t.players} player${t.players === 1 ? "" : "s"} · ${timeWords[status](t)}`)),
        h("a", { class: "btn", href: pageHref("tournaments", t.id), "data-action": "open-tournament", "aria-label": `Open ${t.name}` }, "Open"))));
    },
  };
}

/** The form of a new tournament: the format's own fields appear with it. */
function createForm(ctx, player) {
  const name = h("input", { id: "tournament-name", name: "name", maxlength: "80", required: true, autocomplete: "off", value: `${player.name}'s arena` });
  const format = h("select", { id: "tournament-format", name: "format" }, Object.entries(FORMAT_WORDS).map(([value, label]) => h("option", { value }, label)));
  const minutes = h("input", { id: "tournament-minutes", name: "minutes", type: "number", min: "1", max: "720", value: "30", inputmode: "numeric" });
  const berserk = h("input", { id: "tournament-berserk", name: "berserk", type: "checkbox", checked: true });
  const rounds = h("input", { id: "tournament-rounds", name: "rounds", type: "number", min: "1", max: "50", value: "5", inputmode: "numeric" });
  const interval = h("input", { id: "tournament-interval", name: "round_interval", type: "number", min: "0", max: "10080", placeholder: "the organiser starts each", inputmode: "numeric" });
  const duplicate = h("input", { id: "tournament-duplicate", name: "duplicate", type: "checkbox" });
  const bots = h("input", { id: "tournament-bots", name: "bots", type: "checkbox" });
  const privateBox = h("input", { id: "tournament-private", name: "private", type: "checkbox" });
  const startsIn = h("input", { id: "tournament-starts-in", name: "starts_in", type: "number", min: "0", max: "43200", value: "5", inputmode: "numeric" });
  const fields = settingsFields({ prefix: "tournament-", player, showError: ctx.showError });
  const error = h("p", { id: "tournament-error", class: "field-error", role: "alert", hidden: true });
  const send = h("button", { type: "submit", class: "btn primary", "data-action": "create-tournament" }, "Create the tournament");
  const own = {
    arena: h("div", { class: "row", "data-format": "arena" },
      h("label", { class: "field" }, "Minutes", minutes),
      h("label", { class: "check" }, berserk, h("span", {}, "Berserk", h("small", {}, " — half the clock for a point more (with a clock)")))),
    swiss: h("div", { class: "row", "data-format": "swiss", hidden: true },
      h("label", { class: "field" }, "Rounds", rounds),
      h("label", { class: "field" }, "Minutes between rounds", interval)),
    round_robin: h("div", { "data-format": "round_robin", hidden: true },
      h("label", { class: "check" }, duplicate, h("span", {}, "Duplicate deals", h("small", {}, " — each pairing plays the same deals twice, seats swapped (bots only)")))),
  };
  format.addEventListener("change", () => {
    for (const [key, part] of Object.entries(own)) part.hidden = key !== format.value;
    if (/'s (arena|swiss|round robin)$/.test(name.value)) name.value = `${player.name}'s ${FORMAT_WORDS[format.value].toLowerCase()}`;
  });

  function say(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  async function submit(event) {
    event.preventDefault();
    say("");
    ctx.clearError();
    if (!name.value.trim()) {
      say("Give the tournament a name.");
      name.focus();
      return;
    }
    const settings = fields.read();
    if (!settings) return;
    const chosen = { name: name.value.trim(), format: format.value, ...settings, bots: bots.checked, private: privateBox.checked, starts_in: Math.max(0, Number(startsIn.value || 0)) * 60 };
    if (format.value === "arena") Object.assign(chosen, { minutes: Number(minutes.value || 30), berserk: berserk.checked });
    if (format.value === "swiss") {
      chosen.rounds = Number(rounds.value || 5);
      if (interval.value !== "") chosen.round_interval = Math.round(Number(interval.value) * 60);
    }
    if (format.value === "round_robin") chosen.duplicate = duplicate.checked;
    send.disabled = true;
    try {
      const made = await ctx.api.createTournament(chosen, player.token);
      ctx.openTournament(made.tournament.id, made.entry_code);
    } catch (err) {
      say(`The tournament could not be created: ${ctx.explain(err)}`);
      send.disabled = false;
    }
  }

  const form = h("form", { id: "tournament-form", class: "panel", novalidate: true, "aria-labelledby": "tournament-form-title", onsubmit: submit },
    h("h2", { id: "tournament-form-title" }, "Organise a tournament"),
    h("div", { class: "row" }, h("label", { class: "field" }, "Name", name), h("label", { class: "field" }, "Format", format)),
    own.arena, own.swiss, own.round_robin,
    fields.rules(),
    fields.clockRow(),
    h("div", { class: "row" },
      h("label", { class: "field" }, "Starts in (minutes)", startsIn),
      h("div", {},
        h("label", { class: "check" }, bots, h("span", {}, "Bots allowed", h("small", {}, " — bot accounts may join"))),
        h("label", { class: "check" }, privateBox, h("span", {}, "Private", h("small", {}, " — unlisted, joined with an entry code"))))),
    h("details", { class: "more" }, h("summary", {}, "More options"), fields.options()),
    error,
    h("div", { class: "buttons" }, send));
  ctx.api.rules().then((rules) => fields.fill(rules)).catch(() => fields.fill({}));
  return form;
}
