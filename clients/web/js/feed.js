// The live feed of one game's events, for a seat (its token) or a spectator (no token): GET
// /v1/games/{id}/events read as an NDJSON stream with fetch (an EventSource cannot send an Authorization
// header), from the cursor of the view on screen. When the stream cannot be used (it breaks repeatedly while
// plain requests work, or ends at once without a word), the long poll (?after=<cursor>&wait=25) takes over.
// After a lost connection it tries again with a growing pause (at once when reconnect() is called, e.g. the
// browser says it is back online), fetching the view first to catch up.

import { ApiError, sleep } from "./api.js";

const STREAM_WAIT = 120; // seconds one NDJSON stream stays open before the page reconnects
const POLL_WAIT = 25; // seconds of one long poll

export class EventFeed {
  /**
   * host: {cursor() → the cursor to read after, refresh() → fetch the view again (a promise),
   * onEvent(event), setConnection("live" | "reconnecting" | "closed"), answered() (the service answers
   * again), fail(err) (a refusal that ends the feed: 401, 403, 404)}.
   */
  constructor(api, gameId, token, host) {
    this.api = api;
    this.gameId = gameId;
    this.token = token;
    this.host = host;
    this.streaming = true; // false once the stream failed: long poll from then on
    this.streamAbort = null;
    this.wake = null;
  }

  /** The network came back or went away: drop the current request and start again (at once). */
  reconnect() {
    this.streamAbort?.abort();
    this.wake?.abort();
  }

  /** Follow the events until `signal` aborts (or the service refuses the feed). */
  async run(signal) {
    const host = this.host;
    let failures = 0; // consecutive failed attempts (the service unreachable, the stream broken)
    let streamBreaks = 0; // streams that failed while plain requests worked
    let streamBroke = false;
    while (!signal.aborted) {
      this.streamAbort = new AbortController();
      const onAbort = () => this.streamAbort.abort();
      signal.addEventListener("abort", onAbort);
      try {
        if (failures > 0) {
          await host.refresh(); // back after a lost connection: catch up first
          host.setConnection("live");
          if (streamBroke && ++streamBreaks >= 2) this.streaming = false; // e.g. a proxy that buffers
        }
        failures = 0;
        streamBroke = false;
        const started = Date.now();
        if (this.streaming) {
          let got = 0;
          await this.api.stream(this.gameId, this.token, host.cursor(), STREAM_WAIT, this.streamAbort.signal, {
            onOpen: () => {
              host.setConnection("live");
              host.answered();
            },
            onEvent: (e) => {
              got++;
              host.onEvent(e);
            },
          });
          // A stream that ends at once without a word would spin: use the long poll instead.
          if (got === 0 && Date.now() - started < 1000) this.streaming = false;
          if (got > 0) streamBreaks = 0;
        } else {
          const page = await this.api.poll(this.gameId, this.token, host.cursor(), POLL_WAIT, this.streamAbort.signal);
          host.setConnection("live");
          host.answered();
          for (const e of page.events || []) host.onEvent(e);
          if (page.truncated) await host.refresh(); // older events were trimmed: the view has them all
        }
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
          host.fail(err);
          host.setConnection("closed");
          return;
        }
        failures++;
        streamBroke = streamBroke || this.streaming;
        host.setConnection("reconnecting");
        if (err.name !== "AbortError") {
          // Back off, unless the browser says it is online again (the wait is cut short then).
          this.wake = new AbortController();
          await sleep(Math.min(400 * 2 ** failures, 10000), this.wake.signal);
        }
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    }
  }
}
