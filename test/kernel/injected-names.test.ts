/**
 * Names the compiler adds to a statement (a joined list and its column, the rows of a preload's subquery, the
 * columns of a count, an existence check or the parents a destroy reaches) never collide with the app's: they are
 * qualified, and names starting with `recordflare_` are reserved (migration 0072 holds columns of all these names).
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, hasMany, InvalidModel, Model } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";

const clashingColumns = {
  id: "integer",
  value: "string",
  key: "string",
  type: "string",
  parent: "string",
  one: "integer",
  count: "integer",
  json: "string",
  path: "string",
} as const;

class ClashingChild extends Model({ id: "integer", clashingRowId: { type: "integer", null: false }, value: "string", parent: "string", one: "integer" }) {
  static override tableName = "clashing_children";
  static override binding = "DB";
  row = belongsTo(ClashingRow, { foreignKey: "clashingRowId" });
  static {
    this.beforeDestroy(() => {});
  }
}

class ClashingRow extends Model(clashingColumns) {
  static override tableName = "clashing_rows";
  static override binding = "DB";
  children = hasMany(ClashingChild, { foreignKey: "clashingRowId", dependent: "destroy" });
}

class GuardedRow extends Model(clashingColumns) {
  static override tableName = "clashing_rows";
  static override binding = "DB";
  children = hasMany(ClashingChild, { foreignKey: "clashingRowId", dependent: "restrictWithError" });
}

beforeEach(async () => {
  await resetDatabase();
  await env.DB.exec(
    [
      "INSERT INTO clashing_rows (id, value, key, type, parent, one, count, json, path, recordflare_list_value, recordflare_list, recordflare_source, recordflare_count, recordflare_one, recordflare_parent) VALUES (1, 'a', 'k1', 't', 'p', 7, 70, '{}', '$', 'x', 'x', 'x', 99, 99, 'x'), (2, 'b', 'k2', 't', 'p', 8, 80, '{}', '$', 'y', 'y', 'y', 98, 98, 'y'), (3, 'c', 'k3', 't', 'p', 9, 90, '{}', '$', 'z', 'z', 'z', 97, 97, 'z')",
      "INSERT INTO clashing_children (id, clashing_row_id, value, parent, one, recordflare_list_value, recordflare_parent) VALUES (10, 1, 'c1', 'q', 1, 'x', 'x'), (11, 1, 'c2', 'q', 1, 'x', 'x'), (12, 2, 'c3', 'q', 1, 'y', 'y')",
    ].join(";\n"),
  );
});

describe("a table with columns named like the compiler's names", () => {
  it("lists of keys (a join), counts, existence checks and plucks read the table's own columns", async () => {
    const { db, events } = listen();
    const rows = db.model(ClashingRow).where({ id: [1, 3, 4] });
    expect((await rows.toArray()).map((row) => [row.id, row.value, row.one, row.count]).sort()).toEqual([
      [1, "a", 7, 70],
      [3, "c", 9, 90],
    ]);
    expect(events[0]!.sql).toContain("CROSS JOIN");
    expect(await rows.where({ value: "c" }).pluck("count")).toEqual([90]);
    expect(await rows.count()).toBe(2);
    expect(await rows.limit(1).count()).toBe(1);
    expect(await rows.where({ one: 9, parent: "p", key: "k3" }).exists()).toBe(true);
    expect(await rows.distinct().select("parent").offset(0).exists()).toBe(true);
    expect(await db.model(ClashingRow).find(2, 1)).toHaveLength(2);
    const page = await db.model(ClashingRow).where({ id: [1, 2] }).paginate({ perPage: 1 });
    expect([page.total, page.records.length]).toEqual([2, 1]);
  });

  it("includes preloads read each level through the reserved subquery name", async () => {
    const { db, events } = listen();
    const rows = await db.model(ClashingRow).where({ id: [1, 2] }).includes("children").toArray();
    const children = await db.model(ClashingChild).where({ id: [10, 12] }).includes("row").toArray();
    expect(events.map((event) => event.sql.slice(0, 24))).toContain('WITH "recordflare_source');
    const childValues = await Promise.all(rows.map(async (row) => [row.id, (await row.children().toArray()).map((child) => child.value).sort()]));
    expect(childValues.sort()).toEqual([
      [1, ["c1", "c2"]],
      [2, ["c3"]],
    ]);
    expect(events).toHaveLength(4);
    expect(children.map((child) => child.row.get()!.value).sort()).toEqual(["a", "b"]);
  });

  it("the dependents of a destroy are read, checked and deleted", async () => {
    const guarded = await GuardedRow.find(1);
    expect(await guarded.destroy()).toBe(false);
    const row = await ClashingRow.find(1);
    await row.destroyOrThrow();
    expect((await env.DB.prepare("SELECT id FROM clashing_children ORDER BY id").all()).results).toEqual([{ id: 12 }]);
    expect(await ClashingChild.where({ id: [11, 12] }).deleteAll()).toBe(1);
  });

  it("bulk inserts and updates write the app's columns", async () => {
    await ClashingRow.insertAll([
      { id: 20, value: "v", parent: "p2", one: 1, count: 2 },
      { id: 21, value: "w", parent: "p2", one: 1, count: 3 },
    ]);
    expect(await ClashingRow.where({ id: [20, 21] }).updateAll({ count: 5 })).toBe(2);
    expect(await ClashingRow.where({ parent: "p2" }).pluck("count")).toEqual([5, 5]);
  });
});

describe("reserved names", () => {
  it("a column named with recordflare_ is refused at the Model's first use, naming the Model and the attribute", () => {
    class ListValued extends Model({ id: "integer", listValue: { type: "string", column: "recordflare_list_value" } }) {
      static override tableName = "clashing_rows";
    }
    expect(() => ListValued.all()).toThrow(InvalidModel);
    expect(() => ListValued.all()).toThrow(
      'ListValued: attribute listValue has the column "recordflare_list_value": names starting with recordflare_ are reserved for the names recordflare adds to its queries; rename the column',
    );
    class Shouting extends Model({ id: "integer", recordflareOne: "integer", RECORDFLARE_COUNT: "integer" }) {
      static override tableName = "clashing_rows";
    }
    expect(() => Shouting.all()).toThrow(/Shouting: attribute recordflareOne has the column "recordflare_one"/);
  });

  describe("a column that hides SQLite's row id", () => {
    /** What `SELECT rowid` (as recordflare writes it) reads from a table of a key and a text column named `column`. */
    async function rowidBeside(column: string): Promise<unknown> {
      await env.DB.exec(`DROP TABLE IF EXISTS row_id_probe; CREATE TABLE row_id_probe (id INTEGER PRIMARY KEY, "${column}" TEXT)`);
      try {
        await env.DB.prepare(`INSERT INTO row_id_probe (id, "${column}") VALUES (7, 'the column')`).run();
        return await env.DB.prepare("SELECT rowid AS found FROM row_id_probe").first("found");
      } finally {
        await env.DB.exec("DROP TABLE row_id_probe");
      }
    }

    it("on local D1, a column rowid, in any case, is what rowid then reads; columns _rowid_ and oid hide nothing", async () => {
      expect(await rowidBeside("rowid")).toBe("the column");
      expect(await rowidBeside("RowId")).toBe("the column");
      expect(await rowidBeside("_rowid_")).toBe(7);
      expect(await rowidBeside("oid")).toBe(7);
      expect(await rowidBeside("OID")).toBe(7);
    });

    it("is refused at the Model's first use, in any case, naming the Model, the attribute and the column", () => {
      class RowIdNamed extends Model({ id: "integer", rowid: "string" }) {
        static override tableName = "clashing_rows";
      }
      expect(() => RowIdNamed.all()).toThrow(
        new InvalidModel(
          `RowIdNamed: attribute rowid has the column "rowid": it would hide SQLite's row id, which recordflare reads to find the key of a row the database numbered; rename the column`,
        ),
      );
      class RowIdColumn extends Model({ id: "integer", sequence: { type: "integer", column: "ROWID" } }) {
        static override tableName = "clashing_rows";
      }
      expect(() => RowIdColumn.all()).toThrow(/^RowIdColumn: attribute sequence has the column "ROWID": it would hide SQLite's row id/);
    });

    it("columns _rowid_ and oid, SQLite's other names of the row id, which recordflare never writes, are accepted", () => {
      class OtherNames extends Model({ id: "integer", oid: "string", rowId: { type: "string", column: "_rowid_" } }) {
        static override tableName = "clashing_rows";
      }
      expect(OtherNames.where({ oid: "a", rowId: "b" }).toSql().sql).toContain('"oid"');
    });
  });

  it("a table named with recordflare_, in any case, is refused naming the Model", () => {
    class Source extends Model({ id: "integer" }) {
      static override tableName = "Recordflare_Source";
    }
    expect(() => Source.all()).toThrow(InvalidModel);
    expect(() => Source.all()).toThrow(/^Source: table "Recordflare_Source": names starting with recordflare_ are reserved/);
  });
});
