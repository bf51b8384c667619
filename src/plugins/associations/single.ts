import { argumentError } from "../../kernel/index.js";
import { AssociationNotLoaded } from "./association-not-loaded.js";
import type { ResolvedAssociation } from "./definition.js";
import { keyFor, ownerKeys, rowKeyOf } from "./keys.js";
import { refuseAnotherOwner } from "./owner-parent.js";
import { markBuiltThroughOwner } from "./required-parents.js";
import { ASSOCIATION, type AssociationSlot } from "./slot.js";

/** Shared behaviour of the one-record associations (`belongsTo`, `hasOne`). */
export abstract class SingleAssociation {
  readonly [ASSOCIATION]: AssociationSlot;

  constructor(slot: AssociationSlot) {
    this[ASSOCIATION] = slot;
  }

  /** Queries the associated record. */
  protected abstract query(): Promise<any>;

  /** Whether the associated record was loaded or assigned. */
  get isLoaded(): boolean {
    return this[ASSOCIATION].loaded;
  }

  /** The associated record, loaded once. */
  async load(): Promise<any> {
    const slot = this[ASSOCIATION];
    slot.takes("load", arguments.length, 0);
    if (!slot.loaded) slot.remember(await this.query());
    return slot.value;
  }

  /** The loaded record; throws when it was not loaded. */
  get(): any {
    const slot = this[ASSOCIATION];
    slot.takes("get", arguments.length, 0);
    if (!slot.loaded) {
      const { name } = slot.requireOwner().association;
      throw new AssociationNotLoaded(`${slot.methodName("get")}: ${name} is not loaded; await ${name}.load() first, or query with includes("${name}")`);
    }
    return slot.value;
  }

  /** Loads the associated record again; one built or assigned and not yet saved is dropped. */
  async reload(): Promise<any> {
    this[ASSOCIATION].takes("reload", arguments.length, 0);
    this[ASSOCIATION].discard();
    return await this.load();
  }

  /** Never loads: prints whether the association is loaded. */
  toString(): string {
    return `#<${this.constructor.name} ${this[ASSOCIATION].loaded ? "loaded" : "not loaded"}>`;
  }
}

/** `post.user`: the parent a foreign key on the owner points at. */
export class BelongsToAssociation extends SingleAssociation {
  protected async query(): Promise<any> {
    const slot = this[ASSOCIATION];
    const { owner, association } = slot.requireOwner();
    const key = owner.readAttribute(association.foreignKey);
    return key === null ? null : await slot.targetModel().all().findBy({ [association.primaryKey]: key });
  }

  /** Assigns the parent: sets the foreign key to the parent's key, or null. A new parent is saved with the owner. */
  set(record: any): void {
    const slot = this[ASSOCIATION];
    slot.takes("set", arguments.length, 1);
    const { owner, association } = slot.requireOwner();
    this.writeKeys(owner, association, record);
    slot.remember(record);
    slot.pending.length = 0;
    if (record?.isNewRecord()) slot.pending.push(record);
  }

  /** Writes the parent's key (null clears it) into the owner's foreign key; anything but a target record or null is refused. */
  protected writeKeys(owner: Record<string, any>, association: ResolvedAssociation, record: any): void {
    const target = association.target;
    if (record !== null && !(record instanceof target)) {
      throw argumentError(`${owner.constructor.name}.${association.name}.set`, `a record of ${target.name} or null`, record);
    }
    const key = record === null ? null : rowKeyOf(record, association.primaryKey);
    owner.writeAttribute(association.foreignKey, keyFor(owner.constructor, association.foreignKey, key));
  }
}

/** `user.profile`: the one child whose foreign key points at the owner. */
export class HasOneAssociation extends SingleAssociation {
  protected async query(): Promise<any> {
    const slot = this[ASSOCIATION];
    const { owner, association } = slot.requireOwner();
    const key = rowKeyOf(owner, association.primaryKey);
    return key === null ? null : await slot.scopedTarget().findBy({ [association.foreignKey]: key });
  }

  /**
   * Builds the child with the owner's key; the owner's next save writes it in the same batch. It replaces a child
   * built before and not yet saved: there is one child.
   */
  build(attributes: object = {}): any {
    const slot = this[ASSOCIATION];
    slot.takes("build", arguments.length, 1);
    refuseAnotherOwner(slot, attributes);
    const { owner, association } = slot.requireOwner();
    const child = slot.targetModel().build(attributes).assign(ownerKeys(association, rowKeyOf(owner, association.primaryKey)));
    markBuiltThroughOwner(child, owner);
    slot.pending.length = 0;
    slot.pending.push(child);
    slot.remember(child);
    return child;
  }
}
