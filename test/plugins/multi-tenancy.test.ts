import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { NoTenant, RecordflareError, TenantMismatch, withTenant } from "../../src/index.js";
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
