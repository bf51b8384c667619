/** The findOrCreate plugin: findOrCreateBy, findOrCreateByOrThrow and findOrInitializeBy. */
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, hasMany, RecordInvalid, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { ThrPost, ThrTag } from "../models/tagged-posts.js";

beforeEach(resetDatabase);

class Member extends ApplicationRecord("users") {
  posts = hasMany(Article, { foreignKey: "userId" });
  static {
    this.validates("name", { length: { minimum: 2 } });
  }
}

class Article extends ApplicationRecord("posts") {
  author = belongsTo(Member, { foreignKey: "userId" });
}

describe("findOrCreateBy", () => {
  it("finds the record matching the values in one round trip, and creates none", async () => {
    const ada = await Member.create({ name: "Ada", email: "ada@example.com" });
    const { db, events } = listen();
    const found = await db.model(Member).findOrCreateBy({ email: "ada@example.com" }, { name: "Other" });
    expect(found.id).toBe(ada.id);
    expect(found.name).toBe("Ada");
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe(`SELECT * FROM "users" WHERE "email" = ?1 LIMIT 1`);
    expect(await countRows("users")).toBe(1);
  });

  it("creates one with the values and the extra attributes when none matches: the lookup, then the INSERT", async () => {
    const { db, events } = listen();
    const made = await db.model(Member).where({ admin: true }).findOrCreateBy({ email: "grace@example.com" }, { name: "Grace" });
    expect(made.isPersisted()).toBe(true);
    expect([made.email, made.name, made.admin]).toEqual(["grace@example.com", "Grace", true]);
    expect(events).toHaveLength(2);
    expect(events[1]!.sql).toMatch(/^INSERT INTO "users"/);
    expect(await Member.findOrCreateBy({ email: "grace@example.com" })).toMatchObject({ id: made.id });
    expect(await countRows("users")).toBe(1);
  });

  it("gives the unsaved record with its errors when the create is refused; the OrThrow form throws RecordInvalid", async () => {
    const refused = await Member.findOrCreateBy({ name: "A" });
    expect(refused.isPersisted()).toBe(false);
    expect(refused.errors.on("name")).toHaveLength(1);
    expect(await rejectionOf(Member.findOrCreateByOrThrow({ name: "B" }))).toBeInstanceOf(RecordInvalid);
    expect(await countRows("users")).toBe(0);
  });

  it("through an association creates the child with the owner's key", async () => {
    const ada = await Member.create({ name: "Ada" });
    const article = await ada.posts().findOrCreateBy({ title: "Hello" });
    expect(article.userId).toBe(ada.id);
    expect((await ada.posts().findOrCreateBy({ title: "Hello" })).id).toBe(article.id);
    expect(await countRows("posts")).toBe(1);
  });

  it("narrowed by an association's record, finds by its key and creates with it", async () => {
    const ada = await Member.create({ name: "Ada" });
    const made = await Article.where({ author: ada }).findOrCreateBy({ title: "Hello" });
    expect(made.userId).toBe(ada.id);
    expect((await Article.where({ author: ada }).findOrCreateBy({ title: "Hello" })).id).toBe(made.id);
    expect(await countRows("posts")).toBe(1);
  });
});

