import {
  attributeNamed,
  compileSelect,
  defineStatement,
  joinSelect,
  joinWithAnd,
  ParamWriter,
  type PlannedRead,
  type QuerySource,
  quoteIdentifier,
  type Relation,
  type RelationPlanContext,
  selectParts,
  type StatementReader,
  withSource,
} from "../../kernel/index.js";
import { associationsOf, slotsOf } from "./registry.js";
import type { ResolvedAssociation } from "./definition.js";
import { keyFor, keyTexts } from "./keys.js";
import { settleOwnersOfNothing, typedTargets } from "./polymorphic-preload.js";
import { chosenOwners, type Level, loadedKeyColumn, OWNER_COLUMN, OWNERS, type PreparedTargets } from "./preload-owners.js";
import { throughHopsTree, typesRead } from "./through-preload.js";
import { admittedTargetsRead } from "./through-scope-preload.js";
import { admittedTarget, type IncludeTree, preloadTarget, preparedTargetsOf, treeOf } from "./preload-targets.js";

type Loaded = Record<string, any>;

/** How the two sides of an association compare keys: as the target's key attribute reads them as a condition. */
function keyMatcher(association: ResolvedAssociation, theirKey: string): (key: unknown) => unknown {
  // The owner's key as the target's attribute reads it: an integer key matches a text foreign key.
  return (key) => keyFor(association.target, theirKey, key);
}

/**
 * Fills each owner's slot with the targets whose key matches its own (the children of a hasMany in their order);
 * returns the targets it gave out, each once.
 */
function fill(association: ResolvedAssociation, owners: readonly Loaded[], found: readonly Loaded[], ownKey: string, theirKey: string): Loaded[] {
  const matchKey = keyMatcher(association, theirKey);
  const textOf = keyTexts(association.target, theirKey);
  const grouped = new Map<string | null, Loaded[]>();
  for (const target of found) {
    const key = textOf(target.readAttribute(theirKey));
    grouped.set(key, [...(grouped.get(key) ?? []), target]);
  }
  const given = new Set<Loaded>();
  for (const owner of owners) {
    const slot = slotsOf(owner).find(([candidate]) => candidate.name === association.name)?.[1];
    const matches = grouped.get(textOf(matchKey(owner.readAttribute(ownKey)))) ?? [];
    const loaded = association.kind === "hasMany" ? matches : matches.slice(0, 1);
    for (const target of loaded) given.add(target);
    slot?.remember(association.kind === "hasMany" ? matches : (matches[0] ?? null));
  }
  return [...given];
}

/** An association of a level, with its keys: the owners' (`ownKey`) and the targets' that match it (`theirKey`). */
interface Preload {
  readonly association: ResolvedAssociation;
  readonly ownKey: string;
  readonly theirKey: string;
  /** The names to include below it, and its dotted path. */
  readonly below: IncludeTree;
  readonly path: string;
}

/** The owner keys a preload's query chose (its subquery's run of the owners' query) and the targets it read. */
interface ChosenTargets {
  readonly ownerKeys: readonly unknown[];
  readonly targets: Loaded[];
}

/**
 * The SQL of a preload by the owners' source: the distinct owner keys the source gives, each joined to its targets
 * (`LEFT JOIN`, so that an owner without any still shows as chosen), in the targets' own conditions and order.
 */
function joinedToOwners(level: Level, target: Relation, preload: Preload, params: ParamWriter): string {
  return withSource(level.source, params, (owners) => {
    const parts = selectParts(target.description, target.model, params, "preload");
    const chosen = chosenOwners(level, preload.ownKey, preload.association, owners);
    const theirColumn = `${parts.from}.${quoteIdentifier(attributeNamed(target.model, preload.theirKey).column)}`;
    const on = joinWithAnd([`${theirColumn} = ${OWNERS}."${OWNER_COLUMN}"`, ...parts.where]);
    const columns = `${OWNERS}."${OWNER_COLUMN}", ${parts.columns === "*" ? `${parts.from}.*` : parts.columns}`;
    return joinSelect({ ...parts, columns, from: `${chosen} LEFT JOIN ${parts.from} ON ${on}`, where: [], listJoin: undefined });
  });
}

