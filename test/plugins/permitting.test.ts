import { beforeEach, describe, expect, it } from "vitest";
import { CastError } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";

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
      let error: unknown;
      try {
        fail();
      } catch (thrown) {
        error = thrown;
      }
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
    expect(() => User.permit({}, ["age"], { emptyAsNul: true } as never)).toThrow(/User\.permit: unknown option emptyAsNul/);
    // @ts-expect-error names come as a list or as arguments, not both
    expect(() => User.permit({}, ["age"], { emptyAsNull: true }, "name")).toThrow(/User\.permit takes/);
    expect(() => User.permit({}, ["age"], null as never)).toThrow(/User\.permit takes/);
  });
});
