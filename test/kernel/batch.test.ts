/** batch([...]): reads and writes sent to D1 together, atomically, and what it returns. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { batch, connect, RecordNotUnique, type D1DatabaseLike, withDatabase, RecordInvalid, RecordDestroyed } from "../../src/index.js";
import { countStatement, Relation } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, thrown } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import {
  Counter,
  User,
  ApplicationRecord as FixtureApplicationRecord,
  Post,
  Counter as CounterRow,
} from "../models/fixtures.js";
import { Badge, Item as OwnedItem, seedOwnedItemsSeen } from "../models/owners-and-items.js";
import { AuditItem } from "../models/audit-items.js";

beforeEach(resetDatabase);

async function rowOf(table: string, id: unknown, key = "id"): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE ${key} = ?`).bind(id).first();
}

/**
 * A D1 binding that forwards everything to the real one and counts round trips: each `batch` call, and each
 * statement run on its own (`run`, `all`, `first`, `raw`).
 */
function countingBinding(d1: D1Database) {
  const calls = { batch: 0, single: 0 };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ["run", "all", "first", "raw"]) {
      const original = target[method]!;
      target[method] = (...args: unknown[]) => {
        calls.single++;
        return original.apply(statement, args);
      };
    }
    const bind = target["bind"]!;
    target["bind"] = (...args: unknown[]) => wrap(bind.apply(statement, args) as D1PreparedStatement);
    return statement;
  };
  const binding: D1DatabaseLike = {
    prepare: (query: string) => wrap(d1.prepare(query)),
    batch: (statements) => {
      calls.batch++;
      return d1.batch(statements as D1PreparedStatement[]) as never;
    },
  };
  return { calls, binding };
}

// ---- batch --------------------------------------------------------------------------------------------

