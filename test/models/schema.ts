/** The schema the test migrations make, as the generator would write it. */
export const schema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    email: "string",
    age: "integer",
    score: "real",
    admin: { type: "boolean", null: false, default: false },
    bornAt: "datetime",
    settings: "json",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  posts: {
    id: { type: "string", null: false, generateId: true },
    userId: { type: "string", null: false },
    title: { type: "string", null: false },
    body: "string",
    published: { type: "boolean", null: false, default: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  counters: {
    id: { type: "integer", null: false },
    label: "string",
    value: { type: "integer", null: false },
  },
} as const;
