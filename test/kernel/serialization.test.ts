/** toJSON() and attributes(): what a record serializes to. */
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, defineApplicationRecord } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { schema, User, ApplicationRecord as FixtureApplicationRecord } from "../models/fixtures.js";
import { Account } from "../models/lifecycle-fixtures.js";
import { RowApplicationRecord, Row } from "../models/noted-rows.js";
import { BlobUser, bytes } from "../models/blob-users.js";
import { Item } from "../models/owners-and-items.js";

beforeEach(resetDatabase);

// ---- Models with callbacks (subclasses, so nothing leaks into User) ------------------------------

const callbackLog: string[] = [];

beforeEach(() => {
  callbackLog.length = 0;
});

// ---- Record item 7: toJSON and attributes() ------------------------------------------------------------

class HidingBase extends ActiveRecord {
  static override binding = "DB";
  static override hiddenAttributes = ["email", "passwordDigest"];
}

const HidingRecord = defineApplicationRecord(schema, HidingBase);

/** Inherits the base's hidden list (email hidden; passwordDigest, which users lack, ignored). */
class QuietUser extends HidingRecord("users") {}

/** Its own list replaces the base's: age hidden, email shown. */
class OwnListUser extends HidingRecord("users") {
  static override hiddenAttributes = ["age"];
}

/** Its own empty list replaces Account's. */
class OpenAccount extends Account {
  static override hiddenAttributes: string[] = [];
}

describe("toJSON and attributes() (Record 7)", () => {
  it("toJSON gives dates as ISO strings and every attribute", async () => {
    const user = await User.create({ name: "Ada", email: "ada@example.com", bornAt: "2000-01-02", settings: { a: 1 }, admin: true });
    const json = user.toJSON();
    expect(json).toEqual({
      id: user.id,
      name: "Ada",
      email: "ada@example.com",
      age: null,
      score: null,
      admin: true,
      bornAt: "2000-01-02T00:00:00.000Z",
      settings: { a: 1 },
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    });
    expect(JSON.parse(JSON.stringify(user))).toEqual(json);
  });

  it("toJSON copies a json attribute's object: editing the JSON leaves the record and its changes as they were", async () => {
    const user = await User.create({ name: "Ada", settings: { theme: { dark: true }, tags: ["a"] } });
    const json = user.toJSON() as { settings: { theme: { dark: boolean }; tags: string[] } };
    json.settings.theme.dark = false;
    json.settings.tags.push("b");
    expect(user.settings).toEqual({ theme: { dark: true }, tags: ["a"] });
    expect(user.isChanged()).toBe(false);
  });

  it("toJSON gives a json attribute's value at any depth its cast takes, and reads it back from D1 the same", async () => {
    // Deeper than SQLite's json_valid takes (1,000): saq_items.data has no CHECK constraint.
    const deep = Array.from({ length: 3000 }).reduce<object>((below) => ({ below }), { leaf: 1 });
    const item = await Item.createOrThrow({ id: "deep", data: deep });
    expect(JSON.parse(JSON.stringify(item))["data"]).toEqual(deep);
    await item.reload();
    expect(item.toJSON()["data"]).toEqual(deep);
  });

  it("attributes() gives Dates as Date and includes hidden attributes", async () => {
    const account = await Account.create({ name: "Ada", passwordDigest: "digest" });
    const attributes = account.attributes();
    expect(attributes["createdAt"]).toBeInstanceOf(Date);
    expect(attributes["passwordDigest"]).toBe("digest");
    expect(Object.keys(attributes).sort()).toEqual(["apiToken", "createdAt", "email", "id", "name", "passwordDigest", "role", "updatedAt"]);
  });

  it("toJSON omits hiddenAttributes", async () => {
    const account = await Account.create({ name: "Ada", passwordDigest: "digest", apiToken: "tok" });
    const json = account.toJSON();
    expect(json).not.toHaveProperty("passwordDigest");
    expect(json).toMatchObject({ name: "Ada", apiToken: "tok", role: "member" });
    expect(JSON.stringify(account)).not.toContain("digest");
  });

  it("hiddenAttributes is fixed at the Model's first use, like every declaration", () => {
    class LateHidden extends QuietUser {}
    const record = LateHidden.build({ name: "Ada", email: "ada@example.com" });
    LateHidden.hiddenAttributes = ["name"];
    expect(record.toJSON()).toMatchObject({ name: "Ada" });
    expect(record.toJSON()).not.toHaveProperty("email");
  });

  it("a Model's own hiddenAttributes replaces its base class's list", () => {
    const open = OpenAccount.build({ name: "Ada", passwordDigest: "digest" });
    expect(open.toJSON()).toMatchObject({ passwordDigest: "digest" });

    const quiet = QuietUser.build({ name: "Ada", email: "ada@example.com", age: 3 });
    expect(quiet.toJSON()).not.toHaveProperty("email");
    expect(quiet.toJSON()).toMatchObject({ name: "Ada", age: 3 });

    const own = OwnListUser.build({ name: "Ada", email: "ada@example.com", age: 3 });
    expect(own.toJSON()).not.toHaveProperty("age");
    expect(own.toJSON()).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(own.attributes()).toMatchObject({ age: 3, email: "ada@example.com" });
  });
});

