import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { QueryLog } from "./query-log.js";

const COOKIE = "playground_log";
// Logs of redirects whose page was never asked for (a closed tab) go, oldest first, beyond this many.
const MAX_KEPT = 100;

/**
 * The logs of requests that answered with a redirect, each kept for the page its own visitor is sent to: the
 * redirect sets a cookie naming its log (a random id), and that visitor's next page takes it. Concurrent visitors
 * each see their own redirect's queries, never another's.
 */
export class RedirectLogs {
  readonly #logs = new Map<string, QueryLog>();

  /** Keeps the log of a request answering with a redirect, for the page its visitor goes to next. */
  keep(c: Context, log: QueryLog): void {
    const id = crypto.randomUUID();
    this.#logs.set(id, log);
    for (const oldest of this.#logs.keys()) {
      if (this.#logs.size <= MAX_KEPT) break;
      this.#logs.delete(oldest);
    }
    setCookie(c, COOKIE, id, { path: "/", httpOnly: true, sameSite: "Lax" });
  }

  /** The log of the redirect that led this visitor here, if any; taken, so that it shows once. */
  take(c: Context): QueryLog | undefined {
    const id = getCookie(c, COOKIE);
    if (id === undefined) return undefined;
    deleteCookie(c, COOKIE, { path: "/" });
    const log = this.#logs.get(id);
    this.#logs.delete(id);
    return log;
  }
}
