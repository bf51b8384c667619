/**
 * Rows of a destroy's tree, destroyed record by record (callbacks), that point through a dependent association's
 * foreign key at a row the batch deletes before their own: rows that point at each other (a comment that is its own
 * reply's reply), or a row held by two parents, the other one in a branch destroyed first. A `REFERENCES` constraint
 * would refuse that earlier DELETE. So, first in the batch, each such key is relinked to a row deleted after its own:
 * the row itself where the key points into its own table, else the nearest row above it on that table, else NULL;
 * and, last before the owner's DELETE, each is set back where its row and the row it pointed at both remain (a soft
 * delete keeps rows, and must keep their keys). Both are sent only where such a key exists, each as one statement
 * per table and column whatever the number of rows (their pairs bound as one JSON value).
 */
import {
  type Attribute,
  blobAwareJson,
  blobJson,
  type Database,
  defineStatement,
  injectedName,
  isBlob,
  jsonArraysWithinD1Limit,
  jsonOfBound,
  ParamWriter,
  primaryKeyOf,
  quoteIdentifier,
  relationOf,
  type Statement,
} from "../../kernel/index.js";
import { type DependentTree, OWNER } from "./dependent-tree.js";
import { keyTexts, rowKeyOf } from "./keys.js";

type Owner = Record<string, any>;

/** Where a destroyed record's DELETE falls: its place among the batch's DELETEs, and the record that destroys it. */
export interface DestroyPlace {
  readonly deletedAt: number;
  readonly parent: Owner | undefined;
}

/** The statements that relink the keys before the DELETEs, and those that set them back after. */
export interface MutualLinks {
  readonly relinks: Statement<unknown>[];
  readonly restores: Statement<unknown>[];
}

/** One key to relink: the row holding it, the value it gets for the batch, and the value it had. */
interface Link {
  readonly row: unknown;
  readonly relinked: unknown;
  readonly original: unknown;
}

/** A foreign key of a dependent association: the Model holding it, and the Model whose key it holds. */
interface Edge {
  readonly holder: Function;
  readonly foreignKey: string;
  readonly parent: Function;
}

const ENTRY = injectedName("link");
const ROW = injectedName("row");
const VALUE = injectedName("value");

const modelOf = (model: Function) => relationOf(model).model;
const tableOf = (model: Function) => modelOf(model).quotedTable;
const keyOf = (record: Owner): unknown => rowKeyOf(record, primaryKeyOf(record.constructor).name);
// By the key's stored form: a plugin type's value object is a new one at each read, and no text of its own.
const rowOf = (model: Function, key: unknown) => `${tableOf(model)} ${keyTexts(model, primaryKeyOf(model).name)(key)}`;

/**
 * The foreign keys of the tree's `destroy` associations that a `REFERENCES` column can hold: those pointing at the
 * parent's primary key (a polymorphic one names several tables), once per Model and key.
 */
function edgesOf(tree: DependentTree, owner: Function): Edge[] {
  const edges = new Map<string, Edge>();
  for (const node of tree.all) {
    const { association } = node;
    if (node.dependent !== "destroy" || association.polymorphic) continue;
    const parent = node.above === OWNER ? owner : tree.all[node.above - 1]!.association.target;
    if (association.primaryKey !== primaryKeyOf(parent).name) continue;
    edges.set(`${tableOf(association.target)} ${association.foreignKey}`, { holder: association.target, foreignKey: association.foreignKey, parent });
  }
  return [...edges.values()];
}

/** The row `record`'s key is relinked to: itself on its own table, else the nearest row above it on `parent`'s. */
function relinkedValue(record: Owner, parent: Function, places: ReadonlyMap<Owner, DestroyPlace>): unknown {
  if (tableOf(record.constructor) === tableOf(parent)) return keyOf(record);
  for (let above = places.get(record)!.parent; above; above = places.get(above)!.parent) {
    if (tableOf(above.constructor) === tableOf(parent)) return keyOf(above);
  }
  return null;
}

