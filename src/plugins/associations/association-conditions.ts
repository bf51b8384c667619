import { isPlainObject, type MethodWrapper, primaryKeyOf, type Relation, refuseUninspectable } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { givenText } from "./given-records.js";
import { rowKeyOf } from "./keys.js";
import { listedEntry } from "./polymorphic.js";
import { associationsOf } from "./registry.js";

type Conditions = Record<string, unknown>;

/**
 * A `where` object with its `belongsTo` entries read as attributes: `common` holds what every row must meet, and
 * each of `choices` the alternatives of which a row must meet one (a polymorphic list of records of several Models).
 */
interface ReadConditions {
  readonly common: Conditions;
  readonly choices: readonly Conditions[][];
}

/** What a `belongsTo` entry takes, as its refusal says; a key goes under the foreign key's attribute. */
function expected(association: ResolvedAssociation): string {
  const { foreignKey, polymorphic } = association;
  if (!polymorphic) return `a saved record of ${association.target.name}, null or a list of them (a key goes under ${foreignKey})`;
  const models = [...polymorphic.models.keys()].join(" or ");
  return `a saved record of ${models}, null or a list of them (a key goes under ${foreignKey}, its Model's name under ${polymorphic.foreignType})`;
}

/**
 * The type value (for a polymorphic `belongsTo`) and the key a record given for `association` stands for: its key
 * as its row has it. Anything but a saved record of the target (of a listed Model) is a `TypeError` naming the method.
 */
function keyOfRecord(where: string, association: ResolvedAssociation, record: unknown): [type: string | undefined, key: unknown] {
  refuseUninspectable(where, expected(association), record);
  const { polymorphic } = association;
  const listed = polymorphic && listedEntry(polymorphic.models, typeof record === "object" && record !== null ? record.constructor : undefined);
  if (polymorphic ? !listed : !(record instanceof association.target)) throw new TypeError(`${where} takes ${expected(association)}, not ${givenText(record)}`);
  const saved = record as Record<string, any>;
  if (saved.isNewRecord()) throw new TypeError(`${where} is a new ${saved.constructor.name}, whose row has no key yet; save it first`);
  return listed ? [listed[0], rowKeyOf(saved, primaryKeyOf(listed[1]).name)] : [undefined, rowKeyOf(saved, association.primaryKey)];
}

/**
 * The attribute conditions a `belongsTo` entry stands for, as alternatives of which a row meets one: one for a
 * record, null or a list of one Model's records (the key, and a polymorphic one's type); for a polymorphic list of
 * several Models, one per Model with its keys, and one for null.
 */
function alternativesOf(where: string, association: ResolvedAssociation, value: unknown): Conditions[] {
  const { foreignKey, polymorphic } = association;
  refuseUninspectable(where, expected(association), value);
  const keyOf = (record: unknown) => keyOfRecord(where, association, record);
  if (value === null) return [polymorphic ? { [polymorphic.foreignType]: null, [foreignKey]: null } : { [foreignKey]: null }];
  if (!Array.isArray(value)) {
    const [type, key] = keyOf(value);
    return [polymorphic ? { [polymorphic.foreignType]: type, [foreignKey]: key } : { [foreignKey]: key }];
  }
  if (!polymorphic) return [{ [foreignKey]: value.map((record) => (record === null ? null : keyOf(record)[1])) }];
  const keysByType = new Map<string | null | undefined, unknown[]>();
  for (const record of value) {
    const [type, key] = record === null ? [null, null] : keyOf(record);
    keysByType.set(type, [...(keysByType.get(type) ?? []), key]);
  }
  // A list of nothing matches nothing, as a list on the key alone does.
  if (keysByType.size === 0) return [{ [foreignKey]: [] }];
  return [...keysByType].map(([type, keys]) => ({ [polymorphic.foreignType]: type, [foreignKey]: type === null ? null : keys }));
}

/**
 * Reads the `belongsTo` entries of a `where` object of `relation`'s Model; undefined when it has none (or is no
 * plain object: the kernel's method refuses or reads it). An association of another kind, or an attribute named by
 * two entries (`author` and `userId`), is a `TypeError` naming the method.
 */
function readConditions(relation: Relation, conditions: unknown, method: string): ReadConditions | undefined {
  if (!isPlainObject(conditions)) return undefined;
  const associations = associationsOf(relation.model.model);
  const names = Object.keys(conditions);
  if (!names.some((name) => associations.has(name))) return undefined;
  const common: Conditions = {};
  const choices: Conditions[][] = [];
  const namedBy = new Map<string, string>();
  const where = `${relation.model.name}.${method}`;
  const claim = (attribute: string, entry: string) => {
    const other = namedBy.get(attribute);
    if (other !== undefined) throw new TypeError(`${where}: ${other} and ${entry} both give ${attribute}; give one of them`);
    namedBy.set(attribute, entry);
  };
  for (const name of names) {
    const value = conditions[name];
    const association = associations.get(name);
    if (!association) {
      claim(name, name);
      common[name] = value;
      continue;
    }
    if (association.kind !== "belongsTo") throw new TypeError(`${where}: ${name} is a ${association.kind} association; conditions take a belongsTo's records`);
    const alternatives = alternativesOf(`${where}: ${name}`, association, value);
    for (const attribute of Object.keys(alternatives[0]!)) claim(attribute, name);
    if (alternatives.length === 1) Object.assign(common, alternatives[0]);
    else choices.push(alternatives);
  }
  return { common, choices };
}

/**
 * Rails' `where(author: user)`: a `belongsTo` named in a `where` object (and so in `findBy`, `findByOrThrow`,
 * `exists`, whose conditions go through `where`) matches its foreign key (and a polymorphic one's type) by the
 * kernel's own `where`; a polymorphic list of several Models adds an OR of their conditions. One statement still.
 */
const where: MethodWrapper = (next) =>
  function (this: Relation, conditions: unknown, method: unknown = "where") {
    const read = typeof method === "string" ? readConditions(this, conditions, method) : undefined;
    if (!read) return next.apply(this, arguments as never);
    const narrowed: Relation = next.call(this, read.common, method);
    if (read.choices.length === 0) return narrowed;
    const unnarrowed = this.with({ conditions: [] });
    const conditionsOf = (attributes: Conditions) => (next.call(unnarrowed, attributes, method) as Relation).description.conditions;
    const eitherOf = (alternatives: Conditions[]) => ({ kind: "or" as const, branches: alternatives.map(conditionsOf) });
    return narrowed.with({ conditions: [...narrowed.description.conditions, ...read.choices.map(eitherOf)] });
  };

/**
 * `whereNot(author: user)`: the kernel's `whereNot` of the attributes the `belongsTo` entries stand for, so that
 * its rules hold (a row with NULL in a named attribute is excluded). A polymorphic list of several Models excludes
 * each alternative in turn: NOT (a OR b) is NOT a AND NOT b.
 */
const whereNot: MethodWrapper = (next) =>
  function (this: Relation, conditions: unknown) {
    const read = arguments.length === 1 ? readConditions(this, conditions, "whereNot") : undefined;
    if (!read) return next.apply(this, arguments as never);
    const alternatives = read.choices.reduce((all, options) => all.flatMap((some) => options.map((one) => ({ ...some, ...one }))), [read.common]);
    return alternatives.reduce<Relation>((relation, attributes) => next.call(relation, attributes), this);
  };

/** The Relation methods that read `belongsTo` entries of a `where` object (the associations plugin's work). */
export const associationConditionWraps = { where, whereNot };