describe("by a belongsTo's name (Rails' find_or_create_by(author: user))", () => {
  it("finds by the record's key, else creates with it: the lookup, then the INSERT", async () => {
    const ada = await Member.create({ name: "Ada" });
    const { db, events } = listen();
    const made = await db.model(Article).findOrCreateBy({ author: ada, title: "Hello" });
    expect([made.isPersisted(), made.userId, made.title]).toEqual([true, ada.id, "Hello"]);
    expect(events.map((event) => event.sql.slice(0, 6))).toEqual(["SELECT", "INSERT"]);
    expect((await Article.findOrCreateByOrThrow({ author: ada, title: "Hello" })).id).toBe(made.id);
    expect(await countRows("posts")).toBe(1);
  });

  it("through an association, by another belongsTo: finds by its key, else creates with it and the owner's key", async () => {
    const post = await ThrPost.createOrThrow({ title: "Hello" });
    const [ts, rust] = [await ThrTag.createOrThrow({ name: "ts" }), await ThrTag.createOrThrow({ name: "rust" })];
    const made = await post.thrTaggings().findOrCreateByOrThrow({ thrTag: ts });
    expect([made.isPersisted(), made.thrPostId, made.thrTagId]).toEqual([true, post.id, ts.id]);
    expect((await post.thrTaggings().findOrCreateBy({ thrTag: ts })).id).toBe(made.id);
    // The record given wins over the narrowing's key, as on a Relation of the Model.
    expect(post.thrTaggings().where({ thrTag: ts }).build({ thrTag: rust }).thrTagId).toBe(rust.id);
    expect(await countRows("thr_taggings")).toBe(1);
    // The owner's own association stays refused, naming it.
    expect(() => post.thrTaggings().where({ note: "x" }).build({ thrPost: post })).toThrow(/thrPost and thrPostId both give thrPostId/);
  });

  it("builds an unsaved record with the key, and refuses a key or another Model's record in types", async () => {
    const ada = await Member.create({ name: "Ada" });
    const built = await Article.all().findOrInitializeBy({ author: ada }, { title: "Draft" });
    expect([built.isNewRecord(), built.userId, built.title]).toEqual([true, ada.id, "Draft"]);
    // @ts-expect-error a belongsTo takes a record of its target, not its key
    expect(await rejectionOf(Article.findOrCreateBy({ author: ada.id }))).toBeInstanceOf(TypeError);
    const { db, events } = listen();
    // @ts-expect-error a list is a condition, not a parent to create with
    const list = await rejectionOf(db.model(Article).findOrInitializeBy({ author: [ada] }));
    expect(list.message).toMatch(/^Article\.findOrInitializeBy: author takes one record to create with, not \[/);
    expect(events).toHaveLength(0);
    // @ts-expect-error a hasMany is no condition
    await rejectionOf(Member.findOrCreateBy({ posts: built }));
  });
});

describe("findOrInitializeBy", () => {
  it("finds the record, or builds an unsaved one with the values, sending no write", async () => {
    await Member.create({ name: "Ada", email: "ada@example.com" });
    expect((await Member.findOrInitializeBy({ email: "ada@example.com" })).name).toBe("Ada");
    const { db, events } = listen();
    const built = await db.model(Member).findOrInitializeBy({ email: "new@example.com" }, { name: "New" });
    expect(built.isNewRecord()).toBe(true);
    expect([built.email, built.name]).toEqual(["new@example.com", "New"]);
    expect(events).toHaveLength(1);
    expect(await countRows("users")).toBe(1);
  });
});

describe("arguments", () => {
  it("are refused with TypeError naming the Model and method, before anything is sent", async () => {
    const { db, events } = listen();
    const members = db.model(Member) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const refusals = [
      await rejectionOf(members.findOrCreateBy!({ name: "Ada" }, "extra")),
      await rejectionOf(members.findOrInitializeBy!({ name: "Ada" }, {}, {})),
      await rejectionOf(members.findOrCreateBy!(new Map([["name", "Ada"]]))),
      await rejectionOf(members.findOrCreateBy!(sql`name = 'Ada'`)),
      await rejectionOf(members.findOrCreateByOrThrow!({ name: undefined })),
    ];
    for (const error of refusals) expect(error).toBeInstanceOf(TypeError);
    expect(refusals.map((error) => error.message)).toEqual([
      `Member.findOrCreateBy takes a plain object of the attributes only a new record gets, not "extra"`,
      "Member.findOrInitializeBy takes 2 arguments, not 3",
      "Member.findOrCreateBy takes a plain object of attribute values, not [object Map]",
      expect.stringMatching(/^Member\.findOrCreateBy takes a plain object of attribute values, not /),
      expect.stringMatching(/^Member\.findOrCreateByOrThrow: name is undefined/),
    ]);
    expect(events).toHaveLength(0);
    // @ts-expect-error a list is a condition, not a value to create with
    await rejectionOf(Member.findOrCreateBy({ name: ["Ada", "Grace"] }));
    // @ts-expect-error an attribute the Model does not have
    await rejectionOf(Member.findOrInitializeBy({ nickname: "x" }));
  });
});
