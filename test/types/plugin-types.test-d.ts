/**
 * A user's plugin types its methods as the built-in ones do (docs/guide.md, "Typing a plugin's methods"): by
 * declaration merging on the interfaces the plugin API exports empty. Only type-checked (`npm run typecheck`).
 */
import { expectTypeOf } from "vitest";
import { type AnyModel, Model, type RelationOf } from "../../src/index.js";
import { definePlugin, defineStatement } from "../../src/plugin.js";

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
expectTypeOf(Note.all().recordsOf([], undefined as never)).toEqualTypeOf<Note[]>();
