import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  ActiveRecord,
  defineApplicationRecord,
  InvalidModel,
  Model,
  RecordInvalid,
} from "../../src/index.js";
import { type AttributeTypeDefinition, defineAttributeType, definePlugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen, countRows } from "../helpers/queries.js";
import { User, ApplicationRecord as FixtureApplicationRecord } from "../models/fixtures.js";
import { thrown } from "../helpers/errors.js";
import { AuditItem } from "../models/audit-items.js";
import { ApplicationRecord } from "../models/items-and-counters.js";

beforeEach(resetDatabase);

/** A plugin type whose value is whatever is assigned (a Map, a Set, bytes): what validations see of a value object. */
const kept: AttributeTypeDefinition<unknown> = { cast: (value) => value, toDatabase: () => "kept", fromDatabase: (stored) => stored };

class KeptBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(definePlugin({ name: "kept-type", setup: () => defineAttributeType("kept", kept) }));
  }
}

class Member extends User {
  static {
    this.validates("name", { presence: true, length: { minimum: 2, maximum: 10 } });
    // These may be left out: as in Rails, a null is checked unless allowNil says not to.
    this.validates("email", { uniqueness: { caseSensitive: false }, format: /@/, allowNil: true });
    this.validates("age", { numericality: { onlyInteger: true, greaterThan: 0, allowNil: true } });
    this.validates("score", { inclusion: { in: [1.5, 2.5], allowNil: true } });
  }
}

/** A Model with no binding: it reaches a database only through db.model() or withDatabase. */
class Registration extends Model({
  id: { type: "string", null: false },
  name: { type: "string", null: false },
  email: "string",
  createdAt: { type: "datetime", null: false },
  updatedAt: { type: "datetime", null: false },
}) {
  static override tableName = "users";
  static {
    this.validates("email", { uniqueness: true });
  }
}

