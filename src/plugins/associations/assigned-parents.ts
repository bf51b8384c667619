import type { RecordAssignContext } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { givenText } from "./given-records.js";
import { targetModels } from "./polymorphic.js";
import { associationsOf } from "./registry.js";

/** A value given for a `belongsTo`, refused as `set` would refuse it (and a list, which `set` has no use for); or null. */
function refusalOf(association: ResolvedAssociation, value: unknown): string | null {
  const models = targetModels(association);
  if (value === null || models.some((model) => value instanceof model)) return null;
  const shown = Array.isArray(value) ? "a list" : givenText(value);
  return `${association.name} takes a record of ${models.map((model) => model.name).join(" or ")} or null, not ${shown}`;
}

/** Why the association named in an object of attributes cannot be assigned by its name; or null. */
function problemOf(association: ResolvedAssociation, attributes: Readonly<Record<string, unknown>>): string | null {
  const { name, kind, foreignKey, polymorphic } = association;
  if (kind !== "belongsTo") return `${name} is a ${kind} association; only a belongsTo is assigned by its name`;
  const given = [foreignKey, polymorphic?.foreignType].find((attribute) => attribute !== undefined && attribute in attributes);
  if (given !== undefined) return `${name} and ${given} both give ${given}; give one of them`;
  return refusalOf(association, attributes[name]);
}

/**
 * Rails' `Comment.create(post: post)`: a `belongsTo` named in an object of attributes (`build`, `create`, `assign`,
 * `update`, an association's `build`, ...) is assigned as `record.post.set(post)` assigns it (the key, a polymorphic
 * one's type, and a new parent saved before the record in its batch), once the attributes are set. Every name is
 * checked first (another kind of association, a record of another Model, a list, the foreign key given too): a
 * refusal is a `TypeError` naming the Model, the method and the association, and nothing is assigned.
 */
export function assignParentsByName(context: RecordAssignContext): void {
  const { record, attributes, method } = context;
  const associations = associationsOf(record.constructor);
  const named = context.names.filter((name) => associations.has(name));
  for (const name of named) {
    const association = associations.get(name)!;
    const problem = problemOf(association, attributes);
    if (problem !== null) throw new TypeError(`${record.constructor.name}.${method}: ${problem}`);
    // A partial select that left a key out refuses now (MissingAttribute), before any attribute is set.
    for (const attribute of [association.foreignKey, association.polymorphic?.foreignType]) if (attribute) record.readAttribute(attribute);
  }
  context.names = context.names.filter((name) => !associations.has(name));
  for (const name of named) context.after.push(() => record[name].set(attributes[name]));
}
