/** Associations' dependents through loops: a Model its own dependent (threaded comments) and loops through several Models. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, connect, defineApplicationRecord, hasMany, Model, type QueryEvent, softDelete, withDatabase, withTenant } from "../../src/index.js";
import { BlobBase, bytes } from "../models/blob-users.js";
import { type AttributeTypeDefinition, defineAttributeType, definePlugin } from "../../src/plugin.js";
import { ActiveRecord } from "../../src/index.js";

/** A key held in a value object, a new one at each read, stored as its text. */
class Code {
  constructor(readonly text: string) {}
}

const code: AttributeTypeDefinition<Code> = {
  cast: (value) => (value instanceof Code ? value : typeof value === "string" ? new Code(value) : undefined),
  toDatabase: (value) => value.text,
  fromDatabase: (stored) => new Code(String(stored)),
};

/** The default base with a `code` attribute type: a key as a value object. */
class CodeBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(definePlugin({ name: "code-type", setup: () => defineAttributeType("code", code) }));
  }
}
import { countRows, recordingRoundTrips } from "../helpers/queries.js";
import { CYCLE_TABLES_EMPTIED, modelCycles } from "../models/model-cycles.js";
import { THREADED_TABLES, threadedComments } from "../models/threaded-comments.js";

beforeEach(async () => {
  await env.DB.batch(THREADED_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
  await env.DB.batch(CYCLE_TABLES_EMPTIED.map((statement) => env.DB.prepare(statement)));
});

/** The round trips of `work`, run on a database that records them and their query events, from its call of `start` on. */
async function observed(work: (start: () => void) => Promise<void>): Promise<{ trips: string[][]; events: QueryEvent[] }> {
  const { binding, roundTrips } = recordingRoundTrips();
  const events: QueryEvent[] = [];
  const start = () => void ((roundTrips.length = 0), (events.length = 0));
  await withDatabase(connect(binding, { onQuery: (event) => events.push(event) }), () => work(start));
  return { trips: roundTrips, events };
}

/** The round trips of `work`, run on a database that records them, from its call of `start` on. */
async function roundTripsOf(work: (start: () => void) => Promise<void>): Promise<string[][]> {
  return (await observed(work)).trips;
}

/** Destroys `model`'s record `id`, loaded first; the round trips and query events of the destroy alone. */
function destroyObserved(model: any, id: number | null): Promise<{ trips: string[][]; events: QueryEvent[] }> {
  return observed(async (start) => {
    const loaded = await model.find(id);
    start();
    expect(await loaded.destroy()).toBe(loaded);
  });
}

/** Destroys `model`'s record `id`, loaded first; the round trips of the destroy alone. */
async function destroyCounted(model: any, id: number | null): Promise<string[][]> {
  return (await destroyObserved(model, id)).trips;
}

/** The most terms of any one compound SELECT of a statement: its `UNION`s within one pair of parentheses, plus one. */
function compoundTerms(sql: string): number {
  const open = [0];
  let most = 1;
  for (const token of sql.match(/\(|\)|\bUNION\b/g) ?? []) {
    if (token === "(") open.push(0);
    else if (token === ")") open.pop();
    else most = Math.max(most, ++open[open.length - 1]! + 1);
  }
  return most;
}

/** Each statement's verb and table, a WITH RECURSIVE prefix left out: `DELETE FROM "cy_boxes"`. */
const heads = (trip: readonly string[]) => trip.map((sql) => sql.replace(/^WITH RECURSIVE .*?\) (DELETE|UPDATE) /, "$1 ").split(/ WHERE| SET/)[0]);

/**
 * A chain of `depth` turns of a cycle below one box (of a depot when given), ids from `first` in every table: each
 * crate has a label and holds a box (`length` 2), or a pallet that holds a box (3). Returns the top box's id.
 */
async function cycleChain(length: 2 | 3, depth: number, first: number, depotId: number | null = null): Promise<number> {
  const insert = (sql: string, ...values: unknown[]) => env.DB.prepare(sql).bind(...values);
  const statements = [insert("INSERT INTO cy_boxes (id, cy_depot_id, name) VALUES (?, ?, 'b0')", first, depotId)];
  for (let level = 0; level < depth; level++) {
    const [crate, box] = [first + level, first + level + 1];
    statements.push(insert("INSERT INTO cy_crates (id, cy_box_id, name) VALUES (?, ?, 'c')", crate, box - 1));
    statements.push(insert("INSERT INTO cy_labels (cy_crate_id, name) VALUES (?, 'l')", crate));
    if (length === 2) statements.push(insert("INSERT INTO cy_boxes (id, cy_crate_id, name) VALUES (?, ?, 'b')", box, crate));
    else {
      statements.push(insert("INSERT INTO cy_pallets (id, cy_crate_id, name) VALUES (?, ?, 'p')", crate, crate));
      statements.push(insert("INSERT INTO cy_boxes (id, cy_pallet_id, name) VALUES (?, ?, 'b')", box, crate));
    }
  }
  await env.DB.batch(statements);
  return first;
}

/** The rows of one chain (ids from `first` to `first + 999`): boxes, crates, pallets, and labels pointing at its crates. */
async function chainRows(first: number, suffix: TableSuffix = ""): Promise<number[]> {
  const range = `BETWEEN ${first} AND ${first + 999}`;
  const rows = ["cy_boxes", "cy_crates", "cy_pallets"].map((table) => countRows(`${table}${suffix} WHERE id ${range}`));
  return Promise.all([...rows, countRows(`cy_labels${suffix} WHERE cy_crate_id ${range}`)]);
}

/** The tables of migration 0078 (with REFERENCES), or of 0097 (the same, unchecked). */
type TableSuffix = "" | "_unchecked";

/** Two comments whose parents are each other (the second is made a reply first, then the first is pointed at it). */
async function twoCommentCycle(Comment: any) {
  const first = await Comment.create({ body: "first" });
  const second = await Comment.create({ body: "second", parentId: first.id });
  await Comment.where({ id: first.id }).updateAll({ parentId: second.id });
  return Comment.find(first.id);
}

