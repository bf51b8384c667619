import { attributeNamed, databaseOfModel, definePlugin, queryOfParts, quoteIdentifier, type Relation, selectParts, Statement } from "../kernel/index.js";

type Row = Record<string, unknown>;

/** The COUNT Statement of a Relation; agrees with `toArray()` even with limit, offset and distinct. */
export function countStatement(relation: Relation): Statement<number> {
  const { data, model } = relation;
  let query;
  if (data.limit !== undefined || data.offset !== undefined || data.distinct) {
    const inner = queryOfParts(selectParts(data.distinct ? data : { ...data, select: [model.primaryKey] }, model));
    query = { ...inner, sql: `SELECT COUNT(*) AS count FROM (${inner.sql})` };
  } else {
    const parts = selectParts({ ...data, order: [] }, model);
    parts.columns = "COUNT(*) AS count";
    query = queryOfParts(parts);
  }
  return new Statement(query, model, "rows", (rows) => Number(rows[0]?.["count"] ?? 0), databaseOfModel(relation.modelClass));
}

/** The number of rows a Relation matches. */
export async function countOf(relation: Relation): Promise<number> {
  if (relation.data.none) return 0;
  return relation.run(countStatement(relation));
}

/** Whether a Relation matches any row; reads one row at most, and none past the Relation's own `limit(0)`. */
export async function anyMatch(relation: Relation): Promise<boolean> {
  const { data, model } = relation;
  if (data.none) return false;
  // The offset of a distinct Relation skips distinct rows: `SELECT DISTINCT 1` would leave one row to skip, so its
  // columns stay (as Rails' exists? keeps them for distinct with an offset).
  const keepColumns = data.distinct && data.offset !== undefined;
  const parts = selectParts({ ...data, ...(keepColumns ? {} : { select: undefined }), order: [], limit: Math.min(data.limit ?? 1, 1) }, model);
  if (!keepColumns) parts.columns = "1 AS one";
  return relation.run(new Statement(queryOfParts(parts), model, "rows", (rows) => rows.length > 0));
}

/** The values of one attribute, or tuples of several. */
async function pluck(this: Relation, ...names: string[]): Promise<unknown[]> {
  const model = this.model;
  if (names.length === 0) throw new TypeError(`${model.name}.pluck needs at least one attribute name`);
  if (this.data.none) return [];
  const attributes = names.map((name) => attributeNamed(model, name, "pluck"));
  const parts = selectParts(this.data, model);
  parts.columns = attributes.map((a) => quoteIdentifier(a.column)).join(", ");
  const read = (row: Row) => attributes.map((a) => (row[a.column] == null ? null : a.type.fromDatabase(row[a.column])));
  return this.run(new Statement(queryOfParts(parts), model, "rows", (rows) => rows.map((row) => (names.length === 1 ? read(row)[0] : read(row)))));
}

/**
 * Calculations on a Relation or Model: `count`, `size`, `exists`, `isEmpty`, `hasAny`, and `pluck`. Each is
 * one query that reads only what it answers. Plugins call `countOf`, `anyMatch` and `countStatement` (the COUNT
 * as a Statement, for a batch) directly, whether or not this plugin is registered.
 */
export const calculations = definePlugin({
  name: "calculations",
  relationMethods: {
    async count(this: Relation) {
      return countOf(this);
    },
    async size(this: Relation) {
      return countOf(this);
    },
    async exists(this: Relation, conditions?: object) {
      return anyMatch(conditions === undefined ? this : this.where(conditions, "exists"));
    },
    async isEmpty(this: Relation) {
      return !(await anyMatch(this));
    },
    async hasAny(this: Relation) {
      return anyMatch(this);
    },
    pluck,
  },
});
