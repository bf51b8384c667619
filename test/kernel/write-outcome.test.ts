/**
 * write:outcome of a failed save, destroy or batch: every write of it reports the failure once, in the order the
 * writes are sent, whatever step failed (a write:plan hook of any write, or D1), and nothing is written.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, auditLog, batch, belongsTo, defineApplicationRecord, hasMany, multiTenancy, withDatabase, withTenant } from "../../src/index.js";
import { definePlugin, installWritePlans, type Statement, type WritePlan } from "../../src/plugin.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, recordingRoundTrips } from "../helpers/queries.js";
import { connect } from "../../src/index.js";
import { auditedSchema as schema } from "../models/audited-tables.js";

class Refused extends Error {
  override name = "Refused";
}

/** Each outcome reported: the Model, the operation, a title or name to tell the write, whether it became a statement, and its error. */
type Seen = [model: string, operation: string, label: unknown, statement: boolean, error: unknown];

const recorder: { seen: Seen[]; refuse: (plan: WritePlan) => boolean; replacement?: Error; throwBeforeSave?: string } = { seen: [], refuse: () => false };

/** Records every outcome, refuses in write:plan the writes `recorder.refuse` picks, and throws before saving one titled `throwBeforeSave`. */
const outcomes = definePlugin({
  name: "outcome-recorder",
  setup: installWritePlans,
  hooks: {
    "record:beforeSave"({ record }) {
      if (recorder.throwBeforeSave !== undefined && record.constructor.name === "Task" && record.readAttribute("title") === recorder.throwBeforeSave) throw new Refused("a before-save hook threw");
    },
    "write:plan"(plan) {
      if (recorder.refuse(plan)) throw new Refused(`${plan.model.name} ${plan.operation} refused`);
    },
    "write:outcome"({ plan, statement, error }) {
      recorder.seen.push([plan.model.name, plan.operation, plan.values.get("title") ?? plan.values.get("name"), statement !== undefined, error]);
      if (error !== undefined && recorder.replacement) throw recorder.replacement;
    },
  },
});

class RecordedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(outcomes);
  }
}

const Recorded = defineApplicationRecord(schema, RecordedBase);

class Task extends Recorded("audited_tasks") {
  list = belongsTo(List, { foreignKey: "listId", optional: true });
}

class List extends Recorded("audited_lists") {
  tasks = hasMany(Task, { foreignKey: "listId", dependent: "destroy" });
}

const refusing = (label: string) => (plan: WritePlan) => plan.values.get("title") === label || plan.values.get("name") === label;

/** Runs `write` on a database that records its round trips; resolves to its error and the round trips sent. */
async function failing(write: () => Promise<unknown>): Promise<{ error: unknown; roundTrips: string[][] }> {
  const { binding, roundTrips } = recordingRoundTrips();
  const error = await rejectionOf(withDatabase(connect(binding), write));
  return { error, roundTrips };
}

beforeEach(async () => {
  await env.DB.exec("DELETE FROM audit_log_entries; DELETE FROM audited_tasks; DELETE FROM audited_lists;");
  recorder.seen = [];
  recorder.refuse = () => false;
  recorder.replacement = undefined;
  recorder.throwBeforeSave = undefined;
});

