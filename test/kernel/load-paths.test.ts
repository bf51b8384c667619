import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, belongsTo, connect, defineApplicationRecord, hasMany, RecordNotFound, withDatabase } from "../../src/index.js";
import { definePlugin, type LoadPurpose, ParamWriter, Statement, withSource } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { recordingRoundTrips } from "../helpers/queries.js";
import { schema } from "../models/fixtures.js";
import { commentsOnPostsAndPhotos } from "../models/comments-on-posts-and-photos.js";

// Every path that makes records from the rows of a SELECT runs the same stages: `relation:plan` (whose reads join the
// batch of the SELECT and receive its records), then `record:hydrate` for each record.

/** What one `relation:plan` call planned: the Model, what for, the rows its read found in the source, the records it received. */
type Planned = [model: string, purpose: LoadPurpose, sourceRows: number | undefined, received: number | undefined];

const planned: Planned[] = [];
let hydrated = 0;

/** Plans, for every load, a count of the rows the load's SELECT returns, in the same batch. */
const tracer = definePlugin({
  name: "load tracer",
  hooks: {
    "relation:plan"({ relation, source, purpose, reads }) {
      const entry: Planned = [relation.model.name, purpose, undefined, undefined];
      planned.push(entry);
      const params = new ParamWriter();
      const sql = withSource(source, params, (rows) => `SELECT COUNT(*) AS n FROM ${rows}`);
      const statement = new Statement({ sql, params: params.params, sources: params.sources }, undefined, "rows", (rows) => Number(rows[0]!["n"]));
      reads.push({
        statement,
        receive: (count, records) => {
          entry[2] = count;
          entry[3] = records.length;
        },
      });
    },
    "record:hydrate"() {
      hydrated++;
    },
  },
});

class TracedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(tracer);
  }
}

const TracedRecord = defineApplicationRecord(schema, TracedBase);

class Author extends TracedRecord("users") {
  posts = hasMany(Story, { foreignKey: "userId" });
}

class Story extends TracedRecord("posts") {
  user = belongsTo(Author, { foreignKey: "userId" });
}

/** The Models bound to a database that records round trips, and a record loaded through it before the count. */
interface Loaders {
  readonly A: typeof Author;
  readonly S: typeof Story;
  readonly ada: Author;
  readonly story: Story;
  readonly adaId: string;
  readonly bobId: string;
}

// In the order the hooks run: the associations plugin (a default one, registered first) plans the preloads, and the
// target Model's hooks with each, before the tracer's own hook plans the main load.
/** Each load path, what it plans, and the statements its batch sends besides the SELECT and the planned counts. */
const LOAD_PATHS: ReadonlyArray<{ path: string; load: (on: Loaders) => Promise<unknown>; plans: Planned[]; alsoSent?: number }> = [
  { path: "toArray", load: ({ A }) => A.all().toArray(), plans: [["Author", "load", 3, 3]] },
  { path: "first", load: ({ A }) => A.where({ name: "Ada" }).first(), plans: [["Author", "load", 1, 1]] },
  { path: "take", load: ({ A }) => A.where({ name: "Bob" }).take(), plans: [["Author", "load", 1, 1]] },
  { path: "last", load: ({ A }) => A.last(), plans: [["Author", "load", 1, 1]] },
  { path: "findBy", load: ({ A }) => A.findBy({ name: "Cy" }), plans: [["Author", "load", 1, 1]] },
  { path: "findByOrThrow", load: ({ A }) => A.findByOrThrow({ name: "Cy" }), plans: [["Author", "load", 1, 1]] },
  { path: "find(id), the fast path", load: ({ A, adaId }) => A.find(adaId), plans: [["Author", "load", 1, 1]] },
  { path: "find(id) of a missing id", load: ({ A }) => expect(A.find("nobody")).rejects.toThrow(RecordNotFound), plans: [["Author", "load", 0, 0]] },
  { path: "find(id) on a Relation", load: ({ A, adaId }) => A.where({ admin: false }).find(adaId), plans: [["Author", "load", 1, 1]] },
  { path: "find(id, id)", load: ({ A, adaId, bobId }) => A.find(adaId, bobId), plans: [["Author", "load", 2, 2]] },
  { path: "find([id])", load: ({ A, adaId }) => A.find([adaId]), plans: [["Author", "load", 1, 1]] },
  { path: "paginate", load: ({ A }) => A.paginate({ perPage: 2 }), plans: [["Author", "load", 2, 2]], alsoSent: 1 },
  { path: "paginate without a count", load: ({ A }) => A.paginate({ perPage: 5, count: false }), plans: [["Author", "load", 3, 3]] },
  { path: "reload", load: ({ ada }) => ada.reload(), plans: [["Author", "reload", 1, 1]] },
  { path: "a hasMany load", load: ({ ada }) => ada.posts().toArray(), plans: [["Story", "load", 2, 2]] },
  { path: "a belongsTo load", load: ({ story }) => story.user.load(), plans: [["Author", "load", 1, 1]] },
  {
    path: "includes: the preload",
    load: ({ A }) => A.includes("posts").toArray(),
    plans: [
      ["Story", "preload", 3, 3],
      ["Author", "load", 3, 3],
    ],
    alsoSent: 1,
  },
  {
    path: "nested includes: each level",
    load: ({ S }) => S.where({ title: "a1" }).includes({ user: ["posts"] }).toArray(),
    plans: [
      ["Author", "preload", 1, 1],
      ["Story", "preload", 2, 2],
      ["Story", "load", 1, 1],
    ],
    alsoSent: 2,
  },
];

