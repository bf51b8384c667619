import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  connect,
  withDatabase,
  abort,
  Model,
  RecordNotFound,
  RecordNotUnique,
  UnknownAttribute,
  RecordDestroyed,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Counter, User, Post } from "../models/fixtures.js";
import { inspect } from "node:util";
import { thrown } from "../helpers/errors.js";
import { ItemApplicationRecord, Item } from "../models/typed-items.js";
import { stateOf, NEW, PERSISTED } from "../helpers/record-states.js";
import { AuditItem } from "../models/audit-items.js";

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
        "INSERT INTO "users" ("id", "name", "email", "age", "admin", "created_at", "updated_at") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING *",
        "SELECT * FROM "users" WHERE "id" = ?1 LIMIT 1",
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

describe("records", () => {
  it("1: unassigned attributes read as null, are not written on insert; after insert the record holds what the database stored", async () => {
    class Bare extends ItemApplicationRecord("sar_items", { kind: { default: undefined } }) {}
    const { db, events } = listen();
    const record = db.model(Bare).build({ name: "a" });
    expect(record.kind).toBe("plain"); // the generated default, kept
    class Unset extends Model({ id: "string", name: "string", kind: "string", qty: "integer", createdAt: "datetime" }) {
      static override tableName = "sar_items";
    }
    const unset = db.model(Unset).build({ name: "a" });
    expect(unset.kind).toBeNull();
    expect(unset.qty).toBeNull();
    await unset.save();
    const insert = events.at(-1)!;
    expect(insert.sql).not.toContain('"kind"');
    expect(insert.sql).not.toContain('"qty"');
    expect(unset.kind).toBe("plain");
    expect(unset.qty).toBe(1);
    expect(unset.createdAt).toBeInstanceOf(Date);
    expect(unset.isChanged()).toBe(false);
  });

  it("2: defaults and generated ids are applied at build(), so a key exists before saving", () => {
    const item = Item.build();
    expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(item.kind).toBe("plain");
    expect(item.qty).toBe(1);
  });

  it("2: an object given as a default is copied at each build(), so records never share one", () => {
    const tags = ["a"];
    const start = new Date(0);
    class Tagged extends Model({ id: "string", tags: { type: "json", default: tags }, startsAt: { type: "datetime", default: start } }) {}
    const first = Tagged.build();
    (first.tags as string[]).push("b");
    first.startsAt!.setTime(5);
    const second = Tagged.build();
    expect(second.tags).toEqual(["a"]);
    expect(second.startsAt).toEqual(new Date(0));
    expect(tags).toEqual(["a"]);
    expect(start.getTime()).toBe(0);
  });

  it("3: unknown attribute names throw UnknownAttribute everywhere", async () => {
    const item = await Item.create({ name: "a" });
    expect(() => Item.build({ nope: 1 } as never)).toThrow(UnknownAttribute);
    expect(() => item.assign({ nope: 1 } as never)).toThrow(UnknownAttribute);
    expect(() => item.writeAttribute("nope" as never, 1 as never)).toThrow(UnknownAttribute);
    expect(() => item.readAttribute("nope" as never)).toThrow(UnknownAttribute);
    expect(() => Item.permit({}, "nope" as never)).toThrow(UnknownAttribute);
    expect(await thrown(() => item.update({ nope: 1 } as never))).toBeInstanceOf(UnknownAttribute);
    expect(await thrown(() => Item.create({ nope: 1 } as never))).toBeInstanceOf(UnknownAttribute);
    for (const call of [
      () => item.attributeWas("nope" as never),
      () => item.isAttributeChanged("nope" as never),
      () => item.willSaveChangeTo("nope" as never),
      () => item.savedChangeTo("nope" as never),
      () => item.hasSavedChangeTo("nope" as never),
      () => item.attributeBeforeLastSave("nope" as never),
      () => item.restoreAttributes("nope" as never),
    ]) {
      expect(call).toThrow(UnknownAttribute);
    }
    // An unknown name with a bad value: the name is reported first, nothing set.
    expect(() => item.assign({ name: "b", nope: undefined } as never)).toThrow(UnknownAttribute);
    expect(item.name).toBe("a");
  });

  it("4: a record made with new has no database; build() keeps the current one", async () => {
    const { db, events } = listen();
    const built = db.model(Item).build({ name: "a" });
    await built.save();
    expect(events).toHaveLength(1);
    const fresh = new Item();
    expect(fresh.isNewRecord()).toBe(true);
  });

  it("5: timestamps set on creation; updatedAt on a changing save only; assigned ones kept", async () => {
    const item = await Item.create({ name: "a" });
    expect(item.createdAt).toBeInstanceOf(Date);
    expect(item.updatedAt!.getTime()).toBe(item.createdAt!.getTime());
    const stamp = item.updatedAt!.getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await item.save();
    expect(item.updatedAt!.getTime()).toBe(stamp);
    await item.update({ name: "b" });
    expect(item.updatedAt!.getTime()).toBeGreaterThan(stamp);
    const given = new Date("2001-01-01T00:00:00Z");
    const kept = await Item.create({ name: "c", createdAt: given, updatedAt: given });
    expect(kept.createdAt!.toISOString()).toBe(given.toISOString());
    expect(kept.updatedAt!.toISOString()).toBe(given.toISOString());
    await kept.update({ name: "d", updatedAt: "2002-02-02" });
    expect(kept.updatedAt!.toISOString()).toBe("2002-02-02T00:00:00.000Z");
  });

  it("6: editing json or a Date in place counts as a change, and the update writes only it", async () => {
    const item = await Item.create({ name: "a", data: { list: [1] }, happenedAt: "2024-01-01" });
    const loaded = await Item.find(item.id);
    (loaded.data as { list: number[] }).list.push(2);
    expect(loaded.isChanged()).toBe(true);
    expect(loaded.changed()).toEqual(["data"]);
    expect(loaded.changes()).toEqual({ data: [{ list: [1] }, { list: [1, 2] }] });
    loaded.happenedAt!.setUTCFullYear(2030);
    expect(loaded.changed()).toEqual(["happenedAt", "data"]);
    expect(loaded.attributeWas("happenedAt")).toEqual(new Date("2024-01-01T00:00:00Z"));
    const { db, events } = listen();
    const bound = await db.model(Item).find(item.id);
    (bound.data as { list: number[] }).list.push(3);
    await bound.save();
    const update = events.at(-1)!;
    expect(update.sql).toMatch(/^UPDATE "sar_items" SET "data" = \?1, "updated_at" = \?2 WHERE "id" = \?3$/);
    expect((await Item.find(item.id)).data).toEqual({ list: [1, 3] });
    expect(bound.isChanged()).toBe(false);
    (bound.data as { list: number[] }).list.push(4);
    expect(bound.isChanged()).toBe(true);
    events.length = 0;
    bound.restoreAttributes();
    await bound.save();
    expect(events).toHaveLength(0);
  });

  it("6: in-place edits of a record just created count too", async () => {
    const item = await Item.create({ data: { a: 1 }, happenedAt: "2024-01-01" });
    (item.data as { a: number }).a = 2;
    item.happenedAt!.setUTCDate(5);
    expect(item.changed()).toEqual(["happenedAt", "data"]);
    await item.save();
    const again = await Item.find(item.id);
    expect(again.data).toEqual({ a: 2 });
    expect(again.happenedAt!.toISOString()).toBe("2024-01-05T00:00:00.000Z");
  });

  it("7: toJSON gives ISO dates and omits hidden; attributes() gives Dates and ignores hidden", () => {
    class HiddenItem extends ItemApplicationRecord("sar_items") {
      static override hiddenAttributes = ["name"];
    }
    const item = HiddenItem.build({ name: "n", happenedAt: "2024-01-01", data: { d: 1 } });
    const json = item.toJSON();
    expect(json).not.toHaveProperty("name");
    expect(json["happenedAt"]).toBe("2024-01-01T00:00:00.000Z");
    expect(json["data"]).toEqual({ d: 1 });
    expect(JSON.parse(JSON.stringify(item))).toEqual(json);
    const attributes = item.attributes();
    expect(attributes["name"]).toBe("n");
    expect(attributes["happenedAt"]).toBeInstanceOf(Date);
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
  });

  it("8: printing with node:util inspect and String", async () => {
    const item = await Item.create({ name: "a", email: "secret@x", data: { k: 1 }, happenedAt: "2024-01-01" });
    item.name = "b";
    item.email = "other@x";
    item.happenedAt!.setUTCFullYear(2025);
    for (const text of [inspect(item), String(item), `${item}`]) {
      expect(text).toMatch(/^#<Item /);
      expect(text).toContain('name: "b" (was "a")');
      expect(text).toContain("email: [FILTERED] (changed)");
      expect(text).toContain("happenedAt: 2025-01-01T00:00:00.000Z (was 2024-01-01T00:00:00.000Z)");
      expect(text).not.toContain("secret@x");
      expect(text).not.toContain("other@x");
    }
    const fresh = Item.build({ name: "n", email: "e@x" });
    expect(String(fresh)).not.toContain("(was");
    expect(String(fresh)).not.toContain("(changed)");
    expect(String(fresh)).toContain("email: [FILTERED]");
  });

  it("8: a partial record prints (changed) for unloaded columns; errors print each failure; hidden attributes print", async () => {
    await Item.create({ name: "a", email: "e@x" });
    const partial = await Item.select("name").first();
    expect(String(partial)).toContain("qty: (changed)");
    class Hiding extends ItemApplicationRecord("sar_items") {
      static override hiddenAttributes = ["name"];
      static {
        this.validates("code", { presence: true });
        this.validates("kind", { length: { minimum: 10 } });
      }
    }
    const hiding = Hiding.build({ name: "shown" });
    expect(String(hiding)).toContain('name: "shown"');
    await hiding.save();
    expect(inspect(hiding.errors)).toContain("Code can't be blank");
    expect(inspect(hiding.errors)).toContain("Kind is too short");
    expect(String(hiding.errors)).toContain("Code can't be blank");
    expect(String(hiding.errors)).toContain("Kind is too short");
  });

  it("9: a subclass inherits a copy; declaring more on the child never changes the parent", async () => {
    class Parent extends ItemApplicationRecord("sar_items") {
      static {
        this.validates("name", { presence: true });
      }
    }
    class Child extends Parent {
      static {
        this.validates("code", { presence: true });
        this.beforeSave(() => {
          throw abort("child");
        });
      }
    }
    expect(await Parent.build({ name: "a" }).save()).toBe(true);
    const child = Child.build({ name: "a", code: "c" });
    expect(await child.save()).toBe(false);
    expect(child.abortReason).toBe("child");
    const invalid = Child.build();
    await invalid.save();
    expect(invalid.errors.fullMessages()).toEqual(["Name can't be blank", "Code can't be blank"]);
  });
});

describe("persistence", () => {
  it("a unique constraint throws RecordNotUnique from save, update, create and createOrThrow; state kept", async () => {
    await Item.create({ code: "dup" });
    const record = Item.build({ code: "dup" });
    const error = await thrown(() => record.save());
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(stateOf(record)).toEqual(NEW);
    expect(record.createdAt).toBeNull();
    expect(await thrown(() => Item.create({ code: "dup" }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.createOrThrow({ code: "dup" }))).toBeInstanceOf(RecordNotUnique);
    const other = await Item.create({ code: "other" });
    expect(await thrown(() => other.update({ code: "dup" }))).toBeInstanceOf(RecordNotUnique);
    expect(stateOf(other)).toEqual(PERSISTED);
    expect(other.changed()).toEqual(["code"]);
    expect(await thrown(() => other.saveOrThrow())).toBeInstanceOf(RecordNotUnique);
  });

  it("a non-abort error from a callback propagates from save; the record stays New", async () => {
    class Throwing extends Item {
      static {
        this.beforeSave(() => {
          throw new RangeError("boom");
        });
      }
    }
    const record = Throwing.build({ name: "a" });
    expect(await thrown(() => record.save())).toBeInstanceOf(RangeError);
    expect(stateOf(record)).toEqual(NEW);
  });

  it("toSave() and toDestroy() have no toSql()", async () => {
    const record = await Item.create({ name: "a" });
    expect("toSql" in record.toSave()).toBe(false);
    expect("toSql" in record.toDestroy()).toBe(false);
  });

  it("RecordNotFound messages hide a filtered primary key", async () => {
    class Keyed extends Model({ token: "string", label: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_r_keyed";
      static override primaryKey = "token";
    }
    const error = await thrown(() => Keyed.find("tok-secret-1"));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect((error as Error).message).not.toContain("tok-secret-1");
  });
});

describe("more record probes", () => {
  it("ApplicationRecord({...}) declares by hand below the app's base class (its binding); column maps to another column", async () => {
    class Strict extends ItemApplicationRecord({ id: "string", title: { type: "string", column: "label" }, note: "string" }) {
      static override tableName = "sar_strict";
    }
    const { db, events } = listen();
    const record = await db.model(Strict).create({ title: "t" });
    expect(events[0]!.sql).toContain('"label"');
    expect(record.title).toBe("t");
    expect(record.toJSON()).toEqual({ id: record.id, title: "t", note: null });
    expect((await Strict.findBy({ title: "t" }))?.id).toBe(record.id);
    expect(await Strict.order({ title: "desc" }).pluck("title")).toEqual(["t"]);
  });

  it("records of a bound Model, and built from a Relation, print their class", async () => {
    await Item.create({ name: "a" });
    const { db } = listen();
    expect(String(await db.model(Item).first())).toMatch(/^#<Item /);
    expect(inspect(db.model(Item).where({ name: "a" }).build())).toMatch(/^#<Item /);
  });

  it("assigning a value whose stored form is unchanged is no change (integer text, boolean text, date text)", async () => {
    const item = await Item.create({ qty: 5, flag: true, happenedAt: "2024-01-01", price: 1.5 });
    const loaded = await Item.find(item.id);
    loaded.assign({ qty: " 5 ", flag: "on", happenedAt: "2024-01-01T00:00:00Z", price: "1.5" });
    expect(loaded.isChanged()).toBe(false);
    loaded.happenedAt = "2024-01-01T01:00:00+01:00" as never;
    expect(loaded.isChanged()).toBe(false);
  });

  it("an error thrown by an after-save callback propagates from save; the row is written and the record Persisted", async () => {
    class AfterThrows extends Item {
      static {
        this.afterSave(() => {
          throw new RangeError("after");
        });
      }
    }
    const record = AfterThrows.build({ name: "a" });
    expect(await thrown(() => record.save())).toBeInstanceOf(RangeError);
    expect(stateOf(record)).toEqual(PERSISTED);
    expect(await Item.all().count()).toBe(1);
  });

  it("a create refused by a unique constraint can be saved once fixed, stamping anew", async () => {
    await Item.create({ code: "dup" });
    const record = Item.build({ code: "dup" });
    await thrown(() => record.save());
    record.code = "fresh";
    expect(await record.save()).toBe(true);
    expect(stateOf(record)).toEqual(PERSISTED);
    expect(record.createdAt).toBeInstanceOf(Date);
  });
});

describe("records loaded by select", () => {
  it("an in-place edit of a loaded json or Date is saved; reload loads every attribute", async () => {
    const item = await Item.create({ name: "a", qty: 3, data: { k: [1] }, happenedAt: "2024-01-01" });
    const partial = (await Item.select("data", "happenedAt").first())!;
    (partial.data as { k: number[] }).k.push(2);
    partial.happenedAt!.setUTCMonth(5);
    expect(partial.changed()).toEqual(["happenedAt", "data"]);
    expect(String(partial)).toContain('data: {"k":[1,2]} (was {"k":[1]})');
    expect(await partial.save()).toBe(true);
    const stored = await Item.find(item.id);
    expect(stored.data).toEqual({ k: [1, 2] });
    expect(stored.happenedAt!.toISOString()).toBe("2024-06-01T00:00:00.000Z");
    expect(stored.qty).toBe(3);
    await partial.reload();
    expect(partial.qty).toBe(3);
    expect(String(partial)).not.toContain("(changed)");
  });
});

// ---- Quick start ----------------------------------------------------------------------------------------------

describe("guide: Quick start (the Worker)", () => {
  interface Env {
    DB: D1Database;
  }

  const worker = {
    async fetch(request, env): Promise<Response> {
      const db = connect(env.DB, {
        onQuery: (event) => void `${event.sql} ${JSON.stringify(event.params)} ${event.durationMs}ms`,
      });
      return withDatabase(db, async () => {
        const url = new URL(request.url);
        if (request.method === "POST" && url.pathname === "/users") {
          const attributes = User.permit(await request.formData(), "name", "email", "age");
          const user = await User.createOrThrow(attributes);
          return Response.json(user, { status: 201 });
        }
        const page = await User.order({ createdAt: "desc" }).paginate({ page: url.searchParams.get("page") });
        return Response.json(page);
      });
    },
  } satisfies ExportedHandler<Env>;

  it("creates from a form (admin cannot come in) and lists a page", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("age", "36");
    form.set("admin", "true");
    const created = await worker.fetch(new Request("https://x/users", { method: "POST", body: form }), { DB: env.DB });
    expect(created.status).toBe(201);
    const json = (await created.json()) as Record<string, unknown>;
    expect(json["name"]).toBe("Ada");
    expect(json["age"]).toBe(36);
    expect(json["admin"]).toBe(false);
    const listed = await worker.fetch(new Request("https://x/"), { DB: env.DB });
    const page = (await listed.json()) as { records: { name: string }[]; page: number; total: number };
    expect(page.records.map((r) => r.name)).toEqual(["Ada"]);
    expect(page.page).toBe(1);
    expect(page.total).toBe(1);
  });
});

// ---- Records --------------------------------------------------------------------------------------------------

describe("guide: Records", () => {
  it("States: runs the example (reload, updateOrThrow, destroyOrThrow, RecordDestroyed)", async () => {
    const draft = User.build({ name: "Ada" });
    expect(draft.isNewRecord()).toBe(true);
    await expect(draft.reload()).rejects.toBeInstanceOf(RecordNotFound);
    await draft.saveOrThrow();
    expect(draft.isPersisted()).toBe(true);

    draft.name = "Ada L.";
    await draft.reload();
    expect(draft.name).toBe("Ada");
    expect(draft.isChanged()).toBe(false);

    expect(await draft.updateOrThrow({ age: 36 })).toBe(true);
    expect(await draft.destroyOrThrow()).toBe(draft);
    expect(draft.isDestroyed()).toBe(true);
    expect(draft.name).toBe("Ada");
    expect(() => {
      draft.name = "Grace";
    }).toThrow(RecordDestroyed);
    expect(() => {
      draft.name = "Grace";
    }).toThrow("User is destroyed and cannot be changed");
  });

  it("creates, updates with the SQL shown, destroys", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const user = await User.create({ name: "Ada", email: "ada@example.com" });
      expect(user.isPersisted()).toBe(true);
      expect(user.id).toMatch(/^[0-9a-f]{8}-/);
      await user.update({ age: 36 });
      expect(sqls().at(-1)).toBe(`UPDATE "users" SET "age" = ?1, "updated_at" = ?2 WHERE "id" = ?3`);
      user.age = 37;
      await user.saveOrThrow();
      const destroyed = await user.destroy();
      expect(destroyed).toBe(user);
      expect(user.isDestroyed()).toBe(true);
      expect(user.name).toBe("Ada");
      await expect(user.save()).rejects.toBeInstanceOf(RecordDestroyed);
    });
  });

  it("a Relation builds records with its equality conditions; has create and createOrThrow", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    const post = Post.where({ userId: user.id }).build({ title: "Hi" });
    expect(post.userId).toBe(user.id);
    const created = await Post.where({ userId: user.id }).createOrThrow({ title: "Hi" });
    expect(created.userId).toBe(user.id);
  });

  it("reload of a never-saved record throws RecordNotFound; destroying a never-saved record sends no DELETE", async () => {
    const { db, sqls } = listen();
    const draft = db.model(User).build({ name: "Ada" });
    await expect(draft.reload()).rejects.toBeInstanceOf(RecordNotFound);
    expect(await draft.destroy()).toBe(draft);
    expect(draft.isDestroyed()).toBe(true);
    expect(sqls()).toEqual([]);
  });

  it("errors: fullMessages of a base entry shows the message alone; iterable; JSON of its entries", () => {
    const user = User.build({ name: "x" });
    user.errors.add("base", "custom", "Something is wrong");
    user.errors.add("name", "blank", "can't be blank");
    expect(user.errors.fullMessages()).toEqual(["Something is wrong", "Name can't be blank"]);
    expect(user.errors.size).toBe(2);
    expect([...user.errors]).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(user.errors))).toEqual(user.errors.toArray());
  });
});

describe("edge cases that hold", () => {
  it("new <Model>() makes an empty record; attributes given to it are a TypeError saying to use build, never dropped", () => {
    expect(new User().name).toBeNull();
    const Given = User as unknown as new (attributes: object) => unknown;
    expect(() => new Given({ name: "Ada" })).toThrow(new TypeError("new User takes no argument; use User.build(attributes)"));
  });

  it("changing the primary key of a persisted record updates the row found by its old key", async () => {
    const item = await AuditItem.create({ name: "a" });
    const old = item.id;
    item.id = "new-key";
    await item.save();
    expect(await AuditItem.findBy({ id: old })).toBeNull();
    await item.update({ name: "b" });
    expect((await AuditItem.find("new-key")).name).toBe("b");
    await item.reload();
    await item.destroy();
    expect(await AuditItem.findBy({ id: "new-key" })).toBeNull();
  });
});
