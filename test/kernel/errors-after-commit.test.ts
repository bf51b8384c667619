/**
 * A reader that throws once D1 has committed a write (a `write:outcome` hook, a `records:load` hook) does not undo
 * what the records know: every record of the save, destroy or batch is as the database holds it (created with its
 * key, updated and clean, destroyed), its after-hooks run, and then the reader's error propagates as it was thrown.
 * An error before the commit still puts every record back, with nothing written.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, batch, defineApplicationRecord, RecordDestroyed, withDatabase } from "../../src/index.js";
import { definePlugin, installWritePlans, type RecordsLoadPurpose, type Statement, type WritePlan } from "../../src/plugin.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import { auditedSchema as schema } from "../models/audited-tables.js";

class Refused extends Error {
  override name = "Refused";
}

/**
 * What the readers of this file do: the succeeded writes whose outcome hook throws (`<operation> <title>`), the load
 * purposes whose load hook throws (as a rejected promise when `asyncLoad`), and the Statement a save or destroy sends
 * with its own write (pushed to its `batch` by a before hook).
 */
const readers: {
  outcomeThrows: Set<string>;
  loadThrows: Set<RecordsLoadPurpose>;
  asyncLoad: boolean;
  sendWith: (() => Statement) | undefined;
  afterSaveThrows: boolean;
} = { outcomeThrows: new Set(), loadThrows: new Set(), asyncLoad: false, sendWith: undefined, afterSaveThrows: false };

/** Every outcome heard (`<operation> <title> ok|failed`) and every after-hook run (`<hook> <title>`), in order. */
const heard: string[] = [];

/** The records the after-save hooks saw last: a create's, which `create` does not return when it throws. */
let lastSaved: Note | undefined;

const titleOf = (plan: WritePlan): unknown => plan.values.get("title") ?? plan.rows[0]?.get("title") ?? plan.record?.readAttribute("title");

const throwingReaders = definePlugin({
  name: "throwing-readers",
  setup: installWritePlans,
  hooks: {
    "record:beforeWrite"({ batch: sentWith }) {
      if (readers.sendWith) sentWith.push(readers.sendWith());
    },
    "record:beforeDestroy"({ batch: sentWith }) {
      if (readers.sendWith) sentWith.push(readers.sendWith());
    },
    "write:outcome"({ plan, error }) {
      const write = `${plan.operation} ${String(titleOf(plan))}`;
      heard.push(`${write} ${error === undefined ? "ok" : "failed"}`);
      if (error === undefined && readers.outcomeThrows.has(write)) throw new Refused(`outcome of ${write}`);
    },
    "records:load"({ purpose }) {
      if (!readers.loadThrows.has(purpose)) return;
      const error = new Refused(`load for ${purpose}`);
      if (readers.asyncLoad) return Promise.reject(error);
      throw error;
    },
    "record:afterSave"({ record }) {
      lastSaved = record;
      heard.push(`afterSave ${String(record.title)}`);
      if (readers.afterSaveThrows) throw new Refused("afterSave threw");
    },
    "record:afterDestroy"({ record }) {
      heard.push(`afterDestroy ${String(record.title)}`);
    },
  },
});

class ReadBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(throwingReaders);
  }
}

class Note extends defineApplicationRecord(schema, ReadBase)("audited_notes") {}

/** Note bound to a database whose query events are collected. */
function listening() {
  return listen({ models: { Note } });
}

/** A Statement that inserts a note titled `title`, for a save, destroy or batch to send with its own writes. */
const insertNote = (title: string) => () => Note.toInsertAll([{ title }]);

/** The number of rows of `note`'s key holding its title, read straight from D1. */
async function rowsOf(note: Note): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM audited_notes WHERE id = ? AND title = ?").bind(note.id, note.title).first<{ n: number }>())!.n;
}

/** Clears what the readers throw and send, so that what follows is an ordinary save. */
function quietReaders(): void {
  readers.outcomeThrows.clear();
  readers.loadThrows.clear();
  readers.asyncLoad = false;
  readers.sendWith = undefined;
  readers.afterSaveThrows = false;
}

/**
 * Checks that `note` is persisted as the database holds it: its key and row, no change pending; saved again it
 * sends nothing, and after a change an UPDATE, never an INSERT.
 */
async function expectWritten(note: Note, on: { events: unknown[]; sqls: () => string[] }): Promise<void> {
  expect(note.isNewRecord()).toBe(false);
  expect(note.isPersisted()).toBe(true);
  expect(note.id).toEqual(expect.any(Number));
  expect(note.changed()).toEqual([]);
  expect(await rowsOf(note)).toBe(1);
  quietReaders();
  on.events.length = 0;
  expect(await note.save()).toBe(true);
  expect(on.sqls()).toEqual([]);
  note.body = `${note.body ?? ""}, saved again`;
  expect(await note.save()).toBe(true);
  expect(on.sqls()).toEqual([expect.stringMatching(/^UPDATE "audited_notes"/)]);
}