describe("batch", () => {
  it("runs record saves, destroys and Statements in one round trip", async () => {
    const spy = countingBinding(env.DB);
    const { db, events } = listen({ binding: spy.binding });
    const existing = await db.model(User).create({ name: "Old" });
    const doomed = await db.model(Counter).create({ label: "doomed" });
    // The spy sees statements run on their own: the two creates.
    expect(spy.calls).toEqual({ batch: 0, single: 2 });
    spy.calls.batch = 0;
    spy.calls.single = 0;
    events.length = 0;

    const fresh = db.model(User).build({ name: "New" });
    existing.name = "Old renamed";
    // A read Statement (the plugin API's count Statement) rides in the same batch.
    const count = countStatement(User.where({ name: "New" }) as unknown as Relation);
    await db.batch([fresh.toSave(), existing.toSave(), doomed.toDestroy(), count]);

    expect(spy.calls).toEqual({ batch: 1, single: 0 });
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "UPDATE", "DELETE", "SELECT"]);
    expect(fresh.isPersisted()).toBe(true);
    expect(existing.isChanged()).toBe(false);
    expect(doomed.isDestroyed()).toBe(true);
    expect(await rowOf("users", fresh.id)).toMatchObject({ name: "New" });
    expect(await rowOf("users", existing.id)).toMatchObject({ name: "Old renamed" });
    expect(await rowOf("counters", doomed.id)).toBeNull();
  });

  it("is atomic: when one item fails, nothing of the batch is written", async () => {
    await User.create({ name: "Taken", email: "taken@example.com" });
    const victim = await User.create({ name: "Victim" });
    const first = User.build({ name: "First" });
    const second = User.build({ name: "Second", email: "taken@example.com" });
    const { db } = listen();

    const error = await rejectionOf(db.batch([first.toSave(), victim.toDestroy(), second.toSave()]));
    expect(error).toBeInstanceOf(RecordNotUnique);

    expect(await rowOf("users", first.id)).toBeNull();
    expect(await rowOf("users", victim.id)).not.toBeNull();
    expect(await countRows("users")).toBe(2);
    expect(first.isNewRecord()).toBe(true);
    expect(second.isNewRecord()).toBe(true);
    expect(victim.isPersisted()).toBe(true);
  });

  it("runs every before-callback before any write and every after-callback after all writes, in record order", async () => {
    const log: string[] = [];
    const names = async () =>
      ((await env.DB.prepare("SELECT name FROM users ORDER BY name").all<{ name: string }>()).results ?? []).map((row) => row.name).join(",");
    class OrderedUser extends User {
      static {
        this.hook("record:beforeSave", async ({ record }) => {
          log.push(`before ${record.name} sees [${await names()}]`);
        });
        this.hook("record:afterSave", async ({ record }) => {
          log.push(`after ${record.name} sees [${await names()}]`);
        });
        this.hook("record:beforeDestroy", async ({ record }) => {
          log.push(`beforeDestroy ${record.name} sees [${await names()}]`);
        });
        this.hook("record:afterDestroy", async ({ record }) => {
          log.push(`afterDestroy ${record.name} sees [${await names()}]`);
        });
      }
    }
    const db = connect(env.DB, { onQuery: (event) => log.push(`query ${event.sql.split(" ")[0]}`) });
    const doomed = await db.model(OrderedUser).create({ name: "Doomed" });
    log.length = 0;
    const a = db.model(OrderedUser).build({ name: "A" });
    const b = db.model(OrderedUser).build({ name: "B" });

    await db.batch([a.toSave(), doomed.toDestroy(), b.toSave()]);

    expect(log).toEqual([
      "before A sees [Doomed]",
      "beforeDestroy Doomed sees [Doomed]",
      "before B sees [Doomed]",
      "query INSERT",
      "query DELETE",
      "query INSERT",
      "after A sees [A,B]",
      "afterDestroy Doomed sees [A,B]",
      "after B sees [A,B]",
    ]);
    expect(a.isPersisted()).toBe(true);
    expect(b.isPersisted()).toBe(true);
    expect(doomed.isDestroyed()).toBe(true);
  });

  it("takes write Statements (toInsert, toUpdateAll, toDeleteAll) beside records, atomically", async () => {
    await Counter.create({ label: "old" });
    await Counter.create({ label: "gone" });
    const { db, events } = listen();
    const fresh = User.build({ name: "Fresh" });
    const Counters = Counter as unknown as {
      toInsert(attributes: object): never;
      where(conditions: object): { toUpdateAll(attributes: object): never; toDeleteAll(): never };
    };
    await db.batch([
      fresh.toSave(),
      Counters.toInsert({ label: "inserted" }),
      Counters.where({ label: "old" }).toUpdateAll({ label: "updated" }),
      Counters.where({ label: "gone" }).toDeleteAll(),
    ]);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "INSERT", "UPDATE", "DELETE"]);
    expect(fresh.isPersisted()).toBe(true);
    const labels = (await env.DB.prepare("SELECT label FROM counters ORDER BY label").all<{ label: string }>()).results.map((row) => row.label);
    expect(labels).toEqual(["inserted", "updated"]);
  });

  it("record.toSave() and record.toDestroy() have no toSql(), unlike Statements", async () => {
    const existing = await User.create({ name: "Old" });
    const fresh = User.build({ name: "New" });
    const save = fresh.toSave();
    const destroy = existing.toDestroy();
    expect("toSql" in save).toBe(false);
    expect("toSql" in destroy).toBe(false);
    expectTypeOf(save).not.toHaveProperty("toSql");
    expectTypeOf(destroy).not.toHaveProperty("toSql");
    // A Statement does have it.
    expect(Counter.toInsert({ label: "x" }).toSql().sql).toMatch(/^INSERT INTO "counters"/);
    // They still batch.
    const { db } = listen();
    await db.batch([save, destroy]);
    expect(fresh.isPersisted()).toBe(true);
    expect(existing.isDestroyed()).toBe(true);
  });

  it("batch([...]) runs on the database withDatabase opened", async () => {
    const a = listen();
    const first = User.build({ name: "One" });
    const second = User.build({ name: "Two" });
    await withDatabase(a.db, () => batch([first.toSave(), second.toSave()]));
    expect(a.events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "INSERT"]);
    expect(await countRows("users")).toBe(2);
  });
});

const B = Badge as any;

describe("batch mixing reads and writes: 'executes all atomically'", () => {
  it("a select and a count see the writes before them in the same batch", async () => {
    await seedOwnedItemsSeen();
    const { db, events } = listen();
    const M = db.model(OwnedItem) as any;
    const results = await db.batch([M.toInsert({ id: "e", name: "e", code: "E" }), M.where({ name: "e" }).toSelect(), countStatement(M.all()), M.where({ id: "e" }).toDeleteAll(), countStatement(M.all())]);
    expect((results[1] as any[]).map((r) => r.id)).toEqual(["e"]);
    expect(results[2]).toBe(5);
    expect(results[3]).toBe(1);
    expect(results[4]).toBe(4);
    expect(events.every((event) => event.batched)).toBe(true);
  });
});

