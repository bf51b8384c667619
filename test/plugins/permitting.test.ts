import { beforeEach, describe, expect, it } from "vitest";
import { CastError, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";
import { env } from "cloudflare:test";
import { thrown, typeError } from "../helpers/errors.js";
import { Item } from "../models/typed-items.js";

beforeEach(resetDatabase);

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe("CastError: the TypeError of a value that cannot be cast", () => {
  it("is a TypeError carrying the Model and the attribute, from assignment, permit and bulk writes", async () => {
    const failures = [
      () => User.build({ name: "Ada", age: "abc" as never }),
      () => User.build({ name: "Ada" }).assign({ bornAt: "yesterday" as never }),
      () => User.permit(form({ age: "12 years" }), "age"),
      () => User.permit({ admin: "perhaps" }, "admin"),
    ];
    for (const fail of failures) {
      const error = await thrown(fail);
      expect(error).toBeInstanceOf(CastError);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as CastError).model).toBe(User);
      expect(["age", "bornAt", "admin"]).toContain((error as CastError).attribute);
      expect(String(error)).toMatch(/^CastError: User\.(age|bornAt|admin)/);
    }
    const { db, events } = listen();
    await expect(db.model(User).insert({ name: "Ada", score: "high" as never })).rejects.toMatchObject({
      name: "CastError",
      attribute: "score",
    });
    expect(events).toEqual([]);
  });

  it("a file in a form is a CastError of its attribute", () => {
    const data = new FormData();
    data.append("name", new File(["x"], "x.txt"));
    expect(() => User.permit(data, "name")).toThrow(expect.objectContaining({ name: "CastError", attribute: "name", model: User }));
  });

  it("input a JSON body or a missing nested object gives (a list, text, a number, null, undefined) is a CastError of no attribute", async () => {
    for (const input of [[], ["name"], "name=Ada", 5, true, null, undefined]) {
      const error = await thrown(() => User.permit(input, "name"));
      expect(error, JSON.stringify(input)).toBeInstanceOf(CastError);
      expect(error).toMatchObject({ model: User, attribute: undefined });
      expect((error as CastError).value).toBe(input);
      expect((error as Error).message).toMatch(/^User\.permit takes a plain object, FormData or URLSearchParams, not /);
    }
  });

  it("input only code can give (a Map, Headers, a class instance) and wrong options are the app's TypeError, not CastError", async () => {
    for (const fail of [
      () => User.permit(new Map([["name", "Ada"]]), "name"),
      () => User.permit(new Headers({ name: "Ada" }), "name"),
      () => User.permit(new (class Input {})(), "name"),
      () => User.permit({}, ["name"], { emptyAsBlank: true } as never),
    ]) {
      const error = await thrown(fail);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).not.toBeInstanceOf(CastError);
    }
  });

  it("a list of attribute objects is refused without showing their values", async () => {
    const error = await thrown(() => User.permit([{ name: "Ada", password: "secret" }] as never, "name"));
    expect((error as Error).message).toBe("User.permit takes a plain object, FormData or URLSearchParams, not [{…}]");
  });

  it("a name that is no string is refused naming it readably", () => {
    expect(() => User.permit({}, { name: true } as never)).toThrow(new TypeError("User.permit: attribute names are strings, not { name: true }"));
    expect(() => User.permit({}, Object.create(null) as never)).toThrow(new TypeError("User.permit: attribute names are strings, not {}"));
  });

  it("an app can answer bad input with a 400 and still see its own TypeErrors", () => {
    const respond = (handler: () => unknown) => {
      try {
        handler();
        return 200;
      } catch (error) {
        if (error instanceof CastError) return 400;
        throw error;
      }
    };
    expect(respond(() => User.build(User.permit({ age: "twelve" }, "age")))).toBe(400);
    expect(() => respond(() => (null as unknown as { x: number }).x)).toThrow(TypeError);
  });
});

