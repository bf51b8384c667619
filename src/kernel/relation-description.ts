import type { Attribute } from "./attributes.js";
import type { Condition } from "./conditions.js";
import type { OrderTerm, RelationData } from "./relation-data.js";

/**
 * A read-only view of a Relation's description (`relation.description`, and `data` in the `relation:*` compile hooks'
 * context): what it narrows, orders, pages, selects and includes, and the entries plugins keep. Its lists are frozen:
 * a Relation changes only through its methods and `with`, which return a new one, so that no plugin can change a
 * Relation others hold. The compiler's pieces that read a description (`selectParts`, `compileSelect`,
 * `differencesBesidesConditions`) take it. Spreading it gives nothing: its entries are accessors.
 */
export class RelationDescription implements RelationData {
  readonly #data: RelationData;

  /** @internal Made by `relation.description` and the compiler. */
  constructor(data: RelationData) {
    this.#data = data;
  }

  /** The conditions, ANDed (`where`, `whereNot`, ...); empty when it narrows nothing. */
  get conditions(): readonly Condition[] {
    return Object.freeze(this.#data.conditions);
  }

  /** The ORDER BY terms, in order; empty when unordered. */
  get order(): readonly OrderTerm[] {
    return Object.freeze(this.#data.order);
  }

  /** At most this many rows (`limit`), or undefined for all. */
  get limit(): number | undefined {
    return this.#data.limit;
  }

  /** Rows skipped (`offset`), or undefined for none. */
  get offset(): number | undefined {
    return this.#data.offset;
  }

  /** The attributes `select` loads (the primary key is added unless `distinct`), or undefined for all of them. */
  get select(): readonly Attribute[] | undefined {
    const select = this.#data.select;
    return select && Object.freeze(select);
  }

  /** Whether duplicate rows are removed (`distinct`). */
  get distinct(): boolean {
    return this.#data.distinct;
  }

  /** Whether it matches nothing without querying (`none`). */
  get none(): boolean {
    return this.#data.none;
  }

  /** The `includes` paths, nested names joined with dots (`posts.comments`). */
  get includes(): readonly string[] {
    return Object.freeze(this.#data.includes);
  }

  /** The plugins' own entries by name (see `RelationData.extensions`; `relation.extension(name)` reads one). */
  get extensions(): Readonly<Record<string, unknown>> {
    return Object.freeze(this.#data.extensions);
  }
}

/** A description as a read-only view: itself when it is one already. */
export function describedAs(data: RelationData): RelationDescription {
  return data instanceof RelationDescription ? data : new RelationDescription(data);
}