describe("guide: Batch", () => {
  it("runs the first example", async () => {
    const owner = await User.createOrThrow({ name: "Owner" });
    await Post.createOrThrow({ userId: owner.id, title: "Draft" });
    const author = User.build({ name: "Grace" });
    const post = Post.build({ userId: author.id, title: "First" });
    const old = await Post.findByOrThrow({ title: "Draft" });
    const result = await batch([author.toSave(), post.toSave(), old.toDestroy()]);
    expect(author.isPersisted()).toBe(true);
    expect(old.isDestroyed()).toBe(true);
    expect(result).toEqual([author, post, old]);
    expect(await batch([])).toEqual([]);
  });

  it("runs the second example; Statement toSql as shown", async () => {
    const writer = User.build({ name: "Ada" });
    const [, inserted, archived] = await batch([
      writer.toSave(),
      Post.toInsert({ userId: writer.id, title: "Welcome" }),
      Post.where({ userId: writer.id, published: false }).toUpdateAll({ published: true }),
    ]);
    expect(inserted).toBeDefined();
    expect(archived).toBe(1);
    const q = Post.toInsert({ userId: writer.id, title: "x" }).toSql();
    expect(q.sql).toMatch(/^INSERT INTO "posts" \(.*\) SELECT .* FROM json_each\(\?1\)/);
  });

  it("a refused record throws before anything is written; a D1 refusal writes nothing", async () => {
    class Strict extends FixtureApplicationRecord("users") {
      static {
        this.validates("email", { presence: true });
      }
    }
    const ok = User.build({ name: "ok" });
    await expect(batch([ok.toSave(), Strict.build({ name: "bad" }).toSave()])).rejects.toBeInstanceOf(RecordInvalid);
    expect(await countRows("users")).toBe(0);
    await User.createOrThrow({ name: "a", email: "a@x.org" });
    const fresh = User.build({ name: "b" });
    await expect(batch([fresh.toSave(), User.build({ name: "c", email: "a@x.org" }).toSave()])).rejects.toBeInstanceOf(RecordNotUnique);
    expect(fresh.isNewRecord()).toBe(true);
    expect(await countRows("users")).toBe(1);
  });
});

describe("guide: Batch, prose claims", () => {
  it("batch uses the database the first item writes through", async () => {
    const { db, sqls } = listen();
    const rec = db.model(User).build({ name: "x" });
    await batch([rec.toSave(), User.toInsert({ name: "y" })]);
    expect(sqls()).toHaveLength(2);
  });

  it("a Statement's result in a batch; toDestroy resolves to the record", async () => {
    const u = await User.createOrThrow({ name: "x" });
    const [destroyed, deleted] = await batch([u.toDestroy(), Post.toDeleteAll()]);
    expect(destroyed).toBe(u);
    expect(deleted).toBe(0);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("every to... form is a Statement with toSql() and runs in batch", async () => {
    const statements = [
      CounterRow.toInsert({ label: "a" }),
      CounterRow.toInsertAll([{ label: "b" }, { label: "c" }]),
      CounterRow.toUpsert({ id: 1, label: "A" }),
      CounterRow.toUpsertAll([{ id: 2, label: "B" }]),
      CounterRow.where({ label: "c" }).toUpdateAll({ value: 9 }),
      CounterRow.where({ label: "zzz" }).toDeleteAll(),
    ];
    for (const statement of statements) {
      const { sql: text, params } = statement.toSql();
      expect(typeof text).toBe("string");
      expect(Array.isArray(params)).toBe(true);
    }
    const { db } = listen();
    const results = await db.batch(statements);
    expect(results[4]).toBe(1);
    expect(await CounterRow.order({ id: "asc" }).pluck("label", "value")).toEqual([["A", 7], ["B", 7], ["c", 9]]);
  });
});

describe("edge cases that hold", () => {

  it("toSave() and toDestroy() of a destroyed record make batch throw RecordDestroyed", async () => {
    const item = await AuditItem.create({ name: "a" });
    await item.destroy();
    expect(await thrown(() => batch([item.toSave()]))).toBeInstanceOf(RecordDestroyed);
    expect(await thrown(() => batch([item.toDestroy()]))).toBeInstanceOf(RecordDestroyed);
  });
});
