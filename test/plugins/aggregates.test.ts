/** The aggregates plugin: sum, average, minimum and maximum of one attribute, each one query. */
import { beforeEach, describe, expect, it } from "vitest";
import { aggregates, Base, defaultPlugins, defineApplicationRecord, gt, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord, schema } from "../models/fixtures.js";

beforeEach(resetDatabase);

class Member extends ApplicationRecord("users") {}

const BORN = ["1990-05-01T00:00:00.000Z", "1985-01-01T00:00:00.000Z", "2001-12-31T23:59:59.000Z"].map((text) => new Date(text));

async function seedMembers(): Promise<void> {
  await Member.insertAll([
    { name: "Ada", age: 36, score: 1.5, bornAt: BORN[0]!, admin: true },
    { name: "Grace", age: 40, score: 2.25, bornAt: BORN[1]!, admin: false },
    { name: "Linus", age: 20, score: null, bornAt: BORN[2]!, admin: false },
    { name: "Nobody", age: null, score: null, bornAt: null, admin: true },
  ]);
}

describe("sum, average, minimum, maximum", () => {
  it("answer over the matching rows, NULLs left out, each in one statement of one round trip", async () => {
    await seedMembers();
    const { db, events, sqls } = listen();
    const members = db.model(Member);
    expect(await members.sum("age")).toBe(96);
    expect(await members.sum("score")).toBe(3.75);
    expect(await members.average("age")).toBe(32);
    expect(await members.minimum("age")).toBe(20);
    expect(await members.maximum("name")).toBe("Nobody");
    expect(await members.minimum("bornAt")).toEqual(BORN[1]);
    expect(await members.maximum("bornAt")).toEqual(BORN[2]);
    expect(await members.where({ admin: true }).sum("age")).toBe(36);
    expect(await members.where({ age: gt(30) }).average("score")).toBe(1.875);
    expect(events).toHaveLength(9);
    expect(sqls()[0]).toBe(`SELECT SUM("age") AS "recordflare_value" FROM "users"`);
    expect(sqls()[7]).toBe(`SELECT SUM("age") AS "recordflare_value" FROM "users" WHERE "admin" = ?1`);
  });

  it("with no row (or no value) give 0 for sum and null for the others; none() sends nothing", async () => {
    await seedMembers();
    const nobody = Member.where({ name: "Nobody" });
    expect(await nobody.sum("age")).toBe(0);
    expect(await nobody.average("age")).toBeNull();
    expect(await nobody.minimum("bornAt")).toBeNull();
    expect(await Member.where({ name: "missing" }).maximum("name")).toBeNull();
    const { db, events } = listen();
    expect(await db.model(Member).none().sum("age")).toBe(0);
    expect(await db.model(Member).none().maximum("age")).toBeNull();
    expect(events).toHaveLength(0);
  });

  it("a limit or offset aggregates the rows toArray() gives, in their order; distinct() the distinct values", async () => {
    await seedMembers();
    await Member.create({ name: "Twin", age: 40 });
    const { db, sqls } = listen();
    const members = db.model(Member);
    expect(await members.order({ age: "desc" }).limit(2).sum("age")).toBe(80);
    expect(await members.order({ age: "asc" }).offset(1).limit(2).maximum("age")).toBe(36); // NULL first: 20, 36
    expect(sqls()[0]).toBe(`SELECT SUM("recordflare_value") AS "recordflare_value" FROM (SELECT "age" AS "recordflare_value" FROM "users" ORDER BY "age" DESC LIMIT 2)`);
    expect(await members.distinct().sum("age")).toBe(96);
    expect(await members.sum("age")).toBe(136);
    expect(sqls()[2]).toBe(`SELECT SUM(DISTINCT "age") AS "recordflare_value" FROM "users"`);
  });

  it("aggregate within the Model's default scope, as count does", async () => {
    class AdminMember extends ApplicationRecord("users") {
      static {
        this.defaultScope((q) => q.where({ admin: true }));
      }
    }
    await seedMembers();
    expect(await AdminMember.sum("age")).toBe(36);
    expect(await AdminMember.maximum("name")).toBe("Nobody");
    expect(await AdminMember.unscoped().sum("age")).toBe(96);
  });

  it("refuse an attribute they cannot aggregate, naming the Model, the method and the attribute", async () => {
    const notNumber = await rejectionOf(Member.sum("name" as never));
    expect(notNumber).toBeInstanceOf(TypeError);
    expect(notNumber.message).toBe("Member.sum: name is a string; sum takes a number attribute (integer or real)");
    expect((await rejectionOf(Member.average("bornAt" as never))).message).toBe("Member.average: bornAt is a datetime; average takes a number attribute (integer or real)");
    expect((await rejectionOf(Member.maximum("admin" as never))).message).toBe(
      "Member.maximum: admin is a boolean; maximum takes an attribute of a comparable type (number, string, datetime)",
    );
    expect((await rejectionOf(Member.minimum("settings" as never))).message).toContain("Member.minimum: settings is a json");
    expect(await rejectionOf(Member.sum("nope" as never))).toBeInstanceOf(UnknownAttribute);
    const extra = await rejectionOf((Member.sum as (...args: unknown[]) => Promise<number>).call(Member, "age", "score"));
    expect(extra).toBeInstanceOf(TypeError);
    expect(extra.message).toContain("Member.sum");
  });

  it("are typed: sum and average take number attributes, minimum and maximum ordered ones and give their type", async () => {
    await seedMembers();
    const total: number = await Member.sum("age");
    const mean: number | null = await Member.average("score");
    const earliest: Date | null = await Member.minimum("bornAt");
    const last: string | null = await Member.maximum("name");
    expect([total, mean, earliest, last]).toEqual([96, 1.875, BORN[1], "Nobody"]);
    // @ts-expect-error a string attribute has no sum
    await rejectionOf(Member.sum("name"));
    // @ts-expect-error a datetime has no average
    await rejectionOf(Member.where({ admin: true }).average("bornAt"));
    // @ts-expect-error a boolean has no maximum
    await rejectionOf(Member.maximum("admin"));
    // @ts-expect-error nor does a json attribute
    await rejectionOf(Member.minimum("settings"));
  });

  it("come with ActiveRecord, and on Base only with the plugin", async () => {
    class Bare extends Base {
      static override binding = "DB";
    }
    const BareRecord = defineApplicationRecord(schema, Bare);
    class BareMember extends BareRecord("users") {}
    expect(() => (BareMember as unknown as { sum(name: string): unknown }).sum("age")).toThrow(TypeError);
    class Counted extends Base {
      static override binding = "DB";
      static {
        this.use(aggregates);
      }
    }
    class CountedMember extends defineApplicationRecord(schema, Counted)("users") {}
    await seedMembers();
    expect(await CountedMember.sum("age")).toBe(96);
    expect(defaultPlugins).toContain(aggregates);
  });
});
