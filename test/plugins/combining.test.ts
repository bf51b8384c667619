import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { column, IncompatibleRelation, NoTenant, sql, withTenant } from "../../src/index.js";
import { definePlugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { TenantTask } from "../models/tenant-tasks.js";
import { TrashableArticle } from "../models/trashable-articles.js";

// `or` compares the two Relations as written (their descriptions): no plugin's compile hook runs until the query does.

let compiles = 0;
const countingCompiles = definePlugin({
  name: "counting compiles",
  hooks: {
    "relation:where"() {
      compiles++;
    },
  },
});

class CountedUser extends ApplicationRecord("users") {
  static {
    this.use(countingCompiles);
  }
}

/** Soft delete's methods, which the typed face of a Model does not list. */
type Trashable = { withDeleted(): Trashable; onlyDeleted(): Trashable; where(conditions: object): Trashable; or(other: Trashable): Trashable; toSql(): { sql: string } };
const articles = TrashableArticle as unknown as Trashable;

beforeEach(async () => {
  await resetDatabase();
  compiles = 0;
});

describe("or compares what the user wrote, never compiling", () => {
  it("an or built outside withTenant runs inside it, narrowed to the tenant once", async () => {
    await env.DB.prepare("INSERT INTO guide_projects VALUES ('p', 'acme', 'Shared', '2026-01-01', '2026-01-01')").run();
    await env.DB.prepare(
      "INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('a1', 'acme', 'p', 'One'), ('a2', 'acme', 'p', 'Two'), ('b1', 'globex', 'p', 'One')",
    ).run();
    const either = TenantTask.where({ title: "One" }).or(TenantTask.where({ title: "Two" }));
    const merged = TenantTask.where({ title: "One" }).merge(TenantTask.where({ done: false }));
    expect(await rejectionOf(either.toArray())).toBeInstanceOf(NoTenant);
    const { events, db } = listen();
    const ids = await withTenant("acme", async () => (await db.model(TenantTask).merge(either).toArray()).map((task) => task.id).sort());
    expect(ids).toEqual(["a1", "a2"]);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe(`SELECT * FROM "guide_tasks" WHERE ("title" = ?1 OR "title" = ?2) AND "tenant_id" = ?3`);
    expect(await withTenant("globex", async () => (await merged.toArray()).map((task) => task.id))).toEqual(["b1"]);
  });

  it("a relation:where hook runs once per query: never while or compares, once when it runs", async () => {
    await CountedUser.insertAll([
      { name: "Ada", age: 30, admin: false },
      { name: "Bob", age: null, admin: true },
      { name: "Cy", age: null, admin: false },
    ]);
    compiles = 0;
    const either = CountedUser.where({ age: 30 }).or(CountedUser.where({ admin: true })).or(CountedUser.where({ name: "Dee" }));
    expect(compiles).toBe(0);
    expect((await either.toArray()).map((user) => user.name).sort()).toEqual(["Ada", "Bob"]);
    expect(compiles).toBe(1);
    expect(await either.count()).toBe(2);
    expect(compiles).toBe(2);
  });

  it("refuses a Relation differing besides its conditions, naming the entries that differ", () => {
    const base = CountedUser.where({ name: "Ada" });
    const cases = [
      [CountedUser.where({ age: 1 }).limit(1), "limit"],
      [CountedUser.where({ age: 1 }).offset(2), "offset"],
      [CountedUser.where({ age: 1 }).order({ name: "desc" }), "order"],
      [CountedUser.where({ age: 1 }).select("name"), "select"],
      [CountedUser.where({ age: 1 }).distinct(), "distinct"],
      [CountedUser.where({ age: 1 }).order(sql`${column("age")} > ${3}`).limit(5), "order, limit"],
    ] as const;
    for (const [other, entries] of cases) {
      const message = `CountedUser.or: the Relation must be of the same Model and differ only in conditions; they differ in ${entries}`;
      expect(() => base.or(other as never), entries).toThrow(new IncompatibleRelation(message));
    }
    expect(compiles).toBe(0);
  });

  it("refuses sides that read other rows through a plugin's entry (soft delete's withDeleted)", () => {
    const kept = articles.where({ title: "a" });
    expect(() => kept.or(articles.withDeleted().where({ title: "b" }))).toThrow(/differ in extensions/);
    // onlyDeleted() is withDeleted() and a condition: the two sides read through the same default scopes.
    expect(kept.withDeleted().or(articles.onlyDeleted().where({ title: "b" })).toSql().sql).toBe(
      `SELECT * FROM "trashable_articles" WHERE ("title" = ?1 OR "deleted_at" IS NOT NULL AND "title" = ?2)`,
    );
    expect(kept.withDeleted().or(articles.withDeleted().where({ title: "b" })).toSql().sql).toBe(
      `SELECT * FROM "trashable_articles" WHERE ("title" = ?1 OR "title" = ?2)`,
    );
  });

  it("takes sides written alike: the same fragment made twice, the key selected or not", () => {
    const byAge = () => sql`${column("age")} DESC`;
    expect(CountedUser.where({ age: 1 }).order(byAge()).or(CountedUser.where({ age: 2 }).order(byAge())).toSql().sql).toBe(
      `SELECT * FROM "users" WHERE ("age" = ?1 OR "age" = ?2) ORDER BY "age" DESC`,
    );
    expect(() => CountedUser.order(sql`${column("age")} > ${1}`).or(CountedUser.order(sql`${column("age")} > ${2}`))).toThrow(/differ in order/);
    expect(CountedUser.select("id", "name").where({ age: 1 }).or(CountedUser.select("name").where({ age: 2 })).toSql().sql).toBe(
      `SELECT "id", "name" FROM "users" WHERE ("age" = ?1 OR "age" = ?2)`,
    );
    expect(compiles).toBe(2);
  });

  it("or and merge refuse what is not a Relation with a TypeError naming the Model and method", () => {
    for (const value of [null, undefined, { name: "Ada" }, CountedUser, "name = 'Ada'"]) {
      expect(() => CountedUser.where({ age: 1 }).or(value as never)).toThrow(/^CountedUser\.or takes a Relation of the same Model, not /);
      expect(() => CountedUser.where({ age: 1 }).merge(value as never)).toThrow(/^CountedUser\.merge takes a Relation of the same Model, not /);
    }
  });
});
