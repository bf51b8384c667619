/**
 * Black-box probes of SPEC.md's record sections: "Model", "Attribute declarations and types", "Overrides", "Casting
 * of assigned values", "Record" 1-10, "Errors collection", "States and transitions", "Building and creating",
 * "Persistence", "Change tracking" and the rows of the "Errors" table about them. Each test quotes the sentence it
 * checks. Tables: test/fixtures/migrations/0016_spec_audit_records.sql.
 */
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  ActiveRecord,
  hasMany,
  defineApplicationRecord,
  InvalidModel,
  MissingAttribute,
  Model,
  RecordDestroyed,
  RecordInvalid,
  RecordNotFound,
  RecordNotSaved,
  RecordNotUnique,
  UnknownAttribute,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { thrown } from "./helpers/errors.js";
import { listen } from "./helpers/queries.js";
import { ApplicationRecord as FixtureRecord, Post, User } from "./models/fixtures.js";

beforeEach(resetDatabase);

class AppBase extends ActiveRecord {
  static override binding = "DB";
}

const schema = {
  sar_items: {
    id: { type: "string", null: false, generateId: true },
    name: "string",
    email: "string",
    qty: { type: "integer", default: 1 },
    price: "real",
    flag: "boolean",
    kind: { type: "string", null: false, default: "plain" },
    happenedAt: "datetime",
    data: "json",
    code: "string",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
  sar_strict: {
    id: { type: "string", null: false, generateId: true },
    label: { type: "string", null: false },
    note: "string",
  },
} as const;

const ApplicationRecord = defineApplicationRecord(schema, AppBase);

class Item extends ApplicationRecord("sar_items") {}

/** The TypeError a function throws, with its message. */
function typeError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error("expected a TypeError");
}

