// Table chat (GET and POST /v1/games/{id}/chat): a panel at the table — the players' room, and the
// spectators' room too once the match is over —, on the watch page — the spectators' room, written by a
// player signed in or named — and, read only, beside a replay.
//
// A line is shown as text (textContent: never markup, and a link stays text) with its author, a BOT badge
// for a bot. One says a preset phrase (one click, anyone seated or named) or, an account, free text of up to
// 140 characters. At the table a seat mutes the other (POST …/chat/mute): the service then leaves the other's
// lines out, past ones too. A line can be reported (report.js) by an account.
//
// The panel follows the chat by a long poll on the chat endpoint, resumed after the last line read
// (?after=), so that a lost connection loses no line; it reads everything again from the first line when the
// rooms it reads change (the match ended) or the seat mutes or hears the other again. It folds (a button with
// the count of lines not read yet): folded at first where the side panel goes under the table (a phone),
// open beside it. The pages around it are drawn anew at each change (the table at each move): the panel is
// one element that mount() puts back, with what is being typed, its scroll and its focus.

import { ApiError, sleep } from "./api.js";
import { add, clear, h } from "./dom.js";
import { reportForm } from "./report.js";
import { pageHref, playerLabel } from "./site.js";
import * as storage from "./storage.js";
import { playerName } from "./tournament.js";
import { problemText } from "./words.js";

const WAIT = 25; // seconds of one long poll
const MAX_LENGTH = 140; // characters of a line (the service's)
const NARROW = "(max-width: 900px)"; // the side panel goes under the table (style.css): the chat folds

const presetsByServer = new Map(); // the preset phrases, read once per service

function presetsOf(api) {
  if (!presetsByServer.has(api.server)) {
    const asked = api.chatPresets().then((reply) => reply.presets || []);
    asked.catch(() => presetsByServer.delete(api.server)); // asked again by the next panel
    presetsByServer.set(api.server, asked);
  }
  return presetsByServer.get(api.server);
}

/** An emoji preset's words for a screen reader: "thumbs up". */
function presetWords(preset) {
  return /\p{Letter}/u.test(preset.text) ? preset.text : preset.id.replace(/_/g, " ");
}

export class ChatPanel {
  /**
   * `api`, `gameId`, and:
   *   token      who reads: a seat's credential (the players' room), a watcher's, or null (anyone)
   *   room       where it writes: "player" (a seat), "spectator" (a watcher), or null: it only reads
   *   freeText   it may type (an account); else the preset phrases only
   *   seat, name the reader's seat (at the table) and player's name: its own lines are marked as its own
   *   reporter   the account's token that reports a line, or null (no Report)
   *   mute       offer the seat's mute of the other (the table)
   *   live       follow new lines (false: read them once, the replay)
   *   why        what a reader who may not write reads instead of the composer (null: nothing)
   *   notice(text)  say a line that came while the panel is folded
   */
  constructor(api, gameId, options) {
    this.api = api;
    this.gameId = gameId;
    this.options = { live: true, notice: () => undefined, ...options };
    this.after = 0; // the last line read (?after=)
    this.rooms = null; // the rooms the service says the reader reads
    this.muted = false;
    this.lines = new Map(); // n -> line shown
    this.unread = 0;
    this.players = [];
    this.generation = 0; // a new reading from the first line: answers of an older one are dropped
    this.caughtUp = false; // the first page of this reading is in: later lines are new
    this.stopper = new AbortController();
    this.media = matchMedia(NARROW);
    this.folded = this.media.matches;
    this.foldChosen = false; // the reader folded or opened it: the screen's width no longer decides
    this.onWidth = () => {
      if (!this.foldChosen) this.setFolded(this.media.matches);
    };
    this.media.addEventListener("change", this.onWidth);
    this.build();
    this.run(this.stopper.signal);
  }

  stop() {
    this.stopper.abort();
    this.media.removeEventListener("change", this.onWidth);
  }

