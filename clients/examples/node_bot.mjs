#!/usr/bin/env node
// A Gin Rummy bot in JavaScript with nothing but Node's built-in fetch (Node 18 or newer): it plays
// whole matches against a house bot over the service's HTTP API (docs/api.md) and prints each result.
//
//   node node_bot.mjs SERVER [GAMES] [BOT] [SEED] [KEY=VALUE ...]
//   node node_bot.mjs http://127.0.0.1:8000 3 simple          # three matches against "simple"
//   node node_bot.mjs http://127.0.0.1:8000 10 expert 42 target=50
//
// SEED (services run with GIN_ALLOW_SEED=1 only): game n deals from SEED + n. KEY=VALUE: rule options.
// Exit status: 0 done, 1 a game failed, 2 bad arguments.
import { randomUUID } from "node:crypto";


const [server, games = "1", bot = "simple", ...rest] = process.argv.slice(2);
const seed = /^\d+$/.test(rest[0] ?? "") ? Number(rest.shift()) : undefined;
if (!/^https?:\/\//.test(server ?? "") || !/^\d+$/.test(games) || rest.some((o) => !o.includes("="))) {
  console.error("usage: node node_bot.mjs SERVER [GAMES] [BOT] [SEED] [KEY=VALUE ...]");
  process.exit(2);
}
const options = Object.fromEntries(
  rest.map((pair) => {
    const [key, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
    try {
      return [key, JSON.parse(value)]; // numbers and booleans
    } catch {
      return [key, value];
    }
  }),
);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One request, resent after a network error or a 429/503 (a POST keeps its Idempotency-Key, so the
// service applies it once however often it arrives). Answers {status, body}.
async function call(method, path, { token, body, version } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST") headers["Idempotency-Key"] = randomUUID();
  if (version !== undefined) headers["If-Match"] = `"${version}"`;
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(server.replace(/\/$/, "") + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (attempt >= 5) throw error;
      await sleep(200 * 2 ** attempt);
      continue;
    }
    const answer = { status: response.status, body: await response.json().catch(() => null) };
    if ((answer.status === 429 || answer.status === 503) && attempt < 5) {
      await sleep(1000 * Number(response.headers.get("Retry-After") ?? 1));
      continue;
    }
    return answer;
  }
}

function refused(what, answer) {
  return new Error(`${what}: ${answer.body?.detail ?? "HTTP " + answer.status} (${answer.body?.code})`);
}

// The strategy: knock or lay off the moment it can; discard what leaves the least deadwood (the view
// lists the deadwood after each discard in hand.discards); never take the face-up card.
function choose(view, moves) {
  const left = Object.fromEntries((view.hand.discards ?? []).map((d) => [d.card, d.deadwood]));
  const cost = (action) => left[action.discard ?? action.card] ?? 0;
  for (const type of ["knock", "layoff", "deal", "discard"]) {
    const some = moves.filter((action) => action.type === type);
    if (some.length) return some.reduce((best, action) => (cost(action) < cost(best) ? action : best));
  }
  const stock = moves.find((action) => action.type === "draw" && action.source === "stock");
  return stock ?? moves.find((action) => action.type === "pass") ?? moves[0];
}

async function play(number) {
  const created = await call("POST", "/v1/games", {
    body: {
      rules: { preset: "standard", options },
      opponent: { type: "bot", bot },
      name: "node-bot",
      ...(seed === undefined ? {} : { seed: seed + number }),
    },
  });
  if (created.status !== 201) throw refused("cannot create a game", created);
  const { game_id: id, token, seat } = created.body;
  const read = async () => {
    const answer = await call("GET", `/v1/games/${id}`, { token });
    if (answer.status !== 200) throw refused(`game ${id}`, answer);
    return answer.body;
  };
  let view = created.body.view;
  let cursor = created.body.events.at(-1)?.id;
  while (view.phase !== "match_over") {
    const moves = view.legal_actions.filter((action) => action.kind === "play"); // resign, abort: never
    if (moves.length === 0) {
      // Not my turn: wait (long poll) for the next event, then read the view again.
      const after = cursor ? `&after=${cursor}` : "";
      const page = await call("GET", `/v1/games/${id}/events?wait=30${after}`, { token });
      if (page.status !== 200) throw refused(`game ${id}`, page);
      cursor = page.body.cursor ?? cursor;
      view = await read();
      continue;
    }
    const body = choose(view, moves);
    const answer = await call("POST", `/v1/games/${id}/actions`, { token, body, version: view.version });
    if (answer.status === 200) {
      view = answer.body.view; // my move and the bot's replies are applied: the new play view
      cursor = answer.body.events.at(-1)?.id ?? cursor;
    } else if (answer.status === 412) {
      view = await read(); // the game moved on since that view: read it again and choose again
    } else {
      throw refused(`game ${id}: ${JSON.stringify(body)} refused`, answer);
    }
  }
  const scores = view.scores;
  const total = (s) => scores.games.reduce((sum, game) => sum + game.grand_totals[s], 0);
  const result = scores.match_winner === null ? "aborted" : scores.match_winner === seat ? "won" : "lost";
  const hands = view.hand_number;
  console.log(`game ${id}: ${result}, score ${total(seat)}–${total(1 - seat)}, ${hands} hand${hands === 1 ? "" : "s"}`);
  return result;
}

const tally = { won: 0, lost: 0, aborted: 0, errors: 0 };
for (let number = 0; number < Number(games); number++) {
  try {
    tally[await play(number)] += 1;
  } catch (error) {
    tally.errors += 1;
    console.error(`game #${number + 1}: error, ${error.message}`);
  }
}
const counts = Object.entries(tally).map(([name, count]) => `${name} ${count}`);
console.log(`summary: games ${games}, ${counts.join(", ")}`);
process.exit(tally.errors ? 1 : 0);
