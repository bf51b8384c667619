import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { CastError, InvalidModel } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { ApplicationRecord } from "../models/fixtures.js";

class Member extends ApplicationRecord("users") {
  static {
    this.normalizes("email", (email) => email.trim().toLowerCase());
    this.normalizes(["name"], (name) => name.replace(/\s+/g, " ").trim());
    this.validates("email", { format: /^[a-z0-9.]+@[a-z0-9.]+$/, uniqueness: true, allowNil: true });
  }
}

beforeEach(resetDatabase);

describe("normalizes", () => {
  it("applies on build, assign, property setters, create and update, before validation", async () => {
    const member = Member.build({ name: "  Ada   Lovelace ", email: "  ADA@Example.COM " });
    expect([member.name, member.email]).toEqual(["Ada Lovelace", "ada@example.com"]);
    member.email = " GRACE@example.com";
    expect(member.email).toBe("grace@example.com");
    member.assign({ email: "ADA@example.com " });
    expect(member.email).toBe("ada@example.com");
    // The format validation sees the normalized value, so the untrimmed input is accepted.
    expect(await member.save()).toBe(true);
    await member.update({ email: "  LOVELACE@example.com" });
    expect((await Member.find(member.id)).email).toBe("lovelace@example.com");
  });

  it("applies to values in conditions, lists included, so a lookup finds what was stored", async () => {
    await Member.create({ name: "Ada", email: "ada@example.com" });
    expect((await Member.findBy({ email: "  ADA@EXAMPLE.com " }))?.name).toBe("Ada");
    expect(await Member.where({ email: [" Ada@Example.com", null] }).count()).toBe(1);
    expect(await Member.whereNot({ email: "ADA@example.com" }).count()).toBe(0);
    expect(Member.where({ email: " ADA@example.com" }).toSql().params).toEqual(["ada@example.com"]);
    expect(Member.where({ email: [" ADA@example.com"] }).toSql().params).toEqual([JSON.stringify(["ada@example.com"])]);
  });

  it("the uniqueness validation compares the normalized value", async () => {
    await Member.create({ name: "Ada", email: "ada@example.com" });
    const twin = await Member.create({ name: "Ada", email: " ADA@example.com" });
    expect(twin.errors.fullMessages()).toEqual(["Email has already been taken"]);
  });

  it("leaves null alone unless applyToNull, and leaves rows read from the database alone", async () => {
    class Defaulted extends ApplicationRecord("users") {
      static {
        this.normalizes("email", (email) => email ?? "none@example.com", { applyToNull: true });
      }
    }
    expect(Member.build({ name: "Ada", email: null }).email).toBeNull();
    expect(Defaulted.build({ name: "Ada", email: null }).email).toBe("none@example.com");
    await env.DB.prepare("INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('raw', 'Raw', 'RAW@EXAMPLE.COM', '', '')").run();
    expect((await Member.find("raw")).email).toBe("RAW@EXAMPLE.COM");
  });

  it("a normalizer returning what the attribute cannot hold throws CastError naming Model and attribute", () => {
    class Broken extends ApplicationRecord("users") {
      static {
        this.normalizes("age", () => "many" as never);
        this.normalizes("email", () => undefined as never);
      }
    }
    expect(() => Broken.build({ name: "x", age: 3 })).toThrow(CastError);
    expect(() => Broken.build({ name: "x", age: 3 })).toThrow(/Broken\.age: a normalizer returned a value that is not a integer/);
    expect(() => Broken.build({ name: "x", email: "a" })).toThrow(/Broken\.email: a normalizer returned undefined/);
  });

  it("refuses a declaration that is not one: no function, no name, an unknown attribute or option", () => {
    expect(() => {
      class NoFunction extends ApplicationRecord("users") {
        static {
          this.normalizes("email", "trim" as never);
        }
      }
      return NoFunction;
    }).toThrow(/NoFunction\.normalizes takes an attribute name/);
    class Unknown extends ApplicationRecord("users") {
      static {
        this.normalizes("emial" as never, (value: never) => value);
      }
    }
    expect(() => Unknown.build({ name: "x" })).toThrow(InvalidModel);
    expect(() => Unknown.build({ name: "x" })).toThrow(/Unknown\.normalizes: emial is not an attribute/);
    expect(() => {
      class BadOption extends ApplicationRecord("users") {
        static {
          this.normalizes("email", (email) => email, { applyToNil: true } as never);
        }
      }
      return BadOption;
    }).toThrow(/^BadOption\.normalizes: "applyToNil" is not an option; the options are applyToNull$/);
  });

  it("bulk inserts build records, so they are normalized; updateAll writes its values as given, as Rails' update_all", async () => {
    await Member.insert({ name: " Bulk  ", email: " BULK@example.com" });
    expect((await Member.findByOrThrow({ name: "Bulk" })).email).toBe("bulk@example.com");
    await Member.where({ name: "Bulk" }).updateAll({ email: "AS@GIVEN" });
    expect((await Member.findByOrThrow({ name: "Bulk" })).email).toBe("AS@GIVEN");
  });

  it("a subclass adds normalizers without changing its parent's", () => {
    class Shouting extends Member {
      static {
        this.normalizes("name", (name) => name.toUpperCase());
      }
    }
    expect(Shouting.build({ name: " ada  l " }).name).toBe("ADA L");
    expect(Member.build({ name: " ada  l " }).name).toBe("ada l");
  });
});