describe("write:outcome of a save whose writes fail before anything is sent", () => {
  it("a new parent whose write:plan throws: the parent's write and the record's each report once, and nothing is written", async () => {
    recorder.refuse = refusing("refused list");
    const task = Task.build({ tenantId: "t", title: "task" });
    task.list.set(List.build({ id: 41, tenantId: "t", name: "refused list" }));
    const { error, roundTrips } = await failing(() => task.save());
    expect(error).toEqual(new Refused("List create refused"));
    // The record's own write was planned first; the parent's never became a statement.
    expect(recorder.seen).toEqual([
      ["List", "create", "refused list", false, error],
      ["Task", "create", "task", true, error],
    ]);
    expect(roundTrips).toEqual([]);
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([0, 0]);
    expect(task.isNewRecord()).toBe(true);
  });

  it("a record whose own write:plan throws: its new parent and its children report once too", async () => {
    recorder.refuse = refusing("refused task");
    const task = Task.build({ tenantId: "t", title: "refused task" });
    task.list.set(List.build({ id: 42, tenantId: "t", name: "parent" }));
    const { error, roundTrips } = await failing(() => task.save());
    expect(error).toEqual(new Refused("Task create refused"));
    expect(recorder.seen).toEqual([
      ["List", "create", "parent", false, error],
      ["Task", "create", "refused task", false, error],
    ]);
    expect(roundTrips).toEqual([]);
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([0, 0]);
  });

  for (const [how, save] of [
    ["save", (list: List) => list.save()],
    ["a batch", (list: List) => batch([list.toSave()])],
  ] as const) {
    it(`${how}: a child whose write:plan throws: the record's write and every child's report once, and nothing is written`, async () => {
      recorder.refuse = refusing("second");
      const list = List.build({ id: 43, tenantId: "t", name: "chores" });
      for (const title of ["first", "second", "third"]) list.tasks().build({ tenantId: "t", title });
      const { error, roundTrips } = await failing(() => save(list));
      expect(error).toEqual(new Refused("Task create refused"));
      expect(recorder.seen).toEqual([
        ["List", "create", "chores", true, error],
        ["Task", "create", "first", true, error],
        ["Task", "create", "second", false, error],
        ["Task", "create", "third", false, error],
      ]);
      expect(roundTrips).toEqual([]);
      expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([0, 0]);
    });
  }

  it("a child's before-save hook throws: the record's write and every child's report once, none with a statement", async () => {
    recorder.throwBeforeSave = "second";
    const list = List.build({ id: 46, tenantId: "t", name: "chores" });
    for (const title of ["first", "second", "third"]) list.tasks().build({ tenantId: "t", title });
    const { error, roundTrips } = await failing(() => list.save());
    expect(error).toEqual(new Refused("a before-save hook threw"));
    expect(recorder.seen).toEqual([
      ["List", "create", "chores", false, error],
      ["Task", "create", "first", false, error],
      ["Task", "create", "second", false, error],
      ["Task", "create", "third", false, error],
    ]);
    expect(roundTrips).toEqual([]);
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([0, 0]);
  });

  it("a record whose key the database assigns: its children, waiting to be written after it, report once too", async () => {
    recorder.refuse = refusing("refused list");
    const list = List.build({ tenantId: "t", name: "refused list" });
    for (const title of ["first", "second"]) list.tasks().build({ tenantId: "t", title });
    const { error, roundTrips } = await failing(() => list.save());
    expect(error).toEqual(new Refused("List create refused"));
    expect(recorder.seen).toEqual([
      ["List", "create", "refused list", false, error],
      ["Task", "create", "first", false, error],
      ["Task", "create", "second", false, error],
    ]);
    expect(roundTrips).toEqual([]);
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([0, 0]);
  });

  it("an outcome hook's error is thrown in place of the original one, which every write still saw", async () => {
    recorder.refuse = refusing("second");
    recorder.replacement = new Refused("replaced by the hook");
    const list = List.build({ id: 44, tenantId: "t", name: "chores" });
    for (const title of ["first", "second"]) list.tasks().build({ tenantId: "t", title });
    const { error } = await failing(() => list.save());
    expect(error).toBe(recorder.replacement);
    expect(recorder.seen.map(([, , label, , seen]) => [label, (seen as Error).message])).toEqual([
      ["chores", "Task create refused"],
      ["first", "Task create refused"],
      ["second", "Task create refused"],
    ]);
  });
});

describe("write:outcome of a destroy with dependents", () => {
  /** A list of two tasks; `destroying` loads it through the recording database and destroys it there. */
  let list: List;
  const destroying = async () => (list = await List.find(45)).destroy();
  beforeEach(async () => {
    await List.createOrThrow({ id: 45, tenantId: "t", name: "chores" });
    await Task.createOrThrow({ tenantId: "t", title: "a", listId: 45 });
    await Task.createOrThrow({ tenantId: "t", title: "b", listId: 45 });
    recorder.seen = [];
  });

  it("a dependent's write:plan throws: every dependent's DELETE and the record's report once, and every row stays", async () => {
    recorder.refuse = (plan) => plan.operation === "destroy" && plan.model.name === "Task" && plan.record?.readAttribute("title") === "a";
    const { error, roundTrips } = await failing(destroying);
    expect(error).toEqual(new Refused("Task destroy refused"));
    expect(recorder.seen.map(([model, operation, , , seen]) => [model, operation, seen === error])).toEqual([
      ["Task", "destroy", true],
      ["Task", "destroy", true],
      ["List", "destroy", true],
    ]);
    // Only the reads were sent (the list, its dependents), no write.
    expect(roundTrips.length).toBeGreaterThan(0);
    expect(roundTrips.flat().filter((sql) => !/^SELECT/i.test(sql))).toEqual([]);
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([1, 2]);
    expect(list.isDestroyed()).toBe(false);
  });

  it("the record's own write:plan throws: the dependents planned before it report once too", async () => {
    recorder.refuse = (plan) => plan.model.name === "List" && plan.operation === "destroy";
    const { error } = await failing(destroying);
    expect(error).toEqual(new Refused("List destroy refused"));
    expect(recorder.seen.map(([model, , , statement, seen]) => [model, statement, seen === error])).toEqual([
      ["Task", true, true],
      ["Task", true, true],
      ["List", false, true],
    ]);
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([1, 2]);
  });

  it("D1 refuses the batch: every write reports once, each with its statement", async () => {
    await env.DB.exec("CREATE TRIGGER refuse_list_delete BEFORE DELETE ON audited_lists BEGIN SELECT RAISE(ABORT, 'list delete refused'); END;");
    try {
      const { error, roundTrips } = await failing(destroying);
      expect(String(error)).toContain("list delete refused");
      expect(recorder.seen.map(([model, , , statement, seen]) => [model, statement, seen === error])).toEqual([
        ["Task", true, true],
        ["Task", true, true],
        ["List", true, true],
      ]);
      // The dependents' DELETEs and the record's went in one batch, which D1 refused whole.
      expect(roundTrips.filter((trip) => trip.some((sql) => /^DELETE/i.test(sql)))).toHaveLength(1);
    } finally {
      await env.DB.exec("DROP TRIGGER refuse_list_delete;");
    }
    expect([await countRows("audited_lists"), await countRows("audited_tasks")]).toEqual([1, 2]);
  });
});

