/** Printing a record or a Relation: String(), util.inspect and console output. */
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { abort, ActiveRecord, defineApplicationRecord, Model } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { schema, User } from "../models/fixtures.js";

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

beforeEach(() => {
  callbackLog.length = 0;
});

// ---- Record item 7: toJSON and attributes() ------------------------------------------------------------

class HidingBase extends ActiveRecord {
  static override binding = "DB";
  static override hiddenAttributes = ["email", "passwordDigest"];
}

const HidingRecord = defineApplicationRecord(schema, HidingBase);

/** Its own list replaces the base's: age hidden, email shown. */
class OwnListUser extends HidingRecord("users") {
  static override hiddenAttributes = ["age"];
}

// ---- Record item 8: printing ----------------------------------------------------------------------------

describe("printing (Record 8)", () => {
  it("shows the class and attributes, filtered ones as [FILTERED], and flags nothing when clean", async () => {
    const user = await User.create({ name: "Ada", email: "ada@example.com", age: 36 });
    for (const text of [String(user), inspect(user)]) {
      expect(text).toContain("User");
      expect(text).toContain("Ada");
      expect(text).toContain("36");
      expect(text).toContain(user.id);
      expect(text).toContain("[FILTERED]");
      expect(text).not.toContain("ada@example.com");
      expect(text).not.toContain("(was");
      expect(text).not.toContain("(changed)");
    }
  });

  it("a record of an anonymous Model class prints its table name in place of the class name", () => {
    const [Anonymous] = [class extends Model({ id: "string", name: "string" }) {
      static override tableName = "users";
    }];
    expect(Anonymous!.name).toBe("");
    const record = Anonymous!.build({ id: "u1", name: "Ada" });
    expect(String(record)).toBe('#<users id: "u1", name: "Ada">');
    expect(inspect(record)).toBe('#<users id: "u1", name: "Ada">');
    expect(String(Anonymous!.where({ name: "Ada" }))).toContain("users");
    const [Untabled] = [class extends Model({ id: "string" }) {}];
    expect(() => Untabled!.build()).toThrow(/^An anonymous Model has no table name/);
  });

  it("prints unsaved changes as the new value followed by (was <old>), a filtered one as (changed)", async () => {
    const user = await User.create({ name: "Ada", email: "ada@example.com", age: 36 });
    user.name = "Grace";
    user.age = 37;
    user.email = "grace@example.com";
    for (const text of [String(user), inspect(user)]) {
      expect(text).toMatch(/"?Grace"?\s*\(was "?Ada"?\)/);
      expect(text).toMatch(/37\s*\(was 36\)/);
      expect(text).toMatch(/\[FILTERED\]\s*\(changed\)/);
      expect(text).not.toContain("grace@example.com");
      expect(text).not.toContain("ada@example.com");
      expect(text.match(/\(was /g)).toHaveLength(2);
    }
  });

  it("flags nothing on a new record", () => {
    const user = GuardedUser.build({ name: "Ada", email: "ada@example.com", age: 3 });
    const text = String(user);
    expect(text).toContain("GuardedUser");
    expect(text).toContain("Ada");
    expect(text).toContain("[FILTERED]");
    expect(text).not.toContain("ada@example.com");
    expect(text).not.toContain("(was");
    expect(text).not.toContain("(changed)");
  });

  it("still prints hidden attributes", () => {
    const user = OwnListUser.build({ name: "Ada", age: 41 });
    expect(String(user)).toContain("41");
  });
});
