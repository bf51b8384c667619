import { argumentError, connect, type ConnectOptions, type D1DatabaseLike, type Database, optionsArgument, withDatabase } from "../kernel/index.js";
import { isBookmarkShaped, MIN_SECRET_LENGTH, signBookmark, verifiedBookmark } from "./bookmark-signature.js";

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
   * Where the session's bookmark travels between requests, so that a client reads its own writes on a replica, and
   * the secret that signs it. A request's bookmark is read from the header first, then the cookie; a response
   * carries the session's newest bookmark in both, signed (`<bookmark>.<HMAC-SHA256>`). Default:
   * `{ header: "x-d1-bookmark", cookie: "d1_bookmark" }`; `false` turns one off. Without `secret` (at least 32
   * characters, from the Worker's env) no bookmark travels: a value a client sends is never handed to D1 unless this
   * app signed it.
   */
  bookmark?: { header?: string | false; cookie?: string | false; secret?: string };
}

const DEFAULT_HEADER = "x-d1-bookmark";
const DEFAULT_COOKIE = "d1_bookmark";
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function headerName(options: RequestDatabaseOptions): string | false {
  return options.bookmark?.header ?? DEFAULT_HEADER;
}

function cookieName(options: RequestDatabaseOptions): string | false {
  return options.bookmark?.cookie ?? DEFAULT_COOKIE;
}

/** The secret that signs bookmarks, if one is given; `TypeError` naming `method` for one that cannot be a secret. */
export function bookmarkSecret(options: RequestDatabaseOptions, method: string): string | undefined {
  const secret = optionsArgument(`${method}: bookmark`, options.bookmark, ["header", "cookie", "secret"]).secret;
  if (secret === undefined) return undefined;
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(`${method}: bookmark.secret must be a string of at least ${MIN_SECRET_LENGTH} characters (a secret from the Worker's env)`);
  }
  return secret;
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The D1 bookmark a request carries, when this app signed it (`bookmark.secret`): from the header first, then the
 * cookie. A value that is unsigned, badly signed or malformed is ignored; without a secret, every one is.
 */
export async function requestBookmark(request: Request, options: RequestDatabaseOptions = {}): Promise<string | undefined> {
  const secret = bookmarkSecret(options, "requestBookmark");
  if (secret === undefined) return undefined;
  const header = headerName(options);
  const cookie = cookieName(options);
  for (const carried of [header && request.headers.get(header), cookie && cookieValue(request, cookie)]) {
    if (typeof carried !== "string") continue;
    const bookmark = await verifiedBookmark(carried, secret);
    if (bookmark !== undefined) return bookmark;
  }
  return undefined;
}

// D1 reads any other text as a bookmark: a misspelt constraint would open a session nowhere the app meant.
function checkedConstraint(method: string, session: unknown): SessionConstraint | false {
  if (session === false || session === "first-primary" || session === "first-unconstrained") return session;
  throw argumentError(`${method}: session`, `"first-primary", "first-unconstrained" or false (or a function answering one)`, session);
}

function constraintFor(request: Request, options: RequestDatabaseOptions, method: string): SessionConstraint | false {
  const session = options.session;
  if (session === undefined) return READ_METHODS.has(request.method) ? "first-unconstrained" : "first-primary";
  return checkedConstraint(method, typeof session === "function" ? session(request) : session);
}

async function requestSession(request: Request, options: RequestDatabaseOptions, method: string): Promise<string | undefined> {
  const constraint = constraintFor(request, options, method);
  if (constraint === false) return undefined;
  return (await requestBookmark(request, options)) ?? constraint;
}

/**
 * The D1 session a request opens: the bookmark it carries when this app signed it (so it reads at least what it
 * last wrote), else the constraint for its method or route; `undefined` for no session.
 */
export function sessionFor(request: Request, options: RequestDatabaseOptions = {}): Promise<string | undefined> {
  return requestSession(request, options, "sessionFor");
}

/**
 * Refuses request options that would be read as not given or handed to D1 as a bookmark: a session that is no
 * constraint, a bookmark that is no object of `header`, `cookie` and `secret`, a place for it that is no name.
 */
export function checkRequestOptions(options: RequestDatabaseOptions, method: string): void {
  const { session, bookmark } = optionsArgument(method, options);
  if (typeof session !== "function" && session !== undefined) checkedConstraint(method, session);
  bookmarkSecret(options, method);
  for (const place of ["header", "cookie"] as const) {
    const name = bookmark?.[place];
    if (name !== undefined && name !== false && (typeof name !== "string" || name === "")) throw argumentError(`${method}: bookmark.${place}`, "a name or false", name);
  }
}

/** Opens the request's database: connected to `binding`, in the D1 session `sessionFor` chooses; `method` is the caller. */
export async function connectForRequest(request: Request, binding: D1DatabaseLike, options: RequestDatabaseOptions, method: string): Promise<Database> {
  if (!(request instanceof Request)) throw new TypeError(`${method}: the request must be a Request`);
  checkRequestOptions(options, method);
  const { session: _session, bookmark: _bookmark, ...connectOptions } = options;
  return connect(binding, { ...connectOptions, session: await requestSession(request, options, method) });
}

function cookieHeader(name: string, carried: string, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${name}=${carried}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** The session's newest bookmark, signed, as a response carries it; undefined when none travels. */
export async function carriedBookmark(database: Database, options: RequestDatabaseOptions = {}): Promise<string | undefined> {
  const secret = bookmarkSecret(options, "withRequestDatabase");
  const bookmark = database.bookmark();
  if (secret === undefined || bookmark === null || !isBookmarkShaped(bookmark)) return undefined;
  return await signBookmark(bookmark, secret);
}

/** Puts a carried bookmark (from `carriedBookmark`) on the headers of a response. */
export function writeBookmark(headers: Headers, carried: string | undefined, request: Request, options: RequestDatabaseOptions = {}): void {
  if (carried === undefined) return;
  const header = headerName(options);
  const cookie = cookieName(options);
  if (header) headers.set(header, carried);
  if (cookie) headers.append("set-cookie", cookieHeader(cookie, carried, request));
}

/**
 * Serves a request of a plain Worker on its own database: connects `binding` in a D1 session chosen for the
 * request (see `RequestDatabaseOptions`), runs `handler` inside `withDatabase`, and carries the session's bookmark,
 * signed with `bookmark.secret`, on the response. A response whose headers cannot be changed (one returned by `fetch`) is copied.
 *
 * ```ts
 * export default {
 *   fetch: (request, env) =>
 *     withRequestDatabase(request, env.DB, () => app(request), { bookmark: { secret: env.D1_BOOKMARK_SECRET } }),
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
  const database = await connectForRequest(request, binding, options, "withRequestDatabase");
  const response = await withDatabase(database, () => handler(database));
  if (!(response instanceof Response)) throw new TypeError("withRequestDatabase: the handler must return a Response");
  const carried = await carriedBookmark(database, options);
  try {
    writeBookmark(response.headers, carried, request, options);
    return response;
  } catch {
    // The headers of a response from fetch() are immutable: carry the bookmark on a copy.
    const copy = new Response(response.body, response);
    writeBookmark(copy.headers, carried, request, options);
    return copy;
  }
}
