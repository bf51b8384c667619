/**
 * A versions plugin (a paper trail) written from outside, against the public plugin API only
 * (test/fixtures/versions-plugin.ts): every kind of write records a version of each row it wrote in the write's own
 * D1 batch, with the key the database assigned and the row as the write left it.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, batch, belongsTo, defineApplicationRecord, hasMany, multiTenancy, withDatabase, withTenant } from "../../src/index.js";
import { versions } from "../fixtures/versions-plugin.js";
import { moneyType } from "../helpers/guide-plugins.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { recordingRoundTrips } from "../helpers/queries.js";
import { connect } from "../../src/index.js";
import { pagesSchema } from "../models/pages-and-shelves.js";

class VersionedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(moneyType, versions);
  }
}

const Versioned = defineApplicationRecord(pagesSchema, VersionedBase);

class Shelf extends Versioned("shelves") {
  pages = hasMany(Page, { foreignKey: "shelfId", dependent: "destroy" });
}
class Page extends Versioned("pages") {
  shelf = belongsTo(Shelf, { foreignKey: "shelfId", optional: true });
}
/** Shelves whose pages stay when they go: a destroy nullifies their foreign key, one set-based UPDATE. */
class Rack extends Versioned("shelves") {
  pages = hasMany(Page, { foreignKey: "shelfId", dependent: "nullify" });
}

type Version = [itemType: string, itemId: unknown, event: string, object: Record<string, unknown> | null];

async function versionRows(): Promise<Version[]> {
  const { results } = await env.DB.prepare("SELECT item_type, item_id, event, object FROM versions ORDER BY id").all<Record<string, unknown>>();
  return results.map((row) => [row["item_type"] as string, row["item_id"], row["event"] as string, row["object"] === null ? null : JSON.parse(row["object"] as string)]);
}

/** A page's row as JSON, as its version holds it. */
const pageRow = (id: number, title: string, more: Record<string, unknown> = {}) => ({ id, shelf_id: null, title, slug: null, price: null, hits: 0, size: null, tenant_id: null, ...more });

beforeEach(resetDatabase);

describe("a versions plugin written against the public plugin API", () => {
  it("records every kind of write, with the key the database assigned and the row as written", async () => {
    const page = await Page.createOrThrow({ title: "One", price: "1.50" });
    page.title = "Uno";
    await page.saveOrThrow();
    await Page.insert({ title: "Two" });
    await Page.insertAll([{ title: "Three" }, { title: "Four" }]);
    await Page.upsertAll([{ title: "Three", hits: 3 }], { uniqueBy: ["title"] });
    // updateAll's rows are read before it (it may move them out of its WHERE): the plugin writes its values in.
    await Page.where({ title: "Four" }).updateAll({ hits: 7, price: "2.00" });
    await Page.where({ title: "Two" }).deleteAll();
    await page.destroyOrThrow();
    expect(await versionRows()).toEqual([
      ["Page", 1, "create", pageRow(1, "One", { price: 150 })],
      ["Page", 1, "update", pageRow(1, "Uno", { price: 150 })],
      ["Page", 2, "insert", pageRow(2, "Two")],
      ["Page", 3, "insertAll", pageRow(3, "Three")],
      ["Page", 4, "insertAll", pageRow(4, "Four")],
      ["Page", 3, "upsertAll", pageRow(3, "Three", { hits: 3 })],
      ["Page", 4, "updateAll", pageRow(4, "Four", { hits: 7, price: 200 })],
      ["Page", 2, "deleteAll", null],
      ["Page", 1, "destroy", null],
    ]);
  });

  it("records the writes of a batch, of dependents and of a nullify, each in the write's own round trip", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const db = connect(binding);
    await withDatabase(db, async () => {
      const shelf = await Shelf.createOrThrow({ name: "Top" });
      const page = Page.build({ title: "Kept", shelfId: shelf.id });
      roundTrips.length = 0;
      await batch([page.toSave(), Shelf.build({ name: "Low" }).toSave()]);
      expect(roundTrips).toHaveLength(1);
      const rack = await Rack.findByOrThrow({ name: "Low" });
      await Page.where({ id: page.id }).updateAll({ shelfId: rack.id });
      const top = await Shelf.findByOrThrow({ name: "Top" });
      roundTrips.length = 0;
      await rack.destroyOrThrow();
      await top.destroyOrThrow();
      // The nullify with the version it reads before it, the DELETE with its version: one batch. The other destroy
      // reads its dependents (none now), then sends its DELETE with its version.
      expect(roundTrips.map((trip) => trip.map((text) => text.split(" ", 3).join(" ")))).toEqual([
        ['INSERT INTO "versions"', 'UPDATE "pages" SET', 'DELETE FROM "shelves"', 'INSERT INTO "versions"'],
        ['SELECT * FROM'],
        ['DELETE FROM "shelves"', 'INSERT INTO "versions"'],
      ]);
    });
    expect((await versionRows()).slice(1)).toEqual([
      ["Page", 1, "create", pageRow(1, "Kept", { shelf_id: 1 })],
      ["Shelf", 2, "create", { id: 2, name: "Low" }],
      ["Page", 1, "updateAll", pageRow(1, "Kept", { shelf_id: 2 })],
      ["Page", 1, "nullify", pageRow(1, "Kept")],
      ["Rack", 2, "destroy", null],
      ["Shelf", 1, "destroy", null],
    ]);
  });

  it("leaves no version of a write that failed, and no write whose version failed", async () => {
    await Page.createOrThrow({ title: "Taken" });
    await env.DB.exec("DELETE FROM versions");
    expect(await rejectionOf(Page.create({ title: "Taken" }))).toBeDefined();
    expect(await rejectionOf(Page.insertAll([{ title: "New" }, { title: "Taken" }]))).toBeDefined();
    expect(await versionRows()).toEqual([]);
    await env.DB.exec("DROP TABLE versions");
    expect(await rejectionOf(Page.create({ title: "Unversioned" }))).toBeDefined();
    expect(await Page.where({ title: "Unversioned" }).count()).toBe(0);
  });

  it("records the rows of the tenant, beside multiTenancy's narrowing", async () => {
    class TenantBase extends ActiveRecord {
      static override binding = "DB";
      static {
        this.use(multiTenancy(), versions);
      }
    }
    class TenantPage extends defineApplicationRecord(pagesSchema, TenantBase)("pages") {}
    await withTenant("acme", () => TenantPage.insertAll([{ title: "A" }, { title: "B" }]));
    await withTenant("globex", () => TenantPage.insertAll([{ title: "C" }]));
    await env.DB.exec("DELETE FROM versions");
    expect(await withTenant("acme", () => TenantPage.updateAll({ hits: 1 }))).toBe(2);
    expect((await versionRows()).map(([, id, event]) => [id, event])).toEqual([
      [1, "updateAll"],
      [2, "updateAll"],
    ]);
  });
});
