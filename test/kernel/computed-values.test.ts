/**
 * A value the database computes on a record's INSERT: a `write:plan` hook sets an `sql` fragment among a create's
 * values, which the INSERT evaluates in place and the record reads from the row it returns. The slug plugin of
 * test/fixtures, written against the public plugin API, is built on it.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, auditLog, batch, connect, defineApplicationRecord, UnconfirmedWrite, withDatabase } from "../../src/index.js";
import { definePlugin, installWritePlans, sql } from "../../src/plugin.js";
import { slugs } from "../fixtures/slug-plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { moneyType } from "../helpers/guide-plugins.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { failingFirstTries } from "../helpers/transient-d1.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { pagesSchema } from "../models/pages-and-shelves.js";

class SluggedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(moneyType, slugs);
  }
}

class Page extends defineApplicationRecord(pagesSchema, SluggedBase)("pages") {}

beforeEach(resetDatabase);

describe("the slug plugin: a unique slug the database computes as it inserts the row", () => {
  it("derives the slug from the title, numbered past those taken, and the record reads it back", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      expect((await Page.createOrThrow({ title: "Hello, World!" })).slug).toBe("hello-world");
      expect((await Page.createOrThrow({ title: "Hello world" })).slug).toBe("hello-world-2");
      await Page.insertAll([{ title: "Hello World 9", slug: "hello-world-9" }, { title: "Hello World x", slug: "hello-world-extra" }]);
      const page = await Page.createOrThrow({ title: "hello WORLD" });
      expect(page.slug).toBe("hello-world-10");
      expect(page.isChanged()).toBe(false);
      expect((await Page.find(page.id)).slug).toBe("hello-world-10");
    });
    // The fragment is compiled in place of the value, its own values bound among the INSERT's.
    expect(sqls()[0]).toMatch(/^INSERT INTO "pages" \("title", "hits", "slug"\) VALUES \(\?1, \?2, \(CASE WHEN NOT EXISTS \(SELECT 1 FROM "pages" WHERE "slug" = \?3\)/);
  });

  it("gives each record of one batch its own slug, in one round trip", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const pages = ["Intro", "Intro!", "intro"].map((title) => Page.build({ title }));
    await withDatabase(connect(binding), () => batch(pages.map((page) => page.toSave())));
    expect(roundTrips).toHaveLength(1);
    expect(pages.map((page) => page.slug)).toEqual(["intro", "intro-2", "intro-3"]);
  });

  it("keeps a slug the record was given", async () => {
    expect((await Page.createOrThrow({ title: "Hello", slug: "custom" })).slug).toBe("custom");
  });
});

describe("a computed value on a record's INSERT", () => {
  /** Writes each new user's name in capitals, computed by the database. */
  const shouting = definePlugin({
    name: "shouting",
    setup: installWritePlans,
    hooks: {
      "write:plan"({ kind, record, values }) {
        if (record !== undefined && kind === "insert") values.set("name", sql`upper(${values.get("name")})`);
      },
    },
  });
  class Shouter extends ApplicationRecord("users") {
    static {
      this.use(shouting);
    }
  }

  it("is sent once after a transient error, even with a generated key: computed again, it may differ", async () => {
    const { binding, calls } = failingFirstTries(env.DB, "after");
    const error = await withDatabase(connect(binding, { retries: { delayMs: 0 } }), () => rejectionOf(Shouter.create({ name: "ada" })));
    expect(error).toBeInstanceOf(UnconfirmedWrite);
    expect(calls).toHaveLength(1);
    expect((await env.DB.prepare("SELECT name FROM users").all()).results).toEqual([{ name: "ADA" }]);
  });

  it("is written, and read back, through a record's create", async () => {
    const user = await Shouter.createOrThrow({ name: "bob" });
    expect(user.name).toBe("BOB");
  });
});

describe("a key the INSERT computes", () => {
  /** Numbers each new page ten past the highest key, in the database. */
  const numbering = definePlugin({
    name: "numbering",
    setup: installWritePlans,
    hooks: {
      "write:plan"({ kind, record, values }) {
        if (record !== undefined && kind === "insert") values.set("id", sql`(SELECT coalesce(max("id"), 0) + 10 FROM "pages")`);
      },
    },
  });
  class NumberedBase extends ActiveRecord {
    static override binding = "DB";
    static {
      this.use(moneyType, numbering, auditLog);
    }
  }
  class NumberedPage extends defineApplicationRecord(pagesSchema, NumberedBase)("pages") {}

  it("is the key the statements after the write read (an audit entry's), not the fragment computed again", async () => {
    const pages = [await NumberedPage.createOrThrow({ title: "a" }), await NumberedPage.createOrThrow({ title: "b" })];
    expect(pages.map((page) => page.id)).toEqual([10, 20]);
    const { results } = await env.DB.prepare("SELECT record_key FROM audit_log_entries ORDER BY id").all();
    expect(results).toEqual([{ record_key: 10 }, { record_key: 20 }]);
  });
});
