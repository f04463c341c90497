// Reporting a player to the moderators (POST /v1/reports, an account's): a small form — why (abuse, spam,
// cheating, something else) and, if one likes, what happened — opened from a chat line (quoted by its
// number: the service keeps a copy of it) or from a profile. The reporter is told that the report arrived,
// never what is done about it.

import { clear, h } from "./dom.js";
import { playerLabel } from "./site.js";

export const REPORT_REASONS = [
  ["abuse", "Abuse or insults"],
  ["spam", "Spam"],
  ["cheating", "Cheating"],
  ["other", "Something else"],
];

/**
 * The form. `api`, `token` (the account's), `player` (the one reported), `gameId` and `line` (a chat line's
 * number) when it is about a line, `quote` (that line's text, shown), `explain(err)` (a refusal in words),
 * `done()` (the form is to go: cancelled, or closed after it was sent).
 */
export function reportForm({ api, token, player, gameId = null, line = null, quote = "", explain, done }) {
  const reason = h("select", { id: "report-reason", name: "reason" }, REPORT_REASONS.map(([value, label]) => h("option", { value }, label)));
  const text = h("textarea", { id: "report-text", name: "text", rows: "2", maxlength: "1000", placeholder: "What happened (optional)" });
  const said = h("p", { class: "field-error", role: "alert", hidden: true });
  const send = h("button", { type: "submit", class: "btn primary", "data-action": "send-report" }, "Send the report");
  const box = h("form", {
    class: "report-form",
    id: "report-form",
    "aria-label": `Report ${playerLabel(player)}`,
    onsubmit: async (event) => {
      event.preventDefault();
      send.disabled = true;
      said.hidden = true;
      const body = { player, reason: reason.value };
      if (text.value.trim()) body.text = text.value.trim();
      if (gameId) body.game_id = gameId;
      if (gameId && line) body.line = line;
      try {
        await api.report(body, token);
      } catch (err) {
        send.disabled = false;
        said.textContent = explain(err);
        said.hidden = false;
        return;
      }
      clear(box).append(
        h("p", { class: "report-sent", role: "status", tabindex: "-1" }, `Report sent: the moderators will look at it. Thank you.`),
        h("div", { class: "buttons" }, h("button", { type: "button", class: "btn", "data-action": "close-report", onclick: done }, "Close")));
      box.querySelector(".report-sent").focus();
    },
  },
  h("p", { class: "report-what" }, line ? `Report ${playerLabel(player)}'s line: ` : `Report ${playerLabel(player)} to the moderators.`, line ? h("q", {}, quote) : null),
  h("label", { class: "field" }, "Why", reason),
  h("label", { class: "field" }, "What happened", text),
  said,
  h("div", { class: "buttons" }, send, h("button", { type: "button", class: "btn", "data-action": "cancel-report", onclick: done }, "Cancel")));
  return box;
}
