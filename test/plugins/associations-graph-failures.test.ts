import { afterEach, describe, expect, it } from "vitest";
import { RecordInvalid, RecordNotSaved, RecordNotUnique, withDatabase } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { FaIntOwner, dumpTables, stateOf, trap } from "../models/failure-fixtures.js";

afterEach(() => {
  Object.assign(trap, { at: undefined, abort: undefined, log: undefined });
});

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

/** An integer-key graph: an owner, two children, and a grandchild under each child. */
function intGraph(codes: [string, string] = [unique("g"), unique("h")]) {
  const owner = FaIntOwner.build({ name: " owner " });
  const children = [owner.children().build({ title: " first " }), owner.children().build({ title: " second " })];
  const grandchildren = children.map((child, index) => child.grandchildren().build({ code: codes[index]! }));
  return { owner, children, grandchildren, all: [owner, ...children, ...grandchildren] };
}

/** The writes among a list of SQL texts, as `INSERT INTO "<table>"`. */
const writes = (sqls: string[]) => sqls.filter((sql) => !sql.startsWith("SELECT")).map((sql) => sql.split(" (")[0]);

describe("integer-key graphs: every record is checked before the first level is written", () => {
  it("a grandchild's failed validation makes the owner's save() answer false, with nothing written", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const before = await dumpTables();
      const graph = intGraph([unique("ok"), "x"]);
      expect(await graph.owner.save()).toBe(false);
      expect(writes(sqls())).toEqual([]);
      expect(await dumpTables()).toEqual(before);
      expect(graph.owner.errors.fullMessages()).toEqual(["FaIntChild is invalid: FaIntGrandchild is invalid: Code is too short"]);
      expect(graph.grandchildren[1]!.errors.fullMessages()).toEqual(["Code is too short"]);
      expect(graph.all.every((record) => record.isNewRecord())).toBe(true);
      // No key, timestamp or foreign key was left on the records (their callbacks trimmed their text, as Rails keeps).
      expect(graph.all.map((record) => [record.id, record.createdAt, record.changed().includes("createdAt")])).toEqual(graph.all.map(() => [null, null, false]));
      const error = await rejectionOf(graph.owner.saveOrThrow());
      expect(error).toBeInstanceOf(RecordInvalid);
      expect(error.message).toContain("Code is too short");
      expect(await dumpTables()).toEqual(before);
    });
  });

  it("a child's failed validation does the same", async () => {
    const before = await dumpTables();
    const graph = intGraph();
    graph.children[1]!.title = "";
    expect(await graph.owner.save()).toBe(false);
    expect(graph.owner.errors.fullMessages()).toEqual(["FaIntChild is invalid: Title can't be blank"]);
    expect(await dumpTables()).toEqual(before);
  });

  it("a grandchild's before-callback abort makes save() answer false and saveOrThrow throw RecordNotSaved", async () => {
    const before = await dumpTables();
    trap.at = "FaIntGrandchild:beforeCreate";
    trap.abort = true;
    const graph = intGraph();
    expect(await graph.owner.save()).toBe(false);
    expect(graph.owner.abortReason).toBe("aborted at FaIntGrandchild:beforeCreate");
    const error = await rejectionOf(graph.owner.saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect(error.message).toBe("aborted at FaIntGrandchild:beforeCreate");
    expect(await dumpTables()).toEqual(before);
  });

  it("every record's validations and before-callbacks run before the first INSERT; after-callbacks after the writes", async () => {
    const log: string[] = [];
    trap.log = log;
    const { db } = listen();
    db.onQuery((event) => log.push(event.sql.split(" (")[0]!));
    const graph = intGraph();
    await withDatabase(db, () => graph.owner.saveOrThrow());
    const firstInsert = log.findIndex((line) => line.startsWith("INSERT"));
    const lastBefore = log.findLastIndex((line) => /:(record:validate|beforeSave|beforeCreate|record:beforeSave|record:beforeWrite)$/.test(line));
    expect(lastBefore).toBeLessThan(firstInsert);
    for (const model of ["FaIntOwner", "FaIntChild", "FaIntGrandchild"]) expect(log.slice(0, firstInsert)).toContain(`${model}:beforeCreate`);
    expect(writes(log.filter((line) => !line.includes(":")))).toEqual([
      `INSERT INTO "fa_int_owners"`,
      `INSERT INTO "fa_int_children"`,
      `INSERT INTO "fa_int_children"`,
      `INSERT INTO "fa_int_grandchildren"`,
      `INSERT INTO "fa_int_grandchildren"`,
    ]);
    expect(graph.grandchildren.map((grandchild) => grandchild.faIntChildId)).toEqual(graph.children.map((child) => child.id));
    expect([graph.owner.name, ...graph.children.map((child) => child.title)]).toEqual(["owner", "first", "second"]);
  });
});

