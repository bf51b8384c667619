/**
 * A stored value D1 cannot bind (an object: what a plugin type's `toDatabase` or a `write:plan` hook gave) is refused
 * with a `TypeError` naming the Model and attribute before anything is sent, on every path that binds one: a record's
 * INSERT and UPDATE, a bulk insert or upsert (which would have stored the object's JSON text), `updateAll`, a
 * condition. D1's own error named neither. (An `sql` fragment on a record's INSERT is a value the database computes:
 * computed-values.test.ts.)
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, defineApplicationRecord, withDatabase } from "../../src/index.js";
import { type AttributeTypeDefinition, defineAttributeType, definePlugin, installWritePlans, sql } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, typeError } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";

/** A type that forgot to turn its value into text: its stored form is the object itself. */
const unstringified: AttributeTypeDefinition<{ readonly w: number }> = {
  cast: (value) => (typeof value === "object" && value !== null && typeof (value as { w?: unknown }).w === "number" ? { w: (value as { w: number }).w } : undefined),
  toDatabase: (value) => value,
  fromDatabase: (stored) => JSON.parse(String(stored)),
};

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    unstringified: { readonly w: number };
  }
}

const unstringifiedType = definePlugin({
  name: "unstringified-type",
  setup() {
    defineAttributeType("unstringified", unstringified);
  },
});

/** Sets the title of every write but updateAll's (whose values may be fragments) to an SQL expression. */
const titleInSql = definePlugin({
  name: "title-in-sql",
  setup: installWritePlans,
  hooks: {
    "write:plan"(plan) {
      if (plan.operation === "updateAll" || plan.kind === "delete") return;
      plan.values.set("title", sql`upper('x')`);
      for (const row of plan.rows) row.set("title", sql`upper('x')`);
    },
  },
});

const schema = { pages: { id: "integer", title: { type: "string", null: false }, size: "string" } } as const;

class UnstringifiedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(unstringifiedType);
  }
}
class SizedPage extends defineApplicationRecord(schema, UnstringifiedBase)("pages", { size: "unstringified" }) {}

class TitledBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(titleInSql);
  }
}
class TitledPage extends defineApplicationRecord(schema, TitledBase)("pages") {}

beforeEach(resetDatabase);

const sizeRefused = "SizedPage.size: { w: 1 } is no value D1 stores (text, a number, bytes or null); a type's toDatabase or a write:plan hook gave it";
const titleRefused = "TitledPage.title: [object SqlFragment] is no value D1 stores (text, a number, bytes or null); a type's toDatabase or a write:plan hook gave it";

describe("a plugin type whose stored form is an object", () => {
  const writes: [string, () => Promise<unknown>][] = [
    ["create", () => SizedPage.create({ title: "a", size: { w: 1 } })],
    ["insertAll", () => SizedPage.insertAll([{ title: "a", size: { w: 1 } }])],
    ["upsertAll", () => SizedPage.upsertAll([{ title: "a", size: { w: 1 } }], { uniqueBy: ["title"] })],
    ["updateAll", () => SizedPage.updateAll({ size: { w: 1 } })],
  ];
  for (const [method, write] of writes) {
    it(`is refused by ${method} before anything is sent`, async () => {
      const { db, sqls } = listen();
      const error = await withDatabase(db, () => rejectionOf(write()));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(sizeRefused);
      expect(sqls()).toEqual([]);
      expect(await SizedPage.unscoped().count()).toBe(0);
    });
  }

  it("is refused in a condition, as the Relation is made", () => {
    expect(typeError(() => SizedPage.where({ size: { w: 1 } }))).toBe(sizeRefused);
  });
});

describe("a write:plan hook that sets an sql fragment where a value is bound", () => {
  it("is refused on a bulk insert and upsert, which bind their rows as values, before anything is sent", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      for (const write of [() => TitledPage.insertAll([{ title: "a" }]), () => TitledPage.upsertAll([{ title: "a" }], { uniqueBy: ["title"] })]) {
        const error = await rejectionOf(write());
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toBe(titleRefused);
      }
    });
    expect(sqls()).toEqual([]);
    expect(await TitledPage.count()).toBe(0);
  });

  it("is refused on a record's UPDATE, which returns no row to read the value back from", async () => {
    await SizedPage.insertAll([{ title: "kept" }]);
    const page = await TitledPage.findByOrThrow({ title: "kept" });
    page.size = "large";
    const error = await rejectionOf(page.save());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(titleRefused);
    expect(await SizedPage.pluck("title", "size")).toEqual([["kept", null]]);
  });
});
