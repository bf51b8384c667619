/**
 * Bound parameters: each value is read by the numbered placeholder it was bound as (`?N`), so a value and its
 * placeholder stay tied whatever order the compiler and the `relation:*` hooks put the SQL text in.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { column, hasMany, sql, type SqlFragment } from "../../src/index.js";
import { defineStatement, ParamWriter, Statement } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord, User } from "../models/fixtures.js";

beforeEach(async () => {
  await resetDatabase();
  const now = "2026-01-01T00:00:00.000Z";
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (id, name, age, created_at, updated_at) VALUES ('u1', 'Ada', 36, ?1, ?1), ('u2', 'Bob', 40, ?1, ?1), ('u3', 'Mallory', 50, ?1, ?1)",
    ).bind(now),
    env.DB.prepare(
      "INSERT INTO posts (id, user_id, title, created_at, updated_at) VALUES ('p1', 'u1', 'Ada''s', ?1, ?1), ('p2', 'u3', 'Mallory''s', ?1, ?1), ('p3', 'u1', 'hidden', ?1, ?1)",
    ).bind(now),
  ]);
});

/** Users without Mallory: the hook binds its value after everything the Relation bound itself. */
class Visible extends ApplicationRecord("users") {
  static {
    this.hook("relation:where", ({ parts }) => {
      parts.where.push(`"name" <> ${parts.params.bind("Mallory")}`);
    });
  }
}

/** The same, with the hook's bound term put first. */
class VisibleFirst extends ApplicationRecord("users") {
  static {
    this.hook("relation:where", ({ parts }) => {
      parts.where.unshift(`"name" <> ${parts.params.bind("Mallory")}`);
    });
  }
}

/** `"name" IN (v1, ..., vn)` as one fragment binding each value: `count` values, Mallory's name among them. */
function nameAmong(count: number): SqlFragment {
  const names = ["Mallory", ...Array.from({ length: count - 1 }, (_, index) => `filler ${index}`)];
  const list = names.slice(1).reduce<SqlFragment>((joined, name) => sql`${joined}, ${name}`, sql`${names[0]}`);
  return sql`${column("name")} IN (${list}) DESC`;
}

const names = (users: { name: string | null }[]) => users.map((user) => user.name).sort();

describe("a value bound before a hook's term keeps its place", () => {
  it("an ORDER BY fragment's values, bound before the hook's, on every kind of query", async () => {
    for (const model of [Visible, VisibleFirst]) {
      const users = model.order(sql`${column("name")} = ${"Mallory"} DESC`);
      expect(names(await users.toArray())).toEqual(["Ada", "Bob"]);
      expect((await users.first())!.name).not.toBe("Mallory");
      expect(await users.where({ id: ["u1", "u3"] }).pluck("name")).toEqual(["Ada"]);
      expect(await users.limit(5).count()).toBe(2);
      expect((await users.paginate({ perPage: 5 })).total).toBe(2);
      expect(await users.limit(5).updateAll({ age: 1 })).toBe(2);
    }
    expect(await env.DB.prepare("SELECT age FROM users WHERE id = 'u3'").first("age")).toBe(50);
  });

  it.each([89, 90, 91, 95])("past 90 values (%i in the ORDER BY), the hook's value is read from where it was bound", async (count) => {
    const { db, events } = listen();
    const users = db.model(VisibleFirst).order(nameAmong(count)).limit(10);
    expect(names(await users.toArray())).toEqual(["Ada", "Bob"]);
    expect(events[0]!.params.length).toBeLessThanOrEqual(100);
    expect(await db.model(Visible).order(nameAmong(count)).limit(10).updateAll({ age: 1 })).toBe(2);
    expect(await env.DB.prepare("SELECT age FROM users WHERE id = 'u3'").first("age")).toBe(50);
  });

  it("a relation:select or relation:order hook that binds a value, with a joined list of keys", async () => {
    class Tagged extends ApplicationRecord("users") {
      static {
        this.hook("relation:select", ({ parts, purpose }) => {
          if (purpose === "load") parts.columns = `*, ${parts.params.bind("tag")} AS "tag"`;
        });
        this.hook("relation:order", ({ parts }) => {
          parts.order.push(`"name" = ${parts.params.bind("Bob")} DESC`);
        });
      }
    }
    const relation = Tagged.where({ id: ["u1", "u2"] }).where({ age: [36, 40, 50] });
    const { sql: text, params } = relation.toSql();
    const { results } = await env.DB.prepare(text).bind(...params).all<{ name: string; tag: string }>();
    expect(results.map((row) => [row.name, row.tag])).toEqual([
      ["Bob", "tag"],
      ["Ada", "tag"],
    ]);
    expect((await relation.toArray()).map((user) => user.name)).toEqual(["Bob", "Ada"]);
  });

  it("a relation:paging hook and a hook's term together with the values of a where fragment", async () => {
    class Paged extends Visible {
      static {
        this.hook("relation:paging", ({ parts }) => {
          parts.limit = 1;
        });
      }
    }
    const users = Paged.where(sql`${column("age")} >= ${36}`).order(sql`${column("name")} = ${"Ada"} DESC`);
    expect((await users.toArray()).map((user) => user.name)).toEqual(["Ada"]);
  });
});

