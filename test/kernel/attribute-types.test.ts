/**
 * Attribute types plugins define (`defineAttributeType`): a money type (integer cents in D1, `{ cents }` in
 * JavaScript, text such as "12.50" accepted) and an enum type, through every path that casts, stores or reads values.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, CastError, defineApplicationRecord, gt, between, InvalidModel, lte, Model } from "../../src/index.js";
import { type AttributeTypeDefinition, defineAttributeType, definePlugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { moneyType } from "../helpers/guide-plugins.js";

const STATUSES = ["draft", "paid", "shipped"] as const;
type OrderStatus = (typeof STATUSES)[number];

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    orderStatus: OrderStatus;
  }
}

/** An enum type: one of a fixed list of texts, stored as the text; not comparable (its order is not the text's). */
const orderStatus: AttributeTypeDefinition<OrderStatus> = {
  cast: (value) => STATUSES.find((status) => status === value),
  fromDatabase: (stored) => stored as OrderStatus,
  toDatabase: (status) => status,
};

const orderStatusType = definePlugin({
  name: "order-status-type",
  setup() {
    defineAttributeType("orderStatus", orderStatus);
  },
});

class TypedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(moneyType, orderStatusType);
  }
}

/** The table as the generator writes it: the price an integer, the status text. */
const schema = {
  priced_items: {
    id: { type: "integer", null: false },
    name: { type: "string", null: false },
    price: "integer",
    status: "string",
  },
} as const;

/** The generated attributes, their types replaced by the plugins' in the overrides. */
class PricedItem extends defineApplicationRecord(schema, TypedBase)("priced_items", { price: "money", status: "orderStatus" }) {}

const cents = (row: Record<string, unknown> | null) => row?.["price"];

beforeEach(resetDatabase);

describe("a plugin's attribute type", () => {
  it("casts what build and assign take, and refuses what it cannot cast with a CastError naming the attribute", () => {
    expect(PricedItem.build({ name: "a", price: "12.50" }).price).toEqual({ cents: 1250 });
    expect(PricedItem.build({ name: "a", price: { cents: 7 } }).price).toEqual({ cents: 7 });
    expect(PricedItem.build({ name: "a", status: "paid" }).status).toBe("paid");
    expect(() => PricedItem.build({ name: "a", price: "12.505" })).toThrow(new CastError('PricedItem.price: "12.505" is not a valid money', PricedItem, "price"));
    // @ts-expect-error a status outside the type's list
    expect(() => PricedItem.build({ name: "a", status: "lost" })).toThrow(CastError);
    expect(() => PricedItem.build({ name: "a", status: "lost" as OrderStatus })).toThrow(/PricedItem\.status: "lost" is not a valid orderStatus/);
  });

  it("stores its database form, and reads it back through save, find, reload and change tracking", async () => {
    const item = await PricedItem.createOrThrow({ name: "lamp", price: "19.99", status: "draft" });
    expect(item.price).toEqual({ cents: 1999 });
    const stored = await env.DB.prepare("SELECT price, status FROM priced_items WHERE id = ?").bind(item.id).first();
    expect(stored).toEqual({ price: 1999, status: "draft" });
    const found = await PricedItem.find(item.id);
    expect(found.price).toEqual({ cents: 1999 });
    expect(found.changed()).toEqual([]);
    found.price = { cents: 1999 };
    expect(found.changed()).toEqual([]);
    found.assign({ price: "20" });
    expect(found.changes()).toEqual({ price: [{ cents: 1999 }, { cents: 2000 }] });
    await found.saveOrThrow();
    await item.reload();
    expect(item.price).toEqual({ cents: 2000 });
  });

  it("compares in conditions by its stored form: equality, lists, and the comparison helpers of a comparable type", async () => {
    await PricedItem.insertAll([
      { name: "a", price: "1.00", status: "draft" },
      { name: "b", price: "2.50", status: "paid" },
      { name: "c", price: { cents: 400 }, status: "shipped" },
    ]);
    const names = async (relation: { pluck(name: "name"): Promise<string[]> }) => (await relation.pluck("name")).sort();
    expect(await names(PricedItem.where({ price: "2.50" }))).toEqual(["b"]);
    expect(await names(PricedItem.where({ price: [{ cents: 100 }, "4"] }))).toEqual(["a", "c"]);
    expect(await names(PricedItem.where({ price: gt("1") }))).toEqual(["b", "c"]);
    expect(await names(PricedItem.where({ price: between({ cents: 100 }, "2.50") }))).toEqual(["a", "b"]);
    expect(await names(PricedItem.where({ price: lte({ cents: 99 }) }))).toEqual([]);
    expect(await names(PricedItem.where({ status: ["paid", "shipped"] }))).toEqual(["b", "c"]);
    // A value no row can hold matches nothing, as for a built-in type; a bound of a comparison that cannot be cast is refused.
    expect(await PricedItem.where({ price: "a lot" }).count()).toBe(0);
    expect(() => PricedItem.where({ price: gt("a lot") })).toThrow(new CastError('PricedItem.price: "a lot" is not a valid money to compare with (gt)', PricedItem, "price"));
    expect(() => PricedItem.where({ status: gt("draft") })).toThrow(/PricedItem\.where: status is a orderStatus; comparison helpers are for/);
    const { events, P } = listen({ models: { P: PricedItem } });
    await P.where({ price: gt("1.5") }).toArray();
    expect(events[0]!.params).toEqual([150]);
  });

  it("casts and stores the values of updateAll and insertAll", async () => {
    await PricedItem.insertAll([
      { name: "a", price: "1", status: "draft" },
      { name: "b", price: { cents: 250 }, status: "draft" },
    ]);
    expect(await PricedItem.where({ status: "draft" }).updateAll({ price: "3.10", status: "paid" })).toBe(2);
    const rows = await env.DB.prepare("SELECT price, status FROM priced_items ORDER BY id").all();
    expect(rows.results).toEqual([
      { price: 310, status: "paid" },
      { price: 310, status: "paid" },
    ]);
    await expect(PricedItem.all().updateAll({ price: "three" })).rejects.toThrow(CastError);
    await expect(PricedItem.insertAll([{ name: "c", price: "1.234" }])).rejects.toThrow(CastError);
  });

  it("reads plucked values through the type", async () => {
    await PricedItem.insertAll([
      { name: "a", price: "1.05", status: "paid" },
      { name: "b", price: null, status: null },
    ]);
    expect(await PricedItem.order({ name: "asc" }).pluck("price")).toEqual([{ cents: 105 }, null]);
    expect(await PricedItem.order({ name: "asc" }).pluck("name", "price", "status")).toEqual([
      ["a", { cents: 105 }, "paid"],
      ["b", null, null],
    ]);
  });

  it("gives toJSON the type's JSON form", async () => {
    const item = await PricedItem.createOrThrow({ name: "a", price: "-0.05", status: "shipped" });
    expect(item.toJSON()).toEqual({ id: item.id, name: "a", price: "-0.05", status: "shipped" });
    expect(JSON.parse(JSON.stringify(await PricedItem.find(item.id)))).toMatchObject({ price: "-0.05" });
    expect(PricedItem.build({ name: "b" }).toJSON()).toMatchObject({ price: null });
  });

  it("is declared by name in a Model's own declarations too", async () => {
    class Tag extends Model({ id: "integer", name: "string", price: { type: "money", null: false } }) {
      static override tableName = "priced_items";
      static override binding = "DB";
      static {
        this.use(moneyType);
      }
    }
    const tag = await Tag.createOrThrow({ name: "t", price: "1.50" });
    expect(cents(await env.DB.prepare("SELECT price FROM priced_items WHERE id = ?").bind(tag.id).first())).toBe(150);
  });
});

