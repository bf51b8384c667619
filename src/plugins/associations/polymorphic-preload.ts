import { type Attribute, primaryKeyOf, type QuerySource, quoteIdentifier } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { modelOfRow, pointsAtNothing } from "./polymorphic-type.js";
import { slotsOf } from "./registry.js";

type Loaded = Record<string, any>;

/** One listed Model of a polymorphic `belongsTo`, as `includes` reads it: one read of its own, in the same batch. */
export interface TypedTarget {
  /** The association as if it pointed at this Model alone: read as any `belongsTo` is. */
  readonly association: ResolvedAssociation;
  /** Whether an owner's type names this Model. */
  readonly owns: (owner: Loaded) => boolean;
  /** The rows of an owners' source whose type names this Model; the type is bound, never written into the SQL. */
  readonly narrow: (source: QuerySource) => QuerySource;
}

/** The listed Models of a polymorphic `belongsTo` by type, in the order listed: all, or those of the types `only` holds. */
function listedModels(association: ResolvedAssociation, only?: ReadonlySet<string>): Array<[string, Function]> {
  return [...association.polymorphic!.models].filter(([type]) => only?.has(type) ?? true);
}

/** A polymorphic `belongsTo` as if it pointed at each listed Model alone (of the types `only` holds), in the order listed. */
export function typedAssociations(association: ResolvedAssociation, only?: ReadonlySet<string>): ResolvedAssociation[] {
  return listedModels(association, only).map(([, model]) => ({
    kind: "belongsTo",
    name: association.name,
    options: association.options,
    foreignKey: association.foreignKey,
    target: model,
    primaryKey: primaryKeyOf(model).name,
  }));
}

/**
 * Each listed Model of a polymorphic `belongsTo` whose type column is `typeAttribute` (those of the types `only`
 * holds: what `sourceType` sources read), as a preload reads it.
 */
export function typedTargets(association: ResolvedAssociation, typeAttribute: Attribute, only?: ReadonlySet<string>): TypedTarget[] {
  const { foreignType } = association.polymorphic!;
  const column = quoteIdentifier(typeAttribute.column);
  const typed = typedAssociations(association, only);
  return listedModels(association, only).map(([type], index) => ({
    association: typed[index]!,
    owns: (owner) => owner.readAttribute(foreignType) === type,
    narrow: (source) => (params) => `SELECT * FROM (${source(params)}) WHERE ${column} = ${params.bind(type, { kind: "value", attribute: typeAttribute })}`,
  }));
}

/**
 * Checks the type of every owner a polymorphic preload reads for (one naming no listed Model throws
 * `UnknownPolymorphicType`, before anything is given out), and gives null to the owners whose key or type is null:
 * they point at nothing, which is known without a read.
 */
export function settleOwnersOfNothing(association: ResolvedAssociation, owners: readonly Loaded[]): void {
  for (const owner of owners) modelOfRow(owner, association);
  for (const owner of owners) {
    if (pointsAtNothing(owner, association)) slotsOf(owner).find(([candidate]) => candidate.name === association.name)?.[1].remember(null);
  }
}
