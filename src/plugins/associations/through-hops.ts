import { InvalidModel, previewText, type Relation } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { typedAssociations } from "./polymorphic-preload.js";
import { associationsOf } from "./registry.js";

/**
 * One direct association a through association crosses, from the Model that declares it: `ownKey` on that Model
 * holds what `theirKey` on the target holds (the owner's primary key and the children's foreign key, or, for a
 * `belongsTo`, the foreign key and the parent's primary key).
 */
export interface Hop {
  readonly association: ResolvedAssociation;
  readonly ownKey: string;
  readonly theirKey: string;
  /**
   * For the source a through association's `sourceType` picks out of a polymorphic `belongsTo` (Rails' `source_type`):
   * the type column of the rows before it (the join rows) and the Model name it must hold, so that only the join rows
   * of that type reach the target; the hop itself reads as a `belongsTo` of that Model alone.
   */
  readonly ownType?: { readonly attribute: string; readonly value: string };
}

/** The keys of a direct association: what its owner holds, and what its target matches it with. */
export function hopOf(association: ResolvedAssociation): Hop {
  const belongs = association.kind === "belongsTo";
  return {
    association,
    ownKey: belongs ? association.foreignKey : association.primaryKey,
    theirKey: belongs ? association.primaryKey : association.foreignKey,
  };
}

/** Whether a hop reaches one row at most. */
const single = (hop: Hop) => hop.association.kind !== "hasMany";

/** Whether an association is a polymorphic `belongsTo`, which has no one target Model to go through or reach. */
const isPolymorphicParent = (association: ResolvedAssociation) => association.kind === "belongsTo" && association.polymorphic !== undefined;

const isModelOrSubclass = (model: Function, of: Function) => model === of || model.prototype instanceof of;

/**
 * Whether an association reaches records of `model` (or of a subclass of it); a polymorphic `belongsTo` reaches
 * those of the Model its `sourceType` names among its listed ones, and none without it.
 */
function reaches(association: ResolvedAssociation, model: Function, sourceType?: string): boolean {
  if (!isPolymorphicParent(association)) return isModelOrSubclass(association.target, model);
  const typed = sourceType === undefined ? undefined : association.polymorphic!.models.get(sourceType);
  return typed !== undefined && isModelOrSubclass(typed, model);
}

/** Refuses a polymorphic `belongsTo` as the association gone through: which Model its rows reach is known row by row only. */
function refusePolymorphicThrough(where: string, model: Function, association: ResolvedAssociation): void {
  if (isPolymorphicParent(association)) {
    throw new InvalidModel(`${where}: ${model.name}.${association.name} is a polymorphic belongsTo, which a through association cannot go through (its rows reach several Models); go through its children's hasMany as instead`);
  }
}

/**
 * The source of a through association on the Model gone through: `source`, else the association named as it is
 * (`comments` through `posts`), else the one association of that Model that reaches the target (`tag` for `tags`
 * through `taggings`; with `sourceType`, the polymorphic `belongsTo` that lists it). Rails looks for the singular
 * name instead; inflecting names would ship English rules to every Worker with associations (see the table-naming
 * plugin), so the target is looked for, and several that reach it ask for `source`.
 */
function sourceOf(owner: Function, association: ResolvedAssociation, middle: Function): ResolvedAssociation {
  const known = associationsOf(middle);
  const where = `${owner.name}.${association.name}`;
  const { source, sourceType } = association.options;
  if (source !== undefined) {
    const named = known.get(source);
    if (!named) throw new InvalidModel(`${where}: ${middle.name} has no association ${source} (the source)`);
    return named;
  }
  const same = known.get(association.name);
  if (same) return same;
  const reaching = [...known.values()].filter((each) => reaches(each, association.target, sourceType));
  if (reaching.length === 1) return reaching[0]!;
  const found = reaching.length === 0 ? `no association ${association.name} nor one to ${association.target.name}` : `several associations to ${association.target.name} (${reaching.map((each) => each.name).join(", ")})`;
  throw new InvalidModel(`${where}: ${middle.name} has ${found}; pass { source }`);
}

/**
 * The hop of a polymorphic `belongsTo` source, as the through association's `sourceType` names one of its Models
 * (Rails' `source_type`): a `belongsTo` of that Model alone, reached by the join rows whose type names it (a bound
 * value). InvalidModel naming the Model, association and value without `sourceType`, or for one naming no listed Model.
 */
