import { attributesOf, attributeWas, comparableStored, isBlob, primaryKeyOf, readAsCondition } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { ownerType } from "./polymorphic-type.js";

type Keyed = Record<string, any>;

/**
 * A key as the record's attribute `name` takes it when copied from another Model: read as a condition on that
 * attribute would read it, so an integer key fits a text foreign key. What cannot be read so stays as it is,
 * for the assignment to refuse with a TypeError naming the Model and attribute.
 */
export function keyFor(model: Function, name: string, key: unknown): unknown {
  const read = readAsCondition(model, name, key);
  return read === undefined ? key : read;
}

/** Copies a key into the record's attribute `name`, unless it already holds it. */
export function copyKey(record: Keyed, name: string, key: unknown): void {
  const value = keyFor(record.constructor as Function, name, key);
  if (record.readAttribute(name) !== value) record.writeAttribute(name, value);
}

/**
 * The key by which other rows know a record: as last loaded or saved for a persisted record (an unsaved change,
 * such as a form's id assigned to it, is not yet the row's), its own value for a new one. Writes that reach other
 * rows from a record (its dependents, the child a new `hasOne` replaces) and the association Relations key on it.
 */
export function rowKeyOf(record: Keyed, name: string): unknown {
  return record.isNewRecord() ? record.readAttribute(name) : attributeWas(record, name);
}

/**
 * What makes a child built through a `hasMany` or `hasOne` its owner's: the foreign key holding the owner's `key`,
 * and an `as` association's type. Assigned after the caller's attributes, so they win over given ones, as in Rails.
 */
export function ownerKeys(association: ResolvedAssociation, key: unknown): Record<string, unknown> {
  return { ...ownerType(association), [association.foreignKey]: keyFor(association.target, association.foreignKey, key) };
}

/**
 * How in-memory lookups tell keys of the Model's attribute `name` apart: by their stored form, as text (null stays
 * null). A plugin type's value is an object, a new one at each load, which a Map would tell apart from an equal one;
 * as text, an integer key also meets a text foreign key holding its digits. Bytes, a row's or a value's, are told
 * apart by their content, as SQLite compares blobs.
 */
export function keyTexts(model: Function, name: string): (key: unknown) => string | null {
  let byName = keyTextsByModel.get(model);
  if (!byName) keyTextsByModel.set(model, (byName = new Map()));
  let texts = byName.get(name);
  if (!texts) {
    const { type } = attributesOf(model).find((attribute) => attribute.name === name)!;
    // Bytes are taken as they are: a row's blob is stored already, and a plugin type's bytes are what it stores.
    texts = (key) => (key === null || key === undefined ? null : String(comparableStored(typeof key === "object" && !isBlob(key) ? type.toDatabase(key) : key)));
    byName.set(name, texts);
  }
  return texts;
}

/** `keyTexts` per Model and attribute, made once: preloads and dependents ask it for every record they match. */
const keyTextsByModel = new WeakMap<Function, Map<string, (key: unknown) => string | null>>();

/** A record's own key, as other rows know it (`rowKeyOf`), as `keyTexts` gives it: its row's identity in its table. */
export function rowKeyText(record: Keyed): string | null {
  const { name } = primaryKeyOf(record.constructor);
  return keyTexts(record.constructor, name)(rowKeyOf(record, name));
}
