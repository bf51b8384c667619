import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, belongsTo, defineApplicationRecord, hasMany } from "../../src/index.js";
import { type Condition, definePlugin, joinSelect, type QueryPurpose, relationSubquery, type SelectParts } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { schema } from "../models/fixtures.js";

// relation:prepare, the async stage before a Relation is compiled: this plugin replaces, after a turn of WebCrypto (as
// an encryption does), each name compared in a condition by the name it stands for, so that a path that compiled
// its conditions without the stage would match nothing.

const aliases = new Map([["alias of Ann", "Ann"], ["alias of Bob", "Bob"]]);
const purposes: QueryPurpose[] = [];

/** The attributes compared with names: a member's name, a story's title, and a tagging's note. */
const NAMED = new Set(["name", "title", "note"]);

function resolved(condition: Condition): Condition {
  if (condition.kind === "equal" && NAMED.has(condition.attribute.name)) return { ...condition, value: aliases.get(condition.value as string) ?? condition.value };
  if (condition.kind === "in" && NAMED.has(condition.attribute.name)) return { ...condition, values: condition.values.map((value) => aliases.get(value as string) ?? value) };
  return condition;
}

const aliasing = definePlugin({
  name: "aliasing prepare stage",
  hooks: {
    async "relation:prepare"(context) {
      purposes.push(context.purpose);
      await crypto.subtle.digest("SHA-256", new Uint8Array(1));
      context.conditions = context.conditions.map(resolved);
    },
  },
});

class PreparedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(aliasing);
  }
}

class Member extends defineApplicationRecord(schema, PreparedBase)("users") {}

/** Tags of posts through taggings, on the tables of the through associations' tests, with the aliasing stage. */
const throughSchema = {
  thr_posts: { id: "integer", thrWriterId: "integer", title: { type: "string", null: false }, tenantId: "string" },
  thr_taggings: { id: "integer", thrPostId: { type: "integer", null: false }, thrTagId: { type: "integer", null: false }, note: "string", deletedAt: "datetime", tenantId: "string" },
  thr_tags: { id: "integer", name: { type: "string", null: false }, deletedAt: "datetime", tenantId: "string" },
} as const;
const Aliased = defineApplicationRecord(throughSchema, PreparedBase);
class Tag extends Aliased("thr_tags") {}
class Tagging extends Aliased("thr_taggings") {
  tag = belongsTo(Tag, { foreignKey: "thrTagId" });
}

beforeEach(async () => {
  await resetDatabase();
  purposes.length = 0;
  await Member.insertAll([{ id: "a", name: "Ann", age: 30 }, { id: "b", name: "Bob", age: 40 }]);
  purposes.length = 0;
});