describe("casting", () => {
  it("a filtered attribute's uncastable value is hidden in permit, update and setter errors too", async () => {
    const item = await Item.create({ name: "a" });
    expect(typeError(() => (item.email = 98765 as never))).not.toContain("98765");
    expect((await thrown(() => item.update({ email: 98765 as never })) as Error).message).not.toContain("98765");
    expect(typeError(() => Item.permit({ email: 98765 }, "email"))).not.toContain("98765");
  });

  it("undefined throws TypeError everywhere a value is assigned (use null for NULL)", async () => {
    const item = await Item.create({ name: "a" });
    typeError(() => Item.build({ name: undefined }));
    typeError(() => item.assign({ name: undefined }));
    typeError(() => (item.name = undefined as never));
    typeError(() => item.writeAttribute("name", undefined as never));
    typeError(() => Item.permit({ name: undefined }, "name"));
    expect(await thrown(() => Item.create({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await thrown(() => Item.createOrThrow({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await thrown(() => item.update({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await thrown(() => item.updateOrThrow({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(item.name).toBe("a");
    expect(item.isChanged()).toBe(false);
  });

  it("a default that cannot be cast throws TypeError at build; one returning undefined too", () => {
    class BadDefault extends ApplicationRecord("sar_items", { qty: { default: () => "many" } }) {}
    const message = typeError(() => BadDefault.build());
    expect(message).toContain("BadDefault");
    expect(message).toContain("qty");
    class UndefinedDefault extends ApplicationRecord("sar_items", { qty: { default: () => undefined } }) {}
    typeError(() => UndefinedDefault.build());
  });

  it("conditions are cast the same way: uncastable matches nothing", async () => {
    const item = await Item.create({ name: "5", qty: 5 });
    expect((await Item.findBy({ qty: "5" }))?.id).toBe(item.id);
    expect((await Item.findBy({ qty: " 5 " }))?.id).toBe(item.id);
    expect(await Item.findBy({ qty: "5.0" })).toBeNull();
    expect(await Item.findBy({ qty: "" })).toBeNull();
    expect(await thrown(() => Item.find("" as never))).toBeInstanceOf(RecordNotFound);
    expect((await Item.findBy({ name: 5 as never }))?.id).toBe(item.id);
    expect(await Item.whereNot({ qty: ["x"] }).count()).toBe(1);
    expect(Item.where({ name: 5 as never }).build().name).toBe("5");
    typeError(() => Item.where({ name: undefined as never }));
  });
});

describe("Model statics", () => {
  it("defaults: binding none, primaryKey id, hiddenAttributes empty, filterAttributes the listed ones, perPage 25, maxPerPage 100", () => {
    class Plain extends Model({ id: "string" }) {}
    expect(Plain.binding).toBeUndefined();
    expect(Plain.primaryKey).toBe("id");
    expect(Plain.hiddenAttributes).toEqual([]);
    expect(Plain.filterAttributes).toEqual(["passw", "email", "secret", "token", "_key", "crypt", "salt", "certificate", "otp", "ssn", "cvv", "cvc"]);
    expect(Plain.perPage).toBe(25);
    expect(Plain.maxPerPage).toBe(100);
    expect(Plain.generateId("id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("every default filter matches its attributes; filterAttributes = [] filters nothing", () => {
    const declarations = {
      id: "string", userPassword: "string", backupEmail: "string", clientSecret: "string", refreshToken: "string", apiKey: "string",
      encryptedBlob: "string", passwordSalt: "string", certificateBody: "string", otpCode: "string", ssnLast4: "string", cardCvv: "string",
      cardCvc: "string", plain: "string",
    } as const;
    class Filtered extends Model(declarations) {
      static override tableName = "x";
    }
    const values = Object.fromEntries(Object.keys(declarations).map((name) => [name, `v-${name}`]));
    const text = String(Filtered.build(values));
    for (const name of Object.keys(declarations)) {
      if (name === "plain" || name === "id") expect(text).toContain(`v-${name}`);
      else expect(text, name).not.toContain(`v-${name}`);
    }
    class Unfiltered extends Model(declarations) {
      static override tableName = "x";
      static override filterAttributes = [];
    }
    const shown = String(Unfiltered.build(values));
    for (const name of Object.keys(declarations)) expect(shown).toContain(`v-${name}`);
  });

  it("generateId gets the attribute name; text keys and generateId attributes use it; set on the base class it is inherited", () => {
    const names: string[] = [];
    class GenBase extends ActiveRecord {
      static override generateId = (name: string) => (names.push(name), `gen-${name}`);
    }
    const Rec = defineApplicationRecord({}, GenBase);
    class Gen extends Rec({ id: "string", ref: { type: "string", generateId: true }, other: "string" }) {
      static override tableName = "gens";
    }
    const gen = Gen.build();
    expect(gen.id).toBe("gen-id");
    expect(gen.ref).toBe("gen-ref");
    expect(gen.other).toBeNull();
    expect(names).toEqual(["id", "ref"]);
    expect(Gen.build({ id: "given" }).id).toBe("given");
  });

  it("tableName: a subclass may repeat its parent's table but not change it", async () => {
    class Parent extends Model({ id: "string" }) {
      static override tableName = "sar_items";
    }
    class Same extends Parent {
      static override tableName = "sar_items";
    }
    class Other extends Parent {
      static override tableName = "sar_strict";
    }
    expect(await Same.where({}).toSql().sql).toContain("sar_items");
    expect(() => Other.all()).toThrow(InvalidModel);
    class FromSchema extends ApplicationRecord("sar_items") {
      static override tableName = "sar_strict";
    }
    expect(() => FromSchema.all()).toThrow(InvalidModel);
  });

  it("first use throws InvalidModel for each declaration check", async () => {
    const Anonymous = class extends Model({ id: "string" }) {};
    Object.defineProperty(Anonymous, "name", { value: "" });
    expect(await thrown(() => Anonymous.first())).toBeInstanceOf(InvalidModel);
    class EmptyTable extends Model({ id: "string" }) {
      static override tableName = "";
    }
    expect(await thrown(() => EmptyTable.first())).toBeInstanceOf(InvalidModel);
    class BadKey extends Model({ id: "string" }) {
      static override tableName = "t";
      static override primaryKey = "uuid";
    }
    expect(await thrown(() => BadKey.first())).toBeInstanceOf(InvalidModel);
    for (const name of ["save", "attributes", "errors", "toJSON", "changes", "reloadAssociation", "update", "reload", "abortReason", "constructor"]) {
      class Reserved extends Model({ id: "string", [name]: "string" }) {
        static override tableName = "t";
      }
      expect(await thrown(() => Reserved.first()), name).toBeInstanceOf(InvalidModel);
    }
    class Field extends Model({ id: "string", name: "string" }) {
      static override tableName = "t";
      override name = "";
    }
    expect(await thrown(() => Field.first())).toBeInstanceOf(InvalidModel);
    class Hidden extends Model({ id: "string" }) {
      static override tableName = "t";
      static override hiddenAttributes = ["nope"];
    }
    expect(await thrown(() => Hidden.first())).toBeInstanceOf(InvalidModel);
    expect(() => connectModel(Hidden)).toThrow(InvalidModel);
  });

  // SPEC Record 10: "an attribute named like a record method (such as save or attributes)" throws InvalidModel at first
  // use. Records also answer to the methods every object has; the kernel accepted those names (the CLI refuses them).
  it("an attribute named like a method every object has throws InvalidModel at first use", async () => {
    for (const name of ["valueOf", "hasOwnProperty", "isPrototypeOf", "toLocaleString", "__proto__"]) {
      class Reserved extends Model({ id: "string", [name]: "string" }) {
        static override tableName = "t";
      }
      expect(await thrown(() => Reserved.first()), name).toBeInstanceOf(InvalidModel);
    }
  });

  it("names from the base class's hiddenAttributes are ignored if the Model lacks them", () => {
    class HidingBase extends AppBase {
      static override hiddenAttributes = ["email", "passwordDigest"];
    }
    const Rec = defineApplicationRecord(schema, HidingBase);
    class Strict extends Rec("sar_strict") {}
    class Items extends Rec("sar_items") {}
    expect(Strict.build({ label: "l" }).toJSON()).toHaveProperty("label", "l");
    expect(Items.build({ email: "e" }).toJSON()).not.toHaveProperty("email");
  });

  it("a Model's own hiddenAttributes replaces the base class's", () => {
    class HidingBase extends AppBase {
      static override hiddenAttributes = ["email"];
    }
    const Rec = defineApplicationRecord(schema, HidingBase);
    class Items extends Rec("sar_items") {
      static override hiddenAttributes = ["name"];
    }
    const json = Items.build({ email: "e", name: "n" }).toJSON();
    expect(json).toHaveProperty("email", "e");
    expect(json).not.toHaveProperty("name");
  });

  it("declarations are fixed after first use", () => {
    class Fixed extends ApplicationRecord("sar_items") {}
    Fixed.all();
    expect(() => Fixed.validates("name", { presence: true })).toThrow(InvalidModel);
    expect(() => Fixed.beforeSave(() => {})).toThrow(InvalidModel);
  });
});

function connectModel(model: Function) {
  return listen().db.model(model as never);
}

describe("overrides", () => {
  it("a type name reads and writes the attribute as that type; the generated default is dropped and the column's applies", async () => {
    class Typed extends ApplicationRecord("sar_items", { qty: "boolean" }) {}
    const built = Typed.build();
    expect(built.qty).toBeNull();
    expect(built.changed()).not.toContain("qty");
    await built.save();
    expect(built.qty).toBe(true); // the column's DEFAULT 1
    const off = await Typed.create({ qty: "off" });
    expect(off.qty).toBe(false);
    expect((await Item.find(off.id)).qty).toBe(0);
  });

  it("changing type with a default given keeps that default", () => {
    class Typed extends ApplicationRecord("sar_items", { qty: { type: "real", default: 2.5 } }) {}
    expect(Typed.build().qty).toBe(2.5);
  });

  it("changing the type of a generateId attribute drops generateId", () => {
    class Typed extends ApplicationRecord("sar_strict", { id: { type: "json" } }) {}
    expect(() => Typed.build()).not.toThrow();
  });

  it("default and generateId replace each other", () => {
    class WithDefault extends ApplicationRecord("sar_strict", { id: { default: () => "fixed" } }) {}
    expect(WithDefault.build().id).toBe("fixed");
    class WithId extends ApplicationRecord("sar_items", { kind: { generateId: true } }) {}
    expect(WithId.build().kind).not.toBe("plain");
    expect(WithId.build().kind).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("null: false keeps the generated type", () => {
    class NotNull extends ApplicationRecord("sar_items", { qty: { null: false } }) {}
    expect(NotNull.build().qty).toBe(1);
    expect(NotNull.build({ qty: "4" }).qty).toBe(4);
  });

  it("false ignores the column: never read or written; SELECT names columns", async () => {
    await Item.create({ name: "a", email: "e@x" });
    class NoEmail extends ApplicationRecord("sar_items", { email: false }) {}
    const { db, events } = listen();
    const record = await db.model(NoEmail).first();
    expect(events[0]!.sql).not.toContain("*");
    expect(events[0]!.sql).not.toContain('"email"');
    expect(record).not.toHaveProperty("email");
    expect(Object.keys(record!.attributes())).not.toContain("email");
    expect(() => NoEmail.build({ email: "x" } as never)).toThrow(UnknownAttribute);
    expect(() => NoEmail.where({ email: "x" } as never)).toThrow(UnknownAttribute);
    expect(String(record)).not.toContain("email");
    const created = await db.model(NoEmail).create({ name: "b" });
    expect(events.at(-1)!.sql).not.toContain("email");
    expect(created.toJSON()).not.toHaveProperty("email");
  });

  it("rule 1: changing a column, adding an attribute or ignoring the primary key throws InvalidModel", async () => {
    expect(() => ApplicationRecord("sar_items", { name: { column: "other" } } as never)).toThrow(InvalidModel);
    expect(() => ApplicationRecord("sar_items", { nickname: "string" } as never)).toThrow(InvalidModel);
    class NoKey extends ApplicationRecord("sar_items", { id: false }) {}
    expect(await thrown(() => NoKey.first())).toBeInstanceOf(InvalidModel);
  });

  // SPEC Overrides lists the value forms; Errors: "InvalidModel | the declaration checks fail". Plain JavaScript
  // passing another form got a bare TypeError from reading it ("Cannot use 'in' operator"), or had it ignored.
  it("an override value other than the listed forms throws InvalidModel", () => {
    for (const value of [null, true, 5, "text", [], { nope: 1 }, { type: "string", nope: 1 }, undefined]) {
      const error = (() => {
        try {
          class Bad extends ApplicationRecord("sar_items", { name: value } as never) {}
          Bad.build();
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      if (value === undefined) expect(error).toBeUndefined();
      else expect(error, String(value)).toBeInstanceOf(InvalidModel);
    }
  });

  it("a declaration that is neither a type name nor an object throws InvalidModel", () => {
    for (const value of [null, 5, true, []]) {
      expect(() => Model({ id: "string", name: value } as never), String(value)).toThrow(InvalidModel);
    }
  });

  // SPEC: "A declaration is a type name, or an object { type, column?, null?, default?, generateId? }". Another key (a
  // typo such as `nul: false`) was silently ignored.
  it("a declaration object with another key throws InvalidModel", () => {
    expect(() => Model({ id: "string", name: { type: "string", nul: false } } as never)).toThrow(InvalidModel);
    expect(() => Model({ id: "string", name: { type: "string", column: "n", null: false, default: "x" } })).not.toThrow();
  });

  it("rule 5: ignoring a NOT NULL column without a default makes inserts fail (they throw)", async () => {
    class NoLabel extends ApplicationRecord("sar_strict", { label: false }) {}
    const record = NoLabel.build({ note: "n" });
    const error = await thrown(() => record.save());
    expect(error).toBeInstanceOf(Error);
    expect(record.isNewRecord()).toBe(true);
  });

  it("the schema form needs a table of the schema", () => {
    expect(() => ApplicationRecord("nope" as never)).toThrow(InvalidModel);
  });
});

describe("records", () => {
  it("1: unassigned attributes read as null, are not written on insert; after insert the record holds what the database stored", async () => {
    class Bare extends ApplicationRecord("sar_items", { kind: { default: undefined } }) {}
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
    expect(update.sql).toMatch(/^UPDATE "sar_items" SET "data" = \?, "updated_at" = \? WHERE "id" = \?$/);
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
    class HiddenItem extends ApplicationRecord("sar_items") {
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
    class Hiding extends ApplicationRecord("sar_items") {
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
    class Parent extends ApplicationRecord("sar_items") {
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

class Guarded extends ApplicationRecord("sar_items") {
  static stop: string | undefined;
  static stopDestroy: string | undefined;
  static {
    this.validates("name", { presence: true });
    this.beforeSave(() => {
      if (Guarded.stop) throw abort(Guarded.stop);
    });
    this.beforeDestroy(() => {
      if (Guarded.stopDestroy) throw abort(Guarded.stopDestroy);
    });
  }
}

function stateOf(record: { isNewRecord(): boolean; isPersisted(): boolean; isDestroyed(): boolean }) {
  return [record.isNewRecord(), record.isPersisted(), record.isDestroyed()];
}
const NEW = [true, false, false];
const PERSISTED = [false, true, false];
const DESTROYED = [false, false, true];

describe("states and transitions", () => {
  beforeEach(() => {
    Guarded.stop = undefined;
    Guarded.stopDestroy = undefined;
  });

  it("New after build; Persisted after create and when loaded; Destroyed after destroy", async () => {
    expect(stateOf(Guarded.build())).toEqual(NEW);
    const created = await Guarded.create({ name: "a" });
    expect(stateOf(created)).toEqual(PERSISTED);
    expect(stateOf(await Guarded.find(created.id))).toEqual(PERSISTED);
    expect(await created.destroy()).toBe(created);
    expect(stateOf(created)).toEqual(DESTROYED);
  });

  it("New -> New when validation fails: false (record for create), reasons in errors, nothing written", async () => {
    const { db, events } = listen();
    const record = db.model(Guarded).build();
    expect(await record.save()).toBe(false);
    expect(stateOf(record)).toEqual(NEW);
    expect(record.errors.toArray()).toEqual([{ attribute: "name", type: "blank", message: "can't be blank" }]);
    expect(record.abortReason).toBeUndefined();
    const created = await db.model(Guarded).create({});
    expect(stateOf(created)).toEqual(NEW);
    expect(created.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(events).toHaveLength(0);
    expect(created.createdAt).toBeNull();
    const error = await thrown(() => db.model(Guarded).createOrThrow({}));
    expect(error).toBeInstanceOf(RecordInvalid);
    expect((error as RecordInvalid).record).toBeInstanceOf(Guarded);
    expect(stateOf((error as RecordInvalid).record as Guarded)).toEqual(NEW);
    expect((error as Error).message).toContain("Name can't be blank");
  });

  it("New -> New when a callback aborts: false, reason in abortReason; OrThrow throws RecordNotSaved with the reason", async () => {
    Guarded.stop = "closed";
    const record = Guarded.build({ name: "a" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("closed");
    expect(record.errors.isEmpty()).toBe(true);
    expect(stateOf(record)).toEqual(NEW);
    const created = await Guarded.create({ name: "a" });
    expect(stateOf(created)).toEqual(NEW);
    expect(created.abortReason).toBe("closed");
    const error = await thrown(() => Guarded.createOrThrow({ name: "a" }));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("closed");
    expect(await thrown(() => record.saveOrThrow())).toBeInstanceOf(RecordNotSaved);
    expect(await Guarded.all().count()).toBe(0);
  });

  it("New -> Persisted by update(); after-callbacks see the saved changes", async () => {
    const seen: unknown[] = [];
    class Watched extends Item {
      static {
        this.afterSave((record) => {
          seen.push([record.isChanged(), record.hasSavedChangeTo("name"), record.savedChangeTo("name"), record.isPersisted()]);
        });
      }
    }
    const record = Watched.build();
    expect(await record.update({ name: "a" })).toBe(true);
    expect(stateOf(record)).toEqual(PERSISTED);
    expect(seen).toEqual([[false, true, [null, "a"], true]]);
  });

  it("Persisted -> Persisted: only changed attributes written, saved changes recorded, record clean", async () => {
    const record = await Item.create({ name: "a", qty: 2 });
    const { db, events } = listen();
    const bound = await db.model(Item).find(record.id);
    events.length = 0;
    bound.name = "b";
    bound.qty = "2" as never;
    expect(bound.changed()).toEqual(["name"]);
    expect(await bound.save()).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe('UPDATE "sar_items" SET "name" = ?, "updated_at" = ? WHERE "id" = ?');
    expect(bound.isChanged()).toBe(false);
    expect(Object.keys(bound.savedChanges())).toEqual(["name", "updatedAt"]);
    expect(bound.savedChangeTo("name")).toEqual(["a", "b"]);
    expect(bound.attributeBeforeLastSave("name")).toBe("a");
    expect(bound.attributeBeforeLastSave("qty")).toBe(2);
  });

  it("Persisted -> Persisted when validation fails or a callback aborts: false, changes kept", async () => {
    const record = await Guarded.create({ name: "a" });
    expect(await record.update({ name: "" })).toBe(false);
    expect(stateOf(record)).toEqual(PERSISTED);
    expect(record.changes()).toEqual({ name: ["a", ""] });
    expect(await thrown(() => record.updateOrThrow({ name: null }))).toBeInstanceOf(RecordInvalid);
    Guarded.stop = "no";
    expect(await record.update({ name: "b" })).toBe(false);
    expect(record.abortReason).toBe("no");
    expect(record.errors.isEmpty()).toBe(true);
    expect(stateOf(record)).toEqual(PERSISTED);
    const error = await thrown(() => record.updateOrThrow({ name: "c" }));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("no");
    expect((await Guarded.find(record.id)).name).toBe("a");
  });

  it("a later successful save clears the reasons of a refused one", async () => {
    const record = Guarded.build();
    await record.save();
    record.name = "ok";
    expect(await record.save()).toBe(true);
    expect(record.errors.isEmpty()).toBe(true);
    Guarded.stop = "x";
    record.name = "again";
    await record.save();
    Guarded.stop = undefined;
    expect(await record.save()).toBe(true);
    expect(record.abortReason).toBeUndefined();
  });

  it("Persisted -> Persisted when destroy is aborted: false; destroyOrThrow throws RecordNotDestroyed", async () => {
    const record = await Guarded.create({ name: "a" });
    Guarded.stopDestroy = "keep";
    expect(await record.destroy()).toBe(false);
    expect(record.abortReason).toBe("keep");
    expect(stateOf(record)).toEqual(PERSISTED);
    const error = await thrown(() => record.destroyOrThrow());
    expect((error as Error).name).toBe("RecordNotDestroyed");
    expect((error as Error).message).toBe("keep");
    expect(await Guarded.all().count()).toBe(1);
  });

  it("destroy succeeds even if the row is already gone", async () => {
    const record = await Item.create({ name: "a" });
    await Item.where({ id: record.id }).deleteAll();
    expect(await record.destroy()).toBe(record);
    expect(stateOf(record)).toEqual(DESTROYED);
    const other = await Item.create({ name: "b" });
    await Item.where({ id: other.id }).deleteAll();
    expect(await other.destroyOrThrow()).toBe(other);
  });

  it("reload: row exists discards unsaved changes; row gone throws RecordNotFound and stays Persisted; never saved throws and stays New", async () => {
    const record = await Item.create({ name: "a" });
    record.name = "b";
    expect(await record.reload()).toBe(record);
    expect(record.name).toBe("a");
    expect(record.isChanged()).toBe(false);
    await Item.where({ id: record.id }).deleteAll();
    record.name = "c";
    expect(await thrown(() => record.reload())).toBeInstanceOf(RecordNotFound);
    expect(stateOf(record)).toEqual(PERSISTED);
    const fresh = Item.build();
    expect(await thrown(() => fresh.reload())).toBeInstanceOf(RecordNotFound);
    expect(stateOf(fresh)).toEqual(NEW);
  });

  it("Destroyed: every assignment, save, update, destroy and reload throws RecordDestroyed; attributes remain readable", async () => {
    const record = await Item.create({ name: "a", data: { k: 1 } });
    await record.destroy();
    const attempts: [string, () => unknown][] = [
      ["setter", () => (record.name = "b")],
      ["setter null", () => (record.name = null)],
      ["writeAttribute", () => record.writeAttribute("name", "b")],
      ["assign", () => record.assign({ name: "b" })],
      ["save", () => record.save()],
      ["saveOrThrow", () => record.saveOrThrow()],
      ["update", () => record.update({ name: "b" })],
      ["update {}", () => record.update({})],
      ["updateOrThrow", () => record.updateOrThrow({ name: "b" })],
      ["destroy", () => record.destroy()],
      ["destroyOrThrow", () => record.destroyOrThrow()],
      ["reload", () => record.reload()],
    ];
    for (const [label, attempt] of attempts) expect(await thrown(attempt), label).toBeInstanceOf(RecordDestroyed);
    expect(record.name).toBe("a");
    expect(record.data).toEqual({ k: 1 });
    expect(record.attributes()["name"]).toBe("a");
    expect(record.toJSON()["name"]).toBe("a");
    expect(stateOf(record)).toEqual(DESTROYED);
    expect(String(record)).toContain('name: "a"');
  });

  it("update() with a bad value rejects rather than throws, and leaves the record unchanged", async () => {
    const record = await Item.create({ name: "a", qty: 1 });
    const pending = record.update({ name: "b", qty: "x" });
    expect(pending).toBeInstanceOf(Promise);
    expect(await thrown(() => pending)).toBeInstanceOf(TypeError);
    expect(record.name).toBe("a");
    expect(record.isChanged()).toBe(false);
    const pendingOrThrow = record.updateOrThrow({ nope: 1 } as never);
    expect(pendingOrThrow).toBeInstanceOf(Promise);
    expect(await thrown(() => pendingOrThrow)).toBeInstanceOf(UnknownAttribute);
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

describe("building and creating: permit", () => {
  it("reads own keys of a plain object only, drops keys not named, leaves out absent names, keeps null, casts", () => {
    const input: Record<string, unknown> = { qty: " 4 ", flag: null, extra: "x" };
    expect(Item.permit(input, "name", "qty", "flag", "price")).toEqual({ qty: 4, flag: null });
    expect(Item.permit(Object.assign(Object.create(null), { name: "n" }), "name")).toEqual({ name: "n" });
  });

  // SPEC permit rules: "a plain object is read by own keys only". An object whose prototype is a plain object holding
  // the key was refused as a whole (TypeError), rather than read without the inherited key.
  it("a plain object with inherited keys is read by its own keys", () => {
    const input = Object.create({ name: "inherited", admin: true }) as Record<string, unknown>;
    input["qty"] = "4";
    expect(Item.permit(input, "name", "qty")).toEqual({ qty: 4 });
  });

  it("FormData and URLSearchParams: a repeated key takes its last value", () => {
    const params = new URLSearchParams("qty=1&qty=2&flag=on&happenedAt=2024-01-01&extra=1");
    const permitted = Item.permit(params, "qty", "flag", "happenedAt", "name");
    expect(permitted).toEqual({ qty: 2, flag: true, happenedAt: new Date("2024-01-01T00:00:00Z") });
    const form = new FormData();
    form.append("name", "a");
    form.append("name", "b");
    expect(Item.permit(form, "name")).toEqual({ name: "b" });
    const item = Item.build(Item.permit(form, "name"));
    expect(item.name).toBe("b");
  });

  it("TypeError for an uncastable value, a file from a form, or other input", () => {
    typeError(() => Item.permit({ qty: "x" }, "qty"));
    const form = new FormData();
    form.append("name", new File(["x"], "a.txt"));
    typeError(() => Item.permit(form, "name"));
    const formFileFirst = new FormData();
    formFileFirst.append("name", new File(["x"], "a.txt"));
    formFileFirst.append("name", "text");
    expect(Item.permit(formFileFirst, "name")).toEqual({ name: "text" });
    class Custom {
      name = "x";
    }
    for (const input of [[], new Map([["name", "x"]]), new Headers({ name: "x" }), new Custom(), null, "name=x", undefined, 5, new Date()]) {
      typeError(() => Item.permit(input as never, "name"));
    }
  });

  it("a name that is not an attribute throws UnknownAttribute, even when absent from the input", () => {
    expect(() => Item.permit({}, "nope" as never)).toThrow(UnknownAttribute);
    expect(() => Item.permit(new URLSearchParams(), "nope" as never)).toThrow(UnknownAttribute);
  });
});

describe("change tracking", () => {
  it("a new record: changes show [null, value]; restoreAttributes goes back to what build gave", () => {
    const item = Item.build({ name: "a", qty: 5 });
    expect(item.changes()["name"]).toEqual([null, "a"]);
    expect(item.attributeWas("name")).toBeNull();
    expect(item.isAttributeChanged("qty", { from: null })).toBe(true);
    item.restoreAttributes();
    expect(item.name).toBeNull();
    expect(item.qty).toBe(1);
  });

  it("isAttributeChanged with from, willSaveChangeTo, restoreAttributes of some names", async () => {
    const item = await Item.create({ name: "a", qty: 30, flag: false });
    item.qty = 31;
    item.name = "b";
    item.flag = true;
    expect(item.isAttributeChanged("qty", { from: 30 })).toBe(true);
    expect(item.isAttributeChanged("qty", { from: "30" })).toBe(true);
    expect(item.isAttributeChanged("qty", { from: 29 })).toBe(false);
    expect(item.isAttributeChanged("flag", { from: false })).toBe(true);
    expect(item.isAttributeChanged("price")).toBe(false);
    expect(item.willSaveChangeTo("name")).toBe(true);
    expect(item.willSaveChangeTo("price")).toBe(false);
    expect(item.changedAttributes()).toEqual({ name: "a", qty: 30, flag: false });
    item.restoreAttributes("name", "qty");
    expect(item.changed()).toEqual(["flag"]);
    expect(item.name).toBe("a");
    expect(item.restoreAttributes()).toBe(item);
    expect(item.isChanged()).toBe(false);
  });

  // SPEC Record 3: "undefined as a value throws TypeError (use null for NULL)"; Errors: "TypeError | ... undefined is
  // assigned or used in a condition". isAttributeChanged's values are cast as conditions are; undefined answered false.
  it("isAttributeChanged with from or to undefined throws TypeError", async () => {
    const item = await Item.create({ name: "a", qty: 1 });
    item.qty = 2;
    for (const options of [{ from: undefined }, { to: undefined }, { from: 1, to: undefined }]) {
      const message = typeError(() => item.isAttributeChanged("qty", options));
      expect(message).toContain("Item.qty");
    }
    typeError(() => item.isAttributeChanged("name", { from: undefined }));
    expect(item.isAttributeChanged("qty", { from: null })).toBe(false);
  });

  it("savedChanges after create and reload", async () => {
    const item = await Item.create({ name: "a" });
    expect(item.savedChangeTo("name")).toEqual([null, "a"]);
    expect(item.hasSavedChangeTo("price")).toBe(false);
    expect(item.savedChangeTo("price")).toBeUndefined();
    await item.reload();
    expect(item.savedChanges()).toEqual({});
  });

  it("records loaded by select: reading, assigning or asking the old value of another attribute throws MissingAttribute", async () => {
    await Item.create({ name: "a", qty: 3, email: "e@x" });
    const partial = (await Item.select("name").first())!;
    expect(partial.name).toBe("a");
    expect(() => partial.qty).toThrow(MissingAttribute);
    expect(() => partial.readAttribute("qty")).toThrow(MissingAttribute);
    expect(() => (partial.qty = 4)).toThrow(MissingAttribute);
    expect(() => partial.assign({ qty: 4 })).toThrow(MissingAttribute);
    expect(() => partial.attributeWas("qty")).toThrow(MissingAttribute);
    expect(() => partial.attributeBeforeLastSave("qty")).toThrow(MissingAttribute);
    expect(Object.keys(partial.attributes()).sort()).toEqual(["id", "name"]);
    expect(Object.keys(partial.toJSON()).sort()).toEqual(["id", "name"]);
    partial.name = "b";
    const { db, events } = listen();
    await db.model(Item).all(); // touch
    expect(await partial.save()).toBe(true);
    expect((await Item.find(partial.id)).name).toBe("b");
    expect(events).toHaveLength(0);
  });
});

describe("errors collection", () => {
  it("entries have attribute, type and message; fullMessages humanizes the attribute", async () => {
    class Checked extends ApplicationRecord("sar_items") {
      static {
        this.validates("happenedAt", { presence: true });
        this.validates("name", { length: { minimum: 3 } });
        this.validates("code", { uniqueness: true });
      }
    }
    await Item.create({ code: "c" });
    const record = Checked.build({ name: "ab", code: "c" });
    expect(await record.save()).toBe(false);
    expect(record.errors.toArray()).toEqual([
      { attribute: "happenedAt", type: "blank", message: "can't be blank" },
      { attribute: "name", type: "too_short", message: "is too short" },
      { attribute: "code", type: "taken", message: "has already been taken" },
    ]);
    expect(record.errors.fullMessages()).toEqual(["Happened at can't be blank", "Name is too short", "Code has already been taken"]);
    expect(Array.isArray(record.errors.fullMessages())).toBe(true);
  });
});

describe("more record probes", () => {
  it("ApplicationRecord({...}) declares by hand below the app's base class (its binding); column maps to another column", async () => {
    class Strict extends ApplicationRecord({ id: "string", title: { type: "string", column: "label" }, note: "string" }) {
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

describe("cast errors name the Model through every path", () => {
  it("db.model, a Relation's build and create, permit and bulk writes", async () => {
    const { db } = listen();
    const Bound = db.model(Item);
    for (const attempt of [
      () => Bound.build({ qty: "x" }),
      () => Item.where({ name: "a" }).build({ qty: "x" }),
      () => Bound.where({ name: "a" }).create({ qty: "x" }),
      () => Bound.permit({ qty: "x" }, "qty"),
      () => Bound.insert({ qty: "x" }),
      () => Bound.insertAll([{ qty: "x" }]),
      () => Bound.upsert({ id: "k", qty: "x" }),
      () => Bound.updateAll({ qty: "x" }),
    ]) {
      const error = await thrown(attempt);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/^Item\.qty\b/);
    }
  });
});

describe("RecordNotUnique for every write the database refuses for a unique constraint", () => {
  it("a duplicate primary key, updateAll, insert, insertAll and a batch of saves", async () => {
    const first = await Item.create({ code: "a" });
    await Item.create({ code: "b" });
    expect(await thrown(() => Item.create({ id: first.id }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.where({ code: "b" }).updateAll({ code: "a" }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.insert({ code: "a" }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.insertAll([{ code: "c" }, { code: "c" }]))).toBeInstanceOf(RecordNotUnique);
    const { batch } = await import("../src/index.js");
    const one = Item.build({ code: "d" });
    const two = Item.build({ code: "d" });
    expect(await thrown(() => batch([one.toSave(), two.toSave()]))).toBeInstanceOf(RecordNotUnique);
    expect(stateOf(one)).toEqual(NEW);
    expect(stateOf(two)).toEqual(NEW);
    expect(await Item.all().count()).toBe(2);
  });
});

describe("Record 4: the database a record keeps", () => {
  it("build() inside withDatabase keeps that database; new <Model>() keeps none", async () => {
    const { withDatabase } = await import("../src/index.js");
    const { db, events } = listen();
    const built = withDatabase(db, () => Item.build({ name: "a" }));
    const made = withDatabase(db, () => {
      const record = new Item();
      record.id = "made-1";
      return record;
    });
    await built.save();
    expect(events).toHaveLength(1);
    await made.save(); // outside withDatabase: the Model's binding, not db
    expect(events).toHaveLength(1);
    expect(made.isPersisted()).toBe(true);
    const loaded = await db.model(Item).find(built.id);
    events.length = 0;
    await loaded.update({ name: "b" });
    expect(events).toHaveLength(1);
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

describe("attribute input other than a plain object is refused, not read as nothing", () => {
  class Writer extends FixtureRecord("users") {
    posts = hasMany(Post, { foreignKey: "userId" });
  }

  const refusals: [string, unknown][] = [
    ["a Map", new Map([["name", "x"]])],
    ["FormData", (() => { const form = new FormData(); form.set("name", "x"); return form; })()],
    ["URLSearchParams", new URLSearchParams({ name: "x" })],
    ["an array", [["name", "x"]]],
    ["a record", User.build({ name: "x" })],
    ["a string", "name=x"],
    ["null", null],
  ];

  for (const [kind, input] of refusals) {
    it(`${kind}: build, create, assign, update and a Relation's or association's build throw TypeError; nothing is written`, async () => {
      const message = /^User\.(build|assign|update) takes a plain object of attribute values \(read forms with permit\), not /;
      expect(() => User.build(input as never)).toThrow(TypeError);
      expect(() => User.build(input as never)).toThrow(message);
      await expect(User.create(input as never)).rejects.toThrow(message);
      expect(() => User.where({ name: "y" }).build(input as never)).toThrow(message);
      const user = await User.createOrThrow({ name: "kept" });
      expect(() => user.assign(input as never)).toThrow(message);
      await expect(user.update(input as never)).rejects.toThrow(message);
      expect(user.name).toBe("kept");
      const writer = await Writer.createOrThrow({ name: "w" });
      expect(() => writer.posts().build(input as never)).toThrow(TypeError);
      // The two users made above, and no other row.
      expect(await User.count()).toBe(2);
      expect(await Post.count()).toBe(0);
    });
  }

  it("objects made with Object.create are read by their own keys, as permit reads them", () => {
    const inherited = Object.create({ email: "inherited@example.com" }) as Record<string, unknown>;
    inherited["name"] = "own";
    const user = User.build(inherited);
    expect([user.name, user.email]).toEqual(["own", null]);
    const bare = Object.create(null) as Record<string, unknown>;
    bare["name"] = "bare";
    expect(User.build(bare).name).toBe("bare");
  });
});