describe("defineAttributeType", () => {
  const definition = { cast: (value: unknown) => value as string, toDatabase: (value: string) => value, fromDatabase: (value: unknown) => String(value) };

  it("refuses a taken name, a built-in one included, but takes the same definition again", () => {
    defineAttributeType("slugText", definition);
    expect(() => defineAttributeType("slugText", definition)).not.toThrow();
    expect(() => defineAttributeType("slugText", { ...definition })).toThrow(new TypeError("defineAttributeType: the attribute type slugText is already defined"));
    expect(() => defineAttributeType("string", definition as never)).toThrow(new TypeError("defineAttributeType: the attribute type string is already defined"));
  });

  it("refuses a definition it cannot use, naming what is wrong", () => {
    expect(() => defineAttributeType("has space", definition)).toThrow(/^defineAttributeType takes a type name of letters, digits and _/);
    expect(() => defineAttributeType("noRead", { ...definition, fromDatabase: undefined as never })).toThrow(/^defineAttributeType\(noRead\): fromDatabase takes a function/);
    expect(() => defineAttributeType("badJson", { ...definition, toJSON: "text" as never })).toThrow(/^defineAttributeType\(badJson\): toJSON takes a function/);
    expect(() => defineAttributeType("badOrder", { ...definition, comparable: "yes" as never })).toThrow(/^defineAttributeType\(badOrder\): comparable takes a boolean/);
    expect(() => defineAttributeType("nothing", null as never)).toThrow(/^defineAttributeType\(nothing\) takes \{ cast, toDatabase, fromDatabase \}/);
  });

  it("calls a definition's methods on the definition, so that one written as a class keeps its this", () => {
    class Percent {
      readonly scale = 100;
      cast(value: unknown) {
        return typeof value === "number" ? value : undefined;
      }
      toDatabase(value: number) {
        return Math.round(value * this.scale);
      }
      fromDatabase(stored: unknown) {
        return Number(stored) / this.scale;
      }
    }
    defineAttributeType("percentOfHundred", new Percent());
    class Rate extends Model({ id: "integer", share: "percentOfHundred" as never }) {
      static override tableName = "priced_items";
    }
    expect(Rate.build({ share: 0.25 } as never).toJSON()).toMatchObject({ share: 0.25 });
    expect(Rate.where({ share: 0.25 } as never).toSql().params).toEqual([25]);
  });

  it("must come before the Models that use it: an unknown type name is refused at declaration", () => {
    expect(() => Model({ id: "integer", price: "dollars" as never })).toThrow(InvalidModel);
    expect(() => Model({ id: "integer", price: "toString" as never })).toThrow(/has an unknown type "toString"/);
  });
});