describe("validations", () => {
  it("format with a g or y RegExp judges the same value the same way every time", async () => {
    class Handle extends User {
      static {
        this.validates("name", { format: /^a/g });
        this.validates("email", { format: { with: /@/y, allowNil: true } });
      }
    }
    const results = [];
    for (const name of ["ab", "ac", "ad"]) results.push((await Handle.create({ name })).isPersisted());
    expect(results).toEqual([true, true, true]);
    // A sticky pattern matches at the start of every value, never where the last test ended.
    for (const email of ["x@y", "x@y"]) {
      const refused = Handle.build({ name: "ab", email });
      expect(await refused.save()).toBe(false);
      expect(refused.errors.fullMessages()).toEqual(["Email is invalid"]);
    }
    expect(await Handle.build({ name: "ab", email: "@y" }).save()).toBe(true);
    expect(await Handle.build({ name: "ab", email: "@z" }).save()).toBe(true);
  });

  it("cannot be declared after the Model's first use: declarations are fixed then", () => {
    class Late extends User {}
    Late.build({ name: "first use" });
    expect(() => Late.validates("name", { presence: true })).toThrow(InvalidModel);
    expect(() => Late.validates("name", { presence: true })).toThrow(/Late: declarations are fixed/);
  });

  it("validates checks its arguments when declared: a TypeError naming the Model and validates", () => {
    class Checked extends User {}
    const wrong: unknown[][] = [[5, { presence: true }], [Symbol("name"), { presence: true }], ["name"], ["name", null], ["name", "presence"], ["name", { presence: true }, { length: { minimum: 5 } }]];
    for (const args of wrong) {
      const call = () => (Checked.validates as (...args: unknown[]) => void)(...args);
      expect(call, String(args[1])).toThrow(TypeError);
      expect(call).toThrow(/^Checked\.validates /);
    }
    // A second options object would be ignored: Rails takes every check in one hash.
    expect(() => (Checked.validates as (...args: unknown[]) => void)("name", { presence: true }, { length: { minimum: 5 } })).toThrow(
      new TypeError("Checked.validates takes 2 arguments, not 3; give every check in one options object"),
    );
    // A refused declaration declares nothing: the Model still saves what no check refuses.
    return expect(Checked.create({ name: "" })).resolves.toMatchObject({ name: "" });
  });

  /** The error types on `attribute` after saving a User with `attributes` under this one declaration. */
  async function errorTypes(attribute: string, options: object, attributes: Record<string, unknown>): Promise<string[]> {
    const Checked = class extends User {
      static {
        this.validates(attribute as never, options as never);
      }
    };
    const record = Checked.build({ name: "Ada", ...attributes } as never);
    await record.save();
    return record.errors.on(attribute as never).map((error) => error.type);
  }

  it("format tests a number as its text, and any other value that is not text fails it", async () => {
    expect(await errorTypes("age", { format: /^17$/ }, { age: 17 })).toEqual([]);
    expect(await errorTypes("age", { format: /^18$/ }, { age: 17 })).toEqual(["invalid"]);
    expect(await errorTypes("admin", { format: /true/ }, { admin: true })).toEqual(["invalid"]);
    expect(await errorTypes("settings", { format: /x/ }, { settings: { x: "x" } })).toEqual(["invalid"]);
    expect(await errorTypes("bornAt", { format: /2024/ }, { bornAt: "2024-01-01" })).toEqual(["invalid"]);
  });

  it("inclusion compares a Date in the list by its time, and with no value that is not a Date", async () => {
    const day = new Date("2024-01-01T00:00:00.000Z");
    const inclusion = { inclusion: [day] };
    expect(await errorTypes("bornAt", inclusion, { bornAt: "2024-01-01" })).toEqual([]);
    expect(await errorTypes("bornAt", inclusion, { bornAt: "2024-01-02" })).toEqual(["inclusion"]);
    expect(await errorTypes("settings", inclusion, { settings: day.toISOString() })).toEqual(["inclusion"]);
    expect(await errorTypes("settings", inclusion, { settings: day.getTime() })).toEqual(["inclusion"]);
    expect(await errorTypes("settings", inclusion, { settings: {} })).toEqual(["inclusion"]);
  });

  it("inclusion compares json objects by their entries in any order, arrays by their items in order, at any depth", async () => {
    const inclusion = { inclusion: [{ a: 1, b: [{ c: 2, d: 3 }] }, [1, 2]] };
    expect(await errorTypes("settings", inclusion, { settings: { b: [{ d: 3, c: 2 }], a: 1 } })).toEqual([]);
    expect(await errorTypes("settings", inclusion, { settings: [1, 2] })).toEqual([]);
    expect(await errorTypes("settings", inclusion, { settings: [2, 1] })).toEqual(["inclusion"]);
    expect(await errorTypes("settings", inclusion, { settings: { a: 1, b: [{ c: 2 }] } })).toEqual(["inclusion"]);
    expect(await errorTypes("settings", inclusion, { settings: { a: 1, b: [{ c: 2, d: 3 }], e: null } })).toEqual(["inclusion"]);
    expect(await errorTypes("settings", inclusion, { settings: { 0: 1, 1: 2 } })).toEqual(["inclusion"]);
  });

  it("inclusion compares a plugin type's Maps by their entries, Sets by their members, bytes by their content", async () => {
    const allowed = [new Map([["a", { b: 1 }]]), new Set(["x", "y"]), new Uint8Array([1, 2]).buffer];
    // Typed as json, whose value is unknown too, so that no other test sees the type name.
    class Kept extends defineApplicationRecord({}, KeptBase)({ id: { type: "string", null: false }, name: "string", email: "kept" as "json" }) {
      static override tableName = "users";
      static {
        this.validates("email", { inclusion: allowed });
        // Validated only: nothing is written.
        this.beforeSave(() => {
          throw abort("validated only");
        });
      }
    }
    const included = async (email: unknown) => {
      const record = Kept.build({ id: "k", name: "Ada", email });
      expect(await record.save()).toBe(false);
      return record.errors.on("email").length === 0;
    };
    expect(await included(new Map([["a", { b: 1 }]]))).toBe(true);
    expect(await included(new Set(["y", "x"]))).toBe(true);
    expect(await included(new Uint8Array([1, 2]).buffer)).toBe(true);
    expect(await included(new Uint8Array([1, 2]))).toBe(true);
    expect(await included(new Map([["a", { b: 2 }]]))).toBe(false);
    expect(await included(new Map())).toBe(false);
    expect(await included(new Set(["x"]))).toBe(false);
    expect(await included(new Set())).toBe(false);
    expect(await included(new Uint8Array([1, 3]).buffer)).toBe(false);
    expect(await included(new ArrayBuffer(0))).toBe(false);
    expect(await included({})).toBe(false);
  });

  it("uniqueness asks the database the record writes through", async () => {
    const { db, events } = listen();
    const Registrations = db.model(Registration);
    expect((await Registrations.create({ name: "Ada", email: "ada@example.com" })).isPersisted()).toBe(true);
    const again = await Registrations.create({ name: "Ada", email: "ada@example.com" });
    expect(again.errors.fullMessages()).toEqual(["Email has already been taken"]);
    expect(events.filter((event) => event.sql.startsWith("SELECT 1"))).toHaveLength(2);
  });

  it("refuse an invalid record: save returns false, reasons in errors, nothing written", async () => {
    const { db, events } = listen();
    const member = db.model(Member).build({ name: " ", email: "nope", age: 0, score: 3 });
    expect(await member.save()).toBe(false);
    expect(member.isNewRecord()).toBe(true);
    expect([...member.errors].map((entry) => [entry.attribute, entry.type])).toEqual([
      ["name", "blank"],
      ["name", "too_short"],
      ["email", "invalid"],
      ["age", "greater_than"],
      ["score", "inclusion"],
    ]);
    expect(member.errors.fullMessages()).toEqual([
      "Name can't be blank",
      "Name is too short",
      "Email is invalid",
      "Age must be greater than 0",
      "Score is not included in the list",
    ]);
    expect(events.some((event) => event.sql.startsWith("INSERT"))).toBe(false);
  });

  it("length gives too_short with the message 'is too short', and too_long", async () => {
    const short = await Member.create({ name: "A" });
    expect(short.errors.on("name")).toEqual([{ attribute: "name", type: "too_short", message: "is too short" }]);
    const long = await Member.create({ name: "A name far too long" });
    expect(long.errors.on("name")[0]!.type).toBe("too_long");
  });

  it("uniqueness checks the database, case-insensitively when asked, ignoring the record itself", async () => {
    const first = await Member.createOrThrow({ name: "Ada", email: "Ada@x.io" });
    const second = await Member.create({ name: "Bob", email: "ada@X.IO" });
    expect(second.errors.fullMessages()).toEqual(["Email has already been taken"]);
    expect(await first.update({ name: "Ada L" })).toBe(true);
  });

  it("the case-insensitive uniqueness query shows a filtered attribute's value as [FILTERED]", async () => {
    const { db, events } = listen();
    await db.model(Member).createOrThrow({ name: "Ada", email: "Ada@x.io" });
    events.length = 0;
    await db.model(Member).create({ name: "Bob", email: "ada@X.IO" });
    const check = events.find((event) => event.sql.includes("COLLATE NOCASE"))!;
    expect(check.sql).toBe(`SELECT 1 AS "recordflare_one" FROM "users" WHERE "email" = ?1 COLLATE NOCASE LIMIT 1`);
    expect(check.params).toEqual(["[FILTERED]"]);
  });

  it("message replaces the default message of the declaration's checks", async () => {
    class Polite extends User {
      static {
        this.validates("name", { presence: true, message: "is needed, please" });
      }
    }
    const record = await Polite.create({ name: "" });
    expect(record.errors.fullMessages()).toEqual(["Name is needed, please"]);
    expect(record.errors.on("name")[0]!.type).toBe("blank");
  });

  it("numericality refuses non-integers when onlyInteger", async () => {
    class Scored extends User {
      static {
        this.validates("score", { numericality: { onlyInteger: true } });
      }
    }
    const record = await Scored.create({ name: "x", score: 1.5 });
    expect(record.errors.on("score")[0]!.type).toBe("not_an_integer");
  });

  it("numericality reads text that is wholly a number, as Rails does, on a string attribute", async () => {
    class Coded extends User {
      static {
        this.validates("name", { numericality: { onlyInteger: true, greaterThan: 10 } });
      }
    }
    const reasons = async (name: string) => {
      const record = Coded.build({ name });
      await record.save();
      return record.errors.on("name").map((error) => error.type);
    };
    expect(await reasons("12")).toEqual([]);
    expect(await reasons(" 12 ")).toEqual([]);
    expect(await reasons("+40")).toEqual([]);
    expect(await reasons("9")).toEqual(["greater_than"]);
    expect(await reasons("12.0")).toEqual(["not_an_integer"]);
    expect(await reasons("1e3")).toEqual(["not_an_integer"]);
    expect(await reasons("12abc")).toEqual(["not_a_number"]);
    expect(await reasons("0x1F")).toEqual(["not_a_number"]);
    expect(await reasons("")).toEqual(["not_a_number"]);
    // Integer text of any size is an integer, as Rails' pattern reads it, past JavaScript's safe integers too.
    expect(await reasons("99999999999999999999")).toEqual([]);
    expect(await reasons(" -99999999999999999999 ")).toEqual(["greater_than"]);
    expect(await reasons("99999999999999999999.5")).toEqual(["not_an_integer"]);
  });

  it("OrThrow forms throw RecordInvalid with the record on error.record", async () => {
    const error = await Member.createOrThrow({ name: "" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RecordInvalid);
    expect((error as RecordInvalid).message).toContain("Name can't be blank");
    expect(((error as RecordInvalid).record as Member).isNewRecord()).toBe(true);
  });

  it("run on every save, and an update of an invalid value leaves the row unchanged", async () => {
    const member = await Member.createOrThrow({ name: "Ada" });
    expect(await member.update({ name: "" })).toBe(false);
    expect(member.isPersisted()).toBe(true);
    const row = await env.DB.prepare("SELECT name FROM users WHERE id = ?").bind(member.id).first<{ name: string }>();
    expect(row!.name).toBe("Ada");
  });

  it("a subclass adds validations without changing its parent", async () => {
    class Strict extends Member {
      static {
        this.validates("bornAt", { presence: true });
      }
    }
    expect((await Strict.create({ name: "Ada" })).errors.on("bornAt")).toHaveLength(1);
    expect((await Member.create({ name: "Ada" })).errors.isEmpty()).toBe(true);
  });
});

class Item extends ApplicationRecord("sal_items") {}

/** The messages a fresh record of `model` gets from one failed save with `attrs`. */
async function messagesOf(model: typeof Item, attrs: Record<string, unknown>): Promise<string[]> {
  const record = model.build(attrs as never);
  expect(await record.save()).toBe(false);
  return record.errors.fullMessages();
}

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

  it("a name that is not an attribute is refused at the Model's first use, naming the Model and the name, before anything is sent", async () => {
    // The static block runs before the attributes are known: the check waits for the Model's first use.
    class Misspelt extends User {
      static {
        this.validates("nmae" as never, { presence: true });
      }
    }
    const { db, events } = listen();
    expect(() => Misspelt.build({ name: "Ada" })).toThrow(new InvalidModel('Misspelt.validates("nmae"): Misspelt has no such attribute'));
    expect(await thrown(() => db.model(Misspelt).create({ name: "Ada" }))).toBeInstanceOf(InvalidModel);
    expect(events).toEqual([]);
    expect(await countRows("users")).toBe(0);
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
      { uniqueness: { scope: 5 } },
      { uniqueness: { scope: [] } },
      { uniqueness: { scope: ["email", 5] } },
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
  it("a name that is not an attribute is a compile error, and InvalidModel at first use, not when the validation runs", async () => {
    class Ghost extends Item {
      static {
        // @ts-expect-error -- not an attribute of the Model
        this.validates("nickname", { presence: true });
      }
    }
    expect(await thrown(() => Ghost.build({ name: "x" }).save())).toBeInstanceOf(InvalidModel);
    expect(await countRows("sal_items")).toBe(0);
  });
});

describe("guide: Validations", () => {
  class Signup extends FixtureApplicationRecord("users") {
    static {
      this.validates("name", { presence: true, length: { minimum: 2, maximum: 50 } });
      this.validates("email", { presence: true, format: /@/, uniqueness: { caseSensitive: false } });
      this.validates("score", { numericality: { greaterThan: 0 }, allowNil: true, message: "must be positive" });
    }
  }

  class Player extends FixtureApplicationRecord("users") {
    static {
      this.validates("name", { length: { minimum: 2 } });
      this.validates("age", { numericality: { onlyInteger: true, allowNil: true } });
      this.validates("email", { format: { with: /@/, allowNil: true } });
      this.validates("score", { inclusion: { in: [1, 2, 3] }, allowNil: true });
    }
  }

  it("checks null as Rails checks nil, unless allowNil says to skip it", async () => {
    expect(await Player.build({ name: "Ada" }).save()).toBe(true);
    const nameless = Player.build({ score: 5 });
    expect(await nameless.save()).toBe(false);
    expect(nameless.errors.fullMessages()).toEqual(["Name is too short", "Score is not included in the list"]);
  });

  it("refuses with the messages shown", async () => {
    const signup = Signup.build({ name: "A", email: "ada" });
    expect(await signup.save()).toBe(false);
    expect(signup.errors.fullMessages()).toEqual(["Name is too short", "Email is invalid"]);
    expect(signup.errors.on("email")).toEqual([{ attribute: "email", type: "invalid", message: "is invalid" }]);
    signup.assign({ score: -1 });
    await signup.save();
    expect(signup.errors.fullMessages()).toContain("Score must be positive");
    // allowNil: no score is not a score that must be positive.
    expect(await Signup.build({ name: "Ada", email: "ada@x.org" }).save()).toBe(true);
  });

  it("uniqueness asks on a new record and on a change only; a save with no change sends nothing", async () => {
    const first = await Signup.createOrThrow({ name: "Ada", email: "Ada@x.org" });
    const dup = Signup.build({ name: "Bob", email: "ada@X.org" });
    expect(await dup.save()).toBe(false);
    expect(dup.errors.fullMessages()).toEqual(["Email has already been taken"]);
    const { db, sqls } = listen();
    const again = await db.model(Signup).find(first.id);
    const before = sqls().length;
    await again.save();
    expect(sqls().length).toBe(before);
  });
});

describe("uniqueness with a scope", () => {
  class Handle extends User {
    static {
      this.validates("name", { uniqueness: { scope: ["admin", "age"] } });
    }
  }

  it("takes a value only among the rows with the same values of the scope, a null one matching NULL", async () => {
    const { db, sqls } = listen();
    const Handles = db.model(Handle);
    await Handles.createOrThrow({ name: "ada", admin: false, age: 30 });
    await Handles.createOrThrow({ name: "ada", admin: true, age: 30 });
    await Handles.createOrThrow({ name: "ada", admin: false, age: null });
    const taken = Handles.build({ name: "ada", admin: false, age: null });
    const before = sqls().length;
    expect(await taken.save()).toBe(false);
    expect(taken.errors.fullMessages()).toEqual(["Name has already been taken"]);
    // One query, the scope's conditions in it.
    expect(sqls().slice(before)).toEqual([expect.stringMatching(/WHERE "name" = \?1 AND "admin" = \?2 AND "age" IS NULL LIMIT 1$/)]);
    expect(await countRows("users")).toBe(3);
  });

  it("runs when only an attribute of the scope changes, and not when nothing it reads changes", async () => {
    await Handle.createOrThrow({ name: "bob", admin: true });
    const other = await Handle.createOrThrow({ name: "bob", admin: false });
    other.admin = true;
    expect(await other.save()).toBe(false);
    expect(other.errors.fullMessages()).toEqual(["Name has already been taken"]);
    const { db, sqls } = listen();
    const again = await db.model(Handle).find(other.id);
    again.email = "bob@x.org";
    const before = sqls().length;
    expect(await again.save()).toBe(true);
    expect(sqls().slice(before)).toEqual([expect.stringMatching(/^UPDATE "users"/)]);
  });

  it("a scope naming no attribute of the Model is refused at the Model's first use, before any query", () => {
    class Misscoped extends User {
      static {
        this.validates("name", { uniqueness: { scope: "acount" as never } });
      }
    }
    expect(() => Misscoped.build({ name: "Ada" })).toThrow(new InvalidModel('Misscoped.validates("name"): Misscoped has no attribute "acount"'));
  });
});

describe("guide: Validations, the options table", () => {
  class V extends FixtureApplicationRecord("users") {
    static {
      this.validates("settings", { presence: true, length: { maximum: 2 } });
      this.validates("name", { length: { maximum: 2 }, inclusion: ["ab", "🙂🙂"] });
      this.validates("email", { numericality: { onlyInteger: true } });
    }
  }

  it("presence refuses false and an empty array; length counts an emoji as one; numericality reads text", async () => {
    const v = V.build({ name: "🙂🙂", settings: [], email: " 12 " });
    expect(await v.save()).toBe(false);
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}`)).toEqual(["settings:blank"]);
    v.assign({ settings: false });
    await v.save();
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}`)).toEqual(["settings:blank"]);
    v.assign({ settings: [1, 2, 3], name: "abc", email: "12.0" });
    await v.save();
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}:${e.message}`)).toEqual([
      "settings:too_long:is too long",
      "name:too_long:is too long",
      "name:inclusion:is not included in the list",
      "email:not_an_integer:must be an integer",
    ]);
    v.assign({ email: "12abc", settings: [1], name: "ab" });
    await v.save();
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}:${e.message}`)).toEqual(["email:not_a_number:is not a number"]);
  });

  it("declarations run parent first; a subclass's never reach its parent", async () => {
    class Parent extends FixtureApplicationRecord("users") {
      static {
        this.validates("email", { presence: true });
      }
    }
    class Child extends Parent {
      static {
        this.validates("age", { presence: true });
      }
    }
    const c = Child.build({ name: "x" });
    await c.save();
    expect(c.errors.toArray().map((e) => e.attribute)).toEqual(["email", "age"]);
    const p = Parent.build({ name: "x" });
    await p.save();
    expect(p.errors.toArray().map((e) => e.attribute)).toEqual(["email"]);
  });
});

