import { column, InvalidModel, type Relation, sql } from "../../kernel/index.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import type { AssociationSlot } from "./slot.js";
import { type Hop, leadingTo, throughHops } from "./through-hops.js";
import { keysOf } from "./through-relation.js";
import { slotNamed } from "./through-slot.js";

/** What a through association's `dependent` does to its join rows: as in Rails, `nullify` deletes them too. */
const ON_JOIN_ROWS: Partial<Record<Dependent, Dependent>> = { destroy: "destroy", deleteAll: "deleteAll", nullify: "deleteAll", restrictWithError: "restrictWithError" };

const joinRowsOf = new WeakMap<ResolvedAssociation, ResolvedAssociation>();

/** The join rows whose owner's slot may hold others: those of a through association with a `scope` or a `sourceType`. */
const narrowed = new WeakSet<ResolvedAssociation>();

type Scope = (relation: Relation) => Relation;

/**
 * The join rows a through association's `dependent` handles, as a scope of the join Model's rows: the join
 * association's own, then, for a `sourceType` source, those of its type, and, for a `scope`, those whose target it
 * admits (`"tag_id" IN (SELECT "id" FROM "tags" WHERE <scope>)`): the others stay, as in Rails, where the strategy
 * acts on the association's own join rows. Undefined when every join row of the owner is the association's.
 */
function joinRowsScope(model: Function, association: ResolvedAssociation, join: ResolvedAssociation, source: Hop): Scope | undefined {
  const scope = association.options.scope as Scope | undefined;
  if (!scope && !source.ownType) return undefined;
  const admitted = () => scope!((association.target as unknown as { all(): Relation }).all());
  const { limit, offset } = scope ? admitted().description : {};
  if (limit !== undefined || offset !== undefined) {
    throw new InvalidModel(`${model.name}.${association.name}: dependent is not taken with a scope that has a limit or offset (one statement cannot page each owner's targets)`);
  }
  const joinScope = join.options.scope as Scope | undefined;
  return (relation) => {
    const rows = leadingTo(joinScope ? joinScope(relation) : relation, source);
    return scope ? rows.where(sql`${column(source.ownKey)} IN ${keysOf(admitted(), source.theirKey)}`) : rows;
  };
}

/**
 * The association whose rows a `dependent` handles: a direct one itself; for a through association, as in Rails,
 * the owner's join rows, never the targets (`tags = hasMany(Tag, { through: this.taggings, dependent: "destroy" })`
 * destroys the post's taggings, their callbacks run), under the through association's name; with a `scope` or a
 * `sourceType`, only the join rows to the targets the association reaches.
 */
export function dependentRows(model: Function, association: ResolvedAssociation): ResolvedAssociation {
  if (association.through === undefined) return association;
  let rows = joinRowsOf.get(association);
  if (!rows) {
    const [join, source, ...more] = throughHops(model, association);
    if (more.length > 0 || join!.association.kind !== "hasMany" || source!.association.kind !== "belongsTo") {
      throw new InvalidModel(`${model.name}.${association.name}: dependent needs a hasMany through a hasMany whose source is a belongsTo (the join rows to delete)`);
    }
    const dependent = ON_JOIN_ROWS[association.options.dependent!];
    const scope = joinRowsScope(model, association, join!.association, source!);
    rows = { ...join!.association, name: association.name, options: { ...join!.association.options, dependent, ...(scope && { scope }) } };
    if (scope) narrowed.add(rows);
    joinRowsOf.set(association, rows);
  }
  return rows;
}

/**
 * Whether the slot of a dependent's rows may hold rows the dependent does not handle: a scoped or `sourceType`
 * through association's, whose owner's join association holds all its join rows. What it holds is then not taken
 * as the rows to destroy.
 */
export function holdsOtherRows(rows: ResolvedAssociation): boolean {
  return narrowed.has(rows);
}

/** A record's dependent association with its slot, as `dependentRows` gives it: a through one's join rows' slot. */
export function dependentSlot(record: Record<string, any>, [association, slot]: [ResolvedAssociation, AssociationSlot]): [ResolvedAssociation, AssociationSlot] {
  if (association.through === undefined) return [association, slot];
  const rows = dependentRows(record.constructor, association);
  return [rows, slotNamed(record, throughHops(record.constructor, association)[0]!.association.name)!];
}
