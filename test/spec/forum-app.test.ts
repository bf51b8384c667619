import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
/**
 * A forum app whose features combine, as an app combines them: posts of several kinds in one table (questions and
 * answers, single-table inheritance) with default scopes on the root and on a subclass, counter caches declared on
 * the root and on subclasses, soft delete, optimistic locking, tenancy, tags through polymorphic taggings.
 */
import { auditLog, batch, belongsTo, hasMany, Model, multiTenancy, optimisticLocking, softDelete, withDatabase, withTenant, type QueryEvent } from "../../src/index.js";
import { listen } from "../helpers/queries.js";

const TABLES = ["fa_taggings", "fa_tags", "fa_posts", "fa_forums"];

/** Soft delete's statics, which are not in the Models' types. */
interface Trash {
  withDeleted(): { count(): Promise<number> };
  onlyDeleted(): { findByOrThrow(conditions: object): Promise<{ restore(): Promise<boolean> }> };
}
const trash = (model: unknown) => model as Trash;

beforeEach(async () => {
  await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

interface Options {
  hidden?: boolean;
  closed?: boolean;
  softDelete?: boolean;
  tenancy?: boolean;
  locking?: boolean;
  audited?: boolean;
  dependent?: "destroy" | "deleteAll" | "nullify";
  answers?: "destroy" | "restrictWithError";
}

/** A forum app, new classes per call. */
function forum(options: Options = {}) {
  class Forum extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    name: { type: "string", null: false },
    archived: { type: "boolean", null: false },
    postsCount: { type: "integer", null: false },
    questionsCount: { type: "integer", null: false },
    deletedAt: "datetime",
  }) {
    static override binding = "DB";
    static override tableName = "fa_forums";
    static {
      if (options.tenancy) this.use(multiTenancy());
      if (options.audited) this.use(auditLog);
      if (options.softDelete) this.use(softDelete);
    }
    posts = hasMany(Post, { foreignKey: "faForumId", ...(options.dependent && { dependent: options.dependent }) });
    questions = hasMany(Question, { foreignKey: "faForumId" });
  }
  class Post extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    type: "string",
    faForumId: "string",
    questionId: "string",
    title: { type: "string", null: false },
    hidden: { type: "boolean", null: false },
    closed: { type: "boolean", null: false },
    repliesCount: { type: "integer", null: false },
    taggingsCount: { type: "integer", null: false },
    lockVersion: { type: "integer", null: false },
    deletedAt: "datetime",
    updatedAt: "datetime",
  }) {
    static override binding = "DB";
    static override tableName = "fa_posts";
    static {
      this.inheritance(() => ({ Question, Answer }));
      if (options.tenancy) this.use(multiTenancy());
      if (options.audited) this.use(auditLog);
      if (options.softDelete) this.use(softDelete);
      if (options.locking) this.use(optimisticLocking);
      if (options.hidden) this.defaultScope((q) => q.where({ hidden: false }));
    }
    forum = belongsTo(Forum, { foreignKey: "faForumId", counterCache: "postsCount", optional: true });
  }
  class Question extends Post {
    static open = this.scope((q) => q.where({ closed: false }));
    static {
      if (options.closed) this.defaultScope((q) => q.where({ closed: false }));
    }
    questionForum = belongsTo(Forum, { foreignKey: "faForumId", counterCache: "questionsCount", optional: true });
    answers = hasMany(Answer, { foreignKey: "questionId", dependent: options.answers ?? "destroy" });
  }
  class Answer extends Post {
    question = belongsTo(Question, { foreignKey: "questionId", counterCache: "repliesCount" });
  }
  return { Forum, Post, Question, Answer };
}

type Forum = ReturnType<typeof forum>;

async function forumCounts({ Forum }: Forum) {
  const result: Record<string, [posts: number, questions: number, countedPosts: number, countedQuestions: number]> = {};
  for (const f of await Forum.unscoped().toArray()) result[f.name] = [f.postsCount, f.questionsCount, await f.posts().count(), await f.questions().count()];
  return result;
}

