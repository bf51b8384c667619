/** The auditLog plugin: one entry per written row for every kind of write, in the write's own batch. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActiveRecord,
  auditLog,
  batch,
  defineApplicationRecord,
  hasMany,
  multiTenancy,
  TenantMismatch,
  withDatabase,
  withTenant,
} from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { connect } from "../../src/index.js";
import { recordingRoundTrips } from "../helpers/queries.js";
import { auditedSchema as schema } from "../models/audited-tables.js";
import { schema as fixtureSchema } from "../models/fixtures.js";

class AuditedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(auditLog);
  }
}

const Audited = defineApplicationRecord(schema, AuditedBase);

class Note extends Audited("audited_notes") {}

type Entry = [model: string, operation: string, key: unknown];

/** The entries in the order written; those of one write (one run of an operation) by key, as a write's rows have no order. */
async function entries(): Promise<Entry[]> {
  const { results } = await env.DB.prepare("SELECT model, operation, record_key FROM audit_log_entries ORDER BY id").all<Record<string, unknown>>();
  const runs: Entry[][] = [];
  for (const row of results) {
    const entry: Entry = [row["model"] as string, row["operation"] as string, row["record_key"]];
    const last = runs.at(-1);
    if (last && last[0]![1] === entry[1] && last[0]![0] === entry[0]) last.push(entry);
    else runs.push([entry]);
  }
  return runs.flatMap((run) => run.sort((a, b) => String(a[2]).localeCompare(String(b[2]))));
}

beforeEach(async () => {
  await env.DB.exec("DELETE FROM audit_log_entries; DELETE FROM audited_notes; DELETE FROM audited_tasks; DELETE FROM audited_lists;");
});

