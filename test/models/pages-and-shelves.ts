/**
 * The schema of migration 0190's pages and shelves, for the plugins written against the public API in
 * test/fixtures: a page's price is the guide's money type (integer cents in D1), its size JSON text.
 */
export const pagesSchema = {
  shelves: { id: "integer", name: { type: "string", null: false } },
  pages: {
    id: "integer",
    shelfId: "integer",
    title: { type: "string", null: false },
    slug: "string",
    price: "money",
    hits: { type: "integer", null: false, default: 0 },
    size: "string",
    tenantId: "string",
  },
} as const;