describe("edge cases once missed", () => {

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
    expect(events[0]!.sql).toMatch(/^SELECT 1 AS "recordflare_one" FROM "audit_r_items" WHERE "name" = \?1/);
  });
});

describe("save({ validate: false }): Rails' save(validate: false)", () => {
  class Checked extends User {
    static calls: string[] = [];
    static {
      this.validates("name", { presence: true, length: { minimum: 2 } });
      this.beforeValidation(() => void Checked.calls.push("beforeValidation"));
      this.afterValidation(() => void Checked.calls.push("afterValidation"));
      this.beforeSave(() => void Checked.calls.push("beforeSave"));
      this.afterSave(() => void Checked.calls.push("afterSave"));
    }
  }

  it("skips the validations and the validation callbacks, and runs the save callbacks", async () => {
    Checked.calls = [];
    const record = Checked.build({ name: "x" });
    expect(await record.save()).toBe(false);
    expect(Checked.calls).toEqual(["beforeValidation", "afterValidation"]);
    expect(await countRows("users")).toBe(0);
    Checked.calls = [];
    expect(await record.save({ validate: false })).toBe(true);
    expect(Checked.calls).toEqual(["beforeSave", "afterSave"]);
    expect(record.errors.isEmpty()).toBe(true);
    expect(await countRows("users")).toBe(1);
    // The option is one save's: the next one validates again.
    expect(await record.update({ name: "y" })).toBe(false);
    expect(await record.saveOrThrow({ validate: false })).toBe(true);
    expect((await Checked.find(record.id)).name).toBe("y");
    await expect(Checked.build({ name: "z" }).saveOrThrow({ validate: true })).rejects.toThrow(RecordInvalid);
  });

  it("an unknown option or a validate that is not a boolean is refused, and nothing is written", async () => {
    const record = Checked.build({ name: "x" });
    await expect(record.save({ validates: false } as never)).rejects.toThrow(`Checked.save: "validates" is not an option; the options are validate`);
    await expect(record.saveOrThrow({ validate: 0 } as never)).rejects.toThrow("Checked.saveOrThrow: validate takes true or false, not 0");
    expect(await countRows("users")).toBe(0);
  });
});
