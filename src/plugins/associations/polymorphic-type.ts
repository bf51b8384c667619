import { isAttributeChanged, previewText, RecordflareError } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { associationsOf } from "./registry.js";

type Owner = Record<string, any>;

/** A polymorphic `belongsTo`'s type column holds a value that names none of its Models: nothing is read for it. */
export class UnknownPolymorphicType extends RecordflareError {
  override name = "UnknownPolymorphicType";
}

const modelNames = (association: ResolvedAssociation): string => [...association.polymorphic!.models.keys()].join(", ");

/**
 * The Model a record's polymorphic `belongsTo` points at, as its type column names it: null when the type is null;
 * `UnknownPolymorphicType`, naming the Model, the attribute and the value, when it names none of the listed Models.
 */
export function modelOfRow(record: Owner, association: ResolvedAssociation): Function | null {
  const { foreignType, models } = association.polymorphic!;
  const type: unknown = record.readAttribute(foreignType);
  if (type === null) return null;
  const model = typeof type === "string" ? models.get(type) : undefined;
  if (model) return model;
  throw new UnknownPolymorphicType(`${record.constructor.name}.${foreignType}: ${previewText(type)} names none of ${association.name}'s Models (${modelNames(association)})`);
}

/**
 * Whether a record's `belongsTo` points at nothing: its key is null, or for a polymorphic one its type (each alone
 * names no row).
 */
export function pointsAtNothing(record: Owner, association: ResolvedAssociation): boolean {
  return record.readAttribute(association.foreignKey) === null || (association.polymorphic !== undefined && record.readAttribute(association.polymorphic.foreignType) === null);
}

/** Whether a record's `belongsTo` keys changed since it was loaded or saved: its key, or for a polymorphic one its type. */
export function keysChanged(record: Owner, association: ResolvedAssociation): boolean {
  return isAttributeChanged(record, association.foreignKey) || (association.polymorphic !== undefined && isAttributeChanged(record, association.polymorphic.foreignType));
}

/** The values that detach children from their owner (`nullify`, a replaced `hasOne`): the key, and for `as` the type too, as Rails does. */
export function detachedKeys(association: ResolvedAssociation): Record<string, null> {
  const keys: Record<string, null> = { [association.foreignKey]: null };
  if (association.polymorphic) keys[association.polymorphic.foreignType] = null;
  return keys;
}

/** The type a child built through a `hasMany` or `hasOne` declared `as` takes: its owner's; nothing for another association. */
export function ownerType(association: ResolvedAssociation): Record<string, string> {
  if (association.kind === "belongsTo" || !association.polymorphic) return {};
  const [type] = association.polymorphic.models.keys();
  return { [association.polymorphic.foreignType]: type! };
}

const parentsByModel = new WeakMap<Function, readonly ResolvedAssociation[]>();

/** A Model's polymorphic `belongsTo` associations, found once: a save of a Model without any looks at none. */
function polymorphicParentsOf(model: Function): readonly ResolvedAssociation[] {
  let parents = parentsByModel.get(model);
  if (!parents) {
    parents = [...associationsOf(model).values()].filter((association) => association.kind === "belongsTo" && association.polymorphic);
    parentsByModel.set(model, parents);
  }
  return parents;
}

/**
 * A type that names none of a polymorphic `belongsTo`'s Models fails validation ("Commentable type is not one of
 * Post, Photo"), checked without a query, on a new record or a changed type: such a row could never be read back.
 */
export function validatePolymorphicTypes(record: Owner): void {
  for (const association of polymorphicParentsOf(record.constructor)) {
    const { foreignType, models } = association.polymorphic!;
    if (!record.isNewRecord() && !isAttributeChanged(record, foreignType)) continue;
    const type: unknown = record.readAttribute(foreignType);
    if (type !== null && !models.has(type as string)) record.errors.add(foreignType, "inclusion", `is not one of ${modelNames(association)}`);
  }
}