/** The keys to relink, by the Model holding them and the key: those pointing at a row deleted before their own. */
function linksOf(tree: DependentTree, owner: Owner, places: ReadonlyMap<Owner, DestroyPlace>): Map<Edge, Link[]> {
  const deletedAt = new Map<string, number>();
  for (const [record, place] of places) deletedAt.set(rowOf(record.constructor, keyOf(record)), place.deletedAt);
  const links = new Map<Edge, Link[]>();
  const edges = edgesOf(tree, owner.constructor);
  for (const [record, place] of places) {
    for (const edge of edges) {
      if (tableOf(record.constructor) !== tableOf(edge.holder)) continue;
      const original = rowKeyOf(record, edge.foreignKey);
      const pointedAt = original == null ? undefined : deletedAt.get(rowOf(edge.parent, original));
      if (pointedAt === undefined || pointedAt > place.deletedAt) continue;
      const link = { row: keyOf(record), relinked: relinkedValue(record, edge.parent, places), original };
      const known = links.get(edge);
      if (known) known.push(link);
      else links.set(edge, [link]);
    }
  }
  return links;
}

/**
 * A key of the attribute as JSON, in the form it is stored (a plugin type's value object as its type stores it):
 * bytes as `blobJson` writes them, which `pairElement` reads back as the same blob.
 */
function keyJson(attribute: Attribute, key: unknown): string | undefined {
  const stored = key == null ? null : attribute.type.toDatabase(key);
  return isBlob(stored) ? blobJson(stored) : jsonOfBound(stored);
}

/** SQL reading element `index` of a pair: a key is never a JSON array but for bytes, so any may be read as if bytes. */
const pairElement = (index: number) => blobAwareJson(`json_type(value, '$[${index}]')`, `json_extract(value, '$[${index}]')`, `json_extract(value, '$[${index}][0]')`);

/** The pairs of a column's links as JSON arrays, each within D1's limit for one value. */
function pairLists(edge: Edge, links: readonly Link[], value: (link: Link) => unknown): string[] {
  const holder = modelOf(edge.holder);
  const foreignKey = holder.byName.get(edge.foreignKey)!;
  const texts = links.map((link) => `[${keyJson(holder.primaryKey, link.row)},${keyJson(foreignKey, value(link))}]`);
  return jsonArraysWithinD1Limit(texts, `${edge.holder.name}.${edge.foreignKey}`);
}

/**
 * `UPDATE "t" SET "fk" = link.value FROM (pairs) AS link WHERE "t"."id" = link.row`, for each list of pairs;
 * `onlyWhereParentRemains` adds that the row the value names still exists.
 */
function setStatements(edge: Edge, lists: readonly string[], database: Database | undefined, onlyWhereParentRemains: boolean): Statement<unknown>[] {
  const holder = modelOf(edge.holder);
  const parent = modelOf(edge.parent);
  const column = quoteIdentifier(holder.byName.get(edge.foreignKey)!.column);
  const key = `${holder.quotedTable}.${quoteIdentifier(holder.primaryKey.column)}`;
  return lists.map((list) => {
    const params = new ParamWriter();
    const pairs = `SELECT ${pairElement(0)} AS ${ROW}, ${pairElement(1)} AS ${VALUE} FROM json_each(${params.bind(list)})`;
    const remains = `EXISTS (SELECT 1 FROM ${parent.quotedTable} WHERE ${quoteIdentifier(parent.primaryKey.column)} = ${ENTRY}.${VALUE})`;
    const where = [`${key} = ${ENTRY}.${ROW}`, ...(onlyWhereParentRemains ? [remains] : [])].join(" AND ");
    const sql = `UPDATE ${holder.quotedTable} SET ${column} = ${ENTRY}.${VALUE} FROM (${pairs}) AS ${ENTRY} WHERE ${where}`;
    return defineStatement({ sql, params: params.params, model: holder, result: "meta", database });
  });
}

/**
 * The relinks and restores a record-by-record destroy of `owner`'s tree needs, given where each record's DELETE
 * falls (`places`, the owner's among them); undefined when no key points at a row deleted before its own.
 */
export function mutualLinksOf(tree: DependentTree, owner: Owner, places: ReadonlyMap<Owner, DestroyPlace>, database: Database | undefined): MutualLinks | undefined {
  const links = linksOf(tree, owner, places);
  if (links.size === 0) return undefined;
  const relinks: Statement<unknown>[] = [];
  const restores: Statement<unknown>[] = [];
  for (const [edge, each] of links) {
    relinks.push(...setStatements(edge, pairLists(edge, each, (link) => link.relinked), database, false));
    restores.push(...setStatements(edge, pairLists(edge, each, (link) => link.original), database, true));
  }
  return { relinks, restores };
}
