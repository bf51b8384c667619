import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, belongsTo, connect, defineApplicationRecord, hasMany, Model } from "../../src/index.js";
import { definePlugin, type RecordsLoadPurpose } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { recordingRoundTrips } from "../helpers/queries.js";
import { schema } from "../models/fixtures.js";

// Every path that makes records from rows ends in one load stage, `records:load`: once per batch of rows, awaited
// before the caller receives anything. This plugin's stage is async (as a decryption with WebCrypto is) and
// rewrites the stored text it loads, so that a record handed out before its stage finished would show the text as stored.

/** One call of the stage: the Model, what for, the records it got and the rows. */
type StageCall = [model: string, purpose: RecordsLoadPurpose, records: number, rows: number];

const calls: StageCall[] = [];
const TEXT_COLUMNS = ["name", "title"];

/** Marks every name and title it loads, after a turn of WebCrypto. */
const marking = definePlugin({
  name: "marking load stage",
  hooks: {
    async "records:load"({ model, records, rows, purpose }) {
      calls.push([model.name, purpose, records.length, rows.length]);
      await crypto.subtle.digest("SHA-256", new Uint8Array(1));
      for (const row of rows) for (const column of TEXT_COLUMNS) if (typeof row[column] === "string") row[column] = `loaded ${row[column]}`;
    },
  },
});

class StagedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(marking);
  }
}

const StagedRecord = defineApplicationRecord(schema, StagedBase);

class Writer extends StagedRecord("users") {
  posts = hasMany(Article, { foreignKey: "userId" });
}

class Article extends StagedRecord("posts") {
  user = belongsTo(Writer, { foreignKey: "userId" });
}

/** The Models bound to a database that records round trips, and records loaded through it before the path runs. */
interface Loaders {
  readonly W: typeof Writer;
  readonly A: typeof Article;
  readonly ada: Writer;
  readonly article: Article;
  readonly db: ReturnType<typeof connect>;
}

/** What a path gives its caller, reduced to the texts it loaded: each must already be marked. */
const texts = (loaded: unknown): unknown[] => {
  if (loaded === null || loaded === undefined) return [];
  if (Array.isArray(loaded)) return loaded.flatMap(texts);
  if (typeof loaded === "string") return [loaded];
  const record = loaded as { name?: unknown; title?: unknown; records?: unknown };
  if ("records" in record) return texts(record.records);
  return [record.name ?? record.title];
};

