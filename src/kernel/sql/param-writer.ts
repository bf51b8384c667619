import { jsonOfBound, MAX_VALUE_BYTES, utf8Length } from "./bound-json.js";
import type { ParamSource } from "./param-source.js";
import { placeholder } from "./placeholders.js";

/** D1 refuses a statement with more bound parameters than this. */
const MAX_BOUND_PARAMETERS = 100;

/**
 * Values bound each as a parameter of its own. The parameters after them are slots for the values past them: JSON
 * arrays of many values each, and values JSON cannot carry (blobs). Ten slots take 10 MB of such values.
 */
export const PLAIN_PARAMETERS = 90;

/** A JSON array of values bound past the plain ones, read with `json_extract(?N, '$[k]')`. */
class SpilledValues {
  constructor(readonly parameter: number) {}

  readonly values: unknown[] = [];
  readonly sources: (ParamSource | undefined)[] = [];
  readonly texts: string[] = [];
  /** The array's size in bytes: its brackets, and each text with the comma before it, less the first one's comma. */
  bytes = 1;

  get json(): string {
    return `[${this.texts.join(",")}]`;
  }
}

/**
 * Collects a statement's bound values with where each came from, so that no statement binds more than D1's 100
 * parameters. Every placeholder it returns is numbered (`?N`, see `placeholder`), so the SQL may place the texts it
 * returns in any order, whatever order they were bound in. The first 90 values are a parameter each; the values
 * past them go into one JSON array bound as one numbered parameter and each is read with `json_extract`,
 * whose JSON is written so that it reads back exactly the value D1 would bind (see `jsonOfBound`). When that array
 * would pass D1's limit for one value, another is started; a blob takes a numbered parameter of its own. The SQL
 * text depends only on the number of values (and on blobs or sizes past 1 MB), never on the values themselves.
 */
export class ParamWriter {
  readonly #values: unknown[] = [];
  readonly #sources: (ParamSource | undefined)[] = [];
  #spilled: SpilledValues | undefined;
  /**
   * @internal Whether an `sql` fragment was compiled into the statement: SQL the kernel cannot read, so a write
   * holding one is never taken as safe to send twice.
   */
  fragments = false;

  /** Binds a value and returns the SQL that reads it. */
  bind(value: unknown, source?: ParamSource): string {
    if (this.#values.length < PLAIN_PARAMETERS) {
      this.#values.push(value);
      this.#sources.push(source);
      return placeholder(this.#values.length);
    }
    const json = jsonOfBound(value);
    if (json === undefined) return this.#slot(value, source);
    const bytes = utf8Length(json) + 1;
    if (bytes + 1 > MAX_VALUE_BYTES) return this.#slot(value, source);
    if (!this.#spilled || this.#spilled.bytes + bytes > MAX_VALUE_BYTES) {
      this.#spilled = new SpilledValues(this.#values.length + 1);
      this.#slot(this.#spilled, undefined);
    }
    const spilled = this.#spilled;
    spilled.values.push(value);
    spilled.sources.push(source);
    spilled.texts.push(json);
    spilled.bytes += bytes;
    return `json_extract(${placeholder(spilled.parameter)}, '$[${spilled.texts.length - 1}]')`;
  }

  /** Binds a value as a numbered parameter of its own. */
  #slot(value: unknown, source: ParamSource | undefined): string {
    if (this.#values.length >= MAX_BOUND_PARAMETERS) {
      throw new TypeError(
        `a statement cannot bind its values within D1's limits of ${MAX_BOUND_PARAMETERS} parameters and ${MAX_VALUE_BYTES} bytes a value; split the query`,
      );
    }
    this.#values.push(value);
    this.#sources.push(source);
    return placeholder(this.#values.length);
  }

  /** The bound values, in parameter order: the `params` of the compiled query. */
  get params(): unknown[] {
    return this.#values.map((value) => (value instanceof SpilledValues ? value.json : value));
  }

  /** For each value of `params`, where it came from (used to filter it in query events), if known. */
  get sources(): (ParamSource | undefined)[] {
    return this.#values.map((value, index) =>
      value instanceof SpilledValues ? { kind: "spilled", values: value.values, sources: value.sources } : this.#sources[index],
    );
  }
}
