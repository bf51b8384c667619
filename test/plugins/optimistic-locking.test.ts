import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { RecordflareError, StaleObject } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { LockedDocument, LockedSection } from "../models/locked-documents.js";

const rowOf = (id: number | null) => env.DB.prepare("SELECT title, lock_version FROM locked_documents WHERE id = ?").bind(id).first();
const sectionCount = async (id: number | null) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM locked_sections WHERE locked_document_id = ?").bind(id).first<{ n: number }>())!.n;

/** A document saved once, and a second copy of it loaded before the first copy saves again (so it goes stale). */
async function twoCopies(title = "Draft") {
  const document = await LockedDocument.createOrThrow({ title });
  const stale = (await LockedDocument.find(document.id))!;
  document.title = `${title}, edited`;
  await document.saveOrThrow();
  return { document, stale };
}

beforeEach(async () => {
  await env.DB.exec("DELETE FROM locked_sections; DELETE FROM locked_documents;");
});

describe("optimisticLocking", () => {
  it("writes lock version 0 for a new record, and moves it on by one with each UPDATE checked against the version loaded", async () => {
    const { db, events, LockedDocument: Documents } = listen({ models: { LockedDocument } });
    const document = await Documents.createOrThrow({ title: "Draft" });
    expect(events[0]!.sql).toBe(`INSERT INTO "locked_documents" ("title", "lock_version") VALUES (?1, ?2) RETURNING *`);
    expect(document.lockVersion).toBe(0);
    document.title = "Final";
    expect(await document.save()).toBe(true);
    expect(events[1]!.sql).toBe(`UPDATE "locked_documents" SET "title" = ?1, "lock_version" = ?2 WHERE "id" = ?3 AND ("lock_version" = ?4)`);
    expect(events[1]!.params).toEqual(["Final", 1, document.id, 0]);
    expect(document.lockVersion).toBe(1);
    expect(document.isChanged()).toBe(false);
    expect(await rowOf(document.id)).toEqual({ title: "Final", lock_version: 1 });
    // The record knows the version it wrote: it saves again, checked against 1.
    document.title = "Final, again";
    await document.saveOrThrow();
    expect(events.at(-1)!.params).toEqual(["Final, again", 2, document.id, 1]);
    expect(await rowOf(document.id)).toEqual({ title: "Final, again", lock_version: 2 });
    expect(await db.model(LockedDocument).count()).toBe(1);
  });

  it("a save with nothing to change sends nothing and keeps the version", async () => {
    const { events, LockedDocument: Documents } = listen({ models: { LockedDocument } });
    const document = await Documents.createOrThrow({ title: "Draft" });
    expect(await document.save()).toBe(true);
    expect(events).toHaveLength(1);
    expect(document.lockVersion).toBe(0);
  });

  it("a stale save throws StaleObject naming the Model and key, writes nothing, and keeps the record's changes", async () => {
    const { stale, document } = await twoCopies();
    stale.title = "Lost update";
    const { events, db } = listen();
    const error = await rejectionOf(db.model(LockedDocument).find(document.id).then(() => stale.save()));
    expect(error).toBeInstanceOf(StaleObject);
    expect(error).toBeInstanceOf(RecordflareError);
    expect(error.message).toBe(
      `LockedDocument with id ${document.id} is stale and was not saved: its row no longer has lockVersion 0 (another save moved it on, or the row was deleted)`,
    );
    expect(await rowOf(document.id)).toEqual({ title: "Draft, edited", lock_version: 1 });
    expect(stale.title).toBe("Lost update");
    expect(stale.lockVersion).toBe(0);
    expect(stale.changed()).toEqual(["title"]);
    expect(events.some((event) => event.sql.includes("changes()"))).toBe(false);
  });

  it("saveOrThrow throws StaleObject too, and a reloaded record saves", async () => {
    const { stale, document } = await twoCopies();
    stale.title = "Second try";
    await expect(stale.saveOrThrow()).rejects.toBeInstanceOf(StaleObject);
    await stale.reload();
    stale.title = "Second try";
    await stale.saveOrThrow();
    expect(await rowOf(document.id)).toEqual({ title: "Second try", lock_version: 2 });
  });

  it("the DELETE is checked against the version loaded: a stale destroy throws StaleObject and deletes nothing", async () => {
    const { stale, document } = await twoCopies();
    const error = await rejectionOf(stale.destroy());
    expect(error).toBeInstanceOf(StaleObject);
    expect(error.message).toContain(`LockedDocument with id ${document.id} is stale and was not destroyed`);
    expect(stale.isDestroyed()).toBe(false);
    expect(await rowOf(document.id)).not.toBeNull();
    await expect(stale.destroyOrThrow()).rejects.toBeInstanceOf(StaleObject);

    const fresh = (await LockedDocument.find(document.id))!;
    await fresh.destroyOrThrow();
    expect(fresh.isDestroyed()).toBe(true);
    expect(await rowOf(document.id)).toBeNull();
  });

  it("a fresh DELETE sends the version it checks: alone with no guard, with its dependents each followed by a guard", async () => {
    const { events, LockedDocument: Documents } = listen({ models: { LockedDocument } });
    const document = await Documents.createOrThrow({ title: "Gone soon" });
    await document.destroyOrThrow();
    expect(events.at(-1)!.sql).toBe(`DELETE FROM "locked_documents" WHERE "id" = ?1 AND ("lock_version" = ?2)`);
    expect(events.at(-1)!.params).toEqual([document.id, 0]);
    expect(events.at(-1)!.batched).toBe(false);

    const owner = await Documents.createOrThrow({ title: "With a section" });
    await LockedSection.createOrThrow({ lockedDocumentId: owner.id!, heading: "Only" });
    events.length = 0;
    await owner.destroyOrThrow();
    const guard = (index: number) => `SELECT json_extract('{}', CASE changes() WHEN 1 THEN '$' ELSE 'recordflare changes guard ${index}' END) AS "guard"`;
    expect(events.filter((event) => !event.sql.startsWith("SELECT *")).map((event) => event.sql)).toEqual([
      `DELETE FROM "locked_sections" WHERE "id" = ?1 AND ("lock_version" = ?2)`,
      guard(0),
      `DELETE FROM "locked_documents" WHERE "id" = ?1 AND ("lock_version" = ?2)`,
      guard(1),
    ]);
  });

  it("db.batch([fresh save, stale save]) throws StaleObject and writes neither: a guard after each checked write rolls the batch back", async () => {
    const { stale, document } = await twoCopies("Stale");
    const other = await LockedDocument.createOrThrow({ title: "Fresh" });
    other.title = "Fresh, edited";
    stale.title = "Lost";
    const { db, events } = listen();
    const error = await rejectionOf(db.batch([other.toSave(), stale.toSave()]));
    expect(error).toBeInstanceOf(StaleObject);
    expect(error.message).toContain(`LockedDocument with id ${document.id} is stale`);
    expect(events.map((event) => event.sql)).toEqual([
      `UPDATE "locked_documents" SET "title" = ?1, "lock_version" = ?2 WHERE "id" = ?3 AND ("lock_version" = ?4)`,
      `SELECT json_extract('{}', CASE changes() WHEN 1 THEN '$' ELSE 'recordflare changes guard 0' END) AS "guard"`,
      `UPDATE "locked_documents" SET "title" = ?1, "lock_version" = ?2 WHERE "id" = ?3 AND ("lock_version" = ?4)`,
      `SELECT json_extract('{}', CASE changes() WHEN 1 THEN '$' ELSE 'recordflare changes guard 1' END) AS "guard"`,
    ]);
    expect(await rowOf(other.id)).toEqual({ title: "Fresh", lock_version: 0 });
    expect(await rowOf(document.id)).toEqual({ title: "Stale, edited", lock_version: 1 });
    // Both records are put back as they were: the fresh one saves afterwards.
    expect(other.lockVersion).toBe(0);
    expect(other.changed()).toEqual(["title"]);
    await db.batch([other.toSave()]);
    expect(await rowOf(other.id)).toEqual({ title: "Fresh, edited", lock_version: 1 });
  });

  it("a stale destroy in a batch rolls back the other writes of the batch", async () => {
    const { stale, document } = await twoCopies();
    const newcomer = LockedDocument.build({ title: "Newcomer" });
    const error = await rejectionOf(listen().db.batch([newcomer.toSave(), stale.toDestroy()]));
    expect(error).toBeInstanceOf(StaleObject);
    expect(newcomer.isNewRecord()).toBe(true);
    expect(stale.isDestroyed()).toBe(false);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM locked_documents").first<{ n: number }>())!.n).toBe(1);
    expect(await rowOf(document.id)).not.toBeNull();
  });

  it("a stale save with children writes no child", async () => {
    const { stale, document } = await twoCopies();
    stale.title = "With sections";
    stale.lockedSections().build({ heading: "Intro" });
    stale.lockedSections().build({ heading: "Body" });
    const error = await rejectionOf(stale.save());
    expect(error).toBeInstanceOf(StaleObject);
    expect(await sectionCount(document.id)).toBe(0);
    expect(await rowOf(document.id)).toEqual({ title: "Draft, edited", lock_version: 1 });
  });

  it("a stale destroy with dependents destroys none of them", async () => {
    const { stale, document } = await twoCopies();
    await LockedSection.createOrThrow({ lockedDocumentId: document.id!, heading: "Kept" });
    await expect(stale.destroy()).rejects.toBeInstanceOf(StaleObject);
    expect(await sectionCount(document.id)).toBe(1);
    const fresh = (await LockedDocument.find(document.id))!;
    await fresh.destroyOrThrow();
    expect(await sectionCount(document.id)).toBe(0);
    expect(await rowOf(document.id)).toBeNull();
  });

  it("a record whose row was deleted is stale too", async () => {
    const document = await LockedDocument.createOrThrow({ title: "Deleted elsewhere" });
    await env.DB.prepare("DELETE FROM locked_documents WHERE id = ?").bind(document.id).run();
    document.title = "Too late";
    await expect(document.save()).rejects.toBeInstanceOf(StaleObject);
    await expect(document.destroy()).rejects.toBeInstanceOf(StaleObject);
  });
});

