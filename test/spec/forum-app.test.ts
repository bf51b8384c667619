import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
/**
 * A forum app whose features combine, as an app combines them: posts of several kinds in one table (questions and
 * answers, single-table inheritance) with default scopes on the root and on a subclass, counter caches declared on
 * the root and on subclasses, soft delete, optimistic locking, tenancy, tags through polymorphic taggings.
 */
import { batch, belongsTo, hasMany, Model, multiTenancy, optimisticLocking, softDelete, withDatabase, withTenant, type QueryEvent } from "../../src/index.js";
import { listen } from "../helpers/queries.js";

const TABLES = ["fa_taggings", "fa_tags", "fa_posts", "fa_forums"];

beforeEach(async () => {
  await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

interface Options {
  hidden?: boolean;
  closed?: boolean;
  softDelete?: boolean;
  tenancy?: boolean;
  locking?: boolean;
  dependent?: "destroy" | "deleteAll" | "nullify";
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
    answers = hasMany(Answer, { foreignKey: "questionId", dependent: "destroy" });
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
