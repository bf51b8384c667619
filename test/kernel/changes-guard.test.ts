import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, WriteConflict } from "../../src/index.js";
import { defineStatement, installChangesGuard } from "../../src/plugin.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";

// The guard is installed once per module graph: this file checks the batch before and after installing it, in order.
const titles = async () => (await env.DB.prepare("SELECT title FROM locked_documents ORDER BY id").all<{ title: string }>()).results.map((row) => row.title);
const rename = (title: string) => defineStatement({ sql: `UPDATE "locked_documents" SET "title" = ?1`, params: [title], result: "meta", expectedChanges: 1 });
const insert = () => defineStatement({ sql: `INSERT INTO "locked_documents" ("title") VALUES ('Extra')` });

beforeEach(async () => {
  await env.DB.exec("DELETE FROM locked_sections; DELETE FROM locked_documents; INSERT INTO locked_documents (title) VALUES ('Only');");
});

describe("the changes guard of a batch", () => {
  it("until installed, a batch demanding changed rows is refused with TypeError before anything is sent; alone it is still checked", async () => {
    const { db, events } = listen();
    await expect(db.batch([insert(), rename("Both")])).rejects.toThrow(
      new TypeError(
        "db.runAll: a statement demanding expectedChanges in a batch needs the changes guard; call installChangesGuard() (plugin API) where the plugin or statement sets expectedChanges",
      ),
    );
    expect(events).toHaveLength(0);
    expect(await titles()).toEqual(["Only"]);
    expect(await db.run(rename("Alone"))).toMatchObject({ changes: 1 });
    await env.DB.exec("INSERT INTO locked_documents (title) VALUES ('Second')");
    expect(await rejectionOf(db.run(rename("Both")))).toBeInstanceOf(WriteConflict);
  });

  it("a batch without such a statement needs no guard and sends no extra statement", async () => {
    const { db, events } = listen();
    await db.batch([insert(), insert()]);
    expect(events.filter((event) => event.sql.includes("changes()"))).toHaveLength(0);
    expect(await titles()).toEqual(["Only", "Extra", "Extra"]);
  });

  it("once installed, the batch is guarded and rolled back whole when the count differs", async () => {
    installChangesGuard();
    installChangesGuard();
    const { db, events } = listen();
    const error = await rejectionOf(db.batch([insert(), rename("Both")]));
    expect(error).toBeInstanceOf(WriteConflict);
    expect(events.filter((event) => event.sql.includes("changes()"))).toHaveLength(1);
    expect(await titles()).toEqual(["Only"]);
    await connect(env.DB).batch([rename("Renamed"), defineStatement({ sql: "SELECT 1" })]);
    expect(await titles()).toEqual(["Renamed"]);
  });
});
