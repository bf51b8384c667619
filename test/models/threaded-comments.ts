import { type Dependent, hasMany, hasOne, Model, multiTenancy } from "../../src/index.js";

/**
 * Threaded comments on the tables of migration 0071: users with comments, each comment with replies (comments whose
 * `parentId` is its id: a Model its own dependent) and votes; flags of a user or a comment; shelves holding folders
 * that hold shelves (a loop through two Models). Each call makes new classes, so that each test fixes its own
 * Models' hooks; `callbacks` logs the comments' (and shelves' and folders') destroy callbacks; `tenants` puts
 * shelves and folders under `multiTenancy` (the `tenant_id` of migration 0078); `folderShelves: false` leaves the
 * folders' shelves alone on a destroy, so that shelves and folders make a tree without a loop.
 */
export function threadedComments(
  options: { callbacks?: boolean; comments?: Dependent; flags?: Dependent; commentFlags?: Dependent; tenants?: boolean; folderShelves?: boolean } = {},
) {
  const log: string[] = [];
  const watch = (model: any, name: (record: any) => string) => {
    if (!options.callbacks) return;
    model.beforeDestroy((record: any) => void log.push(`before ${name(record)}`));
    model.afterDestroy((record: any) => void log.push(`after ${name(record)}`));
  };
  const scoped = (model: { use(plugin: ReturnType<typeof multiTenancy>): unknown }) => void (options.tenants && model.use(multiTenancy()));
  class Vote extends Model({ id: "integer", tcCommentId: "integer" }) {
    static override binding = "DB";
    static override tableName = "tc_votes";
  }
  class Flag extends Model({ id: "integer", tcCommentId: "integer", tcUserId: "integer" }) {
    static override binding = "DB";
    static override tableName = "tc_flags";
  }
  class Comment extends Model({ id: "integer", tcUserId: "integer", parentId: "integer", body: "string" }) {
    static override binding = "DB";
    static override tableName = "tc_comments";
    static {
      watch(this, (record) => record.body);
    }
    replies = hasMany(Comment, { foreignKey: "parentId", dependent: "destroy" });
    votes = hasMany(Vote, { foreignKey: "tcCommentId", dependent: "destroy" });
    flags = hasMany(Flag, { foreignKey: "tcCommentId", dependent: (options.commentFlags ?? "deleteAll") as "deleteAll" });
  }
  class User extends Model({ id: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = "tc_users";
    comments = hasMany(Comment, { foreignKey: "tcUserId", dependent: (options.comments ?? "destroy") as "destroy" });
    flag = hasOne(Flag, { foreignKey: "tcUserId", dependent: (options.flags ?? "delete") as "delete" });
  }
  class Shelf extends Model({ id: "integer", tcFolderId: "integer", tcUserId: "integer", name: "string", tenantId: "string" }) {
    static override binding = "DB";
    static override tableName = "tc_shelves";
    static {
      scoped(this);
      watch(this, (record) => `shelf ${record.name}`);
    }
    folders = hasMany(Folder, { foreignKey: "tcShelfId", dependent: "destroy" });
  }
  class Folder extends Model({ id: "integer", tcShelfId: "integer", name: "string", tenantId: "string" }) {
    static override binding = "DB";
    static override tableName = "tc_folders";
    static {
      scoped(this);
      watch(this, (record) => `folder ${record.name}`);
    }
    shelves = hasMany(Shelf, { foreignKey: "tcFolderId", ...(options.folderShelves === false ? {} : { dependent: "destroy" as const }) });
  }
  return { User, Comment, Vote, Flag, Shelf, Folder, log };
}

export type ThreadedComments = ReturnType<typeof threadedComments>;

/** Empties the tables of migration 0071. */
export const THREADED_TABLES = ["tc_votes", "tc_flags", "tc_comments", "tc_users", "tc_shelves", "tc_folders"];
