import {
  attributeNamed,
  IncompatibleRelation,
  joinSelect,
  MissingAttribute,
  ParamWriter,
  type PlannedRead,
  type QuerySource,
  quoteIdentifier,
  type Relation,
  type RelationPlanContext,
  selectParts,
  withSource,
} from "../../kernel/index.js";
import { associationsOf, slotsOf } from "./registry.js";
import type { ResolvedAssociation } from "./definition.js";
import { keyFor } from "./keys.js";

type Loaded = Record<string, any>;

/** `includes` paths as a tree: each association name to the names included below it. */
type IncludeTree = Map<string, IncludeTree>;

/** The tree of dotted paths (`posts`, `posts.comments`); a nested path implies the names above it. */
function treeOf(paths: Iterable<string>): IncludeTree {
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
  if (relation.data.limit !== undefined || relation.data.offset !== undefined) {
    throw new IncompatibleRelation(`${association.name}: a scope with limit or offset cannot be preloaded with includes; load each owner's ${association.name} instead`);
  }
  return relation;
}

/** The owners' key column, refused before any query when the owners' `select` leaves it out. */
function ownersKeyColumn(owners: Relation, association: ResolvedAssociation, ownKey: string): string {
  const { model, data } = owners;
  const attribute = attributeNamed(model, ownKey);
  const loaded = !data.select || data.select.includes(attribute) || (!data.distinct && attribute === model.primaryKey);
  if (!loaded) throw new MissingAttribute(`${model.name}.includes: ${association.name} needs ${ownKey}, which select() leaves out`);
  return quoteIdentifier(attribute.column);
}

/** Fills each owner's slot with the targets whose key matches its own (the children of a hasMany in their order). */
function fill(association: ResolvedAssociation, owners: readonly Loaded[], found: readonly Loaded[], ownKey: string, theirKey: string): void {
  const grouped = new Map<unknown, Loaded[]>();
  for (const target of found) {
    const key = target.readAttribute(theirKey);
    grouped.set(key, [...(grouped.get(key) ?? []), target]);
  }
  for (const owner of owners) {
    const slot = slotsOf(owner).find(([candidate]) => candidate.name === association.name)?.[1];
    // The owner's key as the target's attribute reads it: an integer key matches a text foreign key.
    const matches = grouped.get(keyFor(association.target, theirKey, owner.readAttribute(ownKey))) ?? [];
    slot?.remember(association.kind === "hasMany" ? matches : (matches[0] ?? null));
  }
}

/** One level of preloads: the owners' Relation and source, and how to get their records once loaded. */
interface Level {
  readonly owners: Relation;
  readonly source: QuerySource;
  readonly records: (main: readonly Loaded[]) => readonly Loaded[];
  readonly prefix: string;
}

/**
 * A preload loads the target's records as any load does: the target Model's `relation:plan` hooks plan their reads
 * for them (purpose `preload`), by the preload's own read, and receive its records. The `includes` below it are
 * this tree's, planned level by level, so the target's own are left out.
 */
function planTargetReads(target: Relation, source: QuerySource, records: () => readonly Loaded[], reads: PlannedRead[]): void {
  const plan = target.with({ includes: [] }).plan({ purpose: "preload", source });
  for (const read of plan.reads) reads.push({ statement: read.statement, receive: (result) => read.receive(result, records()) });
}

/**
 * Plans the preload of each association of the tree at one level: a read of the targets whose key is in a subquery
 * of the owners' source (so it selects exactly the owners' targets, whatever their order, paging or distinct), then
 * the levels below it, whose source is this read.
 */
function planLevel(level: Level, tree: IncludeTree, pending: Set<string>, reads: PlannedRead[]): void {
  const known = associationsOf(level.owners.model.model);
  for (const [name, below] of tree) {
    const association = known.get(name);
    if (!association) {
      if (level.prefix === "") continue;
      throw new TypeError(`${level.owners.model.name}: ${name} is not an association of ${level.owners.model.name} (includes ${level.prefix}${name})`);
    }
    const belongs = association.kind === "belongsTo";
    const ownKey = belongs ? association.foreignKey : association.primaryKey;
    const theirKey = belongs ? association.primaryKey : association.foreignKey;
    const target = scoped(association);
    const ownColumn = ownersKeyColumn(level.owners, association, ownKey);
    const theirColumn = quoteIdentifier(attributeNamed(target.model, theirKey).column);
    const source: QuerySource = (params) =>
      withSource(level.source, params, (owners) => {
        const parts = selectParts(target.data, target.model, params, "preload");
        parts.where.push(`${theirColumn} IN (SELECT ${ownColumn} FROM ${owners})`);
        return joinSelect(parts);
      });
    const params = new ParamWriter();
    const sql = source(params);
    let found: Loaded[] = [];
    const receive = (result: Loaded[], main: readonly Loaded[]) => {
      found = result;
      fill(association, level.records(main), result, ownKey, theirKey);
    };
    reads.push({ statement: target.toSelect({ sql, params: params.params, sources: params.sources }), receive });
    planTargetReads(target, source, () => found, reads);
    const path = `${level.prefix}${name}`;
    for (const planned of [...pending]) if (planned === path || planned.startsWith(`${path}.`)) pending.delete(planned);
    planLevel({ owners: target, source, records: () => found, prefix: `${path}.` }, below, pending, reads);
  }
}

/**
 * The `relation:plan` hook of associations: every association `includes` names, at any depth, is read in the batch
 * of the Relation's SELECT, by a subquery of it; the paths whose first name is no association stay pending.
 */
export function planPreloads({ relation, source, pending, reads }: RelationPlanContext): void {
  if (pending.size === 0) return;
  planLevel({ owners: relation, source, records: (main) => main, prefix: "" }, treeOf(pending), pending, reads);
}