describe("auditLog", () => {
  it("writes one entry per row for every kind of write, with the key the database assigned", async () => {
    const note = await Note.createOrThrow({ title: "One" });
    note.body = "edited";
    await note.saveOrThrow();
    await Note.insert({ title: "Two" });
    await Note.insertAll([{ title: "Three" }, { title: "Four" }]);
    const ids = Object.fromEntries((await Note.order({ id: "asc" }).pluck("title", "id")).map(([title, id]) => [title, id]));
    await Note.upsert({ title: "Two", body: "upserted" }, { uniqueBy: ["title"] });
    await Note.upsertAll([{ title: "Three", body: "x" }, { title: "Five", body: null }], { uniqueBy: ["title"] });
    const five = (await Note.findBy({ title: "Five" }))!.id;
    expect(await Note.where({ title: ["Three", "Four"] }).updateAll({ body: "bulk" })).toBe(2);
    await note.destroyOrThrow();
    expect(await Note.where({ title: ["Two", "Five"] }).deleteAll()).toBe(2);
    expect(await entries()).toEqual([
      ["Note", "create", note.id],
      ["Note", "update", note.id],
      ["Note", "insert", ids["Two"]],
      ["Note", "insertAll", ids["Three"]],
      ["Note", "insertAll", ids["Four"]],
      ["Note", "upsert", ids["Two"]],
      ["Note", "upsertAll", ids["Three"]],
      ["Note", "upsertAll", five],
      ["Note", "updateAll", ids["Three"]],
      ["Note", "updateAll", ids["Four"]],
      ["Note", "destroy", note.id],
      ["Note", "deleteAll", ids["Two"]],
      ["Note", "deleteAll", five],
    ]);
  });

  it("an update that changes the key is audited under the row's new key", async () => {
    const note = await Note.createOrThrow({ title: "Renumbered" });
    const before = note.id!;
    note.id = before + 100;
    await note.saveOrThrow();
    expect((await entries()).map(([, operation, key]) => [operation, key])).toEqual([
      ["create", before],
      ["update", before + 100],
    ]);
  });

  it("sends each entry in its write's round trip, and the to... forms in the batch's", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const db = connect(binding);
    await withDatabase(db, async () => {
      await Note.createOrThrow({ title: "One" });
      await Note.insertAll([{ title: "Two" }, { title: "Three" }]);
      await Note.where({ title: "Two" }).updateAll({ body: "x" });
      await batch([Note.toInsert({ title: "Four" }), Note.toDeleteAll()]);
    });
    expect(roundTrips.map((trip) => trip.length)).toEqual([2, 2, 2, 4]);
    expect(roundTrips[0]![1]).toMatch(/^INSERT INTO "audit_log_entries"/);
    expect((await entries()).map(([, operation]) => operation)).toEqual(["create", "insertAll", "insertAll", "updateAll", "insert", ...Array(4).fill("deleteAll")]);
  });

  it("is atomic with the write: a failing write leaves no entry, a failing entry leaves no write", async () => {
    await Note.createOrThrow({ title: "Taken" });
    await expect(Note.create({ title: "Taken" })).rejects.toThrow(/UNIQUE|unique/);
    await expect(Note.insertAll([{ title: "New" }, { title: "Taken" }])).rejects.toThrow(/UNIQUE|unique/);
    expect(await entries()).toHaveLength(1);
    class Task extends Audited("audited_tasks") {}
    const refused = await rejectionOf(withTenant("t", () => Task.create({ id: "unauditable", tenantId: "t", title: "x" })));
    expect(String(refused)).toMatch(/audit entry refused/);
    await expect(Task.insert({ id: "unauditable", tenantId: "t", title: "x" })).rejects.toThrow(/audit entry refused/);
    expect(await Task.count()).toBe(0);
    expect(await entries()).toHaveLength(1);
  });

  it("writes no entry for a failed write of any kind, and its outcome hooks see the failure", async () => {
    const failures: Array<[string, unknown]> = [];
    class Watched extends Audited("audited_notes") {
      static {
        this.hook("write:outcome", ({ plan, error }) => void (error === undefined || failures.push([plan.operation, error])));
      }
    }
    const taken = await Watched.createOrThrow({ title: "Taken" });
    await Watched.createOrThrow({ title: "Other" });
    const written = await entries();
    const errors = [
      await rejectionOf(Watched.upsertAll([{ title: "Taken", body: "x" }, { title: null as never, body: "y" }], { uniqueBy: ["title"] })),
      await rejectionOf(Watched.where({ title: "Other" }).updateAll({ title: "Taken" })),
      await rejectionOf(Watched.updateAll({ title: null as never })),
      await rejectionOf(batch([Watched.toInsert({ id: taken.id, title: "Again" }), Watched.toDeleteAll()])),
    ];
    expect(failures).toEqual([
      ["upsertAll", errors[0]],
      ["updateAll", errors[1]],
      ["updateAll", errors[2]],
      ["insert", errors[3]],
      ["deleteAll", errors[3]],
    ]);
    expect(await entries()).toEqual(written);
    expect(await Watched.order({ title: "asc" }).pluck("title")).toEqual(["Other", "Taken"]);
  });

  it("names the call behind a write whose operation does not tell it: a counter's UPDATE, a destroy's dependents", async () => {
    class Counter extends defineApplicationRecord(fixtureSchema, AuditedBase)("counters") {}
    class Task extends Audited("audited_tasks") {}
    class List extends Audited("audited_lists") {
      tasks = hasMany(Task, { foreignKey: "listId", dependent: "nullify" });
    }
    await env.DB.exec("DELETE FROM counters");
    const counter = await Counter.createOrThrow({ label: "c", value: 0 });
    await Counter.updateCounters(counter.id, { value: 2 });
    await counter.incrementAndSave("value");
    await Counter.where({ id: counter.id }).updateAll({ value: 0 });
    const list = await List.createOrThrow({ tenantId: "t", name: "Chores" });
    const task = await Task.createOrThrow({ id: "t1", tenantId: "t", title: "a", listId: list.id });
    await list.destroyOrThrow();
    const { results } = await env.DB.prepare("SELECT model, operation, method, record_key FROM audit_log_entries ORDER BY id").all();
    expect(results.map(Object.values)).toEqual([
      ["Counter", "create", null, counter.id],
      ["Counter", "updateAll", "Counter.updateCounters", counter.id],
      ["Counter", "updateAll", "Counter#incrementAndSave", counter.id],
      ["Counter", "updateAll", null, counter.id],
      ["List", "create", null, list.id],
      ["Task", "create", null, task.id],
      ["Task", "nullify", "List#destroy", task.id],
      ["List", "destroy", null, list.id],
    ]);
  });

  it("audits dependents' set-based writes in the owner's destroy batch", async () => {
    class Task extends Audited("audited_tasks") {}
    class List extends Audited("audited_lists") {
      tasks = hasMany(Task, { foreignKey: "listId", dependent: "nullify" });
    }
    const list = await List.createOrThrow({ tenantId: "t", name: "Chores" });
    await Task.insertAll([{ tenantId: "t", title: "a", listId: list.id }, { tenantId: "t", title: "b", listId: list.id }]);
    const keys = (await Task.pluck("id")).sort();
    await list.destroyOrThrow();
    // The children's UPDATE goes before the owner's DELETE, in one batch.
    expect((await entries()).slice(-3)).toEqual([["Task", "nullify", keys[0]], ["Task", "nullify", keys[1]], ["List", "destroy", list.id]]);
    expect(await Task.where({ listId: null }).count()).toBe(2);
  });
});

