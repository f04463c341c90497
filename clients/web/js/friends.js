// Friends (#/friends, an account's): the players it follows (GET /v1/account/following, looked at again every
// few seconds while the page is shown) — online or not (their account stream is open: they have the site
// open), the games each is playing, each with Watch —, a Challenge in one click (standard rules, a rapid
// clock, casual: the challenge flow of challenge.js; "Other terms" opens its form), Unfollow; a player to
// follow by name; and the players blocked, with Unblock. On a profile (relationBar): Follow / Unfollow,
// Block / Unblock and Report… for an account looking at another player.

import { ApiError } from "./api.js";
import { challengeProblem, offerChallenge } from "./challenge.js";
import { clear, h } from "./dom.js";
import { clockWords } from "./lobby.js";
import { reportForm } from "./report.js";
import { focusHeading, lookEvery, pageFrame, pageHref, playerLabel } from "./site.js";
import { playerName } from "./tournament.js";

const LOOK_EVERY = 8000; // ms between two looks at who is online and playing
/** The terms of the one-click challenge: the standard rules, a rapid clock, casual. */
const QUICK_TERMS = { rules: { preset: "standard", options: {} }, clock: { preset: "rapid" } };

export function friendsPage(ctx) {
  const stopper = new AbortController();
  const signal = stopper.signal;
  const player = ctx.player();
  const { page, body } = pageFrame({ title: "Friends", current: "friends", player, lead: "The players you follow: who is online, who is playing (watch them), and a challenge in one click." });
  clear(ctx.root).append(page);
  focusHeading(ctx.root);
  if (!player?.account) {
    body.append(h("section", { class: "panel", id: "friends-sign-in" },
      h("p", {}, "Following players is for accounts: ", h("a", { href: pageHref("account") }, "sign in or create an account"), ".")));
    return { stop() {} };
  }

  const note = h("p", { class: "note", id: "friends-note", "aria-live": "polite" }, "Looking at the players you follow…");
  const list = h("ul", { class: "friend-list", id: "friend-list", "aria-label": "Players you follow" });
  const blockedList = h("ul", { class: "friend-list", id: "blocked-list", "aria-label": "Players you block" });
  const blockedNote = h("p", { class: "note" });
  const said = h("p", { class: "field-error", id: "friends-error", role: "alert", hidden: true });
  const name = h("input", { id: "follow-name", name: "name", maxlength: "64", autocomplete: "off", autocapitalize: "none", spellcheck: "false", placeholder: "A player's name", "aria-label": "A player's name" });

  function say(text) {
    said.textContent = text;
    said.hidden = !text;
  }

  /** follow, unfollow, unblock: then the lists again. */
  async function relate(who, action) {
    say("");
    try {
      await ctx.api.relate(who, action, player.token);
    } catch (err) {
      say(err instanceof ApiError && err.code === "player_not_found" ? `There is no player called "${who}" on this service.` : ctx.explain(err));
      return false;
    }
    await refresh();
    return true;
  }

  async function challenge(who, button) {
    say("");
    button.disabled = true;
    try {
      await offerChallenge(ctx, player, { opponent: who, ...QUICK_TERMS });
      ctx.announce?.(`Challenge sent to ${playerLabel(who)}.`);
    } catch (err) {
      say(challengeProblem(err, ctx.explain, who));
    } finally {
      button.disabled = false;
    }
  }

  function friendRow(friend) {
    const games = friend.playing || [];
    const state = [friend.online ? "online" : "offline", games.length ? `playing ${games.length === 1 ? "a game" : `${games.length} games`}` : null].filter(Boolean).join(" · ");
    return h("li", { class: "friend-row", "data-player": friend.name, "data-online": String(friend.online), "data-playing": String(games.length) },
      h("span", { class: "presence", "aria-hidden": "true" }),
      h("span", { class: "friend-what" },
        h("a", { href: pageHref("players", friend.name), class: "friend-name" }, playerName(friend.name, friend.bot)),
        h("small", { class: "friend-state" }, state)),
      h("span", { class: "friend-actions" },
        games.map((gameId, i) => h("a", { class: "btn", href: pageHref("watch", gameId), "data-action": "watch-friend", "aria-label": `Watch ${playerLabel(friend.name)}'s game${games.length > 1 ? ` ${i + 1}` : ""}` }, games.length > 1 ? `Watch ${i + 1}` : "Watch")),
        h("button", { type: "button", class: "btn primary", "data-action": "challenge-friend", "aria-label": `Challenge ${playerLabel(friend.name)}: ${termsWords()}`, title: termsWords(), onclick: (event) => challenge(friend.name, event.currentTarget) }, "Challenge"),
        h("button", { type: "button", class: "btn", "data-action": "unfollow", "aria-label": `Unfollow ${playerLabel(friend.name)}`, onclick: () => relate(friend.name, "unfollow") }, "Unfollow")));
  }

  async function refresh() {
    let following;
    let blocking;
    try {
      [following, blocking] = await Promise.all([ctx.api.following(player.token, signal), ctx.api.blocking(player.token, signal)]);
    } catch (err) {
      if (!signal.aborted) note.textContent = `The players you follow cannot be read just now: ${ctx.explain(err)}`;
      return;
    }
    if (signal.aborted) return;
    const friends = following.players || [];
    const online = friends.filter((f) => f.online).length;
    const words = friends.length ? `You follow ${friends.length} player${friends.length === 1 ? "" : "s"}; ${online} online.` : "You follow nobody yet: follow a player from their profile, or by name below.";
    if (note.textContent !== words) note.textContent = words; // a live region: said when it changes only
    const focused = document.activeElement?.closest?.("[data-player]");
    const again = focused && [focused.closest("ul")?.id, focused.dataset.player, document.activeElement.dataset.action];
    clear(list).append(...friends.map(friendRow));
    const blocked = blocking.players || [];
    blockedNote.textContent = blocked.length ? "Their challenges and chat lines do not reach you; they are not told." : "You block nobody.";
    clear(blockedList).append(...blocked.map((who) => h("li", { class: "friend-row", "data-player": who },
      h("a", { href: pageHref("players", who), class: "friend-name" }, playerLabel(who)),
      h("span", { class: "friend-actions" }, h("button", { type: "button", class: "btn", "data-action": "unblock", "aria-label": `Unblock ${playerLabel(who)}`, onclick: () => relate(who, "unblock") }, "Unblock")))));
    if (again) {
      const [listId, who, action] = again;
      document.getElementById(listId)?.querySelector(`[data-player="${CSS.escape(who)}"] [data-action="${CSS.escape(action || "")}"]`)?.focus();
    }
  }

  const follow = h("form", { class: "invite-row", onsubmit: async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    if (who && (await relate(who, "follow"))) name.value = "";
  } }, name, h("button", { type: "submit", class: "btn", "data-action": "follow-by-name" }, "Follow"));

  body.append(
    h("section", { class: "panel", "aria-labelledby": "following-title" },
      h("h2", { id: "following-title" }, "Following"), note, list,
      h("p", { class: "note" }, `Challenge offers a game of ${termsWords()}. `, h("a", { href: pageHref("challenge") }, "Other terms")),
      said),
    h("section", { class: "panel", "aria-labelledby": "follow-title" }, h("h2", { id: "follow-title" }, "Follow a player"), follow),
    h("section", { class: "panel", "aria-labelledby": "blocked-title" }, h("h2", { id: "blocked-title" }, "Blocked"), blockedNote, blockedList));

  lookEvery(LOOK_EVERY, signal, refresh);
  return { stop: () => stopper.abort() };
}

