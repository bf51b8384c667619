/**
 * Prepared writes (src/kernel/persistence/write-steps.ts): a write with the writes its hooks added before and after
 * it, as a destroy holds its dependents' destroys, each holding their own. The statements of every level are joined
 * once into one list, and each level finishes from its place in the results: no level copies the levels below it, so
 * a chain thousands deep costs in proportion to its depth (it ran out of memory at 10,000 levels, each level holding
 * a copy of all the statements below it).
 */
import { describe, expect, it } from "vitest";
import type { Batchable } from "../../src/kernel/database/batchable.js";
import type { Database } from "../../src/kernel/database/database.js";
import type { Statement } from "../../src/kernel/sql/statement.js";
import { type PreparedWrite, withExtras } from "../../src/kernel/persistence/write-steps.js";

const database = {} as Database;

/**
 * A chain of `depth` writes, each with the next as the write sent before its own (a dependent's destroy before its
 * parent's DELETE), its own statement the text of its level; each level's own finish notes the results it was given.
 */
function chain(depth: number) {
  const finished: Array<{ level: number; results: unknown[]; result: unknown }> = [];
  const prepared: PreparedWrite[] = [];
  const level = async (at: number): Promise<PreparedWrite> => {
    const own: PreparedWrite = {
      statements: [`statement ${at}` as unknown as Statement],
      finish: (results, _database, from = 0) => void finished.push({ level: at, results, result: results[from] }),
    };
    let below: PreparedWrite | undefined;
    const dependent: Batchable = {
      check: async () => {},
      // Each level awaits before going on, as a record's write does (its checks, its database).
      prepare: async () => {
        await undefined;
        return (below = await level(at + 1)).statements;
      },
      finish: async (results, from) => {
        await undefined;
        return below!.finish(results, database, from);
      },
      failed: (error) => error,
      abandon: () => {},
      database: () => database as never,
      record: {},
    };
    const write = await withExtras(at + 1 < depth ? [dependent] : [], () => own, []);
    prepared[at] = write;
    return write;
  };
  return { top: () => level(0), finished, prepared };
}

describe("prepared writes: a chain of writes before writes", () => {
  it("2,000 levels deep: the statements are joined into one list, deepest first, and each level finishes from its place in the results", async () => {
    const depth = 2_000;
    const { top, finished, prepared } = chain(depth);
    const write = await top();
    expect(write.statements).toHaveLength(depth);
    expect(write.statements[0]).toBe(`statement ${depth - 1}`);
    expect(write.statements.at(-1)).toBe("statement 0");
    // No level copied the statements below it: every level's list is the one list, grown as each level joined it.
    expect(new Set(prepared.map((level) => level.statements)).size).toBe(1);
    const results = write.statements.map((statement) => `result of ${String(statement)}`);
    await write.finish(results, database);
    expect(finished).toHaveLength(depth);
    expect(finished.every(({ level, result }) => result === `result of statement ${level}`)).toBe(true);
    // Nor were the results copied for each level: every level read its own from the one list.
    expect(new Set(finished.map((each) => each.results)).size).toBe(1);
  });
});