describe("auditLog with single-table inheritance", () => {
  class Staff extends defineApplicationRecord({}, AuditedBase)({ id: "integer", type: "string", name: { type: "string", null: false } }) {
    static override tableName = "sti_staff";
    static {
      this.inheritance(() => ({ Manager, Engineer }));
    }
  }
  class Manager extends Staff {}
  class Engineer extends Staff {}

  it("a subclass's upsert audits the rows it wrote, not another type's row it left as it was", async () => {
    await env.DB.exec("DELETE FROM sti_staff");
    const manager = await Manager.createOrThrow({ name: "Mo" });
    const engineer = await Engineer.createOrThrow({ name: "Eve" });
    await Engineer.upsertAll([{ id: manager.id, name: "Hijacked" }, { id: engineer.id, name: "Eva" }]);
    expect((await Staff.order({ id: "asc" }).pluck("name"))).toEqual(["Mo", "Eva"]);
    expect((await entries()).slice(2)).toEqual([["Engineer", "upsertAll", engineer.id]]);
  });
});

/** auditLog and multiTenancy on one base class, in both orders: no write of any kind crosses tenants, nor is audited. */
for (const order of ["auditLog first", "multiTenancy first"] as const) {
  describe(`auditLog with multiTenancy (${order})`, () => {
    class Base extends ActiveRecord {
      static override binding = "DB";
      static {
        const plugins = order === "auditLog first" ? [auditLog, multiTenancy()] : [multiTenancy(), auditLog];
        for (const plugin of plugins) this.use(plugin);
      }
    }
    const Tenanted = defineApplicationRecord(schema, Base);
    class Task extends Tenanted("audited_tasks") {}

    it("audits the tenant's writes, and no write reaches another tenant's row", async () => {
      await env.DB.prepare("INSERT INTO audited_tasks (id, tenant_id, title) VALUES ('other', 'globex', 'theirs')").run();
      const other = await withTenant("globex", () => Task.find("other"));
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ["save", () => ((other.title = "mine"), other.saveOrThrow())],
        ["destroy", () => other.destroyOrThrow()],
        ["upsert", () => Task.upsert({ id: "other", tenantId: "acme", title: "mine" })],
        ["upsertAll", () => Task.upsertAll([{ id: "other", tenantId: "acme", title: "mine" }])],
        ["updateAll", () => Task.where({ id: "other" }).updateAll({ title: "mine" })],
        ["deleteAll", () => Task.where({ id: "other" }).deleteAll()],
      ];
      await withTenant("acme", async () => {
        await Task.insert({ id: "own", title: "ours" });
        for (const [name, attempt] of attempts) {
          const result = await attempt().catch((error: unknown) => error);
          if (name === "save" || name === "destroy") expect(result, name).toBeInstanceOf(TenantMismatch);
        }
      });
      const row = await env.DB.prepare("SELECT tenant_id, title FROM audited_tasks WHERE id = 'other'").first();
      expect(row).toEqual({ tenant_id: "globex", title: "theirs" });
      // An upsert's entries are of the rows that meet its plan's conditions: the refused row has none.
      expect(await entries()).toEqual([["Task", "insert", "own"]]);
    });
  });
}
