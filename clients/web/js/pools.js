// Quick pairing on the start page, as lichess's home-page grid: one big button per pool of GET
// /v1/lobby/pools — a rules family and a clock, rated — with how many wait in it. A click joins the pool,
// which is nothing but a quick seek with its terms (lobby.js posts it, waits for the opponent with a Cancel
// button, and shows the house bot the service offers after a while).

import { clear, h } from "./dom.js";

/** "3+2": the bank's minutes and the seconds added a move (the pools' clocks are banks of whole minutes). */
function clockFigures(clock) {
  return `${clock.bank / 60}+${clock.increment}`;
}

function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function waitingWords(count) {
  return `${count || 0} waiting`;
}

/**
 * The grid: ctx = {api, player (null: nobody signed in, the buttons wait for one), join(pool, button)}.
 * Returns {grid, refresh(signal) (reads the pools and their counts again), waitingIn(poolId | null, on)
 * (marks the pool the player waits in; `on`: waiting, every button at rest meanwhile), focus(poolId)}.
 */
export function poolGrid(ctx) {
  const grid = h("div", { class: "pool-grid", id: "pools", role: "group", "aria-label": "Pools" });
  let pools = [];
  let waitingPool = null;
  let seeking = false;

  function focusPool(poolId) {
    grid.querySelector(`[data-pool="${CSS.escape(poolId)}"]`)?.focus();
  }

  /** A row per rules family, under its name; a button per clock. */
  function draw() {
    const focused = document.activeElement?.dataset?.pool;
    clear(grid);
    let family = null;
    for (const pool of pools) {
      if (pool.family !== family) {
        family = pool.family;
        grid.append(h("span", { class: "pool-family", "aria-hidden": "true" }, capital(family)));
      }
      const terms = `${capital(pool.family)}, ${pool.clock.preset}`;
      const mine = waitingPool === pool.id;
      grid.append(h("button", {
        type: "button",
        class: mine ? "pool joined" : pool.waiting ? "pool busy" : "pool",
        "data-action": "join-pool",
        "data-pool": pool.id,
        "aria-pressed": mine ? "true" : "false",
        disabled: !ctx.player || seeking,
        "aria-label": `${terms}: ${clockFigures(pool.clock)}, rated — ${mine ? "you are waiting here" : waitingWords(pool.waiting)}`,
        onclick: (event) => ctx.join(pool, event.currentTarget),
      },
      h("span", { class: "pool-clock" }, clockFigures(pool.clock)),
      h("span", { class: "pool-terms" }, capital(pool.clock.preset)),
      h("span", { class: "pool-count" }, mine ? "you wait" : waitingWords(pool.waiting))));
    }
    if (focused) focusPool(focused);
  }

  return {
    grid,
    async refresh(signal) {
      try {
        pools = (await ctx.api.pools(signal)).pools || [];
      } catch {
        return; // the lobby's note says when the service cannot be read
      }
      draw();
    },
    waitingIn(poolId, on) {
      waitingPool = poolId;
      seeking = on;
      draw();
    },
    focus: focusPool,
  };
}