describe("integer-key graphs: a later level refused by the database", () => {
  it("keeps the written levels persisted, puts the refused level back attached, and a retry writes it alone", async () => {
    const taken = intGraph();
    await taken.owner.saveOrThrow();
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const graph = intGraph([unique("fresh"), taken.grandchildren[1]!.code]);
      const grandchildrenBefore = stateOf(graph.grandchildren);
      const error = await rejectionOf(graph.owner.save());
      expect(error).toBeInstanceOf(RecordNotUnique);
      expect(error.message).toContain("FaIntGrandchild.code has already been taken");
      // The owner and the children are written, with the keys the database gave them.
      expect([graph.owner, ...graph.children].map((record) => [record.isPersisted(), record.isChanged(), typeof record.id])).toEqual([
        [true, false, "number"],
        [true, false, "number"],
        [true, false, "number"],
      ]);
      expect(graph.children.map((child) => child.faIntOwnerId)).toEqual([graph.owner.id, graph.owner.id]);
      const rows = await dumpTables(["fa_int_owners", "fa_int_children", "fa_int_grandchildren"]);
      expect(rows["fa_int_owners"]!.filter((row: any) => row.id === graph.owner.id)).toHaveLength(1);
      expect(rows["fa_int_children"]!.filter((row: any) => row.fa_int_owner_id === graph.owner.id)).toHaveLength(2);
      expect(rows["fa_int_grandchildren"]!.filter((row: any) => graph.children.some((child) => child.id === row.fa_int_child_id))).toEqual([]);
      // The grandchildren are as they were before the save: new, untrimmed, unstamped, without a foreign key.
      expect(stateOf(graph.grandchildren)).toEqual(grandchildrenBefore);
      // Retry after fixing the value: only the grandchildren are written, in one batch.
      graph.grandchildren[1]!.code = unique("fixed");
      const sentBefore = sqls().length;
      expect(await graph.owner.save()).toBe(true);
      expect(writes(sqls().slice(sentBefore))).toEqual([`INSERT INTO "fa_int_grandchildren"`, `INSERT INTO "fa_int_grandchildren"`]);
      expect(graph.grandchildren.map((grandchild) => [grandchild.isPersisted(), grandchild.faIntChildId])).toEqual(graph.children.map((child) => [true, child.id]));
      // Nothing is left pending: another save writes nothing.
      const sentAfter = sqls().length;
      expect(await graph.owner.save()).toBe(true);
      expect(writes(sqls().slice(sentAfter))).toEqual([]);
    });
  });

  it("a first level that fails keeps the owner persisted; a retry writes the children, then the grandchildren", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const graph = intGraph();
      const below = stateOf(graph.all.slice(1));
      trap.at = "FaIntChild:record:write";
      expect((await rejectionOf(graph.owner.save())).message).toBe("trap sprung at FaIntChild:record:write");
      expect(graph.owner.isPersisted()).toBe(true);
      expect(stateOf(graph.all.slice(1))).toEqual(below);
      trap.at = undefined;
      const sentBefore = sqls().length;
      expect(await graph.owner.save()).toBe(true);
      expect(writes(sqls().slice(sentBefore))).toEqual([
        `INSERT INTO "fa_int_children"`,
        `INSERT INTO "fa_int_children"`,
        `INSERT INTO "fa_int_grandchildren"`,
        `INSERT INTO "fa_int_grandchildren"`,
      ]);
      expect(graph.all.every((record) => record.isPersisted())).toBe(true);
    });
  });
});
