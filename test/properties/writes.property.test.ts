/**
 * Property tests of the write paths over generated column names: every path (create, save, update, insert,
 * insertAll, upsert, upsertAll, updateAll) writes an attribute whatever name SQLite allows for its column, changes
 * no other row or column, and compiles SQL text that does not depend on the values written.
 */
import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Model } from "../../src/index.js";
import { quoteIdentifier } from "../../src/plugin.js";
import { listen } from "../helpers/queries.js";
import { DATABASE_PROPERTY_TIMEOUT, RUNS, text } from "./arbitraries.js";

const TABLE = "generated_columns";

/**
 * A column name SQLite allows (NUL ends SQL text), other than the table's own `id` and `other`, with quotes, dots,
 * brackets, backslashes and spaces often.
 */
const columnName = fc
  .oneof(
    text({ minLength: 1, maxLength: 8 }),
    fc.string({ unit: fc.constantFrom('"', "'", "`", " ", ".", "$", "[", "]", "*", "é", "😀", "a", "\\", "\n", "-"), minLength: 1, maxLength: 6 }),
  )
  .filter((name) => !name.includes("\u0000") && !["id", "other"].includes(name.toLowerCase()));

/** Makes `generated_columns` afresh with a TEXT column named `name`, and a Model whose `value` is that column. */
async function tableWithColumn(name: string) {
  await env.DB.batch([
    env.DB.prepare(`DROP TABLE IF EXISTS ${TABLE}`),
    env.DB.prepare(`CREATE TABLE ${TABLE} (id TEXT PRIMARY KEY NOT NULL, other TEXT, ${quoteIdentifier(name)} TEXT)`),
    env.DB.prepare(`INSERT INTO ${TABLE} (id, other, ${quoteIdentifier(name)}) VALUES ('kept', 'k', 'kept value')`),
  ]);
  class Generated extends Model({ id: "string", other: "string", value: { type: "string", column: name } }) {
    static override binding = "DB";
    static override tableName = TABLE;
  }
  return Generated;
}

type Generated = Awaited<ReturnType<typeof tableWithColumn>>;
type Row = InstanceType<Generated> & Record<string, unknown>;

async function dumpRows(): Promise<unknown[][]> {
  return (await env.DB.prepare(`SELECT * FROM ${TABLE} ORDER BY id`).raw()) as unknown[][];
}

/** Each write path: writes `value` to the row `target` (made first where the path updates) and nothing else. */
const WRITE_PATHS: Record<string, (model: Generated, target: string, value: string) => Promise<unknown>> = {
  create: (model, target, value) => model.createOrThrow({ id: target, other: "o", value }),
  async save(model, target, value) {
    const record = (await model.createOrThrow({ id: target, other: "o" })) as Row;
    record["value"] = value;
    return record.saveOrThrow();
  },
  async update(model, target, value) {
    const record = (await model.createOrThrow({ id: target, other: "o", value: "before" })) as Row;
    return record.updateOrThrow({ value });
  },
  insert: (model, target, value) => model.insert({ id: target, other: "o", value }),
  insertAll: (model, target, value) => model.insertAll([{ id: target, other: "o", value }]),
  async upsert(model, target, value) {
    await model.insert({ id: target, other: "o", value: "before" });
    return model.upsert({ id: target, value });
  },
  async upsertAll(model, target, value) {
    await model.insert({ id: target, other: "o", value: "before" });
    return model.upsertAll([{ id: target, value }]);
  },
  async updateAll(model, target, value) {
    await model.insert({ id: target, other: "o", value: "before" });
    return model.where({ id: target }).updateAll({ value });
  },
};

describe("every write path, over generated column names", () => {
  it("writes the attribute to its column and changes no other row or column", async () => {
    const input = fc.tuple(columnName, fc.constantFrom(...Object.keys(WRITE_PATHS)), text());
    await fc.assert(
      fc.asyncProperty(input, async ([name, path, value]) => {
        const Generated = await tableWithColumn(name);
        await WRITE_PATHS[path]!(Generated, "written", value);
        expect(await dumpRows()).toEqual([
          ["kept", "k", "kept value"],
          ["written", "o", value],
        ]);
        const loaded = (await Generated.find("written")) as Row;
        expect(loaded["value"]).toBe(value);
      }),
      { numRuns: RUNS },
    );
  }, DATABASE_PROPERTY_TIMEOUT);

  it("compiles SQL text that does not depend on the values written", async () => {
    const statements: Record<string, (model: Generated, value: string) => { toSql(): { sql: string } }> = {
      toInsert: (model, value) => model.toInsert({ id: "x", value }),
      toInsertAll: (model, value) => model.toInsertAll([{ id: "x", value }, { id: "y", value: `${value}!` }]),
      toUpsert: (model, value) => model.toUpsert({ id: "x", value }),
      toUpsertAll: (model, value) => model.toUpsertAll([{ id: value, value }]),
      toUpdateAll: (model, value) => model.where({ value }).toUpdateAll({ value }),
      toDeleteAll: (model, value) => model.whereNot({ value }).toDeleteAll(),
    };
    const input = fc.tuple(columnName, fc.constantFrom(...Object.keys(statements)), text(), text());
    await fc.assert(
      fc.asyncProperty(input, async ([name, statement, first, second]) => {
        const Generated = await tableWithColumn(name);
        const compile = (value: string) => statements[statement]!(Generated, value).toSql().sql;
        expect(compile(second)).toBe(compile(first));
      }),
      { numRuns: RUNS },
    );
  }, DATABASE_PROPERTY_TIMEOUT);

  it("a record's save sends the same SQL text whatever the values", async () => {
    const Generated = await tableWithColumn("a column");
    await fc.assert(
      fc.asyncProperty(text(), text(), async (first, second) => {
        const { events, Generated: Bound } = listen({ models: { Generated } });
        for (const value of [first, second]) {
          const record = (await Bound.createOrThrow({ other: value, value })) as Row;
          await record.updateOrThrow({ other: `${value}.`, value: `${value}.` });
          await record.destroy();
        }
        const sqls = events.map((event) => event.sql);
        expect(sqls.slice(3)).toEqual(sqls.slice(0, 3));
      }),
      { numRuns: RUNS },
    );
  }, DATABASE_PROPERTY_TIMEOUT);
});
