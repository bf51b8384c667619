/**
 * Declaring Models (SPEC.md: "Model" statics, "Attribute declarations and types", "Overrides",
 * Record items 1, 2, 4, 9 and 10, and the InvalidModel row of the Errors table).
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  ActiveRecord,
  type AttributeTypeName,
  connect,
  defineApplicationRecord,
  InvalidModel,
  Model,
  UnknownAttribute,
  withDatabase,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import {
  ApplicationBase,
  ApplicationRecord,
  Counter,
  Note,
  User,
  ApplicationRecord as FixtureApplicationRecord,
} from "../models/fixtures.js";
import { AuditRecord } from "../models/audit-items.js";

beforeEach(resetDatabase);

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("declaration checks at first use (Record item 10)", () => {
  /** A factory of Models on notes with an attribute that takes the name of a record method. */
  const attributeNamed = (name: string, type: AttributeTypeName) => () =>
    class Named extends Model({ id: "string", [name]: type }) {
      static override tableName = "notes";
    };
  // Each factory makes a fresh class, so that each test sees the Model's first use.
  const invalid: Record<string, () => { first(): Promise<unknown> } & Function> = {
    "an empty tableName": () =>
      class Blank extends Model({ id: "string", body: "string" }) {
        static override tableName = "";
      },
    "a nameless class without tableName": () => [class extends Model({ id: "string", body: "string" }) {}][0]!,
    "a primaryKey that is not an attribute": () =>
      class Keyless extends Model({ id: "string", body: "string" }) {
        static override tableName = "notes";
        static override primaryKey = "uuid";
      },
    "an attribute named save": attributeNamed("save", "string"),
    "an attribute named attributes": attributeNamed("attributes", "json"),
    "an attribute named reload": attributeNamed("reload", "boolean"),
    "an attribute named toJSON": attributeNamed("toJSON", "string"),
    "an attribute named errors": attributeNamed("errors", "string"),
    "an attribute named destroy": attributeNamed("destroy", "string"),
    "an attribute named isChanged": attributeNamed("isChanged", "boolean"),
    "a class field hiding an attribute": () =>
      class Shadowed extends Model({ id: "string", body: "string" }) {
        static override tableName = "notes";
        override body = "shadow";
      },
    "a hiddenAttributes name that is not an attribute": () =>
      class Hider extends Model({ id: "string", body: "string" }) {
        static override tableName = "notes";
        static override hiddenAttributes = ["body", "passwordDigest"];
      },
    "a generated Model with a hiddenAttributes name it lacks": () =>
      class HiddenUser extends ApplicationRecord("users") {
        static override hiddenAttributes = ["passwordDigest"];
      },
  };

  for (const [name, make] of Object.entries(invalid)) {
    it(`${name} throws InvalidModel at the first query`, async () => {
      const Invalid = make();
      const error = await thrown(() => withDatabase(connect(env.DB), () => Invalid.first()));
      expect(error).toBeInstanceOf(InvalidModel);
    });

    it(`${name} throws InvalidModel at db.model()`, () => {
      const Invalid = make();
      expect(() => connect(env.DB).model(Invalid)).toThrow(InvalidModel);
    });
  }

  it("a primaryKey or type given by mistake is named readably in the refusal", () => {
    class SymbolKeyed extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override primaryKey = Symbol("id") as never;
    }
    expect(() => connect(env.DB).model(SymbolKeyed)).toThrow(new InvalidModel("SymbolKeyed: primaryKey Symbol(id) is not an attribute"));
    expect(() => Model({ id: "integer", price: { type: 7n } as never })).toThrow(/\.price has an unknown type 7n$/);
  });

  it("declarations that are no object, and column, null and generateId of the wrong kind, throw InvalidModel naming them", () => {
    const refusals: [unknown, string][] = [
      [null, "Model takes an object of attribute declarations, not null"],
      [[{ id: "string" }], 'Model takes an object of attribute declarations, not [{…}]'],
      [{ id: "string", body: { type: "string", column: 5 } }, "Model.body: column must be a column name, not 5"],
      [{ id: "string", body: { type: "string", column: "" } }, 'Model.body: column must be a column name, not ""'],
      [{ id: "string", body: { type: "string", null: "no" } }, 'Model.body: null must be true or false, not "no"'],
      [{ id: "string", ref: { type: "string", generateId: "yes" } }, 'Model.ref: generateId must be true or false, not "yes"'],
    ];
    for (const [declarations, message] of refusals) expect(() => Model(declarations as never)).toThrow(new InvalidModel(message));
  });

  it("accepts a valid Model with class fields that are not attributes, and declared types", async () => {
    class Annotated extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      declare body: string | null;
      extra = "not an attribute";
      static helper = "static field";
    }
    const db = connect(env.DB);
    const record = await db.model(Annotated).create({ body: "fine" });
    expect(record.extra).toBe("not an attribute");
    expect((await db.model(Annotated).find(record.id)).body).toBe("fine");
  });

  it("accepts a primaryKey naming another attribute", async () => {
    class NoteByBody extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override primaryKey = "body";
    }
    const db = connect(env.DB);
    await db.model(NoteByBody).create({ id: "n1", body: "key" });
    expect((await db.model(NoteByBody).find("key")).id).toBe("n1");
    expect((await db.model(NoteByBody).first())?.id).toBe("n1");
  });

  it("ignores names from the base class's hiddenAttributes that the Model lacks", async () => {
    class HidingBase extends ActiveRecord {
      static override binding = "DB";
      static override hiddenAttributes = ["passwordDigest", "body"];
    }
    const HidingRecord = defineApplicationRecord({}, HidingBase);
    class Memo extends HidingRecord({ id: "string", body: "string" }) {
      static override tableName = "notes";
    }
    const memo = await Memo.create({ body: "secret body" });
    // The base's list applies to the Model: `body` is hidden, the missing `passwordDigest` is ignored.
    expect(memo.toJSON()).toEqual({ id: memo.id });

    // A Model's own list replaces the base class's, and is checked.
    class ShownMemo extends HidingRecord({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override hiddenAttributes = ["id"];
    }
    expect(ShownMemo.build({ body: "b" }).toJSON()).toEqual({ body: "b" });
  });

  it("fixes the declarations after the first use: a hook added later never runs", async () => {
    class Fixed extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
    }
    const calls: string[] = [];
    Fixed.hook("record:beforeSave", ({ record }) => {
      calls.push(`early:${record.body}`);
    });
    const Bound = connect(env.DB).model(Fixed);
    await Bound.create({ body: "a" });
    try {
      Fixed.hook("record:beforeSave", ({ record }) => {
        calls.push(`late:${record.body}`);
      });
    } catch {
      // Refusing the late declaration is one way of keeping it fixed.
    }
    await Bound.create({ body: "b" });
    expect(calls).toEqual(["early:a", "early:b"]);
  });

  it("fixes the declarations after the first use: tableName and primaryKey set later change nothing", async () => {
    class Fixed extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
    }
    const { db, sqls } = listen();
    const Bound = db.model(Fixed);
    const first = await Bound.create({ body: "a" });
    try {
      (Fixed as { tableName: string }).tableName = "users";
      (Fixed as { primaryKey: string }).primaryKey = "body";
    } catch {
      // Refusing to change the settings is one way of keeping them fixed.
    }
    const built = Bound.build({ body: "b" });
    expect(built.id).toMatch(UUID_V7);
    await built.save();
    expect(sqls().at(-1)).toMatch(/INSERT INTO "?notes"?/);
    expect((await Bound.find(first.id)).body).toBe("a");
    expect((await Bound.find(built.id)).body).toBe("b");
    expect(Bound.where({ body: "b" }).toSql().sql).toMatch(/FROM "?notes"?/);
  });
});

