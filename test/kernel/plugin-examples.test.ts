/**
 * The plugin examples of the guide ("Writing a plugin", in helpers/guide-plugins.ts), run against real D1. If
 * one of these tests fails, the guide's example is wrong: fix the guide with the code.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  abort,
  ActiveRecord,
  Base,
  idGeneration,
  timestamps,
  connect,
  defineApplicationRecord,
  Model,
  RecordInvalid,
  softDelete,
  withDatabase,
} from "../../src/index.js";
import { attrReadonly, type AuditEntry, auditIgnore, auditLog, email, readonlyAttributes, trimNames } from "../helpers/guide-plugins.js";
import { countRows, listen } from "../helpers/queries.js";

// ---- the app of the examples -----------------------------------------------------------------------------

const schema = {
  articles: {
    id: { type: "string", null: false, generateId: true },
    title: { type: "string", null: false },
    secretNote: "string",
    deletedAt: "datetime",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
} as const;

const audit: AuditEntry[] = [];

class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(
      readonlyAttributes,
      email,
      auditLog((entry) => {
        audit.push(entry);
      }),
    );
  }
}

const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

class Article extends ApplicationRecord("articles") {
  static {
    this.use(softDelete);
    auditIgnore(this, "updatedAt");
  }
}

/** A subclass that declares more: the parent's state is copied, never changed. */
class ReviewedArticle extends Article {
  static {
    attrReadonly(this, "title");
  }
}

/** Articles whose title is an address, checked by the guide's registered `email` validator. */
class Invitation extends ApplicationRecord("articles") {
  static {
    this.validates("title", { email: { domain: "example.com" } });
  }
}

/**
 * Entries kept in a table, by a Model outside the audited base (so the log does not audit itself); not the built-in
 * auditLog's table (migration 0073), whose entries are written in the write's own batch.
 */
class AuditLogEntry extends Model({
  id: { type: "string", null: false },
  model: { type: "string", null: false },
  recordId: "string",
  action: { type: "string", null: false },
  changeset: "json",
  createdAt: "datetime",
  updatedAt: "datetime",
}) {
  static override tableName = "callback_audit_entries";
}