describe("toJSON and attributes: 'toJSON() returns attributes with dates as ISO strings, omitting hiddenAttributes'", () => {
  it("json attributes stay values (not JSON text); hidden ones are omitted from toJSON and kept in attributes()", async () => {
    class Hidden extends RowApplicationRecord("sar2_rows") {
      static override hiddenAttributes = ["data", "secretNote"];
    }
    const row = await Hidden.create({ data: { d: new Date(0).toISOString(), n: [1] }, label: "l", happenedAt: "0050-01-01", secretNote: "s" });
    const json = row.toJSON() as Record<string, unknown>;
    expect(json).not.toHaveProperty("data");
    expect(json).not.toHaveProperty("secretNote");
    expect(json["happenedAt"]).toBe("0050-01-01T00:00:00.000Z");
    const attrs = row.attributes() as Record<string, unknown>;
    expect(attrs["data"]).toEqual({ d: "1970-01-01T00:00:00.000Z", n: [1] });
    expect(attrs["happenedAt"]).toBeInstanceOf(Date);
    expect(attrs["secretNote"]).toBe("s");
    expect(JSON.parse(JSON.stringify(row))).toEqual(json);
    const plain = Row.build({ data: { x: 1 } }).toJSON() as Record<string, unknown>;
    expect(plain["data"]).toEqual({ x: 1 });
    // attributes() is a copy: editing it changes nothing.
    (attrs["data"] as { n: number[] }).n.push(2);
    expect(row.attributes()).not.toBe(attrs);
  });
});

describe("guide: JSON, attributes and hidden attributes", () => {
  class PublicUser extends FixtureApplicationRecord("users") {
    static override hiddenAttributes = ["email", "settings"];
  }

  it("toJSON leaves out hidden attributes; attributes() has every one", () => {
    const shown = PublicUser.build({ name: "Ada", email: "ada@example.com" });
    expect(Object.keys(shown.toJSON()).sort()).toEqual(["id", "name", "age", "score", "admin", "bornAt", "createdAt", "updatedAt"].sort());
    expect(shown.attributes()["email"]).toBe("ada@example.com");
    expect(JSON.stringify(shown)).toBe(JSON.stringify(shown.toJSON()));
  });
});

describe("toJSON of bytes", () => {
  it("throws TypeError naming the Model and attribute for bytes of a type with no JSON form, which JSON would write as {\"0\": ...}", () => {
    const user = BlobUser.build({ id: bytes(1), name: "Ada", email: null });
    expect(() => user.toJSON()).toThrow(new TypeError("BlobUser.toJSON: id holds bytes, which JSON has no form for; give its attribute type a toJSON (hex or base64 text)"));
    class HiddenBytes extends BlobUser {
      static override hiddenAttributes = ["id", "email"];
    }
    expect(HiddenBytes.build({ id: bytes(1), name: "Ada", email: bytes(2) }).toJSON()).toMatchObject({ name: "Ada" });
  });
});
