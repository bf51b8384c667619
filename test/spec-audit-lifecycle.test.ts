/**
 * Black-box probes of SPEC.md's "Validations" and "Callbacks" sections, the "Lifecycle callbacks" and "Which
 * operation emits what" items of "Events", and the rows of "States and transitions" that involve validation or
 * callbacks. Each test quotes the sentence it checks. Where SPEC.md is silent, Rails' Active Record is the
 * reference. Tables: test/fixtures/migrations/0020_spec_audit_lifecycle.sql.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, ActiveRecord, defineApplicationRecord, InvalidModel, MissingAttribute, RecordInvalid, RecordNotSaved, UnknownAttribute } from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { thrown } from "./helpers/errors.js";
import { countRows, listen } from "./helpers/queries.js";

beforeEach(resetDatabase);

class AppBase extends ActiveRecord {
  static override binding = "DB";
}

const schema = {
  sal_items: {
    id: { type: "string", null: false, generateId: true },
    name: "string",
    email: "string",
    qty: "integer",
    score: "real",
    status: "string",
    tags: "json",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
  sal_counters: {
    id: { type: "integer", null: false },
    label: "string",
    hits: { type: "integer", null: false },
  },
} as const;

const ApplicationRecord = defineApplicationRecord(schema, AppBase);

class Item extends ApplicationRecord("sal_items") {}
class Counter extends ApplicationRecord("sal_counters") {}

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

describe("Validations: declarations Rails refuses", () => {
  // SPEC lists six options and says "Validators beyond these and their full option sets: not shown." Rails' `validates`
  // raises ArgumentError for an unknown validator, for no validator at all, and for an option value of the wrong shape,
  // when the validation is declared: a typo must not silently validate nothing.
  it("an unknown option (a typo) throws TypeError naming it, at declaration", () => {
    expect(() => {
      class Typo extends Item {
        static {
          this.validates("name", { presense: true } as never);
        }
      }
      return Typo;
    }).toThrow(new TypeError('Typo.validates("name"): unknown option presense (options: presence, length, format, inclusion, numericality, uniqueness, allowNil, allowBlank, message, on, if)'));
  });

  it("no check at all (an empty object, or only a message) throws TypeError", () => {
    class Empty extends Item {}
    expect(() => Empty.validates("name", {})).toThrow(TypeError);
    expect(() => Empty.validates("name", { message: "is wrong" })).toThrow(TypeError);
  });

  it("an option value of the wrong shape throws TypeError", () => {
    class Shapes extends Item {}
    const wrong: Record<string, unknown>[] = [
      { presence: "yes" },
      { uniqueness: "yes" },
      { uniqueness: { caseSensitive: "no" } },
      { uniqueness: { scope: "email" } },
      { length: {} },
      { length: { minimum: -1 } },
      { length: { maximum: 1.5 } },
      { length: { min: 2 } },
      { length: 3 },
      { format: "^a" },
      { inclusion: "abc" },
      { numericality: { greaterThan: "3" } },
      { numericality: { onlyInteger: "yes" } },
      { numericality: { lessThan: 3 } },
      { message: 5, presence: true },
    ];
    for (const options of wrong) expect(() => Shapes.validates("name", options as never), JSON.stringify(options)).toThrow(TypeError);
    expect(() => Shapes.validates("name", { length: { min: 2 } } as never)).toThrow(
      'Shapes.validates("name"): length: unknown option min (options: minimum, maximum, allowNil, allowBlank, message)',
    );
    expect(() => Shapes.validates("name", { length: {} })).toThrow('Shapes.validates("name"): length: needs one of minimum, maximum');
  });

  it("an option set to false or left undefined is no check, as in Rails; the others still apply", async () => {
    class Off extends Item {
      static {
        this.validates("name", { presence: false, length: { minimum: 2 }, format: undefined } as never);
      }
    }
    expect(await messagesOf(Off, { name: "a" })).toEqual(["Name is too short"]);
    // No "can't be blank": presence is off. A null name is still checked by length, as Rails measures nil as "".
    expect(await messagesOf(Off, { name: null })).toEqual(["Name is too short"]);
  });

  // Rails raises when the validation runs (the record has no such method), and so does this library.
  it("a name that is not an attribute (a compile error) throws UnknownAttribute when the validation runs", async () => {
    class Ghost extends Item {
      static {
        // @ts-expect-error -- not an attribute of the Model
        this.validates("nickname", { presence: true });
      }
    }
    expect(await thrown(() => Ghost.build({ name: "x" }).save())).toBeInstanceOf(UnknownAttribute);
    expect(await countRows("sal_items")).toBe(0);
  });
});

describe("Callbacks: order, abort and what they see", () => {
  // SPEC: "`this.beforeSave(fn)` and `this.beforeDestroy(fn)` take a function receiving the record."
  it("beforeSave and beforeDestroy receive the record itself", async () => {
    const seen: unknown[] = [];
    class Watched extends Item {
      static {
        this.beforeSave((record) => void seen.push(record));
        this.beforeDestroy((record) => void seen.push(record));
      }
    }
    const record = await Watched.createOrThrow({ name: "Ada" });
    await record.destroy();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(record);
    expect(seen[1]).toBe(record);
  });

  // SPEC (Events 2): "`beforeSave` and `beforeDestroy` run before the write, and after-callbacks run after it."
  it("before-callbacks see the record as it is before the write; after-callbacks see it written", async () => {
    const seen: string[] = [];
    class Watched extends Counter {
      static {
        this.beforeSave(async (record) => {
          seen.push(`beforeSave new=${record.isNewRecord()} id=${record.id} rows=${await countRows("sal_counters")}`);
        });
        this.afterSave(async (record) => {
          seen.push(`afterSave persisted=${record.isPersisted()} id=${typeof record.id} hits=${record.hits} rows=${await countRows("sal_counters")}`);
        });
        this.beforeDestroy(async (record) => {
          seen.push(`beforeDestroy destroyed=${record.isDestroyed()} rows=${await countRows("sal_counters")}`);
        });
        this.afterDestroy(async (record) => {
          seen.push(`afterDestroy destroyed=${record.isDestroyed()} rows=${await countRows("sal_counters")}`);
        });
      }
    }
    const record = Watched.build({ label: "visits" });
    expect(await record.save()).toBe(true);
    expect(await record.destroy()).toBe(record);
    expect(seen).toEqual([
      "beforeSave new=true id=null rows=0",
      "afterSave persisted=true id=number hits=0 rows=1",
      "beforeDestroy destroyed=false rows=1",
      "afterDestroy destroyed=true rows=0",
    ]);
  });

  // SPEC: "A callback stops the operation with `throw abort('<reason>')`": nothing is written.
  it("abort in beforeSave stops the save before any write; abort in beforeDestroy before the DELETE", async () => {
    class Guarded extends Item {
      static {
        this.beforeSave((record) => {
          if (record.status === "locked") throw abort("locked records are read-only");
        });
        this.beforeDestroy(() => {
          throw abort("kept forever");
        });
      }
    }
    const { db, events } = listen();
    const Bound = db.model(Guarded);
    const refused = Bound.build({ status: "locked" });
    expect(await refused.save()).toBe(false);
    expect(refused.abortReason).toBe("locked records are read-only");
    expect(refused.isNewRecord()).toBe(true);
    expect(events).toEqual([]);
    const kept = await Bound.createOrThrow({ status: "open" });
    events.length = 0;
    expect(await kept.destroy()).toBe(false);
    expect(kept.abortReason).toBe("kept forever");
    expect(events).toEqual([]);
    expect(kept.isPersisted()).toBe(true);
  });

  // SPEC: `abort(reason)`; Persistence: "`RecordNotSaved` (message is the abort reason)".
  it("abort() without a reason still stops the save and gives a reason", async () => {
    class Stopped extends Item {
      static {
        this.beforeSave(() => {
          throw abort();
        });
      }
    }
    const record = Stopped.build({});
    expect(await record.save()).toBe(false);
    expect(typeof record.abortReason).toBe("string");
    const error = await thrown(() => record.saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe(record.abortReason);
  });

  // SPEC (Events 2): "A callback may change the record (for example normalizing an attribute)".
  it("a beforeSave change on a clean persisted record is written by that save", async () => {
    class Stamped extends Item {
      static {
        this.beforeSave((record) => {
          record.qty = (record.qty ?? 0) + 1;
        });
      }
    }
    const record = await Stamped.createOrThrow({ name: "Ada" });
    expect(record.qty).toBe(1);
    expect(await record.save()).toBe(true);
    expect(record.isChanged()).toBe(false);
    expect((await Item.find(record.id)).qty).toBe(2);
  });

  // SPEC (Events 2): "A thrown error other than an abort propagates from the save call".
  it("an error from beforeDestroy propagates from destroy; the row stays and the record Persisted", async () => {
    class Fragile extends Item {
      static {
        this.beforeDestroy(() => {
          throw new RangeError("boom");
        });
      }
    }
    const record = await Fragile.createOrThrow({ name: "Ada" });
    expect(await thrown(() => record.destroy())).toBeInstanceOf(RangeError);
    expect(record.isPersisted()).toBe(true);
    expect(await countRows("sal_items")).toBe(1);
  });

  // SPEC (Events 3): "`save`, `create`, `update` run validations then save callbacks".
  it("an invalid record runs no save callback; a valid one runs them after every validation", async () => {
    const order: string[] = [];
    class Ordered extends Item {
      static {
        this.beforeSave(() => void order.push("beforeSave"));
        this.validates("name", { presence: true });
        this.validates("email", { uniqueness: true });
      }
    }
    const { db, events } = listen();
    const Bound = db.model(Ordered);
    expect(await Bound.build({ email: "a@x" }).save()).toBe(false);
    expect(order).toEqual([]);
    expect(await Bound.build({ name: "Ada", email: "a@x" }).save()).toBe(true);
    expect(order).toEqual(["beforeSave"]);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["SELECT", "SELECT", "INSERT"]);
  });

  // SPEC (Events 2): "Callbacks run on every save and destroy, (not on bulk writes)."
  it("run on a save with nothing to change, which still sends nothing", async () => {
    let calls = 0;
    class Counted extends Item {
      static {
        this.beforeSave(() => void calls++);
        this.afterSave(() => void calls++);
      }
    }
    const record = await Counted.createOrThrow({ name: "Ada" });
    const { db, events } = listen();
    const bound = await db.model(Counted).find(record.id);
    events.length = 0;
    calls = 0;
    expect(await bound.save()).toBe(true);
    expect(calls).toBe(2);
    expect(events).toEqual([]);
  });
});

describe("States and transitions: rows with validation or callbacks", () => {
  // "New | save(), create(), update() | validation passes and no callback aborts | Persisted | row inserted; defaults
  // and generated ids already present; after-callbacks run; updatedAt/createdAt set"
  it("New -> Persisted: the before-callback already sees the generated id; after-callbacks see the timestamps", async () => {
    const seen: unknown[] = [];
    class Tracked extends Item {
      static {
        this.beforeSave((record) => void seen.push(typeof record.id, record.createdAt));
        this.afterCreate((record) => void seen.push(record.createdAt instanceof Date, record.updatedAt instanceof Date));
      }
    }
    const record = Tracked.build({ name: "Ada" });
    const id = record.id;
    expect(await record.update({ qty: 2 })).toBe(true);
    expect(record.id).toBe(id);
    expect(seen).toEqual(["string", null, true, true]);
  });

  // "New | save(), create() | validation fails | New | returns false (or record for create); reasons in errors"
  it("New -> New on validation failure: createOrThrow throws RecordInvalid carrying the New record", async () => {
    class Named extends Item {
      static {
        this.validates("name", { presence: true });
      }
    }
    const error = (await thrown(() => Named.createOrThrow({ name: "" }))) as RecordInvalid;
    expect(error).toBeInstanceOf(RecordInvalid);
    const record = error.record as Named;
    expect(record.isNewRecord()).toBe(true);
    expect(record.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(await countRows("sal_items")).toBe(0);
  });

  // "Persisted | save(), update() | validation fails or callback aborts | Persisted | returns false": the abort of one
  // save does not stick to the next.
  it("Persisted -> Persisted on abort; the next save that passes clears abortReason", async () => {
    class Guarded extends Item {
      static {
        this.beforeUpdate((record) => {
          if (record.status === "locked") throw abort("locked");
        });
      }
    }
    const record = await Guarded.createOrThrow({ status: "open" });
    expect(await record.update({ status: "locked" })).toBe(false);
    expect(record.abortReason).toBe("locked");
    expect(record.isPersisted()).toBe(true);
    expect(await record.update({ status: "open", name: "x" })).toBe(true);
    expect(record.abortReason).toBeUndefined();
  });
});

describe("more lifecycle probes", () => {
  // SPEC (States): "New | save(), create() | a callback aborts | New | returns false; reason in `abortReason`"; Errors:
  // "`RecordNotSaved` | an `OrThrow` save is aborted by a callback; message is the reason". A callback may add to
  // `errors` before it aborts (a Rails idiom: errors.add then throw :abort); the abort is still the callback's.
  it("a callback that adds an error and aborts: false, the reason in abortReason, RecordNotSaved for OrThrow", async () => {
    class Quota extends Item {
      static {
        this.beforeSave((record) => {
          record.errors.add("base", "quota", "quota exceeded");
          throw abort("over quota");
        });
      }
    }
    const record = Quota.build({ name: "Ada" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("over quota");
    expect(record.errors.fullMessages()).toEqual(["quota exceeded"]);
    const error = await thrown(() => record.saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("over quota");
    expect(await countRows("sal_items")).toBe(0);
  });

  // Rails' uniqueness leaves out the record's own row by its key as stored (`id_in_database`): a record whose key is
  // being changed is not "taken" by its own row.
  it("uniqueness ignores the record's own row even while its primary key is being changed", async () => {
    class Loose extends Item {
      static {
        this.validates("email", { uniqueness: { caseSensitive: false } });
      }
    }
    const record = await Loose.createOrThrow({ email: "ada@example.com" });
    record.id = "renamed-key";
    record.email = "ADA@example.com";
    expect(await record.save()).toBe(true);
    expect(record.errors.toArray()).toEqual([]);
    expect(await Item.pluck("id", "email")).toEqual([["renamed-key", "ADA@example.com"]]);
  });

  // SPEC (Record 10): "After that, declarations are fixed." Callbacks are declarations too.
  it("a callback declared after the Model's first use throws InvalidModel", () => {
    class Late extends Item {}
    Late.build({});
    expect(() => Late.beforeSave(() => {})).toThrow(InvalidModel);
    expect(() => Late.beforeDestroy(() => {})).toThrow(InvalidModel);
  });
});
