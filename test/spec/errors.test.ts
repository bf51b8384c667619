/** SPEC.md, Errors: each row of the errors table, thrown as the typed class the package exports. */
import { beforeEach, describe, expect, it } from "vitest";
import * as recordflare from "../../src/index.js";
import { batch, MissingAttribute, Model, RecordNotFound, RecordNotUnique, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { Item } from "../models/runtime-items.js";

beforeEach(resetDatabase);

class Num extends Model({ id: "integer", name: "string" }) {
  static override binding = "DB";
  static override tableName = "srt_nums";
}

const AnyContact = Item as any;

const N = Num as any;

/** The message of what `fn` threw (synchronously or as a rejection), checking its class. */
async function messageOf(fn: () => unknown, type: Function): Promise<string> {
  const error = await thrown(fn);
  expect(error).toBeInstanceOf(type);
  return (error as Error).message;
}

// ---- Errors ---------------------------------------------------------------------------------------------

describe("Errors: 'thrown as typed classes exported by the package'", () => {
  it("every class of the table is exported, is an Error, and is named after itself", () => {
    const names = [
      "UnknownAttribute",
      "MissingAttribute",
      "InvalidModel",
      "RecordNotFound",
      "RecordInvalid",
      "RecordNotSaved",
      "RecordNotDestroyed",
      "RecordDestroyed",
      "RecordNotUnique",
      "IrreversibleOrder",
      "IncompatibleRelation",
    ];
    for (const name of names) {
      const Class = (recordflare as Record<string, any>)[name];
      expect(Class, name).toBeTypeOf("function");
      const error = name === "RecordInvalid" ? new Class("m", {}) : new Class("m");
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
    }
  });

  it("TypeError: a cast error names Model and attribute and shows at most 60 characters of the value", async () => {
    const exactly60 = "1".repeat(59) + "x";
    const message60 = await messageOf(() => AnyContact.build({ age: exactly60 }), TypeError);
    expect(message60).toContain("Item.age");
    expect(message60).toContain(JSON.stringify(exactly60));
    const long = "y".repeat(61) + "TAIL";
    const messageLong = await messageOf(() => AnyContact.build({ age: long }), TypeError);
    expect(messageLong).toContain("y".repeat(60));
    expect(messageLong).not.toContain("y".repeat(61));
    expect(messageLong).not.toContain("TAIL");
    // Values that are not text are shown briefly too, and never break the error itself.
    for (const value of [10n, Symbol("s"), { toString: () => "z".repeat(500) }, () => "w".repeat(500)]) {
      const message = await messageOf(() => AnyContact.build({ age: value }), TypeError);
      expect(message).toContain("Item.age");
      expect(message.length).toBeLessThan(200);
    }
    // A BigInt shows with its n, as paginate shows it: "10" would read as a number that was refused for no reason.
    expect(await messageOf(() => AnyContact.build({ age: 10n }), TypeError)).toBe("Item.age: 10n is not a valid integer");
  });

  it("TypeError: paginate's page or perPage that is not a whole number names the Model and shows at most 60 characters", async () => {
    const message = await messageOf(() => AnyContact.paginate({ page: "p".repeat(5000) }), TypeError);
    expect(message).toContain("Item.paginate: page");
    expect(message).toContain("p".repeat(60));
    expect(message).not.toContain("p".repeat(61));
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    for (const value of [circular, 10n ** 100n]) {
      const shown = await messageOf(() => AnyContact.paginate({ perPage: value }), TypeError);
      expect(shown).toContain("Item.paginate: perPage");
      expect(shown.length).toBeLessThan(200);
    }
  });

  it("UnknownAttribute: assigned or permitted, the message names Model and attribute", async () => {
    for (const fn of [() => AnyContact.build({ nope: 1 }), () => AnyContact.permit({ nope: 1 }, "nope"), () => AnyContact.insert({ nope: 1 }), () => AnyContact.where({ nope: 1 }), () => AnyContact.updateAll({ nope: 1 })]) {
      const message = await messageOf(fn, UnknownAttribute);
      expect(message).toContain("Item");
      expect(message).toContain("nope");
    }
  });

  it("MissingAttribute: 'an attribute not loaded by select is read, including in validators and callbacks'", async () => {
    class Validated extends Model({ id: { type: "string", null: false, generateId: true }, name: "string", age: "integer" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.validates("age", { numericality: { greaterThan: 0 } });
      }
    }
    class CalledBack extends Model({ id: { type: "string", null: false, generateId: true }, name: "string", age: "integer" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.beforeSave((record: any) => void record.age);
      }
    }
    await AnyContact.create({ id: "m", name: "n", age: 3 });
    for (const Class of [Validated, CalledBack] as any[]) {
      const partial = await Class.select("name").find("m");
      partial.name = "changed";
      const message = await messageOf(() => partial.save(), MissingAttribute);
      expect(message).toContain(`${Class.name}.age`);
    }
    expect((await AnyContact.find("m")).name).toBe("n");
  });

  it("RecordNotFound: 'find finds no row (also for an uncastable id)', whatever the id's kind, naming the Model", async () => {
    await N.create({ id: 1, name: "one" });
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    // A symbol is no id at all: find refuses it with TypeError (test/kernel/argument-checks.test.ts).
    for (const id of [10n, circular, "x".repeat(3), 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      const message = await messageOf(() => N.find(id), RecordNotFound);
      expect(message).toContain("Num");
      const listMessage = await messageOf(() => N.find([1, id]), RecordNotFound);
      expect(listMessage).toContain("Num");
    }
    // The ids show as cast errors show values: at most 60 characters each.
    const long = await messageOf(() => AnyContact.find("z".repeat(500)), RecordNotFound);
    expect(long).toContain(`Item: no record with id "${"z".repeat(60)}…"`);
  });

  it("RecordNotUnique names the Model and the attribute (not the column), for one column and for several", async () => {
    await AnyContact.create({ codeValue: "c", partA: "a", partB: "b" });
    const single = await messageOf(() => AnyContact.create({ codeValue: "c" }), RecordNotUnique);
    expect(single).toContain("Item");
    expect(single).toContain("codeValue");
    const pair = await messageOf(() => AnyContact.insertAll([{ partA: "a", partB: "b" }]), RecordNotUnique);
    expect(pair).toContain("Item");
    expect(pair).toContain("partA, partB");
  });

  it("RecordNotUnique for a unique index on an expression still names the Model", async () => {
    await AnyContact.create({ name: "Same" });
    const message = await messageOf(() => AnyContact.create({ name: "same" }), RecordNotUnique);
    expect(message).toContain("Item");
    // The database names the index alone, not its table: in a batch, the Model is known when all are of one.
    const inBatch = await messageOf(() => batch([AnyContact.toInsert({ name: "other" }), AnyContact.toInsert({ name: "SAME" })]), RecordNotUnique);
    expect(inBatch).toContain("Item");
    expect(await AnyContact.count()).toBe(1);
  });

  it("RecordNotUnique for duplicates inside one insertAll list, without onDuplicate: skip", async () => {
    const message = await messageOf(() => AnyContact.insertAll([{ id: "dup" }, { id: "dup" }]), RecordNotUnique);
    expect(message).toContain("Item.id");
    expect(await AnyContact.count()).toBe(0);
  });
});
