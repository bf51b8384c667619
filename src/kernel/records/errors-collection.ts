import { argumentError } from "./arguments.js";
import { INSPECT } from "./inspect-symbol.js";
import { underscore } from "../sql/naming.js";

/** One failure in `record.errors`. */
export interface ErrorEntry {
  /** The attribute it concerns, or `base` for the record as a whole. */
  readonly attribute: string;
  /** A machine-readable kind, such as `blank` or `too_short`. */
  readonly type: string;
  /** A readable message, such as `can't be blank`. */
  readonly message: string;
}

/** Turns `firstName` into `First name`, as Rails' `humanize` does. */
export function humanize(attribute: string): string {
  const words = underscore(attribute).replace(/_id$/, "").replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The reasons a record was refused: validation failures and refusals of associations. */
export class Errors implements Iterable<ErrorEntry> {
  readonly #entries: ErrorEntry[] = [];

  /** Adds a failure. */
  add(attribute: string, type: string, message: string): void {
    // Rails' two-argument `add(:name, "is odd")` from untyped code would list "Name undefined".
    if (typeof attribute !== "string" || typeof type !== "string" || typeof message !== "string") {
      throw argumentError("errors.add", "an attribute, a type and a message, each a string", [...arguments]);
    }
    this.#entries.push({ attribute, type, message });
  }

  /** The failures concerning one attribute. */
  on(attribute: string): ErrorEntry[] {
    return this.#entries.filter((entry) => entry.attribute === attribute);
  }

  /** Each failure as the attribute's readable name followed by the message (`base` shows the message alone). */
  fullMessages(): string[] {
    return this.#entries.map(({ attribute, message }) => (attribute === "base" ? message : `${humanize(attribute)} ${message}`));
  }

  /** Removes every failure. */
  clear(): void {
    this.#entries.length = 0;
  }

  /** Whether there is no failure. */
  isEmpty(): boolean {
    return this.#entries.length === 0;
  }

  /** The number of failures. */
  get size(): number {
    return this.#entries.length;
  }

  /** The failures, in the order they were added. */
  toArray(): ErrorEntry[] {
    return [...this.#entries];
  }

  /** Iterates over the entries, in the order they were added. */
  [Symbol.iterator](): Iterator<ErrorEntry> {
    return this.#entries[Symbol.iterator]();
  }

  /** Prints each failure. */
  toString(): string {
    return this.fullMessages().join(", ");
  }

  /** The entries, for `JSON.stringify`: an array of `{ attribute, type, message }`. */
  toJSON(): ErrorEntry[] {
    return this.toArray();
  }

  /** What `console.log` and `util.inspect` print in Node: `Errors [...]` with each full message. */
  [INSPECT](): string {
    return `Errors [${this.fullMessages().map((message) => JSON.stringify(message)).join(", ")}]`;
  }
}
