/** The guide's multi-tenancy example plugin: every query and write of a Model scoped to the current tenant. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActiveRecord,
  batch,
  belongsTo,
  column,
  defineApplicationRecord,
  hasMany,
  Model,
  RecordflareError,
  RecordNotFound,
  sql,
  withDatabase, multiTenancy, NoTenant, TenantMismatch, withTenant } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

const tenancySchema = {
  guide_projects: {
    id: { type: "string", null: false, generateId: true },
    tenantId: { type: "string", null: false },
    name: { type: "string", null: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  guide_tasks: {
    id: { type: "string", null: false, generateId: true },
    tenantId: { type: "string", null: false },
    projectId: { type: "string", null: false },
    title: { type: "string", null: false },
    done: { type: "boolean", null: false, default: false },
  },
} as const;

class TenantBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(multiTenancy({ attribute: "tenantId" }));
  }
}

const TenantRecord = defineApplicationRecord(tenancySchema, TenantBase);

class Project extends TenantRecord("guide_projects") {
  tasks = hasMany(Task, { foreignKey: "projectId", dependent: "deleteAll" });
}

class Task extends TenantRecord("guide_tasks") {
  project = belongsTo(Project, { foreignKey: "projectId" });
}

describe("guide: Example: multi-tenancy", () => {
  /** Two tenants' rows in each table, written straight to D1 (ids p-a, p-b, t-a1, t-a2, t-b1). */
  async function seed(): Promise<void> {
    const now = "2026-01-01T00:00:00.000Z";
    await env.DB.batch([
      env.DB.prepare("INSERT INTO guide_projects VALUES ('p-a', 'acme', 'Acme site', ?, ?), ('p-b', 'globex', 'Globex site', ?, ?)").bind(now, now, now, now),
      env.DB.prepare(
        "INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('t-a1', 'acme', 'p-a', 'Acme one'), ('t-a2', 'acme', 'p-a', 'Acme two'), ('t-b1', 'globex', 'p-b', 'Globex one')",
      ),
    ]);
  }

  const titles = (records: { title: string }[]) => records.map((record) => record.title).sort();

  it("runs the usage example: the query is narrowed in SQL, a new record gets the tenant", async () => {
    await seed();
    const { db, sqls, events } = listen();
    await withDatabase(db, () =>
      withTenant("acme", async () => {
        const project = await Project.createOrThrow({ name: "Launch" });
        expect(project.tenantId).toBe("acme");
        expect((await Project.order({ name: "asc" }).toArray()).map((p) => p.name)).toEqual(["Acme site", "Launch"]);
        expect(sqls().at(-1)).toBe(`SELECT * FROM "guide_projects" WHERE "tenant_id" = ?1 ORDER BY "name" ASC`);
        expect(events.at(-1)!.params).toEqual(["acme"]);
      }),
    );
  });

  it("every read shows the current tenant's rows only: toArray, find, findBy, first/last, count/pluck/exists, paginate, where on the tenant", async () => {
    await seed();
    await withTenant("acme", async () => {
      expect(titles(await Task.all().toArray())).toEqual(["Acme one", "Acme two"]);
      expect((await Task.find("t-a1")).title).toBe("Acme one");
      await expect(Task.find("t-b1")).rejects.toBeInstanceOf(RecordNotFound);
      await expect(Task.find("t-a1", "t-b1")).rejects.toBeInstanceOf(RecordNotFound);
      expect(await Task.findBy({ title: "Globex one" })).toBeNull();
      expect(await Task.where({ tenantId: "globex" }).toArray()).toEqual([]);
      expect((await Task.order({ title: "asc" }).first())!.title).toBe("Acme one");
      expect((await Task.order({ title: "asc" }).last())!.title).toBe("Acme two");
      expect(await Task.count()).toBe(2);
      expect((await Task.pluck("title")).sort()).toEqual(["Acme one", "Acme two"]);
      expect(await Task.exists({ id: "t-b1" })).toBe(false);
      const page = await Task.paginate({ perPage: 1 });
      expect(page.total).toBe(2);
      expect(page.records.map((task) => task.tenantId)).toEqual(["acme"]);
    });
    const acmeTask = (await withTenant("acme", () => Task.take()))!;
    expect(acmeTask.tenantId).toBe("acme");
    await withTenant("globex", async () => {
      expect(titles(await Task.all().toArray())).toEqual(["Globex one"]);
      expect(await Task.count()).toBe(1);
      await expect(acmeTask.reload()).rejects.toBeInstanceOf(RecordNotFound);
    });
  });

  it("a value an ORDER BY fragment binds before the tenant's cannot open another tenant's rows", async () => {
    await seed();
    const victim = sql`${column("tenantId")} = ${"globex"} DESC`;
    await withTenant("acme", async () => {
      expect(titles(await Task.order(victim).toArray())).toEqual(["Acme one", "Acme two"]);
      expect((await Task.order(victim).first())!.tenantId).toBe("acme");
      expect(await Task.order(victim).pluck("tenantId")).toEqual(["acme", "acme"]);
      const [project] = await Project.order(victim).includes("tasks").toArray();
      expect(project!.name).toBe("Acme site");
      expect(titles(await project!.tasks().toArray())).toEqual(["Acme one", "Acme two"]);
      expect(await Task.order(victim).limit(10).deleteAll()).toBe(2);
    });
    expect(await countRows("guide_tasks")).toBe(1);
  });

  it("association loads and includes preloads are narrowed too, even over a foreign key that points across tenants", async () => {
    await seed();
    // A corrupt row: globex's task points at acme's project.
    await env.DB.prepare("INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('t-x', 'globex', 'p-a', 'Stray')").run();
    await withTenant("acme", async () => {
      const project = await Project.find("p-a");
      expect(titles(await project.tasks().toArray())).toEqual(["Acme one", "Acme two"]);
      const [preloaded] = await Project.includes("tasks").toArray();
      expect(titles(await preloaded.tasks().toArray())).toEqual(["Acme one", "Acme two"]);
    });
    await withTenant("globex", async () => {
      const stray = await Task.find("t-x");
      expect(await stray.project.load()).toBeNull();
      const [loaded] = await Task.where({ id: "t-x" }).includes("project").toArray();
      expect(loaded.project.get()).toBeNull();
    });
  });

  it("updateAll and deleteAll (and a dependent deleteAll) touch the current tenant's rows only", async () => {
    await seed();
    await withTenant("acme", async () => {
      expect(await Task.updateAll({ done: true })).toBe(2);
      expect(await Task.where({ title: "Globex one" }).deleteAll()).toBe(0);
    });
    const done = await env.DB.prepare("SELECT id, done FROM guide_tasks ORDER BY id").all<{ id: string; done: number }>();
    expect(done.results).toEqual([
      { id: "t-a1", done: 1 },
      { id: "t-a2", done: 1 },
      { id: "t-b1", done: 0 },
    ]);
    const { db, sqls } = listen();
    await withDatabase(db, () =>
      withTenant("globex", async () => {
        const project = await Project.find("p-b");
        expect(project.tasks().toDeleteAll().toSql()).toEqual({
          sql: `DELETE FROM "guide_tasks" WHERE "project_id" = ?1 AND "tenant_id" = ?2`,
          params: ["p-b", "globex"],
        });
        // The dependent deleteAll of the project's tasks, then its own DELETE.
        expect(await project.destroy()).toBe(project);
        expect(sqls()).toContain(`DELETE FROM "guide_tasks" WHERE "project_id" = ?1 AND "tenant_id" = ?2`);
        expect(await Task.deleteAll()).toBe(0);
      }),
    );
    expect(await countRows("guide_tasks")).toBe(2);
    expect(await countRows("guide_projects")).toBe(1);
  });

  it("writes are stamped and guarded: the record's own UPDATE and DELETE of another tenant's row change nothing and throw TenantMismatch", async () => {
    await seed();
    const { events, db } = listen();
    const acmeTask = await withTenant("acme", () => db.model(Task).find("t-a1"));
    await withTenant("globex", async () => {
      // Loaded under acme, saved under globex: its UPDATE is narrowed to globex's rows, changes nothing and throws.
      acmeTask.title = "Taken over";
      const error = await rejectionOf(acmeTask.save());
      expect(error).toBeInstanceOf(TenantMismatch);
      expect(error.message).toBe(`Task with id "t-a1" was not saved: its row is not tenant "globex"'s (or is gone)`);
      expect(events.at(-1)!.sql).toBe(`UPDATE "guide_tasks" SET "title" = ?1 WHERE "id" = ?2 AND ("tenant_id" = ?3)`);
      expect(events.at(-1)!.params).toEqual(["Taken over", "t-a1", "globex"]);
      await expect(acmeTask.destroy()).rejects.toThrow(`Task with id "t-a1" was not destroyed: its row is not tenant "globex"'s (or is gone)`);
      expect(acmeTask.isDestroyed()).toBe(false);
      // Built for another tenant: refused.
      const foreign = Task.build({ projectId: "p-b", title: "Sneaky", tenantId: "acme" });
      expect(await foreign.save()).toBe(false);
      expect(foreign.abortReason).toBe("belongs to another tenant");
      // Moved to another tenant: refused before anything is sent.
      const own = await Task.find("t-b1");
      own.tenantId = "acme";
      await expect(own.save()).rejects.toThrow(new TypeError(`Task: tenantId "acme" is not the current tenant "globex"; no write gives a row another tenant`));
      // Stamped at build, by a Relation's create too.
      const stamped = await Task.where({ done: true }).createOrThrow({ projectId: "p-b", title: "Stamped" });
      expect(stamped.tenantId).toBe("globex");
    });
    await withTenant("acme", async () => {
      // A globex record moved to acme, under acme: its UPDATE finds no acme row with its key.
      const globexTask = await withTenant("globex", () => Task.find("t-b1"));
      globexTask.tenantId = "acme";
      await expect(globexTask.save()).rejects.toBeInstanceOf(TenantMismatch);
    });
    const rows = await env.DB.prepare("SELECT id, tenant_id, title FROM guide_tasks WHERE id LIKE 't-%' ORDER BY id").all();
    expect(rows.results).toEqual([
      { id: "t-a1", tenant_id: "acme", title: "Acme one" },
      { id: "t-a2", tenant_id: "acme", title: "Acme two" },
      { id: "t-b1", tenant_id: "globex", title: "Globex one" },
    ]);
  });

  it("bulk inserts are stamped, and a row of another tenant is refused with TypeError before anything is sent", async () => {
    await withTenant("acme", async () => {
      const project = await Project.createOrThrow({ name: "Bulk" });
      await Task.insertAll([{ projectId: project.id, title: "One" }, { projectId: project.id, title: "Two" }]);
      await expect(Task.insert({ projectId: project.id, title: "Three", tenantId: "globex" })).rejects.toThrow(
        new TypeError(`Task: tenantId "globex" is not the current tenant "acme"; no write gives a row another tenant`),
      );
    });
    const rows = await env.DB.prepare("SELECT tenant_id, title FROM guide_tasks ORDER BY title").all();
    expect(rows.results).toEqual([
      { tenant_id: "acme", title: "One" },
      { tenant_id: "acme", title: "Two" },
    ]);
  });

  it("with no tenant open, queries, saves and bulk writes throw NoTenant; building leaves the tenant null", async () => {
    await seed();
    const error = await rejectionOf(Task.all().toArray());
    expect(error).toBeInstanceOf(NoTenant);
    expect(error).toBeInstanceOf(RecordflareError);
    expect(error.message).toBe("Task: no tenant is open; run the work inside withTenant(tenantId, fn)");
    expect(() => Task.all().toSql()).toThrow(NoTenant);
    await expect(Task.find("t-a1")).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.count()).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.updateAll({ done: true })).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.deleteAll()).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.insert({ projectId: "p-a", title: "x", tenantId: "acme" })).rejects.toBeInstanceOf(NoTenant);
    const task = Task.build({ projectId: "p-a", title: "x" });
    expect(task.tenantId).toBeNull();
    await expect(task.save()).rejects.toBeInstanceOf(NoTenant);
    expect(await countRows("guide_tasks")).toBe(3);
  });

  it("the uniqueness validator checks within the tenant", async () => {
    await seed();
    class UniqueTask extends TenantRecord("guide_tasks") {
      static {
        this.validates("title", { uniqueness: true });
      }
    }
    await withTenant("acme", async () => {
      expect(await UniqueTask.build({ projectId: "p-a", title: "Globex one" }).save()).toBe(true);
      const taken = UniqueTask.build({ projectId: "p-a", title: "Acme one" });
      expect(await taken.save()).toBe(false);
      expect(taken.errors.fullMessages()).toEqual(["Title has already been taken"]);
    });
  });

  it("the plugin applies only to Models with the tenant attribute", () => {
    class Note extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override binding = "DB";
      static {
        this.use(multiTenancy());
      }
    }
    expect(Note.all().toSql().sql).toBe(`SELECT * FROM "notes"`);
  });

  it("relation hooks receive the Model they compile for: the tenant's column is found through a column override", () => {
    class Workspaced extends Model({ id: "string", workspace: { type: "string", column: "body" } }) {
      static override tableName = "notes";
      static override binding = "DB";
      static {
        this.use(multiTenancy({ attribute: "workspace" }));
      }
    }
    withTenant("acme", () => {
      expect(Workspaced.where({ id: "n1" }).toSql()).toEqual({ sql: `SELECT * FROM "notes" WHERE "id" = ?1 AND "body" = ?2`, params: ["n1", "acme"] });
    });
  });
});
