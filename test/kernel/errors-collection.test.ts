/** record.errors: the errors collection. */
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { abort } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { User } from "../models/fixtures.js";
import { ItemApplicationRecord, Item } from "../models/typed-items.js";

beforeEach(resetDatabase);

// ---- Models with callbacks (subclasses, so nothing leaks into User) ------------------------------

const callbackLog: string[] = [];

/** Blank name fails validation; a name starting with "Stop" aborts the save; "Keep" aborts a destroy. */
class GuardedUser extends User {
  static {
    this.hook("record:validate", ({ record }) => {
      if (record.name === "") record.errors.add("name", "blank", "can't be blank");
    });
    this.hook("record:beforeSave", ({ record }) => {
      if (typeof record.name === "string" && record.name.startsWith("Stop")) throw abort(`no saving ${record.name}`);
    });
    this.hook("record:afterSave", ({ record, operation }) => {
      callbackLog.push(`afterSave ${operation} ${record.name} persisted=${record.isPersisted()}`);
    });
    this.hook("record:beforeDestroy", ({ record }) => {
      if (record.name === "Keep") throw abort("kept on purpose");
    });
    this.hook("record:afterDestroy", ({ record }) => {
      callbackLog.push(`afterDestroy ${record.name} destroyed=${record.isDestroyed()}`);
    });
  }
}

/** Always invalid, with two failures, one on a camelCase attribute. */
class TwiceInvalidUser extends User {
  static {
    this.hook("record:validate", ({ record }) => {
      record.errors.add("name", "too_short", "is too short");
      record.errors.add("bornAt", "blank", "can't be blank");
    });
  }
}

beforeEach(() => {
  callbackLog.length = 0;
});

// ---- Errors collection ----------------------------------------------------------------------------------

describe("errors collection", () => {
  it("add takes an attribute, a type and a message, each a string: Rails' add(name, message) is refused, not listed as undefined", () => {
    const user = User.build({ name: "x" });
    const add = user.errors.add.bind(user.errors) as (...args: unknown[]) => void;
    const expected = "errors.add takes an attribute, a type and a message, each a string";
    expect(() => add("name", "is odd")).toThrow(new TypeError(`${expected}, not ["name", "is odd"]`));
    expect(() => add("base")).toThrow(new TypeError(`${expected}, not ["base"]`));
    expect(() => add("name", "odd", 5)).toThrow(new TypeError(`${expected}, not ["name", "odd", 5]`));
    expect(user.errors.isEmpty()).toBe(true);
    user.errors.add("name", "odd", "is odd");
    expect(user.errors.fullMessages()).toEqual(["Name is odd"]);
  });

  it("each entry has attribute, type and message; fullMessages prefixes the readable attribute name", async () => {
    const user = TwiceInvalidUser.build({ name: "x" });
    expect(await user.save()).toBe(false);
    expect([...user.errors].map(({ attribute, type, message }) => ({ attribute, type, message }))).toEqual([
      { attribute: "name", type: "too_short", message: "is too short" },
      { attribute: "bornAt", type: "blank", message: "can't be blank" },
    ]);
    expect(user.errors.fullMessages()).toEqual(["Name is too short", "Born at can't be blank"]);
  });

  it("prints each failure", async () => {
    const user = TwiceInvalidUser.build({ name: "x" });
    await user.save();
    for (const text of [String(user.errors), inspect(user.errors)]) {
      expect(text).toContain("Name is too short");
      expect(text).toContain("Born at can't be blank");
    }
  });

  it("a validate hook adding a blank error gives \"Name can't be blank\"", async () => {
    const user = await GuardedUser.create({ name: "" });
    expect(user.errors.fullMessages()).toEqual(["Name can't be blank"]);
  });
});

describe("errors collection", () => {
  it("entries have attribute, type and message; fullMessages humanizes the attribute", async () => {
    class Checked extends ItemApplicationRecord("sar_items") {
      static {
        this.validates("happenedAt", { presence: true });
        this.validates("name", { length: { minimum: 3 } });
        this.validates("code", { uniqueness: true });
      }
    }
    await Item.create({ code: "c" });
    const record = Checked.build({ name: "ab", code: "c" });
    expect(await record.save()).toBe(false);
    expect(record.errors.toArray()).toEqual([
      { attribute: "happenedAt", type: "blank", message: "can't be blank" },
      { attribute: "name", type: "too_short", message: "is too short" },
      { attribute: "code", type: "taken", message: "has already been taken" },
    ]);
    expect(record.errors.fullMessages()).toEqual(["Happened at can't be blank", "Name is too short", "Code has already been taken"]);
    expect(Array.isArray(record.errors.fullMessages())).toBe(true);
  });
});
