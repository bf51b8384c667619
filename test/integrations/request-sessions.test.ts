import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { currentDatabase, requestBookmark, sessionFor, withRequestDatabase } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { User } from "../models/fixtures.js";

beforeEach(resetDatabase);

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
