/** A Model's statics: tableName, primaryKey, attribute lists and the other settings, with their defaults. */
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, defineApplicationRecord, InvalidModel, Model } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

class AppBase extends ActiveRecord {
  static override binding = "DB";
}

const itemSchema = {
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

const ItemApplicationRecord = defineApplicationRecord(itemSchema, AppBase);

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