/** Each path, what the stage is called with (once per batch of rows), and what the caller gets. */
const PATHS: ReadonlyArray<{ path: string; load: (on: Loaders) => Promise<unknown>; calls: StageCall[]; roundTrips?: number }> = [
  { path: "toArray", load: ({ W }) => W.all().toArray(), calls: [["Writer", "load", 3, 3]] },
  { path: "first", load: ({ W }) => W.where({ name: "Ada" }).first(), calls: [["Writer", "load", 1, 1]] },
  { path: "take", load: ({ W }) => W.where({ name: "Bob" }).take(), calls: [["Writer", "load", 1, 1]] },
  { path: "last", load: ({ W }) => W.last(), calls: [["Writer", "load", 1, 1]] },
  { path: "findBy", load: ({ W }) => W.findBy({ name: "Cy" }), calls: [["Writer", "load", 1, 1]] },
  { path: "findByOrThrow", load: ({ W }) => W.findByOrThrow({ name: "Cy" }), calls: [["Writer", "load", 1, 1]] },
  { path: "find(id), the fast path", load: ({ W, ada }) => W.find(ada.id), calls: [["Writer", "load", 1, 1]] },
  { path: "find(id) on a Relation", load: ({ W, ada }) => W.where({ admin: false }).find(ada.id), calls: [["Writer", "load", 1, 1]] },
  { path: "find(id, id)", load: async ({ W, ada, article }) => W.find(ada.id, article.userId!), calls: [["Writer", "load", 1, 1]] },
  { path: "find([id, id])", load: async ({ W, ada }) => W.find([ada.id, (await W.findBy({ name: "Bob" }))!.id]), calls: [["Writer", "load", 1, 1], ["Writer", "load", 2, 2]], roundTrips: 2 },
  { path: "paginate", load: ({ W }) => W.paginate({ perPage: 2 }), calls: [["Writer", "load", 2, 2]] },
  { path: "reload", load: async ({ ada }) => (await ada.reload(), ada), calls: [["Writer", "reload", 1, 1]] },
  { path: "a hasMany load", load: ({ ada }) => ada.posts().toArray(), calls: [["Article", "load", 2, 2]] },
  { path: "a belongsTo load", load: ({ article }) => article.user.load(), calls: [["Writer", "load", 1, 1]] },
  {
    path: "a preload through another Model's includes",
    load: async ({ A }) => (await A.includes("user").toArray()).map((article) => article.user.get()),
    calls: [
      ["Article", "load", 3, 3],
      ["Writer", "preload", 2, 2],
    ],
  },
  {
    path: "nested includes: each level",
    load: async ({ A }) => {
      const [article] = await A.where({ title: "a1" }).includes({ user: ["posts"] }).toArray();
      const writer = article!.user.get() as Writer;
      return [article, writer, ...(await writer.posts().toArray())];
    },
    calls: [
      ["Article", "load", 1, 1],
      ["Writer", "preload", 1, 1],
      ["Article", "preload", 2, 2],
    ],
  },
  { path: "a SELECT in a batch", load: async ({ db, W }) => (await db.batch([W.where({ name: "Ada" }).toSelect()]))[0], calls: [["Writer", "load", 1, 1]] },
  { path: "create: the row its INSERT returns", load: ({ W }) => W.create({ name: "Dee" }), calls: [["Writer", "write", 1, 1]] },
  { path: "a create in a batch", load: async ({ db, W }) => (await db.batch([W.build({ name: "Eve" }).toSave()]))[0], calls: [["Writer", "write", 1, 1]] },
  { path: "pluck: the values' rows", load: ({ W }) => W.order({ name: "asc" }).pluck("name"), calls: [["Writer", "pluck", 0, 3]] },
];

beforeAll(async () => {
  await resetDatabase();
  const [ada, bob] = [await Writer.createOrThrow({ name: "Ada" }), await Writer.createOrThrow({ name: "Bob" })];
  await Writer.createOrThrow({ name: "Cy" });
  await Article.insertAll([
    { userId: ada.id, title: "a1" },
    { userId: ada.id, title: "a2" },
    { userId: bob.id, title: "b1" },
  ]);
});

beforeEach(async () => {
  await Writer.where({ name: ["loaded Dee", "loaded Eve", "Dee", "Eve", "Fay"] }).deleteAll();
});

