import { belongsTo, hasMany, Model, softDelete } from "../../src/index.js";

/** For each article destroyed, whether it was marked destroyed when its after-destroy callback ran. */
export const destroyedWhenCalledBack: boolean[] = [];

/** Articles soft-deleted with `softDelete` (migration 0070): their comments are soft-deleted too, their attachments not. */
export class TrashableArticle extends Model({
  id: "integer",
  title: { type: "string", null: false },
  deletedAt: "datetime",
  createdAt: "datetime",
  updatedAt: "datetime",
}) {
  static override binding = "DB";
  static {
    this.use(softDelete);
    this.afterDestroy((record) => {
      destroyedWhenCalledBack.push(record.isDestroyed());
    });
  }
  trashableComments = hasMany(TrashableComment, { dependent: "destroy" });
  trashableAttachments = hasMany(TrashableAttachment, { dependent: "destroy" });
}

export class TrashableComment extends Model({
  id: "integer",
  trashableArticleId: { type: "integer", null: false },
  body: { type: "string", null: false },
  deletedAt: "datetime",
}) {
  static override binding = "DB";
  static {
    this.use(softDelete);
  }
  trashableArticle = belongsTo(TrashableArticle);
}

/** Not soft-deleted: destroyed for real when its article is. */
export class TrashableAttachment extends Model({
  id: "integer",
  trashableArticleId: { type: "integer", null: false },
  name: { type: "string", null: false },
}) {
  static override binding = "DB";
  trashableArticle = belongsTo(TrashableArticle);
}