describe("includes: the owners' subquery and each level bind into one statement", () => {
  class ShownPost extends ApplicationRecord("posts") {
    static {
      this.hook("relation:where", ({ parts }) => {
        parts.where.unshift(`"title" <> ${parts.params.bind("hidden")}`);
      });
    }
  }
  class Blogger extends Visible {
    posts = hasMany(ShownPost, { foreignKey: "userId" });
  }

  it("reads the preloads of the tenant-like owners only, and drops the hidden rows", async () => {
    const { db, events } = listen();
    const bloggers = await db.model(Blogger).order(sql`${column("name")} = ${"Mallory"} DESC`).includes("posts").toArray();
    expect(events).toHaveLength(2);
    expect(events[0]!.batched).toBe(true);
    expect(bloggers.map((blogger) => blogger.name).sort()).toEqual(["Ada", "Bob"]);
    const ada = bloggers.find((blogger) => blogger.name === "Ada")!;
    expect((await ada.posts().toArray()).map((post) => post.title)).toEqual(["Ada's"]);
    expect(events[1]!.sql).toMatch(/^WITH "recordflare_source" AS \(SELECT \* FROM "users" WHERE "name" <> \?2 ORDER BY "name" = \?1 DESC\)/);
  });
});

describe("Statements shown together", () => {
  it("a Statement sent as parts numbers each part's placeholders after the values before it", () => {
    const part = (text: string, params: unknown[]) => defineStatement({ sql: text, params, result: "meta" });
    const joined = Statement.ofParts([part(`UPDATE "users" SET "age" = ?1 WHERE "id" = ?2`, [1, "u1"]), part(`DELETE FROM "users" WHERE "name" = '?1' AND "id" = ?1`, ["u2"])], () => 0);
    expect(joined.toSql()).toEqual({
      sql: `UPDATE "users" SET "age" = ?1 WHERE "id" = ?2;\nDELETE FROM "users" WHERE "name" = '?1' AND "id" = ?3`,
      params: [1, "u1", "u2"],
    });
  });

  it("a ParamWriter numbers every placeholder, the values past 90 read from a numbered JSON value", () => {
    const writer = new ParamWriter();
    const placeholders = Array.from({ length: 92 }, (_, index) => writer.bind(index));
    expect(placeholders.slice(0, 3)).toEqual(["?1", "?2", "?3"]);
    expect(placeholders[89]).toBe("?90");
    expect(placeholders.slice(90)).toEqual([`json_extract(?91, '$[0]')`, `json_extract(?91, '$[1]')`]);
  });

  it("a set-based write of bound values alone may be sent again; one holding an sql fragment may not", () => {
    expect(new ParamWriter().fragments).toBe(false);
    expect(User.where({ name: "Ada" }).toUpdateAll({ age: 37 }).idempotent).toBe(true);
    expect(User.where(sql`${column("name")} = ${"Ada"}`).toUpdateAll({ age: 37 }).idempotent).toBe(false);
  });
});
