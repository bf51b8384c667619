import { type Database, databaseOfRecord, refuseExtraArguments, type Relation } from "../../kernel/index.js";
import { AssociationNotLoaded } from "./association-not-loaded.js";
import type { AssociationDefinition, ResolvedAssociation } from "./definition.js";

/** Marks the value of an association field. */
export const ASSOCIATION = Symbol("recordflare.association");

type Owner = Record<string, any> & { constructor: Function };
type TargetModel = Function & { all(): Relation; build(attributes: object): any };

/**
 * The per-record state behind one association field: its owner, the loaded target(s), and children built
 * through it that the owner's next save writes.
 */
export class AssociationSlot {
  owner: Owner | undefined;
  association: ResolvedAssociation | undefined;
  loaded = false;
  value: any = null;
  /** Records saved with the owner: children built through the association, or a new parent assigned to it. */
  readonly pending: any[] = [];

  constructor(readonly definition: AssociationDefinition) {}

  /** Binds the slot to its record; done when the record is built or loaded. */
  attach(owner: Owner, association: ResolvedAssociation): void {
    this.owner = owner;
    this.association = association;
    this.discard();
  }

  /** Forgets what was loaded. */
  reset(): void {
    this.loaded = false;
    this.value = null;
  }

  /**
   * Forgets what was loaded and the records waiting for the owner's save (on a reload of the owner or of the
   * association): as in Rails, a reload leaves the association as the database has it.
   */
  discard(): void {
    this.reset();
    this.pending.length = 0;
  }

  /** The records it holds: its list, its one record, or none. */
  held(): any[] {
    return Array.isArray(this.value) ? this.value : this.value ? [this.value] : [];
  }

  /** Stores what was loaded or assigned. */
  remember(value: unknown): void {
    this.loaded = true;
    this.value = value;
  }

  /** The owner, or an error for a record made with `new` (which has no association state). */
  requireOwner(): { owner: Owner; association: ResolvedAssociation } {
    if (!this.owner || !this.association) {
      const { models } = this.definition;
      const names = models === undefined ? this.definition.target.name : [models].flat().map((model) => model.name).join(" or ");
      throw new AssociationNotLoaded(`${names} association used on a record made with new; make records with Model.build()`);
    }
    return { owner: this.owner, association: this.association };
  }

  /** A method of the association as errors name it: `Post.comments.set`. */
  methodName(method: string): string {
    const { owner, association } = this.requireOwner();
    return `${owner.constructor.name}.${association.name}.${method}`;
  }

  /** Refuses the arguments a method of the association would ignore, as the Relation's own methods do. */
  takes(method: string, given: number, taken: number): void {
    if (given > taken) refuseExtraArguments(this.methodName(method), given, taken);
  }

  /** The target's records narrowed by the association's `scope`, if it has one. */
  scopedTarget(): Relation {
    const { owner, association } = this.requireOwner();
    return scopedTargetOf(association, databaseOfRecord(owner));
  }

  /** The target Model, bound to the owner's database when it has one. */
  targetModel(): TargetModel {
    const { owner } = this.requireOwner();
    return targetModelOf(this.definition, databaseOfRecord(owner));
  }
}

/** An association's target Model, bound to `database` when there is one. */
function targetModelOf(definition: AssociationDefinition, database: Database | undefined): TargetModel {
  const target = definition.target as TargetModel;
  return database ? (database.model(target) as TargetModel) : target;
}

/** The target's records on `database` (else the current one), narrowed by the association's `scope`, if it has one. */
export function scopedTargetOf(association: ResolvedAssociation, database: Database | undefined): Relation {
  const all = targetModelOf(association, database).all();
  return association.options.scope ? (association.options.scope(all) as Relation) : all;
}
