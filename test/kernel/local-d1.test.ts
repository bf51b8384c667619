import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase } from "../helpers/db";
import { withoutD1Limits } from "../helpers/d1-limits.js";

const now = "2026-01-01T00:00:00.000Z";

function insertUser(id: string, name: string, email: string | null = null) {
  return env.DB.prepare(
    "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  ).bind(id, name, email, now, now);
}

async function countUsers(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM users").first<number>("n")) ?? -1;
}

describe("local D1 binding", () => {
  it("has the fixture migrations applied", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    ).all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(
      expect.arrayContaining(["users", "posts", "counters", "notes", "index_posts_on_user_id", "d1_migrations"]),
    );
  });

  it("inserts and reads a user with prepare/bind/run/first", async () => {
    const run = await insertUser("u1", "Ada", "ada@example.com").run();
    expect(run.success).toBe(true);
    expect(run.meta.changes).toBe(1);
    expect(run.meta.changed_db).toBe(true);

    const row = await env.DB.prepare("SELECT * FROM users WHERE id = ?").bind("u1").first();
    expect(row).toEqual({
      id: "u1",
      name: "Ada",
      email: "ada@example.com",
      age: null,
      score: null,
      admin: 0,
      born_at: null,
      settings: null,
      created_at: now,
      updated_at: now,
    });
    expect(await env.DB.prepare("SELECT name FROM users WHERE id = ?").bind("u1").first("name")).toBe("Ada");
  });

  it("runs statements in a batch", async () => {
    const results = await env.DB.batch([
      insertUser("u2", "Grace"),
      env.DB.prepare("INSERT INTO posts (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").bind(
        "p1",
        "u2",
        "Hello",
        now,
        now,
      ),
      env.DB.prepare("SELECT title, published FROM posts WHERE user_id = ?").bind("u2"),
    ]);
    expect(results).toHaveLength(3);
    expect(results[2]!.results).toEqual([{ title: "Hello", published: 0 }]);
  });

  it("applies defaults, autoincrement ids and RETURNING", async () => {
    const { results, meta } = await env.DB.prepare("INSERT INTO counters (label) VALUES (?) RETURNING *")
      .bind("a")
      .run<{ id: number; label: string; value: number }>();
    expect(results).toEqual([{ id: meta.last_row_id, label: "a", value: 7 }]);
  });

  it("enforces constraints (CHECK json_valid)", async () => {
    await expect(
      env.DB.prepare("INSERT INTO users (id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
        .bind("u3", "Bad", "{not json", now, now)
        .run(),
    ).rejects.toThrow(/CHECK constraint failed/);
  });

  it("local D1 itself rejects more than 100 bound parameters", async () => {
    const select = (n: number) =>
      withoutD1Limits(env.DB).prepare(`SELECT ${Array.from({ length: n }, () => "?").join(", ")}`)
        .bind(...Array.from({ length: n }, (_, i) => i))
        .all();
    await expect(select(100)).resolves.toMatchObject({ success: true });
    await expect(select(101)).rejects.toThrow(/too many SQL variables/);
  });
});

describe("storage semantics", () => {
  // Documents (and guards against silent changes to) the plugin's behaviour:
  // tests in one file share the database unless they reset it.
  it("writes from an earlier test in the same file are still visible", async () => {
    expect(await countUsers()).toBeGreaterThan(0);
  });

  describe("with resetDatabase() in beforeEach", () => {
    beforeEach(resetDatabase);

    it("starts empty, with the schema in place", async () => {
      expect(await countUsers()).toBe(0);
      await insertUser("u9", "Temp").run();
      expect(await countUsers()).toBe(1);
    });

    it("does not see the previous test's row", async () => {
      expect(await countUsers()).toBe(0);
    });
  });
});
