import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, column, hasMany, NoTenant, RecordflareError, RecordNotFound, RecordNotUnique, sql, TenantMismatch, withDatabase, withTenant } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { TenantTask } from "../models/tenant-tasks.js";

const titles = async () => (await env.DB.prepare("SELECT id, tenant_id, title FROM guide_tasks ORDER BY id").all()).results;
const SEEDED = [
  { id: "a1", tenant_id: "acme", title: "Acme one" },
  { id: "b1", tenant_id: "globex", title: "Globex one" },
];

beforeEach(async () => {
  await env.DB.exec("DELETE FROM guide_tasks; DELETE FROM guide_projects;");
  await env.DB.prepare("INSERT INTO guide_projects VALUES ('p', 'acme', 'Shared', '2026-01-01', '2026-01-01')").run();
  await env.DB.prepare("INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('a1', 'acme', 'p', 'Acme one'), ('b1', 'globex', 'p', 'Globex one')").run();
});

describe("multiTenancy: the record's own writes", () => {
  it("an UPDATE and a DELETE carry the current tenant and demand one changed row", async () => {
    const { events, TenantTask: Tasks } = listen({ models: { TenantTask } });
    await withTenant("acme", async () => {
      const task = (await Tasks.find("a1"))!;
      task.title = "Renamed";
      await task.saveOrThrow();
      expect(events.at(-1)!.sql).toBe(`UPDATE "guide_tasks" SET "title" = ?1 WHERE "id" = ?2 AND ("tenant_id" = ?3)`);
      expect(events.at(-1)!.params).toEqual(["Renamed", "a1", "acme"]);
      await task.destroyOrThrow();
      expect(events.at(-1)!.sql).toBe(`DELETE FROM "guide_tasks" WHERE "id" = ?1 AND ("tenant_id" = ?2)`);
      expect(events.at(-1)!.params).toEqual(["a1", "acme"]);
      expect(task.isDestroyed()).toBe(true);
    });
    expect(await titles()).toEqual([SEEDED[1]]);
  });

  it("a record loaded under one tenant and saved or destroyed under another changes nothing and throws TenantMismatch", async () => {
    const task = (await withTenant("globex", () => TenantTask.find("b1")))!;
    await withTenant("acme", async () => {
      task.title = "Hijacked";
      const error = await rejectionOf(task.save());
      expect(error).toBeInstanceOf(TenantMismatch);
      expect(error).toBeInstanceOf(RecordflareError);
      expect(error.message).toBe(`TenantTask with id "b1" was not saved: its row is not tenant "acme"'s (or is gone)`);
      expect(task.title).toBe("Hijacked");
      await expect(task.destroyOrThrow()).rejects.toThrow(`TenantTask with id "b1" was not destroyed: its row is not tenant "acme"'s (or is gone)`);
      expect(task.isDestroyed()).toBe(false);
    });
    expect(await titles()).toEqual(SEEDED);
  });

  it("inside a batch, another tenant's row fails the whole batch: nothing is written", async () => {
    const foreign = (await withTenant("globex", () => TenantTask.find("b1")))!;
    await withTenant("acme", async () => {
      const own = (await TenantTask.find("a1"))!;
      own.title = "Acme edited";
      foreign.title = "Globex edited";
      const created = TenantTask.build({ projectId: "p", title: "New" });
      const { db } = listen();
      await expect(db.batch([own.toSave(), created.toSave(), foreign.toDestroy()])).rejects.toBeInstanceOf(TenantMismatch);
      expect(created.isNewRecord()).toBe(true);
      expect(own.changed()).toEqual(["title"]);
    });
    expect(await titles()).toEqual(SEEDED);
  });

  it("with no tenant open, the record's own UPDATE and DELETE throw NoTenant before anything is sent", async () => {
    const task = (await withTenant("acme", () => TenantTask.find("a1")))!;
    const { events, db } = listen();
    task.title = "No tenant";
    await expect(db.model(TenantTask).all().count()).rejects.toBeInstanceOf(NoTenant);
    await expect(task.save()).rejects.toBeInstanceOf(NoTenant);
    await expect(task.destroy()).rejects.toBeInstanceOf(NoTenant);
    expect(events).toEqual([]);
    expect(await titles()).toEqual(SEEDED);
  });

  it("withTenant refuses a tenant id that is not a string", () => {
    expect(() => withTenant(undefined as unknown as string, () => 1)).toThrow(new TypeError("withTenant takes a tenant id string, not undefined"));
  });
});

/** Tasks whose dependents are the tasks titled with their id: an association with no foreign key constraint, so that another tenant's rows can hold the same key. */
class TaskWithNamesakes extends TenantTask {
  namesakes = hasMany(TenantTask, { foreignKey: "title", dependent: "deleteAll" });
}

