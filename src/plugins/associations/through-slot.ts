import type { AssociationDefinition, ResolvedAssociation } from "./definition.js";
import { slotsOf } from "./registry.js";
import { AssociationSlot } from "./slot.js";
import { rowKeyText } from "./keys.js";
import { type Hop, leadsTo, throughHops } from "./through-hops.js";

type Loaded = Record<string, any>;

/** The slot of a record's association named `name`, if it has one. */
export function slotNamed(record: Loaded, name: string): AssociationSlot | undefined {
  return slotsOf(record).find(([association]) => association.name === name)?.[1];
}

/** Records once each: the same object, or two objects loaded for the same row, count once. */
function eachOnce(records: readonly Loaded[]): Loaded[] {
  const rows = new Set<string>();
  return [...new Set(records)].filter((record) => {
    if (record.isNewRecord()) return true;
    const row = `${record.constructor.name} ${rowKeyText(record)}`;
    return !rows.has(row) && Boolean(rows.add(row));
  });
}

/**
 * The targets the loaded hops reach from `owner` (from a new record, those built through it), or undefined when a
 * hop of some saved record on the way is not loaded; a `sourceType` source is reached by the join rows of its type.
 */
function reachedInMemory(owner: Loaded, hops: readonly Hop[]): Loaded[] | undefined {
  let level = [owner];
  for (const hop of hops) {
    const next: Loaded[] = [];
    for (const record of level.filter((each) => leadsTo(each, hop))) {
      const slot = slotNamed(record, hop.association.name);
      // A new record has no rows yet: what it holds is what was built through it.
      if (slot && !slot.loaded && record.isNewRecord()) next.push(...slot.pending);
      else if (slot?.loaded) next.push(...slot.held());
      else return undefined;
    }
    level = eachOnce(next);
  }
  return level;
}

/** The admitted targets among those reached, in the admitted order; undefined when one of them was not reached. */
function admittedAmong(reached: readonly Loaded[], admitted: readonly string[]): Loaded[] | undefined {
  const byKey = new Map(reached.filter((target) => !target.isNewRecord()).map((target) => [rowKeyText(target), target]));
  const targets = admitted.map((key) => byKey.get(key));
  return targets.every((target) => target !== undefined) ? (targets as Loaded[]) : undefined;
}

/**
 * The slot of a through association. What it holds is what was loaded through it (a query of its Relation), else
 * what the loaded associations it crosses reach (`includes("tags")` preloads `taggings` and each tagging's `tag`):
 * so a preload, or a join row added through it, is seen without a query and never goes stale.
 */
export class ThroughSlot extends AssociationSlot {
  #loaded = false;
  #value: unknown = null;
  /** Whether the crossed associations answer for it (not after a reload of it, which reads its rows again). */
  #fromHops = true;
  /** For a `scope`: the keys of the targets it admits, in its order, as `includes` read them. */
  #admitted: readonly string[] | undefined;

  constructor(definition: AssociationDefinition) {
    super(definition);
    Object.defineProperties(this, {
      loaded: { get: () => this.#loaded || this.#reached() !== undefined, set: (loaded: boolean) => void (this.#loaded = loaded), configurable: true },
      value: { get: () => (this.#loaded ? this.#value : this.#valueOf(this.#reached())), set: (value: unknown) => void (this.#value = value), configurable: true },
    });
  }

  override attach(owner: Loaded & { constructor: Function }, association: ResolvedAssociation): void {
    super.attach(owner, association);
    this.#fromHops = true;
  }

  /** Forgets what was loaded; until it is loaded again, the associations it crosses no longer answer for it. */
  override discard(): void {
    super.discard();
    this.#fromHops = false;
    this.#admitted = undefined;
  }

  /**
   * Notes which targets the association's `scope` admits, in its order (read by `includes`): the targets the crossed
   * associations reach then answer for it, narrowed to those. Without it, a scoped association of a saved owner is
   * not loaded by its hops.
   */
  admit(keys: readonly string[]): void {
    this.#admitted = keys;
  }

  /**
   * Changes the list it holds, after a write through it: what it holds from then on is its own (what the crossed
   * associations reached, if that is what it held); nothing when it holds nothing yet.
   */
  changeLoaded(change: (loaded: readonly Loaded[]) => Loaded[]): void {
    if (!this.loaded) return;
    const loaded = this.value as Loaded[];
    this.remember(change(loaded));
  }

  /** The direct associations it crosses. */
  hops(): readonly Hop[] {
    const { owner, association } = this.requireOwner();
    return throughHops(owner.constructor, association);
  }

  #reached(): Loaded[] | undefined {
    if (!this.#fromHops || !this.owner || !this.association) return undefined;
    const reached = reachedInMemory(this.owner, this.hops());
    if (!this.association.options.scope || this.owner.isNewRecord() || reached === undefined) return reached;
    return this.#admitted && admittedAmong(reached, this.#admitted);
  }

  #valueOf(reached: Loaded[] | undefined): unknown {
    if (reached === undefined) return null;
    return this.definition.kind === "hasMany" ? reached : (reached[0] ?? null);
  }
}
