import type { Attribute, ResolvedModel } from "../../kernel/index.js";
import { associationsOf } from "./registry.js";

const keysByModel = new WeakMap<Function, ReadonlySet<string>>();

/** The attributes of a Model that hold a `belongsTo`'s foreign key, and a polymorphic one's type. */
function foreignKeysOf(model: Function): ReadonlySet<string> {
  let keys = keysByModel.get(model);
  if (!keys) {
    const parents = [...associationsOf(model).values()].filter((association) => association.kind === "belongsTo");
    keys = new Set(parents.flatMap(({ foreignKey, polymorphic }) => (polymorphic ? [foreignKey, polymorphic.foreignType] : [foreignKey])));
    keysByModel.set(model, keys);
  }
  return keys;
}

/**
 * A blank foreign key (empty or only whitespace) given for a `belongsTo`, or a blank polymorphic type, becomes null, whatever the key's type: an
 * HTML form sends an optional reference left unchosen as `""`, which no parent row has, so it could only fail the
 * FOREIGN KEY constraint (or, for an integer key, the cast).
 */
export function blankForeignKeyAsNull(context: { readonly model: ResolvedModel; readonly attribute: Attribute; value: unknown }): void {
  const { value } = context;
  if (typeof value === "string" && value.trim() === "" && foreignKeysOf(context.model.model).has(context.attribute.name)) context.value = null;
}