function typedSourceHop(where: string, middle: Function, source: ResolvedAssociation, sourceType: string | undefined): Hop {
  const { foreignType, models } = source.polymorphic!;
  const listed = [...models.keys()].join(", ");
  if (sourceType === undefined) {
    throw new InvalidModel(`${where}: its source ${middle.name}.${source.name} is a polymorphic belongsTo; add sourceType, the name of the Model to reach (one of ${listed}), as Rails' source_type`);
  }
  const model = models.get(sourceType);
  if (!model) throw new InvalidModel(`${where}: sourceType ${previewText(sourceType)} names none of ${middle.name}.${source.name}'s Models (${listed})`);
  const association = typedAssociations(source).find((typed) => typed.target === model)!;
  return { association, ownKey: source.foreignKey, theirKey: association.primaryKey, ownType: { attribute: foreignType, value: sourceType } };
}

/** The hops of a through association's source: its own, or, for a polymorphic `belongsTo`, the one `sourceType` names. */
function sourceHops(where: string, middle: Function, source: ResolvedAssociation, association: ResolvedAssociation, path: readonly ResolvedAssociation[]): Hop[] {
  const { sourceType } = association.options;
  if (isPolymorphicParent(source)) return [typedSourceHop(where, middle, source, sourceType)];
  if (sourceType !== undefined) {
    throw new InvalidModel(`${where}: sourceType is taken only with a polymorphic belongsTo as the source, and ${middle.name}.${source.name} is not one; remove sourceType`);
  }
  return hopsOfAssociation(middle, source, path);
}

/** The hops of one association of `model`: itself, or, for a through association, those it crosses. */
function hopsOfAssociation(model: Function, association: ResolvedAssociation, path: readonly ResolvedAssociation[]): Hop[] {
  return association.through === undefined ? [hopOf(association)] : resolveHops(model, association, path);
}

function resolveHops(owner: Function, association: ResolvedAssociation, path: readonly ResolvedAssociation[]): Hop[] {
  const where = `${owner.name}.${association.name}`;
  if (path.includes(association)) throw new InvalidModel(`${where}: through associations that go through each other never reach a row`);
  const through = associationsOf(owner).get(association.through!);
  if (!through) throw new InvalidModel(`${where}: through ${association.through} is not an association of ${owner.name}`);
  refusePolymorphicThrough(where, owner, through);
  const here = [...path, association];
  const first = hopsOfAssociation(owner, through, here);
  const source = sourceOf(owner, association, through.target);
  const hops = [...first, ...sourceHops(where, through.target, source, association, here)];
  const reached = hops.at(-1)!.association.target;
  if (!reaches(hops.at(-1)!.association, association.target)) {
    throw new InvalidModel(`${where}: its source ${through.target.name}.${source.name} reaches ${reached.name}, not ${association.target.name}`);
  }
  if (association.kind === "hasOne" && !hops.every(single)) {
    throw new InvalidModel(`${where}: a hasOne cannot go through a hasMany (${owner.name} to ${reached.name} may be many rows); declare it hasMany`);
  }
  return hops;
}

const hopsByAssociation = new WeakMap<ResolvedAssociation, readonly Hop[]>();

/**
 * The direct associations a through association crosses, in order from its owner `model` to its target (a through
 * a through crosses the hops of both), resolved once; InvalidModel naming the Model and association when the
 * association gone through or the source does not exist, or the source reaches another Model.
 */
export function throughHops(model: Function, association: ResolvedAssociation): readonly Hop[] {
  let hops = hopsByAssociation.get(association);
  if (!hops) hopsByAssociation.set(association, (hops = resolveHops(model, association, [])));
  return hops;
}

/** The rows of a hop's owners that reach it: all of them, or, for a `sourceType` source, those of its type (bound). */
export function leadingTo(rows: Relation, hop: Hop): Relation {
  return hop.ownType ? rows.where({ [hop.ownType.attribute]: hop.ownType.value }) : rows;
}

/** Whether a loaded record of a hop's owners reaches it: always, or, for a `sourceType` source, when of its type. */
export function leadsTo(record: Record<string, any>, hop: Hop): boolean {
  return !hop.ownType || record.readAttribute(hop.ownType.attribute) === hop.ownType.value;
}
