import { belongsTo, hasMany, Model, multiTenancy } from "../../src/index.js";

/** How many times the notes' default scope body has run (a test resets it). */
export const scopeRuns = { count: 0 };

/**
 * Notes (migration 0096) whose default scope hides the archived ones: `archived` has no default of its own, so a new
 * note gets `false` from the scope alone.
 */
export class ArchivableNote extends Model({
  id: "integer",
  archivableBoardId: "integer",
  title: { type: "string", null: false },
  archived: { type: "boolean", null: false },
  pinned: { type: "boolean", null: false, default: false },
  tenantId: "string",
}) {
  static override binding = "DB";
  static {
    this.defaultScope((q) => {
      scopeRuns.count++;
      return q.where({ archived: false });
    });
  }
  archivableBoard = belongsTo(ArchivableBoard, { optional: true });
}

/** The pinned notes: the parent's default scope and its own, ANDed. */
export class PinnedNote extends ArchivableNote {
  static {
    this.defaultScope((q) => q.where({ pinned: true }));
  }
}

/** Notes of the current tenant: `unscoped()` lifts the default scope, never the tenant's condition. */
export class TenantNote extends ArchivableNote {
  static {
    this.use(multiTenancy());
  }
}

/** A board whose notes are destroyed with it, each through its own destroy. */
export class ArchivableBoard extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override binding = "DB";
  archivableNotes = hasMany(ArchivableNote, { dependent: "destroy" });
  pinnedNotes = hasMany(PinnedNote, { foreignKey: "archivableBoardId" });
}

/** The same boards, whose notes are deleted with one set-based DELETE. */
export class PurgedBoard extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override tableName = "archivable_boards";
  static override binding = "DB";
  archivableNotes = hasMany(ArchivableNote, { dependent: "deleteAll", foreignKey: "archivableBoardId" });
}

/** The same boards, whose notes are let go (their key set to NULL) with one set-based UPDATE. */
export class ReleasedBoard extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override tableName = "archivable_boards";
  static override binding = "DB";
  archivableNotes = hasMany(ArchivableNote, { dependent: "nullify", foreignKey: "archivableBoardId" });
}
