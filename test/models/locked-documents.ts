import { belongsTo, hasMany, Model, optimisticLocking } from "../../src/index.js";

/** Documents with optimistic locking (migration 0070), each with sections that are locked too. */
export class LockedDocument extends Model({
  id: "integer",
  title: { type: "string", null: false },
  lockVersion: { type: "integer", null: false, default: 0 },
}) {
  static override binding = "DB";
  static {
    this.use(optimisticLocking);
  }
  lockedSections = hasMany(LockedSection, { dependent: "destroy" });
}

export class LockedSection extends Model({
  id: "integer",
  lockedDocumentId: { type: "integer", null: false },
  heading: { type: "string", null: false },
  lockVersion: { type: "integer", null: false, default: 0 },
}) {
  static override binding = "DB";
  static {
    this.use(optimisticLocking);
  }
  lockedDocument = belongsTo(LockedDocument);
}