describe("optimisticLocking: the version the app assigned", () => {
  it("a stale version carried by a form is checked, not the loaded one: the save throws StaleObject and the newer row is kept", async () => {
    const { document } = await twoCopies();
    const { events, LockedDocument: Documents } = listen({ models: { LockedDocument } });
    const fresh = (await Documents.find(document.id))!;
    // The form was rendered at version 0 (a hidden field, sent as text); the row has moved on to 1 since.
    const error = await rejectionOf(fresh.update({ title: "From an old form", lockVersion: "0" as never }));
    expect(error).toBeInstanceOf(StaleObject);
    expect(error.message).toBe(
      `LockedDocument with id ${document.id} is stale and was not saved: its row no longer has lockVersion 0 (another save moved it on, or the row was deleted)`,
    );
    expect(events.at(-1)!.sql).toBe(`UPDATE "locked_documents" SET "title" = ?1, "lock_version" = ?2 WHERE "id" = ?3 AND ("lock_version" = ?4)`);
    expect(events.at(-1)!.params).toEqual(["From an old form", 1, document.id, 0]);
    expect(await rowOf(document.id)).toEqual({ title: "Draft, edited", lock_version: 1 });
    // The record keeps what the app assigned, so that the form can be shown again with its error.
    expect(fresh.lockVersion).toBe(0);
    expect(fresh.changed().sort()).toEqual(["lockVersion", "title"]);
  });

  it("an assigned current version saves over an older loaded one, and moves on from it", async () => {
    const { stale, document } = await twoCopies();
    const { events } = listen();
    stale.title = "Seen at version 1";
    stale.lockVersion = 1;
    await stale.saveOrThrow();
    expect(await rowOf(document.id)).toEqual({ title: "Seen at version 1", lock_version: 2 });
    expect(stale.lockVersion).toBe(2);
    expect(events).toEqual([]);
  });

  it("an assigned version one below the loaded one is checked and written too", async () => {
    const { document } = await twoCopies();
    const { events, LockedDocument: Documents } = listen({ models: { LockedDocument } });
    const fresh = (await Documents.find(document.id))!;
    fresh.assign({ title: "From an old form", lockVersion: 0 });
    await expect(fresh.save()).rejects.toBeInstanceOf(StaleObject);
    expect(events.at(-1)!.sql).toBe(`UPDATE "locked_documents" SET "title" = ?1, "lock_version" = ?2 WHERE "id" = ?3 AND ("lock_version" = ?4)`);
    expect(events.at(-1)!.params).toEqual(["From an old form", 1, document.id, 0]);
    expect(await rowOf(document.id)).toEqual({ title: "Draft, edited", lock_version: 1 });
  });

  it("a destroy checks the assigned version too", async () => {
    const { document } = await twoCopies();
    const fresh = (await LockedDocument.find(document.id))!;
    fresh.lockVersion = 0;
    const error = await rejectionOf(fresh.destroy());
    expect(error).toBeInstanceOf(StaleObject);
    expect(error.message).toContain("was not destroyed: its row no longer has lockVersion 0");
    expect(await rowOf(document.id)).not.toBeNull();
    fresh.lockVersion = 1;
    await fresh.destroyOrThrow();
    expect(await rowOf(document.id)).toBeNull();
  });

  it("a null version assigned is refused with a TypeError naming the Model and attribute, before anything is sent", async () => {
    const document = await LockedDocument.createOrThrow({ title: "Draft" });
    const { events, LockedDocument: Documents } = listen({ models: { LockedDocument } });
    const copy = (await Documents.find(document.id))!;
    events.length = 0;
    copy.title = "No version";
    copy.lockVersion = null as never;
    const message = "LockedDocument.lockVersion: the version to check is null; assign the version the record was loaded with";
    await expect(copy.save()).rejects.toThrow(new TypeError(message));
    await expect(copy.destroy()).rejects.toThrow(new TypeError(message));
    expect(events.filter((event) => !event.sql.startsWith("SELECT"))).toEqual([]);
    expect(copy.lockVersion).toBeNull();
    expect(await rowOf(document.id)).toEqual({ title: "Draft", lock_version: 0 });
  });
});