const globexRow = async () => (await titles()).find((row) => row["id"] === "b1");
const acmeRow = async () => (await titles()).find((row) => row["id"] === "a1");

/**
 * Each write method, made under tenant acme against globex's row b1 (or its key): what it answers. After each, b1
 * must be as seeded; a write that is refused names the reason.
 */
const WRITES: Record<string, (foreign: TenantTask) => Promise<unknown>> = {
  "record save": (foreign) => {
    foreign.title = "Hijacked";
    return foreign.save();
  },
  "record destroy": (foreign) => foreign.destroy(),
  "record save moving its own row to globex": async () => {
    const own = (await TenantTask.find("a1"))!;
    own.tenantId = "globex";
    return own.save();
  },
  "insert of globex's key": () => TenantTask.insert({ id: "b1", projectId: "p", title: "Hijacked" }),
  "insert for globex": () => TenantTask.insert({ id: "n1", tenantId: "globex", projectId: "p", title: "Planted" }),
  "insertAll skipping duplicates": () => TenantTask.insertAll([{ id: "b1", projectId: "p", title: "Hijacked" }], { onDuplicate: "skip" }),
  upsert: () => TenantTask.upsert({ id: "b1", projectId: "p", title: "Hijacked", done: true }),
  "upsert for globex": () => TenantTask.upsert({ id: "b1", tenantId: "globex", projectId: "p", title: "Hijacked" }),
  upsertAll: () => TenantTask.upsertAll([{ id: "a1", projectId: "p", title: "Acme upserted" }, { id: "b1", projectId: "p", title: "Hijacked" }]),
  "upsertAll by another unique key": () => TenantTask.upsertAll([{ id: "b1", projectId: "p", title: "Hijacked" }], { uniqueBy: ["id"] }),
  "updateAll of every row": () => TenantTask.updateAll({ title: "Hijacked" }),
  "updateAll of globex's key": () => TenantTask.where({ id: "b1" }).updateAll({ title: "Hijacked" }),
  "updateAll of a page": () => TenantTask.order({ id: "desc" }).limit(5).updateAll({ title: "Hijacked" }),
  "updateAll moving rows to globex": () => TenantTask.updateAll({ tenantId: "globex" }),
  "deleteAll of every row": () => TenantTask.deleteAll(),
  "deleteAll of a page": () => TenantTask.order({ id: "desc" }).limit(5).deleteAll(),
  "Statements in a batch": () =>
    batch([TenantTask.toUpsert({ id: "b1", projectId: "p", title: "Hijacked" }), TenantTask.where({ id: "b1" }).toUpdateAll({ done: true }), TenantTask.toDeleteAll()]),
  "dependents' deleteAll": async () => (await TaskWithNamesakes.find("a1"))!.destroy(),
  "children saved with their parent": async () => {
    const parent = (await TaskWithNamesakes.find("a1"))!;
    parent.title = "Parent";
    parent.namesakes().build({ id: "b1", projectId: "p" });
    return parent.save();
  },
};

