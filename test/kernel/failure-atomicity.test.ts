import { afterEach, describe, expect, it } from "vitest";
import { batch, connect, hasMany, type Database } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { type Fault, INJECTED, faultyD1 } from "../helpers/faulty-d1.js";
import { FaChild, FaGrandchild, FaIntOwner, FaOwner, dumpTables, stateOf, trap } from "../models/failure-fixtures.js";

afterEach(() => {
  Object.assign(trap, { at: undefined, abort: undefined, log: undefined });
});

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

/** A text-key graph (written in one batch): an owner, a child and a grandchild, with untrimmed text. */
function textGraph(db?: Database) {
  const owner = (db ? db.model(FaOwner) : FaOwner).build({ name: " owner " });
  const child = owner.children().build({ title: " child " });
  const grandchild = child.grandchildren().build({ code: ` ${unique("code")} ` });
  return { owner, child, grandchild, all: [owner, child, grandchild] };
}

/** A saved text-key graph, loaded again, with a pending change on each record. */
async function savedTextGraph(db?: Database) {
  const graph = textGraph(db);
  await graph.owner.saveOrThrow();
  for (const record of graph.all) record.assign(record === graph.grandchild ? { code: ` ${unique("new")} ` } : record === graph.child ? { title: " renamed " } : { name: " renamed " });
  return graph;
}

/**
 * Runs `operation` on fresh records and asserts that it throws `expected`, that the database is as it was and that
 * every record is in the state it had before the call.
 */
async function expectNoTrace(make: () => Promise<{ all: any[]; run: () => Promise<unknown> }>, expected: (error: Error) => void) {
  const { all, run } = await make();
  const before = await dumpTables();
  const states = stateOf(all);
  const error = await rejectionOf(run());
  expected(error);
  expect(await dumpTables()).toEqual(before);
  expect(stateOf(all)).toEqual(states);
}

