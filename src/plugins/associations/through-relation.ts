import {
  attributeNamed,
  column,
  type Database,
  databaseOfRecord,
  joinSelect,
  quoteIdentifier,
  type Relation,
  relationSubquery,
  sql,
} from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { rowKeyOf } from "./keys.js";
import { scopedTargetOf } from "./slot.js";
import { type Hop, leadingTo, throughHops } from "./through-hops.js";

type Owner = Record<string, any>;

/**
 * The `key` column of a Relation's rows as a subquery: `SELECT "tag_id" FROM "taggings" WHERE ...`, prepared as a
 * Relation of its Model is (`relation:prepare`: an encryption's conditions) by the async method that sends it, and
 * compiled when the statement is, with the `relation:*` hooks of its Model (a tenant's, a soft delete's). Its order
 * is dropped unless it pages: no set of rows depends on it.
 */
export function keysOf(relation: Relation, key: string) {
  const { limit, offset } = relation.description;
  const rows = limit === undefined && offset === undefined ? relation.with({ order: [], select: undefined }) : relation.with({ select: undefined });
  const columns = quoteIdentifier(attributeNamed(rows.model, key).column);
  return relationSubquery(rows, "load", (parts) => joinSelect({ ...parts, columns, distinct: false, listJoin: undefined }));
}

/** The key the owner's first hop joins on: its foreign key as assigned for a `belongsTo`, else its key as stored. */
function ownerKeyOf(owner: Owner, hop: Hop): unknown {
  return hop.association.kind === "belongsTo" ? owner.readAttribute(hop.ownKey) : rowKeyOf(owner, hop.ownKey);
}

/**
 * The rows of a hop's target that the rows of `above` (its owners') reach, in the hop's scope; for a `sourceType`
 * source, by those of `above` of its type only.
 */
function reachedBy(above: Relation, hop: Hop, database: Database | undefined): Relation {
  return scopedTargetOf(hop.association, database).where(sql`${column(hop.theirKey)} IN ${keysOf(leadingTo(above, hop), hop.ownKey)}`);
}

/**
 * The targets a through association reaches from the rows of its first hop that `firstRows` selects: each hop's
 * rows chosen by a subquery of the keys of the hop before it, narrowed last by the association's own `scope`
 * (Rails' `has_many :tags, -> { where(...) }, through: :taggings`).
 */
export function reachedFrom(association: ResolvedAssociation, hops: readonly Hop[], firstRows: Relation, database: Database | undefined): Relation {
  let relation = firstRows;
  for (const hop of hops.slice(1)) relation = reachedBy(relation, hop, database);
  const { scope } = association.options;
  return scope ? (scope(relation) as Relation) : relation;
}

/**
 * The targets of a through association of `owner` as one Relation: each hop's rows chosen by a subquery of the
 * keys of the hop before it, down from the owner's key (`tags.id IN (SELECT tag_id FROM taggings WHERE post_id = ?)`),
 * then the association's `scope`. One statement, the join rows read by their index and never loaded; each target
 * once, however many join rows reach it. An owner without a key (a new record's database-assigned one) has none.
 */
export function throughRelation(owner: Owner, association: ResolvedAssociation): Relation {
  const hops = throughHops(owner.constructor as Function, association);
  const first = hops[0]!;
  const database = databaseOfRecord(owner);
  const key = ownerKeyOf(owner, first);
  const start = scopedTargetOf(first.association, database);
  return reachedFrom(association, hops, key === null ? start.none() : start.where({ [first.theirKey]: key }), database);
}
