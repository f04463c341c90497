// The HTTP client of the Gin Rummy service: every call goes through Api.request(), which adds the
// bearer token, decodes the JSON body and turns an error response (application/problem+json) into an
// ApiError carrying the status and the problem. A network failure (the service is down, this device is
// offline, or the browser refused a cross-origin answer: CORS) becomes a NetworkError. The page talks to the
// service only here; words.js says what went wrong in a player's words. A password goes only to the page's
// own service, or to one the person confirmed by name in this tab (trust.js): signUp, signIn and
// changePassword refuse otherwise, whatever form calls them.

import { ServerNotConfirmed, passwordAllowed } from "./trust.js";

export class ApiError extends Error {
  /** `retryAfter`: the seconds of a Retry-After header (a 429 or a 503), else null. */
  constructor(status, problem, retryAfter = null) {
    const detail = problem.detail || problem.title || `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.problem = problem;
    this.code = problem.code || "http_error";
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/** The seconds of a Retry-After header ("120"; a date is read as the seconds until then), or null. */
function retryAfterOf(response) {
  const value = response.headers.get("Retry-After");
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const when = Date.parse(value);
  return Number.isNaN(when) ? null : Math.max(0, Math.ceil((when - Date.now()) / 1000));
}

/** The service could not be reached (`server`): down, this device offline, or, for a service of another
 * origin (`crossOrigin`), an answer the browser refused because the service does not allow this origin. */
export class NetworkError extends Error {
  constructor(message, { server = null, crossOrigin = false } = {}) {
    super(message);
    this.server = server;
    this.crossOrigin = crossOrigin;
  }
}

/** A fresh Idempotency-Key (crypto.randomUUID exists only in secure contexts). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The game version in an ETag ("12" or W/"12"), or null. */
export function versionOfEtag(etag) {
  if (!etag) return null;
  const text = etag.replace(/^W\//, "").replace(/"/g, "");
  return /^\d+$/.test(text) ? Number(text) : null;
}

/** Cursors are "<version>-<i>"; compare them as pairs of numbers. */
export function cursorAfter(a, b) {
  if (!b) return Boolean(a);
  if (!a) return false;
  const [av, ai] = a.split("-").map(Number);
  const [bv, bi] = b.split("-").map(Number);
  return av > bv || (av === bv && ai > bi);
}

const ACTION_RETRIES = 2; // network errors only; the Idempotency-Key makes a retry safe

/** Whether `server` is of another origin than this page (only then can CORS refuse its answers). */
function crossOrigin(server) {
  try {
    return new URL(server).origin !== location.origin;
  } catch {
    return true;
  }
}

/** fetch() as every call of this page makes it (no cookies, no referrer, no cache); a network failure
 * becomes a NetworkError saying `unreachable`. */
async function send(url, init, unreachable, server) {
  try {
    return await fetch(url, { ...init, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new NetworkError(unreachable, { server, crossOrigin: crossOrigin(server) });
  }
}

export class Api {
  constructor(server) {
    this.server = server.replace(/\/+$/, "");
  }

  async request(method, path, { token, body, headers, signal } = {}) {
    const all = { Accept: "application/json", ...(headers || {}) };
    if (token) all.Authorization = `Bearer ${token}`;
    if (body !== undefined) all["Content-Type"] = "application/json";
    const response = await send(
      this.server + path,
      { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body), signal },
      `cannot reach the service at ${this.server}`,
      this.server,
    );
    let data = null;
    const text = await response.text();
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    }
    if (response.status >= 400) {
      const problem = data && typeof data === "object" ? data : { detail: text.slice(0, 200) };
      throw new ApiError(response.status, problem, retryAfterOf(response));
    }
    return { status: response.status, data, etag: response.headers.get("ETag"), retryAfter: retryAfterOf(response) };
  }

  // --- reference -------------------------------------------------------------------------------------
  async bots() {
    return (await this.request("GET", "/v1/bots")).data;
  }
  async rules() {
    return (await this.request("GET", "/v1/rules")).data;
  }
  async analyze(cards, knockLimit) {
    const body = { cards };
    if (Number.isInteger(knockLimit)) body.knock_limit = knockLimit;
    return (await this.request("POST", "/v1/analyze", { body })).data;
  }

  // --- games -----------------------------------------------------------------------------------------
  /** A new game; with a player's token (playerToken) the seat is that player's. */
  async create(body, playerToken) {
    const headers = { "Idempotency-Key": newKey() };
    return (await this.request("POST", "/v1/games", { body, token: playerToken, headers })).data;
  }
  async join(gameId, invitation, name, playerToken) {
    const body = { invitation };
    if (name) body.name = name;
    const path = `/v1/games/${encodeURIComponent(gameId)}/join`;
    return (await this.request("POST", path, { body, token: playerToken, headers: { "Idempotency-Key": newKey() } })).data;
  }
  async view(gameId, token) {
    const reply = await this.request("GET", `/v1/games/${encodeURIComponent(gameId)}`, { token });
    const view = reply.data;
    if (view.version == null) view.version = versionOfEtag(reply.etag);
    return view;
  }
  async act(gameId, token, action, version) {
    return this.postMove(gameId, token, "actions", action, version);
  }
  async undo(gameId, token, version) {
    return this.postMove(gameId, token, "undo", {}, version);
  }
  /** Resign, abort, rematch: If-Match "*", they do not depend on the position the page shows. */
  async end(gameId, token, type) {
    return this.postMove(gameId, token, "actions", { type }, "*");
  }
  /** An arena's berserk, before this seat's first move: half its bank, no increment (If-Match as a move). */
  async berserk(gameId, token, version) {
    return this.postMove(gameId, token, "berserk", undefined, version);
  }
  async claimVictory(gameId, token) {
    return (await this.request("POST", `/v1/games/${encodeURIComponent(gameId)}/claim-victory`, { token })).data;
  }
  async postMove(gameId, token, what, body, version) {
    // One key for every attempt: if the first POST was applied but its answer lost, the retry gets
    // the stored answer rather than making the move twice.
    const headers = { "If-Match": version === "*" ? "*" : `"${version}"`, "Idempotency-Key": newKey() };
    const path = `/v1/games/${encodeURIComponent(gameId)}/${what}`;
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.request("POST", path, { token, body, headers })).data;
      } catch (err) {
        if (!(err instanceof NetworkError) || attempt >= ACTION_RETRIES) throw err;
        await sleep(300 * (attempt + 1));
      }
    }
  }
  async hint(gameId, token) {
    return (await this.request("GET", `/v1/games/${encodeURIComponent(gameId)}/hint`, { token })).data;
  }
  async handRecord(gameId, token, number) {
    const path = `/v1/games/${encodeURIComponent(gameId)}/hands/${number}`;
    return (await this.request("GET", path, { token })).data;
  }

  // --- players and the lobby --------------------------------------------------------------------------
  /** A new player: {name, token} (the token is shown once: the page keeps it). */
  async createPlayer(name) {
    return (await this.request("POST", "/v1/players", { body: { name } })).data;
  }
  async profile(name) {
    return (await this.request("GET", `/v1/players/${encodeURIComponent(name)}`)).data;
  }
  async leaderboard(family, limit = 10) {
    const params = new URLSearchParams({ family, limit: String(limit) });
    return (await this.request("GET", `/v1/leaderboard?${params}`)).data;
  }
  /** The open seeks; with the player's token, without those of players in a block with it. */
  async lobby(signal, playerToken) {
    return (await this.request("GET", "/v1/lobby", { signal, token: playerToken })).data;
  }
  /** The quick pairing pools, each with how many wait in it and the seek that joins it. */
  async pools(signal) {
    return (await this.request("GET", "/v1/lobby/pools", { signal })).data;
  }
  /** Seek a game with the player's token: {status: 201, data: the game} (paired at once) or
   * {status: 202, data: {seek, token}} (waiting in the lobby). */
  async seek(body, playerToken) {
    const reply = await this.request("POST", "/v1/seeks", { body, token: playerToken });
    return { status: reply.status, data: reply.data };
  }
  /** The owner's look at its seek (the seek's token); a long poll of `wait` seconds. */
  async seekStatus(seekId, seekToken, wait, signal) {
    const path = `/v1/seeks/${encodeURIComponent(seekId)}?wait=${wait}`;
    return (await this.request("GET", path, { token: seekToken, signal })).data;
  }
  async cancelSeek(seekId, seekToken) {
    return (await this.request("DELETE", `/v1/seeks/${encodeURIComponent(seekId)}`, { token: seekToken })).data;
  }
  /** Take a seek of the lobby: the game starts ({game_id, seat, token, view, events}). */
  async acceptSeek(seekId, playerToken) {
    return (await this.request("POST", `/v1/seeks/${encodeURIComponent(seekId)}/accept`, { token: playerToken })).data;
  }

  /** The public games in play, newest first (a spectator may watch any of them). */
  async liveGames(limit = 50) {
    return (await this.request("GET", `/v1/games?status=live&limit=${limit}`)).data;
  }

  // --- accounts -----------------------------------------------------------------------------------------
  /** A ServerNotConfirmed unless a password may go to this service (trust.js). */
  mayTakePassword() {
    if (!passwordAllowed(this.server)) throw new ServerNotConfirmed(this.server);
  }
  /** Sign up: {name, token, session, lifetime}, signed in. With a name-and-token player's own token
   * (`playerToken`), that player keeps its name and gets a password. */
  async signUp(name, password, playerToken) {
    this.mayTakePassword();
    return (await this.request("POST", "/v1/account", { body: { name, password }, token: playerToken })).data;
  }
  /** Sign in: a new session {name, token, session, lifetime}. */
  async signIn(name, password) {
    this.mayTakePassword();
    return (await this.request("POST", "/v1/account/sessions", { body: { name, password } })).data;
  }
  /** Sign out: this session ends (its token is refused from now on). */
  async signOut(sessionToken) {
    return (await this.request("DELETE", "/v1/account/sessions/current", { token: sessionToken })).data;
  }
  /** The account's games in play on any device, newest first: {games: [{game_id, seat, players, your_move, …}]}. */
  async accountGames(sessionToken, signal) {
    return (await this.request("GET", "/v1/account/games?status=live", { token: sessionToken, signal })).data;
  }

  // --- account security (a session's token only: an API token may not manage them) --------------------------
  /** The account's signed-in sessions, newest first: {sessions: [{id, created, last_used, expires, user_agent,
   * address, current}]} (never their tokens). */
  async sessions(sessionToken) {
    return (await this.request("GET", "/v1/account/sessions", { token: sessionToken })).data;
  }
  /** End one session by its id ("current": this one): {signed_out}. */
  async endSession(sessionToken, sessionId) {
    return (await this.request("DELETE", `/v1/account/sessions/${encodeURIComponent(sessionId)}`, { token: sessionToken })).data;
  }
  /** Sign out everywhere: every session of the account ends, this one too: {signed_out}. */
  async signOutEverywhere(sessionToken) {
    return (await this.request("DELETE", "/v1/account/sessions", { token: sessionToken })).data;
  }
  /** A new password (given the current one); every other session ends: {signed_out}. */
  async changePassword(sessionToken, current, next) {
    this.mayTakePassword();
    return (await this.request("POST", "/v1/account/password", { token: sessionToken, body: { current, new: next } })).data;
  }
  /** The personal API tokens: {tokens: [{id, description, scopes, created, last_used}]} (never the tokens). */
  async apiTokens(sessionToken) {
    return (await this.request("GET", "/v1/account/tokens", { token: sessionToken })).data;
  }
  /** A new personal API token: {id, description, scopes, created, token} — the token shown this once. */
  async createApiToken(sessionToken, description, scopes) {
    return (await this.request("POST", "/v1/account/tokens", { token: sessionToken, body: { description, scopes } })).data;
  }
  async revokeApiToken(sessionToken, tokenId) {
    return (await this.request("DELETE", `/v1/account/tokens/${encodeURIComponent(tokenId)}`, { token: sessionToken })).data;
  }

  // --- challenges and the account stream --------------------------------------------------------------------
  /** Challenge a player or a house bot ("bot-expert"): {challenge, token}. A house bot accepts at once
   * (challenge.status "accepted", its game_id; `token` is the seat's token). Not resent after a lost answer:
   * a second POST is a second challenge. */
  async challenge(body, playerToken) {
    return (await this.request("POST", "/v1/challenges", { body, token: playerToken })).data;
  }
  /** The caller's open challenges: {in: received, out: sent}. */
  async challenges(playerToken, signal) {
    return (await this.request("GET", "/v1/challenges", { token: playerToken, signal })).data;
  }
  /** One challenge, to one of its sides: open, accepted (game_id), declined (decline_reason), canceled, expired. */
  async challengeStatus(challengeId, playerToken, signal) {
    return (await this.request("GET", `/v1/challenges/${encodeURIComponent(challengeId)}`, { token: playerToken, signal })).data;
  }
  /** Accept a challenge received: the game starts ({game_id, seat: 1, token, view, challenge}). */
  async acceptChallenge(challengeId, playerToken) {
    return (await this.request("POST", `/v1/challenges/${encodeURIComponent(challengeId)}/accept`, { token: playerToken })).data;
  }
  async declineChallenge(challengeId, reason, playerToken) {
    return (await this.request("POST", `/v1/challenges/${encodeURIComponent(challengeId)}/decline`, { token: playerToken, body: { reason } })).data;
  }
  async cancelChallenge(challengeId, playerToken) {
    return (await this.request("POST", `/v1/challenges/${encodeURIComponent(challengeId)}/cancel`, { token: playerToken })).data;
  }
  /** One page of the account stream (Accept: application/json): {events, last_id}. Without `since`, the
   * present (a gameStart per game in play, a challenge per open challenge received); with it, what came
   * after that id, waiting up to `wait` seconds while nothing has (a long poll). */
  async accountEvents(playerToken, since, wait, signal) {
    const params = new URLSearchParams({ wait: String(wait) });
    if (since) params.set("since", since);
    return (await this.request("GET", `/v1/account/stream?${params}`, { token: playerToken, signal })).data;
  }

  // --- tournaments ------------------------------------------------------------------------------------------
  /** The public tournaments: {created (upcoming), started (running), finished}. */
  async tournaments(signal) {
    return (await this.request("GET", "/v1/tournaments", { signal })).data;
  }
  /** A new tournament (an account's): {tournament, entry_code} — a private one's code, shown this once. */
  async createTournament(body, playerToken) {
    return (await this.request("POST", "/v1/tournaments", { body, token: playerToken })).data;
  }
  /** A tournament with a page of its standings, its matches in play (`playing`) and the caller's entry (`me`). */
  async tournament(tournamentId, page, playerToken, signal) {
    const path = `/v1/tournaments/${encodeURIComponent(tournamentId)}?page=${page}`;
    return (await this.request("GET", path, { token: playerToken, signal })).data;
  }
  /** join (with a private one's `code`), withdraw (an arena's pause), start (the organiser: now, or a Swiss'
   * next round) or terminate (the organiser). */
  async tournamentAction(tournamentId, action, playerToken, body) {
    const path = `/v1/tournaments/${encodeURIComponent(tournamentId)}/${action}`;
    return (await this.request("POST", path, { token: playerToken, body })).data;
  }
  /** The address of a tournament's live stream (Server-Sent Events: EventSource resumes it by itself). */
  tournamentStreamUrl(tournamentId) {
    return `${this.server}/v1/tournaments/${encodeURIComponent(tournamentId)}/stream`;
  }

  // --- table chat, follows, blocks and reports ---------------------------------------------------------------
  /** The chat lines the caller reads after line `after`: {lines, last, rooms, muted}; a long poll of `wait`
   * seconds while there are none. `token`: a seat's (the players' room), else a watcher's (or none). */
  async chat(gameId, token, after, wait, signal) {
    const params = new URLSearchParams({ after: String(after), wait: String(wait) });
    return (await this.request("GET", `/v1/games/${encodeURIComponent(gameId)}/chat?${params}`, { token, signal })).data;
  }
  /** Say a line: {room, preset} or {room, text} (free text: an account's). The answer is the line. */
  async say(gameId, token, body) {
    return (await this.request("POST", `/v1/games/${encodeURIComponent(gameId)}/chat`, { token, body })).data;
  }
  /** A seat stops (`on`) or starts again reading the other seat's lines at this table. */
  async muteChat(gameId, token, on) {
    return (await this.request("POST", `/v1/games/${encodeURIComponent(gameId)}/chat/${on ? "mute" : "unmute"}`, { token })).data;
  }
  /** The preset phrases: {presets: [{id, text}]}. */
  async chatPresets() {
    return (await this.request("GET", "/v1/chat/presets")).data;
  }
  /** follow, unfollow, block or unblock a player (an account's). */
  async relate(name, action, token) {
    return (await this.request("POST", `/v1/players/${encodeURIComponent(name)}/${action}`, { token })).data;
  }
  /** The players the account follows: {players: [{name, bot, online, playing: [game ids]}]}. */
  async following(token, signal) {
    return (await this.request("GET", "/v1/account/following", { token, signal })).data;
  }
  /** The players the account blocks: {players: [names]}. */
  async blocking(token, signal) {
    return (await this.request("GET", "/v1/account/blocking", { token, signal })).data;
  }
  /** Report a player to the moderators: {player, reason, text?, game_id?, line?} (an account's). */
  async report(body, token) {
    return (await this.request("POST", "/v1/reports", { token, body })).data;
  }

  // --- the archive ---------------------------------------------------------------------------------------
  /** A page of a player's finished games, newest first: {games, next}. `query`: cursor, limit and the
   * filters (result, rated, family, opponent, since, until). `token`: the player's own credential, sent
   * when the list is the signed-in player's: its private games are listed for it alone. */
  async playerGames(name, query = {}, token = null) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
    return (await this.request("GET", `/v1/players/${encodeURIComponent(name)}/games?${params}`, { token })).data;
  }
  /** Per rules family, each rated game's rating before and after, oldest first (`token` as playerGames). */
  async ratingHistory(name, token = null) {
    return (await this.request("GET", `/v1/players/${encodeURIComponent(name)}/rating-history`, { token })).data;
  }
  /** A finished match in one document (ginrummy.match): players, rules, result and every hand's record. */
  async exportGame(gameId) {
    return (await this.request("GET", `/v1/games/${encodeURIComponent(gameId)}/export`)).data;
  }
  /** The master's review of a finished match: {status: 202 (pending) or 200 (done or failed), data:
   * {status, review, …}, retryAfter}; 404 review_not_found when none was asked for. `ask`: POST, asking for
   * one (202 while a bot worker computes it; 200 if it is there already). */
  async review(gameId, { ask = false, signal } = {}) {
    return this.request(ask ? "POST" : "GET", `/v1/games/${encodeURIComponent(gameId)}/review`, { signal });
  }

  // --- events ----------------------------------------------------------------------------------------
  /** One long poll: {events, cursor, truncated}. */
  async poll(gameId, token, after, wait, signal) {
    const params = new URLSearchParams({ wait: String(wait) });
    if (after) params.set("after", after);
    const path = `/v1/games/${encodeURIComponent(gameId)}/events?${params}`;
    return (await this.request("GET", path, { token, signal })).data;
  }

  /**
   * The NDJSON event stream, read with fetch (EventSource cannot send an Authorization header); without a
   * token, the spectator's.
   * Calls onOpen() once the service answered, onEvent(event) for each line (keep-alives included),
   * until the server ends the stream (after `wait` seconds; the caller reconnects with its cursor).
   */
  async stream(gameId, token, after, wait, signal, { onOpen, onEvent }) {
    const params = new URLSearchParams({ wait: String(wait) });
    if (after) params.set("after", after);
    const url = `${this.server}/v1/games/${encodeURIComponent(gameId)}/events?${params}`;
    const response = await send(
      url,
      { headers: token ? { Accept: "application/x-ndjson", Authorization: `Bearer ${token}` } : { Accept: "application/x-ndjson" }, signal },
      `the event stream of ${this.server} cannot be reached`,
      this.server,
    );
    if (response.status >= 400) {
      let problem = {};
      try {
        problem = await response.json();
      } catch {
        problem = { detail: `HTTP ${response.status}` };
      }
      throw new ApiError(response.status, problem, retryAfterOf(response));
    }
    if (!response.body || !(response.headers.get("Content-Type") || "").includes("ndjson")) {
      throw new NetworkError("no event stream here", { server: this.server });
    }
    onOpen?.();
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (err.name === "AbortError") throw err;
        throw new NetworkError("the event stream broke off", { server: this.server });
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (line) onEvent(JSON.parse(line));
      }
    }
  }
}

export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
