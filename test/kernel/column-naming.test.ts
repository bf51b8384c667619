/** Column naming: attribute names to column names and back. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { column, Model, sql, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";

beforeEach(resetDatabase);

describe("column naming", () => {
  class NamingExample extends Model({
    id: "string",
    createdAt: "datetime",
    htmlURL: "string",
    userID: "string",
    sha256Hash: "string",
    title: { type: "string", column: "legacy_title" },
  }) {
    static override binding = "DB";
  }

  it("maps camelCase attributes to snake_case columns; a run of capitals is one word", () => {
    const { sql: text } = NamingExample.where({
      createdAt: "2024-01-01",
      htmlURL: "https://example.com",
      userID: "u1",
      sha256Hash: "abc",
    }).toSql();
    expect(text).toMatch(/FROM "?naming_examples"?/);
    for (const name of ["created_at", "html_url", "user_id", "sha256_hash"]) expect(text).toMatch(new RegExp(`"?\\b${name}\\b"? = \\?`));
    expect(User.where({ createdAt: "2024-01-01", bornAt: "2000-01-01" }).toSql().sql).toMatch(/"?created_at"? = \?1.*"?born_at"? = \?2/);
  });

  it("reads and writes those columns in D1", async () => {
    const created = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    const { db, events } = listen();
    const record = await db.model(NamingExample).create({
      createdAt: created,
      htmlURL: "https://example.com/a",
      userID: "user-1",
      sha256Hash: "e3b0c442",
      title: "Legacy",
    });
    for (const name of ["created_at", "html_url", "user_id", "sha256_hash", "legacy_title"]) expect(events[0]!.sql).toContain(name);
    const row = await env.DB.prepare("SELECT * FROM naming_examples WHERE id = ?").bind(record.id).first();
    expect(row).toEqual({
      id: record.id,
      created_at: created.toISOString(),
      html_url: "https://example.com/a",
      user_id: "user-1",
      sha256_hash: "e3b0c442",
      legacy_title: "Legacy",
    });
    const found = await NamingExample.findBy({ htmlURL: "https://example.com/a", userID: "user-1", sha256Hash: "e3b0c442" });
    expect(found?.id).toBe(record.id);
    expect(found?.createdAt?.getTime()).toBe(created.getTime());
    expect(found?.title).toBe("Legacy");
  });

  it("a { column } declaration maps the attribute to that column everywhere", async () => {
    const { db, events } = listen();
    const Examples = db.model(NamingExample);
    const first = await Examples.create({ title: "b" });
    await Examples.create({ title: "a" });
    await env.DB.prepare("INSERT INTO naming_examples (id, legacy_title) VALUES ('raw', 'c')").run();

    // Conditions and ordering name the attribute; the SQL names the column.
    expect(Examples.where({ title: "a" }).order({ title: "desc" }).toSql().sql).toMatch(
      /WHERE "?legacy_title"? = \?1 ORDER BY "?legacy_title"? DESC/,
    );
    expect(await Examples.order({ title: "asc" }).pluck("title")).toEqual(["a", "b", "c"]);
    expect((await Examples.findBy({ title: "c" }))?.id).toBe("raw");
    expect(await Examples.where({ title: ["a", "c"] }).count()).toBe(2);

    // `column()` in an sql fragment yields the column.
    const fragment = Examples.where(sql`${column("title")} >= ${"b"}`);
    expect(fragment.toSql().sql).toMatch(/legacy_title/);
    expect(await fragment.count()).toBe(2);

    // Updates write the column.
    events.length = 0;
    expect(await first.update({ title: "B" })).toBe(true);
    expect(events.map((event) => event.sql).join("\n")).toMatch(/UPDATE "?naming_examples"? SET "?legacy_title"? = \?1/);
    expect(await env.DB.prepare("SELECT legacy_title FROM naming_examples WHERE id = ?").bind(first.id).first("legacy_title")).toBe("B");

    // The attribute name is not a column.
    expect(() => Examples.where({ legacy_title: "a" } as never)).toThrow(UnknownAttribute);
  });
});