/** The one-click challenge's terms in words: "standard rules · Rapid: 10 min for the match + 5 s a move · casual". */
function termsWords() {
  return `${QUICK_TERMS.rules.preset} rules · ${clockWords(QUICK_TERMS.clock)} · casual`;
}

/**
 * On a profile: Follow / Unfollow (the followers count, `followers`, follows), Block / Unblock and Report…,
 * into `where` (the profile's buttons), for an account looking at another player. `signal` ends it.
 */
export async function relationBar(ctx, where, profile, followers, signal) {
  const me = ctx.player();
  if (!where || !me?.account || me.name.toLowerCase() === profile.name.toLowerCase()) return;
  let following;
  let blocking;
  try {
    const [follows, blocks] = await Promise.all([ctx.api.following(me.token, signal), ctx.api.blocking(me.token, signal)]);
    const same = (n) => n.toLowerCase() === profile.name.toLowerCase();
    following = (follows.players || []).some((f) => same(f.name));
    blocking = (blocks.players || []).some(same);
  } catch {
    return; // not known: no buttons (the rest of the profile stands)
  }
  if (signal.aborted) return;
  const who = playerLabel(profile.name);
  const status = h("p", { class: "note relation-status", id: "relation-status", "aria-live": "polite" });
  const reportSlot = h("div", { class: "profile-report" });
  const follow = h("button", { type: "button", class: "btn", "data-action": "follow" });
  const block = h("button", { type: "button", class: "btn", "data-action": "block" });
  const paint = () => {
    follow.textContent = following ? "Unfollow" : "Follow";
    block.textContent = blocking ? "Unblock" : "Block";
    status.textContent = [following ? `You follow ${who}.` : "", blocking ? `You block ${who}: their challenges and chat lines do not reach you (they are not told).` : ""].filter(Boolean).join(" ");
  };
  const act = async (action, button) => {
    button.disabled = true;
    try {
      const reply = await ctx.api.relate(profile.name, action, me.token);
      if ("following" in reply) {
        if (reply.following !== following) followers.textContent = String(Math.max(0, Number(followers.textContent) + (reply.following ? 1 : -1)));
        following = reply.following;
      } else {
        blocking = reply.blocking;
      }
      paint();
    } catch (err) {
      status.textContent = ctx.explain(err);
    } finally {
      button.disabled = false;
    }
  };
  follow.addEventListener("click", () => act(following ? "unfollow" : "follow", follow));
  block.addEventListener("click", () => act(blocking ? "unblock" : "block", block));
  const report = h("button", { type: "button", class: "btn", "data-action": "report-player", onclick: () => {
    clear(reportSlot).append(reportForm({ api: ctx.api, token: me.token, player: profile.name, explain: ctx.explain, done: () => clear(reportSlot) }));
    reportSlot.querySelector("select")?.focus();
  } }, "Report…");
  paint();
  where.append(follow, block, report);
  where.after(status, reportSlot);
}
