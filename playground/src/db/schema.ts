// The schema of the playground's tables, shaped as `recordflare schema` writes it from the migrations.
export const schema = {
  notes: {
    id: { type: "string", null: false, generateId: true },
    title: { type: "string", null: false },
    body: "string",
    done: { type: "boolean", null: false, default: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
} as const;
