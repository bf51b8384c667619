/** Printing a record or a Relation: String(), util.inspect and console output. */
import { inspect } from "node:util";
import { BlobUser, bytes } from "../models/blob-users.js";
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  ActiveRecord,
  defineApplicationRecord,
  Model,
  between,
  gt,
  column,
  sql,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { schema, User } from "../models/fixtures.js";
import { listen } from "../helpers/queries.js";
import { AuditItem } from "../models/audit-items.js";
import { Item, Kid, Parent, seedItems } from "../models/edge-relation-items.js";
import { Row } from "../models/noted-rows.js";

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

describe("Printing: 'Printing a record shows the class and attributes; filtered attributes print as [FILTERED] ...'", () => {
  it("a new record flags nothing, even its filtered attributes", () => {
    const row = Row.build({ label: "n", secretNote: "shh" });
    const text = inspect(row);
    expect(text).toContain("Row");
    expect(text).toContain("[FILTERED]");
    expect(text).not.toContain("shh");
    expect(text).not.toContain("(was");
    expect(text).not.toContain("(changed)");
    expect(String(row)).toContain("Row");
    expect(String(row)).not.toContain("shh");
  });

  it("a persisted record shows (was <old>) for changes and (changed) for a changed filtered attribute; destroyed still prints", async () => {
    const row = await Row.create({ label: "old", secretNote: "a", happenedAt: "2024-01-01" });
    row.label = "new";
    row.secretNote = "b";
    const text = inspect(row);
    expect(text).toMatch(/new.*\(was .*old/);
    expect(text).toContain("(changed)");
    expect(text).not.toContain('"a"');
    expect(text).not.toContain('"b"');
    await row.reload();
    await row.destroy();
    const destroyed = inspect(row);
    expect(destroyed).toContain("old");
    expect(destroyed).not.toContain("(was");
    expect(String(row)).not.toContain("[object Object]");
  });

  it("an unloaded column of a partial record prints (changed); printing reads nothing missing", async () => {
    await Row.create({ label: "p", qty: 2, secretNote: "z" });
    const partial = (await Row.select("label").toArray())[0]!;
    const text = inspect(partial);
    expect(text).toContain("(changed)");
    expect(text).toContain("p");
    expect(String(partial)).toContain("Row");
  });
});

const both = (value: unknown) => [String(value), inspect(value)];

// ---- Record item 8: printing ---------------------------------------------------------------------------

describe("printing (Record 8), in String() and util.inspect", () => {
  it("(was null), a changed Date, a Date edited in place, a filtered attribute set from null", async () => {
    await seedItems();
    const c = await Item.find("c");
    c.qty = 5;
    c.at = "2024-05-05" as never;
    c.email = "c@x";
    for (const text of both(c)) {
      expect(text).toBe(`#<Item id: "c", name: "c", email: [FILTERED] (changed), qty: 5 (was null), price: null, flag: null, at: 2024-05-05T00:00:00.000Z (was null), code: null, data: null>`);
    }
    const a = await Item.find("a");
    a.at!.setUTCFullYear(2000);
    for (const text of both(a)) expect(text).toContain("at: 2000-01-01T00:00:00.000Z (was 2024-01-01T00:00:00.000Z)");
  });

  it("flags nothing after a change reverted, after a save, after a reload", async () => {
    await seedItems();
    const a = await Item.find("a");
    a.name = "zz";
    a.name = "a";
    for (const text of both(a)) expect(text).not.toMatch(/\(was|\(changed\)/);
    const b = await Item.find("b");
    b.name = "bb";
    await b.save();
    for (const text of both(b)) expect(text).not.toMatch(/\(was|\(changed\)/);
    const d = await Item.find("d");
    d.name = "q";
    await d.reload();
    for (const text of both(d)) expect(text).not.toMatch(/\(was|\(changed\)/);
  });

  it("a partial record: (was) for a changed loaded attribute, (changed) for each unloaded one, the key too after distinct", async () => {
    await seedItems();
    const [partial] = await Item.select("name").where({ id: "a" }).toArray();
    partial!.name = "A";
    for (const text of both(partial)) {
      expect(text).toBe(`#<Item id: "a", name: "A" (was "a"), email: (changed), qty: (changed), price: (changed), flag: (changed), at: (changed), code: (changed), data: (changed)>`);
    }
    const [distinct] = await Item.select("qty").distinct().where({ qty: 1 }).toArray();
    for (const text of both(distinct)) {
      expect(text).toBe(`#<Item id: (changed), name: (changed), email: (changed), qty: 1, price: (changed), flag: (changed), at: (changed), code: (changed), data: (changed)>`);
    }
  });

  it("a new record flags nothing, even after assignments, also when built from a Relation or nested in an array", () => {
    const fresh = Item.build({ id: "n", name: "x", email: "e@x" });
    fresh.name = "y";
    fresh.email = "f@x";
    const expected = `#<Item id: "n", name: "y", email: [FILTERED], qty: null, price: null, flag: null, at: null, code: null, data: null>`;
    for (const text of both(fresh)) expect(text).toBe(expected);
    expect(inspect([fresh])).toContain(expected);
    for (const text of both(Item.where({ name: "r", qty: "3" }).build({ id: "r1" }))) {
      expect(text).toBe(`#<Item id: "r1", name: "r", email: [FILTERED], qty: 3, price: null, flag: null, at: null, code: null, data: null>`);
    }
  });

  it("a Relation shows SQL and params of every kind, filtered ones hidden; sql fragment values shown", () => {
    const { db, events } = listen();
    const relation = db
      .model(Item)
      .where({ at: gt(new Date("2024-01-01T00:00:00Z")), flag: true, name: ["a", null], email: "e@x", qty: between(1, 2) })
      .order({ name: { direction: "desc", nulls: "last" } })
      .limit(3)
      .offset(1)
      .select("name")
      .distinct();
    for (const text of both(relation)) {
      expect(text).toBe(
        `#<Relation Item SELECT DISTINCT "name" FROM "edge_rel_items" WHERE "at" > ?1 AND "flag" = ?2 AND ("name" IN (SELECT value FROM json_each(?3)) OR "name" IS NULL) AND "email" = ?4 AND "qty" >= ?5 AND "qty" <= ?6 ORDER BY "name" DESC NULLS LAST LIMIT 3 OFFSET 1 ["2024-01-01T00:00:00.000Z",1,"[\\"a\\"]","[FILTERED]",1,2]>`,
      );
    }
    for (const text of both(db.model(Item).where({ qty: "abc" }))) expect(text).toBe(`#<Relation Item SELECT * FROM "edge_rel_items" WHERE 1 = 0 []>`);
    for (const text of both(db.model(Item).where(sql`${column("email")} = ${"s@x"}`))) expect(text).toContain(`["s@x"]`);
    expect(inspect({ r: db.model(Item).where({ qty: 1 }) })).toContain(`#<Relation Item SELECT * FROM "edge_rel_items" WHERE "qty" = ?1 [1]>`);
    expect(events).toHaveLength(0);
  });

  it("never loads an association, even with util.inspect's getters and showHidden", async () => {
    const { db, events } = listen();
    await db.model(Parent).insertAll([{ id: "p1", name: "p" }]);
    await db.model(Kid).insertAll([{ id: "k1", parentId: "p1" }]);
    const kid = await db.model(Kid).find("k1");
    const parent = await db.model(Parent).find("p1");
    events.length = 0;
    const texts = [...both(kid), ...both(parent), inspect(kid, { getters: true, showHidden: true, depth: 10 }), inspect(parent, { getters: true, showHidden: true, depth: 10 })];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toHaveLength(0);
    expect(texts[0]).toBe(`#<Kid id: "k1", parentId: "p1", name: null>`);
    const loaded = await db.model(Parent).includes("kids").find("p1");
    for (const text of both(loaded)) expect(text).toBe(`#<Parent id: "p1", name: "p">`);
  });

  it("errors list each failure, two on one attribute included; no failure prints empty", async () => {
    class Checked extends Item {
      static {
        this.validates("name", { presence: true, length: { minimum: 3 } });
        this.validates("email", { presence: true });
      }
    }
    const invalid = Checked.build({ id: "v", name: "" });
    expect(await invalid.save()).toBe(false);
    expect(String(invalid.errors)).toBe("Name can't be blank, Name is too short, Email can't be blank");
    expect(inspect(invalid.errors)).toBe(`Errors ["Name can't be blank", "Name is too short", "Email can't be blank"]`);
    const valid = Checked.build({ id: "w", name: "abcd", email: "x" });
    expect(await valid.save()).toBe(true);
    expect(inspect(valid.errors)).toBe("Errors []");
  });

  it("hidden attributes print in util.inspect too", () => {
    class Hidden extends Item {
      static override hiddenAttributes = ["code"];
    }
    const record = Hidden.build({ id: "h", code: "SEEN" });
    for (const text of both(record)) expect(text).toContain(`code: "SEEN"`);
    expect(JSON.stringify(record)).not.toContain("SEEN");
  });
});

describe("guide: Printing", () => {
  it("prints the record as shown", async () => {
    const ada = await User.create({ name: "Ada", email: "ada@example.com" });
    ada.name = "Ada L.";
    ada.email = "ada@example.org";
    expect(String(ada)).toMatch(/^#<User id: "[0-9a-f-]+", name: "Ada L\." \(was "Ada"\), email: \[FILTERED\] \(changed\), age: null, .*>$/);
    await ada.restoreAttributes();
    await ada.destroy();
    expect(String(ada)).toMatch(/^#<User \(destroyed\) /);
  });

  it("prints a Relation as shown", () => {
    expect(String(User.where({ age: gt(30) }))).toBe(`#<Relation User SELECT * FROM "users" WHERE "age" > ?1 [30]>`);
    expect(String(User.where({ email: "a@b.c" }))).toBe(`#<Relation User SELECT * FROM "users" WHERE "email" = ?1 ["[FILTERED]"]>`);
  });
});

describe("edge cases that hold", () => {

  it("printing shows a changed json attribute with (was <old>)", async () => {
    const item = await AuditItem.create({ name: "a", data: { x: 1 } });
    item.data = { x: 2 };
    expect(inspect(item)).toContain('data: {"x":2} (was {"x":1})');
  });

  it("printing a Relation sends no query", async () => {
    const { db, events } = listen();
    const text = inspect(db.model(AuditItem).where({ name: "x" }));
    expect(text).toContain("SELECT");
    expect(events).toHaveLength(0);
  });
});

describe("printing bytes", () => {
  it("shows bytes as SQLite writes a blob, x'00ff', and a change of them with the old bytes", async () => {
    const user = await BlobUser.createOrThrow({ id: bytes(0, 255), name: "Ada" });
    user.id = new Uint8Array([9, 0xab, 9]).subarray(1, 2);
    expect(String(user)).toMatch(/^#<BlobUser id: x'ab' \(was x'00ff'\), name: "Ada", /);
  });
});
