/**
 * Hook contexts are typed for the Model a hook runs for: `Model.hook(name, fn)` gives `fn` that Model's records, its
 * class and its Relations; a base class's hooks, which serve every Model below it, and a plugin's get `any`. Only
 * type-checked (`npm run typecheck`).
 */
import { expectTypeOf } from "vitest";
import { ActiveRecord, Model, type RelationOf } from "../../src/index.js";
import { definePlugin, type ModelHooks, type WritePlan } from "../../src/plugin.js";

class Article extends Model({ id: { type: "string", null: false }, title: { type: "string", null: false }, views: "integer" }) {
  static {
    this.hook("record:beforeSave", ({ record, operation }) => {
      expectTypeOf(record).toEqualTypeOf<Article>();
      expectTypeOf(record.title).toEqualTypeOf<string>();
      expectTypeOf(operation).toEqualTypeOf<"create" | "update">();
      // @ts-expect-error: Article has no attribute named body
      void record.body;
    });
    this.hook("record:validate", ({ record }) => {
      if (record.title === "") record.errors.add("title", "blank", "can't be blank");
      // @ts-expect-error: writeAttribute takes the Model's attribute names
      record.writeAttribute("bogus", 1);
    });
    this.hook("write:plan", (plan) => {
      expectTypeOf(plan).toEqualTypeOf<WritePlan<Article>>();
      expectTypeOf(plan.record?.views).toEqualTypeOf<number | null | undefined>();
    });
    this.hook("write:prepare", (plan) => void expectTypeOf(plan.record).toEqualTypeOf<Article | undefined>());
    this.hook("write:outcome", ({ plan, statement }) => {
      expectTypeOf(plan.record).toEqualTypeOf<Article | undefined>();
      // @ts-expect-error: a write that failed before it became a statement has none
      void statement.sql;
      if (statement) void statement.sql;
    });
    this.hook("record:write", ({ record, values }) => {
      expectTypeOf(record).toEqualTypeOf<Article>();
      expectTypeOf(values).toEqualTypeOf<ReadonlyMap<string, unknown>>();
    });
    this.hook("record:afterDestroy", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("record:planDestroy", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("record:initialize", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("record:hydrate", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("attribute:assign", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("record:serialize", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("record:inspect", ({ record }) => void expectTypeOf(record).toEqualTypeOf<Article>());
    this.hook("model:finalize", (model) => void expectTypeOf(model).toEqualTypeOf<typeof Article>());
    this.hook("relation:plan", ({ relation }) => void expectTypeOf(relation).toEqualTypeOf<RelationOf<typeof Article>>());
    this.hook("relation:preparePlan", (context) => {
      expectTypeOf(context.relation).toEqualTypeOf<RelationOf<typeof Article>>();
      expectTypeOf(context.purpose).toEqualTypeOf<"load" | "reload" | "preload">();
      // @ts-expect-error: the Relation planned is replaced by a Relation, never by anything else
      context.relation = "posts";
    });
    this.hook("relation:preload", ({ relation, records }) => {
      expectTypeOf(relation).toEqualTypeOf<RelationOf<typeof Article>>();
      expectTypeOf(records).toEqualTypeOf<readonly Article[]>();
    });
    // @ts-expect-error: a hook's context is the hook point's own (a save has no `reads`)
    this.hook("record:beforeSave", ({ reads }) => reads);
  }
}

// Outside a static block too: the Model the hook is added on types it.
Article.hook("record:afterSave", ({ record }) => void expectTypeOf(record.title).toEqualTypeOf<string>());

// A subclass's hooks get the subclass.
class FeaturedArticle extends Article {
  featured(): boolean {
    return true;
  }
}
FeaturedArticle.hook("record:beforeSave", ({ record }) => void expectTypeOf(record.featured()).toEqualTypeOf<boolean>());

// A base class serves every Model below it: its hooks' records are any record.
class ApplicationBase extends ActiveRecord {
  static {
    this.hook("record:beforeSave", ({ record }) => void expectTypeOf(record).toBeAny());
    this.hook("model:finalize", (model) => void expectTypeOf(model).toBeAny());
  }
}
void ApplicationBase;

// A plugin's hooks serve every Model of the class it is registered on: `any`, as the catalogue's defaults are.
definePlugin({
  name: "untyped",
  hooks: {
    "record:beforeSave"({ record }) {
      expectTypeOf(record).toBeAny();
    },
  },
});
expectTypeOf<Parameters<ModelHooks["record:beforeSave"]>[0]["record"]>().toBeAny();
expectTypeOf<Parameters<ModelHooks<Article>["record:beforeSave"]>[0]["record"]>().toEqualTypeOf<Article>();
