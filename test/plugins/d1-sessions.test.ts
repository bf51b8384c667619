// D1 sessions per request, for read replicas: the Hono middleware (recordflare/hono) and withRequestDatabase, and the
// signed bookmarks that carry a session from one request to the next.
import { env } from "cloudflare:test";
import { Hono } from "hono";
import { beforeEach, describe, expect, it } from "vitest";
import { currentDatabase, type D1DatabaseLike, requestBookmark, sessionFor, withRequestDatabase } from "../../src/index.js";
import { d1, type D1MiddlewareOptions, type D1Variables } from "../../src/web/hono.js";
import { resetDatabase } from "../helpers/db.js";
import { User } from "../models/fixtures.js";

/** The test D1 binding, recording the constraint or bookmark of every session opened on it. */
function sessionRecordingBinding(): { binding: D1DatabaseLike; sessions: (string | undefined)[] } {
  const sessions: (string | undefined)[] = [];
  const binding = {
    prepare: (sql: string) => env.DB.prepare(sql),
    batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
    withSession: (constraint?: string) => {
      sessions.push(constraint);
      return env.DB.withSession(constraint);
    },
  };
  return { binding: binding as unknown as D1DatabaseLike, sessions };
}

function usersApp(options: D1MiddlewareOptions = {}) {
  const app = new Hono<{ Variables: D1Variables }>();
  app.use(d1(options));
  app.get("/users", async (c) => c.json({ count: await User.count(), same: currentDatabase() === c.var.db }));
  app.post("/users", async (c) => {
    const user = await User.create({ name: await c.req.text() });
    return c.json({ id: user.id }, 201);
  });
  return app;
}

beforeEach(resetDatabase);

/** The secret that signs bookmarks, as a Worker's env holds it. */
const SECRET = "3f9c1e7a5b2d48e6a0c4f1b7d9e2a6c8";
/** A bookmark D1 could issue, unsigned: what a forger sends. */
const FORGED = "ffffffff-ffffffff-ffffffff-ffffffff";
/** A signed bookmark as the app hands it out: D1's bookmark, a dot and its HMAC-SHA256 in base64url. */
const SIGNED = /^([0-9a-f]+(?:-[0-9a-f]+)+)\.[A-Za-z0-9_-]{43}$/;

/** The D1 bookmark a signed one carries. */
function bookmarkOf(signed: string | null): string {
  const match = SIGNED.exec(signed ?? "");
  if (!match) throw new Error(`not a signed bookmark: ${signed}`);
  return match[1]!;
}

