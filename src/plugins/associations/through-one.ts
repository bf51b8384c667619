import { SingleAssociation } from "./single.js";
import { ASSOCIATION } from "./slot.js";
import { replaceThroughOne } from "./through-one-writes.js";
import { throughRelation } from "./through-relation.js";
import type { ThroughSlot } from "./through-slot.js";

/**
 * `member.club` declared `hasOne(Club, { through: this.membership })`: the one record the associations it crosses
 * reach, read with one statement; `set` writes the join row, as Rails' has_one :through assignment does.
 */
export class ThroughOneAssociation extends SingleAssociation {
  protected async query(): Promise<any> {
    const { owner, association } = this[ASSOCIATION].requireOwner();
    return await throughRelation(owner, association).take();
  }

  /** Points the owner's join row at `record` (null destroys the join row); see `replaceThroughOne`. */
  async set(record: unknown): Promise<void> {
    this[ASSOCIATION].takes("set", arguments.length, 1);
    return await replaceThroughOne(this[ASSOCIATION] as ThroughSlot, record);
  }
}
