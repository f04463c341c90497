// What the page keeps in the browser (localStorage), and nothing else:
//   (gin.server                an earlier version's remembered ?server=: removed at each start. A service
//                              of another origin is used only while the address names it: trust.js)
//   gin.name                   the player's name at the table (not secret)
//   gin.seat.<game id>.<seat>  one seat of one game: its server, bearer token (a password for that seat
//                              of that game only), the invitation while the opponent has not joined,
//                              the shuffle commitments seen during each hand and the verification result.
//                              A seat of a signed-in account keeps no token: the session opens it.
//   gin.session.<server>       the account signed in on that service: its name, session id and session
//                              token (a password for the account until "Sign out"; never the password)
//   gin.player.<server>        the player logged in on that service by a name alone: its name and token
//                              (a password for that player: rated games, seeks, the seats it took)
//   gin.seek.<server>          the seek waiting in that service's lobby: its id and token (which becomes
//                              the seat's token once someone takes it), so that a reload keeps waiting
//   gin.muted                  "1" while the table's sounds are muted (sounds.js)
// No card is ever stored: the cards are asked of the service each time.

const PREFIX = "gin.seat.";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the game goes on, it just cannot be resumed after a reload
  }
}

/** Drop the service an earlier version of the page remembered from a ?server= (it is never kept now). */
export function forgetServer() {
  localStorage.removeItem("gin.server");
}

export function playerName() {
  return localStorage.getItem("gin.name") || "";
}
export function rememberName(name) {
  if (name) localStorage.setItem("gin.name", name);
  else localStorage.removeItem("gin.name");
}

/** Whether the table's sounds are muted (the mute switch at the table). */
export function loadMuted() {
  return read("gin.muted") === 1;
}
export function saveMuted(muted) {
  if (muted) write("gin.muted", 1);
  else localStorage.removeItem("gin.muted");
}

export function seatKey(gameId, seat) {
  return `${PREFIX}${gameId}.${seat}`;
}

export function loadSeat(gameId, seat) {
  const entry = read(seatKey(gameId, seat));
  return entry && entry.token ? entry : null;
}

/** What this browser keeps of a seat of an account (no token: the session opens it), or null. */
export function loadAccountSeat(gameId, seat, account) {
  const entry = read(seatKey(gameId, seat));
  return entry && !entry.token && entry.account === account ? entry : null;
}

/** Keep a seat. A seat played through an account's session (`entry.account`) is kept without its token. */
export function saveSeat(entry) {
  entry.updated = Date.now();
  if (entry.account) {
    const { token: _session, ...kept } = entry;
    write(seatKey(entry.gameId, entry.seat), kept);
  } else {
    write(seatKey(entry.gameId, entry.seat), entry);
  }
}

/** Keep the seat a new game (created, joined, paired) gave `player` (null: nobody logged in). A signed-in
 * account's seat keeps no seat token: the account's session opens it, here or on any other device. */
export function saveNewSeat(entry, player) {
  saveSeat(player?.account ? { ...entry, account: player.name } : entry);
}

export function forgetSeat(gameId, seat) {
  localStorage.removeItem(seatKey(gameId, seat));
}

/** Every saved seat, the most recently played first. */
export function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) {
      const entry = read(key);
      if (entry && entry.token) out.push(entry);
    }
  }
  return out.sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

/** The seats of one game held in this browser (both, when one person plays both sides in two tabs). */
export function seatsOf(gameId) {
  return [0, 1].map((seat) => loadSeat(gameId, seat)).filter(Boolean);
}

// --- the account, the player and its seek, per service -------------------------------------------------------
/** Who plays in this browser on `server`: the account signed in ({name, token: its session, account:
 * true}), else the player logged in by a name alone ({name, token}), else null. */
export function loadPlayer(server) {
  const session = loadSession(server);
  if (session) return { name: session.name, token: session.token, account: true };
  const entry = read(`gin.player.${server}`);
  return entry && entry.name && entry.token ? entry : null;
}

/** The player logged in by a name alone (no account), or null. */
export function loadNamePlayer(server) {
  const entry = read(`gin.player.${server}`);
  return entry && entry.name && entry.token ? entry : null;
}

export function loadSession(server) {
  const entry = read(`gin.session.${server}`);
  return entry && entry.name && entry.token ? entry : null;
}
export function saveSession(server, session) {
  write(`gin.session.${server}`, { name: session.name, token: session.token, session: session.session });
}
/** Forget the session, and what this browser kept of the account's seats (no token: only the shuffle
 * checks), so that nothing of the account stays behind on a shared computer. */
export function forgetSession(server) {
  const session = loadSession(server);
  localStorage.removeItem(`gin.session.${server}`);
  if (!session) return;
  const keys = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) keys.push(key);
  }
  for (const key of keys) {
    const entry = read(key);
    if (entry && !entry.token && entry.account === session.name && entry.server === server) localStorage.removeItem(key);
  }
}
export function savePlayer(server, player) {
  write(`gin.player.${server}`, { name: player.name, token: player.token });
}
export function forgetPlayer(server) {
  localStorage.removeItem(`gin.player.${server}`);
}

export function loadSeek(server) {
  const entry = read(`gin.seek.${server}`);
  return entry && entry.id && entry.token ? entry : null;
}
export function saveSeek(server, seek) {
  write(`gin.seek.${server}`, seek);
}
export function forgetSeek(server) {
  localStorage.removeItem(`gin.seek.${server}`);
}