describe("single-table inheritance with default scopes and counter caches", () => {
  it("counters of the root's belongsTo and of a subclass's count what each association reads", async () => {
    const app = forum({ hidden: true, closed: true });
    const { Forum, Post, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const q = await Question.createOrThrow({ faForumId: f.id, title: "q" });
    expect(await forumCounts(app)).toEqual({ f: [1, 1, 1, 1] });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q.id, title: "a" });
    expect(await forumCounts(app)).toEqual({ f: [2, 1, 2, 1] });
    // Closing a question hides it from forum.questions() (Question's default scope), not from forum.posts().
    await q.updateOrThrow({ closed: true });
    expect(await forumCounts(app)).toEqual({ f: [2, 0, 2, 0] });
    await q.updateOrThrow({ hidden: true });
    expect(await forumCounts(app)).toEqual({ f: [1, 0, 1, 0] });
    expect(await Forum.resetCounters(f.id, "posts", "questions")).toBe(1);
    expect(await forumCounts(app)).toEqual({ f: [1, 0, 1, 0] });
    // A loaded forum moves as its rows do.
    const closed = await Question.unscoped().findByOrThrow({ title: "q" });
    const loaded = (await closed.forum.load())!;
    await closed.updateOrThrow({ hidden: false });
    expect(loaded.postsCount).toBe(2);
    expect(await forumCounts(app)).toEqual({ f: [2, 0, 2, 0] });
  });
});

describe("single-table inheritance with default scopes and counter caches: size() and resetCounters", () => {
  it("size() of each hasMany reads its own counter; resetCounters recounts each", async () => {
    const app = forum({ hidden: true, closed: true });
    const { Forum, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const q = await Question.createOrThrow({ faForumId: f.id, title: "q" });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q.id, title: "a" });
    const loaded = await Forum.find(f.id);
    expect([await loaded.posts().size(), await loaded.questions().size()]).toEqual([2, 1]);
    await env.DB.prepare("UPDATE fa_forums SET posts_count = 9, questions_count = 9").run();
    expect(await Forum.resetCounters(f.id, "questions")).toBe(1);
    expect(await forumCounts(app)).toEqual({ f: [9, 1, 2, 1] });
    expect(await Forum.resetCounters(f.id, "posts")).toBe(1);
    expect(await forumCounts(app)).toEqual({ f: [2, 1, 2, 1] });
  });
});

describe("single-table inheritance with associations declared on subclasses", () => {
  it("includes, withCount, whereCount of subclasses and of a subclass's association", async () => {
    const app = forum({ hidden: true, closed: true });
    const { Forum, Post, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const g = await Forum.createOrThrow({ name: "g" });
    const q1 = await Question.createOrThrow({ faForumId: f.id, title: "q1" });
    const q2 = await Question.createOrThrow({ faForumId: f.id, title: "q2", closed: true });
    const q3 = await Question.createOrThrow({ faForumId: g.id, title: "q3" });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a1" });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a2", hidden: true });
    await Answer.createOrThrow({ faForumId: g.id, questionId: q3.id, title: "a3" });
    void q2;
    const withIncludes = await Forum.includes("questions", "posts").order({ name: "asc" }).toArray();
    expect((await withIncludes[0]!.questions().toArray()).map((each) => each.title)).toEqual(["q1"]);
    expect((await withIncludes[0]!.posts().toArray()).map((each) => [each.constructor.name, each.title]).sort()).toEqual([["Answer", "a1"], ["Question", "q1"], ["Question", "q2"]]);
    const questions = await Question.withCount("answers").includes("answers", "forum").order({ title: "asc" }).toArray();
    expect(questions.map((each) => [each.title, each.answersCount, each.forum.get()?.name])).toEqual([
      ["q1", 1, "f"],
      ["q3", 1, "g"],
    ]);
    expect((await questions[0]!.answers().toArray()).map((each) => each.title)).toEqual(["a1"]);
    expect(await Question.whereCount("answers", ">=", 1).count()).toBe(2);
    const page = await Question.includes("answers").withCount("answers").paginate({ page: 1, perPage: 1 });
    expect([page.total, page.records.map((each) => each.answersCount)]).toEqual([2, [1]]);
    const answers = await Answer.includes("question").order({ title: "asc" }).toArray();
    expect(answers.map((each) => each.question.get()?.title)).toEqual(["q1", "q3"]);
    expect((await Post.order({ title: "asc" }).toArray()).map((each) => each.constructor.name)).toEqual(["Answer", "Answer", "Question", "Question", "Question"]);
  });

  it("destroying a question with dependent destroy, soft delete and locking", async () => {
    const app = forum({ hidden: true, softDelete: true, locking: true });
    const { Forum, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const q1 = await Question.createOrThrow({ faForumId: f.id, title: "q1" });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a1" });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a2" });
    const loaded = await Question.find(q1.id);
    expect(loaded.repliesCount).toBe(2);
    await loaded.destroyOrThrow();
    expect(await forumCounts(app)).toEqual({ f: [0, 0, 0, 0] });
    expect(await Answer.count()).toBe(0);
    expect(await trash(Answer).withDeleted().count()).toBe(2);
    const trashed = await trash(Question).onlyDeleted().findByOrThrow({ title: "q1" });
    expect(await trashed.restore()).toBe(true);
    expect(await forumCounts(app)).toEqual({ f: [1, 1, 1, 1] });
  });

  it("a forum's set-based dependents on its posts keep the counter a subclass declares, for the rows of its type", async () => {
    for (const dependent of ["destroy", "deleteAll", "nullify"] as const) {
      await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const app = forum({ hidden: true, closed: true, dependent });
      const { Forum, Question, Answer } = app;
      const f = await Forum.createOrThrow({ name: "f" });
      const g = await Forum.createOrThrow({ name: "g" });
      const q1 = await Question.createOrThrow({ faForumId: g.id, title: "q1" });
      await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a1" });
      await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a2" });
      await Question.createOrThrow({ faForumId: f.id, title: "q0", closed: true });
      // Set-based: the find, then one round trip, the answers' counter kept by the DELETE (or UPDATE) of the forum's posts.
      const { roundTrips } = await sentBy(async () => (await Forum.find(f.id)).destroyOrThrow());
      const q = await Question.unscoped().find(q1.id);
      expect([dependent, roundTrips, q.repliesCount]).toEqual([dependent, 2, dependent === "nullify" ? 2 : 0]);
    }
  });

  it("a forum's dependent destroy reaches a question's own dependents and an answer's callbacks, each row destroyed as its class", async () => {
    const app = forum({ dependent: "destroy" });
    const { Forum, Question, Answer } = app;
    const log: string[] = [];
    Answer.afterDestroy((answer) => void log.push(`answer ${answer.title}`));
    const f = await Forum.createOrThrow({ name: "f" });
    const g = await Forum.createOrThrow({ name: "g" });
    const q1 = await Question.createOrThrow({ faForumId: f.id, title: "q1" });
    await Answer.createOrThrow({ faForumId: g.id, questionId: q1.id, title: "a1" });
    await Answer.createOrThrow({ faForumId: f.id, questionId: q1.id, title: "a2" });
    // The answers' callbacks need their records: the find, one read of every level, then one write batch.
    const { roundTrips } = await sentBy(async () => (await Forum.find(f.id)).destroyOrThrow());
    expect(roundTrips).toBe(3);
    expect(log.sort()).toEqual(["answer a1", "answer a2"]);
    expect(await Answer.count()).toBe(0);
    expect(await forumCounts(app)).toEqual({ g: [0, 0, 0, 0] });
  });
});


