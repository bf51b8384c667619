import { InvalidModel } from "../../kernel/index.js";
import { pluralize } from "../inflection.js";
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

/**
 * The source of a through association on the Model gone through: `source`, else the association named as it is
 * (`tags`) or as its singular (`tag`: the association whose plural is its name), as Rails looks for it.
 */
function sourceOf(owner: Function, association: ResolvedAssociation, middle: Function): ResolvedAssociation {
  const known = associationsOf(middle);
  const { source } = association.options;
  const found = source !== undefined ? known.get(source) : (known.get(association.name) ?? [...known.values()].find((each) => pluralize(each.name) === association.name));
  if (found) return found;
  const looked = source ?? `${association.name} or its singular`;
  throw new InvalidModel(`${owner.name}.${association.name}: ${middle.name} has no association ${looked} (the source); pass { source }`);
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
  const here = [...path, association];
  const first = hopsOfAssociation(owner, through, here);
  const source = sourceOf(owner, association, through.target);
  const hops = [...first, ...hopsOfAssociation(through.target, source, here)];
  const reached = hops.at(-1)!.association.target;
  if (reached !== association.target && !(reached.prototype instanceof association.target)) {
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
