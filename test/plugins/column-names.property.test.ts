/**
 * Every write path names columns the same way: a property over generated column names (any name SQLite allows:
 * quotes, backslashes, spaces, dots, JSON-path look-alikes, unicode) and values, written by save (create and
 * update), insert, insertAll, upsert, upsertAll and updateAll, and read back by find, pluck and select, with each
 * value stored as its own SQLite type.
 */
import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Model } from "../../src/index.js";
import { quoteIdentifier } from "../../src/plugin.js";

/** SQLite compares column names with ASCII case folded: two names equal so folded are one column. */
const folded = (name: string) => name.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

const awkwardNames = ['a"b', "a'b", "a\\b", "\\", 'a\\"b', "a b", " ", "a.b", "$[0]", "$", '$."x"', "[x]", "a]b", "é", "列名", "😀", "__proto__", "''", "a;b", "a--b"];

const columnName = fc
  .oneof(fc.constantFrom(...awkwardNames), fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 }))
  .filter((name) => !name.includes("\u0000"));

const columnNames = fc
  .uniqueArray(columnName, { minLength: 3, maxLength: 3, selector: folded })
  .filter((names) => !names.some((name) => folded(name) === "id"));

const values = fc.record({
  text: fc.string({ unit: "grapheme", maxLength: 12 }),
  score: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((score) => !Object.is(score, -0)),
  count: fc.maxSafeInteger(),
});

type Values = { text: string; score: number; count: number };

let tables = 0;

/** A table whose columns have the generated names, and a Model over it naming them through attribute overrides. */
async function modelOver([textColumn, scoreColumn, countColumn]: string[]) {
  const table = `property_columns_${++tables}`;
  const [text, score, count] = [textColumn!, scoreColumn!, countColumn!].map(quoteIdentifier);
  await env.DB.prepare(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, ${text} TEXT, ${score} REAL, ${count} INTEGER)`).run();
  class Written extends Model({
    id: "integer",
    text: { type: "string", column: textColumn! },
    score: { type: "real", column: scoreColumn! },
    count: { type: "integer", column: countColumn! },
  }) {
    static override binding = "DB";
    static override tableName = table;
  }
  /** Every row, in key order, as records, pluck and select read it; and the SQLite type each column holds. */
  const readBack = async () => {
    const ordered = Written.order({ id: "asc" });
    const found = (await ordered.toArray()).map((record) => ({ text: record.text, score: record.score, count: record.count }));
    const plucked = (await ordered.pluck("text", "score", "count")).map(([t, s, c]) => ({ text: t, score: s, count: c }));
    expect(plucked).toEqual(found);
    const types = await env.DB.prepare(`SELECT DISTINCT typeof(${text}) AS t, typeof(${score}) AS s, typeof(${count}) AS c FROM ${table}`).all();
    expect(types.results).toEqual([{ t: "text", s: "real", c: "integer" }]);
    return found;
  };
  return { Written, readBack, drop: () => env.DB.prepare(`DROP TABLE ${table}`).run() };
}

describe("column names on every write path", () => {
  it("a column with a backslash is written by the bulk paths, and upsert keeps no NULL in its place", async () => {
    const { Written, readBack, drop } = await modelOver(["a\\b", 'c\\"d', "$.e"]);
    await Written.insertAll([{ text: "one", score: 1, count: 1 }]);
    const [row] = await Written.pluck("id");
    await Written.upsert({ id: row!, text: "two", score: 2.5, count: 2 });
    expect(await readBack()).toEqual([{ text: "two", score: 2.5, count: 2 }]);
    await drop();
  });

  it("writes and reads back every value, whatever the column is called", async () => {
    await fc.assert(
      fc.asyncProperty(columnNames, values, values, async (names, first, second) => {
        const { Written, readBack, drop } = await modelOver(names);
        const expectRows = async (...rows: Values[]) => expect(await readBack()).toEqual(rows);

        const record = await Written.create(first);
        const id = record.id!;
        await expectRows(first);
        await record.update(second);
        expect(await Written.find(id)).toMatchObject(second);
        await Written.upsert({ id, ...first });
        await expectRows(first);
        await Written.where({ id }).updateAll(second);
        const selected = await Written.select("text", "score", "count").find(id);
        expect({ text: selected.text, score: selected.score, count: selected.count }).toEqual(second);
        await Written.upsertAll([{ id, ...first }, { id: id + 1, ...second }]);
        await expectRows(first, second);

        await Written.deleteAll();
        await Written.insert(second);
        await Written.insertAll([first, second]);
        await expectRows(second, first, second);
        await drop();
      }),
      { numRuns: 40 },
    );
  }, 30_000);
});
