/** Query events: connect's onQuery, what each event carries, and when it fires. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, type QueryEvent, type D1DatabaseLike, Model, RecordNotUnique } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";
import { rejectionOf } from "../helpers/errors.js";
import { Item } from "../models/runtime-items.js";

beforeEach(resetDatabase);

/**
 * A D1 binding that forwards everything to the real one but reports its own `meta.duration` for each result (local
 * D1 reports 0): 1.5 ms for the first result, 2.5 for the second, and so on, in `durations` as reported.
 */
function timingBinding(d1: D1Database) {
  const durations: number[] = [];
  const report = <T extends D1Result>(result: T): T => {
    const duration = 1.5 + durations.length;
    durations.push(duration);
    return { ...result, meta: { ...result.meta, duration } };
  };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ["run", "all"]) {
      const original = target[method]!;
      target[method] = async (...args: unknown[]) => report((await original.apply(statement, args)) as D1Result);
    }
    const bind = target["bind"]!;
    target["bind"] = (...args: unknown[]) => wrap(bind.apply(statement, args) as D1PreparedStatement);
    return statement;
  };
  const binding: D1DatabaseLike = {
    prepare: (query: string) => wrap(d1.prepare(query)),
    batch: async (statements) => (await d1.batch(statements as D1PreparedStatement[])).map(report) as never,
  };
  return { durations, binding };
}

// ---- connect and query events -------------------------------------------------------------------------

describe("connect and query events", () => {
  it("sends one event per query, with sql, params, durationMs, rowsRead and rowsWritten", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", age: 36 });
    expect(events).toHaveLength(1);
    const insert = events[0]!;
    expect(insert.sql).toMatch(/^INSERT INTO "users"/);
    expect(insert.params).toContain("Ada");
    expect(insert.params).toContain(36);
    expect(insert.params).toContain(user.id);
    expect(typeof insert.durationMs).toBe("number");
    expect(Number.isFinite(insert.durationMs)).toBe(true);
    expect(insert.durationMs).toBeGreaterThanOrEqual(0);
    expect(insert.rowsWritten).toBeGreaterThan(0);
    expect(typeof insert.rowsRead).toBe("number");

    await db.model(User).find(user.id);
    expect(events).toHaveLength(2);
    const select = events[1]!;
    expect(select.sql).toMatch(/^SELECT .* FROM "users"/);
    expect(select.params).toEqual([user.id]);
    expect(select.rowsRead).toBeGreaterThanOrEqual(1);
    expect(select.rowsWritten).toBe(0);
    expect(typeof select.durationMs).toBe("number");
  });

  it("durationMs is the duration D1 reports for each query, alone or in a batch", async () => {
    const { durations, binding } = timingBinding(env.DB);
    const events: QueryEvent[] = [];
    const db = connect(binding, { onQuery: (event) => events.push(event) });
    const user = await db.model(User).create({ name: "Ada" });
    await db.model(User).find(user.id);
    await db.batch([db.model(Counter).toInsert({ label: "a" }), db.model(User).where({ name: "Ada" }).toUpdateAll({ age: 3 })]);
    expect(durations).toEqual([1.5, 2.5, 3.5, 4.5]);
    expect(events.map((event) => event.durationMs)).toEqual(durations);
    expect(events.map((event) => event.batched)).toEqual([false, false, true, true]);
  });

  it("a database with no listener still works, and another database's listener hears nothing of it", async () => {
    const { events } = listen();
    const quiet = connect(env.DB);
    const user = await quiet.model(User).create({ name: "Ada" });
    expect(await quiet.model(User).count()).toBe(1);
    expect(user.isPersisted()).toBe(true);
    expect(events).toHaveLength(0);
  });
});

const AnyContact = Item as any;

// ---- Events ---------------------------------------------------------------------------------------------

