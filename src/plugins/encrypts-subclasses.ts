/**
 * `encrypts` where the rows of one table are records of several classes (single-table inheritance), seen through the
 * kernel's `record:class` hook only: a subclass may encrypt an attribute its parent does not, and a Model's reads and
 * writes reach the rows of its subclasses. Each row is encrypted and decrypted as the class it is of says.
 */
import { defineModelState, modelState, type ResolvedModel, type WritePlan } from "../kernel/index.js";
import type { EncryptedAttributeOptions } from "./encrypts.js";

/** Each Model's encrypted attributes by name, its parents' among them. */
export const ENCRYPTED = defineModelState<Map<string, EncryptedAttributeOptions>>(
  "encrypted attributes",
  () => new Map(),
  (byName) => new Map(byName),
);

/** A class's encrypted attributes by name; empty for one that declares none. */
export function encryptedOf(modelClass: Function): ReadonlyMap<string, EncryptedAttributeOptions> {
  return modelState(modelClass, ENCRYPTED);
}

/** The classes below each class that declare encrypted attributes: their rows may be read and written through it. */
const encryptingSubclasses = /* @__PURE__ */ new WeakMap<Function, Set<Function>>();

/** Notes a Model that declares encrypted attributes on each class above it. */
export function noteEncryptingClass(model: Function): void {
  for (let above = Object.getPrototypeOf(model); above !== Function.prototype; above = Object.getPrototypeOf(above)) {
    let below = encryptingSubclasses.get(above);
    if (!below) encryptingSubclasses.set(above, (below = new Set()));
    below.add(model);
  }
}

/** Whether a class below this one declares encrypted attributes. */
export function hasEncryptingSubclass(model: Function): boolean {
  return encryptingSubclasses.has(model);
}

const subclassOnly = /* @__PURE__ */ new WeakMap<Function, ReadonlyMap<string, Function>>();

/**
 * The attributes a subclass encrypts and the Model does not, each with the first subclass that does: its table holds
 * them encrypted in that subclass's rows and not in its own. Empty unless the Model's rows may be records of its
 * subclasses (a `record:class` hook: single-table inheritance), so that the others pay one lookup.
 */
export function subclassEncrypted(model: ResolvedModel): ReadonlyMap<string, Function> {
  let found = subclassOnly.get(model.model);
  if (found) return found;
  const byName = new Map<string, Function>();
  if (model.hooks.has("record:class")) {
    const own = encryptedOf(model.model);
    for (const subclass of encryptingSubclasses.get(model.model) ?? []) {
      for (const name of encryptedOf(subclass).keys()) if (!own.has(name) && !byName.has(name)) byName.set(name, subclass);
    }
  }
  subclassOnly.set(model.model, (found = byName));
  return found;
}

/** The class whose record a row of these values is, as `record:class` makes it once read: a subclass, for its type. */
function classOfValues(model: ResolvedModel, values: ReadonlyMap<string, unknown>): Function {
  const row: Record<string, unknown> = {};
  for (const [name, value] of values) row[model.byName.get(name)!.column] = value;
  const context = { row, modelClass: model.model };
  model.hooks.callSync("record:class", context);
  return context.modelClass;
}

/** The maps of values a write sends: a record's or `updateAll`'s values, or each row of a bulk insert or upsert. */
export function writtenMaps(plan: WritePlan): readonly Map<string, unknown>[] {
  return plan.rows.length > 0 ? plan.rows : [plan.values];
}

/**
 * The encrypted attributes of one map of values a write sends: its Model's, or, where a subclass encrypts others,
 * those of the class whose row the values make (a subclass, for its type among them: a bulk insert's row of a type).
 */
export function encryptionOf(plan: WritePlan, values: ReadonlyMap<string, unknown>): ReadonlyMap<string, EncryptedAttributeOptions> {
  return encryptedOf(subclassEncrypted(plan.model).size === 0 ? plan.model.model : classOfValues(plan.model, values));
}

/**
 * A record's update that gives its row a subclass's type also writes the values that subclass encrypts and the
 * record's class does not, which its row holds unencrypted: they are encrypted with the others.
 */
export function addValuesOfNewClass(plan: WritePlan<{ readAttribute(name: string): unknown }>): void {
  const { model, record, values } = plan;
  if (plan.operation !== "update" || subclassEncrypted(model).size === 0) return;
  const own = encryptedOf(model.model);
  for (const name of encryptedOf(classOfValues(model, values)).keys()) {
    const value = record!.readAttribute(name);
    if (!own.has(name) && !values.has(name) && value !== null && value !== undefined) values.set(name, value);
  }
}

/**
 * Refuses, before anything is sent, a write without a record that would leave an attribute unencrypted in rows whose
 * class encrypts it: a value set on rows of several classes (a parent's `updateAll`; its upsert, which may update a
 * subclass's row), or rows given a subclass's type that keep their unencrypted values. A bulk insert makes new rows,
 * each encrypted as its class says. `method` is the method the write was asked through.
 */
export function refuseMixedRows(plan: WritePlan, method: string): void {
  const { model } = plan;
  const bySubclass = subclassEncrypted(model);
  if (bySubclass.size === 0 || plan.record || plan.kind === "insert") return;
  for (const values of writtenMaps(plan)) {
    const rowClass = classOfValues(model, values);
    for (const [name, subclass] of bySubclass) {
      const value = values.get(name);
      if (rowClass === model.model && value !== null && value !== undefined) {
        throw new TypeError(
          `${model.name}.${method}: ${name} is encrypted by ${model.name}'s subclass ${subclass.name}, whose rows this write may change too, and one statement cannot encrypt it for those rows alone; write ${subclass.name}'s rows through ${subclass.name} (await ${subclass.name}.${plan.operation}(...)), and the others through their own class or record by record`,
        );
      }
      if (encryptedOf(rowClass).has(name) && !values.has(name)) {
        throw new TypeError(
          `${model.name}.${method}: the type it writes makes rows ${rowClass.name}'s, which encrypts ${name}, and the rows would keep theirs unencrypted; set ${name} in the same write (it is encrypted for ${rowClass.name}), or change the type record by record`,
        );
      }
    }
  }
}
