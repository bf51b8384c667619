/** The schema of the audit log's tables (migration 0073): notes, and tenant-scoped lists with their tasks. */
export const auditedSchema = {
  audited_notes: { id: "integer", title: { type: "string", null: false }, body: "string" },
  audited_lists: { id: "integer", tenantId: { type: "string", null: false }, name: { type: "string", null: false } },
  audited_tasks: {
    id: { type: "string", null: false, generateId: true },
    tenantId: { type: "string", null: false },
    title: { type: "string", null: false },
    listId: "integer",
  },
} as const;