describe("static settings and their defaults", () => {
  it("binding: none given by the library; set on the app's base class and inherited", () => {
    expect(ActiveRecord.binding).toBeUndefined();
    expect(Model({ id: "string" }).binding).toBeUndefined();
    class Bare extends Model({ id: "string" }) {}
    expect(Bare.binding).toBeUndefined();
    expect(ApplicationBase.binding).toBe("DB");
    expect(User.binding).toBe("DB");
  });

  it("tableName: the class name, snake_case and pluralized", () => {
    class LineItem extends Model({ id: "string" }) {}
    expect(LineItem.tableName).toBe("line_items");
    expect(User.tableName).toBe("users");
  });

  it('primaryKey: "id"', async () => {
    expect(ActiveRecord.primaryKey).toBe("id");
    expect(User.primaryKey).toBe("id");
    expect(Note.primaryKey).toBe("id");
    const note = await Note.create({ body: "by id" });
    expect((await Note.find(note.id)).body).toBe("by id");
  });

  it("hiddenAttributes: empty, so toJSON() has every attribute", () => {
    expect(ActiveRecord.hiddenAttributes).toEqual([]);
    expect(User.hiddenAttributes).toEqual([]);
    const user = User.build({ name: "Ada", email: "ada@example.com" });
    expect(Object.keys(user.toJSON()).sort()).toEqual(Object.keys(user.attributes()).sort());
    expect(Object.keys(user.toJSON()).sort()).toEqual(
      ["id", "name", "email", "age", "score", "admin", "bornAt", "settings", "createdAt", "updatedAt"].sort(),
    );
  });

  it("filterAttributes: the default list, each entry filtering what contains it", () => {
    const defaults = ["passw", "email", "secret", "token", "_key", "crypt", "salt", "certificate", "otp", "ssn", "cvv", "cvc"];
    expect(ActiveRecord.filterAttributes).toEqual(defaults);
    expect(User.filterAttributes).toEqual(defaults);

    class Vault extends Model({
      id: "string",
      password: "string",
      email: "string",
      clientSecret: "string",
      accessToken: "string",
      apiKey: "string",
      encryptedValue: "string",
      salt: "string",
      certificate: "string",
      otpCode: "string",
      ssn: "string",
      cvv: "string",
      cvc: "string",
      nickname: "string",
    }) {
      static override tableName = "vaults";
    }
    const filtered = ["password", "email", "clientSecret", "accessToken", "apiKey", "encryptedValue", "salt", "certificate", "otpCode", "ssn", "cvv", "cvc"];
    filtered.forEach((name, index) => {
      const value = 7_000_001 + index;
      let message = "";
      try {
        Vault.build({ [name]: value } as never);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        message = (error as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain(String(value));
    });
    expect(() => Vault.build({ nickname: 7_000_999 as never })).toThrow("7000999");
  });

  /** What `fn` throws, synchronously. */
  function thrownNow(fn: () => unknown): unknown {
    try {
      fn();
    } catch (error) {
      return error;
    }
    return undefined;
  }

  /** Whether the Model filters the attribute: its TypeError for an uncastable value hides the value. */
  function filters(model: { build(attributes: object): unknown }, name: string): boolean {
    const error = thrownNow(() => model.build({ [name]: 7_123_456 }));
    expect(error).toBeInstanceOf(TypeError);
    return !(error as Error).message.includes("7123456");
  }

  it("filterAttributes matches the attribute's name or its column, whichever contains the filter", () => {
    class Columns extends Model({
      id: "string",
      pin: { type: "string", column: "otp_pin" },
      apiToken: { type: "string", column: "plain_value" },
      nickname: { type: "string", column: "nick" },
    }) {
      static override tableName = "columns";
    }
    expect(filters(Columns, "pin")).toBe(true);
    expect(filters(Columns, "apiToken")).toBe(true);
    expect(filters(Columns, "nickname")).toBe(false);
  });

  it("filterAttributes: strings match whatever the case; a RegExp matches as its flags say", () => {
    const attributes = { id: "string", pin: { type: "string", column: "otp_pin" }, nickname: "string" } as const;
    class Upper extends Model(attributes) {
      static override tableName = "uppers";
      static override filterAttributes = ["PIN"];
    }
    class Insensitive extends Model(attributes) {
      static override tableName = "insensitives";
      static override filterAttributes = [/^PIN$/i];
    }
    class Sensitive extends Model(attributes) {
      static override tableName = "sensitives";
      static override filterAttributes = [/^PIN$/, /NICK/];
    }
    class ByColumn extends Model(attributes) {
      static override tableName = "by_columns";
      static override filterAttributes = [/^otp_/];
    }
    expect([filters(ByColumn, "pin"), filters(ByColumn, "nickname")]).toEqual([true, false]);
    expect([filters(Upper, "pin"), filters(Upper, "nickname")]).toEqual([true, false]);
    expect([filters(Insensitive, "pin"), filters(Insensitive, "nickname")]).toEqual([true, false]);
    expect([filters(Sensitive, "pin"), filters(Sensitive, "nickname")]).toEqual([false, false]);
  });

  it("filterAttributes that is not a list of strings and RegExps is InvalidModel naming the Model, at first use", () => {
    const wrong: unknown[] = ["password", [5], [null], [["password"]], null, new Set(["password"])];
    for (const [index, value] of wrong.entries()) {
      const Misfiltered = class extends Model({ id: "string", password: "string" }) {
        static override tableName = `misfiltered_${index}`;
      };
      Object.defineProperty(Misfiltered, "name", { value: `Misfiltered${index}` });
      (Misfiltered as unknown as { filterAttributes: unknown }).filterAttributes = value;
      const error = thrownNow(() => Misfiltered.build({ password: "x" }));
      expect(error, String(value)).toBeInstanceOf(InvalidModel);
      expect((error as Error).message).toContain(`Misfiltered${index}`);
      expect((error as Error).message).toContain("filterAttributes");
    }
  });

  it("perPage 25 and maxPerPage 100, settable on the base class", () => {
    expect(ActiveRecord.perPage).toBe(25);
    expect(ActiveRecord.maxPerPage).toBe(100);
    expect(User.perPage).toBe(25);
    expect(User.maxPerPage).toBe(100);
    class SmallPagesBase extends ActiveRecord {
      static override perPage = 10;
      static override maxPerPage = 50;
    }
    class Paged extends defineApplicationRecord({}, SmallPagesBase)({ id: "string" }) {}
    expect(Paged.perPage).toBe(10);
    expect(Paged.maxPerPage).toBe(50);
    expect(ActiveRecord.perPage).toBe(25);
  });

  it("generateId: time-ordered UUIDs (version 7)", () => {
    const before = Date.now();
    const ids = Array.from({ length: 500 }, () => ActiveRecord.generateId("id"));
    const after = Date.now();
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids).size).toBe(ids.length);
    // Made in order, they sort in order, even within one millisecond.
    expect([...ids].sort()).toEqual(ids);
    // The first 48 bits are the Unix time in milliseconds.
    const milliseconds = parseInt(ids[0]!.replaceAll("-", "").slice(0, 12), 16);
    expect(milliseconds).toBeGreaterThanOrEqual(before);
    expect(milliseconds).toBeLessThanOrEqual(after + 1);
    expect(User.generateId("id")).toMatch(UUID_V7);
  });

  it("generateId is called with the attribute name for text keys and generateId attributes", () => {
    const calls: string[] = [];
    class Ticket extends Model({ id: "string", code: { type: "string", generateId: true }, body: "string" }) {
      static override tableName = "tickets";
      static override generateId = (attribute: string) => {
        calls.push(attribute);
        return `${attribute}-${calls.length}`;
      };
    }
    const ticket = Ticket.build();
    expect(calls.sort()).toEqual(["code", "id"]);
    expect(ticket.id).toMatch(/^id-\d$/);
    expect(ticket.code).toMatch(/^code-\d$/);
    expect(ticket.body).toBeNull();
    // A value the caller gives is kept, and nothing is generated for it.
    calls.length = 0;
    const given = Ticket.build({ id: "mine", code: "given" });
    expect(given.id).toBe("mine");
    expect(given.code).toBe("given");
  });
});

