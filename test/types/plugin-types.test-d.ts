/**
 * A user's plugin types its methods as the built-in ones do (docs/guide/plugins.md, "Typing a plugin's methods"): by
 * declaration merging on the interfaces the plugin API exports empty. Only type-checked (`npm run typecheck`).
 */
import { expectTypeOf } from "vitest";
import { type AnyModel, column, Model, type RelationOf, sql } from "../../src/index.js";
import { definePlugin, defineStatement, joinSelect, pluginRelationOf, type Relation, relationOf, relationSubquery, type Subquery, type WriteOperation } from "../../src/plugin.js";

export const chronologicalPlugin = definePlugin({
  name: "chronological",
  relationMethods: {
    chronological(this: { reorder(order: object): unknown }) {
      return this.reorder({ createdAt: "asc" });
    },
  },
});

declare module "../../src/plugin.js" {
  interface PluginRelationMethods<R> {
    /** The records, oldest first. */
    chronological(): this;
  }
  interface PluginStatics<A> {
    /** `all().chronological()`. */
    chronological<M extends AnyModel>(this: M): RelationOf<M>;
  }
  interface PluginRecordMethods<A> {
    /** A wrapper of `destroy` (definePlugin's `wrap`) that also takes a reason: an overload of the kernel's. */
    destroy(reason: string): Promise<this | false>;
  }
}

class Note extends Model({ id: "integer", body: "string", createdAt: "datetime" }) {
  static { this.use(chronologicalPlugin); }
  static pinned = this.scope((q) => q.where({ body: "pinned" }));
}

// The static and the Relation method are typed for the Model, and keep its scopes and the built-in plugins' methods.
expectTypeOf(Note.chronological()).toEqualTypeOf<RelationOf<typeof Note>>();
expectTypeOf(Note.where({ body: "x" }).chronological().pinned().paginate).toBeFunction();
expectTypeOf(await Note.chronological().toArray()).toEqualTypeOf<Note[]>();
// @ts-expect-error a merged method takes what it declares
Note.chronological(1);

// A record method a plugin wraps with another signature is an overload beside the kernel's, as a static's is.
const note = Note.build({ body: "x" });
expectTypeOf(note.destroy("spam")).toEqualTypeOf<Promise<Note | false>>();
expectTypeOf(note.destroy()).toEqualTypeOf<Promise<Note | false>>();
// @ts-expect-error neither overload takes a number
note.destroy(1);

/**
 * A `write:plan` hook gets the plan typed: it reads the values and rows written, pushes `sql` fragments to `where`,
 * and adds statements built from the written keys; `write:prepare` may be async, `write:plan` may not.
 */
export const writePlanPlugin = definePlugin({
  name: "write-plan",
  hooks: {
    async "write:prepare"(plan) {
      plan.values.set("title", await Promise.resolve("x"));
    },
    "write:plan"(plan) {
      expectTypeOf(plan.operation).toEqualTypeOf<WriteOperation>();
      expectTypeOf(plan.values.get("title")).toEqualTypeOf<unknown>();
      expectTypeOf(plan.prepared).toEqualTypeOf<boolean>();
      plan.where.push(sql`${column("title")} <> ${"locked"}`);
      plan.after((written) => sql`INSERT INTO audit_entries (record_key) SELECT key FROM (${written.keys})`);
      // @ts-expect-error an after-statement is an sql fragment, not SQL text
      plan.after(() => "INSERT INTO audit_entries DEFAULT VALUES");
      // @ts-expect-error a where term is an sql fragment, not SQL text
      plan.where.push(`"title" <> 'locked'`);
      // @ts-expect-error the operation is the write's, not the hook's to change
      plan.operation = "deleteAll";
      // @ts-expect-error the stage that ran is the kernel's to say
      plan.prepared = true;
    },
    "write:outcome"({ plan, changes, rows }) {
      expectTypeOf(changes).toEqualTypeOf<number | undefined>();
      expectTypeOf(rows).toEqualTypeOf<readonly Record<string, unknown>[]>();
      expectTypeOf(plan.kind).toEqualTypeOf<"insert" | "update" | "delete" | "upsert">();
    },
  },
});

// The load stages: `relation:plan` is told what the records are loaded for, and `plan()` takes only those purposes.
definePlugin({
  name: "load purposes",
  hooks: {
    "relation:plan"({ purpose, relation }) {
      expectTypeOf(purpose).toEqualTypeOf<"load" | "reload" | "preload">();
      (relation as Relation).plan({ purpose: "reload" });
      // @ts-expect-error a count loads no records: it is no purpose of a load
      (relation as Relation).plan({ purpose: "count" });
    },
  },
});

// `relation:prepare` may replace the conditions and the plugins' entries, never the Model prepared.
definePlugin({
  name: "prepared entries",
  hooks: {
    "relation:prepare"(context) {
      context.extensions = { ...context.extensions, mine: true };
      // @ts-expect-error the Model prepared is the Relation's own
      context.model = context.model;
    },
  },
});

// A read of `relation:plan` asks for more reads with `readNext`, reads only; a Relation makes records of rows.
definePlugin({
  name: "reads next",
  hooks: {
    "relation:plan"({ reads }) {
      const statement = defineStatement({ sql: "SELECT 1" });
      reads.push({
        statement,
        receive: (_rows, _records, readNext) => {
          readNext([{ statement, receive: () => undefined }]);
          // @ts-expect-error readNext takes reads ({ statement, receive }), not Statements
          readNext([statement]);
        },
      });
    },
  },
});
expectTypeOf(Note.all().recordsOf([], undefined as never)).toEqualTypeOf<Note[] | Promise<Note[]>>();

// A wrapper receives the method it wraps and must return the method that replaces it.
definePlugin({
  name: "wraps-update-all",
  wrap: {
    relation: {
      updateAll: (next) =>
        async function (values: Record<string, unknown>) {
          expectTypeOf(next).toBeFunction();
          return next.call(this, values);
        },
    },
  },
});
definePlugin({
  name: "wraps-with-no-method",
  wrap: {
    // @ts-expect-error a wrapper returns a method, not a value
    record: { save: () => true },
  },
});
definePlugin({
  name: "wraps-a-kind-that-is-none",
  // @ts-expect-error the kinds of methods are relation, static and record
  wrap: { instance: { save: (next) => next } },
});

// relationSubquery takes a Relation, a query purpose and a function of the SELECT's parts; it gives a Subquery.
declare const someRelation: Relation;
expectTypeOf(relationSubquery(someRelation, "count", (parts) => joinSelect({ ...parts, columns: "COUNT(*)" }))).toEqualTypeOf<Subquery>();
// @ts-expect-error what it selects from is a Relation
relationSubquery({ model: 1 }, "load", joinSelect);
// @ts-expect-error the purpose is one of a query's
relationSubquery(someRelation, "read", joinSelect);
// @ts-expect-error shape joins the parts into text
relationSubquery(someRelation, "load", (parts) => parts);

// A plugin serves every Model, so its Relations are of any records: they take any attribute name, as the guide says
// ("In a plugin, Relation is Relation<any>"), and relationOf gives one with the plugins' methods (pluck, count, ...).
async function pluginRelations(model: Function) {
  const relation = relationOf(model);
  relation.select("slug").order({ slug: "asc" }).where({ slug: "a" });
  expectTypeOf(await relation.pluck("slug")).toEqualTypeOf<any[]>();
  expectTypeOf(await pluginRelationOf(relation).count()).toEqualTypeOf<number>();
  someRelation.select("title").reorder({ title: "desc" });
  // @ts-expect-error still an attribute name: text
  relation.select(1);
}
void pluginRelations;