  /** Put the panel into `container` (first, or last with `last`), after the page was drawn anew; `players`:
   * the game's players by seat ({seat, name, player, type}), for the mute's name and who may be reported;
   * `over`: the match is over (a seat reads the spectators' room from now on: the poll asks at once). */
  mount(container, players, { last = false, over = false } = {}) {
    if (!container) return;
    this.players = players || [];
    if (over && this.rooms && !this.rooms.includes("spectator")) this.request?.abort();
    const lost = this.focused && !this.element.contains(document.activeElement) && [null, document.body].includes(document.activeElement);
    if (last) container.append(this.element);
    else container.prepend(this.element);
    this.list.scrollTop = this.pinned ? this.list.scrollHeight : this.scrolled;
    this.paintHead();
    if (lost && this.element.contains(this.focused)) this.focused.focus({ preventScroll: true });
  }

  // --- drawing ------------------------------------------------------------------------------------------------
  build() {
    const { room, freeText, why } = this.options;
    this.toggle = h("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "data-focus": "chat-toggle", "aria-controls": "chat-body", onclick: () => this.fold() });
    this.muteButton = this.options.mute
      ? h("button", { type: "button", class: "btn chat-mute", "data-action": "chat-mute", "data-focus": "chat-mute", onclick: () => this.toggleMute() }, "Mute")
      : null;
    this.list = h("ol", { class: "chat-lines", id: "chat-lines", role: "log", "aria-label": "Chat lines", "data-last": "0" });
    this.pinned = true; // the list follows the newest line, unless the reader scrolled up
    this.scrolled = 0;
    this.list.addEventListener("scroll", () => {
      if (!this.list.isConnected) return;
      this.scrolled = this.list.scrollTop;
      this.pinned = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    });
    this.empty = h("p", { class: "note chat-empty" }, this.options.live ? "No line yet." : "Nobody chatted in this game.");
    this.mutedNote = h("p", { class: "note chat-muted-note", hidden: true });
    this.error = h("p", { class: "field-error chat-error", role: "alert", hidden: true });
    this.presets = room ? h("div", { class: "chat-presets", role: "group", "aria-label": "Say a phrase" }) : null;
    this.input = room && freeText
      ? h("input", { id: "chat-input", "data-focus": "chat-input", type: "text", maxlength: String(MAX_LENGTH), autocomplete: "off", enterkeyhint: "send", placeholder: "Say something…", "aria-label": "Your line" })
      : null;
    this.form = this.input
      ? h("form", { class: "chat-form", onsubmit: (event) => {
        event.preventDefault();
        const text = this.input.value.trim();
        if (text) this.say({ text }, () => (this.input.value = ""));
      } }, this.input, h("button", { type: "submit", class: "btn", "data-action": "chat-send", "data-focus": "chat-send" }, "Send"))
      : null;
    this.reportSlot = h("div", { class: "chat-report" });
    const composer = room
      ? [this.presets, this.form, freeText ? null : h("p", { class: "note" }, "Players without an account say the phrases only: ", h("a", { href: pageHref("account") }, "create an account"), " to type.")]
      : why ? h("p", { class: "note chat-why" }, why) : null;
    this.body = h("div", { class: "chat-body", id: "chat-body" }, this.mutedNote, this.list, this.empty, composer, this.error, this.reportSlot);
    this.element = h("section", { class: "chat", id: "chat", "aria-label": "Chat" },
      h("div", { class: "chat-head" }, h("h3", {}, this.toggle), this.muteButton),
      this.body);
    // Where the focus is in the panel, to give it back once the page is drawn anew (which takes the panel out);
    // forgotten when the reader goes elsewhere (not when the drawing took it away: the panel is back by then).
    this.element.addEventListener("focusin", (event) => (this.focused = event.target));
    this.element.addEventListener("focusout", () => setTimeout(() => {
      if (this.element.isConnected && !this.element.contains(document.activeElement)) this.focused = null;
    }));
    this.setFolded(this.folded);
    if (this.presets) {
      presetsOf(this.api).then((presets) => {
        this.presets.append(...presets.map((preset) => h("button", {
          type: "button",
          class: `chat-preset${/\p{Letter}/u.test(preset.text) ? "" : " emoji"}`,
          "data-preset": preset.id,
          "data-focus": `chat-${preset.id}`,
          "aria-label": `Say: ${presetWords(preset)}`,
          onclick: () => this.say({ preset: preset.id }),
        }, preset.text)));
      }, () => this.presets.append(h("span", { class: "note" }, "The phrases cannot be read just now.")));
    }
  }

  fold() {
    this.foldChosen = true;
    this.setFolded(!this.folded);
  }

  setFolded(folded) {
    this.folded = folded;
    if (!folded) this.unread = 0;
    this.element.dataset.folded = folded ? "yes" : "no";
    this.body.hidden = folded;
    this.toggle.setAttribute("aria-expanded", String(!folded));
    this.paintHead();
    if (!folded && this.list.isConnected && this.pinned) this.list.scrollTop = this.list.scrollHeight;
  }

  paintHead() {
    const count = this.unread ? h("span", { class: "chat-unread", "aria-hidden": "true" }, String(this.unread)) : null;
    add(clear(this.toggle), h("span", { class: "chat-arrow", "aria-hidden": "true" }, this.folded ? "▸" : "▾"), " Chat", count);
    this.toggle.setAttribute("aria-label", `Chat${this.unread ? `: ${this.unread} new line${this.unread === 1 ? "" : "s"}` : ""}`);
    const other = this.players.find((p) => p && p.seat === 1 - this.options.seat);
    const name = other ? playerLabel(other.player || other.name || "your opponent") : "your opponent";
    if (this.muteButton) {
      this.muteButton.setAttribute("aria-pressed", String(this.muted));
      this.muteButton.setAttribute("aria-label", `Mute ${name} in the chat`);
      this.muteButton.textContent = this.muted ? "Muted" : "Mute";
    }
    this.mutedNote.textContent = `You muted ${name}: their lines are hidden at this table.`;
    this.mutedNote.hidden = !this.muted;
  }

  /** One line as text: its author (a BOT badge), its room when the reader reads both, what was said. */
  lineItem(line) {
    const mine = this.mine(line);
    const reported = !mine && this.options.reporter ? this.reportedPlayer(line) : null;
    return h("li", { class: `chat-line${mine ? " mine" : ""}`, "data-n": line.n, "data-room": line.room, title: new Date(line.at).toLocaleTimeString() },
      (this.rooms || []).length > 1 && line.room === "spectator" ? h("span", { class: "chat-room" }, "spectator") : null,
      h("span", { class: "chat-author" }, playerName(line.author, line.bot)),
      " ",
      h("span", { class: "chat-text" }, line.text),
      reported ? h("button", { type: "button", class: "chat-flag", "data-action": "report-line", title: "Report this line", "aria-label": `Report ${playerLabel(reported)}'s line`, onclick: () => this.openReport(reported, line) }, "⚑") : null);
  }

  mine(line) {
    if (line.room === "player") return typeof this.options.seat === "number" && line.seat === this.options.seat;
    return Boolean(this.options.name) && line.author.toLowerCase() === this.options.name.toLowerCase();
  }

  /** Whom a report of the line names: the spectators' room is written by players; the players' room by a
   * seat, which is a player's only when tied to one (an anonymous seat's name is no player's). */
  reportedPlayer(line) {
    if (line.room === "spectator") return line.author;
    return this.players.find((p) => p && p.seat === line.seat)?.player || null;
  }

  openReport(player, line) {
    const close = () => clear(this.reportSlot);
    clear(this.reportSlot).append(reportForm({
      api: this.api, token: this.options.reporter, player, gameId: this.gameId, line: line.n, quote: line.text, explain: problemText, done: close,
    }));
    this.reportSlot.querySelector("select")?.focus();
  }

  /** Lines read or said, each once, in the order of their numbers. `fresh`: just read (not said here). */
  show(lines, fresh) {
    for (const line of lines) {
      if (this.lines.has(line.n)) continue;
      this.lines.set(line.n, line);
      const later = [...this.list.children].find((li) => Number(li.dataset.n) > line.n);
      this.list.insertBefore(this.lineItem(line), later || null);
      if (fresh && !this.mine(line) && this.folded) {
        this.unread++;
        this.options.notice(`${line.author}: ${line.text}`);
      }
    }
    this.empty.hidden = this.lines.size > 0;
    this.paintHead();
    if (this.pinned && this.list.isConnected) this.list.scrollTop = this.list.scrollHeight;
  }

  // --- saying -----------------------------------------------------------------------------------------------
  async say(what, then) {
    if (this.saying) return;
    this.saying = true;
    this.error.hidden = true;
    const room = this.rooms?.includes("player") ? "player" : this.options.room;
    try {
      const line = await this.api.say(this.gameId, this.options.token, { room, ...what });
      then?.();
      this.pinned = true;
      this.show([line], false);
    } catch (err) {
      this.error.textContent = problemText(err);
      this.error.hidden = false;
    } finally {
      this.saying = false;
    }
  }

  async toggleMute() {
    this.error.hidden = true;
    try {
      const reply = await this.api.muteChat(this.gameId, this.options.token, !this.muted);
      this.muted = reply.muted;
    } catch (err) {
      this.error.textContent = problemText(err);
      this.error.hidden = false;
      return;
    }
    this.paintHead();
    this.readAgain(); // the other's lines, past ones too, go (or come back)
  }

  // --- reading ----------------------------------------------------------------------------------------------
  /** Read the chat again from its first line (the rooms read changed, or the mute). */
  readAgain() {
    this.generation++;
    this.caughtUp = false;
    this.after = 0;
    this.lines.clear();
    clear(this.list);
    this.list.dataset.last = "0";
    this.request?.abort();
  }

  async run(signal) {
    let failures = 0;
    while (!signal.aborted) {
      const generation = this.generation;
      this.request = new AbortController();
      const stopRequest = () => this.request.abort();
      signal.addEventListener("abort", stopRequest);
      let page;
      try {
        page = await this.api.chat(this.gameId, this.options.token, this.after, this.options.live ? WAIT : 0, this.request.signal);
        failures = 0;
      } catch (err) {
        if (signal.aborted) return;
        if (err.name === "AbortError") continue; // asked again: from the first line, or for new rooms
        if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
          this.empty.textContent = err.status === 404 ? "This game's chat cannot be read any more." : problemText(err);
          this.empty.hidden = false;
          return;
        }
        await sleep(err.retryAfter ? err.retryAfter * 1000 : Math.min(1000 * 2 ** ++failures, 30000), signal);
        continue;
      } finally {
        signal.removeEventListener("abort", stopRequest);
      }
      if (generation !== this.generation) continue;
      this.muted = page.muted;
      const rooms = (page.rooms || []).join(" ");
      if (this.rooms && rooms !== this.rooms.join(" ")) {
        this.rooms = page.rooms;
        this.readAgain(); // e.g. the match is over: the spectators' room, from its first line
        continue;
      }
      this.rooms = page.rooms || [];
      this.show(page.lines || [], this.caughtUp || !this.options.live); // a replay's lines are all unread
      this.caughtUp = true;
      this.after = Math.max(this.after, page.last || 0);
      this.list.dataset.last = String(this.after);
      if (!this.options.live && !(page.lines || []).length) return; // the replay: all read
    }
  }
}

