import {
  column,
  defineStatement,
  fragmentOf,
  IncompatibleRelation,
  joinSelect,
  joinWithAnd,
  ParamWriter,
  type PlannedRead,
  quoteIdentifier,
  type Relation,
  selectParts,
  sql,
  withSource,
} from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { keyTexts, rowKeyOf } from "./keys.js";
import { chosenOwners, type Level, OWNER_COLUMN, OWNERS } from "./preload-owners.js";
import { scopedTargetOf } from "./slot.js";
import { throughHops } from "./through-hops.js";
import { reachedFrom } from "./through-relation.js";
import { slotNamed, type ThroughSlot } from "./through-slot.js";

type Loaded = Record<string, any>;

const TARGET_COLUMN = "target";

/**
 * The targets a scoped through association admits for the owner key of each row of `OWNERS` (the owners a preload
 * reads for): its first hop's rows joined to that key, then each hop's, then its scope. A scope that pages is refused:
 * one statement cannot page each owner's targets.
 */
export function admittedTargetsOf(model: Function, association: ResolvedAssociation): Relation {
  const hops = throughHops(model, association);
  const first = hops[0]!;
  const owner = fragmentOf(`${OWNERS}."${OWNER_COLUMN}"`, []);
  const firstRows = scopedTargetOf(first.association, undefined).where(sql`${column(first.theirKey)} = ${owner}`);
  const targets = reachedFrom(association, hops, firstRows, undefined);
  const { limit, offset } = targets.description;
  if (limit !== undefined || offset !== undefined) {
    throw new IncompatibleRelation(`${association.name}: a scope with limit or offset cannot be preloaded with includes; load each owner's ${association.name} instead`);
  }
  return targets;
}

/**
 * The SELECT of the keys of the targets a scoped through association admits, for each owner key the owners' source
 * gives: `(owner, target key)` rows in the scope's order, the first hop joined to each owner by a correlated
 * subquery (an owner with none shows once, with a NULL key, so that it reads as chosen).
 */
function admittedKeys(level: Level, association: ResolvedAssociation, targets: Relation, params: ParamWriter): string {
  const first = throughHops(level.owners.model.model, association)[0]!;
  return withSource(level.source, params, (owners) => {
    const parts = selectParts(targets.description, targets.model, params, "preload");
    const key = `${parts.from}.${quoteIdentifier(targets.model.primaryKey.column)}`;
    const from = `${chosenOwners(level, first.ownKey, association, owners)} LEFT JOIN ${parts.from} ON ${joinWithAnd(parts.where)}`;
    return joinSelect({ ...parts, columns: `${OWNERS}."${OWNER_COLUMN}", ${key} AS "${TARGET_COLUMN}"`, from, where: [], listJoin: undefined });
  });
}

/**
 * Gives each owner's slot of a scoped through association the keys of the targets its scope admits, in the scope's
 * order; an owner the read did not choose (the owners' query ran otherwise, see `planLevel`) gets none, and reads
 * its targets when asked.
 */
function admit(association: ResolvedAssociation, ownKey: string, owners: readonly Loaded[], rows: readonly Record<string, unknown>[]): void {
  const admitted = new Map<string, string[]>();
  for (const row of rows) {
    const keys = admitted.get(String(row[OWNER_COLUMN])) ?? [];
    if (row[TARGET_COLUMN] !== null) keys.push(String(row[TARGET_COLUMN]));
    admitted.set(String(row[OWNER_COLUMN]), keys);
  }
  for (const owner of owners) {
    const keys = admitted.get(String(keyTexts(owner.constructor, ownKey)(rowKeyOf(owner, ownKey))));
    if (keys) (slotNamed(owner, association.name) as ThroughSlot | undefined)?.admit(keys);
  }
}

/**
 * The read that preloads a through association with a `scope` (`includes("officialTags")`), beside the preloads of
 * the hops it crosses and in their batch: which of the `targets` they reach the scope admits (`admittedTargetsOf`, as
 * the load prepared it), for each owner, by one statement that reads keys only; `ThroughSlot` then answers with those
 * of the hops' targets. An unscoped through association needs none.
 */
export function admittedTargetsRead(level: Level, association: ResolvedAssociation, targets: Relation): PlannedRead {
  const params = new ParamWriter();
  const text = admittedKeys(level, association, targets, params);
  const statement = defineStatement({ sql: text, params: params.params, sources: params.sources, model: level.owners.model, read: (rows) => rows });
  const ownKey = throughHops(level.owners.model.model, association)[0]!.ownKey;
  return { statement, receive: (rows: Record<string, unknown>[], main: readonly Loaded[]) => admit(association, ownKey, level.records(main), rows) };
}