describe("Events", () => {
  it("1: 'a query event for each query sent': a query the database refuses still gives its event", async () => {
    const { db, events } = listen();
    await AnyContact.create({ codeValue: "c1" });
    const error = await rejectionOf(db.model(Item as any).create({ codeValue: "c1" }));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^INSERT INTO "srt_items"/);
  });

  it("1: a uniqueness validation's query on a filtered attribute shows [FILTERED], with caseSensitive: false too", async () => {
    class Unique extends Model({ id: { type: "string", null: false, generateId: true }, email: "string", name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.validates("email", { uniqueness: { caseSensitive: false } });
        this.validates("name", { uniqueness: true });
      }
    }
    const { db, events } = listen();
    await db.model(Unique as any).create({ email: "secret@example.com", name: "n" });
    const shown = JSON.stringify(events.map((event) => event.params));
    expect(shown).not.toContain("secret@example.com");
    expect(shown).toContain("[FILTERED]");
  });

  it("2: 'A callback may change the record (for example normalizing an attribute)': the change is written, on create and on an unchanged update", async () => {
    class Normalized extends Model({ id: { type: "string", null: false, generateId: true }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.beforeSave((record: any) => {
          if (typeof record.name === "string") record.name = record.name.trim().toLowerCase();
        });
      }
    }
    const record = await (Normalized as any).create({ name: "  MIXED " });
    expect((await (Normalized as any).find(record.id)).name).toBe("mixed");
    await env.DB.prepare(`UPDATE srt_items SET name = 'UPPER' WHERE id = ?`).bind(record.id).run();
    await record.reload();
    expect(await record.save()).toBe(true);
    expect((await (Normalized as any).find(record.id)).name).toBe("upper");
  });

  it("3: 'save, create, update run validations then save callbacks': a failing validation runs no save callback", async () => {
    const calls: string[] = [];
    class Ordered extends Model({ id: { type: "string", null: false, generateId: true }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.validates("name", { presence: true });
        this.beforeSave((record: any) => void calls.push(`beforeSave errors=${record.errors.size}`));
      }
    }
    const record = (Ordered as any).build({ name: "" });
    expect(await record.save()).toBe(false);
    expect(calls).toEqual([]);
    expect(await record.update({ name: "ok" })).toBe(true);
    expect(calls).toEqual(["beforeSave errors=0"]);
  });
});

// ---- Query events ---------------------------------------------------------------------------------------------

describe("guide: Query events", () => {
  it("gives the event shown", async () => {
    const events: QueryEvent[] = [];
    const db = connect(env.DB, { onQuery: (event) => events.push(event) });
    await db.model(User).create({ name: "Ada", email: "ada@example.com" });
    const event = events[0]!;
    expect(event.sql).toBe(
      `INSERT INTO "users" ("id", "name", "email", "admin", "created_at", "updated_at") VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING *`,
    );
    expect(event.params.slice(1, 4)).toEqual(["Ada", "[FILTERED]", 0]);
    expect(event.params[4]).toMatch(/^2\d{3}-.*Z$/);
    expect(event.batched).toBe(false);
    expect(event.rowsRead).toBe(1);
    expect(event.rowsWritten).toBe(3);
    expect(typeof event.durationMs).toBe("number");
    expect("error" in event).toBe(false);
  });

  it("a failed query emits its event with error set to the thrown error", async () => {
    const { db, events } = listen();
    await db.model(User).create({ name: "Ada", email: "ada@example.com" });
    const error = await rejectionOf(db.model(User).create({ name: "B", email: "ada@example.com" }));
    expect(events.at(-1)!.error).toBe(error);
  });
});

describe("guide: Query events, prose claims", () => {
  it("a filtered primary key shows [FILTERED] in an UPDATE; batch events come flagged batched", async () => {
    class Sess extends Model({ token: { type: "string", null: false }, userName: "string" }) {
      static override binding = "DB";
      static override primaryKey = "token";
      static override tableName = "sessions";
    }
    const { db, events } = listen();
    const s = await db.model(Sess).createOrThrow({ token: "t1", userName: "a" });
    await s.update({ userName: "b" });
    expect(events.at(-1)!.params).toEqual(["b", "[FILTERED]"]);
    events.length = 0;
    await db.batch([db.model(User).toInsert({ name: "x" }), db.model(User).toInsert({ name: "y" })]);
    expect(events.map((e) => e.batched)).toEqual([true, true]);
  });

  it("a failed batch: every statement's event carries the error", async () => {
    const { db, events } = listen();
    await db.model(User).createOrThrow({ name: "a", email: "a@x.org" });
    events.length = 0;
    const error = await rejectionOf(db.batch([db.model(User).toInsert({ name: "b" }), db.model(User).toInsert({ name: "c", email: "a@x.org" })]));
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.error === error)).toBe(true);
  });
});