/** Checks that `note` is destroyed as the database holds it: no row, and a second destroy refused without a query. */
async function expectDestroyed(note: Note, on: { events: unknown[]; sqls: () => string[] }): Promise<void> {
  expect(note.isDestroyed()).toBe(true);
  expect(note.isPersisted()).toBe(false);
  expect(await rowsOf(note)).toBe(0);
  on.events.length = 0;
  await expect(note.destroy()).rejects.toBeInstanceOf(RecordDestroyed);
  expect(on.sqls()).toEqual([]);
}

beforeEach(async () => {
  await env.DB.exec("DELETE FROM audited_notes;");
  quietReaders();
  heard.length = 0;
  lastSaved = undefined;
});

describe("a save whose reader throws after D1 committed it", () => {
  it("create: its own outcome hook throws; the record is created with its key, then the hook's error propagates", async () => {
    const on = listening();
    readers.outcomeThrows.add("create a");
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(note.save())).toEqual(new Refused("outcome of create a"));
    expect(heard).toEqual(["create a ok", "afterSave a"]);
    await expectWritten(note, on);
  });

  for (const asyncLoad of [false, true]) {
    it(`create: the load hook of the row the INSERT returned throws${asyncLoad ? " (async)" : ""}; the record is created and its after-save hooks run`, async () => {
      const on = listening();
      readers.loadThrows.add("write");
      readers.asyncLoad = asyncLoad;
      const note = on.Note.build({ title: "a" });
      expect(await rejectionOf(note.save())).toEqual(new Refused("load for write"));
      expect(heard).toEqual(["create a ok", "afterSave a"]);
      await expectWritten(note, on);
    });
  }

  it("create: the outcome hook of a Statement sent with it throws; the record and the Statement's row are both written", async () => {
    const on = listening();
    readers.sendWith = insertNote("sent with a");
    readers.outcomeThrows.add("insertAll sent with a");
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(note.save())).toEqual(new Refused("outcome of insertAll sent with a"));
    expect(heard).toEqual(["insertAll sent with a ok", "create a ok", "afterSave a"]);
    expect(await countRows("audited_notes")).toBe(2);
    await expectWritten(note, on);
  });

  it("update: the outcome hook of a Statement sent with it throws; the record is clean, with its saved changes", async () => {
    const on = listening();
    const note = await on.Note.createOrThrow({ title: "a" });
    heard.length = 0;
    readers.sendWith = insertNote("sent with b");
    readers.outcomeThrows.add("insertAll sent with b");
    expect(await rejectionOf(note.update({ title: "b" }))).toEqual(new Refused("outcome of insertAll sent with b"));
    expect(note.savedChanges()).toEqual({ title: ["a", "b"] });
    expect(heard).toEqual(["insertAll sent with b ok", "update b ok", "afterSave b"]);
    await expectWritten(note, on);
  });

  it("update: its own outcome hook throws; the record is clean, with its saved changes", async () => {
    const on = listening();
    const note = await on.Note.createOrThrow({ title: "a" });
    readers.outcomeThrows.add("update b");
    note.title = "b";
    expect(await rejectionOf(note.save())).toEqual(new Refused("outcome of update b"));
    expect(note.savedChanges()).toEqual({ title: ["a", "b"] });
    await expectWritten(note, on);
  });

  it("the OrThrow forms throw the reader's error unchanged, and leave the record written", async () => {
    const on = listening();
    readers.sendWith = insertNote("sent with a");
    readers.outcomeThrows.add("insertAll sent with a");
    expect(await rejectionOf(on.Note.createOrThrow({ title: "a" }))).toEqual(new Refused("outcome of insertAll sent with a"));
    const created = lastSaved!;
    expect(created.title).toBe("a");
    await expectWritten(created, on);

    readers.sendWith = insertNote("sent with b");
    readers.outcomeThrows.add("insertAll sent with b");
    expect(await rejectionOf(created.updateOrThrow({ title: "b" }))).toEqual(new Refused("outcome of insertAll sent with b"));
    await expectWritten(created, on);

    readers.sendWith = insertNote("sent with c");
    readers.outcomeThrows.add("insertAll sent with c");
    created.title = "c";
    expect(await rejectionOf(created.saveOrThrow())).toEqual(new Refused("outcome of insertAll sent with c"));
    await expectWritten(created, on);
  });

  it("create, the Model's own create: the record it made is persisted, though the call threw", async () => {
    const on = listening();
    readers.loadThrows.add("write");
    expect(await rejectionOf(on.Note.create({ title: "a" }))).toEqual(new Refused("load for write"));
    await expectWritten(lastSaved!, on);
  });

  it("the reader's error is the one thrown when an after-save hook throws too, and the hook still ran", async () => {
    const on = listening();
    readers.sendWith = insertNote("sent with a");
    readers.outcomeThrows.add("insertAll sent with a");
    readers.afterSaveThrows = true;
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(note.save())).toEqual(new Refused("outcome of insertAll sent with a"));
    expect(heard).toEqual(["insertAll sent with a ok", "create a ok", "afterSave a"]);
    await expectWritten(note, on);
  });
});

