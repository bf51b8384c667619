import { definePlugin, installWritePlans, sql } from "../kernel/index.js";

/** The table the audit log writes to; an app's migration creates it (see the guide, "Example: audit log"). */
const AUDIT_LOG_TABLE = "audit_log_entries";

/**
 * An audit log: one row in `audit_log_entries` (`model`, `operation`, `method`, `record_key`, `written_at`) for every
 * row any write changes: a save (create, update), a destroy, `insert`, `insertAll`, `upsert`, `upsertAll`,
 * `updateAll`, `deleteAll`, and the set-based writes of dependents. `method` is the call behind a write whose
 * `operation` does not tell it (`Post.updateCounters`, `Post#incrementAndSave`, `Post.comments.remove`, `Post#destroy`
 * for its dependents), else null. Each entry is an after-statement of the write's plan, so it is
 * sent in the write's own batch: a write that fails leaves no entry, an entry that fails leaves no write, and
 * `record_key` is the key the database assigned. Optional: add it to a base class with `plugin(auditLog)`.
 */
export const auditLog = definePlugin({
  name: "audit-log",
  setup: installWritePlans,
  // Its own table is never audited, were a Model declared on it.
  appliesTo: (model) => (model as { readonly tableName?: unknown }).tableName !== AUDIT_LOG_TABLE,
  hooks: {
    "write:plan"(plan) {
      const { model, operation, method = null } = plan;
      plan.after(
        (written) => sql`INSERT INTO "audit_log_entries" ("model", "operation", "method", "record_key", "written_at")
          SELECT ${model.name}, ${operation}, ${method}, "key", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM (${written.keys})`,
      );
    },
  },
});