describe("write:outcome of a batch of records", () => {
  it("the second record's preparation throws: all three report once, in order, and nothing is sent", async () => {
    recorder.refuse = refusing("second");
    const lists = ["first", "second", "third"].map((name, index) => List.build({ id: 50 + index, tenantId: "t", name }));
    const { error, roundTrips } = await failing(() => batch(lists.map((list) => list.toSave())));
    expect(error).toEqual(new Refused("List create refused"));
    expect(recorder.seen).toEqual([
      ["List", "create", "first", true, error],
      ["List", "create", "second", false, error],
      ["List", "create", "third", false, error],
    ]);
    expect(roundTrips).toEqual([]);
    expect(await countRows("audited_lists")).toBe(0);
    expect(lists.every((list) => list.isNewRecord())).toBe(true);
  });
});

/** auditLog and multiTenancy on one base class, in both orders, with the recorder: a write that did not happen is never audited. */
for (const order of ["auditLog first", "multiTenancy first"] as const) {
  describe(`write:outcome with auditLog and multiTenancy (${order})`, () => {
    class Base extends ActiveRecord {
      static override binding = "DB";
      static {
        // The recorder first in one order, last in the other: it hears of every write even after multiTenancy's outcome
        // hook threw (on a conflict).
        const plugins = order === "auditLog first" ? [outcomes, auditLog, multiTenancy()] : [multiTenancy(), auditLog, outcomes];
        for (const plugin of plugins) this.use(plugin);
      }
    }
    const Tenanted = defineApplicationRecord(schema, Base);
    class TenantTask extends Tenanted("audited_tasks") {}
    class TenantList extends Tenanted("audited_lists") {
      tasks = hasMany(TenantTask, { foreignKey: "listId" });
    }

    it("a child refused as it is planned: no row, no audit entry, every write reported failed once", async () => {
      recorder.refuse = refusing("refused");
      const error = await withTenant("acme", async () => {
        const list = TenantList.build({ id: 60, name: "chores" });
        list.tasks().build({ title: "ours" });
        list.tasks().build({ title: "refused" });
        return rejectionOf(list.save());
      });
      expect(error).toEqual(new Refused("TenantTask create refused"));
      expect(recorder.seen.map(([model, , label, , seen]) => [model, label, seen === error])).toEqual([
        ["TenantList", "chores", true],
        ["TenantTask", "ours", true],
        ["TenantTask", "refused", true],
      ]);
      expect([await countRows("audited_lists"), await countRows("audited_tasks"), await countRows("audit_log_entries")]).toEqual([0, 0, 0]);
    });

    it("an update of a row that is no longer the tenant's: no audit entry, one failed outcome", async () => {
      const task = await withTenant("acme", () => TenantTask.createOrThrow({ id: "moved", title: "ours" }));
      await env.DB.prepare("UPDATE audited_tasks SET tenant_id = 'globex' WHERE id = 'moved'").run();
      const entries = await countRows("audit_log_entries");
      recorder.seen = [];
      task.title = "changed";
      const error = await withTenant("acme", () => rejectionOf(task.save()));
      expect((error as Error).name).toBe("TenantMismatch");
      // The hook saw the write's conflict, which multiTenancy turned into its own error.
      expect(recorder.seen.map(([, operation, , statement, seen]) => [operation, statement, (seen as Error).name])).toEqual([["update", true, "WriteConflict"]]);
      expect(await countRows("audit_log_entries")).toBe(entries);
      expect(await env.DB.prepare("SELECT title FROM audited_tasks WHERE id = 'moved'").first("title")).toBe("ours");
    });
  });
}