describe("the Hono middleware d1()", () => {
  it("runs each request on its own database, the one c.var.db gives, so Models need no binding", async () => {
    const { binding } = sessionRecordingBinding();
    const app = usersApp();
    expect((await app.request("/users", { method: "POST", body: "Ada" }, { DB: binding })).status).toBe(201);
    const response = await app.request("/users", {}, { DB: binding });
    expect(await response.json()).toEqual({ count: 1, same: true });
  });

  it("starts reads on any replica and writes on the primary", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const app = usersApp();
    await app.request("/users", {}, { DB: binding });
    await app.request("/users", { method: "HEAD" }, { DB: binding });
    await app.request("/users", { method: "POST", body: "Ada" }, { DB: binding });
    expect(sessions).toEqual(["first-unconstrained", "first-unconstrained", "first-primary"]);
  });

  it("carries the bookmark from a response to the next request, by header and by cookie", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const app = usersApp();
    const env = { DB: binding, D1_BOOKMARK_SECRET: SECRET };
    const written = await app.request("/users", { method: "POST", body: "Ada" }, env);
    const signed = written.headers.get("x-d1-bookmark")!;
    expect(written.headers.get("set-cookie")).toBe(`d1_bookmark=${signed}; Path=/; HttpOnly; SameSite=Lax`);

    await app.request("/users", { headers: { "x-d1-bookmark": signed } }, env);
    await app.request("/users", { headers: { cookie: `theme=dark; d1_bookmark=${signed}` } }, env);
    // D1 gets its own bookmark, without the signature.
    expect(sessions.slice(1)).toEqual([bookmarkOf(signed), bookmarkOf(signed)]);
  });

  it("marks the cookie Secure on https", async () => {
    const { binding } = sessionRecordingBinding();
    const response = await usersApp().request("https://example.com/users", { method: "POST", body: "Ada" }, { DB: binding, D1_BOOKMARK_SECRET: SECRET });
    expect(response.headers.get("set-cookie")).toMatch(/; Secure$/);
  });

  it("never hands D1 a bookmark this app did not sign, and never echoes one: forged, badly signed, malformed or oversized", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const app = usersApp();
    const env = { DB: binding, D1_BOOKMARK_SECRET: SECRET };
    const issued = (await app.request("/users", { method: "POST", body: "Ada" }, env)).headers.get("x-d1-bookmark")!;
    const signature = issued.slice(issued.indexOf(".") + 1);
    const otherAppsBookmark = (await usersApp().request("/users", { method: "POST", body: "Bo" }, { DB: binding, D1_BOOKMARK_SECRET: "another app's secret, 32 chars.." })).headers.get("x-d1-bookmark")!;
    sessions.length = 0;
    const refused = [
      FORGED,
      `${FORGED}.${signature}`, // a real signature moved onto another bookmark
      otherAppsBookmark, // signed with another secret
      `${issued.slice(0, -1)}${issued.endsWith("A") ? "B" : "A"}`, // the signature altered
      `${bookmarkOf(issued)}.`,
      issued.replace(".", ".."),
      "'; DROP TABLE users; --",
      "first-primary",
      `${"ab-".repeat(60)}ab.${signature}`,
      `${issued}${"0".repeat(10_000)}`,
    ];
    for (const forged of refused) {
      for (const headers of [{ "x-d1-bookmark": forged }, { cookie: `d1_bookmark=${forged}` }] as Record<string, string>[]) {
        const response = await app.request("/users", { headers }, env);
        expect(response.status, forged).toBe(200);
        const carried = [response.headers.get("x-d1-bookmark"), response.headers.get("set-cookie")].join(" ");
        expect(carried, forged).not.toContain(FORGED);
        expect(bookmarkOf(response.headers.get("x-d1-bookmark")), forged).not.toBe(FORGED);
      }
    }
    expect(sessions).toEqual(Array(refused.length * 2).fill("first-unconstrained"));
    // The bookmark the app issued is taken.
    await app.request("/users", { headers: { "x-d1-bookmark": issued } }, env);
    expect(sessions.at(-1)).toBe(bookmarkOf(issued));
  });

  it("without a secret no bookmark travels: none is taken from a request and none is put on a response", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const signed = (await usersApp().request("/users", { method: "POST", body: "Ada" }, { DB: binding, D1_BOOKMARK_SECRET: SECRET })).headers.get("x-d1-bookmark")!;
    const response = await usersApp().request("/users", { headers: { "x-d1-bookmark": signed } }, { DB: binding });
    expect(sessions).toEqual(["first-primary", "first-unconstrained"]);
    expect(response.headers.get("x-d1-bookmark")).toBeNull();
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a secret shorter than 32 characters: given, when the middleware is made; from the env, when a request comes", async () => {
    expect(() => d1({ bookmark: { secret: "short" } })).toThrow("d1: bookmark.secret must be a string of at least 32 characters");
    const app = usersApp();
    let error: unknown;
    app.onError((thrown, c) => ((error = thrown), c.text("failed", 500)));
    expect((await app.request("/users", {}, { DB: env.DB, D1_BOOKMARK_SECRET: "short" })).status).toBe(500);
    expect(String(error)).toContain("d1: the Worker's env D1_BOOKMARK_SECRET must be a secret of at least 32 characters");
  });

  it("takes the binding name, the session per request, and where the bookmark travels as options", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const app = usersApp({
      binding: "MAIN_DB",
      session: (request) => (new URL(request.url).searchParams.has("fresh") ? "first-primary" : "first-unconstrained"),
      bookmark: { header: "x-bookmark", cookie: false },
    });
    const response = await app.request("/users?fresh", {}, { MAIN_DB: binding, D1_BOOKMARK_SECRET: SECRET });
    expect(sessions).toEqual(["first-primary"]);
    expect(response.headers.get("x-bookmark")).toEqual(expect.any(String));
    expect(response.headers.get("x-d1-bookmark")).toBeNull();
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("session: false opens no session and carries no bookmark", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const response = await usersApp({ session: false }).request("/users", { method: "POST", body: "Ada" }, { DB: binding });
    expect(response.status).toBe(201);
    expect(sessions).toEqual([]);
    expect(response.headers.get("x-d1-bookmark")).toBeNull();
  });

  it("carries the bookmark on a response whose headers are immutable", async () => {
    const { binding } = sessionRecordingBinding();
    const app = new Hono<{ Variables: D1Variables }>();
    app.use(d1());
    app.post("/users", async () => {
      await User.create({ name: "Ada" });
      return Response.redirect("https://example.com/users", 303);
    });
    const response = await app.request("/users", { method: "POST" }, { DB: binding, D1_BOOKMARK_SECRET: SECRET });
    expect(response.status).toBe(303);
    expect(response.headers.get("x-d1-bookmark")).toEqual(expect.any(String));
  });

  it("concurrent requests share no state: each sees only its own database and its own queries", async () => {
    const app = new Hono<{ Variables: D1Variables }>();
    app.use(d1());
    app.get("/count/:n", async (c) => {
      const seen: string[] = [];
      c.var.db.onQuery((event) => seen.push(event.sql));
      const n = Number(c.req.param("n"));
      for (let i = 0; i < n; i++) {
        await User.count();
        if (currentDatabase() !== c.var.db) return c.text("another request's database", 500);
      }
      return c.json({ queries: seen.length });
    });
    const requests = Array.from({ length: 40 }, (_, n) => app.request(`/count/${n % 7}`, {}, { DB: env.DB }));
    const bodies = await Promise.all(requests.map(async (response) => (await response).json()));
    expect(bodies).toEqual(Array.from({ length: 40 }, (_, n) => ({ queries: n % 7 })));
  });

  it("a misspelt binding name fails the request with an error that names it", async () => {
    const app = usersApp({ binding: "DATABASE" });
    let error: unknown;
    app.onError((thrown, c) => ((error = thrown), c.text("failed", 500)));
    expect((await app.request("/users", {}, { DB: env.DB })).status).toBe(500);
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toContain('"DATABASE"');
  });

  it("refuses a binding option that is not a name when the middleware is made", () => {
    expect(() => d1({ binding: 5 as never })).toThrow(/d1: options.binding/);
    expect(() => d1({ serverTiming: "yes" as never })).toThrow("d1: options.serverTiming must be a boolean");
  });

  it("with serverTiming, each response says what its request's queries cost: round trips, rows read and written", async () => {
    const app = new Hono<{ Variables: D1Variables }>();
    app.use(d1({ serverTiming: true }));
    app.get("/users", async (c) => {
      const [count, first] = await Promise.all([User.count(), User.order({ name: "asc" }).first()]);
      return c.json({ count, first: first?.name });
    });
    app.post("/users", async () => {
      await User.create({ name: "Ada" });
      return Response.redirect("https://example.com/users", 303);
    });
    const created = await app.request("/users", { method: "POST" }, { DB: env.DB });
    expect(created.headers.get("Server-Timing")).toMatch(/^d1;desc="1 round trip, \d+ rows? read, [1-9]\d* rows written";dur=\d+\.\d\d$/);
    const listed = await app.request("/users", {}, { DB: env.DB });
    expect(await listed.json()).toEqual({ count: 1, first: "Ada" });
    expect(listed.headers.get("Server-Timing")).toMatch(/^d1;desc="2 round trips, [1-9]\d* rows? read, 0 rows written";dur=\d+\.\d\d$/);
    const plain = await usersApp().request("/users", {}, { DB: env.DB });
    expect(plain.headers.get("Server-Timing")).toBeNull();
  });
});


