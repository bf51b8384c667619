import { type ResolvedAssociation, resolveAssociation } from "./definition.js";
import { checkThroughNames, goesThrough, resolveThrough } from "./through-definition.js";
import { ASSOCIATION, type AssociationSlot } from "./slot.js";

const byModel = new WeakMap<Function, Map<string, ResolvedAssociation>>();

function slotOf(value: unknown): AssociationSlot | undefined {
  return (typeof value === "function" || (typeof value === "object" && value !== null)) && ASSOCIATION in value
    ? (value as { [ASSOCIATION]: AssociationSlot })[ASSOCIATION]
    : undefined;
}

/**
 * A Model's associations, found once by making a probe instance and reading the association fields its class
 * declares (fields run per instance, so the class itself cannot say).
 */
export function associationsOf(model: Function): Map<string, ResolvedAssociation> {
  let associations = byModel.get(model);
  if (!associations) {
    associations = new Map();
    const probe = new (model as new () => Record<string, unknown>)();
    for (const [name, value] of Object.entries(probe)) {
      const slot = slotOf(value);
      if (!slot) continue;
      const { definition } = slot;
      associations.set(name, goesThrough(definition.options) ? resolveThrough(model, name, definition, probe) : resolveAssociation(model, name, definition));
    }
    checkThroughNames(model, associations);
    byModel.set(model, associations);
  }
  return associations;
}

/** The slots of a record's association fields, by name. */
export function slotsOf(record: Record<string, unknown>): Array<[ResolvedAssociation, AssociationSlot]> {
  const slots: Array<[ResolvedAssociation, AssociationSlot]> = [];
  for (const [name, association] of associationsOf(record.constructor as Function)) {
    const slot = slotOf(record[name]);
    if (slot) slots.push([association, slot]);
  }
  return slots;
}