describe("write:outcome hooks that throw", () => {
  /** What each of two plugins' outcome hooks heard, in order: `<plugin> <title> ok|failed`. */
  const heard: string[] = [];
  /** The plugins whose outcome hook throws, on every outcome. */
  const throwing = new Set<string>();
  const listener = (name: string) =>
    definePlugin({
      name: `outcome-${name}`,
      setup: installWritePlans,
      hooks: {
        "write:outcome"({ plan, error }) {
          heard.push(`${name} ${String(plan.values.get("title") ?? plan.rows[0]?.get("title"))} ${error === undefined ? "ok" : "failed"}`);
          if (throwing.has(name)) throw new Refused(`${name} threw`);
        },
      },
    });

  class ListenedBase extends ActiveRecord {
    static override binding = "DB";
    static {
      this.use(listener("first"));
      this.use(listener("second"));
    }
  }
  class Note extends defineApplicationRecord(schema, ListenedBase)("audited_notes") {}

  const everyHookOnce = (titles: string[], outcome: "ok" | "failed") => titles.flatMap((title) => [`first ${title} ${outcome}`, `second ${title} ${outcome}`]);

  beforeEach(async () => {
    await env.DB.exec("DELETE FROM audited_notes;");
    heard.length = 0;
    throwing.clear();
  });

  it("a save: the hook after one that threw still hears of the write, and the first hook's error is thrown once the record is written", async () => {
    throwing.add("first");
    const note = Note.build({ title: "a" });
    expect(await rejectionOf(note.save())).toEqual(new Refused("first threw"));
    expect(heard).toEqual(everyHookOnce(["a"], "ok"));
    expect(note.isPersisted()).toBe(true);
    expect(await countRows("audited_notes")).toBe(1);
  });

  it("several hooks throw: the first one's error is thrown, not an AggregateError", async () => {
    throwing.add("first").add("second");
    expect(await rejectionOf(Note.build({ title: "a" }).save())).toEqual(new Refused("first threw"));
    expect(heard).toEqual(everyHookOnce(["a"], "ok"));
  });

  it("a batch of records D1 refuses: every hook hears of every write's failure once, and the first hook's error is thrown", async () => {
    await Note.createOrThrow({ title: "taken" });
    heard.length = 0;
    throwing.add("first");
    const notes = ["a", "taken", "c"].map((title) => Note.build({ title }));
    expect(await rejectionOf(batch(notes.map((note) => note.toSave())))).toEqual(new Refused("first threw"));
    expect(heard).toEqual(everyHookOnce(["a", "taken", "c"], "failed"));
    expect(notes.every((note) => note.isNewRecord())).toBe(true);
    expect(await countRows("audited_notes")).toBe(1);
  });

  it("a batch of records written: every hook hears of every write's success once, and every record learns it was written", async () => {
    throwing.add("first");
    const notes = ["a", "b", "c"].map((title) => Note.build({ title }));
    expect(await rejectionOf(batch(notes.map((note) => note.toSave())))).toEqual(new Refused("first threw"));
    expect(heard).toEqual(everyHookOnce(["a", "b", "c"], "ok"));
    expect(notes.every((note) => note.isPersisted())).toBe(true);
  });

  for (const [how, run] of [
    ["db.runAll", (statements: Statement[]) => connect(env.DB).runAll(statements)],
    ["a batch", (statements: Statement[]) => batch(statements)],
  ] as const) {
    it(`bulk writes in ${how}: every hook hears of every write's success once, never of a failure after it`, async () => {
      throwing.add("first");
      const statements = ["a", "b", "c"].map((title) => Note.toInsertAll([{ title }]));
      expect(await rejectionOf(run(statements))).toEqual(new Refused("first threw"));
      expect(heard).toEqual(everyHookOnce(["a", "b", "c"], "ok"));
      expect(await countRows("audited_notes")).toBe(3);
    });

    it(`bulk writes in ${how} that D1 refuses: every hook hears of every write's failure once`, async () => {
      throwing.add("second");
      const statements = ["a", "b", "b"].map((title) => Note.toInsertAll([{ title }]));
      expect(await rejectionOf(run(statements))).toEqual(new Refused("second threw"));
      expect(heard).toEqual(everyHookOnce(["a", "b", "b"], "failed"));
      expect(await countRows("audited_notes")).toBe(0);
    });
  }
});
