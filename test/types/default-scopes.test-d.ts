/** Compile-time checks of default scopes: the body's typed Relation, and unscoped's results. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import type { RelationOf } from "../../src/index.js";
import { GeneratedApplicationRecord, Post } from "./generated-app.js";

function defaultScopes() {
  class Visible extends GeneratedApplicationRecord("posts") {
    static {
      this.defaultScope((q) => {
        expectTypeOf(q.where({ published: true }).toArray()).toEqualTypeOf<Promise<Visible[]>>();
        return q.where({ published: true });
      });
      // @ts-expect-error: the body's Relation knows the Model's attributes; posts have no archived
      this.defaultScope((q) => q.where({ archived: false }));
      // @ts-expect-error: the body returns a Relation
      this.defaultScope(() => ({ published: true }));
      // @ts-expect-error: the body is a function
      this.defaultScope({ published: true });
    }
  }

  // Model.unscoped() is the Model's Relation type; on a Relation it keeps the Relation's type.
  const all: RelationOf<typeof Visible> = Visible.unscoped();
  expectTypeOf(all.toArray()).toEqualTypeOf<Promise<Visible[]>>();
  expectTypeOf(Visible.where({ published: false }).unscoped().first()).toEqualTypeOf<Promise<Visible | null>>();
  expectTypeOf(Post.published().unscoped().toArray()).toEqualTypeOf<Promise<Post[]>>();
  // The block form returns what the function returns.
  expectTypeOf(Visible.unscoped(() => Visible.count())).toEqualTypeOf<Promise<number>>();
  expectTypeOf(Visible.unscoped(() => 1)).toEqualTypeOf<number>();
  // @ts-expect-error: a Relation's unscoped() takes no function
  Visible.all().unscoped(() => 1);
}
void defaultScopes;