/** Tags on posts through polymorphic, soft-deletable taggings; tags and taggings have default scopes of their own. */
function tagged(options: { softDelete?: boolean; hiddenTaggings?: boolean; tenancy?: boolean; dependent?: "destroy" | "deleteAll" | "nullify" } = {}) {
  class Tag extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    name: { type: "string", null: false },
    hidden: { type: "boolean", null: false },
    taggingsCount: { type: "integer", null: false },
  }) {
    static override binding = "DB";
    static override tableName = "fa_tags";
    static {
      this.defaultScope((q) => q.where({ hidden: false }));
      if (options.tenancy) this.use(multiTenancy());
    }
    taggings = hasMany(Tagging, { foreignKey: "faTagId" });
    posts = hasMany(Post, { through: this.taggings, source: "taggable", sourceType: "Post" });
  }
  class Tagging extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    faTagId: { type: "string", null: false },
    taggableType: { type: "string", null: false },
    taggableId: { type: "string", null: false },
    hidden: { type: "boolean", null: false },
    deletedAt: "datetime",
  }) {
    static override binding = "DB";
    static override tableName = "fa_taggings";
    static {
      if (options.softDelete) this.use(softDelete);
      if (options.tenancy) this.use(multiTenancy());
      if (options.hiddenTaggings) this.defaultScope((q) => q.where({ hidden: false }));
    }
    tag = belongsTo(Tag, { foreignKey: "faTagId", counterCache: "taggingsCount" });
    taggable = belongsTo([Post], { polymorphic: true });
  }
  class Post extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    type: "string",
    title: { type: "string", null: false },
    hidden: { type: "boolean", null: false },
    taggingsCount: { type: "integer", null: false },
  }) {
    static override binding = "DB";
    static override tableName = "fa_posts";
    static {
      this.inheritance(() => ({ Question }));
      this.defaultScope((q) => q.where({ hidden: false }));
      if (options.tenancy) this.use(multiTenancy());
    }
    taggings = hasMany(Tagging, { as: "taggable", ...(options.dependent && { dependent: options.dependent }) });
    tags = hasMany(Tag, { through: this.taggings });
  }
  class Question extends Post {}
  return { Tag, Tagging, Post, Question };
}