describe("relation:prepare", () => {
  const paths: Array<[string, () => Promise<unknown>, unknown, QueryPurpose]> = [
    ["toArray", async () => (await Member.where({ name: "alias of Ann" }).toArray()).map((member) => member.id), ["a"], "load"],
    ["first", async () => (await Member.where({ name: ["alias of Bob"] }).first())?.id, "b", "load"],
    ["findBy", async () => (await Member.findBy({ name: "alias of Bob" }))?.id, "b", "load"],
    ["find on a Relation", async () => (await Member.where({ name: "alias of Ann" }).find("a")).id, "a", "load"],
    ["find", async () => (await Member.find("a")).id, "a", "load"],
    ["count", () => Member.where({ name: "alias of Ann" }).count(), 1, "count"],
    ["exists", () => Member.exists({ name: "alias of Bob" }), true, "exists"],
    ["pluck", () => Member.where({ name: "alias of Bob" }).pluck("age"), [40], "pluck"],
    ["paginate", async () => (await Member.where({ name: "alias of Ann" }).paginate({ page: 1 })).total, 1, "load"],
    ["explain", async () => (await Member.where({ name: "alias of Ann" }).explain()).length > 0, true, "load"],
    ["updateAll", () => Member.where({ name: "alias of Ann" }).updateAll({ age: 31 }), 1, "updateAll"],
    ["deleteAll", () => Member.where({ name: "alias of Bob" }).deleteAll(), 1, "deleteAll"],
  ];
  for (const [name, run, expected, purpose] of paths) {
    it(`runs before ${name} compiles, once, and its conditions are those sent`, async () => {
      expect(await run()).toEqual(expected);
      expect(purposes).toEqual([purpose]);
    });
  }

  it("runs for what compiles synchronously too, which refuses a hook that must await, naming the Model, the method and the async one", () => {
    const refusal = (method: string, instead: string) =>
      new TypeError(
        `Member.${method}: a plugin prepares this Relation's conditions with work that must be awaited (a relation:prepare hook: an encryption, say), which a sync form cannot wait for; use await ${instead} instead`,
      );
    expect(() => Member.where({ name: "alias of Ann" }).toSql()).toThrow(refusal("toSql()", "toArray()"));
    expect(() => Member.where({ name: "alias of Ann" }).toSelect()).toThrow(refusal("toSelect()", "toArray()"));
    expect(() => Member.where({ name: "alias of Ann" }).toUpdateAll({ age: 1 })).toThrow(refusal("toUpdateAll()", "updateAll(...)"));
    expect(() => Member.where({ name: "alias of Ann" }).toDeleteAll()).toThrow(refusal("toDeleteAll()", "deleteAll()"));
    expect(String(Member.where({ name: "alias of Ann" }))).toContain("(cannot compile: Member.toString(): a plugin prepares");
    expect(purposes).toEqual(["load", "load", "updateAll", "deleteAll", "load"]);
  });

  it("a sync form compiles what a hook that returns at once prepared", () => {
    class Resolved extends defineApplicationRecord(schema, ActiveRecord)("users") {
      static override binding = "DB";
      static {
        this.hook("relation:prepare", (context) => void (context.conditions = context.conditions.map(resolved)));
      }
    }
    expect(Resolved.where({ name: "alias of Ann" }).toSql().params).toEqual(["Ann"]);
    expect(Resolved.where({ name: "alias of Bob" }).toDeleteAll().toSql().params).toEqual(["Bob"]);
  });

  it("refuses conditions a hook left that are not conditions of the Model, before anything is sent", async () => {
    class Misprepared extends Member {
      static {
        this.hook("relation:prepare", (context) => void (context.conditions = [{ kind: "equal", attribute: "name", value: 1 }] as never));
      }
    }
    await expect(Misprepared.where({ name: "Ann" }).toArray()).rejects.toThrow(new TypeError("Misprepared: Relation.with: conditions takes a list of conditions, not [{…}]"));
  });

  it("refuses a relation:preparePlan hook that plans something other than a Relation of the Model, before anything is sent", async () => {
    class Story extends defineApplicationRecord(schema, PreparedBase)("posts") {}
    class Writer extends defineApplicationRecord(schema, PreparedBase)("users") {
      static {
        this.hook("relation:preparePlan", (context) => void (context.relation = Member.all() as never));
      }
      posts = hasMany(Story, { foreignKey: "userId" });
    }
    await expect(Writer.includes("posts").toArray()).rejects.toThrow(new TypeError("Writer: a relation:preparePlan hook set relation to something other than a Relation of Writer"));
  });

  it("runs for the Relation of each hop a through association crosses, so the hops read the rows its conditions stand for", async () => {
    // The hop's scope names a note by its alias: only the prepare stage makes it match.
    class Article extends Aliased("thr_posts") {
      annsTaggings = hasMany(Tagging, { foreignKey: "thrPostId", scope: (q) => q.where({ note: "alias of Ann" }) });
      annsTags = hasMany(Tag, { through: this.annsTaggings, source: "tag" });
    }
    const article = await Article.createOrThrow({ title: "tagged" });
    const [red, blue] = [await Tag.createOrThrow({ name: "red" }), await Tag.createOrThrow({ name: "blue" })];
    await Tagging.insertAll([{ thrPostId: article.id!, thrTagId: red.id!, note: "Ann" }, { thrPostId: article.id!, thrTagId: blue.id!, note: "Bob" }]);
    purposes.length = 0;
    expect((await article.annsTags().toArray()).map((tag) => tag.name)).toEqual(["red"]);
    expect(purposes).toEqual(["load", "load"]);
    expect(await article.annsTags().count()).toBe(1);
    const [counted] = await Article.withCount("annsTags").toArray();
    expect(counted!.annsTagsCount).toBe(1);
    const [loaded] = await Article.includes("annsTags").toArray();
    expect((await loaded!.annsTags().toArray()).map((tag) => tag.name)).toEqual(["red"]);
  });

  it("runs before setIds reads the targets and join rows it replaces, in one batch", async () => {
    class Article extends Aliased("thr_posts") {
      taggings = hasMany(Tagging, { foreignKey: "thrPostId" });
      tags = hasMany(Tag, { through: this.taggings, source: "tag" });
    }
    const article = await Article.createOrThrow({ title: "tagged" });
    const [red, blue] = [await Tag.createOrThrow({ name: "red" }), await Tag.createOrThrow({ name: "blue" })];
    await Tagging.insertAll([{ thrPostId: article.id!, thrTagId: red.id! }]);
    purposes.length = 0;
    await article.tags().setIds([blue.id!]);
    expect(purposes.slice(0, 2)).toEqual(["load", "load"]);
    expect((await Tagging.where({ thrPostId: article.id! }).pluck("thrTagId"))).toEqual([blue.id]);
  });

  it("relationSubquery refuses what is no Relation, no purpose or no function, naming itself", () => {
    const shape = (parts: SelectParts) => joinSelect(parts);
    expect(() => relationSubquery(Member.all() as never, "load", shape)).not.toThrow();
    expect(() => relationSubquery({} as never, "load", shape)).toThrow(new TypeError("relationSubquery takes a Relation, not {}"));
    expect(() => relationSubquery(Member.all(), "read" as never, shape)).toThrow(/^relationSubquery takes a query purpose \(load, reload, count, exists, pluck, calculate, preload, updateAll, deleteAll\), not "read"$/);
    expect(() => relationSubquery(Member.all(), "load", "SELECT 1" as never)).toThrow(new TypeError(`relationSubquery takes a function that joins the parts of a SELECT, not "SELECT 1"`));
  });

  it("runs for each Relation a preload reads, once per load, with the conditions of its scope", async () => {
    class Story extends defineApplicationRecord(schema, PreparedBase)("posts") {}
    class Author extends defineApplicationRecord(schema, PreparedBase)("users") {
      named = hasMany(Story, { foreignKey: "userId", scope: (q) => q.where({ title: "alias of Ann" }) });
    }
    await Story.insertAll([{ userId: "a", title: "Ann" }, { userId: "a", title: "Other" }, { userId: "b", title: "Ann" }]);
    purposes.length = 0;
    const authors = await Author.order({ id: "asc" }).includes("named").toArray();
    expect(await Promise.all(authors.map(async (author) => (await author.named().toArray()).map((story) => [story.userId, story.title])))).toEqual([
      [["a", "Ann"]],
      [["b", "Ann"]],
    ]);
    expect(purposes).toEqual(["load", "preload"]);
  });
});
