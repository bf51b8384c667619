// D1 sessions per request, for read replicas: the Hono middleware (recordflare/hono) and withRequestDatabase.
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
    const written = await app.request("/users", { method: "POST", body: "Ada" }, { DB: binding });
    const bookmark = written.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
    expect(written.headers.get("set-cookie")).toBe(`d1_bookmark=${bookmark}; Path=/; HttpOnly; SameSite=Lax`);

    await app.request("/users", { headers: { "x-d1-bookmark": bookmark! } }, { DB: binding });
    await app.request("/users", { headers: { cookie: `theme=dark; d1_bookmark=${bookmark}` } }, { DB: binding });
    expect(sessions.slice(1)).toEqual([bookmark, bookmark]);
  });

  it("marks the cookie Secure on https", async () => {
    const { binding } = sessionRecordingBinding();
    const response = await usersApp().request("https://example.com/users", { method: "POST", body: "Ada" }, { DB: binding });
    expect(response.headers.get("set-cookie")).toMatch(/; Secure$/);
  });

  it("ignores a bookmark that is not one, and starts the session by the method instead", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const app = usersApp();
    for (const forged of ["'; DROP TABLE users; --", "first-primary", "x".repeat(40), `${"ab-".repeat(60)}ab`]) {
      const response = await app.request("/users", { headers: { "x-d1-bookmark": forged } }, { DB: binding });
      expect(response.status).toBe(200);
    }
    expect(sessions).toEqual(Array(4).fill("first-unconstrained"));
  });

  it("takes the binding name, the session per request, and where the bookmark travels as options", async () => {
    const { binding, sessions } = sessionRecordingBinding();
    const app = usersApp({
      binding: "MAIN_DB",
      session: (request) => (new URL(request.url).searchParams.has("fresh") ? "first-primary" : "first-unconstrained"),
      bookmark: { header: "x-bookmark", cookie: false },
    });
    const response = await app.request("/users?fresh", {}, { MAIN_DB: binding });
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
    const response = await app.request("/users", { method: "POST" }, { DB: binding });
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
  });
});


describe("withRequestDatabase (a plain Worker's fetch)", () => {
  it("runs the handler on the request's database and returns its response with the session's bookmark", async () => {
    const response = await withRequestDatabase(new Request("http://localhost/users", { method: "POST" }), env.DB, async (db) => {
      await User.create({ name: "Ada" });
      return new Response(String(currentDatabase() === db), { status: 201 });
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe("true");
    const bookmark = response.headers.get("x-d1-bookmark")!;
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);

    const next = new Request("http://localhost/users", { headers: { "x-d1-bookmark": bookmark } });
    expect(sessionFor(next)).toBe(bookmark);
    const read = await withRequestDatabase(next, env.DB, async () => Response.json(await User.count()));
    expect(await read.json()).toBe(1);
  });

  it("chooses the session: a well-formed bookmark, else the constraint for the method", () => {
    const get = new Request("http://localhost/");
    const post = new Request("http://localhost/", { method: "POST" });
    expect([sessionFor(get), sessionFor(post)]).toEqual(["first-unconstrained", "first-primary"]);
    expect(sessionFor(post, { session: "first-unconstrained" })).toBe("first-unconstrained");
    expect(sessionFor(get, { session: false })).toBeUndefined();
    const cookie = new Request("http://localhost/", { headers: { cookie: "a=1; mine=0000-00ff" } });
    expect(requestBookmark(cookie, { bookmark: { cookie: "mine" } })).toBe("0000-00ff");
    expect(requestBookmark(cookie)).toBeUndefined();
    expect(requestBookmark(new Request("http://localhost/", { headers: { "x-d1-bookmark": "1; DELETE" } }))).toBeUndefined();
  });

  it("refuses what is not a request, a handler or a response with a TypeError naming withRequestDatabase", async () => {
    await expect(withRequestDatabase("http://localhost" as never, env.DB, () => new Response())).rejects.toThrow(/withRequestDatabase: the request/);
    await expect(withRequestDatabase(new Request("http://localhost"), env.DB, null as never)).rejects.toThrow(/withRequestDatabase: the handler must be a function/);
    await expect(withRequestDatabase(new Request("http://localhost"), env.DB, () => "ok" as never)).rejects.toThrow(/must return a Response/);
  });
});
