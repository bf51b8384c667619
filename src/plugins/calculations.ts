import { anyMatch, attributeNamed, countOf, definePlugin, queryOfParts, quoteIdentifier, type Relation, selectParts, Statement } from "../kernel/index.js";

type Row = Record<string, unknown>;

/** The values of one attribute, or tuples of several. */
async function pluck(this: Relation, ...names: string[]): Promise<unknown[]> {
  const model = this.model;
  if (names.length === 0) throw new TypeError(`${model.name}.pluck needs at least one attribute name`);
  if (this.data.none) return [];
  const attributes = names.map((name) => attributeNamed(model, name, "pluck"));
  const parts = selectParts(this.data, model, undefined, "pluck");
  parts.columns = attributes.map((a) => quoteIdentifier(a.column)).join(", ");
  const read = (row: Row) => attributes.map((a) => (row[a.column] == null ? null : a.type.fromDatabase(row[a.column])));
  return this.run(new Statement(queryOfParts(parts), model, "rows", (rows) => rows.map((row) => (names.length === 1 ? read(row)[0] : read(row)))));
}

/**
 * Calculations on a Relation or Model: `count`, `size`, `exists`, `isEmpty`, `hasAny`, and `pluck`. Each is
 * one query that reads only what it answers. They are the kernel's `countOf` and `anyMatch`, which other plugins call
 * directly, whether or not this one is registered.
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
