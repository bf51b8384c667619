/** A Model's statics: tableName, primaryKey, attribute lists and the other settings, with their defaults. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActiveRecord,
  defineApplicationRecord,
  InvalidModel,
  Model,
  hasMany,
  gt,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import {
  ApplicationRecord as FixtureApplicationRecord,
  Post,
  schema as fixtureSchema,
  User,
} from "../models/fixtures.js";
import { AppBase, itemSchema, ItemApplicationRecord } from "../models/typed-items.js";

beforeEach(resetDatabase);

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

  it("a generateId that is not a function throws InvalidModel naming it when a record is built", () => {
    class Misset extends Model({ id: "string" }) {
      static override tableName = "gens";
      static override generateId = "uuid" as never;
    }
    expect(() => Misset.build()).toThrow(new InvalidModel('Misset.generateId must be a function, not "uuid"'));
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
    class FromSchema extends ItemApplicationRecord("sar_items") {
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
    const Rec = defineApplicationRecord(itemSchema, HidingBase);
    class Strict extends Rec("sar_strict") {}
    class Items extends Rec("sar_items") {}
    expect(Strict.build({ label: "l" }).toJSON()).toHaveProperty("label", "l");
    expect(Items.build({ email: "e" }).toJSON()).not.toHaveProperty("email");
  });

  it("hiddenAttributes that is not a list throws InvalidModel at first use: text on a base class hid nothing", () => {
    class HidingBase extends AppBase {
      static override hiddenAttributes = "email" as never;
    }
    const Rec = defineApplicationRecord(itemSchema, HidingBase);
    class Items extends Rec("sar_items") {}
    expect(() => Items.build({ email: "e" })).toThrow(new InvalidModel('Items: hiddenAttributes must be a list of attribute names, not "email"'));
    class Unset extends Rec("sar_items") {
      static override hiddenAttributes = null as never;
    }
    expect(() => Unset.build()).toThrow(new InvalidModel("Unset: hiddenAttributes must be a list of attribute names, not null"));
  });

  it("a Model's own hiddenAttributes replaces the base class's", () => {
    class HidingBase extends AppBase {
      static override hiddenAttributes = ["email"];
    }
    const Rec = defineApplicationRecord(itemSchema, HidingBase);
    class Items extends Rec("sar_items") {
      static override hiddenAttributes = ["name"];
    }
    const json = Items.build({ email: "e", name: "n" }).toJSON();
    expect(json).toHaveProperty("email", "e");
    expect(json).not.toHaveProperty("name");
  });

  it("declarations are fixed after first use", () => {
    class Fixed extends ItemApplicationRecord("sar_items") {}
    Fixed.all();
    expect(() => Fixed.validates("name", { presence: true })).toThrow(InvalidModel);
    expect(() => Fixed.beforeSave(() => {})).toThrow(InvalidModel);
  });
});

function connectModel(model: Function) {
  return listen().db.model(model as never);
}

describe("guide: Static settings", () => {
  class AppBase extends ActiveRecord {
    static override binding = "DB";
    static override perPage = 20;
    static override filterAttributes = ["passw", "token", /^ssn$/];
  }
  const AppRecord = defineApplicationRecord(fixtureSchema, AppBase);
  class Account extends AppRecord("users") {
    static override hiddenAttributes = ["email", "settings"];
    static override maxPerPage = 50;
    static override generateId = () => `usr_${crypto.randomUUID()}`;
  }

  it("applies the settings", async () => {
    const account = await Account.createOrThrow({ name: "Ada", email: "a@x.org", settings: { a: 1 } });
    expect(account.id).toMatch(/^usr_/);
    expect(Object.keys(account.toJSON())).not.toContain("email");
    expect(Object.keys(account.toJSON())).not.toContain("settings");
    expect((await Account.paginate()).perPage).toBe(20);
    expect((await Account.paginate({ perPage: 80 })).perPage).toBe(50);
    // email is no longer filtered: the base's list replaced the default one
    expect(String(account)).toContain(`email: "a@x.org"`);
  });

  it("first-use checks: a class field with an attribute's name throws InvalidModel", () => {
    class Shadow extends FixtureApplicationRecord("users") {
      override name = "";
    }
    expect(() => Shadow.build()).toThrow(InvalidModel);
  });

  it("first-use checks: hiddenAttributes naming no attribute throws InvalidModel", () => {
    class Hid extends FixtureApplicationRecord("users") {
      static override hiddenAttributes = ["nope"];
    }
    expect(() => Hid.build()).toThrow(InvalidModel);
  });
});

// ---- Validations ----------------------------------------------------------------------------------------------

describe("guide: Subclasses", () => {
  class Reader extends FixtureApplicationRecord("users") {
    static regular = this.scope((q) => q.where({ admin: false }));
    posts = hasMany(Post, { foreignKey: "userId" });
    static {
      this.validates("name", { presence: true });
    }
  }

  class Moderator extends Reader {
    static {
      this.validates("email", { presence: true });
    }
  }

  it("inherits a copy: the child's declarations never reach the parent; same table", async () => {
    expect(await Reader.build({ name: "Ada" }).save()).toBe(true);
    const moderator = Moderator.build({ name: "" });
    expect(await moderator.save()).toBe(false);
    expect(moderator.errors.fullMessages()).toEqual(["Name can't be blank", "Email can't be blank"]);
    expect(Moderator.regular().toSql().sql).toBe(`SELECT * FROM "users" WHERE "admin" = ?1`);
    expect(Moderator.tableName).toBe("users");
    const saved = await Moderator.createOrThrow({ name: "Grace", email: "grace@example.com" });
    await Post.createOrThrow({ userId: saved.id, title: "Hi" });
    expect((await saved.posts().toArray()).map((post) => post.title)).toEqual(["Hi"]);
  });
});

// ---- Second round: claims in the prose ------------------------------------------------------------------------

describe("guide: Models and attributes, prose claims", () => {
  it("a table missing from the schema is InvalidModel at run time", () => {
    const make = FixtureApplicationRecord as unknown as (table: string) => { build(): unknown };
    expect(() => make("nope").build()).toThrow(InvalidModel);
  });

  it("a text primary key gets a generated id even without the flag", () => {
    class Plain extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
    }
    expect(Plain.build().id).toMatch(/^[0-9a-f]{8}-/);
  });

  it("override rules 1 and 4: unknown key, changed column, ignored primary key; uncastable default TypeError at build", () => {
    expect(() => FixtureApplicationRecord("users", { nope: "string" } as never)).toThrow(InvalidModel);
    expect(() => FixtureApplicationRecord("users", { name: { column: "x" } } as never)).toThrow(InvalidModel);
    // ignoring the primary key is refused at the Model's first use
    class NoKey extends FixtureApplicationRecord("users", { id: false } as never) {}
    expect(() => (NoKey as unknown as { build(): unknown }).build()).toThrow(InvalidModel);
    class Bad extends FixtureApplicationRecord("users", { age: { default: () => "abc" } }) {}
    expect(() => Bad.build({ name: "x" })).toThrow(TypeError);
  });

  it("an attribute named like a record method throws InvalidModel at first use", () => {
    class Bad extends Model({ id: "string", save: "string" }) {
      static override tableName = "notes";
    }
    expect(() => Bad.build()).toThrow(InvalidModel);
  });
});

// ---- Third round: compile-time claims, hooks, associations with database keys ---------------------------------

describe("guide: compile-time claims", () => {
  it("compile errors the guide promises (checked by tsc through @ts-expect-error)", () => {
    const compileOnly = () => {
      // "A table missing from the schema is a compile error"
      // @ts-expect-error
      FixtureApplicationRecord("nope");
      // override keys "must be attribute names of that table (others are a compile error ...)"
      // @ts-expect-error
      FixtureApplicationRecord("users", { nope: "string" });
      // "A value the association does not take (`delete` on a `hasMany`) is a compile error"
      // @ts-expect-error
      hasMany(Post, { dependent: "delete" });
      // comparison helpers "On a boolean attribute they are a compile error"
      // @ts-expect-error
      User.where({ admin: gt(1) });
      // "a name that is not an attribute is a compile error"
      // @ts-expect-error
      User.permit({}, "nope");
      // "the types ask for lowercase"
      // @ts-expect-error
      User.order({ age: "DESC" });
      // assignment accepts number | string for integer, boolean | number | string for boolean, Date | string for datetime
      User.build({ age: "1", score: "1.5", admin: 1, bornAt: "2020-01-01", settings: Symbol });
      // "Relation methods a plugin adds exist at run time but are not in the Model's TypeScript types"
      // @ts-expect-error
      User.newestFirst();
    };
    expect(typeof compileOnly).toBe("function");
  });
});
