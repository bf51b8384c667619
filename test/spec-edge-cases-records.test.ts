/**
 * Edge cases of SPEC.md's record sections not covered elsewhere: "Model", "Attribute declarations and types", "Overrides", "Casting of assigned
 * values", "Record" 1-10, "Errors collection", "States and transitions", "Building and creating", "Persistence",
 * "Change tracking", and "Events" item 1. Tables: test/fixtures/migrations/0011_audit_records.sql.
 */
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActiveRecord,
  batch,
  between,
  defineApplicationRecord,
  gt,
  hasMany,
  MissingAttribute,
  Model,
  RecordDestroyed,
  UnknownAttribute,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { thrown } from "./helpers/errors.js";
import { listen } from "./helpers/queries.js";
import { ApplicationBase } from "./models/fixtures.js";

beforeEach(resetDatabase);

class AuditItem extends Model({
  id: "string",
  name: "string",
  email: "string",
  qty: "integer",
  price: "real",
  flag: "boolean",
  kind: "string",
  happenedAt: "datetime",
  data: "json",
  createdAt: "datetime",
  updatedAt: "datetime",
}) {
  static override binding = "DB";
  static override tableName = "audit_r_items";
}

const auditSchema = {
  audit_r_items: {
    id: { type: "string", null: false, generateId: true },
    name: "string",
    email: "string",
    qty: "integer",
    price: "real",
    flag: "boolean",
    kind: { type: "string", null: false, default: "plain" },
    happenedAt: "datetime",
    data: "json",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
  audit_r_keyed: {
    token: { type: "string", null: false },
    id: "string",
    label: "string",
  },
} as const;

const AuditRecord = defineApplicationRecord(auditSchema, ApplicationBase);

/** Items whose foreign key is filtered (its name has "secret"), and their owner with no association. */
class SecretItem extends Model({ id: "string", secretVaultId: "string", label: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_r_secret_items";
}

class PlainVault extends Model({ id: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_r_vaults";
}

describe("edge cases once missed", () => {
  // SPEC States and transitions: "Destroyed | any attribute assignment, save, update, destroy, reload | always | Destroyed |
  // throws RecordDestroyed"; Errors: "RecordDestroyed | a destroyed record is changed, ...".
  it("restoreAttributes() on a destroyed record throws RecordDestroyed and changes nothing", async () => {
    const item = await AuditItem.create({ name: "a" });
    item.name = "b";
    await item.destroy();
    const error = await thrown(() => item.restoreAttributes());
    expect(error).toBeInstanceOf(RecordDestroyed);
    expect(item.name).toBe("b");
  });

  // SPEC Overrides: "{ type?, null?, default?, generateId? } | Replaces those parts of the generated attribute".
  it("override { generateId: false } keeps the generated default", () => {
    class Item extends AuditRecord("audit_r_items", { kind: { generateId: false } }) {}
    expect(Item.build().kind).toBe("plain");
  });

  // SPEC Overrides rule 1: "... ignoring the primary key throws InvalidModel" (only the primary key).
  it("a column named id may be ignored when the Model's primaryKey is another attribute", async () => {
    class Keyed extends AuditRecord("audit_r_keyed", { id: false }) {
      static override primaryKey = "token";
    }
    const keyed = await Keyed.create({ token: "t1", label: "x" });
    expect(keyed.isPersisted()).toBe(true);
    expect(Object.keys(keyed.attributes())).toEqual(["token", "label"]);
  });

  // SPEC Model, table naming: "pluralized by English rules with their quirks"; ARCHITECTURE.md: "The Rails rule set is
  // the reference for every other word too". Rails: "blog_sheep".pluralize == "blog_sheeps" (uncountable regex is
  // /\bsheep\Z/i, and "_" is a word character).
  it("a compound name ending in an uncountable word is pluralized as Rails does", () => {
    class BlogSheep extends Model({ id: "string" }) {}
    expect(BlogSheep.tableName).toBe("blog_sheeps");
  });

  // SPEC Record 6: "a save with no change sends nothing" (vs. Validations: "Validations run on every save").
  it("a save with no change sends nothing, even with a uniqueness validation", async () => {
    class UniqueItem extends AuditItem {
      static {
        this.validates("name", { uniqueness: true });
      }
    }
    const { db, events } = listen();
    const item = await db.model(UniqueItem).create({ name: "a" });
    events.length = 0;
    expect(await item.save()).toBe(true);
    expect(events.map((e) => e.sql)).toEqual([]);
    // A changed value is checked again.
    await UniqueItem.create({ name: "b" });
    item.name = "b";
    expect(await item.save()).toBe(false);
    expect(item.errors.fullMessages()).toEqual(["Name has already been taken"]);
    expect(events[0]!.sql).toMatch(/^SELECT 1 AS one FROM "audit_r_items" WHERE "name" = \?/);
  });

  // SPEC Model: "filterAttributes | (string or RegExp)[] | Attributes whose values show as [FILTERED] ...".
  it("a filterAttributes RegExp with the g flag filters every matching attribute", async () => {
    class GItem extends Model({ id: "string", apiToken: "string", otherToken: "string" }) {
      static override tableName = "g_items";
      static override filterAttributes = [/Token/g];
    }
    const item = GItem.build({ apiToken: "a-secret", otherToken: "b-secret" });
    expect(String(item)).not.toContain("a-secret");
    expect(String(item)).not.toContain("b-secret");
  });

  // SPEC Errors: "MissingAttribute | an attribute not loaded by select is read, including in validators and callbacks".
  it("attributeWas() of an attribute not loaded by select throws MissingAttribute", async () => {
    await AuditItem.create({ name: "a", email: "e" });
    const partial = await AuditItem.select("name").first();
    const error = await thrown(() => partial!.attributeWas("email"));
    expect(error).toBeInstanceOf(MissingAttribute);
  });
});

describe("edge cases that hold", () => {
  it("datetime text with more than 3 fractional digits is accepted", () => {
    expect(AuditItem.build({ happenedAt: "2024-03-15T10:20:30.123456Z" }).happenedAt?.toISOString()).toBe("2024-03-15T10:20:30.123Z");
  });

  it("filterAttributes set on the app's base class is inherited by Models", async () => {
    class Base2 extends ActiveRecord {
      static override binding = "DB";
      static override filterAttributes = ["name"];
    }
    const Rec = defineApplicationRecord(auditSchema, Base2);
    class Item extends Rec("audit_r_items") {}
    const { db, events } = listen();
    await db.model(Item).create({ name: "secret-name", email: "e@x" });
    expect(events[0]!.params).not.toContain("secret-name");
    expect(events[0]!.params).toContain("e@x");
  });

  it("a filtered foreign key shows [FILTERED] in association loads, preloads and dependent destroys", async () => {
    class Vault extends PlainVault {
      items = hasMany(SecretItem, { foreignKey: "secretVaultId", dependent: "destroy" });
    }
    const { db, events } = listen();
    const vault = await db.model(Vault).create({ name: "v" });
    await db.model(SecretItem).create({ secretVaultId: vault.id, label: "l" });
    events.length = 0;
    await vault.items().toArray();
    await db.model(Vault).includes("items").toArray();
    await vault.destroy();
    const child = events.filter((event) => event.sql.includes("audit_r_secret_items"));
    expect(child.length).toBeGreaterThan(0);
    for (const event of child) expect(JSON.stringify(event.params), event.sql).not.toContain(vault.id);
  });

  it("printing shows a changed json attribute with (was <old>)", async () => {
    const item = await AuditItem.create({ name: "a", data: { x: 1 } });
    item.data = { x: 2 };
    expect(inspect(item)).toContain('data: {"x":2} (was {"x":1})');
  });

  it("destroy() refused by a database constraint throws, and the record stays Persisted", async () => {
    // users/posts have a foreign key
    const { User, Post } = await import("./models/fixtures.js");
    const user = await User.create({ name: "Ada" });
    await Post.create({ userId: user.id, title: "t" });
    const error = await thrown(() => user.destroy());
    expect(error).toBeInstanceOf(Error);
    expect(user.isPersisted()).toBe(true);
  });

  it("conditions and ordering name attributes: a column name throws UnknownAttribute", async () => {
    expect(() => AuditItem.where({ happened_at: "2024-01-01" } as never)).toThrow(UnknownAttribute);
    expect(() => AuditItem.order({ happened_at: "asc" } as never)).toThrow(UnknownAttribute);
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

  it("printing a Relation sends no query", async () => {
    const { db, events } = listen();
    const text = inspect(db.model(AuditItem).where({ name: "x" }));
    expect(text).toContain("SELECT");
    expect(events).toHaveLength(0);
  });

  it("filtered values are hidden in insert, upsert, exists, paginate, pluck, count, whereNot, or, updateAll, deleteAll and comparisons", async () => {
    const { db, events } = listen();
    const Items = db.model(AuditItem);
    await Items.insert({ name: "n", email: "s1@x" });
    await Items.upsert({ id: "u1", name: "n", email: "s2@x" });
    await Items.exists({ email: "s3@x" });
    await Items.where({ email: "s4@x" }).paginate({ page: 1 });
    await Items.where({ email: "s5@x" }).pluck("name");
    await Items.where({ email: "s6@x" }).count();
    await Items.whereNot({ email: "s7@x" }).toArray();
    await Items.where({ name: "z" }).or(Items.where({ email: "s8@x" })).toArray();
    await Items.where({ email: ["s9@x", "s10@x"] }).updateAll({ email: "s11@x" });
    await Items.where({ email: "s12@x" }).deleteAll();
    await Items.where({ email: gt("s13@x") }).toArray();
    await Items.where({ email: between("s14@x", "s15@x") }).toArray();
    const text = JSON.stringify(events.map((event) => event.params));
    expect(text).not.toMatch(/s\d+@x/);
  });

  it("a default function gives each record its own json value", () => {
    class D extends Model({ id: "string", data: { type: "json", default: () => ({ list: [] as number[] }) } }) {
      static override tableName = "d_items";
    }
    const a = D.build();
    (a.data as { list: number[] }).list.push(1);
    expect(D.build().data).toEqual({ list: [] });
  });

  it("update() on a New record that fails validation returns false and leaves it New", async () => {
    class V extends AuditItem {
      static {
        this.validates("name", { presence: true });
      }
    }
    const item = V.build();
    expect(await item.update({ qty: 1 })).toBe(false);
    expect(item.isNewRecord()).toBe(true);
    expect(item.errors.fullMessages()).toEqual(["Name can't be blank"]);
  });

  it("an association declared on a subclass never reaches its parent", async () => {
    class RichVault extends PlainVault {
      items = hasMany(SecretItem, { foreignKey: "secretVaultId" });
    }
    await PlainVault.create({ name: "v" });
    expect((await RichVault.includes("items").toArray()).length).toBe(1);
    const error = await thrown(() => PlainVault.includes("items" as never).toArray());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("items is not an association of PlainVault");
  });

  it("toSave() and toDestroy() of a destroyed record make batch throw RecordDestroyed", async () => {
    const item = await AuditItem.create({ name: "a" });
    await item.destroy();
    expect(await thrown(() => batch([item.toSave()]))).toBeInstanceOf(RecordDestroyed);
    expect(await thrown(() => batch([item.toDestroy()]))).toBeInstanceOf(RecordDestroyed);
  });

  it("a filtered primary key shows [FILTERED] in find([ids]) and reload() events", async () => {
    class Keyed extends Model({ token: "string", id: "string", label: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_r_keyed";
      static override primaryKey = "token";
    }
    const { db, events } = listen();
    await db.model(Keyed).create({ token: "tok-a1" });
    await db.model(Keyed).create({ token: "tok-a2" });
    events.length = 0;
    await db.model(Keyed).find(["tok-a1", "tok-a2"]);
    const rec = await db.model(Keyed).find("tok-a1");
    await rec.reload();
    expect(JSON.stringify(events.map((e) => e.params))).not.toContain("tok-a");
  });
});
