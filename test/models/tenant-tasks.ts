import { Model, multiTenancy } from "../../src/index.js";

/** Tasks of several tenants on the guide's multi-tenancy table (migration 0024), scoped by `multiTenancy`. */
export class TenantTask extends Model({
  id: { type: "string", null: false, generateId: true },
  tenantId: { type: "string", null: false },
  projectId: { type: "string", null: false },
  title: { type: "string", null: false },
  done: { type: "boolean", null: false, default: false },
}) {
  static override tableName = "guide_tasks";
  static override binding = "DB";
  static {
    this.use(multiTenancy());
  }
}