describe("withRequestDatabase (a plain Worker's fetch)", () => {
  it("runs the handler on the request's database and returns its response with the session's bookmark, signed", async () => {
    const options = { bookmark: { secret: SECRET } };
    const response = await withRequestDatabase(
      new Request("http://localhost/users", { method: "POST" }),
      env.DB,
      async (db) => {
        await User.create({ name: "Ada" });
        return new Response(String(currentDatabase() === db), { status: 201 });
      },
      options,
    );
    expect(response.status).toBe(201);
    expect(await response.text()).toBe("true");
    const signed = response.headers.get("x-d1-bookmark")!;

    const next = new Request("http://localhost/users", { headers: { "x-d1-bookmark": signed } });
    expect(await sessionFor(next, options)).toBe(bookmarkOf(signed));
    const read = await withRequestDatabase(next, env.DB, async () => Response.json(await User.count()), options);
    expect(await read.json()).toBe(1);
  });

  it("passes connect's comment through, as onQuery: each statement of the request starts with it", async () => {
    const sqls: string[] = [];
    const request = new Request("http://localhost/users/7");
    const options = { comment: () => `app:${new URL(request.url).pathname}`, onQuery: (event: { sql: string }) => sqls.push(event.sql) };
    await withRequestDatabase(request, env.DB, async () => Response.json(await User.count()), options);
    expect(sqls).toEqual([expect.stringMatching(/^\/\* app:\/users\/7 \*\/ SELECT COUNT/)]);
  });

  it("chooses the session: a bookmark the app signed, else the constraint for the method", async () => {
    const get = new Request("http://localhost/");
    const post = new Request("http://localhost/", { method: "POST" });
    expect([await sessionFor(get), await sessionFor(post)]).toEqual(["first-unconstrained", "first-primary"]);
    expect(await sessionFor(post, { session: "first-unconstrained" })).toBe("first-unconstrained");
    expect(await sessionFor(get, { session: false })).toBeUndefined();
    const forgedCookie = new Request("http://localhost/", { headers: { cookie: `a=1; mine=${FORGED}` } });
    expect(await requestBookmark(forgedCookie, { bookmark: { cookie: "mine", secret: SECRET } })).toBeUndefined();
    expect(await sessionFor(forgedCookie, { bookmark: { cookie: "mine", secret: SECRET } })).toBe("first-unconstrained");
    const header = new Request("http://localhost/", { headers: { "x-d1-bookmark": "1; DELETE" } });
    expect(await requestBookmark(header, { bookmark: { secret: SECRET } })).toBeUndefined();
  });

  it("a forged bookmark reaches neither D1 nor the response, whose bookmark is D1's own", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const forged = new Request("http://localhost/users", { headers: { "x-d1-bookmark": FORGED, cookie: `d1_bookmark=${FORGED}` } });
    const response = await withRequestDatabase(forged, binding, async () => Response.json(await User.count()), { bookmark: { secret: SECRET } });
    expect(sessions).toEqual(["first-unconstrained"]);
    expect(bookmarkOf(response.headers.get("x-d1-bookmark"))).not.toBe(FORGED);
    expect(response.headers.get("set-cookie")).not.toContain(FORGED);
  });

  it("refuses a secret that cannot be one with a TypeError naming withRequestDatabase, before the handler runs", async () => {
    let ran = false;
    const handler = () => ((ran = true), new Response());
    for (const secret of ["short", 42]) {
      await expect(withRequestDatabase(new Request("http://localhost"), env.DB, handler, { bookmark: { secret: secret as never } })).rejects.toThrow(
        "withRequestDatabase: bookmark.secret must be a string of at least 32 characters",
      );
    }
    expect(ran).toBe(false);
  });

  it("refuses a session D1 would read as a bookmark, and bookmark options it would ignore, before the handler runs", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    let ran = false;
    const handler = () => ((ran = true), new Response());
    const refusals: Array<[object, string]> = [
      [{ session: "primary" }, 'withRequestDatabase: session takes "first-primary", "first-unconstrained" or false (or a function answering one), not "primary"'],
      [{ session: () => "replica" }, 'withRequestDatabase: session takes "first-primary", "first-unconstrained" or false (or a function answering one), not "replica"'],
      [{ session: true }, "withRequestDatabase: session takes"],
      [{ bookmark: { secrt: SECRET } }, 'withRequestDatabase: bookmark: "secrt" is not an option; the options are header, cookie, secret'],
      [{ bookmark: "x-bookmark" }, 'withRequestDatabase: bookmark takes an options object, not "x-bookmark"'],
      [{ bookmark: { header: true, secret: SECRET } }, "withRequestDatabase: bookmark.header takes a name or false, not true"],
      [{ bookmark: { cookie: "", secret: SECRET } }, 'withRequestDatabase: bookmark.cookie takes a name or false, not ""'],
    ];
    for (const [options, message] of refusals) {
      await expect(withRequestDatabase(new Request("http://localhost"), binding, handler, options as never)).rejects.toThrow(message);
    }
    expect(ran).toBe(false);
    expect(sessions).toEqual([]);
    expect(() => d1({ session: "primary" as never })).toThrow('d1: session takes "first-primary"');
    expect(() => d1({ bookmark: { secrt: SECRET } as never })).toThrow('d1: bookmark: "secrt" is not an option');
    await expect(sessionFor(new Request("http://localhost"), { session: () => "primary" as never })).rejects.toThrow('sessionFor: session takes "first-primary"');
  });

  it("refuses what is not a request, a handler or a response with a TypeError naming withRequestDatabase", async () => {
    await expect(withRequestDatabase("http://localhost" as never, env.DB, () => new Response())).rejects.toThrow(/withRequestDatabase: the request/);
    await expect(withRequestDatabase(new Request("http://localhost"), env.DB, null as never)).rejects.toThrow(/withRequestDatabase: the handler must be a function/);
    await expect(withRequestDatabase(new Request("http://localhost"), env.DB, () => "ok" as never)).rejects.toThrow(/must return a Response/);
  });
});