describe("defaults and generated ids at build() (Record items 1 and 2)", () => {
  it("a key and the defaults exist before saving, without a query", async () => {
    const { db, events } = listen();
    const user = db.model(User).build({ name: "Ada" });
    expect(events).toHaveLength(0);
    expect(user.isNewRecord()).toBe(true);
    expect(user.id).toMatch(UUID_V7);
    expect(user.admin).toBe(false);
    const id = user.id;
    expect(await user.save()).toBe(true);
    expect(user.id).toBe(id);
    expect(await env.DB.prepare("SELECT name FROM users WHERE id = ?").bind(id).first("name")).toBe("Ada");
  });

  it("an integer key is left to the database", async () => {
    const counter = Counter.build({ label: "x" });
    expect(counter.id).toBeNull();
    await counter.save();
    expect(counter.id).toBeTypeOf("number");
  });

  it("unassigned attributes read as null and are not written, so the column default applies", async () => {
    const { db, sqls } = listen();
    const counter = db.model(Counter).build({ label: "x" });
    expect(counter.value).toBeNull();
    await counter.save();
    expect(sqls()[0]).toMatch(/^INSERT INTO "?counters"?/);
    expect(sqls()[0]).not.toMatch(/\bvalue\b/);
    expect(counter.value).toBe(7);
  });

  it("a default function is called for each record", () => {
    let calls = 0;
    class Listing extends Model({ id: "string", tags: { type: "json", default: () => (calls++, []) } }) {
      static override tableName = "listings";
    }
    const a = Listing.build();
    const b = Listing.build();
    expect(calls).toBe(2);
    expect(a.tags).toEqual([]);
    expect(a.tags).not.toBe(b.tags);
  });

  it("generated UUIDs sort in creation order", async () => {
    const built = Array.from({ length: 200 }, (_, index) => User.build({ name: `u${index}` }));
    expect(built.map((user) => user.id).sort()).toEqual(built.map((user) => user.id));
    const names: string[] = [];
    for (let index = 0; index < 12; index++) {
      const name = `created ${String(index).padStart(2, "0")}`;
      await User.createOrThrow({ name });
      names.push(name);
    }
    expect(await User.order({ id: "asc" }).pluck("name")).toEqual(names);
  });
});

