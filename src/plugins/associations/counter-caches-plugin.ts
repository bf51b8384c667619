import { type AnyModel, type AssociationName, type AttributesOfModel, definePlugin, type NumberAttributeName, type RecordOfModel, type Relation } from "../../kernel/index.js";
import { serveCounterCaches } from "./counter-column.js";
import { forwardedHooks, forwardedMethods, workApplies } from "./installation.js";

/**
 * Counter caches: `belongsTo(Post, { counterCache: true })` keeps `posts.comments_count` right in the write's own
 * batch (no round trip of its own, no read: `SET n = n + 1`) when a comment is created, destroyed (by its own
 * destroy or a dependent one, set-based or not) or moved to another post; `post.comments().size()` reads it without a
 * query; `Post.resetCounters(ids, "comments")` recounts in one statement. Bulk writes skip it, as in Rails.
 *
 * What it does is brought by the declarations (see installation.ts): a Worker whose Models declare no association
 * bundles only this.
 */
export const counterCaches = definePlugin({
  name: "counter-caches",
  setup(base: Record<string, unknown> & Function) {
    serveCounterCaches(base);
    // The Model itself, through the Relation that resolves it (its declarations run then): a database's bound Model too.
    Object.assign(base, forwardedMethods("counterCaches", ["resetCounters"], (model: { all(): Relation }) => model.all().model.model));
  },
  appliesTo: workApplies("counterCaches"),
  hooks: forwardedHooks("counterCaches", ["write:plan", "write:outcome"]),
});

/** What names a counter to `resetCounters`: a `hasMany` of the Model, or the counter attribute. */
type CounterName<M extends AnyModel> = AssociationName<RecordOfModel<M>> | NumberAttributeName<AttributesOfModel<M>>;

declare module "../../kernel/index.js" {
  interface PluginStatics<A> {
    /**
     * Recounts the counter caches of the rows with this key or list of keys, in one statement; each counter is named
     * by its `hasMany` (or its attribute). Resolves to the rows changed.
     */
    resetCounters<M extends AnyModel>(this: M, ids: unknown, ...counters: [CounterName<M>, ...CounterName<M>[]]): Promise<number>;
  }
}
