import { previewText } from "../../kernel/index.js";
import type { AssociationKind } from "./definition.js";
import { associationsOf } from "./registry.js";

/** What `reflectOnAssociation` tells of one declared association. */
export interface AssociationReflection {
  readonly name: string;
  readonly kind: AssociationKind;
  /** The target Model; undefined for a polymorphic `belongsTo`, whose type column names it per record. */
  readonly target: Function | undefined;
  /** The attribute holding the other side's key: the owner's for a `belongsTo`, the target's otherwise. */
  readonly foreignKey: string;
  /** The attribute the foreign key points at: the target's for a `belongsTo`, the owner's otherwise. */
  readonly primaryKey: string;
  /** The owner's association a through association goes through. */
  readonly through: string | undefined;
}

/**
 * One association a Model declares, by name (Rails' `reflect_on_association`): for a plugin that writes through an
 * association's keys (touching a parent, say). Throws `TypeError` naming the Model for a name it does not declare.
 */
export function reflectOnAssociation(model: Function, name: string): AssociationReflection {
  const association = associationsOf(model).get(name);
  if (association === undefined) throw new TypeError(`${model.name}.reflectOnAssociation: ${previewText(name)} is no association of ${model.name}`);
  const { kind, foreignKey, primaryKey, through } = association;
  const target = association.polymorphic && kind === "belongsTo" ? undefined : association.target;
  return { name, kind, target, foreignKey, primaryKey, through };
}
