import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, hasMany, RecordDestroyed } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { destroyedWhenCalledBack, TrashableArticle, TrashableAttachment, TrashableComment } from "../models/trashable-articles.js";

/** The Relation methods and record method the plugin adds (not in the Models' types). */
type Trash = { withDeleted(): Trash; onlyDeleted(): Trash; where(conditions: object): Trash; count(): Promise<number>; toArray(): Promise<any[]>; pluck(name: string): Promise<unknown[]> };
const articles = (model: object = TrashableArticle) => model as unknown as Trash;
const restorable = (record: object) => record as unknown as { restore(): Promise<boolean> };

const rows = async (table: string) => (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY id`).all<Record<string, unknown>>()).results;

beforeEach(async () => {
  await env.DB.exec("DELETE FROM trashable_comments; DELETE FROM trashable_attachments; DELETE FROM trashable_articles;");
});

describe("softDelete", () => {
  it("destroy() turns the DELETE into an UPDATE of deletedAt, and the record ends destroyed with its after-destroy hooks run", async () => {
    const { events, TrashableArticle: Articles } = listen({ models: { TrashableArticle } });
    const article = await Articles.createOrThrow({ title: "Old news" });
    destroyedWhenCalledBack.length = 0;
    await article.destroyOrThrow();
    const update = events.find((event) => event.sql.startsWith(`UPDATE "trashable_articles"`))!;
    expect(update.sql).toBe(`UPDATE "trashable_articles" SET "deleted_at" = ?1, "updated_at" = ?2 WHERE "id" = ?3`);
    expect(events.some((event) => event.sql.startsWith(`DELETE FROM "trashable_articles"`))).toBe(false);
    expect(article.isDestroyed()).toBe(true);
    expect(destroyedWhenCalledBack).toEqual([true]);
    expect(article.deletedAt).toBeInstanceOf(Date);
    const [row] = await rows("trashable_articles");
    expect(row!["deleted_at"]).toBe(update.params[0]);
    await expect(article.save()).rejects.toBeInstanceOf(RecordDestroyed);
  });

  it("default queries leave deleted rows out; withDeleted() and onlyDeleted() (Relation methods and statics) read them", async () => {
    const kept = await TrashableArticle.createOrThrow({ title: "Kept" });
    const gone = await TrashableArticle.createOrThrow({ title: "Gone" });
    await gone.destroyOrThrow();
    const { events, TrashableArticle: Articles } = listen({ models: { TrashableArticle } });
    expect((await Articles.all().toArray()).map((article) => article.title)).toEqual(["Kept"]);
    expect(events.at(-1)!.sql).toBe(`SELECT * FROM "trashable_articles" WHERE "deleted_at" IS NULL`);
    expect(await Articles.findBy({ id: gone.id })).toBeNull();
    expect(await Articles.count()).toBe(1);
    expect(await Articles.exists({ title: "Gone" })).toBe(false);
    expect(await articles(Articles).withDeleted().count()).toBe(2);
    expect(await articles(Articles).onlyDeleted().pluck("title")).toEqual(["Gone"]);
    expect(events.at(-1)!.sql).toBe(`SELECT "title" FROM "trashable_articles" WHERE "deleted_at" IS NOT NULL`);
    // The entry survives narrowing, merging and combining.
    const relation = articles(Articles.where({ title: "Gone" }) as object).onlyDeleted().where({ id: gone.id });
    expect((await relation.toArray()).map((article) => article.id)).toEqual([gone.id]);
    expect(await articles(Articles.where({ title: "Gone" }).merge(articles(Articles).withDeleted() as never) as object).count()).toBe(1);
    expect(kept.id).not.toBe(gone.id);
  });

  it("restore() clears deletedAt of a record loaded with onlyDeleted()", async () => {
    const article = await TrashableArticle.createOrThrow({ title: "Back" });
    await article.destroyOrThrow();
    const [trashed] = await articles().onlyDeleted().toArray();
    expect(await restorable(trashed).restore()).toBe(true);
    expect(trashed.deletedAt).toBeNull();
    expect(await TrashableArticle.count()).toBe(1);
    await expect(restorable(article).restore()).rejects.toBeInstanceOf(RecordDestroyed);
  });

  it("restore, withDeleted and onlyDeleted take no argument: paranoia's restore({ recursive: true }) would be ignored", async () => {
    const article = await TrashableArticle.createOrThrow({ title: "Kept" });
    await article.destroyOrThrow();
    const [trashed] = await articles().onlyDeleted().toArray();
    const restore = restorable(trashed).restore as (...args: unknown[]) => Promise<boolean>;
    await expect(restore.call(trashed, { recursive: true })).rejects.toThrow(new TypeError("TrashableArticle.restore takes no argument"));
    expect(trashed.deletedAt).not.toBeNull();
    expect(() => (articles().withDeleted as Function)(true)).toThrow(new TypeError("TrashableArticle.withDeleted takes no argument"));
    expect(() => (articles().onlyDeleted as Function)({ id: 1 })).toThrow(new TypeError("TrashableArticle.onlyDeleted takes no argument"));
  });

  it("a reload reads a deleted row, since it is the record's own", async () => {
    const article = await TrashableArticle.createOrThrow({ title: "Reloaded" });
    const copy = (await TrashableArticle.find(article.id))!;
    await article.destroyOrThrow();
    await copy.reload();
    expect(copy.deletedAt).toBeInstanceOf(Date);
  });

  it("dependents follow their dependent option: soft-deleted children when their Model has softDelete, destroyed ones otherwise, in one batch", async () => {
    const article = await TrashableArticle.createOrThrow({ title: "Parent" });
    await TrashableComment.createOrThrow({ trashableArticleId: article.id!, body: "First" });
    await TrashableAttachment.createOrThrow({ trashableArticleId: article.id!, name: "photo.png" });
    const { events, TrashableArticle: Articles } = listen({ models: { TrashableArticle } });
    await (await Articles.find(article.id))!.destroyOrThrow();
    // Not the set-based DELETE of a tree without callbacks: each soft-deleted child is written through its own plan.
    const writes = events.filter((event) => event.batched && !event.sql.startsWith("SELECT")).map((event) => event.sql);
    expect(writes).toEqual([
      `UPDATE "trashable_comments" SET "deleted_at" = ?1 WHERE "id" = ?2`,
      `DELETE FROM "trashable_attachments" WHERE "id" = ?1`,
      `UPDATE "trashable_articles" SET "deleted_at" = ?1, "updated_at" = ?2 WHERE "id" = ?3`,
    ]);
    expect((await rows("trashable_comments"))[0]!["deleted_at"]).not.toBeNull();
    expect(await rows("trashable_attachments")).toEqual([]);
    expect(await TrashableComment.count()).toBe(0);
    expect(await articles(TrashableComment).withDeleted().count()).toBe(1);
  });

  it("a deleteAll dependent stamps the kept children's rows with one UPDATE, whether the tree is destroyed set-based or record by record", async () => {
    class ArticleDeletingComments extends TrashableArticle {
      override trashableComments = hasMany(TrashableComment, { foreignKey: "trashableArticleId", dependent: "deleteAll" });
    }
    // A destroy dependent on a soft-deleted Model: the tree is destroyed record by record.
    class ArticleWithDestroyedComments extends ArticleDeletingComments {
      firsts = hasMany(TrashableComment, { foreignKey: "trashableArticleId", dependent: "destroy", scope: (q) => q.where({ body: "first" }) });
    }
    for (const Article of [ArticleDeletingComments, ArticleWithDestroyedComments]) {
      const article = await Article.createOrThrow({ title: "Parent" });
      await TrashableComment.createOrThrow({ trashableArticleId: article.id!, body: "other" });
      const { events, Article: Articles } = listen({ models: { Article } });
      await (await Articles.find(article.id))!.destroyOrThrow();
      const writes = events.filter((event) => event.batched && !event.sql.startsWith("SELECT")).map((event) => event.sql);
      expect(writes.filter((text) => text.includes("trashable_comments")), Article.name).toEqual([
        expect.stringMatching(/^UPDATE "trashable_comments" SET "deleted_at" = \?1 WHERE/),
      ]);
      expect(await articles(TrashableComment).withDeleted().where({ trashableArticleId: article.id }).count()).toBe(1);
      expect(await TrashableComment.where({ trashableArticleId: article.id }).count()).toBe(0);
    }
  });

  it("is atomic inside batch: when another item fails, no deletedAt is written and the record is not destroyed", async () => {
    const article = await TrashableArticle.createOrThrow({ title: "Survivor" });
    const invalid = TrashableArticle.build({ title: "Duplicate key" });
    invalid.id = article.id;
    const error = await rejectionOf(connect(env.DB).batch([article.toDestroy(), invalid.toSave()]));
    expect(error.name).toBe("RecordNotUnique");
    expect(article.isDestroyed()).toBe(false);
    expect(article.deletedAt).toBeNull();
    expect((await rows("trashable_articles"))[0]!["deleted_at"]).toBeNull();
  });
});
