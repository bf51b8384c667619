/** SPEC.md, Validations: each option of the validations table, row by row, with its error. */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, MissingAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";
import { thrown } from "../helpers/errors.js";
import { ApplicationRecord } from "../models/items-and-counters.js";
import { SaaOwner } from "../models/titled-items-and-owners.js";

beforeEach(resetDatabase);

const log: string[] = [];

beforeEach(() => {
  log.length = 0;
});

describe("Validations (SPEC: every option)", () => {
  it("presence: an empty JSON object is blank, as Rails' blank? says", async () => {
    class Present extends SaaOwner {
      static {
        this.validates("settings", { presence: true });
      }
    }
    expect(await Present.build({ settings: {} }).save()).toBe(false);
    expect(await Present.build({ settings: [] }).save()).toBe(false);
    expect(await Present.build({ settings: { a: 1 } }).save()).toBe(true);
  });

  it("format tests a number's text, as Rails does (value.to_s)", async () => {
    class Ranked extends SaaOwner {
      static {
        this.validates("rank", { format: /^\d{2}$/ });
      }
    }
    expect(await Ranked.build({ rank: 12 }).save()).toBe(true);
    expect(await Ranked.build({ rank: 123 }).save()).toBe(false);
  });

  it("length measures a number by its text, as Rails does (value.to_s.length)", async () => {
    class Coded extends SaaOwner {
      static {
        this.validates("rank", { length: { minimum: 2, maximum: 3 } });
      }
    }
    expect(await Coded.build({ rank: 12 }).save()).toBe(true);
    const short = Coded.build({ rank: 5 });
    expect(await short.save()).toBe(false);
    expect(short.errors.fullMessages()).toEqual(["Rank is too short"]);
    expect(await Coded.build({ rank: 1234 }).save()).toBe(false);
  });

  it("inclusion compares Dates by their time and json values by their content", async () => {
    class Dated extends SaaOwner {
      static {
        // Each record below sets one of the two; the other, null, is not in its list and must be let through.
        this.validates("startsAt", { inclusion: [new Date("2026-01-01T00:00:00Z")], allowNil: true });
        this.validates("settings", { inclusion: { in: [{ theme: "dark" }, ["a"]], allowNil: true } });
      }
    }
    expect(await Dated.build({ startsAt: "2026-01-01" }).save()).toBe(true);
    expect(await Dated.build({ startsAt: "2026-01-02" }).save()).toBe(false);
    expect(await Dated.build({ settings: { theme: "dark" } }).save()).toBe(true);
    expect(await Dated.build({ settings: ["a"] }).save()).toBe(true);
    expect(await Dated.build({ settings: { theme: "light" } }).save()).toBe(false);
  });

  it("run on every save: a persisted invalid row with no change is refused", async () => {
    await SaaOwner.insert({ id: "o1", name: "" });
    class Named extends SaaOwner {
      static {
        this.validates("name", { presence: true });
      }
    }
    const { db, events } = listen();
    const owner = await db.model(Named).find("o1");
    events.length = 0;
    expect(await owner.save()).toBe(false);
    expect(owner.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(events).toHaveLength(0);
  });

  it("errors and abortReason of an earlier refusal are cleared by the next save", async () => {
    let refuse = true;
    class Flaky extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave(() => {
          if (refuse) throw abort("not now");
        });
      }
    }
    const owner = Flaky.build({});
    expect(await owner.save()).toBe(false);
    expect(owner.errors.size).toBe(1);
    owner.name = "Ada";
    expect(await owner.save()).toBe(false);
    expect(owner.errors.size).toBe(0);
    expect(owner.abortReason).toBe("not now");
    refuse = false;
    expect(await owner.save()).toBe(true);
    expect(owner.abortReason).toBeUndefined();
  });

  it("each option's type and message", async () => {
    class All extends SaaOwner {
      static {
        this.validates("name", { presence: true, length: { minimum: 2, maximum: 3 }, format: /^[a-z]+$/, inclusion: ["ab", "abc"] });
        this.validates("rank", { numericality: { onlyInteger: true, greaterThan: 10 } });
      }
    }
    const a = All.build({ name: "X", rank: 5 });
    expect(await a.save()).toBe(false);
    expect(a.errors.toArray().map((entry) => [entry.attribute, entry.type, entry.message])).toEqual([
      ["name", "too_short", "is too short"],
      ["name", "invalid", "is invalid"],
      ["name", "inclusion", "is not included in the list"],
      ["rank", "greater_than", "must be greater than 10"],
    ]);
    const b = All.build({ name: " ", rank: null });
    expect(await b.save()).toBe(false);
    // A null rank is not a number, as Rails says of nil.
    expect(b.errors.fullMessages()).toEqual(["Name can't be blank", "Name is too short", "Name is invalid", "Name is not included in the list", "Rank is not a number"]);
  });
});

