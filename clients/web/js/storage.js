// What the page keeps in the browser (localStorage), and nothing else:
//   gin.server                 the service URL chosen with ?server= (not secret)
//   gin.name                   the player's name at the table (not secret)
//   gin.seat.<game id>.<seat>  one seat of one game: its server, bearer token (a password for that seat
//                              of that game only), the invitation while the opponent has not joined,
//                              the shuffle commitments seen during each hand and the verification result.
//   gin.player.<server>        the player logged in on that service: its name and token (a password for
//                              that player: rated games, seeks, the seats it took)
//   gin.seek.<server>          the seek waiting in that service's lobby: its id and token (which becomes
//                              the seat's token once someone takes it), so that a reload keeps waiting
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

export function rememberedServer() {
  return localStorage.getItem("gin.server");
}
export function rememberServer(url) {
  localStorage.setItem("gin.server", url);
}
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

export function seatKey(gameId, seat) {
  return `${PREFIX}${gameId}.${seat}`;
}

export function loadSeat(gameId, seat) {
  const entry = read(seatKey(gameId, seat));
  return entry && entry.token ? entry : null;
}

export function saveSeat(entry) {
  entry.updated = Date.now();
  write(seatKey(entry.gameId, entry.seat), entry);
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

// --- the player and its seek, per service ----------------------------------------------------------------
export function loadPlayer(server) {
  const entry = read(`gin.player.${server}`);
  return entry && entry.name && entry.token ? entry : null;
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