describe("multiTenancy: no write reads or changes another tenant's row", () => {
  // globex's b1 is titled as acme's a1 is keyed: one of a1's namesakes, in another tenant.
  beforeEach(async () => {
    await env.DB.prepare("UPDATE guide_tasks SET title = 'a1' WHERE id = 'b1'").run();
  });

  for (const [method, write] of Object.entries(WRITES)) {
    it(`${method}: globex's row is unchanged`, async () => {
      const foreign = (await withTenant("globex", () => TenantTask.find("b1")))!;
      const before = await globexRow();
      await withTenant("acme", () => write(foreign)).catch((error: unknown) => {
        expect([TenantMismatch, TypeError, RecordNotUnique].some((type) => error instanceof type), String(error)).toBe(true);
      });
      expect(await globexRow()).toEqual(before);
      expect((await titles()).filter((row) => row["tenant_id"] === "globex")).toEqual([before]);
    });
  }

  it("an upsert updates the tenant's own row, and its ON CONFLICT DO UPDATE carries the tenant", async () => {
    const { events, db } = listen();
    await withDatabase(db, () => withTenant("acme", () => TenantTask.upsert({ id: "a1", projectId: "p", title: "Acme upserted" })));
    expect(events.at(-1)!.sql).toBe(
      `INSERT INTO "guide_tasks" ("id", "tenant_id", "project_id", "title", "done") SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?1) WHERE true ON CONFLICT ("id") DO UPDATE SET "project_id" = excluded."project_id", "title" = excluded."title" WHERE ("tenant_id" = ?2)`,
    );
    expect(events.at(-1)!.params.at(-1)).toBe("acme");
    expect(await acmeRow()).toEqual({ id: "a1", tenant_id: "acme", title: "Acme upserted" });
  });

  it("updateAll refuses to give rows another tenant, naming the Model, method and attribute, before anything is sent; the current tenant is allowed", async () => {
    const { events, db } = listen();
    await withDatabase(db, () =>
      withTenant("acme", async () => {
        await expect(TenantTask.updateAll({ tenantId: "globex" })).rejects.toThrow(
          new TypeError(`TenantTask.updateAll: tenantId "globex" is not the current tenant "acme"; no write gives a row another tenant`),
        );
        expect(() => TenantTask.toUpdateAll({ tenantId: null as never })).toThrow(/TenantTask.updateAll: tenantId null is not the current tenant/);
        expect(events).toEqual([]);
        expect(await TenantTask.updateAll({ tenantId: "acme", title: "Kept" })).toBe(1);
      }),
    );
    expect(await titles()).toEqual([{ ...SEEDED[0], title: "Kept" }, { ...SEEDED[1], title: "a1" }]);
  });

  it("with no tenant open, bulk and set-based writes throw NoTenant before anything is sent", async () => {
    const { events, db } = listen();
    await withDatabase(db, async () => {
      await expect(TenantTask.upsert({ id: "b1", tenantId: "globex", projectId: "p", title: "x" })).rejects.toBeInstanceOf(NoTenant);
      await expect(TenantTask.updateAll({ title: "x" })).rejects.toBeInstanceOf(NoTenant);
      await expect(TenantTask.deleteAll()).rejects.toBeInstanceOf(NoTenant);
    });
    expect(events).toEqual([]);
    expect((await titles()).map((row) => row["tenant_id"])).toEqual(["acme", "globex"]);
  });
});

describe("multiTenancy: values bound before the tenant's condition stay in their places", () => {
  // An ORDER BY fragment is compiled before the hook adds the tenant's condition, so its value is bound first. Were
  // placeholders read in text order, "globex" would fill the tenant's `?` and acme would read globex's rows.
  const attack = sql`${column("title")} = ${"globex"} DESC`;
  const acmeOnly = (tasks: { tenantId: string | null }[]) => expect(tasks.map((task) => task.tenantId)).toEqual(tasks.map(() => "acme"));

  beforeEach(async () => {
    await env.DB.prepare("INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('b2', 'globex', 'p', 'Globex two')").run();
  });

  it("every read path returns the current tenant's rows only", async () => {
    await withTenant("acme", async () => {
      const tasks = TenantTask.order(attack);
      acmeOnly(await tasks.toArray());
      acmeOnly(await tasks.limit(10).offset(0).toArray());
      acmeOnly(await tasks.distinct().toArray());
      expect((await tasks.first())!.tenantId).toBe("acme");
      expect((await tasks.take())!.tenantId).toBe("acme");
      expect((await tasks.findBy({ projectId: "p" }))!.tenantId).toBe("acme");
      expect(await tasks.findBy({ id: "b1" })).toBeNull();
      expect((await tasks.find("a1")).tenantId).toBe("acme");
      await expect(tasks.find("b1")).rejects.toBeInstanceOf(RecordNotFound);
      await expect(tasks.find("a1", "b1")).rejects.toBeInstanceOf(RecordNotFound);
      acmeOnly(await tasks.where({ id: ["a1", "b1", "b2"] }).toArray());
      expect(await tasks.count()).toBe(1);
      expect(await tasks.limit(5).count()).toBe(1);
      expect(await tasks.size()).toBe(1);
      expect(await tasks.where({ id: "b1" }).exists()).toBe(false);
      expect(await tasks.where({ id: "b1" }).hasAny()).toBe(false);
      expect(await tasks.where({ id: ["b1", "b2"] }).isEmpty()).toBe(true);
      expect(await tasks.pluck("tenantId")).toEqual(["acme"]);
      expect(await tasks.limit(3).pluck("title")).toEqual(["Acme one"]);
      const page = await tasks.paginate({ perPage: 5 });
      expect(page.total).toBe(1);
      acmeOnly(page.records);
      acmeOnly((await tasks.paginate({ perPage: 1, page: 1, count: false })).records);
    });
  });

  it("updateAll and deleteAll of an ordered or paged Relation change the current tenant's rows only", async () => {
    await withTenant("acme", async () => {
      expect(await TenantTask.order(attack).limit(10).updateAll({ title: "Taken" })).toBe(1);
      expect(await TenantTask.order(attack).limit(10).deleteAll()).toBe(1);
    });
    expect(await titles()).toEqual([SEEDED[1], { id: "b2", tenant_id: "globex", title: "Globex two" }]);
  });
});
