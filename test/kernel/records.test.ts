import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, withDatabase } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

describe("create and find", () => {
  it("creates a user and finds it", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", email: "ada@example.com", age: "36" });
    expect(user.isPersisted()).toBe(true);
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(user.admin).toBe(false);
    const found = await db.model(User).find(user.id);
    expect(found.name).toBe("Ada");
    expect(found.age).toBe(36);
    expect(events.map((e) => e.sql)).toMatchInlineSnapshot(`
      [
        "INSERT INTO "users" ("id", "name", "email", "age", "admin", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
        "SELECT * FROM "users" WHERE "id" = ? LIMIT 1",
      ]
    `);
    expect(events[0]!.params).toContain("[FILTERED]");
  });

  it("uses the binding outside withDatabase and db inside", async () => {
    const counter = await Counter.create({ label: "a" });
    expect(counter.id).toBe(1);
    expect(counter.value).toBe(7);
    const again = await withDatabase(connect(env.DB), () => Counter.find("1"));
    expect(again.label).toBe("a");
    expect(String(again)).toMatchInlineSnapshot(`"#<Counter id: 1, label: "a", value: 7>"`);
  });
});
