import { isPlainObject } from "../../kernel/index.js";
import { givenText } from "./given-records.js";
import { associationsOf } from "./registry.js";
import type { AssociationSlot } from "./slot.js";

/**
 * Refuses, in a `hasMany`'s or `hasOne`'s `build`, the child's `belongsTo` back to the owner given another record
 * (`post.comments().build({ post: other })`): the owner's key, assigned after the attributes, would replace its key
 * while the child's association still held the other record. The owner itself is welcome.
 */
export function refuseAnotherOwner(slot: AssociationSlot, attributes: unknown): void {
  if (!isPlainObject(attributes)) return;
  const { owner, association } = slot.requireOwner();
  for (const [name, parent] of associationsOf(association.target)) {
    const given = attributes[name];
    if (parent.kind !== "belongsTo" || parent.foreignKey !== association.foreignKey || given === undefined || given === owner) continue;
    throw new TypeError(`${slot.methodName("build")}: ${name} is the ${owner.constructor.name} it is built through, not ${givenText(given)}; leave ${name} out`);
  }
}
