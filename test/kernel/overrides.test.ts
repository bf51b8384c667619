/** Overrides (the second argument of ApplicationRecord): type names, generateId and generated attributes. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it, expectTypeOf } from "vitest";
import {
  InvalidModel,
  Model,
  UnknownAttribute,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord as FixtureApplicationRecord } from "../models/fixtures.js";
import { ItemApplicationRecord, Item } from "../models/typed-items.js";
import { RowApplicationRecord } from "../models/noted-rows.js";
import { AuditRecord } from "../models/audit-items.js";

beforeEach(resetDatabase);

type Attr = "label" | "qty" | "price" | "flag" | "happenedAt" | "data";

const value = (record: object, name: Attr) => (record as Record<string, unknown>)[name];

describe("Overrides: 'a type name, e.g. boolean | Reads and writes the attribute as that type.'", () => {
  // Each override names a type other than its column's, whose affinity converts what is written: an INTEGER column
  // stores the text "5" as 5, a TEXT column stores 1 as text.
  class Retyped extends RowApplicationRecord("sar2_rows", {
    qty: "string",
    price: "string",
    flag: "string",
    label: "boolean",
    code: "integer",
    secretNote: "real",
  }) {}

  it("a value read back from a column of another affinity has the attribute's type, and is no change", async () => {
    const written = { qty: "5", price: "2.5", flag: "1", label: false, code: 42, secretNote: 1.25 };
    const created = await Retyped.create(written);
    for (const record of [created, await Retyped.find(created.id)]) {
      expect(record.attributes()).toMatchObject(written);
      expect(record.isChanged()).toBe(false);
      record.assign(written);
      expect(record.changed()).toEqual([]);
    }
    const stored = await env.DB.prepare("SELECT qty, label, code FROM sar2_rows").first();
    // D1 binds every number as REAL, so the TEXT columns hold "0.0" and "42.0".
    expect(stored).toEqual({ qty: 5, label: "0.0", code: "42.0" });
    const loaded = await Retyped.find(created.id);
    loaded.label = true;
    expect(loaded.changes()).toEqual({ label: [false, true] });
    await loaded.save();
    expect((await Retyped.find(created.id)).label).toBe(true);
    expect((await Retyped.findBy({ label: true, code: "42", qty: "5" }))?.id).toBe(created.id);
  });
});

describe("overrides", () => {
  it("a type name reads and writes the attribute as that type; the generated default is dropped and the column's applies", async () => {
    class Typed extends ItemApplicationRecord("sar_items", { qty: "boolean" }) {}
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
    class Typed extends ItemApplicationRecord("sar_items", { qty: { type: "real", default: 2.5 } }) {}
    expect(Typed.build().qty).toBe(2.5);
  });

  it("changing the type of a generateId attribute drops generateId", () => {
    class Typed extends ItemApplicationRecord("sar_strict", { id: { type: "json" } }) {}
    expect(() => Typed.build()).not.toThrow();
  });

  it("default and generateId replace each other", () => {
    class WithDefault extends ItemApplicationRecord("sar_strict", { id: { default: () => "fixed" } }) {}
    expect(WithDefault.build().id).toBe("fixed");
    class WithId extends ItemApplicationRecord("sar_items", { kind: { generateId: true } }) {}
    expect(WithId.build().kind).not.toBe("plain");
    expect(WithId.build().kind).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("null: false keeps the generated type", () => {
    class NotNull extends ItemApplicationRecord("sar_items", { qty: { null: false } }) {}
    expect(NotNull.build().qty).toBe(1);
    expect(NotNull.build({ qty: "4" }).qty).toBe(4);
  });

  it("false ignores the column: never read or written; SELECT names columns", async () => {
    await Item.create({ name: "a", email: "e@x" });
    class NoEmail extends ItemApplicationRecord("sar_items", { email: false }) {}
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
    expect(() => ItemApplicationRecord("sar_items", { name: { column: "other" } } as never)).toThrow(InvalidModel);
    expect(() => ItemApplicationRecord("sar_items", { nickname: "string" } as never)).toThrow(InvalidModel);
    class NoKey extends ItemApplicationRecord("sar_items", { id: false }) {}
    expect(await thrown(() => NoKey.first())).toBeInstanceOf(InvalidModel);
  });

  // SPEC Overrides lists the value forms; Errors: "InvalidModel | the declaration checks fail". Plain JavaScript
  // passing another form got a bare TypeError from reading it ("Cannot use 'in' operator"), or had it ignored.
  it("an override value other than the listed forms throws InvalidModel", () => {
    for (const value of [null, true, 5, "text", [], { nope: 1 }, { type: "string", nope: 1 }, undefined]) {
      const error = (() => {
        try {
          class Bad extends ItemApplicationRecord("sar_items", { name: value } as never) {}
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
    class NoLabel extends ItemApplicationRecord("sar_strict", { label: false }) {}
    const record = NoLabel.build({ note: "n" });
    const error = await thrown(() => record.save());
    expect(error).toBeInstanceOf(Error);
    expect(record.isNewRecord()).toBe(true);
  });

  it("the schema form needs a table of the schema", () => {
    expect(() => ItemApplicationRecord("nope" as never)).toThrow(InvalidModel);
  });
});

describe("guide: Overrides", () => {
  class Member extends FixtureApplicationRecord("users", {
    admin: "integer",
    age: { null: false, default: () => 18 },
    settings: false,
  }) {}

  it("reads admin as a number, defaults age, ignores settings", async () => {
    const member = Member.build({ name: "Ada" });
    expectTypeOf(member.admin).toEqualTypeOf<number>();
    expectTypeOf(member.age).toEqualTypeOf<number>();
    expect(member.age).toBe(18);
    expect(member.admin).toBeNull(); // the generated default is dropped
    await member.saveOrThrow();
    expect(member.admin).toBe(0); // the column's own default
    expect(Member.all().toSql().sql).not.toContain("settings");
    expect(Member.all().toSql().sql).not.toContain("*");
    expect("settings" in member.attributes()).toBe(false);
  });
});

describe("edge cases once missed", () => {

  // SPEC Overrides: "{ type?, null?, default?, generateId? } | Replaces those parts of the generated attribute".
  it("override { generateId: false } keeps the generated default", () => {
    class Item extends AuditRecord("audit_r_items", { kind: { generateId: false } }) {}
    expect(Item.build().kind).toBe("plain");
  });
});
