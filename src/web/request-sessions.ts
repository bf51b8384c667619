import { connect, type ConnectOptions, type D1DatabaseLike, type Database, withDatabase } from "../kernel/index.js";

/** Where the D1 session of a request starts: on the primary, or on any replica. */
export type SessionConstraint = "first-primary" | "first-unconstrained";

/** Options of `withRequestDatabase` and the Hono middleware. */
export interface RequestDatabaseOptions extends Omit<ConnectOptions, "session"> {
  /**
   * Where a request without a bookmark starts its D1 session. Default: `"first-unconstrained"` (the nearest
   * replica) for GET, HEAD and OPTIONS, `"first-primary"` for every other method. A function chooses per request,
   * for example per route; `false` opens no session (every query goes to the primary, no bookmark is carried).
   */
  session?: SessionConstraint | false | ((request: Request) => SessionConstraint | false);
  /**
   * Where the session's bookmark travels between requests, so that a client reads its own writes on a replica.
   * A request's bookmark is read from the header first, then the cookie; a response carries the session's newest
   * bookmark in both. Default: `{ header: "x-d1-bookmark", cookie: "d1_bookmark" }`; `false` turns one off.
   */
  bookmark?: { header?: string | false; cookie?: string | false };
}

const DEFAULT_HEADER = "x-d1-bookmark";
const DEFAULT_COOKIE = "d1_bookmark";
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// A D1 bookmark is hex digits in dash-separated groups. Anything else a client sends is ignored rather than
// handed to D1, so a forged or garbled value starts a fresh session instead of failing the request.
const BOOKMARK = /^[0-9a-f]+(?:-[0-9a-f]+){1,7}$/i;

function headerName(options: RequestDatabaseOptions): string | false {
  return options.bookmark?.header ?? DEFAULT_HEADER;
}

function cookieName(options: RequestDatabaseOptions): string | false {
  return options.bookmark?.cookie ?? DEFAULT_COOKIE;
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** The bookmark a request carries, if it is well formed. */
export function requestBookmark(request: Request, options: RequestDatabaseOptions = {}): string | undefined {
  const header = headerName(options);
  const cookie = cookieName(options);
  const candidates = [header && request.headers.get(header), cookie && cookieValue(request, cookie)];
  const bookmark = candidates.find((value) => typeof value === "string" && value.length <= 128 && BOOKMARK.test(value));
  return bookmark || undefined;
}

function constraintFor(request: Request, options: RequestDatabaseOptions): SessionConstraint | false {
  const session = options.session;
  if (typeof session === "function") return session(request);
  if (session !== undefined) return session;
  return READ_METHODS.has(request.method) ? "first-unconstrained" : "first-primary";
}

/**
 * The D1 session a request opens: its bookmark when it carries one (so it reads at least what it last wrote),
 * else the constraint for its method or route; `undefined` for no session.
 */
export function sessionFor(request: Request, options: RequestDatabaseOptions = {}): string | undefined {
  const constraint = constraintFor(request, options);
  if (constraint === false) return undefined;
  return requestBookmark(request, options) ?? constraint;
}

/** Opens the request's database: connected to `binding`, in the D1 session `sessionFor` chooses. */
export function connectForRequest(request: Request, binding: D1DatabaseLike, options: RequestDatabaseOptions = {}): Database {
  if (!(request instanceof Request)) throw new TypeError("withRequestDatabase: the request must be a Request");
  const { session: _session, bookmark: _bookmark, ...connectOptions } = options;
  return connect(binding, { ...connectOptions, session: sessionFor(request, options) });
}

function cookieHeader(name: string, bookmark: string, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${name}=${bookmark}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** Adds the session's newest bookmark to the headers of a response. */
export function writeBookmark(headers: Headers, database: Database, request: Request, options: RequestDatabaseOptions = {}): void {
  const bookmark = database.bookmark();
  if (bookmark === null) return;
  const header = headerName(options);
  const cookie = cookieName(options);
  if (header) headers.set(header, bookmark);
  if (cookie) headers.append("set-cookie", cookieHeader(cookie, bookmark, request));
}

/**
 * Serves a request of a plain Worker on its own database: connects `binding` in a D1 session chosen for the
 * request (see `RequestDatabaseOptions`), runs `handler` inside `withDatabase`, and carries the session's bookmark
 * on the response. A response whose headers cannot be changed (one returned by `fetch`) is copied.
 *
 * ```ts
 * export default {
 *   fetch: (request, env) => withRequestDatabase(request, env.DB, () => app(request)),
 * };
 * ```
 */
export async function withRequestDatabase(
  request: Request,
  binding: D1DatabaseLike,
  handler: (database: Database) => Response | Promise<Response>,
  options: RequestDatabaseOptions = {},
): Promise<Response> {
  if (typeof handler !== "function") throw new TypeError("withRequestDatabase: the handler must be a function");
  const database = connectForRequest(request, binding, options);
  const response = await withDatabase(database, () => handler(database));
  if (!(response instanceof Response)) throw new TypeError("withRequestDatabase: the handler must return a Response");
  try {
    writeBookmark(response.headers, database, request, options);
    return response;
  } catch {
    // The headers of a response from fetch() are immutable: carry the bookmark on a copy.
    const copy = new Response(response.body, response);
    writeBookmark(copy.headers, database, request, options);
    return copy;
  }
}
