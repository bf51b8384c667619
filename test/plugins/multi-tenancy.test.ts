import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { column, NoTenant, RecordflareError, RecordNotFound, sql, TenantMismatch, withTenant } from "../../src/index.js";
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
