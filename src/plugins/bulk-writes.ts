import {
  type AnyModel,
  type AssignableValue,
  type AssignAttributes,
  type AttributesOfModel,
  type AttributesOfRecord,
  type Conditions,
  definePlugin,
  deleteAllStatement,
  deleteAllWrite,
  type InsertOperation,
  type InsertOptions,
  insertRowsStatement,
  insertRowsWrite,
  refuseExtraArguments,
  Relation,
  type SqlFragment,
  Statement,
  updateAllStatement,
  updateAllWrite,
  type UpsertOptions,
  type WriteMeta,
} from "../kernel/index.js";

export type { InsertOptions, UpsertOptions };

/**
 * The attribute object `updateAll` takes: known names only, each a value cast to the attribute's type or an `sql`
 * fragment the database computes for each row (`{ score: sql\`${column("score")} + 1\` }`), which is not cast.
 */
export type UpdateAllAttributes<A> = { [K in keyof A]?: AssignableValue<A[K]> | SqlFragment };

type BuildsRecords = Function & { build(attributes: object): object; all(): Relation };

/** The insert statics, each with its `to...` Statement form: whether it takes a list of rows or one row's attributes. */
const INSERTS: Record<InsertOperation, boolean> = { insert: false, insertAll: true, upsert: false, upsertAll: true };

/**
 * Refuses conditions given to a set-based write (Rails 5.1 raises for `delete_all(conditions)` too): read as none, they
 * would write every row the Relation matches.
 */
function refuseConditions(relation: Relation, method: string, given: number, taken: 0 | 1): void {
  const values = taken === 0 ? "" : "{ ... }";
  const instead = `narrow with where(...) first: ${relation.model.name}.where({ ... }).${method}(${values})`;
  refuseExtraArguments(`${relation.model.name}.${method}`, given, taken, instead);
}

/**
 * Bulk writes: `insert`/`insertAll`, `upsert`/`upsertAll` (statics), `updateAll`/`deleteAll`/`deleteBy` (on any
 * Relation or Model), and their `to...` Statements for `batch`. They skip validations and callbacks; inserts still fill
 * declared defaults, generated ids and timestamps, and every value is cast. The running forms report bad input
 * as a rejection, the `to...` forms throw it; on `none()`, `updateAll`/`deleteAll` resolve to 0 without a
 * query, while `toUpdateAll`/`toDeleteAll` still give a Statement (matching no row) for `batch`. A value of
 * `updateAll` may be an `sql` fragment, computed by the database for each row and never cast.
 */
export const bulkWrites = definePlugin({
  name: "bulk-writes",
  relationMethods: {
    toUpdateAll(this: Relation, attributes: Record<string, unknown>) {
      refuseConditions(this, "toUpdateAll", arguments.length, 1);
      return updateAllStatement(this, attributes);
    },
    toDeleteAll(this: Relation) {
      refuseConditions(this, "toDeleteAll", arguments.length, 0);
      return deleteAllStatement(this);
    },
    async updateAll(this: Relation, attributes: Record<string, unknown>) {
      refuseConditions(this, "updateAll", arguments.length, 1);
      return await updateAllWrite(this, attributes);
    },
    async deleteAll(this: Relation) {
      refuseConditions(this, "deleteAll", arguments.length, 0);
      return await deleteAllWrite(this);
    },
    async deleteBy(this: Relation, conditions: object) {
      refuseExtraArguments(`${this.model.name}.deleteBy`, arguments.length, 1, "give every condition in one object");
      return await deleteAllWrite(this.where(conditions, "deleteBy"));
    },
  },
  setup(base: Record<string, unknown>) {
    for (const [operation, takesList] of Object.entries(INSERTS) as [InsertOperation, boolean][]) {
      const rows = (given: unknown) => (takesList ? given : [given]) as readonly object[];
      base[operation] = async function (this: BuildsRecords, given: unknown, options?: InsertOptions) {
        return await insertRowsWrite(this, rows(given), operation, options);
      };
      base[`to${operation[0]!.toUpperCase()}${operation.slice(1)}`] = function (this: BuildsRecords, given: unknown, options?: InsertOptions) {
        return insertRowsStatement(this, rows(given), operation, options);
      };
    }
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /**
     * Sets attributes on every matching row, skipping validations and callbacks; resolves to the rows changed. A value
     * may be an `sql` fragment the database computes for each row (`sql\`${column("score")} + 1\``), not cast.
     */
    updateAll(attributes: UpdateAllAttributes<AttributesOfRecord<R>>): Promise<number>;
    /** Deletes every matching row, skipping callbacks; resolves to the rows deleted. */
    deleteAll(): Promise<number>;
    /** `where(conditions).deleteAll()`. */
    deleteBy(conditions: Conditions<AttributesOfRecord<R>>): Promise<number>;
    /** `updateAll` as a Statement for `batch`. */
    toUpdateAll(attributes: UpdateAllAttributes<AttributesOfRecord<R>>): Statement<number>;
    /** `deleteAll` as a Statement for `batch`. */
    toDeleteAll(): Statement<number>;
  }

  interface PluginStatics<A> {
    /** `all().updateAll(attributes)`. */
    updateAll<M extends AnyModel>(this: M, attributes: UpdateAllAttributes<AttributesOfModel<M>>): Promise<number>;
    /** `all().deleteAll()`. */
    deleteAll(): Promise<number>;
    /** `where(conditions).deleteAll()`. */
    deleteBy<M extends AnyModel>(this: M, conditions: Conditions<AttributesOfModel<M>>): Promise<number>;
    /** `all().toUpdateAll(attributes)`. */
    toUpdateAll<M extends AnyModel>(this: M, attributes: UpdateAllAttributes<AttributesOfModel<M>>): Statement<number>;
    /** `all().toDeleteAll()`. */
    toDeleteAll(): Statement<number>;
    /** Inserts one row, skipping validations and callbacks; resolves to D1's `meta`. */
    insert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: InsertOptions): Promise<WriteMeta>;
    /** Inserts rows in one statement (bound as one JSON value); resolves to D1's `meta`. */
    insertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: InsertOptions): Promise<WriteMeta>;
    /** Inserts a row, or updates it when its key exists. */
    upsert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: UpsertOptions<AttributesOfModel<M>>): Promise<WriteMeta>;
    /** Inserts rows, updating those whose key exists. */
    upsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: UpsertOptions<AttributesOfModel<M>>): Promise<WriteMeta>;
    /** `insert` as a Statement for `batch`. */
    toInsert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: InsertOptions): Statement<WriteMeta>;
    /** `insertAll` as a Statement for `batch`. */
    toInsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: InsertOptions): Statement<WriteMeta>;
    /** `upsert` as a Statement for `batch`. */
    toUpsert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: UpsertOptions<AttributesOfModel<M>>): Statement<WriteMeta>;
    /** `upsertAll` as a Statement for `batch`. */
    toUpsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: UpsertOptions<AttributesOfModel<M>>): Statement<WriteMeta>;
  }
}
