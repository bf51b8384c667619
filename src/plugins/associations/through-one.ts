import { SingleAssociation } from "./single.js";
import { ASSOCIATION } from "./slot.js";
import { throughRelation } from "./through-relation.js";

/**
 * `supplier.accountHistory` declared `hasOne(AccountHistory, { through: this.account })`: the one record the
 * associations it crosses reach, read with one statement; read-only, as Rails' has_one through is here.
 */
export class ThroughOneAssociation extends SingleAssociation {
  protected async query(): Promise<any> {
    const { owner, association } = this[ASSOCIATION].requireOwner();
    return throughRelation(owner, association).take();
  }
}
