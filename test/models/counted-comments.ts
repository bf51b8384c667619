import { belongsTo, type HasManyDependent, hasMany, hasOne, type HasOneDependent, Model, multiTenancy } from "../../src/index.js";

/**
 * A blog whose counters are kept by counter caches, on the tables of migration 0085: users with posts (which stay
 * when the user goes: no foreign key constraint), posts counting
 * their comments (`commentsCount`, a name of its own), users counting the comments they wrote, comments threaded by
 * `parentId` counting their replies. Each call makes new classes, so that each test fixes its own Models' hooks;
 * `callbacks` gives comments a destroy callback (their dependents are then destroyed record by record), `userComments`
 * the user's `dependent` strategy for the comments they wrote, `userPosts` for their posts (none by default), `pinned`
 * that of the post's one pinned comment (a `hasOne` whose replacement takes the old comment off the post).
 */
export function countedComments(options: { callbacks?: boolean; userComments?: HasManyDependent; userPosts?: HasManyDependent; pinned?: HasOneDependent } = {}) {
  const log: string[] = [];
  class User extends Model({ id: { type: "string", null: false }, name: "string", commentsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "cc_users";
    posts = hasMany(Post, { foreignKey: "ccUserId", ...(options.userPosts && { dependent: options.userPosts }) });
    comments = hasMany(Comment, { foreignKey: "ccUserId", dependent: options.userComments ?? "destroy" });
  }
  class Post extends Model({
    id: { type: "string", null: false },
    ccUserId: "string",
    title: "string",
    commentsCount: { type: "integer", null: false },
    repliesCount: "integer",
  }) {
    static override binding = "DB";
    static override tableName = "cc_posts";
    author = belongsTo(User, { foreignKey: "ccUserId", optional: true });
    comments = hasMany(Comment, { foreignKey: "ccPostId", dependent: "destroy" });
    firstComments = hasMany(Comment, { foreignKey: "ccPostId", scope: (q) => q.where({ parentId: null }) });
    pinned = hasOne(Comment, { foreignKey: "ccPostId", ...(options.pinned && { dependent: options.pinned }) });
  }
  class Comment extends Model({
    id: { type: "string", null: false },
    ccPostId: "string",
    ccUserId: "string",
    parentId: "string",
    body: "string",
    repliesCount: { type: "integer", null: false },
  }) {
    static override binding = "DB";
    static override tableName = "cc_comments";
    static {
      if (options.callbacks) this.beforeDestroy((comment) => void log.push(`destroy ${comment.body}`));
    }
    post = belongsTo(Post, { foreignKey: "ccPostId", counterCache: "commentsCount", optional: true });
    author = belongsTo(User, { foreignKey: "ccUserId", counterCache: "commentsCount", optional: true });
    parent = belongsTo(Comment, { foreignKey: "parentId", counterCache: "repliesCount", optional: true });
    replies = hasMany(Comment, { foreignKey: "parentId", dependent: "destroy" });
  }
  return { User, Post, Comment, log };
}

export type CountedComments = ReturnType<typeof countedComments>;

/** Boards counting their topics on integer keys the database assigns, by the default name (`ccTopicsCount`). */
export class Board extends Model({ id: "integer", name: "string", ccTopicsCount: { type: "integer", null: false } }) {
  static override binding = "DB";
  static override tableName = "cc_boards";
  topics = hasMany(Topic, { foreignKey: "ccBoardId" });
}

export class Topic extends Model({ id: "integer", ccBoardId: "integer", title: "string" }) {
  static override binding = "DB";
  static override tableName = "cc_topics";
  board = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: true });
}

/** Lists of tenants counting their tasks, scoped by `multiTenancy`. */
export class TenantList extends Model({
  id: { type: "string", null: false },
  tenantId: { type: "string", null: false },
  name: "string",
  tasksCount: { type: "integer", null: false },
}) {
  static override binding = "DB";
  static override tableName = "cc_lists";
  static {
    this.use(multiTenancy());
  }
  tasks = hasMany(TenantTask, { foreignKey: "ccListId" });
}

export class TenantTask extends Model({ id: { type: "string", null: false }, tenantId: { type: "string", null: false }, ccListId: "string", title: "string" }) {
  static override binding = "DB";
  static override tableName = "cc_tasks";
  static {
    this.use(multiTenancy());
  }
  list = belongsTo(TenantList, { foreignKey: "ccListId", counterCache: "tasksCount" });
}