describe("a record keeps its database (Record item 4)", () => {
  it("saves through the database it was built or loaded through", async () => {
    const first = listen();
    const second = listen();
    const other = listen();
    const user = first.db.model(User).build({ name: "Ada" });
    await withDatabase(other.db, () => user.save());
    expect(first.sqls()).toHaveLength(1);
    expect(other.sqls()).toHaveLength(0);

    const loaded = await second.db.model(User).find(user.id);
    await withDatabase(other.db, () => loaded.update({ name: "Grace" }));
    expect(second.sqls().some((text) => /^UPDATE/.test(text))).toBe(true);
    expect(other.sqls()).toHaveLength(0);
  });
});

describe("overrides of generated attributes", () => {
  it("a type name reads and writes the attribute as that type", async () => {
    class TextAgeUser extends ApplicationRecord("users", { age: "string" }) {}
    expect(TextAgeUser.build({ age: "36" }).age).toBe("36");
    expect(() => TextAgeUser.build({ age: 36 as never })).toThrow(TypeError);

    class IntegerAdminUser extends ApplicationRecord("users", { admin: "integer" }) {}
    expect(IntegerAdminUser.build({ admin: "3" }).admin).toBe(3);
    expect(() => IntegerAdminUser.build({ admin: true as never })).toThrow(TypeError);
    const saved = await IntegerAdminUser.create({ name: "Ada", admin: 1 });
    expect(await env.DB.prepare("SELECT admin FROM users WHERE id = ?").bind(saved.id).first("admin")).toBe(1);
    expect((await IntegerAdminUser.find(saved.id)).admin).toBe(1);
    expect((await User.find(saved.id)).admin).toBe(true);
  });

  it("{ null: false } makes the attribute non-null in TypeScript and changes nothing else", () => {
    class StrictEmailUser extends ApplicationRecord("users", { email: { null: false } }) {}
    const user = StrictEmailUser.build({ name: "Ada", email: "ada@example.com" });
    expectTypeOf(user.email).toEqualTypeOf<string>();
    expectTypeOf(User.build().email).toEqualTypeOf<string | null>();
    expect(user.email).toBe("ada@example.com");
    expect(() => StrictEmailUser.build({ email: 5 as never })).toThrow(TypeError);
    // Other attributes keep their generated declarations, defaults included.
    expect(user.admin).toBe(false);
    expect(user.id).toMatch(UUID_V7);
  });

  it("{ default } and { generateId } replace those parts of a generated attribute", () => {
    class DefaultEmailUser extends ApplicationRecord("users", { email: { default: () => "nobody@example.com" } }) {}
    expect(DefaultEmailUser.build().email).toBe("nobody@example.com");
    class GeneratedEmailUser extends ApplicationRecord("users", { email: { generateId: true } }) {}
    expect(GeneratedEmailUser.build().email).toMatch(UUID_V7);
    class AdminByDefault extends ApplicationRecord("users", { admin: { default: () => true } }) {}
    expect(AdminByDefault.build().admin).toBe(true);
  });

  it("false ignores the column: never typed, read or written, and queries name columns instead of *", async () => {
    class LeanUser extends ApplicationRecord("users", { settings: false }) {}
    expect(User.all().toSql().sql).toMatch(/SELECT \* FROM/);
    const select = LeanUser.all().toSql().sql;
    expect(select).not.toContain("*");
    expect(select).not.toContain("settings");
    for (const column of ["id", "name", "email", "age", "score", "admin", "born_at", "created_at", "updated_at"]) {
      expect(select).toContain(column);
    }
    expect(() => LeanUser.build({ settings: {} } as never)).toThrow(UnknownAttribute);
    expect(() => LeanUser.permit({ settings: "{}" }, "settings" as never)).toThrow(UnknownAttribute);
    expect(Object.keys(LeanUser.build().attributes())).not.toContain("settings");

    const { db, sqls } = listen();
    const lean = await db.model(LeanUser).createOrThrow({ name: "Lean" });
    expect(sqls()[0]).not.toContain("*");
    expect(sqls()[0]).not.toContain("settings");
    await env.DB.prepare(`UPDATE users SET settings = '{"x":1}' WHERE id = ?`).bind(lean.id).run();
    const found = await db.model(LeanUser).find(lean.id);
    expect(sqls().at(-1)).not.toContain("*");
    expect(found.name).toBe("Lean");
    expect(found.attributes()).not.toHaveProperty("settings");
    expect(found.toJSON()).not.toHaveProperty("settings");
    expect(() => found.readAttribute("settings" as never)).toThrow(UnknownAttribute);
    await found.update({ name: "Leaner" });
    await found.reload();
    expect(sqls().join("\n")).not.toContain("settings");
    expect(await env.DB.prepare("SELECT settings FROM users WHERE id = ?").bind(lean.id).first("settings")).toBe('{"x":1}');
  });

  describe("rule 1: InvalidModel", () => {
    const cases: Record<string, object> = {
      "changing a column": { email: { column: "mail" } },
      "changing a column to its own name": { email: { column: "email" } },
      "adding an attribute": { nickname: "string" },
      "adding an attribute with false": { nickname: false },
      "ignoring the primary key": { id: false },
    };
    for (const [name, overrides] of Object.entries(cases)) {
      it(`for ${name}`, async () => {
        const error = await thrown(async () => {
          class Overridden extends ApplicationRecord("users", overrides as never) {}
          connect(env.DB).model(Overridden);
          await withDatabase(connect(env.DB), () => (Overridden as unknown as typeof User).first());
        });
        expect(error).toBeInstanceOf(InvalidModel);
      });
    }
  });

  it("rule 2: changing the type drops the generated default; the column's own default then applies", async () => {
    class IntegerAdminUser extends ApplicationRecord("users", { admin: "integer" }) {}
    const user = IntegerAdminUser.build({ name: "Ada" });
    expect(user.admin).toBeNull();
    const { db, sqls } = listen();
    const saved = await db.model(IntegerAdminUser).createOrThrow({ name: "Ada" });
    expect(sqls()[0]).toMatch(/^INSERT INTO "?users"?/);
    expect(sqls()[0]).not.toMatch(/\badmin\b/);
    expect(saved.admin).toBe(0);

    class FiveAdminUser extends ApplicationRecord("users", { admin: { type: "integer", default: () => 5 } }) {}
    expect(FiveAdminUser.build().admin).toBe(5);
    // Giving the same type is no change: the generated default stays.
    class SameTypeUser extends ApplicationRecord("users", { admin: { type: "boolean" } }) {}
    expect(SameTypeUser.build().admin).toBe(false);
  });

  /** A generated table with a generated key, a generated column and a column with a default (rules 2 and 3). */
  const ticketSchema = {
    tickets: {
      id: { type: "string", null: false, generateId: true },
      code: { type: "string", generateId: true },
      kind: { type: "string", default: "plain" },
    },
  } as const;

  it("rule 2: changing the type drops generateId", () => {
    const TicketRecord = defineApplicationRecord(ticketSchema, ApplicationBase);
    class Ticket extends TicketRecord("tickets") {}
    expect(Ticket.build().code).toMatch(UUID_V7);
    expect(Ticket.build().kind).toBe("plain");
    class JsonCodeTicket extends TicketRecord("tickets", { code: "json" }) {}
    expect(JsonCodeTicket.build().code).toBeNull();
    class JsonKindTicket extends TicketRecord("tickets", { kind: { type: "json" } }) {}
    expect(JsonKindTicket.build().kind).toBeNull();
  });

  it("rule 3: default and generateId replace each other", () => {
    const TicketRecord = defineApplicationRecord(ticketSchema, ApplicationBase);
    class FixedCodeTicket extends TicketRecord("tickets", { code: { default: () => "fixed" } }) {}
    expect(FixedCodeTicket.build().code).toBe("fixed");
    class GeneratedKindTicket extends TicketRecord("tickets", { kind: { generateId: true } }) {}
    const kind = GeneratedKindTicket.build().kind;
    expect(kind).toMatch(UUID_V7);
    expect(kind).not.toBe("plain");
    // A default on the primary key replaces its generated id.
    class FixedIdUser extends ApplicationRecord("users", { id: { default: () => "fixed-id" } }) {}
    expect(FixedIdUser.build().id).toBe("fixed-id");
    expect(FixedIdUser.build().id).toBe("fixed-id");
  });

  it("rule 4: a default that cannot be cast throws TypeError when a record is built", () => {
    // Not type-checked at compile time: this compiles.
    class BadDefaultUser extends ApplicationRecord("users", { age: { default: () => "not a number" } }) {}
    let error: unknown;
    try {
      BadDefaultUser.build({ name: "Ada" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("BadDefaultUser");
    expect((error as Error).message).toContain("age");
    class BadDateUser extends ApplicationRecord("users", { bornAt: { default: () => "yesterday" } }) {}
    expect(() => BadDateUser.build()).toThrow(TypeError);
    class BadHandDefault extends Model({ id: "string", flag: { type: "boolean", default: () => "maybe" } }) {
      static override tableName = "flags";
    }
    expect(() => BadHandDefault.build()).toThrow(TypeError);
  });

  it("rule 5: ignoring a NOT NULL column that has no default makes inserts fail", async () => {
    class NamelessUser extends ApplicationRecord("users", { name: false }) {}
    await expect(NamelessUser.create({ email: "x@example.com" })).rejects.toThrow(/NOT NULL/i);
    expect(await countRows("users")).toBe(0);
  });
});

describe("subclass inheritance (Record item 9)", () => {
  it("a subclass gets a copy of its parent's hooks; hooks added on the child never run for the parent", async () => {
    class ParentNote extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override binding = "DB";
    }
    const log: string[] = [];
    ParentNote.hook("record:beforeSave", ({ record }) => {
      log.push(`parent:${record.body}`);
    });
    class ChildNote extends ParentNote {}
    class SiblingNote extends ParentNote {}
    ChildNote.hook("record:beforeSave", ({ record }) => {
      log.push(`child:${record.body}`);
    });

    await ParentNote.create({ body: "p" });
    expect(log).toEqual(["parent:p"]);
    log.length = 0;
    await ChildNote.create({ body: "c" });
    expect(log.sort()).toEqual(["child:c", "parent:c"]);
    log.length = 0;
    await SiblingNote.create({ body: "s" });
    expect(log).toEqual(["parent:s"]);
    log.length = 0;
    await ParentNote.create({ body: "p2" });
    expect(log).toEqual(["parent:p2"]);
    expect(await countRows("notes")).toBe(4);
  });

  it("a subclass inherits the attributes and the plugins' behaviour", async () => {
    class Admin extends User {}
    const admin = await Admin.createOrThrow({ name: "Root", admin: "1", age: "40" });
    expect(admin).toBeInstanceOf(User);
    expect(admin.id).toMatch(UUID_V7);
    expect(admin.admin).toBe(true);
    expect(admin.age).toBe(40);
    expect(admin.createdAt).toBeInstanceOf(Date);
    expect(admin.updatedAt).toBeInstanceOf(Date);
    expect(() => Admin.build({ nickname: "x" } as never)).toThrow(UnknownAttribute);
  });

  it("a subclass of a Model already in use can still declare its own hooks", async () => {
    class UsedNote extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override binding = "DB";
    }
    await UsedNote.create({ body: "first" });
    class LaterNote extends UsedNote {}
    const seen: (string | null)[] = [];
    LaterNote.hook("record:beforeSave", ({ record }) => {
      seen.push(record.body);
    });
    await LaterNote.create({ body: "later" });
    await UsedNote.create({ body: "parent again" });
    expect(seen).toEqual(["later"]);
  });
});

describe("generateId declarations (SPEC: Attribute declarations; Overrides rule 3)", () => {
  it("generateId is only for string attributes: InvalidModel naming the Model and attribute", async () => {
    const error = await thrown(() => Model({ id: "string", code: { type: "integer", generateId: true } }));
    expect(error).toBeInstanceOf(InvalidModel);
    expect((error as Error).message).toMatch(/\bcode\b.*generateId is only for string attributes/);
    expect(() => ApplicationRecord({ id: "string", code: { type: "datetime", generateId: true } })).toThrow(InvalidModel);
    // An override keeping the generated integer type, or changing a string to another type.
    expect(() => ApplicationRecord("users", { age: { generateId: true } })).toThrow(/users\.age: generateId is only for string attributes/);
    expect(() => ApplicationRecord("posts", { title: { type: "json", generateId: true } })).toThrow(/posts\.title: generateId is only for string attributes/);
    // A string attribute takes it.
    expect(Model({ id: "string", code: { type: "string", generateId: true } })).toBeTypeOf("function");
  });

  it("a declaration with both a default and generateId throws InvalidModel naming the Model and attribute", async () => {
    const error = await thrown(() => Model({ id: "string", code: { type: "string", generateId: true, default: () => "fixed" } }));
    expect(error).toBeInstanceOf(InvalidModel);
    expect((error as Error).message).toMatch(/\bcode\b.*default or generateId, not both/);
    expect(() => ApplicationRecord({ id: "string", code: { type: "string", generateId: true, default: "fixed" } })).toThrow(
      /\bcode\b.*default or generateId, not both/,
    );
    // An override that gives both is refused too, naming the table and attribute.
    expect(() => ApplicationRecord("users", { name: { default: () => "x", generateId: true } })).toThrow(
      /users\.name: an attribute has a default or generateId, not both/,
    );
    // Either one alone is accepted.
    class Coded extends Model({ id: "string", code: { type: "string", default: () => "fixed" }, ref: { type: "string", generateId: true } }) {
      static override tableName = "notes";
    }
    expect(Coded.build().code).toBe("fixed");
    expect(Coded.build().ref).toMatch(UUID_V7);
  });
});

// ---- Models and attributes ------------------------------------------------------------------------------------

describe("guide: Declarations and types", () => {
  class Setting extends FixtureApplicationRecord({
    id: { type: "string", null: false, generateId: true },
    key: { type: "string", null: false },
    value: { type: "json", default: () => ({}) },
    enabled: { type: "boolean", null: false, default: true },
    legacyTitle: { type: "string", column: "title" },
  }) {
    static override tableName = "guide_settings";
  }

  it("builds with defaults; legacyTitle uses the column title", async () => {
    const setting = Setting.build({ key: "theme" });
    expectTypeOf(setting.enabled).toEqualTypeOf<boolean>();
    expectTypeOf(setting.value).toEqualTypeOf<unknown>();
    expectTypeOf(setting.legacyTitle).toEqualTypeOf<string | null>();
    expect(setting.enabled).toBe(true);
    expect(setting.value).toEqual({});
    expect(setting.legacyTitle).toBeNull();
    setting.legacyTitle = "Old";
    await setting.saveOrThrow();
    const row = await env.DB.prepare("SELECT title FROM guide_settings").first<{ title: string }>();
    expect(row!.title).toBe("Old");
  });

  it("default and generateId exclude each other (InvalidModel)", () => {
    // thrown as the class is declared
    expect(() => Model({ id: "string", code: { type: "string", default: "x", generateId: true } as never })).toThrow(InvalidModel);
  });
});

describe("declaration checks at declaration", () => {
  it("an attribute named then is refused: every record would be a thenable, which await takes for a promise", async () => {
    const error = await thrown(() => Model({ id: "string", then: "string" }));
    expect(error).toBeInstanceOf(InvalidModel);
    expect((error as Error).message).toBe(`Model.then would make records thenables, which await takes for promises; name the attribute otherwise`);
    expect(() => Model({ id: "string", "": "string" })).toThrow(new InvalidModel("Model: an attribute has the empty name"));
    // The column may be named then.
    class Thenable extends Model({ id: "string", body: { type: "string", column: "then" } }) {}
    const record = Thenable.build({ body: "x" });
    expect(await Promise.resolve(record)).toBe(record);
  });

  it("two attributes of one column are refused, SQLite's case-insensitive names and snake_case columns included", () => {
    const refusal = (declarations: object) => {
      try {
        Model(declarations as never);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidModel);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal({ id: "string", body: "string", text: { type: "string", column: "body" } })).toBe(
      `Model.text: column "body" is body's too`,
    );
    expect(refusal({ id: "string", firstName: "string", first_name: "string" })).toBe(
      `Model.first_name: column "first_name" is firstName's too`,
    );
    expect(refusal({ id: "string", body: "string", Body: { type: "string", column: "BODY" } })).toMatch(/^Model\.Body: column "BODY" is body's too$/);
  });
});

describe("edge cases once missed", () => {

  // SPEC Overrides rule 1: "... ignoring the primary key throws InvalidModel" (only the primary key).
  it("a column named id may be ignored when the Model's primaryKey is another attribute", async () => {
    class Keyed extends AuditRecord("audit_r_keyed", { id: false }) {
      static override primaryKey = "token";
    }
    const keyed = await Keyed.create({ token: "t1", label: "x" });
    expect(keyed.isPersisted()).toBe(true);
    expect(Object.keys(keyed.attributes())).toEqual(["token", "label"]);
  });
});

describe("edge cases that hold", () => {

  it("a default function gives each record its own json value", () => {
    class D extends Model({ id: "string", data: { type: "json", default: () => ({ list: [] as number[] }) } }) {
      static override tableName = "d_items";
    }
    const a = D.build();
    (a.data as { list: number[] }).list.push(1);
    expect(D.build().data).toEqual({ list: [] });
  });
});
