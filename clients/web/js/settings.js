// The settings of a game to be, as a form asks them: the rules (a preset of GET /v1/rules, "Game to",
// the knock limit, any other option as JSON beside the list of every option), the clock and "Rated". The
// start page's new game (main.js) and a challenge (challenge.js) ask the same; read() turns them into the
// request's `rules`, `clock` and `rated`.

import { clear, h } from "./dom.js";
import { CLOCK_CHOICES } from "./lobby.js";

/**
 * The fields, their ids prefixed with `prefix` ("" on the start page: #preset, #clock…). `player`: who
 * plays here (null: nobody signed in, so no "Rated"); `showError(text)` says what is wrong with the
 * options. Returns the pieces to lay out (rules(), clockRow(), options()), `preset`, read(), fill(rules)
 * once GET /v1/rules has answered, and onPreset(fn) to hear the preset change.
 */
export function settingsFields({ prefix = "", player, showError }) {
  const id = (name) => `${prefix}${name}`;
  const preset = h("select", { id: id("preset"), name: "preset", "aria-describedby": id("preset-desc") });
  const presetDesc = h("p", { id: id("preset-desc"), class: "note" }, "Loading the rules…");
  const target = h("input", { id: id("target"), name: "target", type: "number", min: "1", max: "10000", inputmode: "numeric" });
  const knockLimit = h("input", { id: id("knock-limit"), name: "knock_limit", type: "number", min: "0", max: "100", inputmode: "numeric" });
  const extra = h("textarea", { id: id("options-json"), name: "options", rows: "2", spellcheck: "false", placeholder: '{"gin_bonus": 20, "next_dealer": "alternate"}' });
  const optionList = h("dl", { class: "option-list" });
  const clock = h("select", { id: id("clock"), name: "clock" }, CLOCK_CHOICES.map(([value, label]) => h("option", { value }, label)));
  const rated = player ? h("input", { id: id("rated"), name: "rated", type: "checkbox" }) : null;
  let presets = [];

  function describe() {
    const chosen = presets.find((x) => x.name === preset.value);
    presetDesc.textContent = chosen ? chosen.description : "";
    target.placeholder = chosen ? String(chosen.rules.target) : "";
    knockLimit.placeholder = chosen ? String(chosen.rules.knock_limit) : "";
  }
  preset.addEventListener("change", describe);

  return {
    preset,
    rules: () => [
      h("label", { class: "field" }, "Rules", preset),
      presetDesc,
      h("div", { class: "row" }, h("label", { class: "field" }, "Game to (points)", target), h("label", { class: "field" }, "Knock limit", knockLimit)),
    ],
    /** The clock and "Rated" side by side (`stacked`: one above the other, for a narrow form). */
    clockRow: ({ stacked = false } = {}) => h("div", { class: stacked ? "stacked" : "row" },
      h("label", { class: "field" }, "Clock", clock),
      rated ? h("label", { class: "check" }, rated, h("span", {}, "Rated", h("small", {}, " — counts for your rating; the preset's rules, no hints, no undo"))) : null),
    options: () => [
      h("label", { class: "field" }, "Other rule options (JSON)", extra),
      h("details", { class: "reference" }, h("summary", {}, "Every option"), optionList),
    ],
    /** The presets and every option, from GET /v1/rules. */
    fill(rules) {
      presets = rules.presets || [];
      clear(preset).append(...presets.map((p) => h("option", { value: p.name }, p.name)));
      clear(optionList);
      for (const o of rules.options || []) {
        optionList.append(h("dt", {}, h("code", {}, o.name), ` = ${JSON.stringify(o.default)}`), h("dd", {}, o.description + (o.choices ? ` (${o.choices.join(" | ")})` : "")));
      }
      describe();
    },
    onPreset(listener) {
      preset.addEventListener("change", listener);
    },
    /** {rules: {preset, options}, clock?, rated?} as chosen; null (said with showError) when the other
     * options are not a JSON object. */
    read() {
      let options = {};
      if (extra.value.trim()) {
        try {
          options = JSON.parse(extra.value);
          if (!options || typeof options !== "object" || Array.isArray(options)) throw new Error("not an object");
        } catch {
          showError('More options must be a JSON object, e.g. {"gin_bonus": 20}.');
          return null;
        }
      }
      if (target.value !== "") options.target = Number(target.value);
      if (knockLimit.value !== "") options.knock_limit = Number(knockLimit.value);
      const chosen = { rules: { preset: preset.value || "standard", options } };
      const control = CLOCK_CHOICES.find(([value]) => value === clock.value)?.[2];
      if (control) chosen.clock = control;
      if (rated?.checked) chosen.rated = true;
      return chosen;
    },
  };
}