describe("dependent destroy through a loop", () => {
  it("two comments that are each other's reply: destroy ends and deletes both", async () => {
    const { Comment } = threadedComments();
    const first = await twoCommentCycle(Comment);
    expect(await first.destroy()).toBe(first);
    expect(await countRows("tc_comments")).toBe(0);
  });

  it("a loop through two Models, rows pointing at each other: destroy ends and deletes all, callbacks once each", async () => {
    const { Shelf, Folder, log } = threadedComments({ callbacks: true });
    const shelf = await Shelf.create({ name: "s0" });
    const folder = await Folder.create({ name: "f1", tcShelfId: shelf.id });
    const inner = await Shelf.create({ name: "s1", tcFolderId: folder.id });
    await Folder.create({ name: "f2", tcShelfId: inner.id });
    await Shelf.where({ id: shelf.id }).updateAll({ tcFolderId: folder.id });
    const loaded = await Shelf.find(shelf.id);
    expect(await loaded.destroy()).toBe(loaded);
    expect([await countRows("tc_shelves"), await countRows("tc_folders")]).toEqual([0, 0]);
    expect(log.filter((line) => line.startsWith("before")).sort()).toEqual(["before folder f1", "before folder f2", "before shelf s0", "before shelf s1"]);
    // Children before parents: each after-callback follows those of the rows below it.
    expect(log.filter((line) => line.startsWith("after"))).toEqual(["after folder f2", "after shelf s1", "after folder f1", "after shelf s0"]);
  });

  it("a reply tree with callbacks: every comment destroyed once, children before parents, votes with them", async () => {
    const { User, Comment, Vote, log } = threadedComments({ callbacks: true });
    const user = await User.create({ name: "ada" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    const reply = await Comment.create({ parentId: root.id, tcUserId: user.id, body: "reply" });
    await Comment.create({ parentId: reply.id, body: "nested" });
    await Vote.create({ tcCommentId: reply.id });
    expect(await (await User.find(user.id)).destroy()).toBeTruthy();
    expect([await countRows("tc_comments"), await countRows("tc_votes"), await countRows("tc_users")]).toEqual([0, 0, 0]);
    expect(log.filter((line) => line.startsWith("after"))).toEqual(["after nested", "after reply", "after root"]);
    expect(log.filter((line) => line.startsWith("before")).sort()).toEqual(["before nested", "before reply", "before root"]);
  });

  it("a chain of replies 5,000 deep, with callbacks: read in one round trip, walked without overflowing the stack, written in one more, children first", async () => {
    // The walk that hands each reply its own replies recursed once per level, which overflowed the stack near 3,000.
    const depth = 5_000;
    const { Comment, log } = threadedComments({ callbacks: true });
    await env.DB.prepare(
      "WITH RECURSIVE chain(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM chain WHERE n < ?) INSERT INTO tc_comments (id, parent_id, body) SELECT n, nullif(n - 1, 0), 'c' || n FROM chain",
    )
      .bind(depth)
      .run();
    const trips = await destroyCounted(Comment, 1);
    expect(trips).toHaveLength(2);
    expect(await countRows("tc_comments")).toBe(0);
    const chain = Array.from({ length: depth }, (_, index) => `c${index + 1}`);
    expect(log.filter((line) => line.startsWith("before"))).toEqual(chain.map((body) => `before ${body}`));
    expect(log.filter((line) => line.startsWith("after"))).toEqual(chain.reverse().map((body) => `after ${body}`));
  }, 30_000);

  it("nullify does not descend: only the owner's own children lose their key", async () => {
    const { User, Comment } = threadedComments({ comments: "nullify" });
    const user = await User.create({ name: "ada" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    await Comment.create({ parentId: root.id, tcUserId: user.id, body: "reply" });
    expect(await (await User.find(user.id)).destroy()).toBeTruthy();
    expect(await Comment.order({ id: "asc" }).pluck("body", "tcUserId", "parentId")).toEqual([
      ["root", null, null],
      ["reply", null, root.id],
    ]);
  });

  it("restrictWithError deep in a reply tree refuses the destroy, with or without callbacks, and writes nothing", async () => {
    for (const callbacks of [false, true]) {
      await env.DB.batch(THREADED_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const { User, Comment, Flag } = threadedComments({ callbacks, commentFlags: "restrictWithError" });
      const user = await User.create({ name: "ada" });
      let parent = await Comment.create({ tcUserId: user.id, body: "0" });
      for (let depth = 1; depth < 6; depth++) parent = await Comment.create({ parentId: parent.id, body: String(depth) });
      await Flag.create({ tcCommentId: parent.id });
      const loaded = await User.find(user.id);
      await expect(loaded.destroyOrThrow()).rejects.toThrow("Cannot delete record because dependent flags exist");
      expect(await countRows("tc_comments")).toBe(6);
      expect(loaded.isPersisted()).toBe(true);
    }
  });

  it("restrictWithError on a Model its own dependent: the owner's own child refuses it with an entry in errors", async () => {
    const { Comment, Flag } = threadedComments({ commentFlags: "restrictWithError" });
    const root = await Comment.create({ body: "root" });
    await Comment.create({ parentId: root.id, body: "reply" });
    await Flag.create({ tcCommentId: root.id });
    expect(await root.destroy()).toBe(false);
    expect(root.errors.fullMessages()).toEqual(["Cannot delete record because dependent flags exist"]);
    expect(await countRows("tc_comments")).toBe(2);
  });

  it("deleteAll under a loop deletes the rows of every level, and nothing of another thread", async () => {
    const { User, Comment, Flag } = threadedComments();
    const user = await User.create({ name: "ada" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    const reply = await Comment.create({ parentId: root.id, body: "reply" });
    const other = await Comment.create({ body: "other" });
    await Flag.insertAll([{ tcCommentId: root.id }, { tcCommentId: reply.id }, { tcCommentId: other.id }]);
    expect(await (await User.find(user.id)).destroy()).toBeTruthy();
    expect(await Flag.pluck("tcCommentId")).toEqual([other.id]);
    expect(await Comment.pluck("body")).toEqual(["other"]);
  });
});

/**
 * A comment with `count` kinds of replies, each a dependent association of its own on the replies of one body:
 * `count` associations that all loop back to the comment, so the tree has `count` squared edges.
 */
function repliesOfManyKinds(count: number) {
  class KindedComment extends Model({ id: "integer", tcUserId: "integer", parentId: "integer", body: "string" }) {
    static override binding = "DB";
    static override tableName = "tc_comments";
    constructor() {
      super();
      for (let kind = 0; kind < count; kind++) {
        Object.assign(this, { [`replies${kind}`]: hasMany(KindedComment, { foreignKey: "parentId", scope: (q) => q.where({ body: `kind ${kind}` }), dependent: "destroy" }) });
      }
    }
  }
  return KindedComment;
}

/** A thread of `length` comments, each the reply of the one before, of kinds 0, 1, ... in turn; the top one's id. */
async function threadOfKinds(length: number, kinds: number): Promise<number> {
  const rows = Array.from({ length }, (_, index) => env.DB.prepare("INSERT INTO tc_comments (id, parent_id, body) VALUES (?, ?, ?)").bind(index + 1, index === 0 ? null : index, `kind ${index % kinds}`));
  await env.DB.batch(rows);
  return 1;
}

describe("dependent destroy through a loop of many associations", () => {
  it("40 kinds of replies: one batch deletes the thread, no statement past D1's limits", async () => {
    const Comment = repliesOfManyKinds(40);
    const top = await threadOfKinds(60, 40);
    const { trips, events } = await destroyObserved(Comment, top);
    expect(trips).toHaveLength(1);
    expect(await countRows("tc_comments")).toBe(0);
    for (const event of events) expect(event.params.length).toBeLessThanOrEqual(100);
    for (const sql of trips.flat()) expect(compoundTerms(sql)).toBeLessThanOrEqual(5);
  });

  it("150 kinds of replies: no stack overflow building the tree; TypeError naming the Model for SQL over D1's 100 KB, not sent; nothing deleted", async () => {
    const Comment = repliesOfManyKinds(150);
    const top = await threadOfKinds(10, 150);
    const { binding, roundTrips } = recordingRoundTrips();
    const error = await withDatabase(connect(binding), async () => (await (Comment as any).find(top)).destroy().catch((thrown: unknown) => thrown));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^KindedComment: a statement of \d+ bytes of SQL is over D1's limit of 100000 bytes; it was not sent$/);
    expect(roundTrips).toHaveLength(1);
    expect(await countRows("tc_comments")).toBe(10);
  });
});

describe("dependent destroy through a loop of several Models, REFERENCES on every key", () => {
  for (const depth of [1, 5, 200]) {
    it(`a loop through two Models ${depth} deep without callbacks: one round trip, every row of the tree gone, another tree untouched`, async () => {
      const { Box } = modelCycles({ length: 2 });
      const root = await cycleChain(2, depth, 1_000);
      await cycleChain(2, 3, 5_000);
      const before = await chainRows(5_000);
      const trips = await destroyCounted(Box, root);
      // The labels' nullify and the holds' DELETE, the relink of the crates, then one DELETE per node, the deepest
      // first (no detach: the top box hangs from no row).
      expect(trips.map(heads)).toEqual([
        [`UPDATE "cy_labels"`, `DELETE FROM "cy_holds"`, `UPDATE "cy_crates"`, `DELETE FROM "cy_boxes"`, `DELETE FROM "cy_crates"`, `DELETE FROM "cy_boxes"`],
      ]);
      expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
      expect(await countRows("cy_labels WHERE cy_crate_id IS NULL")).toBe(depth);
      expect(await chainRows(5_000)).toEqual(before);
    });
  }

  it("rows read grow with the depth, not its square: each statement reads at most 25 rows per level of the loop", async () => {
    const { Box } = modelCycles({ length: 2 });
    const most: number[] = [];
    for (const [depth, first] of [[100, 1_000], [200, 2_000]] as const) {
      const { events } = await destroyObserved(Box, await cycleChain(2, depth, first));
      most.push(Math.max(...events.map((event) => event.rowsRead)));
    }
    // The relink UPDATE, the most: 4,603 rows at depth 200 (84,401 when it read the rows reached once per row).
    expect(most[1]).toBeLessThanOrEqual(25 * 200);
    expect(most[1]! / most[0]!).toBeLessThan(2.1);
  });

  it("the statements bind the owner's key and the scopes' values only: the same at any depth", async () => {
    const { Box } = modelCycles({ length: 2 });
    const shapes: string[][] = [];
    for (const [depth, first] of [[2, 1_000], [40, 2_000]] as const) {
      const trips = await destroyCounted(Box, await cycleChain(2, depth, first));
      shapes.push(trips[0]!.map((sql) => sql.replace(/\?\d+/g, "?")));
    }
    expect(shapes[1]).toEqual(shapes[0]);
    expect(Math.max(...shapes[0]!.map((sql) => sql.split("?").length - 1))).toBeLessThanOrEqual(2);
  });

  it("a loop through three Models entered from a depot: one round trip, the depot's other boxes and another depot untouched", async () => {
    const { Depot, Box } = modelCycles({ length: 3 });
    const [depot, other] = [await Depot.create({ name: "d" }), await Depot.create({ name: "other" })];
    await cycleChain(3, 5, 1_000, depot.id);
    await cycleChain(3, 4, 2_000, depot.id);
    await cycleChain(3, 5, 5_000, other.id);
    await Box.create({ name: "loose" });
    const before = await chainRows(5_000);
    const trips = await destroyCounted(Depot, depot.id);
    expect(trips.map(heads)).toEqual([
      [
        `UPDATE "cy_labels"`,
        `DELETE FROM "cy_holds"`,
        `UPDATE "cy_crates"`,
        `DELETE FROM "cy_boxes"`,
        `DELETE FROM "cy_pallets"`,
        `DELETE FROM "cy_crates"`,
        `DELETE FROM "cy_boxes"`,
        `DELETE FROM "cy_depots"`,
      ],
    ]);
    expect([...(await chainRows(1_000)), ...(await chainRows(2_000))]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(await countRows("cy_labels WHERE cy_crate_id IS NULL")).toBe(9);
    expect(await chainRows(5_000)).toEqual(before);
    expect(await Box.where({ cyDepotId: null, cyCrateId: null, cyPalletId: null }).pluck("name")).toEqual(["loose"]);
    expect(await Depot.pluck("name")).toEqual(["other"]);
  });

  it("a loop through three Models from one of its own Models: one round trip, children before parents for every REFERENCES", async () => {
    const { Box } = modelCycles({ length: 3 });
    const root = await cycleChain(3, 200, 1_000);
    const trips = await destroyCounted(Box, root);
    expect(trips).toHaveLength(1);
    expect([await countRows("cy_boxes"), await countRows("cy_crates"), await countRows("cy_pallets")]).toEqual([0, 0, 0]);
  });

  it("every box of the loop also in the depot: each is deleted with the loop, children before parents", async () => {
    const { Depot } = modelCycles({ length: 2 });
    const depot = await Depot.create({ name: "d" });
    await cycleChain(2, 5, 1_000, depot.id);
    await env.DB.prepare("UPDATE cy_boxes SET cy_depot_id = ? WHERE id BETWEEN 1000 AND 1999").bind(depot.id).run();
    const trips = await destroyCounted(Depot, depot.id);
    expect(trips).toHaveLength(1);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
  });

  it("restrictWithError inside the loop: a hold deep down refuses the destroy in the first round trip and writes nothing", async () => {
    const { Box } = modelCycles({ length: 2, holds: "restrictWithError" });
    const root = await cycleChain(2, 5, 1_000);
    await env.DB.prepare("INSERT INTO cy_holds (cy_crate_id) VALUES (1004)").run();
    const before = await chainRows(1_000);
    const trips = await roundTripsOf(async (start) => {
      const loaded = await Box.find(root);
      start();
      expect(await loaded.destroy()).toBe(false);
      await expect(loaded.destroyOrThrow()).rejects.toThrow("Cannot delete record because dependent holds exist");
    });
    expect(trips.map((trip) => trip.every((sql) => /^(WITH RECURSIVE .*\) )?SELECT /.test(sql)))).toEqual([true, true]);
    expect(await chainRows(1_000)).toEqual(before);
  });

  it("restrictWithError inside the loop with no hold: the checks, then the set-based writes", async () => {
    const { Box } = modelCycles({ length: 2, holds: "restrictWithError" });
    const root = await cycleChain(2, 5, 1_000);
    await env.DB.prepare("INSERT INTO cy_holds (cy_crate_id) VALUES (NULL)").run();
    const trips = await destroyCounted(Box, root);
    expect(trips.map((trip) => trip.length)).toEqual([1, 5]);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
    expect(await countRows("cy_holds")).toBe(1);
  });

  it("nullify inside the loop: the labels of every crate reached lose their key, no other label does", async () => {
    const { Box, Label } = modelCycles({ length: 3 });
    const root = await cycleChain(3, 5, 1_000);
    await cycleChain(3, 1, 5_000);
    await destroyCounted(Box, root);
    expect(await Label.order({ id: "asc" }).pluck("cyCrateId")).toEqual([null, null, null, null, null, 5_000]);
  });
});

describe("dependent destroy through a loop of several Models, rows pointing at each other", () => {
  it("without callbacks: one round trip, the recursion ends and every row goes", async () => {
    const { Shelf, Folder } = threadedComments();
    const shelf = await Shelf.create({ name: "s0" });
    const folder = await Folder.create({ name: "f1", tcShelfId: shelf.id });
    const inner = await Shelf.create({ name: "s1", tcFolderId: folder.id });
    await Folder.create({ name: "f2", tcShelfId: inner.id });
    await Shelf.where({ id: shelf.id }).updateAll({ tcFolderId: folder.id });
    await Shelf.create({ name: "other", tcFolderId: 99 });
    const trips = await destroyCounted(Shelf, shelf.id);
    expect(trips).toHaveLength(1);
    expect([await Shelf.pluck("name"), await countRows("tc_folders")]).toEqual([["other"], 0]);
  });

  it("a row both entered from and inside the loop, pointing around it: kept while the loop's rows hang from it", async () => {
    const { Shelf, Folder } = threadedComments();
    class Keeper extends Model({ id: "integer", name: "string" }) {
      static override binding = "DB";
      static override tableName = "tc_users";
      shelves = hasMany(Shelf, { foreignKey: "tcUserId", dependent: "destroy" });
    }
    const keeper = await Keeper.create({ name: "k" });
    // The keeper's shelf s1 holds f1, which holds s2, which holds f2, which holds s1 again.
    const s1 = await Shelf.create({ name: "s1", tcUserId: keeper.id });
    const f1 = await Folder.create({ name: "f1", tcShelfId: s1.id });
    const s2 = await Shelf.create({ name: "s2", tcFolderId: f1.id });
    const f2 = await Folder.create({ name: "f2", tcShelfId: s2.id });
    await Shelf.where({ id: s1.id }).updateAll({ tcFolderId: f2.id });
    await Folder.create({ name: "other", tcShelfId: 999 });
    const trips = await destroyCounted(Keeper, keeper.id);
    expect(trips).toHaveLength(1);
    expect([await countRows("tc_shelves"), await Folder.pluck("name"), await countRows("tc_users")]).toEqual([0, ["other"], 0]);
  });

  it("a loop within a loop (rows pointing back to two levels): one round trip, every row gone, another tree untouched", async () => {
    const { Box } = modelCycles({ length: 3, nested: true });
    const root = await cycleChain(3, 4, 1_000);
    // Crates below the pallets, each with a pallet of its own.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO cy_crates (id, cy_pallet_id, name) VALUES (1100, 1001, 'c'), (1101, 1003, 'c')"),
      env.DB.prepare("INSERT INTO cy_pallets (id, cy_crate_id, name) VALUES (1100, 1100, 'p')"),
    ]);
    await cycleChain(3, 2, 5_000);
    const before = await chainRows(5_000);
    const trips = await destroyCounted(Box, root);
    // A relink per entry (the crates below boxes, the pallets below crates), then one DELETE per node, the deepest first.
    expect(trips.map(heads)).toEqual([
      [
        `UPDATE "cy_labels"`,
        `DELETE FROM "cy_holds"`,
        `UPDATE "cy_crates"`,
        `UPDATE "cy_pallets"`,
        `DELETE FROM "cy_boxes"`,
        `DELETE FROM "cy_crates"`,
        `DELETE FROM "cy_pallets"`,
        `DELETE FROM "cy_crates"`,
        `DELETE FROM "cy_boxes"`,
      ],
    ]);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
    expect(await chainRows(5_000)).toEqual(before);
  });
});

/** A generator of numbers in [0, 1) from a seed (mulberry32), so that a failing case can be replayed. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How `nestedTree` links its rows besides a row of each level. */
interface TreeShape {
  /** Some crates hang from a box and a pallet of the tree at once (reached through both loops). */
  readonly twoParents: boolean;
  /** The top box hangs from a pallet of its own tree (rows pointing at each other; only without REFERENCES). */
  readonly topPointsBack?: boolean;
  readonly suffix?: TableSuffix;
}

/**
 * A random tree of the nested cycle below one box, ids from `first`: boxes hold crates, crates hold pallets (and
 * labels and holds), pallets hold boxes and crates, linked as `shape` says. Returns the top box's id.
 */
async function nestedTree(random: () => number, first: number, { twoParents, topPointsBack = false, suffix = "" }: TreeShape): Promise<number> {
  let next = first;
  const insert = (sql: string, ...values: unknown[]) => env.DB.prepare(sql.replace(/INTO (cy_\w+)/, `INTO $1${suffix}`)).bind(...values);
  const statements = [insert("INSERT INTO cy_boxes (id, name) VALUES (?, 'b')", first)];
  const [boxes, crates, pallets] = [[first], [] as number[], [] as number[]];
  const pick = (list: number[]) => list[Math.floor(random() * list.length)]!;
  for (let made = 0; made < 40; made++) {
    const id = ++next;
    const kind = random();
    if (kind < 0.35) {
      const pallet = pallets.length > 0 && random() < 0.4 ? pick(pallets) : null;
      const box = pallet === null || (twoParents && random() < 0.3) ? pick(boxes) : null;
      statements.push(insert("INSERT INTO cy_crates (id, cy_box_id, cy_pallet_id, name) VALUES (?, ?, ?, 'c')", id, box, pallet));
      if (random() < 0.5) statements.push(insert("INSERT INTO cy_labels (cy_crate_id, name) VALUES (?, 'l')", id));
      if (random() < 0.3) statements.push(insert("INSERT INTO cy_holds (cy_crate_id) VALUES (?)", id));
      crates.push(id);
    } else if (kind < 0.7 && crates.length > 0) {
      statements.push(insert("INSERT INTO cy_pallets (id, cy_crate_id, name) VALUES (?, ?, 'p')", id, pick(crates)));
      pallets.push(id);
    } else if (pallets.length > 0) {
      statements.push(insert("INSERT INTO cy_boxes (id, cy_pallet_id, name) VALUES (?, ?, 'b')", id, pick(pallets)));
      boxes.push(id);
    }
  }
  if (topPointsBack && pallets.length > 0) statements.push(env.DB.prepare(`UPDATE cy_boxes${suffix} SET cy_pallet_id = ? WHERE id = ?`).bind(pick(pallets), first));
  await env.DB.batch(statements);
  return first;
}

describe("dependent destroy through a loop within a loop, REFERENCES on every key", () => {
  for (const twoParents of [false, true]) {
    it(`random trees${twoParents ? ", crates of a box and a pallet at once" : ""}: one round trip, every row gone, another tree untouched`, async () => {
      const { Box, Label } = modelCycles({ length: 3, nested: true });
      for (let seed = 1; seed <= 8; seed++) {
        await env.DB.batch(CYCLE_TABLES_EMPTIED.map((statement) => env.DB.prepare(statement)));
        const random = seeded(seed);
        const root = await nestedTree(random, 1_000, { twoParents });
        await nestedTree(random, 5_000, { twoParents });
        const [before, labels] = [await chainRows(5_000), await countRows("cy_labels WHERE cy_crate_id BETWEEN 1000 AND 1999")];
        const trips = await destroyCounted(Box, root);
        expect(trips, `seed ${seed}`).toHaveLength(1);
        expect(await chainRows(1_000), `seed ${seed}`).toEqual([0, 0, 0, 0]);
        expect(await countRows("cy_holds WHERE cy_crate_id IS NULL"), `seed ${seed}`).toBe(0);
        expect(await Label.where({ cyCrateId: null }).count(), `seed ${seed}`).toBe(labels);
        expect(await chainRows(5_000), `seed ${seed}`).toEqual(before);
      }
    }, 20_000);
  }

  it("two loops sharing boxes and crates (crates hold boxes, and pallets that hold boxes): one round trip, every row gone", async () => {
    const { Box } = modelCycles({ length: "both" });
    const root = await cycleChain(2, 6, 1_000);
    // A chain through pallets below the third crate, and another below the last box of that chain.
    await cycleChain(3, 5, 1_100);
    await cycleChain(2, 3, 1_200);
    await env.DB.batch([
      env.DB.prepare("UPDATE cy_boxes SET cy_crate_id = 1002 WHERE id = 1100"),
      env.DB.prepare("UPDATE cy_boxes SET cy_crate_id = 1104 WHERE id = 1200"),
    ]);
    await cycleChain(3, 2, 5_000);
    const before = await chainRows(5_000);
    const trips = await destroyCounted(Box, root);
    expect(trips).toHaveLength(1);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
    expect(await chainRows(5_000)).toEqual(before);
  });

  it("restrictWithError on the crates of the loop within the loop: a hold there refuses, none lets the set-based writes run", async () => {
    const { Box } = modelCycles({ length: 3, nested: true, holds: "restrictWithError" });
    const root = await cycleChain(3, 4, 1_000);
    await env.DB.prepare("INSERT INTO cy_crates (id, cy_pallet_id, name) VALUES (1100, 1002, 'c')").run();
    const hold = await env.DB.prepare("INSERT INTO cy_holds (cy_crate_id) VALUES (1100) RETURNING id").first<{ id: number }>();
    const before = await chainRows(1_000);
    const refused = await roundTripsOf(async (start) => {
      const loaded = await Box.find(root);
      start();
      await expect(loaded.destroyOrThrow()).rejects.toThrow("Cannot delete record because dependent holds exist");
    });
    expect(refused).toHaveLength(1);
    expect(await chainRows(1_000)).toEqual(before);
    await env.DB.prepare("DELETE FROM cy_holds WHERE id = ?").bind(hold!.id).run();
    const trips = await destroyCounted(Box, root);
    expect(trips.map((trip) => trip.length)).toEqual([1, 8]);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
  });
});

describe("dependent destroy through a loop within a loop, rows pointing at each other", () => {
  it("random trees whose top box hangs from a pallet of its own tree: one round trip, the recursion ends, every row gone", async () => {
    const { Box } = modelCycles({ length: 3, nested: true, unchecked: true });
    for (let seed = 1; seed <= 8; seed++) {
      await env.DB.batch(CYCLE_TABLES_EMPTIED.map((statement) => env.DB.prepare(statement)));
      const random = seeded(seed);
      const shape = { twoParents: true, topPointsBack: true, suffix: "_unchecked" } as const;
      const root = await nestedTree(random, 1_000, shape);
      await nestedTree(random, 5_000, shape);
      const before = await chainRows(5_000, "_unchecked");
      const trips = await destroyCounted(Box, root);
      expect(trips, `seed ${seed}`).toHaveLength(1);
      expect(await chainRows(1_000, "_unchecked"), `seed ${seed}`).toEqual([0, 0, 0, 0]);
      expect(await countRows("cy_holds_unchecked WHERE cy_crate_id BETWEEN 1000 AND 1999"), `seed ${seed}`).toBe(0);
      expect(await chainRows(5_000, "_unchecked"), `seed ${seed}`).toEqual(before);
    }
  }, 20_000);
});

describe("dependent destroy with callbacks, rows pointing at each other through REFERENCES", () => {
  it("two notes keyed by bytes that are each other's reply: the relink binds the keys as bytes, both gone", async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS blob_notes (id BLOB PRIMARY KEY NOT NULL, parent_id BLOB REFERENCES blob_notes (id), body TEXT NOT NULL)");
    await env.DB.exec("DELETE FROM blob_notes");
    const log: string[] = [];
    class Note extends defineApplicationRecord({}, BlobBase)({ id: "blob", parentId: "blob", body: "string" }) {
      static override tableName = "blob_notes";
      static {
        this.afterDestroy((note) => void log.push(note.body!));
      }
      replies = hasMany(Note, { foreignKey: "parentId", dependent: "destroy" });
    }
    await Note.create({ id: bytes(0, 1), body: "first" });
    await Note.create({ id: bytes(0, 2), body: "second", parentId: bytes(0, 1) });
    await Note.where({ id: bytes(0, 1) }).updateAll({ parentId: bytes(0, 2) });
    await Note.create({ id: bytes(9), body: "other" });
    const first = await Note.find(bytes(0, 1));
    expect(await first.destroy()).toBe(first);
    expect(await Note.pluck("body")).toEqual(["other"]);
    expect(log).toEqual(["second", "first"]);
  });

  it("two comments that are each other's reply: two round trips, both gone, each callback once", async () => {
    const { Comment, Vote, log } = threadedComments({ callbacks: true });
    const first = await twoCommentCycle(Comment);
    await Vote.create({ tcCommentId: first.parentId });
    const trips = await destroyCounted(Comment, first.id);
    expect(trips).toHaveLength(2);
    expect([await countRows("tc_comments"), await countRows("tc_votes")]).toEqual([0, 0]);
    expect(log).toEqual(["before first", "before second", "after second", "after first"]);
  });

  it("two notes keyed by a plugin type's value objects that are each other's reply: relinked by their stored keys, both gone", async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS coded_notes (id TEXT PRIMARY KEY NOT NULL, parent_id TEXT REFERENCES coded_notes (id), body TEXT NOT NULL)");
    await env.DB.exec("DELETE FROM coded_notes");
    const log: string[] = [];
    class Note extends defineApplicationRecord({}, CodeBase)({ id: "code" as "string", parentId: "code" as "string", body: "string" }) {
      static override tableName = "coded_notes";
      static {
        this.afterDestroy((note) => void log.push(note.body!));
      }
      replies = hasMany(Note, { foreignKey: "parentId", dependent: "destroy" });
    }
    await Note.create({ id: "a", body: "first" });
    await Note.create({ id: "b", body: "second", parentId: "a" });
    await Note.where({ id: "a" }).updateAll({ parentId: "b" });
    await Note.create({ id: "c", body: "other", parentId: "b" });
    await Note.create({ id: "z", body: "elsewhere" });
    const first = await Note.find("a");
    expect(await first.destroy()).toBe(first);
    expect(await Note.pluck("body")).toEqual(["elsewhere"]);
    expect(log.sort()).toEqual(["first", "other", "second"]);
  });

  it("three comments in a ring, and a thread below one of them: every comment gone, another thread untouched", async () => {
    const { Comment, log } = threadedComments({ callbacks: true });
    const a = await Comment.create({ body: "a" });
    const b = await Comment.create({ body: "b", parentId: a.id });
    const c = await Comment.create({ body: "c", parentId: b.id });
    await Comment.create({ body: "below", parentId: b.id });
    await Comment.where({ id: a.id }).updateAll({ parentId: c.id });
    const other = await Comment.create({ body: "other" });
    await Comment.create({ body: "other reply", parentId: other.id });
    const trips = await destroyCounted(Comment, b.id);
    // One relink of the key pointing back at a row deleted first, the DELETEs, and the restore where rows remain.
    expect(trips[0]).toHaveLength(2);
    const eachComment = [`DELETE FROM "tc_flags"`, `DELETE FROM "tc_comments"`];
    expect(heads(trips[1]!)).toEqual([`UPDATE "tc_comments"`, ...eachComment, ...eachComment, ...eachComment, eachComment[0], `UPDATE "tc_comments"`, eachComment[1]]);
    expect(await Comment.order({ id: "asc" }).pluck("body")).toEqual(["other", "other reply"]);
    expect(log.filter((line) => line.startsWith("after"))).toHaveLength(4);
  });

  it("a ring of 200 comments, each the reply of the one before and the first of the last: two round trips, all gone", async () => {
    const { Comment, log } = threadedComments({ callbacks: true });
    const insert = (sql: string, ...values: unknown[]) => env.DB.prepare(sql).bind(...values);
    const ring = Array.from({ length: 200 }, (_, at) => insert("INSERT INTO tc_comments (id, parent_id, body) VALUES (?, ?, ?)", 1_000 + at, at === 0 ? null : 999 + at, `c${at}`));
    await env.DB.batch([...ring, insert("UPDATE tc_comments SET parent_id = 1199 WHERE id = 1000")]);
    const trips = await destroyCounted(Comment, 1_000);
    expect(trips).toHaveLength(2);
    expect(await countRows("tc_comments")).toBe(0);
    expect(log.filter((line) => line.startsWith("after"))).toHaveLength(200);
  });

  it("random trees of the loop within the loop, crates of two parents, the top box on a pallet of its own tree", async () => {
    const { Box, Crate, Pallet } = modelCycles({ length: 3, nested: true });
    const destroyed: string[] = [];
    for (const model of [Box, Crate, Pallet] as any[]) model.afterDestroy((record: any) => void destroyed.push(`${model.name} ${record.id}`));
    for (let seed = 1; seed <= 6; seed++) {
      await env.DB.batch(CYCLE_TABLES_EMPTIED.map((statement) => env.DB.prepare(statement)));
      const random = seeded(seed);
      const shape = { twoParents: true, topPointsBack: true } as const;
      const root = await nestedTree(random, 1_000, shape);
      await nestedTree(random, 5_000, shape);
      const [before, tree] = [await chainRows(5_000), await chainRows(1_000)];
      destroyed.length = 0;
      const trips = await destroyCounted(Box, root);
      expect(trips, `seed ${seed}`).toHaveLength(2);
      expect(await chainRows(1_000), `seed ${seed}`).toEqual([0, 0, 0, 0]);
      expect(new Set(destroyed).size, `seed ${seed}`).toBe(destroyed.length);
      expect(destroyed.length, `seed ${seed}`).toBe(tree[0]! + tree[1]! + tree[2]!);
      expect(await chainRows(5_000), `seed ${seed}`).toEqual(before);
    }
  }, 30_000);
});

describe("dependent destroy through a loop of several Models, under multiTenancy", () => {
  it("shelves and folders of two tenants: the destroy reaches the current tenant's rows only", async () => {
    const { Shelf, Folder } = threadedComments({ tenants: true });
    const [top, folder] = await withTenant("acme", async () => {
      const shelf = await Shelf.create({ name: "s0" });
      const inner = await Folder.create({ name: "f1", tcShelfId: shelf.id });
      await Folder.create({ name: "f2", tcShelfId: (await Shelf.create({ name: "s1", tcFolderId: inner.id })).id });
      return [shelf, inner];
    });
    // Another tenant's rows holding the acme rows' keys: no REFERENCES here, so nothing but the tenant tells them apart.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO tc_folders (tc_shelf_id, name, tenant_id) VALUES (?, 'g-folder', 'globex')").bind(top.id),
      env.DB.prepare("INSERT INTO tc_shelves (tc_folder_id, name, tenant_id) VALUES (?, 'g-shelf', 'globex')").bind(folder.id),
    ]);
    const trips = await withTenant("acme", () => destroyCounted(Shelf, top.id));
    expect(trips).toHaveLength(2);
    const left = async (table: string) => (await env.DB.prepare(`SELECT name, tenant_id FROM ${table} ORDER BY id`).all()).results;
    expect(await left("tc_shelves")).toEqual([{ name: "g-shelf", tenant_id: "globex" }]);
    expect(await left("tc_folders")).toEqual([{ name: "g-folder", tenant_id: "globex" }]);
  });
});

describe("dependent destroy through a loop of several Models, with counter caches", () => {
  /** Rooms, and shelves holding folders holding shelves (migration 0110): each belongsTo keeps its parent's count. */
  function countedLoop() {
    class Room extends Model({ id: "integer", name: "string", foldersCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "lc_rooms";
    }
    class Shelf extends Model({ id: "integer", lcFolderId: "integer", name: "string", foldersCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "lc_shelves";
      folders = hasMany(Folder, { foreignKey: "lcShelfId", dependent: "destroy" });
      folder = belongsTo(Folder, { foreignKey: "lcFolderId", optional: true, counterCache: "shelvesCount" });
    }
    class Folder extends Model({ id: "integer", lcShelfId: "integer", lcRoomId: "integer", name: "string", shelvesCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "lc_folders";
      shelves = hasMany(Shelf, { foreignKey: "lcFolderId", dependent: "destroy" });
      shelf = belongsTo(Shelf, { foreignKey: "lcShelfId", optional: true, counterCache: "foldersCount" });
      room = belongsTo(Room, { foreignKey: "lcRoomId", optional: true, counterCache: "foldersCount" });
    }
    return { Room, Shelf, Folder };
  }

  beforeEach(async () => {
    await env.DB.batch(["UPDATE lc_shelves SET lc_folder_id = NULL", "DELETE FROM lc_folders", "DELETE FROM lc_shelves", "DELETE FROM lc_rooms"].map((sql) => env.DB.prepare(sql)));
  });

  for (const depth of [1, 5, 200]) {
    it(`${depth} deep: one round trip as without them, every row gone, the counts of rows outside the tree kept right`, async () => {
      const { Room, Shelf, Folder } = countedLoop();
      const [room, other] = [await Room.create({ name: "r" }), await Room.create({ name: "other" })];
      const top = await Shelf.create({ name: "s0" });
      let shelf = top;
      for (let level = 0; level < depth; level++) {
        const [folderId, shelfId] = [10_000 + level, 20_000 + level];
        await env.DB.batch([
          env.DB.prepare("INSERT INTO lc_folders (id, lc_shelf_id, lc_room_id, name) VALUES (?, ?, ?, 'f')").bind(folderId, shelf.id, level % 2 === 0 ? room.id : other.id),
          env.DB.prepare("INSERT INTO lc_shelves (id, lc_folder_id, name) VALUES (?, ?, 's')").bind(shelfId, folderId),
        ]);
        shelf = { id: shelfId } as typeof top;
      }
      // A folder of the room on a shelf outside the tree, and counts as the rows say.
      const kept = await Shelf.create({ name: "kept" });
      await Folder.create({ name: "kept", lcShelfId: kept.id, lcRoomId: room.id });
      await env.DB.batch([
        env.DB.prepare("UPDATE lc_rooms SET folders_count = (SELECT COUNT(*) FROM lc_folders WHERE lc_room_id = lc_rooms.id)"),
        env.DB.prepare("UPDATE lc_shelves SET folders_count = (SELECT COUNT(*) FROM lc_folders WHERE lc_shelf_id = lc_shelves.id)"),
        env.DB.prepare("UPDATE lc_folders SET shelves_count = (SELECT COUNT(*) FROM lc_shelves WHERE lc_folder_id = lc_folders.id)"),
      ]);
      const { trips, events } = await destroyObserved(Shelf, top.id);
      expect(trips).toHaveLength(1);
      expect([await Shelf.pluck("name"), await Folder.pluck("name")]).toEqual([["kept"], ["kept"]]);
      expect(await Room.order({ id: "asc" }).pluck("foldersCount")).toEqual([1, 0]);
      expect(await Shelf.pluck("foldersCount")).toEqual([1]);
      expect(Math.max(...events.map((event) => event.rowsRead))).toBeLessThanOrEqual(30 * (2 * depth + 4));
    });
  }
});

describe("dependent destroy through a loop of several Models, with soft delete", () => {
  /** Shelves holding folders (migration 0110) under softDelete; holding shelves again when `loop`. */
  function softDeleted(loop: boolean) {
    class Shelf extends Model({ id: "integer", lcFolderId: "integer", name: "string", deletedAt: "datetime" }) {
      static override binding = "DB";
      static override tableName = "lc_shelves";
      static {
        this.use(softDelete);
      }
      folders = hasMany(Folder, { foreignKey: "lcShelfId", dependent: "destroy" });
    }
    class Folder extends Model({ id: "integer", lcShelfId: "integer", name: "string", deletedAt: "datetime" }) {
      static override binding = "DB";
      static override tableName = "lc_folders";
      static {
        this.use(softDelete);
      }
      shelves = hasMany(Shelf, { foreignKey: "lcFolderId", ...(loop ? { dependent: "destroy" as const } : {}) });
    }
    return { Shelf, Folder };
  }

  /** A shelf, its folder, and for `loop` a shelf in that folder with a folder of its own; plus a shelf of another tree. */
  async function shelfTree(loop: boolean): Promise<number> {
    await env.DB.batch(["UPDATE lc_shelves SET lc_folder_id = NULL", "DELETE FROM lc_folders", "DELETE FROM lc_shelves"].map((sql) => env.DB.prepare(sql)));
    await env.DB.batch([
      env.DB.prepare("INSERT INTO lc_shelves (id, name) VALUES (1, 's0'), (9, 'other')"),
      env.DB.prepare("INSERT INTO lc_folders (id, lc_shelf_id, name) VALUES (1, 1, 'f1'), (9, 9, 'other')"),
      ...(loop ? [env.DB.prepare("INSERT INTO lc_shelves (id, lc_folder_id, name) VALUES (2, 1, 's1')"), env.DB.prepare("INSERT INTO lc_folders (id, lc_shelf_id, name) VALUES (2, 2, 'f2')")] : []),
    ]);
    return 1;
  }

  it("costs what the same tree without a loop costs (two round trips), every row stamped, its keys kept, no other row changed", async () => {
    const counts: number[] = [];
    for (const loop of [false, true]) {
      const { Shelf } = softDeleted(loop);
      counts.push((await destroyCounted(Shelf, await shelfTree(loop))).length);
    }
    expect(counts).toEqual([2, 2]);
    const rows = async (table: string) => (await env.DB.prepare(`SELECT id, ${table === "lc_shelves" ? "lc_folder_id" : "lc_shelf_id"} AS parent, deleted_at IS NOT NULL AS gone FROM ${table} ORDER BY id`).all()).results;
    // Soft-deleted rows keep the keys they had: no relink may move rows that stay.
    expect(await rows("lc_shelves")).toEqual([{ id: 1, parent: null, gone: 1 }, { id: 2, parent: 1, gone: 1 }, { id: 9, parent: null, gone: 0 }]);
    expect(await rows("lc_folders")).toEqual([{ id: 1, parent: 1, gone: 1 }, { id: 2, parent: 2, gone: 1 }, { id: 9, parent: 9, gone: 0 }]);
  });

  it("with callbacks, rows that point at each other (through REFERENCES) are stamped and keep their keys", async () => {
    const { Shelf } = softDeleted(true);
    await shelfTree(true);
    await env.DB.prepare("UPDATE lc_shelves SET lc_folder_id = 2 WHERE id = 1").run();
    expect(await destroyCounted(Shelf, 1)).toHaveLength(2);
    const rows = async (table: string, key: string) => (await env.DB.prepare(`SELECT id, ${key} AS parent, deleted_at IS NOT NULL AS gone FROM ${table} ORDER BY id`).all()).results;
    expect(await rows("lc_shelves", "lc_folder_id")).toEqual([{ id: 1, parent: 2, gone: 1 }, { id: 2, parent: 1, gone: 1 }, { id: 9, parent: null, gone: 0 }]);
    expect(await rows("lc_folders", "lc_shelf_id")).toEqual([{ id: 1, parent: 1, gone: 1 }, { id: 2, parent: 2, gone: 1 }, { id: 9, parent: 9, gone: 0 }]);
  });
});

describe("dependent destroy under multiTenancy: a loop costs what a tree without one costs", () => {
  it("shelves holding folders, and the same with folders holding shelves: two round trips each, a record per row", async () => {
    const { Shelf: LoopShelf, Folder: LoopFolder } = threadedComments({ tenants: true });
    const { Shelf, Folder } = threadedComments({ tenants: true, folderShelves: false });
    const [tree, loop] = await withTenant("acme", async () => {
      const [tree, loop] = [await Shelf.create({ name: "tree" }), await LoopShelf.create({ name: "loop" })];
      await Folder.create({ name: "f", tcShelfId: tree.id });
      await LoopFolder.create({ name: "f", tcShelfId: loop.id });
      return [tree, loop];
    });
    const trips = await withTenant("acme", async () => [await destroyCounted(Shelf, tree.id), await destroyCounted(LoopShelf, loop.id)]);
    // The multiTenancy plugin plans each record's write (a guard that its row is the tenant's), so both read first.
    expect(trips.map((each) => each.length)).toEqual([2, 2]);
    expect(trips[1]![1]!.length).toBe(trips[0]![1]!.length);
    expect([await countRows("tc_shelves"), await countRows("tc_folders")]).toEqual([0, 0]);
  });
});

describe("dependent destroy through a loop: D1's limit of 5 terms in a compound SELECT", () => {
  /** Crates and pallets below the pallets of a chain: a loop back to the crates within the loop back to the boxes. */
  async function nestedCrates(): Promise<void> {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO cy_crates (id, cy_pallet_id, name) VALUES (1100, 1001, 'c'), (1101, 1003, 'c')"),
      env.DB.prepare("INSERT INTO cy_pallets (id, cy_crate_id, name) VALUES (1100, 1100, 'p')"),
      env.DB.prepare("INSERT INTO cy_labels (cy_crate_id, name) VALUES (1100, 'l')"),
    ]);
  }

  it("a tree whose rows hang from 4 associations: one recursive query of 5 terms, at the limit", async () => {
    const { Depot } = modelCycles({ length: 3 });
    const depot = await Depot.create({ name: "d" });
    await cycleChain(3, 5, 1_000, depot.id);
    const trips = await destroyCounted(Depot, depot.id);
    expect(trips).toHaveLength(1);
    expect(Math.max(...trips[0]!.map(compoundTerms))).toBe(5);
    expect(trips[0]!.some((sql) => sql.includes("recordflare_reached_1"))).toBe(false);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
  });

  it("a tree whose rows hang from 5 associations: a chain of recursive queries, none of more than 5 terms", async () => {
    const { Depot } = modelCycles({ length: 3, nested: true });
    const [depot, other] = [await Depot.create({ name: "d" }), await Depot.create({ name: "other" })];
    await cycleChain(3, 4, 1_000, depot.id);
    await nestedCrates();
    await cycleChain(3, 3, 5_000, other.id);
    const before = await chainRows(5_000);
    const tables = ["cy_depots", "cy_boxes", "cy_crates", "cy_pallets", "cy_labels", "cy_holds"];
    const rows = (await Promise.all(tables.map((table) => countRows(table)))).reduce((sum, count) => sum + count);
    const { trips, events } = await destroyObserved(Depot, depot.id);
    // Rows read stay a small multiple of the rows there are (157 of 36 at most): each step of the chain copies the
    // rows the step before reached once.
    expect(Math.max(...events.map((event) => event.rowsRead))).toBeLessThanOrEqual(5 * rows);
    const statements = trips.flat();
    expect(statements.filter((sql) => sql.startsWith("WITH RECURSIVE")).every((sql) => sql.includes("recordflare_reached_1"))).toBe(true);
    expect(Math.max(...statements.map(compoundTerms))).toBe(5);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
    expect(await chainRows(5_000)).toEqual(before);
    expect(await Depot.pluck("name")).toEqual(["other"]);
  });

  it("with callbacks, the reads of a tree whose rows hang from 5 associations: a chain of recursive queries, each record once", async () => {
    const { Depot, Box, Crate, Pallet } = modelCycles({ length: 3, nested: true });
    const destroyed: string[] = [];
    for (const model of [Box, Crate, Pallet] as any[]) model.afterDestroy((record: any) => void destroyed.push(`${model.tableName} ${record.id}`));
    const depot = await Depot.create({ name: "d" });
    await cycleChain(3, 4, 1_000, depot.id);
    await nestedCrates();
    const trips = await destroyCounted(Depot, depot.id);
    expect(trips).toHaveLength(2);
    const recursive = trips[0]!.filter((sql) => sql.startsWith("WITH RECURSIVE"));
    expect(recursive.length).toBeGreaterThan(0);
    expect(recursive.every((sql) => sql.includes("recordflare_reached_1"))).toBe(true);
    expect(Math.max(...trips.flat().map(compoundTerms))).toBe(5);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
    expect(destroyed).toHaveLength(new Set(destroyed).size);
    expect(destroyed).toHaveLength(5 + 6 + 5);
  });

  /** Comments on the threaded comments' table with a kind of reply per body, "a" to "h": the first `count` `destroy` (loops of the Model to itself). */
  function kindsOfReplies(count: number) {
    const replies = (body: string) => {
      const dependent = "abcdefgh".indexOf(body) < count ? { dependent: "destroy" as const } : {};
      return { foreignKey: "parentId" as const, ...dependent, scope: (q: any) => q.where({ body }) };
    };
    class Thread extends Model({ id: "integer", parentId: "integer", body: "string" }) {
      static override binding = "DB";
      static override tableName = "tc_comments";
      a = hasMany(Thread, replies("a"));
      b = hasMany(Thread, replies("b"));
      c = hasMany(Thread, replies("c"));
      d = hasMany(Thread, replies("d"));
      e = hasMany(Thread, replies("e"));
      f = hasMany(Thread, replies("f"));
      g = hasMany(Thread, replies("g"));
      h = hasMany(Thread, replies("h"));
    }
    return Thread;
  }

  /** A thread of `depth` levels below a root, each of a kind of reply in turn, with a reply of another thread. */
  async function threadOfKinds(Thread: any, kinds: string, depth: number): Promise<number> {
    const root = await Thread.create({ body: "root" });
    let parent = root;
    for (let level = 0; level < depth; level++) parent = await Thread.create({ parentId: parent.id, body: kinds[level % kinds.length] });
    await Thread.create({ parentId: (await Thread.create({ body: "other" })).id, body: "a" });
    return root.id;
  }

  for (const count of [4, 5, 8]) {
    it(`a Model its own dependent through ${count} associations: one round trip, one DELETE of the replies, none of more than 5 terms`, async () => {
      const Thread = kindsOfReplies(count);
      const kinds = "abcdefgh".slice(0, count);
      const root = await threadOfKinds(Thread, kinds, 3 * count);
      const { trips, events } = await destroyObserved(Thread, root);
      // The replies of every kind and depth in one DELETE, then the root's own.
      expect(trips.map((trip) => trip.length)).toEqual([2]);
      expect(Math.max(...trips[0]!.map(compoundTerms))).toBe(5);
      expect(await Thread.order({ id: "asc" }).pluck("body")).toEqual(["other", "a"]);
      // Each row reached is looked up once per association it may hang from, on the foreign key's index: rows read
      // grow with the rows times the associations (355 of 15 rows at 4, 594 of 18 at 5, 1,671 of 27 at 8).
      expect(Math.max(...events.map((event) => event.rowsRead))).toBeLessThanOrEqual(8 * count * (3 * count + 3));
    });
  }

  it("a loop through 8 associations at depth 200: one round trip, rows read in proportion to the rows", async () => {
    const Thread = kindsOfReplies(8);
    const most: number[] = [];
    for (const depth of [100, 200]) {
      await env.DB.prepare("DELETE FROM tc_comments").run();
      const { events } = await destroyObserved(Thread, await threadOfKinds(Thread, "abcdefgh", depth));
      most.push(Math.max(...events.map((event) => event.rowsRead)));
      expect(await Thread.order({ id: "asc" }).pluck("body")).toEqual(["other", "a"]);
    }
    expect(most[1]! / most[0]!).toBeLessThan(2.1);
  });

  it("a row reached as two associations' rows (scopes that overlap): each node reaches it, the rows below it go too", async () => {
    const Thread = kindsOfReplies(8);
    class Overlapping extends Thread {
      static override tableName = "tc_comments";
      any = hasMany(Thread, { foreignKey: "parentId" as const, dependent: "destroy" as const });
    }
    const root = await Overlapping.create({ body: "root" });
    const reply = await Thread.create({ parentId: root.id, body: "e" });
    await Thread.create({ parentId: reply.id, body: "h" });
    await Thread.create({ body: "other" });
    const trips = await destroyCounted(Overlapping, root.id);
    expect(trips).toHaveLength(1);
    expect(await Thread.pluck("body")).toEqual(["other"]);
  });

  it("a loop of three Models with 5 associations that rows hang from: one round trip, other trees untouched", async () => {
    const { Depot } = modelCycles({ length: "both", nested: true });
    const [depot, other] = [await Depot.create({ name: "d" }), await Depot.create({ name: "other" })];
    await cycleChain(3, 4, 1_000, depot.id);
    await cycleChain(2, 4, 1_100, depot.id);
    await env.DB.prepare("INSERT INTO cy_crates (id, cy_pallet_id, name) VALUES (1200, 1001, 'c')").run();
    await cycleChain(3, 3, 5_000, other.id);
    const before = await chainRows(5_000);
    const trips = await destroyCounted(Depot, depot.id);
    expect(trips).toHaveLength(1);
    expect(Math.max(...trips[0]!.map(compoundTerms))).toBeLessThanOrEqual(5);
    expect([...(await chainRows(1_000))]).toEqual([0, 0, 0, 0]);
    expect(await chainRows(5_000)).toEqual(before);
    expect(await Depot.pluck("name")).toEqual(["other"]);
  });
});

describe("dependent destroy through a loop: the owner's row hanging from a row of its own tree", () => {
  /** A chain of 3 turns of the loop through pallets below a box, the box then put on the chain's last pallet. */
  async function boxOnItsOwnPallet(): Promise<number> {
    const root = await cycleChain(3, 3, 1_000);
    await env.DB.prepare("UPDATE cy_boxes SET cy_pallet_id = 1002 WHERE id = ?").bind(root).run();
    return root;
  }

  it("REFERENCES on every key: one round trip, the owner detached first, every row gone, another tree untouched", async () => {
    const { Box } = modelCycles({ length: 3 });
    const root = await boxOnItsOwnPallet();
    await cycleChain(3, 2, 5_000);
    const before = await chainRows(5_000);
    const { trips, events } = await destroyObserved(Box, root);
    // The detach, then the statements of any loop through three Models (see above).
    expect(trips).toHaveLength(1);
    expect(heads(trips[0]!)[0]).toBe(`UPDATE "cy_boxes"`);
    expect(trips[0]).toHaveLength(8);
    expect(await chainRows(1_000)).toEqual([0, 0, 0, 0]);
    expect(await chainRows(5_000)).toEqual(before);
    // The detach reads the rows the recursive query reaches once, as every statement of the tree does.
    expect(events[0]!.rowsRead).toBeLessThanOrEqual(Math.max(...events.slice(1).map((event) => event.rowsRead)));
  });

  it("the owner's other key, to a row outside its tree, is kept until its DELETE; no other row changes", async () => {
    const { Depot, Box } = modelCycles({ length: 3 });
    const depot = await Depot.create({ name: "d" });
    const root = await boxOnItsOwnPallet();
    await Box.where({ id: root }).updateAll({ cyDepotId: depot.id });
    await Box.create({ name: "other", cyDepotId: depot.id, cyPalletId: null });
    await destroyCounted(Box, root);
    expect(await Box.pluck("name")).toEqual(["other"]);
    expect(await Depot.count()).toBe(1);
  });

  it("a row outside the tree still pointing at a row of it: D1's foreign key error, and nothing is written", async () => {
    const { Box } = modelCycles({ length: 3 });
    const root = await boxOnItsOwnPallet();
    // A crate on a pallet of the tree through a key no dependent association follows (pallets' crates).
    await env.DB.prepare("INSERT INTO cy_crates (id, cy_pallet_id, name) VALUES (9000, 1001, 'outside')").run();
    const before = await chainRows(1_000);
    const loaded = await Box.find(root);
    await expect(loaded.destroy()).rejects.toThrow(/FOREIGN KEY/i);
    expect(await chainRows(1_000)).toEqual(before);
    expect(loaded.isPersisted()).toBe(true);
  });
});
