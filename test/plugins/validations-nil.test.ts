/**
 * A null value under each validator, on real D1. As Rails validates nil unless told not to, null is checked like
 * any value; `allowNil` and `allowBlank` (on a check's options, a long form, or the whole declaration) skip it.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { ValidationOptions } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { User } from "../models/fixtures.js";

beforeEach(resetDatabase);

type UserAttributes = Parameters<typeof User.build>[0];
type Attribute = "name" | "email" | "age" | "score";
/** The options of a declaration on any of these attributes. */
type Options = ValidationOptions<string | number | null>;

/** A User with one declaration, unique to the call: each test's Model has only the checks it names. */
function userValidating(attribute: Attribute, options: Options): typeof User {
  return class Checked extends User {
    static {
      this.validates(attribute, options);
    }
  };
}

/** The error types a save of these attributes gives on `attribute`, after the save (and its rows) are done. */
async function errorTypes(model: typeof User, attribute: Attribute, attributes: UserAttributes): Promise<string[]> {
  const record = model.build(attributes);
  await record.save();
  return record.errors.on(attribute).map((error) => error.type);
}

describe("null is checked, as Rails checks nil", () => {
  it("length: null fails a minimum as length 0, passes a maximum alone, and fails the minimum of both", async () => {
    expect(await errorTypes(userValidating("email", { length: { minimum: 3 } }), "email", { name: "a" })).toEqual(["too_short"]);
    expect(await errorTypes(userValidating("email", { length: { maximum: 3 } }), "email", { name: "a" })).toEqual([]);
    expect(await errorTypes(userValidating("email", { length: { minimum: 3, maximum: 9 } }), "email", { name: "a" })).toEqual(["too_short"]);
  });

  it("length: the message of a null too short is Rails' 'is too short'", async () => {
    const record = userValidating("email", { length: { minimum: 1 } }).build({ name: "a" });
    expect(await record.save()).toBe(false);
    expect(record.errors.fullMessages()).toEqual(["Email is too short"]);
  });

  it('format: null is tested as "", failing unless the RegExp matches the empty string', async () => {
    expect(await errorTypes(userValidating("email", { format: /@/ }), "email", { name: "a" })).toEqual(["invalid"]);
    expect(await errorTypes(userValidating("email", { format: /^[^\s]*$/ }), "email", { name: "a" })).toEqual([]);
  });

  it("inclusion: null fails unless the list holds null", async () => {
    expect(await errorTypes(userValidating("age", { inclusion: [1, 2] }), "age", { name: "a" })).toEqual(["inclusion"]);
    expect(await errorTypes(userValidating("age", { inclusion: [1, null] }), "age", { name: "a" })).toEqual([]);
  });

  it("numericality: null is not a number", async () => {
    const record = userValidating("age", { numericality: true }).build({ name: "a" });
    expect(await record.save()).toBe(false);
    expect(record.errors.on("age")).toEqual([{ attribute: "age", type: "not_a_number", message: "is not a number" }]);
    expect(await errorTypes(userValidating("age", { numericality: { onlyInteger: true, greaterThan: 0 } }), "age", { name: "a" })).toEqual(["not_a_number"]);
  });

  it("uniqueness: a null is taken when another row's column IS NULL", async () => {
    const Unique = userValidating("email", { uniqueness: true });
    expect(await errorTypes(Unique, "email", { name: "first" })).toEqual([]);
    expect(await User.where({ email: null }).count()).toBe(1);
    expect(await errorTypes(Unique, "email", { name: "second" })).toEqual(["taken"]);
    expect(await errorTypes(userValidating("email", { uniqueness: { caseSensitive: false } }), "email", { name: "third" })).toEqual(["taken"]);
    expect(await User.count()).toBe(1);
  });

  it("uniqueness: a persisted record's own NULL row is not a rival; another's is", async () => {
    const Unique = userValidating("email", { uniqueness: true });
    const record = await Unique.createOrThrow({ name: "first", email: "a@x" });
    expect(await record.update({ email: null })).toBe(true);
    expect(await errorTypes(Unique, "email", { name: "second" })).toEqual(["taken"]);
  });
});