beforeAll(async () => {
  await env.DB.prepare(
    `CREATE TABLE articles (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, secret_note TEXT, deleted_at DATETIME,
     created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  ).run();
  await env.DB.prepare(
    `CREATE TABLE callback_audit_entries (id TEXT PRIMARY KEY NOT NULL, model TEXT NOT NULL, record_id TEXT, action TEXT NOT NULL,
     changeset TEXT, created_at DATETIME, updated_at DATETIME)`,
  ).run();
});

/** The users table of test/fixtures/migrations, as far as the examples below need it. */
const usersSchema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
} as const;

describe("smaller bundles: a base on the kernel with chosen plugins", () => {
  class ApplicationBase extends Base {
    static override binding = "DB";
    static {
      this.use(idGeneration, timestamps); // generated UUID v7 keys and createdAt/updatedAt, nothing else
    }
  }

  const ApplicationRecord = defineApplicationRecord(usersSchema, ApplicationBase);
  class User extends ApplicationRecord("users") {}

  it("creates and finds with generated keys and timestamps, and has no other feature", async () => {
    const user = await User.create({ name: "Ada" });
    expect(user.isPersisted()).toBe(true);
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(user.createdAt).toBeInstanceOf(Date);
    const found = await User.find(user.id);
    expect(found.name).toBe("Ada");
    expect(found.updatedAt.getTime()).toBe(user.createdAt.getTime());
    expect("validates" in User).toBe(false);
    expect("paginate" in User).toBe(false);
  });
});

describe("plugin shape", () => {
  class ShapeBase extends ActiveRecord {
    static override binding = "DB";
    static {
      this.use(trimNames);
    }
  }

  const ShapeRecord = defineApplicationRecord(usersSchema, ShapeBase);

  class Author extends ShapeRecord("users") {
    static {
      this.hook("record:beforeSave", ({ record }) => {
        if (record.name === "root") throw abort("reserved name");
      });
    }
  }

  it("runs the plugin's hook and relation method, and a Model's own hook", async () => {
    expect(Author.build({ name: "  Ada  " }).name).toBe("Ada");
    const sql = (Author as unknown as { newestFirst(): { toSql(): { sql: string } } }).newestFirst().toSql().sql;
    expect(sql).toBe(`SELECT * FROM "users" ORDER BY "created_at" DESC`);
    const root = await Author.create({ name: " root " });
    expect(root.isNewRecord()).toBe(true);
    expect(root.abortReason).toBe("reserved name");
  });
});

describe("soft delete", () => {
  it("stamps deletedAt instead of deleting, and leaves stamped rows out of queries", async () => {
    const { db, events } = listen();
    await withDatabase(db, async () => {
      const kept = await Article.createOrThrow({ title: "Kept" });
      const gone = await Article.createOrThrow({ title: "Gone" });
      events.length = 0;
      await gone.destroyOrThrow();
      expect(gone.isDestroyed()).toBe(true);
      expect(gone.deletedAt).toBeInstanceOf(Date);
      expect(events.map((e) => e.sql)).toEqual([`UPDATE "articles" SET "deleted_at" = ?1, "updated_at" = ?2 WHERE "id" = ?3`]);

      expect(await Article.pluck("title")).toEqual(["Kept"]);
      expect(await Article.count()).toBe(1);
      expect((await Article.paginate()).total).toBe(1);
      expect(Article.where({ title: "Gone" }).toSql().sql).toBe(`SELECT * FROM "articles" WHERE "title" = ?1 AND "deleted_at" IS NULL`);
      expect(await Article.findBy({ title: "Gone" })).toBeNull();
      expect(await Article.exists({ title: "Gone" })).toBe(false);
      await expect(Article.find(gone.id)).rejects.toThrow("no record");
      expect((await Article.first())!.id).toBe(kept.id);

      // The trash.
      expect(await (Article as unknown as { onlyDeleted(): typeof Article }).onlyDeleted().pluck("title")).toEqual(["Gone"]);
      // The row is still there.
      expect(await countRows("articles")).toBe(2);
    });
  });

  it("destroys a never-saved record as usual", async () => {
    const draft = await withDatabase(connect(env.DB), async () => {
      const record = Article.build({ title: "Draft" });
      await record.destroy();
      return record;
    });
    expect(draft.isDestroyed()).toBe(true);
  });
});

describe("audit log", () => {
  it("reports saves with their changes, filtered and ignored attributes handled, and destroys", async () => {
    audit.length = 0;
    const article = await Article.createOrThrow({ title: "Draft", secretNote: "s3" });
    expect(audit).toEqual([
      {
        model: "Article",
        recordId: article.id,
        action: "create",
        changes: {
          id: [null, article.id],
          title: [null, "Draft"],
          secretNote: ["[FILTERED]", "[FILTERED]"],
          createdAt: [null, article.createdAt],
        },
      },
    ]);
    await article.update({ title: "Final" });
    expect(audit[1]).toEqual({ model: "Article", recordId: article.id, action: "update", changes: { title: ["Draft", "Final"] } });
    await article.save(); // nothing changed: no entry
    expect(audit).toHaveLength(2);
    const stray = Article.build({ title: "Stray" });
    await stray.destroy();
    expect(audit[2]).toEqual({ model: "Article", recordId: stray.id, action: "destroy", changes: {} });
  });

  it("can keep its entries in a table through a Model outside the audited base", async () => {
    const Audited = defineApplicationRecord(
      schema,
      class extends ActiveRecord {
        static override binding = "DB";
        static {
          this.use(
            auditLog(async (entry) => {
              const { model, recordId, action, changes } = entry;
              await AuditLogEntry.create({ model, recordId: String(recordId), action, changeset: changes });
            }),
          );
        }
      },
    );
    class Page extends Audited("articles") {
      static override tableName = "articles";
    }
    await withDatabase(connect(env.DB), async () => {
      const page = await Page.createOrThrow({ title: "Logged" });
      const entries = await AuditLogEntry.where({ recordId: page.id }).toArray();
      expect(entries.map((e) => [e.model, e.action])).toEqual([["Page", "create"]]);
      expect((entries[0]!.changeset as Record<string, unknown>)["title"]).toEqual([null, "Logged"]);
    });
  });
});

describe("readonly attributes with per-Model state", () => {
  it("refuses a save that changes one; a subclass's declarations never reach its parent", async () => {
    const reviewed = await ReviewedArticle.createOrThrow({ title: "Draft" });
    expect(await reviewed.update({ title: "Final" })).toBe(false);
    expect(reviewed.errors.fullMessages()).toEqual(["Title can't be changed"]);
    await expect(reviewed.saveOrThrow()).rejects.toBeInstanceOf(RecordInvalid);
    expect(await reviewed.update({ title: "Draft", secretNote: "kept" })).toBe(true);
    const article = await Article.createOrThrow({ title: "Draft" });
    expect(await article.update({ title: "Final" })).toBe(true);
  });
});

describe("a validator of your own (defineValidator)", () => {
  it("is a validates option of the Models of the base that registered it, with its own options", async () => {
    const outsider = Invitation.build({ title: "ada@elsewhere.org" });
    expect(await outsider.save()).toBe(false);
    expect(outsider.errors.on("title")).toEqual([{ attribute: "title", type: "wrong_domain", message: "is not at example.com" }]);
    const garbled = Invitation.build({ title: "ada" });
    expect(await garbled.save()).toBe(false);
    expect(garbled.errors.fullMessages()).toEqual(["Title is not an email address"]);
    expect(await Invitation.build({ title: "ada@example.com" }).save()).toBe(true);
    expect(() => {
      class Typo extends ApplicationRecord("articles") {
        static {
          this.validates("title", { email: { domian: "example.com" } as never });
        }
      }
      return Typo;
    }).toThrow(new TypeError('Typo.validates("title"): email: unknown option domian (options: domain, allowNil, allowBlank, message)'));
  });
});