async function sentBy<T>(work: () => Promise<T>): Promise<{ result: T; roundTrips: number; sqls: string[] }> {
  const { db, events } = listen();
  const result = await withDatabase(db, work);
  return { result, roundTrips: new Set(events.map((event: QueryEvent) => event.roundTrip)).size, sqls: events.map((event) => event.sql) };
}

describe("through a polymorphic join Model with default scopes and soft delete", () => {
  it("reads, preloads in a page's one round trip, counts, and add, remove and set soft-delete join rows and keep counters", async () => {
    const { Tag, Tagging, Post, Question } = tagged({ softDelete: true, hiddenTaggings: true });
    const [ts, rust, secret] = [await Tag.createOrThrow({ name: "ts" }), await Tag.createOrThrow({ name: "rust" }), await Tag.createOrThrow({ name: "secret", hidden: true })];
    const q = await Question.createOrThrow({ title: "q" });
    const p = await Post.createOrThrow({ title: "p" });
    await q.tags().add(ts, rust);
    await Tagging.createOrThrow({ faTagId: secret.id, taggableType: "Post", taggableId: q.id });
    await p.tags().add(ts);
    await Tagging.createOrThrow({ faTagId: rust.id, taggableType: "Post", taggableId: p.id, hidden: true });
    expect((await Tagging.pluck("taggableType"))).toEqual(["Post", "Post", "Post", "Post"]);
    expect((await q.tags().order({ name: "asc" }).pluck("name"))).toEqual(["rust", "ts"]);
    expect(await Tag.order({ name: "asc" }).pluck("taggingsCount")).toEqual([1, 2]);
    const { result: page, roundTrips } = await sentBy(() => Post.includes("tags").withCount("tags").order({ title: "asc" }).paginate({ page: 1 }));
    expect(roundTrips).toBe(1);
    expect(page.records.map((each) => [each.title, each.tagsCount])).toEqual([["p", 1], ["q", 2]]);
    expect((await page.records[1]!.tags().toArray()).map((each) => each.name).sort()).toEqual(["rust", "ts"]);
    expect((await page.records[0]!.tags().toArray()).map((each) => each.name)).toEqual(["ts"]);
    const { result: busiest, roundTrips: busiestTrips } = await sentBy(() =>
      Post.includes("tags").withCount("tags").whereCount("tags", ">", 0).orderByCount("tags", "desc").paginate({ page: 1, perPage: 1, count: false }),
    );
    expect([busiestTrips, busiest.hasNext, busiest.records.map((each) => [each.title, each.tagsCount])]).toEqual([1, true, [["q", 2]]]);
    expect((await busiest.records[0]!.tags().toArray()).length).toBe(2);
    const { result: tags } = await sentBy(() => Tag.includes("posts").withCount("posts").order({ name: "asc" }).toArray());
    expect(tags.map((each) => [each.name, each.postsCount])).toEqual([["rust", 1], ["ts", 2]]);
    expect((await tags[0]!.posts().toArray()).map((each) => [each.constructor.name, each.title])).toEqual([["Question", "q"]]);
    // soft delete a join row
    const joining = await Tagging.findByOrThrow({ faTagId: ts.id, taggableId: q.id });
    await joining.destroyOrThrow();
    expect(await trash(Tagging).withDeleted().count()).toBe(4);
    expect((await q.tags().pluck("name"))).toEqual(["rust"]);
    expect(await Tag.order({ name: "asc" }).pluck("taggingsCount")).toEqual([1, 1]);
    expect(await Post.withCount("tags").order({ title: "asc" }).toArray().then((all) => all.map((each) => each.tagsCount))).toEqual([1, 1]);
    // remove through soft-deletes the join row
    const loaded = await Question.find(q.id);
    await loaded.tags().remove(await Tag.findByOrThrow({ name: "rust" }));
    expect(await trash(Tagging).withDeleted().count()).toBe(4);
    expect(await Tag.order({ name: "asc" }).pluck("taggingsCount")).toEqual([0, 1]);
    // set adds back ts
    await loaded.tags().set([await Tag.findByOrThrow({ name: "ts" })]);
    expect((await q.tags().pluck("name"))).toEqual(["ts"]);
    expect(await Tag.order({ name: "asc" }).pluck("taggingsCount")).toEqual([0, 2]);
  });

  it("each dependent of the join rows on a question's destroy: soft-deleted, counters kept", async () => {
    for (const dependent of ["destroy", "deleteAll", "nullify"] as const) {
      await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const { Tag, Tagging, Question } = tagged({ softDelete: true, hiddenTaggings: true, dependent });
      const ts = await Tag.createOrThrow({ name: "ts" });
      const q = await Question.createOrThrow({ title: "q" });
      await q.tags().add(ts);
      const error = await (await Question.find(q.id)).destroyOrThrow().then(() => undefined, (thrown) => String(thrown));
      expect.soft(error, dependent).toEqual(dependent === "nullify" ? expect.stringContaining("NotNullViolation") : undefined);
      expect.soft([dependent, await Tag.pluck("taggingsCount"), await Tagging.count(), await trash(Tagging).withDeleted().count()], dependent).toEqual([dependent, dependent === "nullify" ? [1] : [0], dependent === "nullify" ? 1 : 0, 1]);
    }
  });
});