/** The chat of a seat at its table, or null against a house bot (which says nothing). `entry`: the seat
 * kept (gameId, seat, token, server); `view`: the seat's view; `notice(text)`: the page's notices. */
export function tableChat(api, entry, view, notice) {
  if (!view || (view.players || []).some((p) => p && p.type === "bot")) return null;
  const player = storage.loadPlayer(entry.server);
  const account = player?.account ? player : null;
  const mine = (view.players || []).find((p) => p && p.seat === entry.seat)?.player;
  return new ChatPanel(api, entry.gameId, {
    token: entry.token,
    room: "player",
    freeText: Boolean(account && mine && mine.toLowerCase() === account.name.toLowerCase()),
    seat: entry.seat,
    name: mine || null,
    reporter: account?.token || null,
    mute: true,
    notice,
  });
}

/** The chat of the watch page: the spectators' room, written by the page's player (signed in or named). */
export function watchChat(ctx, gameId) {
  const player = ctx.player();
  return new ChatPanel(ctx.api, gameId, {
    token: player?.token || null,
    room: player ? "spectator" : null,
    freeText: Boolean(player?.account),
    name: player?.name || null,
    reporter: player?.account ? player.token : null,
    why: "Sign in, or play under a name, to chat with the other spectators.",
    notice: ctx.notice,
  });
}

/** The chat of a finished match beside its replay, read once: the players' room too for one who sat there. */
export function replayChat(ctx, gameId) {
  const player = ctx.player();
  return new ChatPanel(ctx.api, gameId, {
    token: player?.token || null,
    room: null,
    name: player?.name || null,
    reporter: player?.account ? player.token : null,
    live: false,
  });
}
