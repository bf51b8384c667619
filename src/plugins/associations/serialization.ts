import { refuseDeepInclude } from "../../kernel/index.js";
import { AssociationNotLoaded } from "./association-not-loaded.js";
import { targetModels } from "./polymorphic.js";
import { associationsOf, slotsOf } from "./registry.js";

type Owner = Record<string, any> & { toJSON(): Record<string, unknown> };

/** What `asJson({ include })` takes: an association name, `{ name: nested }`, or a list of those. */
type Include = string | { [name: string]: Include } | readonly Include[];

/** The associations to nest, by name, each with what to nest of its records: checked whole before any serializing. */
type IncludeTree = Map<string, IncludeTree>;

function includeTree(model: Function, include: unknown, into: IncludeTree = new Map(), depth = 0): IncludeTree {
  refuseDeepInclude(`${model.name}.asJson`, depth);
  const add = (name: string): IncludeTree => {
    if (!associationsOf(model).has(name)) throw new TypeError(`${model.name}.asJson: ${model.name} has no association ${name}`);
    if (!into.has(name)) into.set(name, new Map());
    return into.get(name)!;
  };
  if (typeof include === "string") add(include);
  else if (Array.isArray(include)) for (const entry of include) includeTree(model, entry, into, depth + 1);
  else if (typeof include === "object" && include !== null && Object.getPrototypeOf(include) === Object.prototype) {
    for (const [name, nested] of Object.entries(include)) {
      const below = add(name);
      for (const target of targetModels(associationsOf(model).get(name)!)) includeTree(target, nested, below, depth + 1);
    }
  } else {
    const kind = include === null ? "null" : typeof include;
    throw new TypeError(`${model.name}.asJson: include must be an association name, an object of them or a list, not ${kind}`);
  }
  return into;
}

function serializeTree(record: Owner, tree: IncludeTree): Record<string, unknown> {
  const json = record.toJSON();
  const model = record.constructor as Function;
  const slots = new Map(slotsOf(record).map(([association, slot]) => [association.name, slot]));
  for (const [name, nested] of tree) {
    const slot = slots.get(name)!;
    if (!slot.loaded) {
      throw new AssociationNotLoaded(`${model.name}.asJson: ${name} is not loaded; use includes("${name}") or load it first`);
    }
    const serialize = (target: Owner | null) => (target === null ? null : serializeTree(target, nested));
    json[name] = Array.isArray(slot.value) ? slot.value.map(serialize) : serialize(slot.value);
  }
  return json;
}

/**
 * The record's `toJSON()` with the named associations nested: a `hasMany` as an array, a `hasOne` or `belongsTo`
 * as an object or null, each of their records serialized the same way with its own nested `include`. Only what is
 * already loaded is serialized (nothing is queried); an association not loaded throws `AssociationNotLoaded`.
 */
export function serializeWithAssociations(record: Owner, include: Include | undefined): Record<string, unknown> {
  if (include === undefined) return record.toJSON();
  return serializeTree(record, includeTree(record.constructor as Function, include));
}