async function auditEntries(): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT model, operation FROM audit_log_entries ORDER BY id`).all<{ model: string; operation: string }>();
  await env.DB.prepare(`DELETE FROM audit_log_entries`).run();
  return results.map((row) => `${row.model} ${row.operation}`);
}

describe("tenancy, audit log and single-table inheritance with bulk writes and batch", () => {
  it("each bulk write is the tenant's, of the subclass's type, and audited in its round trip", async () => {
    const app = forum({ tenancy: true, audited: true, hidden: true, closed: true });
    const { Forum, Post, Question, Answer } = app;
    await auditEntries();
    await withTenant("acme", async () => {
      const f = await Forum.createOrThrow({ name: "f" });
      await Question.insertAll([{ title: "q1", faForumId: f.id }, { title: "q2", faForumId: f.id }]);
      expect(await Question.pluck("tenantId")).toEqual(["acme", "acme"]);
      expect(await auditEntries()).toEqual(["Forum create", "Question insertAll", "Question insertAll"]);
    });
    await withTenant("globex", async () => {
      const g = await Forum.createOrThrow({ name: "g" });
      const q = await Question.createOrThrow({ title: "gq", faForumId: g.id });
      await Answer.createOrThrow({ title: "ga", faForumId: g.id, questionId: q.id });
      expect(await forumCounts(app)).toEqual({ g: [2, 1, 2, 1] });
      await auditEntries();
      expect(await Question.count()).toBe(1);
      expect(await Question.updateAll({ closed: true })).toBe(1);
      expect(await auditEntries()).toEqual(["Question updateAll"]);
      expect(await Post.updateAll({ hidden: true })).toBe(2);
      expect(await auditEntries()).toEqual(["Post updateAll", "Post updateAll"]);
      expect(await Post.unscoped().updateAll({ hidden: false, closed: false })).toBe(2);
      await auditEntries();
      const [saved, inserted, updated] = await batch([
        Question.build({ title: "gq2", faForumId: g.id }).toSave(),
        Answer.toInsertAll([{ title: "ga2", faForumId: g.id, questionId: q.id }]),
        Answer.where({ questionId: q.id }).toUpdateAll({ title: "answer" }),
      ]);
      expect(saved.isPersisted()).toBe(true);
      void inserted;
      expect(updated).toBe(2);
      expect(await auditEntries()).toEqual(["Question create", "Forum create", "Answer insertAll", "Answer updateAll", "Answer updateAll"].filter((each) => each !== "Forum create"));
      expect(await Answer.where({ questionId: q.id }).deleteAll()).toBe(2);
      expect(await auditEntries()).toEqual(["Answer deleteAll", "Answer deleteAll"]);
      await Question.upsertAll([{ id: q.id, title: "upserted" }]);
      expect(await Question.unscoped().where({ id: q.id }).pluck("title")).toEqual(["upserted"]);
    });
    await withTenant("acme", async () => {
      expect(await Post.unscoped().count()).toBe(2);
      const q1 = await Question.findByOrThrow({ title: "q1" });
      await Question.upsertAll([{ id: q1.id, title: "x" }]);
      expect(await Question.where({ id: q1.id }).pluck("title")).toEqual(["x"]);
      await auditEntries();
      const count = await Forum.resetCounters((await Forum.pluck("id")) as string[], "posts", "questions");
      expect(count).toBe(1);
      expect(await forumCounts(app)).toEqual({ f: [2, 2, 2, 2] });
    });
  });
});

describe("uniqueness in combination", () => {
  it("on a subclass, on a default-scoped root, with soft delete and tenancy", async () => {
    const app = forum({ hidden: true, closed: true, softDelete: true, tenancy: true });
    const { Forum, Post, Question, Answer } = app;
    Question.validates("title", { uniqueness: true });
    await withTenant("acme", async () => {
      const f = await Forum.createOrThrow({ name: "f" });
      const q = await Question.createOrThrow({ title: "same", faForumId: f.id });
      await Answer.createOrThrow({ title: "same", faForumId: f.id, questionId: q.id });
      const closedQ = await Question.createOrThrow({ title: "closed", faForumId: f.id, closed: true, hidden: true });
      const again = Question.build({ title: "closed", faForumId: f.id });
      expect(await again.save()).toBe(false);
      await closedQ.destroyOrThrow();
      expect(await again.save()).toBe(false);
      expect(again.errors.fullMessages()).toEqual(["Title has already been taken"]);
      expect(await Question.build({ title: "same" }).save()).toBe(false);
      expect(await Answer.build({ title: "closed", questionId: q.id }).save()).toBe(true);
    });
    await withTenant("globex", async () => {
      const f = await Forum.createOrThrow({ name: "f" });
      expect(await Question.build({ title: "same", faForumId: f.id }).save()).toBe(true);
    });
    void Post;
  });
});

async function replies({ Question }: Forum) {
  return Object.fromEntries((await Question.unscoped().order({ title: "asc" }).toArray()).map((each) => [each.title, each.repliesCount]));
}

describe("counter caches with optimistic locking, soft delete and batch", () => {
  it("stale writes change no counter; batch of several", async () => {
    const app = forum({ hidden: true, softDelete: true, locking: true });
    const { Forum, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const q1 = await Question.createOrThrow({ title: "q1", faForumId: f.id });
    const q2 = await Question.createOrThrow({ title: "q2", faForumId: f.id });
    const a1 = await Answer.createOrThrow({ title: "a1", questionId: q1.id, faForumId: f.id });
    const a2 = await Answer.createOrThrow({ title: "a2", questionId: q1.id, faForumId: f.id });
    const stale = await Answer.find(a1.id);
    await a1.updateOrThrow({ title: "a1!" });
    await expect(stale.update({ questionId: q2.id })).rejects.toThrow(/stale/);
    expect(await replies(app)).toEqual({ q1: 2, q2: 0 });
    await expect(stale.destroy()).rejects.toThrow(/stale/);
    expect(await replies(app)).toEqual({ q1: 2, q2: 0 });
    expect(await forumCounts(app)).toEqual({ f: [4, 2, 4, 2] });
    a2.questionId = q2.id;
    const a3 = Answer.build({ title: "a3", questionId: q2.id, faForumId: f.id });
    const { roundTrips } = await sentBy(() => batch([a1.toDestroy(), a2.toSave(), a3.toSave(), Answer.toInsert({ title: "a4", questionId: q2.id })]));
    expect(roundTrips).toBe(1);
    expect(await replies(app)).toEqual({ q1: 0, q2: 2 });
    expect(await forumCounts(app)).toEqual({ f: [4, 2, 4, 2] });
    const trashed = await trash(Answer).onlyDeleted().findByOrThrow({ title: "a1!" });
    await trashed.restore();
    expect(await replies(app)).toEqual({ q1: 1, q2: 2 });
    // updateAll moves rows and skips counters, as Rails does.
    expect(await Answer.where({ questionId: q1.id }).updateAll({ questionId: q2.id })).toBe(1);
    expect(await replies(app)).toEqual({ q1: 1, q2: 2 });
    await Question.resetCounters([q1.id, q2.id], "answers");
    expect(await replies(app)).toEqual({ q1: 0, q2: 4 });
  });
});

describe("single-table inheritance with polymorphic and through associations, tenancy across the hops", () => {
  it("a subclass's association builds with the subclass's type and scope; a polymorphic preload makes a subclass's record", async () => {
    const app = forum({ hidden: true, closed: true });
    const { Forum, Question } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const built = f.questions().build({ title: "b" });
    expect([built.constructor.name, built.type, built.closed, built.hidden]).toEqual(["Question", "Question", false, false]);
    await f.save();
    expect(await Question.count()).toBe(1);
    expect((await Forum.find(f.id)).questionsCount).toBe(1);
    const { Tag, Tagging, Question: TaggedQuestion } = tagged();
    const ts = await Tag.createOrThrow({ name: "ts" });
    const q = await TaggedQuestion.createOrThrow({ title: "q" });
    await q.tags().add(ts);
    const [tagging] = await Tagging.includes("taggable").toArray();
    expect(tagging!.taggable.get()?.constructor.name).toBe("Question");
    const tags = await Tag.includes({ posts: "tags" }).toArray();
    expect((await tags[0]!.posts().toArray()).map((each) => each.constructor.name)).toEqual(["Question"]);
  });

  it("a through association reads, preloads, counts and sets only the tenant's targets; a join row to another tenant's stays", async () => {
    const { Tag, Tagging, Post, Question } = tagged({ tenancy: true, softDelete: true });
    const gt = await withTenant("globex", () => Tag.createOrThrow({ name: "globex tag" }));
    await withTenant("acme", async () => {
      const ts = await Tag.createOrThrow({ name: "ts" });
      const q = await Question.createOrThrow({ title: "q" });
      await q.tags().add(ts);
      await Tagging.createOrThrow({ faTagId: gt.id, taggableType: "Post", taggableId: q.id });
      expect(await q.tags().pluck("name")).toEqual(["ts"]);
      const page = await Post.includes("tags").withCount("tags").paginate({ page: 1 });
      expect(page.records.map((each) => each.tagsCount)).toEqual([1]);
      expect((await page.records[0]!.tags().toArray()).map((each) => each.name)).toEqual(["ts"]);
      await q.tags().set([ts]);
      expect(await Tagging.count()).toBe(2);
      await (await Question.find(q.id)).destroyOrThrow().catch(() => undefined);
    });
    expect(await withTenant("globex", () => Tag.pluck("taggingsCount"))).toEqual([0]);
  });

  it("counterCache on a polymorphic belongsTo that a listed Model lacks is refused, not ignored", async () => {
    class Thing extends Model({ id: { type: "string", null: false }, taggableType: "string", taggableId: "string", faTagId: "string" }) {
      static override binding = "DB";
      static override tableName = "fa_taggings";
      taggable = belongsTo([Thing], { polymorphic: true, counterCache: "taggingsCount" } as never);
    }
    const error = await Thing.count().then(() => undefined, (thrown: unknown) => String(thrown));
    expect(error).toMatch(/counterCache needs Thing\.taggingsCount \(column taggings_count\), which Thing does not have/);
  });
});

describe("through set and setIds replace only the join rows to targets the association reaches", () => {
  it("set leaves join rows to targets the association does not reach (a hidden tag)", async () => {
    const { Tag, Tagging, Question } = tagged();
    const [ts, rust, secret] = [await Tag.createOrThrow({ name: "ts" }), await Tag.createOrThrow({ name: "rust" }), await Tag.createOrThrow({ name: "secret", hidden: true })];
    const q = await Question.createOrThrow({ title: "q" });
    await q.tags().add(ts, rust);
    await Tagging.createOrThrow({ faTagId: secret.id, taggableType: "Post", taggableId: q.id });
    await (await Question.find(q.id)).tags().set([ts]);
    expect(await Tagging.count()).toBe(2);
    await (await Question.find(q.id)).tags().setIds([]);
    expect(await Tagging.count()).toBe(1);
    await Tagging.deleteAll();
    await q.tags().add(ts);
    await Tagging.createOrThrow({ faTagId: secret.id, taggableType: "Post", taggableId: q.id });
    const loaded = await Question.find(q.id);
    await loaded.tags().toArray();
    await loaded.tags().set([]);
    expect(await Tagging.count()).toBe(1);
  });
});

describe("counter caches of a subclass with a stale record in a batch, withCount and setIds", () => {
  it("a stale record refuses the whole batch and no counter moves; size() answers from withCount; setIds moves the counter in memory", async () => {
    const app = forum({ hidden: true, locking: true });
    const { Forum, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const q = await Question.createOrThrow({ title: "q", faForumId: f.id });
    const a = await Answer.createOrThrow({ title: "a", faForumId: f.id, questionId: q.id });
    const stale = await Answer.find(a.id);
    await a.updateOrThrow({ title: "a!" });
    const fresh = Answer.build({ title: "b", faForumId: f.id, questionId: q.id });
    await expect(batch([fresh.toSave(), stale.toDestroy()])).rejects.toThrow(/stale/);
    expect(fresh.isNewRecord()).toBe(true);
    expect(await replies(app)).toEqual({ q: 1 });
    expect(await forumCounts(app)).toEqual({ f: [2, 1, 2, 1] });
    const loaded = await Question.withCount("answers").find(q.id);
    expect([loaded.answersCount, await loaded.answers().size()]).toEqual([1, 1]);
    await loaded.answers().setIds([]);
    expect(await replies(app)).toEqual({ q: 0 });
    expect(loaded.repliesCount).toBe(0);
  });
});

describe("soft delete through a tree of subclasses", () => {
  it("soft-deleted forum destroys its posts and the questions' answers softly, counters kept", async () => {
    const app = forum({ hidden: true, softDelete: true, dependent: "destroy" });
    const { Forum, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const g = await Forum.createOrThrow({ name: "g" });
    const q = await Question.createOrThrow({ title: "q", faForumId: f.id });
    const qg = await Question.createOrThrow({ title: "qg", faForumId: g.id });
    await Answer.createOrThrow({ title: "a", faForumId: f.id, questionId: q.id });
    await Answer.createOrThrow({ title: "b", faForumId: g.id, questionId: q.id });
    await Answer.createOrThrow({ title: "c", faForumId: f.id, questionId: qg.id });
    const { roundTrips } = await sentBy(async () => (await Forum.find(f.id)).destroyOrThrow());
    expect(roundTrips).toBe(3);
    expect(await Answer.pluck("title")).toEqual([]);
    expect(await trash(Answer).withDeleted().count()).toBe(3);
    expect(await replies(app)).toEqual({ q: 0, qg: 0 });
    expect(await forumCounts(app)).toEqual({ f: [0, 0, 0, 0], g: [1, 1, 1, 1] });
  });
});

describe("tenancy with a subclass's counters kept by set-based dependents", () => {
  it("a tenant's forum deletes its posts; the answers' counter on their questions moves, within the tenant", async () => {
    const app = forum({ tenancy: true, dependent: "deleteAll" });
    const { Forum, Question, Answer } = app;
    await withTenant("acme", async () => {
      const f = await Forum.createOrThrow({ name: "f" });
      const g = await Forum.createOrThrow({ name: "g" });
      const q = await Question.createOrThrow({ title: "q", faForumId: g.id });
      await Answer.createOrThrow({ title: "a", faForumId: f.id, questionId: q.id });
      await Answer.createOrThrow({ title: "b", faForumId: g.id, questionId: q.id });
      const { sqls } = await sentBy(async () => (await Forum.find(f.id)).destroyOrThrow());
      expect(sqls.filter((each) => each.includes('"replies_count"'))[0]).toContain('"tenant_id" = ');
      expect(await replies(app)).toEqual({ q: 1 });
    });
  });
});

describe("a subclass's restrictWithError below a forum's dependents", () => {
  it("refuses the forum's destroy while a question has answers, with the question's reason, after one read", async () => {
    const app = forum({ dependent: "destroy", answers: "restrictWithError" });
    const { Forum, Question, Answer } = app;
    const f = await Forum.createOrThrow({ name: "f" });
    const q = await Question.createOrThrow({ title: "q", faForumId: f.id });
    const a = await Answer.createOrThrow({ title: "a", questionId: q.id });
    // The find, then one batch of checks; nothing is written.
    const refused = await sentBy(async () => (await Forum.find(f.id)).destroyOrThrow().catch((error: Error) => `${error.name}: ${error.message}`));
    expect([refused.result, refused.roundTrips]).toEqual([expect.stringMatching(/^RecordNotDestroyed: .*Cannot delete record because dependent answers exist/), 2]);
    expect(await Question.count()).toBe(1);
    await a.destroyOrThrow();
    await (await Forum.find(f.id)).destroyOrThrow();
    expect(await Question.count()).toBe(0);
  });
});

describe("upsert of a subclass with tenancy and audit log", () => {
  it("leaves a row of another type or tenant as it is, and audits only the row it wrote", async () => {
    const app = forum({ tenancy: true, audited: true });
    const { Post, Question, Answer } = app;
    const other = await withTenant("globex", () => Question.createOrThrow({ title: "theirs" }));
    await withTenant("acme", async () => {
      const q = await Question.createOrThrow({ title: "q" });
      const a = await Answer.createOrThrow({ title: "a", questionId: q.id });
      await auditEntries();
      const meta = await Question.upsertAll([{ id: a.id, title: "hijack" }, { id: other.id, title: "hijack" }, { id: q.id, title: "q!" }]);
      expect(meta["changes"]).toBe(1);
      expect(await Post.order({ title: "asc" }).pluck("title")).toEqual(["a", "q!"]);
      expect(await auditEntries()).toEqual(["Question upsertAll"]);
    });
    expect(await withTenant("globex", () => Post.pluck("title"))).toEqual(["theirs"]);
  });
});
