import { InvalidModel } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
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

/** Whether an association reaches records of `model` (or of a subclass of it); a polymorphic `belongsTo` reaches none. */
const reaches = (association: ResolvedAssociation, model: Function) =>
  !isPolymorphicParent(association) && (association.target === model || association.target.prototype instanceof model);

/** Refuses a polymorphic `belongsTo` as a hop: which Model its rows reach is known row by row only. */
function refusePolymorphic(where: string, model: Function, association: ResolvedAssociation): void {
  if (isPolymorphicParent(association)) {
    throw new InvalidModel(`${where}: ${model.name}.${association.name} is a polymorphic belongsTo, which a through association cannot go through nor reach (Rails' source_type is not supported); go through its children's hasMany as instead`);
  }
}

/**
 * The source of a through association on the Model gone through: `source`, else the association named as it is
 * (`comments` through `posts`), else the one association of that Model that reaches the target (`tag` for `tags`
 * through `taggings`). Rails looks for the singular name instead; inflecting names would ship English rules to
 * every Worker with associations (see the table-naming plugin), so the target is looked for, and several that reach
 * it ask for `source`.
 */
function sourceOf(owner: Function, association: ResolvedAssociation, middle: Function): ResolvedAssociation {
  const known = associationsOf(middle);
  const where = `${owner.name}.${association.name}`;
  const { source } = association.options;
  if (source !== undefined) {
    const named = known.get(source);
    if (!named) throw new InvalidModel(`${where}: ${middle.name} has no association ${source} (the source)`);
    refusePolymorphic(where, middle, named);
    return named;
  }
  const same = known.get(association.name);
  if (same) refusePolymorphic(where, middle, same);
  if (same) return same;
  const reaching = [...known.values()].filter((each) => reaches(each, association.target));
  if (reaching.length === 1) return reaching[0]!;
  const found = reaching.length === 0 ? `no association ${association.name} nor one to ${association.target.name}` : `several associations to ${association.target.name} (${reaching.map((each) => each.name).join(", ")})`;
  throw new InvalidModel(`${where}: ${middle.name} has ${found}; pass { source }`);
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
  refusePolymorphic(where, owner, through);
  const here = [...path, association];
  const first = hopsOfAssociation(owner, through, here);
  const source = sourceOf(owner, association, through.target);
  const hops = [...first, ...hopsOfAssociation(through.target, source, here)];
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
