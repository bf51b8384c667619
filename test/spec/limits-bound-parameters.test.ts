/** SPEC.md, Limits: at most 100 bound parameters per statement, through wide rows, dependents and query events. */
import { beforeEach, describe, expect, it } from "vitest";
import { hasMany, hasOne, Model, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

// ---- models over the audit tables -------------------------------------------------------------------

const WIDTH = 99;

const wideColumns = Array.from({ length: WIDTH }, (_, index) => `c${index + 1}`);

class Wide extends Model({ id: { type: "string", null: false }, ...Object.fromEntries(wideColumns.map((name) => [name, "string"])) } as Record<string, "string" | { type: "string"; null: false }>) {
  static override binding = "DB";
  static override tableName = "audit_q_wide";
}

class Kid extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_children";
}

class Owner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_owners";
  kids = hasMany(Kid, { dependent: "destroy" });
  onlyKid = hasOne(Kid);
}

const allValues = (prefix: string) => Object.fromEntries(wideColumns.map((name) => [name, `${prefix}-${name}`]));

// ---- Limits: never more than 100 bound parameters per statement (a D1 limit) -------------------------

describe("Limits: at most 100 bound parameters per statement (D1 allows at most 100 columns per table too)", () => {
  it("a record of a 100-column table can be inserted and fully updated", async () => {
    const record = (Wide as any).build({ id: "w1", ...allValues("a") });
    expect(await record.save()).toBe(true);
    record.assign(allValues("b"));
    expect(await record.save()).toBe(true);
    expect((await (Wide as any).find("w1")).c99).toBe("b-c99");
  });

  it("insertAll of 300 rows of 100 columns binds one value", async () => {
    const { db, events } = listen();
    await (db.model(Wide) as any).insertAll(Array.from({ length: 300 }, (_, index) => ({ id: `r${index}`, ...allValues("x") })));
    expect(events[0]!.params).toHaveLength(1);
    expect(await countRows("audit_q_wide")).toBe(300);
  });

  it("a list condition of 20,000 ids binds one value, and find([...]) of 500 ids is one query", async () => {
    const { db, events } = listen();
    const ids = Array.from({ length: 500 }, (_, index) => `r${index}`);
    await (db.model(Wide) as any).insertAll(ids.map((id) => ({ id })));
    events.length = 0;
    const many = [...ids, ...Array.from({ length: 19_500 }, (_, index) => `missing-${index}`)];
    expect(await (db.model(Wide) as any).where({ id: many }).count()).toBe(500);
    expect(await (db.model(Wide) as any).whereNot({ id: many }).count()).toBe(0);
    const found = await (db.model(Wide) as any).find([...ids].reverse());
    expect(found.map((record: { id: string }) => record.id)).toEqual([...ids].reverse());
    expect(events.every((event) => event.params.length === 1)).toBe(true);
    expect(events).toHaveLength(3);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Limits, Events 2 and dependents", () => {
  // D1 allows at most 100 bound parameters: an updateAll of more values than fit binds them as one JSON row.
  it("updateAll of 99 attributes with two conditions stays within 100 bound parameters", async () => {
    await (Wide as any).insert({ id: "w9", c1: "a" });
    await (Wide as any).insert({ id: "w8", c1: "a" });
    const { db, events } = listen();
    expect(await (db.model(Wide) as any).where({ id: "w9", c1: "a" }).updateAll(allValues("z"))).toBe(1);
    expect(events[0]!.params.length).toBeLessThanOrEqual(100);
    const updated = await (Wide as any).find("w9");
    expect([updated.c1, updated.c50, updated.c99]).toEqual(["z-c1", "z-c50", "z-c99"]);
    expect((await (Wide as any).find("w8")).c50).toBeNull();
    // A few values keep the plain form.
    expect((Wide as any).where({ id: "w9" }).toUpdateAll({ c1: "x" }).toSql().sql).toBe(`UPDATE "audit_q_wide" SET "c1" = ?1 WHERE "id" = ?2`);
  });

  it("an error thrown by an afterDestroy callback propagates after the row is deleted", async () => {
    class Loud extends Owner {
      static {
        this.hook("record:afterDestroy", () => {
          throw new Error("after destroy failed");
        });
      }
    }
    const owner = await Loud.create({ id: "l1", name: "a" });
    await expect(owner.destroy()).rejects.toThrow("after destroy failed");
    expect(owner.isDestroyed()).toBe(true);
    expect(await countRows("audit_q_owners")).toBe(0);
  });

  it("an error thrown by a child's after-save callback propagates from the owner's save, rows written", async () => {
    class LoudKid extends Kid {
      static {
        this.hook("record:afterSave", () => {
          throw new Error("kid after save failed");
        });
      }
    }
    class LoudOwner extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_q_owners";
      kids = hasMany(LoudKid, { foreignKey: "ownerId" });
    }
    const owner = LoudOwner.build({ id: "lo", name: "a" });
    const kid = owner.kids().build({ id: "lk" });
    await expect(owner.save()).rejects.toThrow("kid after save failed");
    expect(owner.isPersisted()).toBe(true);
    expect(kid.isPersisted()).toBe(true);
    expect(await countRows("audit_q_children")).toBe(1);
  });

  it("restrictWithError on hasMany refuses destroy with errors and no writes; children untouched", async () => {
    class Strict extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_q_owners";
      kids = hasMany(Kid, { dependent: "restrictWithError", foreignKey: "ownerId" });
    }
    const { db, events } = listen();
    const owner = await db.model(Strict).create({ id: "s1" });
    await Kid.create({ id: "sk", ownerId: "s1" });
    events.length = 0;
    expect(await owner.destroy()).toBe(false);
    expect(owner.errors.fullMessages().length).toBeGreaterThan(0);
    expect(owner.isPersisted()).toBe(true);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["SELECT"]);
    expect(await countRows("audit_q_owners")).toBe(1);
  });
});