let adaId = "";
let bobId = "";

beforeAll(async () => {
  await resetDatabase();
  const ada = await Author.createOrThrow({ name: "Ada" });
  const bob = await Author.createOrThrow({ name: "Bob" });
  await Author.createOrThrow({ name: "Cy" });
  adaId = ada.id;
  bobId = bob.id;
  await Story.insertAll([
    { userId: adaId, title: "a1" },
    { userId: adaId, title: "a2" },
    { userId: bobId, title: "b1" },
  ]);
});

beforeEach(() => {
  planned.length = 0;
  hydrated = 0;
});

describe("every load path runs relation:plan and record:hydrate, in the round trip of its SELECT", () => {
  for (const { path, load, plans, alsoSent = 0 } of LOAD_PATHS) {
    it(path, async () => {
      const { binding, roundTrips } = recordingRoundTrips();
      const db = connect(binding);
      const A = db.model(Author);
      const S = db.model(Story);
      const ada = await A.find(adaId);
      const story = (await S.findBy({ title: "a1" }))!;
      planned.length = 0;
      hydrated = 0;
      roundTrips.length = 0;
      await load({ A, S, ada, story, adaId, bobId });
      expect(planned).toEqual(plans);
      expect(hydrated).toBe(plans.reduce((sum, [, , , received]) => sum + received!, 0));
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(1 + plans.length + alsoSent);
    });
  }
});

// Every read path runs `relation:prepare` once for each Relation its statements compile (a preload's too), and every
// path that makes records from rows runs `records:load` once for each batch of rows.

/** The stages that ran, in order: `prepare <Model> <purpose>` and `load <Model> <purpose>`. */
const stages: string[] = [];

/** Records the prepare and load stages of a Model's reads. */
const stageRecorder = definePlugin({
  name: "stage recorder",
  hooks: {
    "relation:prepare"({ model, purpose }) {
      stages.push(`prepare ${model.name} ${purpose}`);
    },
    "records:load"({ model, purpose }) {
      stages.push(`load ${model.name} ${purpose}`);
    },
  },
});

class StagedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(stageRecorder);
  }
}

const stagedSchema = {
  ...schema,
  thr_posts: { id: "integer", thrWriterId: "integer", title: { type: "string", null: false }, tenantId: "string" },
  thr_taggings: { id: "integer", thrPostId: { type: "integer", null: false }, thrTagId: { type: "integer", null: false }, note: "string", deletedAt: "datetime", tenantId: "string" },
  thr_tags: { id: "integer", name: { type: "string", null: false }, deletedAt: "datetime", tenantId: "string" },
} as const;
const Staged = defineApplicationRecord(stagedSchema, StagedBase);

class Writer extends Staged("users") {
  posts = hasMany(Note, { foreignKey: "userId" });
}

class Note extends Staged("posts") {
  user = belongsTo(Writer, { foreignKey: "userId" });
}

class Article extends Staged("thr_posts") {
  taggings = hasMany(Tagging, { foreignKey: "thrPostId" });
  tags = hasMany(Label, { through: this.taggings, source: "label" });
}

class Tagging extends Staged("thr_taggings") {
  label = belongsTo(Label, { foreignKey: "thrTagId" });
}

class Label extends Staged("thr_tags") {}

/** Comments on posts and photos, each Model recording its stages. */
const polymorphic = commentsOnPostsAndPhotos();
for (const Class of [polymorphic.Comment, polymorphic.Post, polymorphic.Photo]) Class.use(stageRecorder);

