import { attributeNamed, injectedName, MissingAttribute, type QuerySource, quoteIdentifier, type Relation, reservedName } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";

type Loaded = Record<string, any>;

/** The Relations of a load's preloads that `relation:prepare` prepared: by dotted path, then by target Model. */
export type PreparedTargets = ReadonlyMap<string, ReadonlyMap<Function, Relation>>;

/** One level of preloads: the owners' Relation and source, and how to get their records once loaded. */
export interface Level {
  readonly owners: Relation;
  /** The Relations `relation:prepare` prepared for this load's preloads. */
  readonly prepared: PreparedTargets | undefined;
  readonly source: QuerySource;
  readonly records: (main: readonly Loaded[]) => readonly Loaded[];
  readonly prefix: string;
}

/** The column of a preload's rows that names the owner key each row was read for, and the rows of those keys. */
export const OWNER_COLUMN = reservedName("owner");
export const OWNERS = injectedName("owners");

/**
 * A key column of a preload's query, refused before any query when the Relation's `select` leaves it out: the
 * owners' key, or the targets' (by which their rows are told from an owner without any).
 */
export function loadedKeyColumn(relation: Relation, key: string, needer: string): string {
  const { model, description } = relation;
  const attribute = attributeNamed(model, key);
  const { select, distinct } = description;
  const loaded = !select || select.includes(attribute) || (!distinct && attribute === model.primaryKey);
  if (!loaded) throw new MissingAttribute(`${needer} needs ${model.name}.${key}, which select() leaves out`);
  return attribute.column;
}

/**
 * The distinct owner keys of `ownKey` that the owners' source (named `owners` in the statement) gives, as the table
 * `OWNERS` of one column, `OWNER_COLUMN`: what a preload joins its targets to, each row saying which owner it is for.
 */
export function chosenOwners(level: Level, ownKey: string, association: ResolvedAssociation, owners: string): string {
  const ownColumn = quoteIdentifier(loadedKeyColumn(level.owners, ownKey, `${level.owners.model.name}.includes: ${association.name}`));
  return `(SELECT DISTINCT ${ownColumn} AS "${OWNER_COLUMN}" FROM ${owners} WHERE ${ownColumn} IS NOT NULL) AS ${OWNERS}`;
}