describe("permit(input, names, { emptyAsNull }): HTML forms", () => {
  it("by default refuses an empty field of an attribute that is not text, as SPEC.md says", () => {
    expect(() => User.permit(form({ age: "" }), "age")).toThrow(CastError);
  });

  it("with emptyAsNull, an empty or blank field of a number, boolean or datetime becomes null; text keeps it", () => {
    const permitted = User.permit(form({ name: "", email: " ", age: "", score: "  ", admin: "", bornAt: "", settings: "" }), ["name", "email", "age", "score", "admin", "bornAt"], {
      emptyAsNull: true,
    });
    expect(permitted).toEqual({ name: "", email: " ", age: null, score: null, admin: null, bornAt: null });
    expect(User.permit(form({ age: "41" }), ["age"], { emptyAsNull: true })).toEqual({ age: 41 });
    expect(() => User.permit(form({ age: "4l" }), ["age"], { emptyAsNull: true })).toThrow(CastError);
  });

  it("refuses unknown options and a call mixing the two forms", () => {
    expect(() => User.permit({}, ["age"], { emptyAsNul: true } as never)).toThrow(/^User\.permit: "emptyAsNul" is not an option; the options are emptyAsNull$/);
    // @ts-expect-error names come as a list or as arguments, not both
    expect(() => User.permit({}, ["age"], { emptyAsNull: true }, "name")).toThrow(/User\.permit takes/);
    expect(() => User.permit({}, ["age"], null as never)).toThrow(/User\.permit takes/);
  });
});