/** Each read path, and the stages it must run: each once, in order. */
const STAGED_PATHS: ReadonlyArray<{ path: string; read: () => Promise<unknown>; stages: string[]; roundTrips?: number }> = [
  { path: "toArray", read: () => Writer.all().toArray(), stages: ["prepare Writer load", "load Writer load"] },
  { path: "first", read: () => Writer.where({ name: "Ada" }).first(), stages: ["prepare Writer load", "load Writer load"] },
  { path: "find(id), the fast path", read: () => Writer.find(adaId), stages: ["prepare Writer load", "load Writer load"] },
  { path: "reload", read: async () => (await Writer.find(adaId)).reload(), stages: ["prepare Writer load", "load Writer load", "prepare Writer reload", "load Writer reload"], roundTrips: 2 },
  { path: "count", read: () => Writer.count(), stages: ["prepare Writer count"] },
  { path: "pluck through attribute types", read: () => Writer.pluck("name"), stages: ["prepare Writer pluck", "load Writer pluck"] },
  { path: "the row an INSERT returns", read: () => Writer.create({ name: "Dee" }), stages: ["load Writer write"] },
  { path: "a hasMany load", read: async () => (await Writer.find(adaId)).posts().toArray(), stages: ["prepare Writer load", "load Writer load", "prepare Note load", "load Note load"], roundTrips: 2 },
  { path: "a belongsTo load", read: async () => (await Note.findByOrThrow({ title: "a1" })).user.load(), stages: ["prepare Note load", "load Note load", "prepare Writer load", "load Writer load"], roundTrips: 2 },
  {
    path: "includes: the preload",
    read: () => Writer.includes("posts").toArray(),
    stages: ["prepare Writer load", "prepare Note preload", "load Writer load", "load Note preload"],
  },
  {
    path: "nested includes",
    read: () => Note.where({ title: "a1" }).includes({ user: ["posts"] }).toArray(),
    stages: ["prepare Note load", "prepare Writer preload", "prepare Note preload", "load Note load", "load Writer preload", "load Note preload"],
  },
  {
    path: "includes on a page",
    read: () => Writer.includes("posts").paginate({ page: 1 }),
    stages: ["prepare Writer load", "prepare Note preload", "load Writer load", "load Note preload"],
  },
  {
    path: "a through preload",
    read: () => Article.includes("tags").toArray(),
    stages: ["prepare Article load", "prepare Tagging preload", "prepare Label preload", "load Article load", "load Tagging preload", "load Label preload"],
  },
  {
    path: "a through association's read: the Relation of each hop it crosses is prepared too",
    read: async () => (await Article.findByOrThrow({ title: "tagged" })).tags().toArray(),
    stages: ["prepare Article load", "load Article load", "prepare Label load", "prepare Tagging load", "load Label load"],
    roundTrips: 2,
  },
  {
    path: "a count of a through association in the SELECT (withCount): each hop's Relation prepared",
    read: () => Article.withCount("tags").toArray(),
    stages: ["prepare Article load", "prepare Label count", "prepare Tagging count", "load Article load"],
  },
  {
    path: "a polymorphic preload",
    read: () => polymorphic.Comment.includes("commentable").toArray(),
    stages: ["prepare Comment load", "prepare Post preload", "prepare Photo preload", "load Comment load", "load Post preload", "load Photo preload"],
  },
];

describe("every read path runs relation:prepare once per Relation it compiles, and records:load once per batch of rows", () => {
  beforeAll(async () => {
    await resetDatabase();
    const ada = await Writer.createOrThrow({ name: "Ada" });
    adaId = ada.id;
    await Note.insertAll([{ userId: adaId, title: "a1" }, { userId: adaId, title: "a2" }]);
    const article = await Article.createOrThrow({ title: "tagged" });
    const label = await Label.createOrThrow({ name: "red" });
    await Tagging.createOrThrow({ thrPostId: article.id!, thrTagId: label.id! });
    await polymorphic.Post.createOrThrow({ id: "1", title: "A post" });
    await polymorphic.Photo.createOrThrow({ id: 1, caption: "A photo" });
    await polymorphic.Comment.insertAll([
      { commentableType: "Post", commentableId: "1", body: "on the post" },
      { commentableType: "Photo", commentableId: "1", body: "on the photo" },
    ]);
  });

  for (const { path, read, stages: expected, roundTrips: trips = 1 } of STAGED_PATHS) {
    it(path, async () => {
      const { binding, roundTrips } = recordingRoundTrips();
      stages.length = 0;
      await withDatabase(connect(binding), read);
      expect(stages).toEqual(expected);
      expect(roundTrips).toHaveLength(trips);
    });
  }
});
