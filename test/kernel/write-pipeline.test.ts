import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, column, connect, hasMany, hasOne, Model, RecordflareError, RecordNotUnique, sql, withDatabase, WriteConflict } from "../../src/index.js";
import { defineStatement, installChangesGuard, installWritePlans, type WriteOutcome, type WritePlan } from "../../src/plugin.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";

/** What the test's hooks do to each write, and what they saw. */
const pipeline: {
  plan?: (write: WritePlan) => void;
  outcome?: (outcome: WriteOutcome) => void;
  planRows?: (plan: WritePlan) => void;
  seen: WritePlan[];
  outcomes: WriteOutcome[];
  rows: WritePlan[];
} = { seen: [], outcomes: [], rows: [] };

/** A Model whose own writes go through hooks the tests set, on the locked documents' table (migration 0070). */
class PlannedDocument extends Model({ id: "integer", title: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_documents";
  static override binding = "DB";
  static {
    installWritePlans();
    // One hook for every write: the record's own go to `plan`, the writes of rows without records to `planRows`.
    this.hook("write:plan", (write) => {
      const seen = { ...write, values: new Map(write.values), where: [...write.where] };
      if (write.record) {
        pipeline.seen.push(seen);
        pipeline.plan?.(write);
      } else {
        pipeline.rows.push(seen);
        pipeline.planRows?.(write);
      }
    });
    this.hook("write:outcome", (outcome) => {
      if (!outcome.plan.record) return;
      pipeline.outcomes.push(outcome);
      pipeline.outcome?.(outcome);
    });
  }
}

class Refused extends RecordflareError {
  override name = "Refused";
}

const titles = async () => (await env.DB.prepare("SELECT title FROM locked_documents ORDER BY id").all<{ title: string }>()).results.map((row) => row.title);

beforeEach(async () => {
  await env.DB.exec("DELETE FROM locked_sections; DELETE FROM locked_documents;");
  pipeline.plan = pipeline.outcome = pipeline.planRows = undefined;
  pipeline.seen = [];
  pipeline.outcomes = [];
  pipeline.rows = [];
});

describe("write:plan of a record's own write", () => {
  it("describes each of a record's own writes: its operation, kind, values, WHERE terms and rows it must change", async () => {
    const document = await PlannedDocument.createOrThrow({ title: "One" });
    document.title = "Two";
    await document.saveOrThrow();
    await document.destroyOrThrow();
    expect(pipeline.seen.map(({ operation, kind, values, where, expectedChanges }) => ({ operation, kind, values, where, expectedChanges }))).toEqual([
      { operation: "create", kind: "insert", values: new Map([["title", "One"]]), where: [], expectedChanges: undefined },
      { operation: "update", kind: "update", values: new Map([["title", "Two"]]), where: [], expectedChanges: undefined },
      { operation: "destroy", kind: "delete", values: new Map(), where: [], expectedChanges: undefined },
    ]);
    expect(pipeline.seen.every((write) => write.record === document && write.model.name === "PlannedDocument")).toBe(true);
    expect(pipeline.outcomes.map(({ changes, error, conflict }) => ({ changes, error, conflict }))).toEqual([
      { changes: 1, error: undefined, conflict: false },
      { changes: 1, error: undefined, conflict: false },
      { changes: 1, error: undefined, conflict: false },
    ]);
  });

  it("a hook's WHERE terms are ANDed to the key, with their values bound", async () => {
    const { events, PlannedDocument: Documents } = listen({ models: { PlannedDocument } });
    const document = await Documents.createOrThrow({ title: "Draft" });
    pipeline.plan = (write) => write.where.push(sql`${column("title")} <> ${"locked"}`);
    document.title = "Final";
    await document.saveOrThrow();
    expect(events.at(-1)!.sql).toBe(`UPDATE "locked_documents" SET "title" = ?1 WHERE "id" = ?2 AND ("title" <> ?3)`);
    expect(events.at(-1)!.params).toEqual(["Final", document.id, "locked"]);
    await document.destroyOrThrow();
    expect(events.at(-1)!.sql).toBe(`DELETE FROM "locked_documents" WHERE "id" = ?1 AND ("title" <> ?2)`);
  });

  it("a WHERE term that matches nothing with no rows demanded changes nothing and the save succeeds, as a write of a gone row does", async () => {
    const document = await PlannedDocument.createOrThrow({ title: "Draft" });
    pipeline.plan = (write) => write.where.push(sql`0`);
    document.title = "Ignored";
    expect(await document.save()).toBe(true);
    expect(pipeline.outcomes.at(-1)!.changes).toBe(0);
    expect(await titles()).toEqual(["Draft"]);
  });

  it("demanding one changed row alone checks meta.changes with no extra statement: WriteConflict, nothing written, the record put back", async () => {
    const { events, PlannedDocument: Documents } = listen({ models: { PlannedDocument } });
    const document = await Documents.createOrThrow({ title: "Draft" });
    pipeline.plan = (write) => {
      write.where.push(sql`0`);
      write.expectedChanges = 1;
    };
    document.title = "Refused";
    const error = await rejectionOf(document.save());
    expect(error).toBeInstanceOf(WriteConflict);
    expect(error.message).toBe("PlannedDocument: the write changed 0 rows, not 1 row as demanded");
    expect(events).toHaveLength(2);
    expect(document.changed()).toEqual(["title"]);
    const outcome = pipeline.outcomes.at(-1)!;
    expect({ changes: outcome.changes, conflict: outcome.conflict, error: outcome.error }).toEqual({ changes: 0, conflict: true, error });
    await expect(document.destroy()).rejects.toBeInstanceOf(WriteConflict);
    expect(document.isDestroyed()).toBe(false);
    expect(await titles()).toEqual(["Draft"]);
  });

  it("the outcome hook may throw its own error in place of the conflict or of the database's error", async () => {
    const document = await PlannedDocument.createOrThrow({ title: "Draft" });
    pipeline.plan = (write) => {
      if (write.kind !== "insert") write.where.push(sql`0`);
      write.expectedChanges = 1;
    };
    pipeline.outcome = ({ conflict, error }) => {
      if (conflict) throw new Refused("refused by the plugin");
      if (error instanceof RecordNotUnique) throw new Refused("duplicate, says the plugin");
    };
    document.title = "Refused";
    await expect(document.save()).rejects.toThrow(new Refused("refused by the plugin"));
    const twin = PlannedDocument.build({ title: "Twin" });
    twin.id = document.id;
    await expect(twin.save()).rejects.toThrow(new Refused("duplicate, says the plugin"));
    expect(pipeline.outcomes.at(-1)!.error).toBeInstanceOf(RecordNotUnique);
    expect(twin.isNewRecord()).toBe(true);
  });

  it("an outcome hook's error after a success propagates once the record has learnt its write, as an after-hook's does", async () => {
    const document = await PlannedDocument.createOrThrow({ title: "Draft" });
    pipeline.outcome = ({ error }) => {
      if (error === undefined) throw new Refused("seen");
    };
    document.title = "Written";
    await expect(document.save()).rejects.toThrow(new Refused("seen"));
    expect(document.isChanged()).toBe(false);
    expect(await titles()).toEqual(["Written"]);
    await expect(document.destroy()).rejects.toThrow(new Refused("seen"));
    expect(document.isDestroyed()).toBe(true);
    expect(await titles()).toEqual([]);
  });

  it("inside a batch, a write that changes other than the rows it demands fails the whole batch through its guard", async () => {
    const first = await PlannedDocument.createOrThrow({ title: "First" });
    const second = await PlannedDocument.createOrThrow({ title: "Second" });
    pipeline.plan = (write) => {
      if (write.record === second) write.where.push(sql`0`);
      installChangesGuard();
      write.expectedChanges = 1;
    };
    first.title = "First, edited";
    second.title = "Second, edited";
    const created = PlannedDocument.build({ title: "Third" });
    pipeline.outcomes = [];
    const { db, events } = listen();
    const error = await rejectionOf(db.batch([first.toSave(), created.toSave(), second.toSave()]));
    expect(error).toBeInstanceOf(WriteConflict);
    expect(error.message).toBe("PlannedDocument: the write changed other than 1 row as demanded; its batch was rolled back");
    expect(events.filter((event) => event.sql.includes("changes()"))).toHaveLength(3);
    // Every write's outcome hook saw the error; only the write that changed nothing is told it was its conflict.
    expect(pipeline.outcomes.map((outcome) => [outcome.plan.record.title, outcome.conflict, outcome.error === error])).toEqual([
      ["First, edited", false, true],
      ["Third", false, true],
      ["Second, edited", true, true],
    ]);
    expect(await titles()).toEqual(["First", "Second"]);
    expect(created.isNewRecord()).toBe(true);
  });

  it("a hook may turn a DELETE into an UPDATE: the row stays, and the record ends destroyed", async () => {
    const { events, PlannedDocument: Documents } = listen({ models: { PlannedDocument } });
    const document = await Documents.createOrThrow({ title: "Archived" });
    pipeline.plan = (write) => {
      if (write.kind !== "delete") return;
      write.kind = "update";
      write.values.set("title", "[gone]");
    };
    await document.destroyOrThrow();
    expect(events.at(-1)!.sql).toBe(`UPDATE "locked_documents" SET "title" = ?1 WHERE "id" = ?2`);
    expect(document.isDestroyed()).toBe(true);
    expect(await titles()).toEqual(["[gone]"]);
  });

  it("a plan that cannot be compiled throws TypeError naming the Model, before anything is sent", async () => {
    const document = await PlannedDocument.createOrThrow({ title: "Draft" });
    const { events } = listen();
    const refusals: Array<[(write: WritePlan) => void, string]> = [
      [(write) => write.where.push("1 = 1" as never), "PlannedDocument: a write's where terms are sql fragments, not \"1 = 1\""],
      [(write) => (write.expectedChanges = -1), "PlannedDocument: expectedChanges takes a whole number from 0, not -1"],
      [(write) => (write.kind = "upsert" as never), `PlannedDocument: the kind of a destroy's write is "delete" or "update", not "upsert"`],
      [(write) => (write.kind = "insert"), `PlannedDocument: the kind of a destroy's write is "delete" or "update", not "insert"`],
      [(write) => (write.kind = "update"), "PlannedDocument: an UPDATE needs values; a write:plan hook left none"],
    ];
    for (const [plan, message] of refusals) {
      pipeline.plan = plan;
      await expect(document.destroy()).rejects.toThrow(new TypeError(message));
    }
    pipeline.plan = (write) => (write.kind = "update");
    await expect(PlannedDocument.create({ title: "New" })).rejects.toThrow(new TypeError(`PlannedDocument: the kind of a create's write is "insert", not "update"`));
    document.title = "Changed";
    pipeline.plan = (write) => (write.kind = "delete");
    await expect(document.save()).rejects.toThrow(new TypeError(`PlannedDocument: the kind of an update's write is "update", not "delete"`));
    pipeline.plan = (write) => write.where.push(sql`1`);
    await expect(PlannedDocument.create({ title: "New" })).rejects.toThrow(
      new TypeError("PlannedDocument: an INSERT has no WHERE; a write:plan hook added conditions to it"),
    );
    // Writes without records are checked as records' are, and as defineStatement checks its own.
    pipeline.planRows = (write) => (write.expectedChanges = 1.5);
    await expect(PlannedDocument.all().updateAll({ title: "All" })).rejects.toThrow(new TypeError("PlannedDocument: expectedChanges takes a whole number from 0, not 1.5"));
    await expect(PlannedDocument.all().deleteAll()).rejects.toThrow(new TypeError("PlannedDocument: expectedChanges takes a whole number from 0, not 1.5"));
    expect(events).toEqual([]);
    expect(document.isDestroyed()).toBe(false);
  });
});

describe("write:plan of a write of many rows", () => {
  it("describes each write of many rows: its operation and the values it sets", async () => {
    await PlannedDocument.insertAll([{ title: "One" }, { title: "Two" }]);
    await PlannedDocument.where({ title: "One" }).updateAll({ title: "First", lockVersion: "3" as never });
    await PlannedDocument.upsert({ id: 1, title: "Upserted" });
    await PlannedDocument.deleteAll();
    expect(pipeline.rows.map(({ operation, kind, values, rows, where, conflictTarget }) => ({ operation, kind, values, rows, where, conflictTarget }))).toEqual([
      { operation: "insertAll", kind: "insert", values: new Map(), rows: [new Map([["title", "One"]]), new Map([["title", "Two"]])], where: [], conflictTarget: undefined },
      { operation: "updateAll", kind: "update", values: new Map<string, unknown>([["title", "First"], ["lockVersion", 3]]), rows: [], where: [], conflictTarget: undefined },
      { operation: "upsert", kind: "upsert", values: new Map(), rows: [new Map<string, unknown>([["id", 1], ["title", "Upserted"]])], where: [], conflictTarget: ["id"] },
      { operation: "deleteAll", kind: "delete", values: new Map(), rows: [], where: [], conflictTarget: undefined },
    ]);
    expect(pipeline.rows.every((plan) => plan.model.name === "PlannedDocument")).toBe(true);
  });

  it("a hook's WHERE terms are ANDed to updateAll's and deleteAll's WHERE, and made the WHERE of an upsert's DO UPDATE", async () => {
    const { events, PlannedDocument: Documents } = listen({ models: { PlannedDocument } });
    await Documents.insertAll([{ id: 1, title: "locked" }, { id: 2, title: "open" }]);
    pipeline.planRows = (plan) => plan.kind !== "insert" && plan.where.push(sql`${column("title")} <> ${"locked"}`);
    expect(await Documents.where({ id: 1 }).or(Documents.where({ id: 2 })).updateAll({ lockVersion: 1 })).toBe(1);
    expect(events.at(-1)!.sql).toBe(`UPDATE "locked_documents" SET "lock_version" = ?1 WHERE (("id" = ?2 OR "id" = ?3)) AND ("title" <> ?4)`);
    expect(events.at(-1)!.params).toEqual([1, 1, 2, "locked"]);
    await Documents.upsertAll([{ id: 1, title: "Changed" }, { id: 2, title: "Changed too" }]);
    expect(events.at(-1)!.sql).toMatch(/ ON CONFLICT \("id"\) DO UPDATE SET "title" = excluded\."title" WHERE \("title" <> \?2\)$/);
    expect(await titles()).toEqual(["locked", "Changed too"]);
    expect(await Documents.deleteAll()).toBe(1);
    expect(events.at(-1)!.sql).toBe(`DELETE FROM "locked_documents" WHERE (1 = 1) AND ("title" <> ?1)`);
    expect(await titles()).toEqual(["locked"]);
  });

  it("a hook that throws refuses the write before anything is sent; a term that is no sql fragment is a TypeError naming the Model", async () => {
    const { events, PlannedDocument: Documents } = listen({ models: { PlannedDocument } });
    pipeline.planRows = () => {
      throw new Refused("not these rows");
    };
    await expect(Documents.updateAll({ title: "x" })).rejects.toThrow(Refused);
    await expect(Documents.deleteAll()).rejects.toThrow(Refused);
    expect(() => Documents.toUpsert({ id: 1, title: "x" })).toThrow(Refused);
    pipeline.planRows = (plan) => plan.where.push(`"title" <> 'x'` as never);
    expect(() => Documents.toUpdateAll({ title: "x" })).toThrow(TypeError);
    expect(() => Documents.toDeleteAll()).toThrow(/^PlannedDocument: a write's where terms are sql fragments, not /);
    expect(events).toEqual([]);
  });
});

describe("defineStatement", () => {
  it("makes a Statement a batch runs; one demanding changed rows is guarded in a batch and checked alone", async () => {
    await PlannedDocument.createOrThrow({ title: "Only" });
    const db = connect(env.DB);
    installChangesGuard();
    const rename = (title: string, expectedChanges: number) =>
      defineStatement({ sql: `UPDATE "locked_documents" SET "title" = ?1`, params: [title], result: "meta", expectedChanges });
    const count = defineStatement({ sql: `SELECT COUNT(*) AS n FROM "locked_documents"`, read: (rows) => rows[0]!["n"] });
    const error = await rejectionOf(db.batch([defineStatement({ sql: `INSERT INTO "locked_documents" ("title") VALUES ('Extra')` }), rename("Both", 1), count]));
    expect(error).toBeInstanceOf(WriteConflict);
    expect(await titles()).toEqual(["Only"]);
    const alone = await rejectionOf(db.run(rename("Alone", 2)));
    expect(alone).toBeInstanceOf(WriteConflict);
    expect((alone as WriteConflict).changes).toBe(1);
    // Alone there is nothing to roll back: the UPDATE was made, and the conflict says so.
    expect(await titles()).toEqual(["Alone"]);
    expect(await db.run(count)).toBe(1);
  });

  it("refuses a definition it cannot send with TypeError", () => {
    expect(() => defineStatement(undefined as never)).toThrow(new TypeError("defineStatement: sql takes SQL text, not undefined"));
    expect(() => defineStatement({ sql: "" })).toThrow(new TypeError("defineStatement: sql takes SQL text, not \"\""));
    expect(() => defineStatement({ sql: "SELECT 1", params: "x" as never })).toThrow(new TypeError("defineStatement: params takes a list of values, not \"x\""));
    expect(() => defineStatement({ sql: "SELECT 1", result: "row" as never })).toThrow(TypeError);
    expect(() => defineStatement({ sql: "SELECT 1", expectedChanges: 1.5 })).toThrow(
      new TypeError("defineStatement: expectedChanges takes a whole number from 0, not 1.5"),
    );
  });
});

/** What the prepare stage saw, and whether each plan was prepared. */
const stages: {
  prepared: Array<[string, boolean]>;
  outcomes: Array<[string, number | undefined, number]>;
  failures: Array<Pick<WriteOutcome, "error" | "conflict" | "changes"> & { operation: string }>;
  plan?: (plan: WritePlan) => void;
  outcome?: (outcome: WriteOutcome) => void;
} = { prepared: [], outcomes: [], failures: [] };

/** A Model whose writes an async `write:prepare` hook changes (as an encrypting plugin would), on migration 0070's table. */
class PreparedDocument extends Model({ id: "integer", title: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_documents";
  static override binding = "DB";
  static {
    installWritePlans();
    this.hook("write:prepare", async (plan) => {
      const shout = async (values: Map<string, unknown>) => {
        if (typeof values.get("title") === "string") values.set("title", await Promise.resolve((values.get("title") as string).toUpperCase()));
      };
      await shout(plan.values);
      for (const row of plan.rows) await shout(row);
    });
    this.hook("write:plan", (plan) => {
      stages.prepared.push([plan.operation, plan.prepared]);
      if (!plan.prepared && plan.operation === "updateAll") throw new Refused(`${plan.model.name}.${plan.operation} must be prepared; use the async form`);
      stages.plan?.(plan);
    });
    this.hook("write:outcome", (outcome) => {
      const { plan, error, conflict, changes } = outcome;
      if (error === undefined) stages.outcomes.push([plan.operation, changes, outcome.rows.length]);
      else stages.failures.push({ operation: plan.operation, error, conflict, changes });
      stages.outcome?.(outcome);
    });
  }
}

describe("write:prepare and write:outcome", () => {
  beforeEach(() => {
    stages.prepared = [];
    stages.outcomes = [];
    stages.failures = [];
    stages.plan = stages.outcome = undefined;
  });

  it("every write reached through an async method is prepared, and may have its values replaced; the to... forms say they were not", async () => {
    const document = await PreparedDocument.createOrThrow({ title: "one" });
    document.title = "two";
    await document.saveOrThrow();
    await PreparedDocument.insertAll([{ title: "three" }, { title: "four" }]);
    await PreparedDocument.upsert({ id: document.id, title: "five" });
    await PreparedDocument.where({ title: "THREE" }).updateAll({ title: "six" });
    await PreparedDocument.where({ title: "FOUR" }).deleteAll();
    expect(await titles()).toEqual(["FIVE", "SIX"]);
    const statement = PreparedDocument.toInsert({ title: "seven" });
    expect(() => PreparedDocument.toUpdateAll({ title: "x" })).toThrow(new Refused("PreparedDocument.updateAll must be prepared; use the async form"));
    await document.destroyOrThrow();
    expect(stages.prepared).toEqual([
      ["create", true],
      ["update", true],
      ["insertAll", true],
      ["upsert", true],
      ["updateAll", true],
      ["deleteAll", true],
      ["insert", false],
      ["updateAll", false],
      ["destroy", true],
    ]);
    expect(statement.toSql().params).toEqual([`[["seven"]]`]);
  });

  it("write:outcome reports every kind of write: the rows changed, and a create's returned row", async () => {
    const document = await PreparedDocument.createOrThrow({ title: "one" });
    await PreparedDocument.insertAll([{ title: "two" }, { title: "three" }]);
    await PreparedDocument.updateAll({ lockVersion: 1 });
    await document.destroyOrThrow();
    await PreparedDocument.deleteAll();
    expect(stages.outcomes).toEqual([
      ["create", 1, 1],
      ["insertAll", 2, 0],
      ["updateAll", 3, 0],
      ["destroy", 1, 0],
      ["deleteAll", 2, 0],
    ]);
  });
});

describe("write:outcome of a failed write without records", () => {
  beforeEach(() => {
    stages.outcomes = [];
    stages.failures = [];
    stages.plan = stages.outcome = undefined;
  });

  it("reports the database's error of every kind of bulk write, and nothing as a success", async () => {
    const document = await PreparedDocument.createOrThrow({ title: "taken" });
    await env.DB.prepare("INSERT INTO locked_sections (locked_document_id, heading) VALUES (?, 'kept')").bind(document.id).run();
    stages.outcomes = [];
    const failing = [
      () => PreparedDocument.insertAll([{ id: document.id, title: "duplicate" }]),
      () => PreparedDocument.insert({ title: null as never }),
      () => PreparedDocument.upsertAll([{ id: document.id, title: null as never }]),
      () => PreparedDocument.updateAll({ title: null as never }),
      // A section still references the document: the foreign key refuses the DELETE.
      () => PreparedDocument.deleteAll(),
    ];
    const errors: Error[] = [];
    for (const write of failing) errors.push(await rejectionOf(write()));
    expect(errors[0]).toBeInstanceOf(RecordNotUnique);
    expect(stages.failures).toEqual(
      ["insertAll", "insert", "upsertAll", "updateAll", "deleteAll"].map((operation, index) => ({ operation, error: errors[index], conflict: false, changes: undefined })),
    );
    expect(stages.outcomes).toEqual([]);
    expect(await titles()).toEqual(["TAKEN"]);
    await env.DB.exec("DELETE FROM locked_sections");
  });

  it("reports a changes guard's conflict as the write's own, with the rows it changed", async () => {
    await PreparedDocument.insertAll([{ title: "one" }, { title: "two" }]);
    stages.plan = (plan) => {
      if (plan.operation === "updateAll") plan.expectedChanges = 1;
    };
    const error = await rejectionOf(PreparedDocument.updateAll({ lockVersion: 3 }));
    expect(error).toBeInstanceOf(WriteConflict);
    expect(stages.failures).toEqual([{ operation: "updateAll", error, conflict: true, changes: 2 }]);
  });

  it("refuses expectedChanges on a bulk insert sent as several statements, which no count could check, naming the Model", () => {
    stages.plan = (plan) => void (plan.expectedChanges = 2);
    const long = "x".repeat(600_000);
    expect(() => PreparedDocument.toInsertAll([{ title: long }, { title: long }])).toThrow(
      new TypeError("PreparedDocument.insertAll: a write:plan hook set expectedChanges, which a write sent as 2 statements cannot check; write fewer rows at once"),
    );
    expect(PreparedDocument.toInsertAll([{ title: "a" }, { title: "b" }]).expectedChanges).toBe(2);
  });

  it("reports the failure of a batch to each of its writes, and throws the first error a hook put in its place", async () => {
    const document = await PreparedDocument.createOrThrow({ title: "taken" });
    const { db } = listen();
    const Documents = db.model(PreparedDocument);
    const batch = [Documents.toInsert({ id: document.id, title: "duplicate" }), Documents.toDeleteAll()];
    stages.outcome = ({ plan, error }) => {
      if (error !== undefined && plan.operation === "insert") throw new Refused("the insert was refused");
    };
    await expect(db.batch(batch)).rejects.toThrow(new Refused("the insert was refused"));
    expect(stages.failures.map(({ operation, error }) => [operation, error instanceof RecordNotUnique])).toEqual([
      ["insert", true],
      ["deleteAll", true],
    ]);
    expect(await titles()).toEqual(["TAKEN"]);
  });

  /** A batch of every kind of item: records, bulk writes, to... Statements and a Statement of the app's own. */
  const mixedBatch = (Documents: typeof PreparedDocument) => [
    Documents.build({ title: "first record" }).toSave(),
    Documents.toInsertAll([{ title: "bulk one" }, { title: "bulk two" }]),
    defineStatement({ sql: "UPDATE locked_documents SET lock_version = 7", result: "meta" }),
    Documents.toDeleteAll(),
    Documents.build({ title: "refused" }).toSave(),
    Documents.toInsert({ title: "after it" }),
    Documents.build({ title: "never prepared" }).toSave(),
  ];

  it("a batch that fails before it is sent, as an item's preparation throws, reports every write it was given once, in order", async () => {
    await PreparedDocument.createOrThrow({ title: "kept" });
    stages.outcomes = [];
    const statements: Array<[unknown, boolean]> = [];
    stages.outcome = ({ plan, statement }) => void statements.push([plan.values.get("title") ?? plan.operation, statement !== undefined]);
    stages.plan = (plan) => {
      if (plan.values.get("title") === "REFUSED") throw new Refused("the fifth item was refused");
    };
    const { db, events } = listen();
    const error = await rejectionOf(db.batch(mixedBatch(db.model(PreparedDocument))));
    expect(error).toEqual(new Refused("the fifth item was refused"));
    // The refused record's write and the record's after it never became statements: they report with none.
    const operations = ["create", "insertAll", "deleteAll", "create", "insert", "create"];
    expect(stages.failures).toEqual(operations.map((operation) => ({ operation, error, conflict: false, changes: undefined })));
    expect(statements).toEqual([
      ["FIRST RECORD", true],
      ["insertAll", true],
      ["deleteAll", true],
      ["refused", false],
      ["insert", true],
      ["never prepared", false],
    ]);
    expect(stages.outcomes).toEqual([]);
    expect(events).toEqual([]);
    expect(await titles()).toEqual(["KEPT"]);
  });

  it("a batch D1 refuses reports every write it was given once, in order, and throws the first error a hook put in its place", async () => {
    const kept = await PreparedDocument.createOrThrow({ title: "kept" });
    stages.failures = [];
    const { db } = listen();
    const Documents = db.model(PreparedDocument);
    stages.outcome = ({ plan, error }) => {
      if (error !== undefined && plan.operation === "deleteAll") throw new Refused("the deleteAll saw it");
    };
    const items = [Documents.toInsert({ id: kept.id, title: "duplicate" }), ...mixedBatch(Documents).filter((_, index) => index !== 4)];
    expect(await rejectionOf(db.batch(items))).toEqual(new Refused("the deleteAll saw it"));
    expect(stages.failures.map(({ operation, error }) => [operation, error instanceof RecordNotUnique])).toEqual([
      ["insert", true],
      ["create", true],
      ["insertAll", true],
      ["deleteAll", true],
      ["insert", true],
      ["create", true],
    ]);
    expect(await titles()).toEqual(["KEPT"]);
  });

  it("reports the failure of db.runAll to each write it sent", async () => {
    await PreparedDocument.createOrThrow({ title: "kept" });
    stages.failures = [];
    const { db } = listen();
    await expect(db.runAll([PreparedDocument.toDeleteAll(), defineStatement({ sql: "SELECT * FROM no_such_table" })])).rejects.toThrow();
    expect(stages.failures.map(({ operation }) => operation)).toEqual(["deleteAll"]);
    expect(await titles()).toEqual(["KEPT"]);
  });
});

/** What the sections' outcome hook saw: each failed write's heading and error. */
const sectionFailures: Array<[unknown, unknown]> = [];

/** Sections of a document (migration 0070): a section headed "refused" is refused by its write:plan hook. */
class OutlinedSection extends Model({ id: "integer", lockedDocumentId: { type: "integer", null: false }, heading: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_sections";
  static override binding = "DB";
  static {
    installWritePlans();
    this.hook("write:plan", (plan) => {
      if (plan.values.get("heading") === "refused") throw new Refused("the section was refused");
    });
    this.hook("write:outcome", ({ plan, error }) => void (error !== undefined && sectionFailures.push([plan.values.get("heading"), error])));
  }
}

class OutlinedDocument extends Model({ id: "integer", title: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_documents";
  static override binding = "DB";
  sections = hasMany(OutlinedSection, { foreignKey: "lockedDocumentId" });
}

describe("write:outcome of the writes a record's write adds, when one's preparation throws", () => {
  beforeEach(() => void (sectionFailures.length = 0));

  for (const [how, save] of [
    ["save", (document: OutlinedDocument) => document.save()],
    ["a batch", (document: OutlinedDocument) => batch([document.toSave()])],
  ] as const) {
    it(`${how}: every child reports its error once, the refused one too, and nothing is sent`, async () => {
      const document = await OutlinedDocument.createOrThrow({ title: "outline" });
      document.sections().build({ heading: "kept" });
      document.sections().build({ heading: "refused" });
      document.title = "renamed";
      const { db, events } = listen();
      const error = await rejectionOf(withDatabase(db, () => save(document)));
      expect(error).toEqual(new Refused("the section was refused"));
      // The refused child's write never became a statement; it reports too, as does every write of the save.
      expect(sectionFailures).toEqual([
        ["kept", error],
        ["refused", error],
      ]);
      expect(events).toEqual([]);
      expect(await titles()).toEqual(["outline"]);
    });
  }
});

describe("plan.before and plan.after", () => {
  it("sends a hook's statements in the write's round trip: before it, and after it next to the write whatever else the batch holds", async () => {
    pipeline.plan = (write) => {
      write.before(() => sql`SELECT 'before' AS marker`);
      write.after((written) => sql`SELECT key FROM (${written.keys})`);
    };
    const { db, events } = listen();
    const created = PlannedDocument.build({ title: "New" });
    const existing = await PlannedDocument.createOrThrow({ title: "Old" });
    existing.title = "Old, edited";
    events.length = 0;
    await db.batch([created.toSave(), existing.toSave()]);
    expect(events.map((event) => event.sql.split(" ").slice(0, 2).join(" "))).toEqual([
      "SELECT 'before'",
      "INSERT INTO",
      "SELECT key",
      "SELECT 'before'",
      "UPDATE \"locked_documents\"",
      "SELECT key",
    ]);
    expect(events[2]!.sql).toContain("max(rowid)");
    expect(events[5]!.params).toEqual([existing.id]);
    expect(created.id!).toBeGreaterThan(existing.id!);
  });

  it("gives an after-statement of a bulk insert of a row with no value the key of the newest row", async () => {
    class KeyedCounter extends Model({ id: "integer", label: "string" }) {
      static override tableName = "counters";
      static override binding = "DB";
      static {
        installWritePlans();
        this.hook("write:plan", (write) => write.after((written) => sql`SELECT key FROM (${written.keys})`));
      }
    }
    const { db, events } = listen();
    await db.model(KeyedCounter).insert({});
    expect(events.map((event) => event.sql)).toEqual([
      `INSERT INTO "counters" DEFAULT VALUES`,
      `SELECT key FROM (SELECT "id" AS "key" FROM "counters" WHERE rowid = (SELECT max(rowid) FROM "counters"))`,
    ]);
  });

  it("refuses a builder that is not a function, naming the Model", () => {
    pipeline.planRows = (plan) => plan.after("INSERT" as never);
    expect(() => PlannedDocument.toDeleteAll()).toThrow(new TypeError("PlannedDocument: plan.after takes a function of the written rows returning an sql fragment"));
  });
});

/** The writes a plan hook saw on the sections' table: each plan's operation and method. */
const sectionPlans: Array<Pick<WritePlan, "operation" | "method">> = [];

/** Sections (migration 0070) that a document's `remove` and `set` delete (`dependent: "deleteAll"`). */
class RemovableSection extends Model({ id: "integer", lockedDocumentId: { type: "integer", null: false }, heading: { type: "string", null: false } }) {
  static override tableName = "locked_sections";
  static override binding = "DB";
  static {
    installWritePlans();
    this.hook("write:plan", ({ operation, method }) => void sectionPlans.push({ operation, method }));
  }
}

class SectionedDocument extends Model({ id: "integer", title: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_documents";
  static override binding = "DB";
  sections = hasMany(RemovableSection, { foreignKey: "lockedDocumentId", dependent: "deleteAll" });
}

/** Attachments whose destroy a hook watches (migration 0070), so that a destroy reads its dependents' records first. */
class WatchedAttachment extends Model({ id: "integer", trashableArticleId: { type: "integer", null: false }, name: { type: "string", null: false } }) {
  static override tableName = "trashable_attachments";
  static override binding = "DB";
  static {
    this.hook("record:beforeDestroy", () => {});
  }
}

/** A document whose destroy reads its dependents (a child with destroy hooks), then deletes its sections by one statement. */
class WatchedSectionedDocument extends Model({ id: "integer", title: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_documents";
  static override binding = "DB";
  sections = hasMany(RemovableSection, { foreignKey: "lockedDocumentId", dependent: "deleteAll" });
  attachments = hasMany(WatchedAttachment, { foreignKey: "trashableArticleId", dependent: "destroy" });
}

/** A document with one section (migration 0070), the one saved before deleted when another is built. */
class SingleSectionDocument extends Model({ id: "integer", title: { type: "string", null: false }, lockVersion: "integer" }) {
  static override tableName = "locked_documents";
  static override binding = "DB";
  section = hasOne(RemovableSection, { foreignKey: "lockedDocumentId", dependent: "delete" });
}

describe("plan.method: the method asked, where the operation does not tell it", () => {
  it("names the counters' method, whose UPDATE is an updateAll", async () => {
    const document = await PlannedDocument.createOrThrow({ title: "Counted" });
    pipeline.rows = [];
    await PlannedDocument.updateCounters(document.id, { lockVersion: 1 });
    await batch([PlannedDocument.toUpdateCounters(document.id, { lockVersion: 1 })]);
    await document.incrementAndSave("lockVersion");
    await document.decrementAndSave("lockVersion");
    await PlannedDocument.where({ id: document.id }).updateAll({ title: "Bulk" });
    expect(pipeline.rows.map(({ operation, method }) => [operation, method])).toEqual([
      ["updateAll", "PlannedDocument.updateCounters"],
      ["updateAll", "PlannedDocument.toUpdateCounters"],
      ["updateAll", "PlannedDocument#incrementAndSave"],
      ["updateAll", "PlannedDocument#decrementAndSave"],
      ["updateAll", undefined],
    ]);
  });

  it("names the association method whose writes are planned as a destroy's dependents' are, and the destroy of theirs", async () => {
    const document = await SectionedDocument.createOrThrow({ title: "Sectioned" });
    const [first, second, third] = await Promise.all(["a", "b", "c"].map((heading) => document.sections().create({ heading })));
    sectionPlans.length = 0;
    await document.sections().remove(first!);
    await document.sections().set([second!]);
    await document.sections().setIds([]);
    await document.destroy();
    expect(sectionPlans).toEqual([
      { operation: "deleteDependents", method: "SectionedDocument.sections.remove" },
      { operation: "deleteDependents", method: "SectionedDocument.sections.set" },
      { operation: "deleteDependents", method: "SectionedDocument.sections.setIds" },
      { operation: "deleteDependents", method: "SectionedDocument#destroy" },
    ]);
    expect(third!.id).toBeGreaterThan(0);
    const watched = await WatchedSectionedDocument.createOrThrow({ title: "Watched" });
    await watched.sections().create({ heading: "d" });
    sectionPlans.length = 0;
    await watched.destroy();
    expect(sectionPlans).toEqual([{ operation: "deleteDependents", method: "WatchedSectionedDocument#destroy" }]);
  });

  it("names the save that replaces a hasOne child", async () => {
    const document = await SingleSectionDocument.createOrThrow({ title: "Single" });
    await document.section.build({ heading: "first" }).saveOrThrow();
    document.section.build({ heading: "second" });
    sectionPlans.length = 0;
    await document.saveOrThrow();
    expect(sectionPlans[0]).toEqual({ operation: "deleteDependents", method: "SingleSectionDocument#save" });
  });
});