describe("a destroy whose reader throws after D1 committed it", () => {
  it("its own outcome hook throws; the record is destroyed, its after-destroy hooks run, then the error propagates", async () => {
    const on = listening();
    const note = await on.Note.createOrThrow({ title: "a" });
    heard.length = 0;
    readers.outcomeThrows.add("destroy a");
    expect(await rejectionOf(note.destroy())).toEqual(new Refused("outcome of destroy a"));
    expect(heard).toEqual(["destroy a ok", "afterDestroy a"]);
    await expectDestroyed(note, on);
  });

  it("the outcome hook of a Statement sent with it throws; the record is destroyed (destroyOrThrow too)", async () => {
    const on = listening();
    const [first, second] = [await on.Note.createOrThrow({ title: "a" }), await on.Note.createOrThrow({ title: "b" })];
    heard.length = 0;
    readers.sendWith = insertNote("sent with a destroy");
    readers.outcomeThrows.add("insertAll sent with a destroy");
    expect(await rejectionOf(first.destroy())).toEqual(new Refused("outcome of insertAll sent with a destroy"));
    expect(heard).toEqual(["insertAll sent with a destroy ok", "destroy a ok", "afterDestroy a"]);
    await expectDestroyed(first, on);

    readers.sendWith = insertNote("sent with another destroy");
    readers.outcomeThrows.add("insertAll sent with another destroy");
    expect(await rejectionOf(second.destroyOrThrow())).toEqual(new Refused("outcome of insertAll sent with another destroy"));
    await expectDestroyed(second, on);
    expect(await countRows("audited_notes")).toBe(2);
  });
});

describe("a batch whose reader throws after D1 committed it", () => {
  it("one record's save, with a Statement whose outcome hook throws: the record is created", async () => {
    const on = listening();
    readers.outcomeThrows.add("insertAll x");
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(on.db.batch([note.toSave(), on.Note.toInsertAll([{ title: "x" }])]))).toEqual(new Refused("outcome of insertAll x"));
    // Every outcome hook heard of every write's success once, and of no failure.
    expect(heard).toEqual(["insertAll x ok", "create a ok", "afterSave a"]);
    expect(await countRows("audited_notes")).toBe(2);
    await expectWritten(note, on);
  });

  it("several records' saves and a destroy: the load hook of a SELECT in the batch throws; every record is as written", async () => {
    const on = listening();
    const old = await on.Note.createOrThrow({ title: "old" });
    const kept = await on.Note.createOrThrow({ title: "kept" });
    heard.length = 0;
    readers.loadThrows.add("load");
    readers.asyncLoad = true;
    const created = [on.Note.build({ title: "a" }), on.Note.build({ title: "b" })];
    kept.title = "kept, renamed";
    const items = [...created.map((note) => note.toSave()), on.Note.where({ title: "a" }).toSelect(), kept.toSave(), old.toDestroy()];
    expect(await rejectionOf(withDatabase(on.db, () => batch(items)))).toEqual(new Refused("load for load"));
    expect(heard).toEqual(["create a ok", "afterSave a", "create b ok", "afterSave b", "update kept, renamed ok", "afterSave kept, renamed", "destroy old ok", "afterDestroy old"]);
    expect(kept.savedChanges()).toEqual({ title: ["kept", "kept, renamed"] });
    await expectDestroyed(old, on);
    for (const note of [...created, kept]) await expectWritten(note, on);
  });

  it("several records' saves, the load hook of each created row throws: every record is created, the first error thrown", async () => {
    const on = listening();
    readers.loadThrows.add("write");
    const created = [on.Note.build({ title: "a" }), on.Note.build({ title: "b" })];
    expect(await rejectionOf(on.db.batch(created.map((note) => note.toSave())))).toEqual(new Refused("load for write"));
    expect(heard).toEqual(["create a ok", "afterSave a", "create b ok", "afterSave b"]);
    for (const note of created) await expectWritten(note, on);
  });

  it("db.runAll: the load hook of a SELECT after an insert throws; the insert is written and its outcome heard once", async () => {
    const on = listening();
    readers.loadThrows.add("load");
    const statements = [on.Note.toInsertAll([{ title: "x" }]), on.Note.where({ title: "x" }).toSelect()];
    expect(await rejectionOf(on.db.runAll(statements))).toEqual(new Refused("load for load"));
    expect(heard).toEqual(["insertAll x ok"]);
    expect(await countRows("audited_notes")).toBe(1);
  });
});