describe("an error thrown by a callback or a hook leaves every record as it was", () => {
  const saveTraps = ["beforeSave", "beforeCreate", "record:validate", "record:beforeSave", "record:beforeWrite", "record:write", "write:plan"].flatMap((name) =>
    ["FaOwner", "FaChild", "FaGrandchild"].map((model) => `${model}:${name}`),
  );
  it.each(saveTraps)("creating a text-key graph, thrown at %s", async (at) => {
    await expectNoTrace(
      async () => {
        const graph = textGraph();
        trap.at = at;
        return { all: graph.all, run: () => graph.owner.save() };
      },
      (error) => expect(error.message).toBe(`trap sprung at ${at}`),
    );
  });

  const updateTraps = ["FaOwner:beforeUpdate", ...["beforeSave", "record:write", "write:plan"].flatMap((name) => ["FaOwner", "FaChild", "FaGrandchild"].map((model) => `${model}:${name}`))];
  it.each(updateTraps)("updating a record and a new child's graph, thrown at %s", async (at) => {
    await expectNoTrace(
      async () => {
        const graph = await savedTextGraph();
        // A record once refused keeps its errors through a later failure.
        graph.owner.errors.add("base", "invalid", "earlier refusal");
        const child = graph.owner.children().build({ title: " late " });
        const grandchild = child.grandchildren().build({ code: unique("late") });
        trap.at = at;
        return { all: [...graph.all, child, grandchild], run: () => graph.owner.save() };
      },
      (error) => expect(error.message).toBe(`trap sprung at ${at}`),
    );
  });

  const destroyTraps = ["beforeDestroy", "record:beforeDestroy", "record:beforeDelete", "write:plan"].flatMap((name) => ["FaOwner", "FaChild", "FaGrandchild"].map((model) => `${model}:${name}`));
  it.each(destroyTraps)("destroying with dependents (destroy), thrown at %s", async (at) => {
    await expectNoTrace(
      async () => {
        const graph = await savedTextGraph();
        const [owner] = await FaOwner.where({ id: graph.owner.id }).toArray();
        const children = await owner!.children().toArray();
        trap.at = at;
        return { all: [owner, ...children], run: () => owner!.destroy() };
      },
      (error) => expect(error.message).toBe(`trap sprung at ${at}`),
    );
  });

  it.each(["FaChild:beforeSave", "FaChild:record:write", "FaOwner:beforeDestroy", "FaGrandchild:beforeCreate"])("batch([...]) of saves and destroys, thrown at %s", async (at) => {
    await expectNoTrace(
      async () => {
        const saved = await savedTextGraph();
        const fresh = textGraph();
        const other = await FaOwner.createOrThrow({ name: unique("other") });
        trap.at = at;
        return {
          all: [...saved.all, ...fresh.all, other],
          run: () => batch([saved.owner.toSave(), fresh.owner.toSave(), other.toDestroy(), FaOwner.toInsert({ name: "statement" })]),
        };
      },
      (error) => expect(error.message).toBe(`trap sprung at ${at}`),
    );
  });

  it("a new parent assigned with belongsTo is put back too", async () => {
    await expectNoTrace(
      async () => {
        const parent = FaOwner.build({ name: " parent " });
        const child = FaChild.build({ title: " child " });
        child.owner.set(parent);
        trap.at = "FaChild:record:write";
        return { all: [parent, child], run: () => child.save() };
      },
      (error) => expect(error.message).toBe("trap sprung at FaChild:record:write"),
    );
  });

  it("an integer-key graph whose grandchild's hook throws before the first write writes nothing", async () => {
    await expectNoTrace(
      async () => {
        const owner = FaIntOwner.build({ name: " owner " });
        const child = owner.children().build({ title: " child " });
        const grandchild = child.grandchildren().build({ code: unique("g") });
        trap.at = "FaIntGrandchild:beforeSave";
        return { all: [owner, child, grandchild], run: () => owner.save() };
      },
      (error) => expect(error.message).toBe("trap sprung at FaIntGrandchild:beforeSave"),
    );
  });

  it("after-callbacks run once the rows are written: their error propagates and the records stay as written", async () => {
    const graph = textGraph();
    trap.at = "FaChild:afterCreate";
    expect((await rejectionOf(graph.owner.save())).message).toBe("trap sprung at FaChild:afterCreate");
    expect(graph.all.map((record) => [record.isPersisted(), record.isChanged()])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
  });

});

/**
 * Fault injection: the operation runs once to count its calls and statements, then again on fresh records for each
 * failure position. Every failure leaves the database and every record as they were, and the error propagates.
 */
async function everyFault(
  make: (db: Database) => Promise<{ all: any[]; run: () => Promise<unknown> }>,
  check: (error: Error, fault: Fault) => void = expectInjected,
): Promise<number> {
  const faulty = faultyD1();
  const db = connect(faulty.binding);
  const dry = await make(db);
  faulty.failAt(undefined);
  await dry.run();
  const { calls, statements } = faulty.sent;
  const faults: Fault[] = [...Array.from({ length: calls }, (_, index) => ({ call: index + 1 })), ...Array.from({ length: statements }, (_, index) => ({ statement: index + 1 }))];
  for (const fault of faults) {
    faulty.failAt(undefined);
    const { all, run } = await make(db);
    const before = await dumpTables();
    const states = stateOf(all);
    faulty.failAt(fault);
    const error = await rejectionOf(run());
    faulty.failAt(undefined);
    check(error, fault);
    expect(await dumpTables(), JSON.stringify(fault)).toEqual(before);
    expect(stateOf(all), JSON.stringify(fault)).toEqual(states);
  }
  return faults.length;
}

/** The error propagates as the database gave it: the call refused, or D1's own error for the failing statement. */
function expectInjected(error: Error, fault: Fault): void {
  expect(error.message, JSON.stringify(fault)).toMatch("call" in fault ? INJECTED : /malformed JSON/);
}

describe("fault injection: every failure position leaves the database and the records as they were", () => {
  it("create (a lone INSERT) and update", async () => {
    expect(await everyFault(async (db) => {
      const owner = db.model(FaOwner).build({ name: " new " });
      return { all: [owner], run: () => owner.save() };
    })).toBeGreaterThanOrEqual(2);
    await everyFault(async (db) => {
      const owner = await db.model(FaOwner).createOrThrow({ name: "saved" });
      owner.name = " renamed ";
      return { all: [owner], run: () => owner.save() };
    });
  });

  it("create with children and grandchildren (text keys: one batch)", async () => {
    await everyFault(async (db) => {
      const graph = textGraph(db);
      return { all: graph.all, run: () => graph.owner.save() };
    });
  });

  it("update with new children and a replaced hasOne child", async () => {
    await everyFault(async (db) => {
      const graph = await savedTextGraph(db);
      const child = graph.owner.firstChild.build({ title: " only " });
      return { all: [...graph.all, child], run: () => graph.owner.save() };
    });
  });

  it("destroy with dependents: destroy, deleteAll, nullify, restrictWithError", async () => {
    class DeletingOwner extends FaOwner {
      override children = hasMany(FaChild, { dependent: "deleteAll", foreignKey: "faOwnerId" });
    }
    class NullifyingOwner extends FaOwner {
      override children = hasMany(FaChild, { dependent: "nullify", foreignKey: "faOwnerId" });
    }
    class RestrictingOwner extends FaOwner {
      override children = hasMany(FaChild, { dependent: "restrictWithError", foreignKey: "faOwnerId" });
    }
    for (const Owner of [FaOwner, DeletingOwner, NullifyingOwner, RestrictingOwner]) {
      await everyFault(async (db) => {
        const owner = db.model(Owner).build({ name: "owner" });
        // Children without grandchildren, so that deleteAll and nullify are not refused by a foreign key.
        owner.children().build({ title: "a" });
        owner.children().build({ title: "b" });
        await owner.saveOrThrow();
        const loaded = await db.model(Owner).find(owner.id);
        const loadedChildren = await db.model(FaChild).where({ faOwnerId: owner.id }).toArray();
        // restrictWithError refuses without writing (false): its one query is the only place to fail.
        return { all: [loaded, ...loadedChildren], run: () => loaded.destroy() };
      });
    }
  });

  it("batch([...]) of saves, destroys and Statements", async () => {
    await everyFault(async (db) => {
      const saved = await savedTextGraph(db);
      const fresh = textGraph(db);
      const gone = await db.model(FaGrandchild).createOrThrow({ faChildId: saved.child.id, code: unique("gone") });
      return {
        all: [...saved.all, ...fresh.all, gone],
        run: () => db.batch([saved.owner.toSave(), fresh.owner.toSave(), gone.toDestroy(), db.model(FaOwner).toInsert({ name: "statement" })]),
      };
    });
  });

  it("insertAll over several statements, and paginate", async () => {
    await everyFault(async (db) => {
      const rows = Array.from({ length: 3 }, (_, index) => ({ name: `row ${index}` }));
      return { all: [], run: () => db.model(FaOwner).insertAll(rows) };
    });
    await everyFault(async (db) => {
      await db.model(FaOwner).createOrThrow({ name: unique("page") });
      return { all: [], run: () => db.model(FaOwner).order({ name: "asc" }).paginate({ page: 1, perPage: 2 }) };
    });
  });

  it("an integer-key graph: a failure before the owner's write leaves nothing; after it, the written levels stay persisted and a retry writes the rest", async () => {
    const faulty = faultyD1();
    const db = connect(faulty.binding);
    const make = () => {
      const owner = db.model(FaIntOwner).build({ name: " owner " });
      const children = [owner.children().build({ title: " a " }), owner.children().build({ title: " b " })];
      const grandchildren = children.map((child) => child.grandchildren().build({ code: unique("g") }));
      return { owner, levels: [[owner], children, grandchildren] };
    };
    const dry = make();
    faulty.failAt(undefined);
    await dry.owner.saveOrThrow();
    expect(faulty.sent.calls).toBe(3);
    for (const fault of [1, 2, 3].map((call) => ({ call })).concat([1, 2, 3, 4, 5].map((statement) => ({ statement })) as never)) {
      faulty.failAt(undefined);
      const { owner, levels } = make();
      const before = await dumpTables();
      const states = levels.map(stateOf);
      faulty.failAt(fault as Fault);
      expectInjected(await rejectionOf(owner.save()), fault as Fault);
      faulty.failAt(undefined);
      // The level that failed: the first call, or the call holding the failed statement (1, then 2 and 3, then 4 and 5).
      const failed = "call" in fault ? (fault as { call: number }).call - 1 : [0, 1, 1, 2, 2][(fault as { statement: number }).statement - 1]!;
      levels.forEach((level, index) => {
        if (index < failed) expect(level.every((record) => record.isPersisted() && !record.isChanged()), JSON.stringify(fault)).toBe(true);
        else expect(stateOf(level), JSON.stringify(fault)).toEqual(states[index]);
      });
      if (failed === 0) expect(await dumpTables()).toEqual(before);
      expect(await owner.save()).toBe(true);
      expect(levels.flat().every((record) => record.isPersisted())).toBe(true);
    }
  });
});
