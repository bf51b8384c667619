import type { Attribute } from "./attributes.js";
import { UNCASTABLE } from "./attribute-types.js";
import { argumentError, refusedValueError, unfitValue } from "./arguments.js";
import { previewValue, shortText } from "./display.js";
import { isPlainObject } from "./plain-object.js";
import { CastError, MissingAttribute, RecordDestroyed, UnknownAttribute } from "../errors.js";
import type { ResolvedModel } from "./resolve.js";
import type { RecordState } from "./record-state.js";

/** The attribute of that name, or `UnknownAttribute`; a name that is not a string is a `TypeError` naming `method`. */
export function attributeNamed(model: ResolvedModel, name: string, method?: string): Attribute {
  if (typeof name !== "string") throw argumentError(method ? `${model.name}.${method}` : model.name, "attribute names", name);
  const attribute = model.byName.get(name);
  if (!attribute) throw new UnknownAttribute(`${model.name} has no attribute ${shortText(name)}`);
  return attribute;
}

/** The value given for an attribute after the `attribute:input` hooks, which see it before it is cast. */
function inputAfterHooks(model: ResolvedModel, attribute: Attribute, value: unknown): unknown {
  const context = { model, attribute, value };
  model.hooks.callSync("attribute:input", context);
  return context.value;
}

/**
 * Casts a value for an attribute, after the `attribute:input` hooks; throws `CastError` (a `TypeError`) naming the
 * Model and attribute when it cannot.
 */
export function castValue(model: ResolvedModel, attribute: Attribute, given: unknown): unknown {
  if (given === undefined) {
    throw new CastError(`${model.name}.${attribute.name} cannot be set to undefined; use null for NULL`, model.model, attribute.name, given);
  }
  const value = given !== null && model.hooks.has("attribute:input") ? inputAfterHooks(model, attribute, given) : given;
  if (value === null) return null;
  // The message is made only for a refused value: this runs for every value assigned.
  const problem = unfitValue(value);
  if (problem !== undefined) throw refusedValueError(`${model.name}.${attribute.name}: ${problem}`, value, { model: model.model, attribute: attribute.name });
  const cast = attribute.type.cast(value);
  if (cast === UNCASTABLE) {
    const message = `${model.name}.${attribute.name}: ${previewValue(attribute, value)} is not a valid ${attribute.typeName}`;
    throw new CastError(message, model.model, attribute.name, value);
  }
  return cast;
}

/** Throws `MissingAttribute` when a partial `select` did not load the attribute. */
export function assertLoaded(state: RecordState, attribute: Attribute): void {
  if (state.loaded && !state.loaded.has(attribute.name)) {
    throw new MissingAttribute(`${state.model.name}.${attribute.name} was not loaded by select`);
  }
}

/** The attribute, which a partial `select` must have loaded: `UnknownAttribute` or `MissingAttribute` otherwise. */
export function loadedAttribute(state: RecordState, name: string, method: string): Attribute {
  const attribute = attributeNamed(state.model, name, method);
  assertLoaded(state, attribute);
  return attribute;
}

/** Throws `RecordDestroyed` for a destroyed record, saying what it cannot be (`changed`, `updated`, ...). */
export function assertNotDestroyed(state: RecordState, action: string): void {
  if (state.destroyed) throw new RecordDestroyed(`${state.model.name} is destroyed and cannot be ${action}`);
}

/** Assigns one attribute: checks, casts, runs the `attribute:assign` hooks, and records the assignment. */
export function writeAttribute(record: object, state: RecordState, name: string, value: unknown): void {
  const attribute = checkedForWrite(state, name);
  storeCast(record, state, attribute, castValue(state.model, attribute, value));
}

function checkedForWrite(state: RecordState, name: string): Attribute {
  assertNotDestroyed(state, "changed");
  const attribute = attributeNamed(state.model, name, "writeAttribute");
  // A hook building the write may set what a partial select left out, as timestamps set `updatedAt`.
  if (!state.buildingWrite) assertLoaded(state, attribute);
  return attribute;
}

/** Stores an already cast value, after the `attribute:assign` hooks. */
function storeCast(record: object, state: RecordState, attribute: Attribute, value: unknown): void {
  const model = state.model;
  const name = attribute.name;
  let cast = value;
  if (model.hooks.has("attribute:assign")) {
    const context = { record, attribute, value: cast };
    model.hooks.callSync("attribute:assign", context);
    cast = context.value;
  }
  state.values[name] = cast;
  state.assignments++;
  if (state.isNew) state.assigned.add(name);
  if (state.sending) (state.assignedInFlight ??= new Set()).add(name);
}

/**
 * Refuses what is not a plain object of attribute values: a Map, FormData or class instance has no own keys to
 * read, and would otherwise assign nothing without a word.
 */
export function assertAttributeObject(model: ResolvedModel, attributes: unknown, method: string): void {
  if (!isPlainObject(attributes)) throw argumentError(`${model.name}.${method}`, "a plain object of attribute values (read forms with permit)", attributes);
}

/**
 * Assigns several attributes; all names and values are checked before any is set. `method` is named in errors. The
 * `record:assign` hooks take out the names they assign themselves (an association's), checked before anything is set
 * too, and what they push to `after` runs once the attributes are set.
 */
export function writeAttributes(record: object, state: RecordState, attributes: Readonly<Record<string, unknown>>, method: string): void {
  assertAttributeObject(state.model, attributes, method);
  let names = Object.keys(attributes);
  let after: Array<() => void> | undefined;
  // Only when a hook is registered: this runs for every build, create and update.
  if (state.model.hooks.has("record:assign")) {
    const context = { record, attributes, method, names, after: [] as Array<() => void> };
    state.model.hooks.callSync("record:assign", context);
    ({ names, after } = context);
  }
  const targets = names.map((name) => checkedForWrite(state, name));
  const cast = targets.map((attribute) => castValue(state.model, attribute, attributes[attribute.name]));
  targets.forEach((attribute, index) => storeCast(record, state, attribute, cast[index]));
  if (after) for (const assign of after) assign();
}
