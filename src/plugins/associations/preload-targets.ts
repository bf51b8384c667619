import { hasModelHook, IncompatibleRelation, prepareRelation, type Relation, type RelationPreparePlanContext } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { typedAssociations } from "./polymorphic-preload.js";
import type { PreparedTargets } from "./preload-owners.js";
import { associationsOf } from "./registry.js";
import { throughHops } from "./through-hops.js";
import { throughHopsTree, typesRead } from "./through-preload.js";
import { admittedTargetsOf } from "./through-scope-preload.js";

/** `includes` paths as a tree: each association name to the names included below it. */
export type IncludeTree = Map<string, IncludeTree>;

/** The tree of dotted paths (`posts`, `posts.comments`); a nested path implies the names above it. */
export function treeOf(paths: Iterable<string>): IncludeTree {
  const tree: IncludeTree = new Map();
  for (const path of paths) {
    let level = tree;
    for (const name of path.split(".")) {
      if (!level.has(name)) level.set(name, new Map());
      level = level.get(name)!;
    }
  }
  return tree;
}

/** The target's Relation with the association's scope; a scope that pages cannot be preloaded in one query. */
function scoped(association: ResolvedAssociation): Relation {
  const all = (association.target as unknown as { all(): Relation }).all();
  if (!association.options.scope) return all;
  const relation = association.options.scope(all) as Relation;
  const { limit, offset } = relation.description;
  if (limit !== undefined || offset !== undefined) {
    throw new IncompatibleRelation(`${association.name}: a scope with limit or offset cannot be preloaded with includes; load each owner's ${association.name} instead`);
  }
  return relation;
}

/** The entry of the loaded Relation's description that carries its preloads' prepared Relations. */
const PREPARED_TARGETS = "associations.preparedTargets";

/** The Relation a preload of `path` reads: the one prepared for this load, else the target with its scope. */
export function preloadTarget(prepared: PreparedTargets | undefined, path: string, association: ResolvedAssociation): Relation {
  return prepared?.get(path)?.get(association.target) ?? scoped(association);
}

/**
 * The Relation of the targets a scoped through association of `model` admits (see `admittedTargetsOf`), preloaded at
 * `path`: the one prepared for this load, else made now.
 */
export function admittedTarget(prepared: PreparedTargets | undefined, path: string, model: Function, association: ResolvedAssociation): Relation {
  return prepared?.get(path)?.get(association.target) ?? admittedTargetsOf(model, association);
}

/** The prepared Relations a load's preloads read, carried by the Relation planned; undefined when none needed it. */
export function preparedTargetsOf(relation: Relation): PreparedTargets | undefined {
  return relation.extension(PREPARED_TARGETS) as PreparedTargets | undefined;
}

/** One Relation a preload reads, at its dotted path: made only when `prepares` says its preparation may change it. */
interface PreloadRead {
  readonly path: string;
  readonly target: Function;
  readonly prepares: boolean;
  readonly relation: () => Relation;
}

/** Whether a Relation of `model` has a `relation:prepare` hook to run. */
const prepares = (model: Function) => hasModelHook(model, "relation:prepare");

/**
 * Calls `visit` for each Relation a preload of `tree` reads, at every depth, with its dotted path: a through
 * association as the direct ones it crosses (and, for one with a scope, the targets it admits, which reach through
 * each of them), a polymorphic `belongsTo` once per listed Model, as `planPreloads` plans them. Names that are no
 * association are left to the plan, which refuses them.
 */
function eachPreload(model: Function, tree: IncludeTree, prefix: string, visit: (read: PreloadRead) => void): void {
  const known = associationsOf(model);
  for (const name of tree.keys()) {
    const association = known.get(name);
    if (association?.through === undefined || !association.options.scope) continue;
    const crossed = [association.target, ...throughHops(model, association).map((hop) => hop.association.target)];
    visit({ path: `${prefix}${name}`, target: association.target, prepares: crossed.some(prepares), relation: () => admittedTargetsOf(model, association) });
  }
  for (const [name, below] of throughHopsTree(model, tree)) {
    const association = known.get(name);
    if (!association) continue;
    const path = `${prefix}${name}`;
    const read = association.kind === "belongsTo" && association.polymorphic ? typedAssociations(association, typesRead(below)) : [association];
    for (const each of read) {
      visit({ path, target: each.target, prepares: prepares(each.target), relation: () => scoped(each) });
      eachPreload(each.target, below, `${path}.`, visit);
    }
  }
}

/**
 * The `relation:preparePlan` hook of associations: each Relation a preload will read runs `relation:prepare` (purpose
 * `preload`) with the Relations of its subqueries, once for the load, when the Model of one of them has such a hook;
 * the loaded Relation then carries them for `planPreloads`. Costs nothing, not even a Relation, when none has.
 */
export function preparePreloads(context: RelationPreparePlanContext<Relation>): void | Promise<void> {
  const { relation } = context;
  const prepared = new Map<string, Map<Function, Relation>>();
  const waiting: Promise<void>[] = [];
  eachPreload(relation.model.model, treeOf(relation.description.includes), "", (read) => {
    if (!read.prepares) return;
    const byModel = prepared.get(read.path) ?? new Map<Function, Relation>();
    prepared.set(read.path, byModel);
    const made = prepareRelation(read.relation(), "preload");
    if (made instanceof Promise) waiting.push(made.then((target) => void byModel.set(read.target, target)));
    else byModel.set(read.target, made);
  });
  if (prepared.size === 0) return;
  const carry = () => void (context.relation = relation.withExtension(PREPARED_TARGETS, prepared));
  return waiting.length === 0 ? carry() : Promise.all(waiting).then(carry);
}