describe("an error before D1 committed: every record put back, nothing written", () => {
  it("D1 refuses a Statement sent with a save: the record is new again, and every write heard of the failure", async () => {
    const on = listening();
    await on.Note.createOrThrow({ title: "taken" });
    heard.length = 0;
    readers.sendWith = insertNote("taken");
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(note.save())).toMatchObject({ name: "RecordNotUnique" });
    expect(heard).toEqual(["create a failed", "insertAll taken failed"]);
    expect(note.isNewRecord()).toBe(true);
    expect(note.changed()).toEqual(["title"]);
    expect(await countRows("audited_notes")).toBe(1);
  });

  it("D1 refuses a batch: every record is put back, no after-hook runs", async () => {
    const on = listening();
    const old = await on.Note.createOrThrow({ title: "taken" });
    heard.length = 0;
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(on.db.batch([note.toSave(), old.toDestroy(), on.Note.toInsertAll([{ title: "a" }])]))).toMatchObject({ name: "RecordNotUnique" });
    expect(heard).toEqual(["create a failed", "destroy taken failed", "insertAll a failed"]);
    expect(note.isNewRecord()).toBe(true);
    expect(old.isPersisted()).toBe(true);
    expect(await countRows("audited_notes")).toBe(1);
  });
});

describe("a query listener that throws on the answer of a committed write", () => {
  /**
   * Note on a database whose second listener throws on each answer whose SQL matches the pattern given to `throwOn`
   * (none until then), once the first has heard it.
   */
  function throwingListener() {
    const on = listening();
    let pattern: RegExp | undefined;
    on.db.onQuery((event) => {
      if (event.error === undefined && pattern?.test(event.sql)) throw new Refused(`listener on ${event.sql.slice(0, 6)}`);
    });
    return { ...on, throwOn: (given: RegExp | undefined) => void (pattern = given) };
  }

  it("create: the record is created with its key, its after-save hooks run, then the listener's error propagates", async () => {
    const on = throwingListener();
    on.throwOn(/^INSERT/);
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(note.save())).toEqual(new Refused("listener on INSERT"));
    expect(heard).toEqual(["create a ok", "afterSave a"]);
    await expectWritten(note, on);
  });

  it("update sent with a Statement: every listener hears every statement of the batch, and the record is clean", async () => {
    const on = throwingListener();
    const note = await on.Note.createOrThrow({ title: "a" });
    on.throwOn(/^UPDATE/);
    readers.sendWith = insertNote("sent with b");
    on.events.length = 0;
    expect(await rejectionOf(note.update({ title: "b" }))).toEqual(new Refused("listener on UPDATE"));
    expect(on.sqls()).toEqual([expect.stringMatching(/^UPDATE/), expect.stringMatching(/^INSERT/)]);
    expect(note.savedChanges()).toEqual({ title: ["a", "b"] });
    expect(await countRows("audited_notes")).toBe(2);
    on.throwOn(undefined);
    await expectWritten(note, on);
  });

  it("destroy: the record is destroyed", async () => {
    const on = throwingListener();
    const note = await on.Note.createOrThrow({ title: "a" });
    on.throwOn(/^DELETE/);
    expect(await rejectionOf(note.destroy())).toEqual(new Refused("listener on DELETE"));
    await expectDestroyed(note, on);
  });

  it("a batch: every record finishes as written before the listener's error propagates", async () => {
    const on = throwingListener();
    const old = await on.Note.createOrThrow({ title: "old" });
    on.throwOn(/^INSERT/);
    heard.length = 0;
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(on.db.batch([note.toSave(), old.toDestroy()]))).toEqual(new Refused("listener on INSERT"));
    expect(heard).toEqual(["create a ok", "afterSave a", "destroy old ok", "afterDestroy old"]);
    await expectDestroyed(old, on);
    await expectWritten(note, on);
  });

  it("a batch whose reader throws at once too: the listener's error, which came first, propagates", async () => {
    const on = throwingListener();
    on.throwOn(/^INSERT/);
    readers.loadThrows.add("load");
    heard.length = 0;
    const note = on.Note.build({ title: "a" });
    expect(await rejectionOf(on.db.batch([note.toSave(), on.Note.all().toSelect()]))).toEqual(new Refused("listener on INSERT"));
    expect(heard).toEqual(["create a ok", "afterSave a"]);
  });

  it("a Statement run alone, for no record: the listener's error propagates, and the row is written", async () => {
    const on = throwingListener();
    on.throwOn(/^INSERT/);
    expect(await rejectionOf(on.db.run(on.Note.toInsertAll([{ title: "a" }])))).toEqual(new Refused("listener on INSERT"));
    expect(await countRows("audited_notes")).toBe(1);
  });
});
