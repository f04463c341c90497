// Sending a challenge (#/challenge, or #/challenge/<name> from a profile): the opponent — a player by
// name, or one of the house bots of GET /v1/bots, listed with their ratings in the rules chosen — and
// the game's settings as the start page's new game asks them (settings.js). POST /v1/challenges: a house
// bot accepts at once and the game opens; a person's answer is awaited in the box of challenges
// (challenges.js), on whatever page the player goes to meanwhile.
//
// Only a player may challenge here (signed in, or logged in by a name): the one challenged sees who asks,
// and the answer comes on the player's account stream. The API also takes an anonymous challenge (its
// token the only key); this page does not offer it — a friend is invited by a link instead.

import { clear, h } from "./dom.js";
import { settingsFields } from "./settings.js";
import { focusHeading, pageFrame, pageHref, playerLabel } from "./site.js";
import * as storage from "./storage.js";

/** What a refused challenge says, beside the general sentences of words.js. */
export function challengeProblem(err, explain, opponent) {
  if (err?.code === "player_not_found") return `There is no player called "${opponent}" on this service.`;
  if (err?.code === "unknown_bot") return `There is no bot called "${playerLabel(opponent)}" on this service.`;
  return explain(err);
}

/** One rating as a list shows it: "1830", "1500?" (provisional), "–" (none yet). */
function ratingText(rating) {
  return rating ? `${rating.rating}${rating.provisional ? "?" : ""}` : "–";
}

/** Send a challenge (`body`: {opponent, rules, clock?, rated?}) as `player`: a house bot accepts at once and its
 * game opens; a person's answer is awaited in the box of challenges (`ctx.challenges`). A refusal is thrown. */
export async function offerChallenge(ctx, player, body) {
  const reply = await ctx.api.challenge(body, player.token);
  const challenge = reply.challenge;
  if (challenge.status === "accepted" && challenge.game_id) { // a house bot: the game is there
    storage.saveNewSeat({ gameId: challenge.game_id, seat: 0, token: reply.token, server: ctx.server, name: player.name, player: player.name, opponent: challenge.opponent.name.replace(/^bot-/, ""), commitments: {}, verified: {} }, player);
    ctx.go(challenge.game_id, 0);
    return;
  }
  ctx.challenges.sent(challenge, reply.token);
}

/** The page; ctx = the pages' context (main.js) with `challenges`, the box of challenges. */
export function challengePage(ctx, name) {
  const stopper = new AbortController();
  const player = ctx.player();
  const { page, body } = pageFrame({
    title: name ? `Challenge ${playerLabel(name)}` : "Challenge",
    current: "challenge",
    player,
    lead: "Offer a game to a player or a bot: they choose to play it or not.",
  });
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  if (!player) {
    body.append(h("section", { class: "panel", id: "challenge-sign-in" },
      h("p", {}, "Sign in to challenge someone: the player you challenge sees who asks, and your page hears the answer. "),
      h("p", {}, h("a", { href: pageHref("account"), "data-action": "to-sign-in" }, "Sign in or create an account"), " — or invite a friend by a link from the start page.")));
    return { stop() {} };
  }

  const opponent = h("input", { id: "challenge-opponent", name: "opponent", maxlength: "64", required: true, autocomplete: "off", autocapitalize: "none", spellcheck: "false", value: name || "", "aria-describedby": "challenge-opponent-note" });
  const fields = settingsFields({ prefix: "challenge-", player, showError: ctx.showError });
  const error = h("p", { id: "challenge-error", class: "field-error", role: "alert", hidden: true });
  const send = h("button", { type: "submit", class: "btn primary", "data-action": "send-challenge" }, "Challenge");
  const botList = h("ul", { class: "bot-list", id: "bot-list", "aria-label": "House bots" });
  const botNote = h("p", { class: "note", id: "bot-note" }, "Loading the bots…");
  let bots = { bots: [], accounts: [] };

  const chosen = () => opponent.value.trim();
  function label() {
    send.textContent = chosen() ? `Challenge ${playerLabel(chosen())}` : "Challenge";
    for (const button of botList.querySelectorAll("[data-bot]")) button.setAttribute("aria-pressed", String(button.dataset.bot.toLowerCase() === chosen().toLowerCase()));
  }
  opponent.addEventListener("input", label);

  function say(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  async function submit(event) {
    event.preventDefault();
    say("");
    ctx.clearError();
    const who = chosen();
    if (!who) {
      say("Type the name of the player to challenge, or choose a bot.");
      opponent.focus();
      return;
    }
    const settings = fields.read();
    if (!settings) return;
    send.disabled = true;
    try {
      await offerChallenge(ctx, player, { opponent: who, ...settings });
    } catch (err) {
      say(challengeProblem(err, ctx.explain, who));
      opponent.focus();
    } finally {
      send.disabled = false;
    }
  }

  /** The bots, each with its rating in the family of the rules chosen. */
  function drawBots() {
    const family = fields.preset.value || "standard";
    const rows = [...(bots.bots || []).map((b) => ({ name: b.player, label: `${b.name} (bot)`, about: `level ${b.level} · ${b.description}`, rating: (b.ratings || {})[family] })),
      ...(bots.accounts || []).map((b) => ({ name: b.name, label: b.name, about: "a bot account, online now", rating: (b.ratings || {})[family] }))];
    botNote.textContent = rows.length ? `They answer at once: the game starts as soon as you challenge one. Ratings in ${family}.` : "No bot on this service.";
    clear(botList).append(...rows.map((b) => h("li", { "data-player": b.name },
      h("b", { class: "bot-name" }, b.label),
      h("small", { class: "bot-about" }, b.about),
      h("span", { class: "bot-rating", title: `Rating in ${family}` }, ratingText(b.rating)),
      h("button", {
        type: "button",
        class: "btn",
        "data-action": "choose-bot",
        "data-bot": b.name,
        "aria-label": `Choose ${b.label} (rating ${ratingText(b.rating)} in ${family})`,
        onclick: () => {
          opponent.value = b.name;
          label();
          say("");
          send.focus(); // the settings are above it; Enter sends
        },
      }, "Choose"))));
    label();
  }

  const form = h("form", { id: "challenge-form", class: "panel challenge-form", novalidate: true, "aria-labelledby": "challenge-form-title", onsubmit: submit },
    h("h2", { id: "challenge-form-title" }, "The challenge"),
    h("label", { class: "field" }, "Opponent", opponent),
    h("p", { class: "note", id: "challenge-opponent-note" }, "A player's name, or choose a house bot. A person answers while the challenge lasts: go on to other pages meanwhile, the answer finds you there."),
    fields.rules(),
    fields.clockRow({ stacked: true }),
    h("details", { class: "more" }, h("summary", {}, "More options"), fields.options()),
    error,
    h("div", { class: "buttons" }, send));
  const botsPanel = h("section", { class: "panel bots-panel", id: "house-bots", "aria-labelledby": "house-bots-title" },
    h("h2", { id: "house-bots-title" }, "House bots"), botNote, botList);
  body.append(h("div", { class: "challenge-grid" }, form, botsPanel));
  label();

  Promise.all([ctx.api.rules(), ctx.api.bots()]).then(([rules, botData]) => {
    if (stopper.signal.aborted) return;
    fields.fill(rules);
    bots = botData;
    drawBots();
    fields.onPreset(drawBots);
  }).catch((err) => {
    if (stopper.signal.aborted) return;
    fields.fill({});
    botNote.textContent = `The bots cannot be read just now: ${ctx.explain(err)}`;
  });
  return { stop: () => stopper.abort() };
}