/** Splits a preload's rows into the owner keys its query chose and the targets' records, once they are loaded. */
function chosenTargets(target: Relation, theirColumn: string): StatementReader<ChosenTargets> {
  return (rows, _meta, database) => {
    const matched = rows.filter((row) => row[theirColumn] !== null).map(({ [OWNER_COLUMN]: _owner, ...row }) => row);
    const ownerKeys = rows.map((row) => row[OWNER_COLUMN]);
    const targets = target.recordsOf(matched, database, "preload");
    return targets instanceof Promise ? targets.then((loaded) => ({ ownerKeys, targets: loaded })) : { ownerKeys, targets };
  };
}

/**
 * Plans the preload of each association of the tree at one level: a read of the targets of the owner keys a
 * subquery of the owners' source chooses, which also says which keys it chose. SQLite may run that subquery
 * differently from the query that returned the owners (an order with ties, `random()`, a limit without order):
 * the owners it did not choose have their targets read by their keys, in one more round trip. Then the levels
 * below it, whose source is this read.
 */
function planLevel(level: Level, tree: IncludeTree, pending: Set<string>, reads: PlannedRead[]): void {
  const known = associationsOf(level.owners.model.model);
  for (const name of tree.keys()) {
    const path = `${level.prefix}${name}`;
    if (known.has(name)) for (const planned of [...pending]) if (planned === path || planned.startsWith(`${path}.`)) pending.delete(planned);
  }
  for (const [name, below] of throughHopsTree(level.owners.model.model, tree)) {
    const association = known.get(name);
    if (!association) {
      if (level.prefix === "") continue;
      throw new TypeError(`${level.owners.model.name}: ${name} is not an association of ${level.owners.model.name} (includes ${level.prefix}${name})`);
    }
    const belongs = association.kind === "belongsTo";
    const path = `${level.prefix}${name}`;
    if (belongs && association.polymorphic) {
      planByType(level, association, below, path, reads);
      continue;
    }
    const preload: Preload = { association, ownKey: belongs ? association.foreignKey : association.primaryKey, theirKey: belongs ? association.primaryKey : association.foreignKey, below, path };
    planBySource(level, preload, reads);
  }
  for (const name of tree.keys()) {
    const association = known.get(name);
    if (association?.through === undefined || !association.options.scope) continue;
    const targets = admittedTarget(level.prepared, `${level.prefix}${name}`, level.owners.model.model, association);
    reads.push(admittedTargetsRead(level, association, targets));
  }
}

/**
 * A polymorphic `belongsTo`: one read per listed Model (per type a `sourceType` source reads, when only such sources
 * include it), each of the owners whose type names it (a narrowed source), all in the same batch. The first to be
 * received checks the type of every owner read for and settles those pointing at nothing.
 */
function planByType(level: Level, association: ResolvedAssociation, below: IncludeTree, path: string, reads: PlannedRead[]): void {
  const { foreignType } = association.polymorphic!;
  loadedKeyColumn(level.owners, foreignType, `${level.owners.model.name}.includes: ${association.name}`);
  const only = typesRead(below);
  const readFor = (main: readonly Loaded[]) => (only ? level.records(main).filter((owner) => only.has(owner.readAttribute(foreignType))) : level.records(main));
  const first = reads.length;
  for (const typed of typedTargets(association, attributeNamed(level.owners.model, foreignType), only)) {
    const owners: Level = { ...level, source: typed.narrow(level.source), records: (main) => level.records(main).filter(typed.owns) };
    planBySource(owners, { association: typed.association, ownKey: association.foreignKey, theirKey: typed.association.primaryKey, below, path }, reads);
  }
  const { statement, receive } = reads[first]!;
  reads[first] = { statement, receive: (result, main, readNext) => (settleOwnersOfNothing(association, readFor(main)), receive(result, main, readNext)) };
}

/**
 * A preload loads the target's records as any load does: the target Model's `relation:plan` hooks plan their reads
 * for them (purpose `preload`), by a source of exactly the targets of the owners' source, and receive its records.
 * The `includes` below it are this tree's, planned level by level, so the target's own are left out.
 */
function planTargetReads(target: Relation, source: QuerySource, records: () => readonly Loaded[], reads: PlannedRead[]): void {
  const plan = target.with({ includes: [] }).plan({ purpose: "preload", source });
  for (const read of plan.reads) reads.push({ statement: read.statement, receive: (result, _main, readNext) => read.receive(result, records(), readNext) });
}

