import { argumentError, previewText } from "../../kernel/index.js";

type Loaded = Record<string, any>;

/**
 * The records given to a write of a collection (`add`, `remove`, `set`), each once: every one a record of the
 * target Model, else a `TypeError` naming the method (`where`) before anything is read or written.
 */
export function recordsGiven(where: string, target: Function, records: readonly unknown[]): Loaded[] {
  for (const record of records) {
    if (!(record instanceof target)) throw argumentError(where, `records of ${target.name}`, record);
  }
  return [...new Set(records as Loaded[])];
}

/**
 * A value given where a record was expected, as a refusal shows it: a record by its class ("a Like"), anything else
 * as messages show values.
 */
export function givenText(value: unknown): string {
  const kind: unknown = typeof value === "object" && value !== null ? value.constructor?.name : undefined;
  return typeof kind === "string" && kind !== "" && kind !== "Object" ? `a ${kind}` : previewText(value);
}