async function rowOf(table: string, id: unknown, key = "id"): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE ${key} = ?`).bind(id).first();
}

// ---- permit -------------------------------------------------------------------------------------------

describe("permit", () => {
  it("picks the named attributes of a plain object, cast, ready for create", async () => {
    const permitted = User.permit(
      { name: "Ada", age: "36", admin: "on", bornAt: "2000-01-02", score: "1.5", role: "boss" },
      "name",
      "age",
      "admin",
      "bornAt",
      "score",
    );
    expect(permitted).toEqual({ name: "Ada", age: 36, admin: true, bornAt: new Date("2000-01-02T00:00:00.000Z"), score: 1.5 });
    const user = await User.create(permitted);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada", age: 36, admin: 1, score: 1.5 });
  });

  it("drops keys not named", () => {
    const permitted = User.permit({ name: "Ada", admin: true, id: "forced-id" }, "name");
    expect(permitted).toEqual({ name: "Ada" });
  });

  it("leaves out a named key absent from the input, and keeps null", () => {
    const permitted = User.permit({ name: "Ada", age: null }, "name", "age", "email");
    expect(permitted).toEqual({ name: "Ada", age: null });
    expect(Object.keys(permitted).sort()).toEqual(["age", "name"]);
  });

  it("reads a plain object by own keys only", () => {
    Object.defineProperty(Object.prototype, "admin", { value: "1", configurable: true, writable: true });
    try {
      const input = { name: "Ada" };
      expect((input as Record<string, unknown>)["admin"]).toBe("1");
      expect(User.permit(input, "name", "admin")).toEqual({ name: "Ada" });
    } finally {
      delete (Object.prototype as Record<string, unknown>)["admin"];
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { name: "Ada", age: "2" });
    expect(User.permit(bare, "name", "age")).toEqual({ name: "Ada", age: 2 });
  });

  it("takes the last value of a repeated FormData or URLSearchParams key", () => {
    const form = new FormData();
    form.append("name", "First");
    form.append("name", "Last");
    form.append("age", "7");
    form.append("admin", "true");
    expect(User.permit(form, "name", "age")).toEqual({ name: "Last", age: 7 });

    const query = new URLSearchParams("age=1&age=2&name=Ada&admin=1&email=");
    expect(User.permit(query, "age", "name", "score", "email")).toEqual({ age: 2, name: "Ada", email: "" });
  });

  it("throws UnknownAttribute for a name that is not an attribute", () => {
    // @ts-expect-error nope is not an attribute of User
    expect(() => User.permit({ nope: 1 }, "nope")).toThrow(UnknownAttribute);
    // @ts-expect-error nope is not an attribute of User
    expect(() => User.permit({ name: "Ada" }, "name", "nope")).toThrow(UnknownAttribute);
    // @ts-expect-error password is not an attribute of User
    expect(() => User.permit(new URLSearchParams("password=x"), "password")).toThrow(UnknownAttribute);
  });

  it("throws TypeError for an uncastable value", () => {
    expect(() => User.permit({ age: "12abc" }, "age")).toThrow(TypeError);
    expect(() => User.permit(new URLSearchParams("age="), "age")).toThrow(TypeError);
    expect(() => User.permit(new URLSearchParams("admin=maybe"), "admin")).toThrow(TypeError);
    expect(() => User.permit({ name: 5 }, "name")).toThrow(TypeError);
  });

  it("throws TypeError for a file from a form", () => {
    const form = new FormData();
    form.append("name", new File(["hello"], "name.txt", { type: "text/plain" }));
    expect(() => User.permit(form, "name")).toThrow(TypeError);
    const last = new FormData();
    last.append("name", "Ada");
    last.append("name", new Blob(["x"]), "upload.bin");
    expect(() => User.permit(last, "name")).toThrow(TypeError);
  });

  it("throws TypeError for other input: array, Map, Headers, class instance, null, string", () => {
    class Params {
      name = "Ada";
    }
    const inputs: unknown[] = [
      [["name", "Ada"]],
      new Map([["name", "Ada"]]),
      new Headers({ name: "Ada" }),
      new Params(),
      null,
      "name=Ada",
    ];
    for (const input of inputs) {
      expect(() => User.permit(input, "name"), `input ${Object.prototype.toString.call(input)}`).toThrow(TypeError);
    }
  });
});

describe("building and creating: permit", () => {
  it("reads own keys of a plain object only, drops keys not named, leaves out absent names, keeps null, casts", () => {
    const input: Record<string, unknown> = { qty: " 4 ", flag: null, extra: "x" };
    expect(Item.permit(input, "name", "qty", "flag", "price")).toEqual({ qty: 4, flag: null });
    expect(Item.permit(Object.assign(Object.create(null), { name: "n" }), "name")).toEqual({ name: "n" });
  });

  // SPEC permit rules: "a plain object is read by own keys only". An object whose prototype is a plain object holding
  // the key was refused as a whole (TypeError), rather than read without the inherited key.
  it("a plain object with inherited keys is read by its own keys", () => {
    const input = Object.create({ name: "inherited", admin: true }) as Record<string, unknown>;
    input["qty"] = "4";
    expect(Item.permit(input, "name", "qty")).toEqual({ qty: 4 });
  });

  it("FormData and URLSearchParams: a repeated key takes its last value", () => {
    const params = new URLSearchParams("qty=1&qty=2&flag=on&happenedAt=2024-01-01&extra=1");
    const permitted = Item.permit(params, "qty", "flag", "happenedAt", "name");
    expect(permitted).toEqual({ qty: 2, flag: true, happenedAt: new Date("2024-01-01T00:00:00Z") });
    const form = new FormData();
    form.append("name", "a");
    form.append("name", "b");
    expect(Item.permit(form, "name")).toEqual({ name: "b" });
    const item = Item.build(Item.permit(form, "name"));
    expect(item.name).toBe("b");
  });

  it("TypeError for an uncastable value, a file from a form, or other input", () => {
    typeError(() => Item.permit({ qty: "x" }, "qty"));
    const form = new FormData();
    form.append("name", new File(["x"], "a.txt"));
    typeError(() => Item.permit(form, "name"));
    const formFileFirst = new FormData();
    formFileFirst.append("name", new File(["x"], "a.txt"));
    formFileFirst.append("name", "text");
    expect(Item.permit(formFileFirst, "name")).toEqual({ name: "text" });
    class Custom {
      name = "x";
    }
    for (const input of [[], new Map([["name", "x"]]), new Headers({ name: "x" }), new Custom(), null, "name=x", undefined, 5, new Date()]) {
      typeError(() => Item.permit(input as never, "name"));
    }
  });

  it("a name that is not an attribute throws UnknownAttribute, even when absent from the input", () => {
    expect(() => Item.permit({}, "nope" as never)).toThrow(UnknownAttribute);
    expect(() => Item.permit(new URLSearchParams(), "nope" as never)).toThrow(UnknownAttribute);
  });
});

// ---- Request input --------------------------------------------------------------------------------------------

describe("guide: Request input and security", () => {
  it("permits as described", async () => {
    const form = new FormData();
    form.append("name", "Ada");
    form.append("name", "Ada2");
    form.append("admin", "true");
    form.append("age", "36");
    const attributes = User.permit(form, "name", "email", "age");
    expect(attributes).toEqual({ name: "Ada2", age: 36 });
    expect(User.permit(new URLSearchParams("age=1&age=2"), "age")).toEqual({ age: 2 });
    expect(User.permit({ email: null }, "email")).toEqual({ email: null });
    expect(() => User.permit({}, "nope" as never)).toThrow(UnknownAttribute);
    for (const input of [[], new Map(), new Headers(), null, "x", new Date()]) expect(() => User.permit(input as never, "name")).toThrow(TypeError);
    const fileForm = new FormData();
    fileForm.append("name", new File(["x"], "x.txt"));
    expect(() => User.permit(fileForm, "name")).toThrow(TypeError);
    const user = await User.create(attributes);
    expect(user.admin).toBe(false);
  });

  it("findBy({ email: null }) matches rows whose email is NULL", async () => {
    await User.createOrThrow({ name: "Ada" });
    expect(await User.findBy({ email: null })).not.toBeNull();
  });
});