/** The targets' SELECT narrowed by a subquery of the owners' source: the rows a preload reads, and no other column. */
function targetsOfOwners(level: Level, target: Relation, preload: Preload): QuerySource {
  const needer = `${level.owners.model.name}.includes: ${preload.association.name}`;
  const ownColumn = quoteIdentifier(loadedKeyColumn(level.owners, preload.ownKey, needer));
  const theirColumn = quoteIdentifier(attributeNamed(target.model, preload.theirKey).column);
  return (params) =>
    withSource(level.source, params, (owners) => {
      const parts = selectParts(target.description, target.model, params, "preload");
      parts.where.push(`${theirColumn} IN (SELECT ${ownColumn} FROM ${owners})`);
      return joinSelect(parts);
    });
}

/** The read of one association's targets by the owners' source, then the levels below it. */
function planBySource(level: Level, preload: Preload, reads: PlannedRead[]): void {
  const target = preloadTarget(level.prepared, preload.path, preload.association);
  const theirColumn = loadedKeyColumn(target, preload.theirKey, `${level.owners.model.name}.includes: ${preload.association.name}`);
  const source: QuerySource = (params) => joinedToOwners(level, target, preload, params);
  const params = new ParamWriter();
  const sql = source(params);
  const statement = defineStatement({ sql, params: params.params, sources: params.sources, model: target.model, read: chosenTargets(target, theirColumn) });
  let found: readonly Loaded[] = [];
  const receive = ({ ownerKeys, targets }: ChosenTargets, main: readonly Loaded[], readNext: (reads: readonly PlannedRead[]) => void) => {
    const matchKey = keyMatcher(preload.association, preload.theirKey);
    // Compared as text, as fill matches them, each row's key read as the owners' attribute reads it: a key of bytes
    // is a new object in each row and record.
    const textOf = keyTexts(preload.association.target, preload.theirKey);
    const { type } = attributeNamed(level.owners.model, preload.ownKey);
    const chosen = new Set(ownerKeys.map((key) => textOf(matchKey(key === null ? null : type.fromDatabase(key)))));
    const owners = level.records(main).filter((owner) => owner.readAttribute(preload.ownKey) !== null);
    const missed = owners.filter((owner) => !chosen.has(textOf(matchKey(owner.readAttribute(preload.ownKey)))));
    found = fill(preload.association, owners.filter((owner) => !missed.includes(owner)), targets, preload.ownKey, preload.theirKey);
    if (missed.length > 0) readNext(readsByKeys(level.prepared, preload, missed));
  };
  reads.push({ statement, receive });
  planTargetReads(target, targetsOfOwners(level, target, preload), () => found, reads);
  planLevel({ owners: target, prepared: level.prepared, source, records: () => found, prefix: `${preload.path}.` }, preload.below, new Set(), reads);
}

/**
 * The reads of one association's targets for owners given as records (those a preload's subquery did not choose),
 * by their keys bound as one JSON list, then the levels below them: the second round trip of a preload. The
 * targets' Relation is the one the load prepared, narrowed by key: compiled as it is, not prepared again.
 */
function readsByKeys(prepared: PreparedTargets | undefined, preload: Preload, owners: readonly Loaded[]): PlannedRead[] {
  const keys = [...new Set(owners.map((owner) => owner.readAttribute(preload.ownKey)))];
  const targets = preloadTarget(prepared, preload.path, preload.association).where({ [preload.theirKey]: keys });
  let found: readonly Loaded[] = [];
  const reads: PlannedRead[] = [{ statement: targets.toSelect(compileSelect(targets.description, targets.model), "preload"), receive: (records: Loaded[]) => void (found = fill(preload.association, owners, records, preload.ownKey, preload.theirKey)) }];
  const source: QuerySource = (params) => joinSelect(selectParts(targets.description, targets.model, params));
  planLevel({ owners: targets, prepared, source, records: () => found, prefix: `${preload.path}.` }, preload.below, new Set(), reads);
  return reads;
}

/**
 * The `relation:plan` hook of associations: every association `includes` names, at any depth, is read in the batch
 * of the Relation's SELECT, by a subquery of it (the owners it missed, in one more round trip); the paths whose
 * first name is no association stay pending.
 */
export function planPreloads({ relation, source, pending, reads }: RelationPlanContext): void {
  if (pending.size === 0) return;
  planLevel({ owners: relation, prepared: preparedTargetsOf(relation), source, records: (main) => main, prefix: "" }, treeOf(pending), pending, reads);
}
