/** Attribute input other than a plain object is refused with a TypeError, never read as nothing. */
import { beforeEach, describe, expect, it } from "vitest";
import { hasMany } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { ApplicationRecord as FixtureRecord, Post, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

describe("attribute input other than a plain object is refused, not read as nothing", () => {
  class Writer extends FixtureRecord("users") {
    posts = hasMany(Post, { foreignKey: "userId" });
  }

  const refusals: [string, unknown][] = [
    ["a Map", new Map([["name", "x"]])],
    ["FormData", (() => { const form = new FormData(); form.set("name", "x"); return form; })()],
    ["URLSearchParams", new URLSearchParams({ name: "x" })],
    ["an array", [["name", "x"]]],
    ["a record", User.build({ name: "x" })],
    ["a string", "name=x"],
    ["null", null],
  ];

  for (const [kind, input] of refusals) {
    it(`${kind}: build, create, assign, update and a Relation's or association's build throw TypeError; nothing is written`, async () => {
      const message = /^User\.(build|assign|update) takes a plain object of attribute values \(read forms with permit\), not /;
      expect(() => User.build(input as never)).toThrow(TypeError);
      expect(() => User.build(input as never)).toThrow(message);
      await expect(User.create(input as never)).rejects.toThrow(message);
      expect(() => User.where({ name: "y" }).build(input as never)).toThrow(message);
      const user = await User.createOrThrow({ name: "kept" });
      expect(() => user.assign(input as never)).toThrow(message);
      await expect(user.update(input as never)).rejects.toThrow(message);
      expect(user.name).toBe("kept");
      const writer = await Writer.createOrThrow({ name: "w" });
      expect(() => writer.posts().build(input as never)).toThrow(TypeError);
      // The two users made above, and no other row.
      expect(await User.count()).toBe(2);
      expect(await Post.count()).toBe(0);
    });
  }

  it("objects made with Object.create are read by their own keys, as permit reads them", () => {
    const inherited = Object.create({ email: "inherited@example.com" }) as Record<string, unknown>;
    inherited["name"] = "own";
    const user = User.build(inherited);
    expect([user.name, user.email]).toEqual(["own", null]);
    const bare = Object.create(null) as Record<string, unknown>;
    bare["name"] = "bare";
    expect(User.build(bare).name).toBe("bare");
  });
});
