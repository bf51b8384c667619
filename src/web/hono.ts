/**
 * recordflare for Hono: a middleware that gives each request its own database, in a D1 session for read
 * replication whose bookmark travels with the client.
 * @packageDocumentation
 */
import type { MiddlewareHandler } from "hono";
import { type Database, withDatabase } from "../kernel/index.js";
import { MIN_SECRET_LENGTH } from "./bookmark-signature.js";
import { carriedBookmark, checkRequestOptions, connectForRequest, type RequestDatabaseOptions, writeBookmark } from "./request-sessions.js";
import { meterQueries } from "./server-timing.js";

export type { RequestDatabaseOptions, SessionConstraint } from "./request-sessions.js";

/** Options of the `d1` middleware. */
export interface D1MiddlewareOptions extends RequestDatabaseOptions {
  /** The name of the D1 binding in the Worker's env. Default: `"DB"`. */
  binding?: string;
  /**
   * Adds a `Server-Timing` header to each response with what the request's queries cost: round trips, rows read,
   * rows written and D1's duration, shown by the browser's developer tools. For development: it tells anyone who
   * sees the response. Default: false.
   */
  serverTiming?: boolean;
}

/** The env variable (a secret) that signs bookmarks when `bookmark.secret` is not given. */
const SECRET_VARIABLE = "D1_BOOKMARK_SECRET";

/** The request options with the bookmark secret: the one given, else the Worker's `D1_BOOKMARK_SECRET`, if any. */
function withEnvSecret(options: RequestDatabaseOptions, env: Record<string, unknown> | undefined): RequestDatabaseOptions {
  const secret = env?.[SECRET_VARIABLE];
  if (options.bookmark?.secret !== undefined || secret === undefined) return options;
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(`d1: the Worker's env ${SECRET_VARIABLE} must be a secret of at least ${MIN_SECRET_LENGTH} characters`);
  }
  return { ...options, bookmark: { ...options.bookmark, secret } };
}

/** What the middleware adds to a Hono context: `c.var.db`, the request's database. */
export interface D1Variables {
  db: Database;
}

/**
 * Connects the request's database and runs the rest of the request inside `withDatabase`, so Models query it
 * without being told; `c.var.db` is the same database. Reads (GET, HEAD, OPTIONS) start their D1 session on the
 * nearest replica, other methods on the primary, and a request that carries a bookmark this app signed (header or
 * cookie) starts where that bookmark left off; the response carries the session's newest bookmark, signed with
 * `bookmark.secret` or else the Worker's `D1_BOOKMARK_SECRET` (without either, no bookmark travels). Mount it on a
 * route or a group with other options to choose per route.
 *
 * ```ts
 * const app = new Hono<{ Bindings: Env; Variables: D1Variables }>();
 * app.use(d1());
 * app.get("/notes", async (c) => c.json(await Note.all().toArray()));
 * ```
 */
export function d1(options: D1MiddlewareOptions = {}): MiddlewareHandler<{ Variables: D1Variables }> {
  const { binding = "DB", serverTiming = false, ...givenOptions } = options;
  if (typeof binding !== "string") throw new TypeError("d1: options.binding must be the name of a D1 binding");
  if (typeof serverTiming !== "boolean") throw new TypeError("d1: options.serverTiming must be a boolean");
  checkRequestOptions(givenOptions, "d1");
  return async (c, next) => {
    const env = c.env as Record<string, unknown> | undefined;
    const d1Binding = env?.[binding];
    if (!d1Binding) throw new TypeError(`d1: the Worker's env has no binding ${JSON.stringify(binding)}; check its name`);
    const requestOptions = withEnvSecret(givenOptions, env);
    const database = await connectForRequest(c.req.raw, d1Binding as never, requestOptions, "d1");
    c.set("db", database);
    const timing = serverTiming ? meterQueries(database) : undefined;
    await withDatabase(database, next);
    const carried = await carriedBookmark(database, requestOptions);
    const writeHeaders = (headers: Headers) => {
      writeBookmark(headers, carried, c.req.raw, requestOptions);
      if (timing) headers.append("Server-Timing", timing());
    };
    try {
      writeHeaders(c.res.headers);
    } catch {
      // The headers of a response from fetch() are immutable: write them on a copy.
      c.res = new Response(c.res.body, c.res);
      writeHeaders(c.res.headers);
    }
  };
}
