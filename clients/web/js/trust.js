// Which service the page talks to, and whether a password may go there.
//
// The page talks to the service it was loaded from (its own origin), unless its address says otherwise
// with ?server=. A service of another origin — a "foreign" one — is taken from the address of this visit
// only: it is never remembered for later visits (a link opened once must not capture every later sign-in).
// While one is in use, a banner at the top of every page names it (server-banner in index.html). No
// password goes to it until the person has confirmed that service by its name, in this tab
// (sessionStorage: a new tab, or the same link opened tomorrow, asks again); Api refuses to send one
// otherwise (passwordAllowed), whatever form asks. Tokens are kept per service (storage.js), so what this
// browser holds for its own service never goes to another.

import { h } from "./dom.js";

const TRUSTED = "gin.trusted."; // sessionStorage: gin.trusted.<service> = "yes", for this tab only

/** The service this page was loaded from (the usual case: /play served by the service itself). */
export function ownService() {
  return location.protocol.startsWith("http") ? location.origin : "http://127.0.0.1:8000";
}

/** A service URL as the page uses it ("http://host:port[/path]", no trailing slash), or null. */
export function normalizeServer(text) {
  try {
    const url = new URL(String(text).trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin + url.pathname.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

/** Whether `server` is another service than the page's own. */
export function isForeign(server) {
  return normalizeServer(server) !== ownService();
}

/** "evil.example:8443": how a service is named to the person (its host, port included). */
export function hostOf(server) {
  try {
    const url = new URL(server);
    return url.pathname && url.pathname !== "/" ? `${url.host}${url.pathname}` : url.host;
  } catch {
    return String(server);
  }
}

/** Whether a password may be sent to `server`: the page's own service, or one confirmed in this tab. */
export function passwordAllowed(server) {
  if (!isForeign(server)) return true;
  try {
    return sessionStorage.getItem(TRUSTED + normalizeServer(server)) === "yes";
  } catch {
    return false;
  }
}

/** The person confirmed `server` by name: passwords may go there from this tab (until it is closed). */
export function trustServer(server) {
  try {
    sessionStorage.setItem(TRUSTED + normalizeServer(server), "yes");
  } catch {
    // no session storage: the box has to be ticked at each sending
  }
}

/** Api's refusal to send a password to a service nobody confirmed (code server_not_confirmed). */
export class ServerNotConfirmed extends Error {
  constructor(server) {
    super(`Your password was not sent: ${hostOf(server)} is not this page's own service, and you have not confirmed it.`);
    this.code = "server_not_confirmed";
    this.server = server;
  }
}

/** The words of the banner at the top of every page while a foreign service is in use. */
export function serverBanner(server, { onOwn } = {}) {
  const own = ownService();
  return [
    h("p", { class: "text" },
      h("b", {}, "Another service: "), h("code", { id: "server-banner-host" }, hostOf(server)), ". ",
      `This page comes from ${hostOf(own)}, but its games, names and passwords go to ${hostOf(server)}. `,
      "Sign in there only if you know that service; it is not kept for your next visit."),
    h("button", { type: "button", class: "btn", "data-action": "leave-server", onclick: onOwn }, `Use ${hostOf(own)}`),
  ];
}

/**
 * The confirmation a form that sends a password asks before sending it to a foreign service: a box
 * naming the service ("I trust evil.example:8443 with my password"), ticked by the person. Returns
 * {field (null for the page's own service: nothing to ask), confirmed() (true when the password may go:
 * remembers the trust for this tab), input}. `id` names the checkbox.
 */
export function trustField(server, id) {
  if (!isForeign(server)) return { field: null, input: null, confirmed: () => true };
  const host = hostOf(server);
  const input = h("input", { id, type: "checkbox", name: "trust-server", "aria-describedby": `${id}-why` });
  if (passwordAllowed(server)) input.checked = true;
  const field = h("div", { class: "trust-server" },
    h("p", { class: "note", id: `${id}-why` },
      `Your password goes to ${host}, not to ${hostOf(ownService())} where this page comes from. `,
      "Whoever runs that service reads it. Confirm it only if you know it."),
    h("label", { class: "check" }, input, h("span", {}, "I trust ", h("b", {}, host), " with my password (this tab only)")));
  return {
    field,
    input,
    confirmed() {
      if (input.checked) trustServer(server);
      return passwordAllowed(server);
    },
  };
}

/** What a form says when its password was held back (the box not ticked). */
export function unconfirmedWords(server) {
  return `Not sent: ${hostOf(server)} is not this page's own service. Tick "I trust ${hostOf(server)}" if you mean to give it your password.`;
}