describe("allowNil and allowBlank on a check's own options", () => {
  it("allowNil skips null for each check, and only null", async () => {
    const skipping: [Attribute, Options][] = [
      ["email", { length: { minimum: 3, allowNil: true } }],
      ["email", { format: { with: /@/, allowNil: true } }],
      ["age", { inclusion: { in: [1, 2], allowNil: true } }],
      ["age", { numericality: { allowNil: true } }],
      ["email", { uniqueness: { allowNil: true } }],
    ];
    await User.createOrThrow({ name: "holds a NULL email" });
    for (const [attribute, options] of skipping) {
      expect(await errorTypes(userValidating(attribute, options), attribute, { name: "a" }), JSON.stringify(options)).toEqual([]);
    }
    expect(await errorTypes(userValidating("email", { length: { minimum: 3, allowNil: true } }), "email", { name: "a", email: "" })).toEqual(["too_short"]);
    expect(await errorTypes(userValidating("age", { inclusion: { in: [1, 2], allowNil: true } }), "age", { name: "a", age: 3 })).toEqual(["inclusion"]);
  });

  it("allowBlank skips null and what presence calls blank", async () => {
    const Sized = userValidating("email", { length: { minimum: 3, allowBlank: true }, format: { with: /@/, allowBlank: true } });
    for (const email of [null, "", "   "]) expect(await errorTypes(Sized, "email", { name: "a", email }), String(email)).toEqual([]);
    expect(await errorTypes(Sized, "email", { name: "a", email: "ab" })).toEqual(["too_short", "invalid"]);
  });

  it("the long forms of format and inclusion check as the short ones do", async () => {
    expect(await errorTypes(userValidating("email", { format: { with: /@/ } }), "email", { name: "a", email: "ab" })).toEqual(["invalid"]);
    expect(await errorTypes(userValidating("email", { format: { with: /@/ } }), "email", { name: "a" })).toEqual(["invalid"]);
    expect(await errorTypes(userValidating("age", { inclusion: { in: [1, 2] } }), "age", { name: "a", age: 2 })).toEqual([]);
    expect(await errorTypes(userValidating("age", { inclusion: { in: [1, 2] } }), "age", { name: "a" })).toEqual(["inclusion"]);
  });

  it("a long-form format with a g RegExp keeps its own copy: the app's lastIndex is left alone", async () => {
    const pattern = /a/g;
    const Handle = userValidating("email", { format: { with: pattern } });
    pattern.lastIndex = 5;
    expect(await errorTypes(Handle, "email", { name: "a", email: "a@x" })).toEqual([]);
    expect(pattern.lastIndex).toBe(5);
  });
});

describe("allowNil and allowBlank on the declaration", () => {
  it("apply to every check of the declaration, presence too, as Rails passes them to each validator", async () => {
    const Lenient = userValidating("age", { presence: true, numericality: true, inclusion: [1, 2], allowNil: true });
    expect(await errorTypes(Lenient, "age", { name: "a" })).toEqual([]);
    expect(await errorTypes(Lenient, "age", { name: "a", age: 3 })).toEqual(["inclusion"]);
    // allowNil lets null through presence, not a blank string.
    const Named = userValidating("email", { presence: true, allowNil: true });
    expect(await errorTypes(Named, "email", { name: "a" })).toEqual([]);
    expect(await errorTypes(Named, "email", { name: "a", email: " " })).toEqual(["blank"]);
  });

  it("allowBlank on the declaration skips a blank string for every check", async () => {
    // On name, which has no UNIQUE index: a second blank name is let through by the check and saved.
    const Optional = userValidating("name", { length: { minimum: 3 }, format: /@/, uniqueness: true, allowBlank: true });
    await User.createOrThrow({ name: "" });
    expect(await errorTypes(Optional, "name", { name: "" })).toEqual([]);
    expect(await errorTypes(Optional, "name", { name: "  " })).toEqual([]);
    expect(await User.where({ name: "" }).count()).toBe(2);
    expect(await errorTypes(Optional, "name", { name: "x" })).toEqual(["too_short", "invalid"]);
  });

  it("a check's own allowNil wins over the declaration's, as Rails merges a validator's options over the defaults", async () => {
    const Mixed = userValidating("email", { length: { minimum: 3, allowNil: false }, format: /@/, allowNil: true });
    expect(await errorTypes(Mixed, "email", { name: "a" })).toEqual(["too_short"]);
  });
});

describe("allowNil and allowBlank are checked when declared", () => {
  const refusal = (options: object) => {
    try {
      userValidating("email", options as Options);
    } catch (error) {
      return error instanceof TypeError ? error.message : `not a TypeError: ${String(error)}`;
    }
    return "accepted";
  };

  it("a wrong value or a missing long-form key throws TypeError naming the Model, attribute and option", () => {
    expect(refusal({ presence: true, allowNil: "yes" })).toBe('Checked.validates("email"): allowNil: must be true or false');
    expect(refusal({ length: { minimum: 1, allowBlank: 1 } })).toBe('Checked.validates("email"): length: allowBlank: must be true or false');
    expect(refusal({ length: { allowNil: true } })).toBe('Checked.validates("email"): length: needs one of minimum, maximum');
    expect(refusal({ format: { allowNil: true } })).toBe('Checked.validates("email"): format: needs with');
    expect(refusal({ format: { with: "@" } })).toBe('Checked.validates("email"): format: with: must be a RegExp');
    expect(refusal({ format: "@" })).toBe('Checked.validates("email"): format: must be a RegExp');
    expect(refusal({ inclusion: { in: "ab" } })).toBe('Checked.validates("email"): inclusion: in: must be an array of the allowed values');
    expect(refusal({ inclusion: {} })).toBe('Checked.validates("email"): inclusion: needs in');
    expect(refusal({ numericality: { allowNil: null } })).toBe('Checked.validates("email"): numericality: allowNil: must be true or false');
    expect(refusal({ uniqueness: { allownil: true } })).toBe(
      'Checked.validates("email"): uniqueness: unknown option allownil (options: caseSensitive, scope, allowNil, allowBlank, message)',
    );
    expect(refusal({ presence: { allowNil: true } })).toBe('Checked.validates("email"): presence: must be true');
  });

  it("allowNil or allowBlank alone is no check, and throws as an empty declaration does", () => {
    expect(refusal({ allowNil: true })).toBe(
      'Checked.validates("email") needs at least one check (presence, length, format, inclusion, numericality, uniqueness)',
    );
    expect(refusal({ allowBlank: true, message: "is odd" })).toMatch(/needs at least one check/);
  });
});