class Item extends ApplicationRecord("sal_items") {}

/** The messages a fresh record of `model` gets from one failed save with `attrs`. */
async function messagesOf(model: typeof Item, attrs: Record<string, unknown>): Promise<string[]> {
  const record = model.build(attrs as never);
  expect(await record.save()).toBe(false);
  return record.errors.fullMessages();
}

describe("Validations: each option and its error", () => {
  // SPEC: "`presence` | `true`"; "Default messages include `can't be blank` (type `blank`)".
  it("presence refuses null, blank text and an empty json value, with type blank and `can't be blank`", async () => {
    class Named extends Item {
      static {
        this.validates("name", { presence: true });
        this.validates("tags", { presence: true });
      }
    }
    const record = Named.build({ name: " \n\t", tags: [] });
    expect(await record.save()).toBe(false);
    expect(record.errors.toArray()).toEqual([
      { attribute: "name", type: "blank", message: "can't be blank" },
      { attribute: "tags", type: "blank", message: "can't be blank" },
    ]);
    expect(await messagesOf(Named, { name: null, tags: {} })).toEqual(["Name can't be blank", "Tags can't be blank"]);
    expect(await Named.build({ name: "x", tags: [0] }).save()).toBe(true);
  });

  // SPEC: "`length` | `{ minimum?, maximum? }`"; "`is too short` (type `too_short`)".
  it("length gives too_short / too_long and passes within the bounds, both ends included", async () => {
    class Sized extends Item {
      static {
        this.validates("name", { length: { minimum: 2, maximum: 4 } });
      }
    }
    const short = Sized.build({ name: "a" });
    expect(await short.save()).toBe(false);
    expect(short.errors.toArray()).toEqual([{ attribute: "name", type: "too_short", message: "is too short" }]);
    expect(await messagesOf(Sized, { name: "abcde" })).toEqual(["Name is too long"]);
    expect(await Sized.build({ name: "ab" }).save()).toBe(true);
    expect(await Sized.build({ name: "abcd" }).save()).toBe(true);
  });

  // SPEC: "`format` | a RegExp".
  it("format refuses text the RegExp does not match, with type invalid", async () => {
    class Mailed extends Item {
      static {
        this.validates("email", { format: /^[^@\s]+@[^@\s]+$/ });
      }
    }
    const record = Mailed.build({ email: "not an address" });
    expect(await record.save()).toBe(false);
    expect(record.errors.toArray()).toEqual([{ attribute: "email", type: "invalid", message: "is invalid" }]);
    expect(await Mailed.build({ email: "ada@example.com" }).save()).toBe(true);
  });

  // SPEC: "`inclusion` | an array of allowed values".
  it("inclusion refuses a value outside the array, with type inclusion", async () => {
    class Stated extends Item {
      static {
        this.validates("status", { inclusion: ["draft", "published"] });
      }
    }
    const record = Stated.build({ status: "archived" });
    expect(await record.save()).toBe(false);
    expect(record.errors.toArray()).toEqual([{ attribute: "status", type: "inclusion", message: "is not included in the list" }]);
    expect(await Stated.build({ status: "draft" }).save()).toBe(true);
  });

  // SPEC: "`numericality` | `{ onlyInteger?, greaterThan? }`".
  it("numericality with onlyInteger and greaterThan: not_an_integer, greater_than, and the bound itself refused", async () => {
    class Counted extends Item {
      static {
        this.validates("score", { numericality: { onlyInteger: true, greaterThan: 2 } });
      }
    }
    const fractional = Counted.build({ score: 3.5 });
    expect(await fractional.save()).toBe(false);
    expect(fractional.errors.toArray()).toEqual([{ attribute: "score", type: "not_an_integer", message: "must be an integer" }]);
    const atBound = Counted.build({ score: 2 });
    expect(await atBound.save()).toBe(false);
    expect(atBound.errors.toArray()).toEqual([{ attribute: "score", type: "greater_than", message: "must be greater than 2" }]);
    expect(await Counted.build({ score: 3 }).save()).toBe(true);
  });

  // SPEC: "`numericality` | `{ onlyInteger?, greaterThan? }`": each option works alone.
  it("numericality with greaterThan alone accepts a fraction above the bound", async () => {
    class Scored extends Item {
      static {
        this.validates("score", { numericality: { greaterThan: 0 } });
      }
    }
    expect(await Scored.build({ score: 0.5 }).save()).toBe(true);
    expect(await messagesOf(Scored, { score: -0.5 })).toEqual(["Score must be greater than 0"]);
  });

  // SPEC: "`uniqueness` | `true` or `{ caseSensitive: false }`"; "`has already been taken`".
  it("uniqueness refuses a value another row has, case-sensitively unless caseSensitive: false", async () => {
    class Exact extends Item {
      static {
        this.validates("email", { uniqueness: true });
      }
    }
    class Loose extends Item {
      static {
        this.validates("email", { uniqueness: { caseSensitive: false } });
      }
    }
    await Exact.createOrThrow({ email: "ada@example.com" });
    const taken = Exact.build({ email: "ada@example.com" });
    expect(await taken.save()).toBe(false);
    expect(taken.errors.toArray()).toEqual([{ attribute: "email", type: "taken", message: "has already been taken" }]);
    expect(await Exact.build({ email: "ADA@example.com" }).save()).toBe(true);
    expect(await messagesOf(Loose, { email: "Ada@Example.COM" })).toEqual(["Email has already been taken"]);
    expect(await countRows("sal_items")).toBe(2);
  });

  // SPEC: "Validations run on every save; an invalid record is not saved."
  it("run on the save of a persisted record too, sending no write when invalid", async () => {
    class Named extends Item {
      static {
        this.validates("name", { presence: true });
      }
    }
    const record = await Named.createOrThrow({ name: "Ada" });
    const { db, events } = listen();
    const bound = await db.model(Named).find(record.id);
    bound.name = "";
    expect(await bound.save()).toBe(false);
    expect(await bound.update({ name: " " })).toBe(false);
    expect(events.map((event) => event.sql).filter((sql) => !sql.startsWith("SELECT"))).toEqual([]);
    expect((await Named.find(record.id)).name).toBe("Ada");
  });

  // SPEC: "Validation failure never throws on `save` or `update`; it returns false with the reasons in `record.errors`."
  it("every failing check of a record is reported, in declaration order, from one save", async () => {
    class Many extends Item {
      static {
        this.validates("name", { presence: true, length: { minimum: 2 } });
        this.validates("qty", { numericality: { greaterThan: 0 } });
        this.validates("status", { inclusion: ["on"] });
      }
    }
    expect(await messagesOf(Many, { name: "", qty: 0, status: "off" })).toEqual([
      "Name can't be blank",
      "Name is too short",
      "Qty must be greater than 0",
      "Status is not included in the list",
    ]);
  });

  // SPEC (Errors): "`MissingAttribute` | an attribute not loaded by `select` is read, including in validators".
  it("a validator reading an attribute not loaded by select throws MissingAttribute from save", async () => {
    class Named extends Item {
      static {
        this.validates("name", { presence: true });
      }
    }
    await Named.createOrThrow({ name: "Ada", email: "a@x" });
    const partial = (await Named.select("email").toArray())[0]!;
    partial.email = "b@x";
    expect(await thrown(() => partial.save())).toBeInstanceOf(MissingAttribute);
  });
});