describe("records:load runs once per batch of rows on every load path, before the caller gets the records", () => {
  for (const { path, load, calls: expected, roundTrips: sent = 1 } of PATHS) {
    it(path, async () => {
      const { binding, roundTrips } = recordingRoundTrips();
      const db = connect(binding);
      const W = db.model(Writer);
      const A = db.model(Article);
      const ada = await W.find((await W.findBy({ name: "Ada" }))!.id);
      const article = (await A.findBy({ title: "a1" }))!;
      expect(ada.name).toBe("loaded Ada");
      calls.length = 0;
      roundTrips.length = 0;
      const loaded = texts(await load({ W, A, ada, article, db }));
      expect(calls).toEqual(expected);
      expect(loaded.length).toBeGreaterThan(0);
      for (const text of loaded) expect(text).toMatch(/^loaded /);
      // The stage sends nothing of its own.
      expect(roundTrips).toHaveLength(sent);
    });
  }

  it("is not called for a load that found no rows", async () => {
    calls.length = 0;
    expect(await Writer.findBy({ name: "nobody" })).toBeNull();
    expect(await Writer.where({ name: "nobody" }).pluck("name")).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("leaves a loaded record unchanged: the rewritten row is what its changes compare with", async () => {
    const ada = (await Writer.findBy({ name: "Ada" }))!;
    expect(ada.name).toBe("loaded Ada");
    expect(ada.changed()).toEqual([]);
  });
});

describe("the records a destroy reads for its dependent: \"destroy\" children", () => {
  class Owner extends StagedRecord("users") {
    posts = hasMany(OwnedArticle, { foreignKey: "userId", dependent: "destroy" });
  }
  class OwnedArticle extends StagedRecord("posts") {
    static {
      this.beforeDestroy((article) => {
        seenByCallbacks.push(article.title!);
      });
    }
  }
  const seenByCallbacks: string[] = [];

  it("pass the load stage (purpose load) before their callbacks run, as loaded records do", async () => {
    const owner = await Owner.createOrThrow({ name: "Gus" });
    await OwnedArticle.insertAll([
      { userId: owner.id, title: "g1" },
      { userId: owner.id, title: "g2" },
    ]);
    calls.length = 0;
    await owner.destroyOrThrow();
    expect(calls).toEqual([["OwnedArticle", "load", 2, 2]]);
    expect(seenByCallbacks.sort()).toEqual(["loaded g1", "loaded g2"]);
  });
});

describe("records of subclasses a record:class hook chose (single-table inheritance)", () => {
  const seen: string[] = [];
  /** Staff of migration 0090's table; a boss's own load hook marks its name. */
  class Staff extends Model({ id: "integer", type: "string", name: { type: "string", null: false }, level: "integer", stiTeamId: "integer" }) {
    static override binding = "DB";
    static override tableName = "sti_staff";
    static {
      this.inheritance(() => ({ Boss }));
      this.hook("records:load", ({ model, records }) => void seen.push(`Staff's hook: ${records.length} ${model.name}`));
    }
  }
  class Boss extends Staff {
    static {
      this.hook("records:load", ({ model, records, rows }) => {
        seen.push(`Boss's hook: ${records.length} ${model.name}`);
        for (const row of rows) row["name"] = `boss ${row["name"]}`;
      });
    }
  }

  it("pass their own class's hooks, once per class, however they were loaded", async () => {
    await Staff.insertAll([{ name: "Ann", type: "Boss" }, { name: "Bo", type: null }, { name: "Cy", type: "Boss" }]);
    seen.length = 0;
    const staff = await Staff.order({ id: "asc" }).toArray();
    expect(staff.map((member) => `${member.constructor.name} ${member.name}`)).toEqual(["Boss boss Ann", "Staff Bo", "Boss boss Cy"]);
    expect(seen).toEqual(["Staff's hook: 2 Boss", "Boss's hook: 2 Boss", "Staff's hook: 1 Staff"]);
    seen.length = 0;
    const ann = await Staff.find(staff[0]!.id);
    expect([ann.constructor.name, ann.name]).toEqual(["Boss", "boss Ann"]);
    expect(seen).toEqual(["Staff's hook: 1 Boss", "Boss's hook: 1 Boss"]);
    expect((await Boss.order({ id: "asc" }).pluck("name"))).toEqual(["boss Ann", "boss Cy"]);
  });
});

describe("a failing records:load hook", () => {
  const failing = definePlugin({
    name: "failing load stage",
    hooks: {
      async "records:load"({ purpose }) {
        await Promise.resolve();
        throw new Error(`cannot load for ${purpose}`);
      },
    },
  });
  const Failing = defineApplicationRecord(schema, class extends ActiveRecord {
    static override binding = "DB";
    static {
      this.use(failing);
    }
  });
  class Member extends Failing("users") {}

  it("rejects the load with its error: no records are handed out", async () => {
    const { id } = (await Writer.findBy({ name: "Ada" }))!;
    await expect(Member.all().toArray()).rejects.toThrow("cannot load for load");
    await expect(Member.find(id)).rejects.toThrow("cannot load for load");
    await expect(Member.pluck("name")).rejects.toThrow("cannot load for pluck");
    await expect(Member.create({ name: "Fay" })).rejects.toThrow("cannot load for write");
  });
});

describe("a Model without records:load hooks", () => {
  const Plain = defineApplicationRecord(schema, class extends ActiveRecord {
    static override binding = "DB";
  });
  class Person extends Plain("users") {}

  it("runs no stage: a plugin of another base class is never called", async () => {
    const { id } = (await Person.findBy({ name: "Ada" }))!;
    calls.length = 0;
    const found = await Person.find(id);
    expect(found.name).toBe("Ada");
    expect(calls).toEqual([]);
  });
});
