import { isPlainObject } from "../../kernel/index.js";
import { type AssociationDefinition, type ResolvedAssociation, resolveAssociation } from "./definition.js";
import { PolymorphicDefinition, resolveAs, resolvePolymorphicBelongsTo } from "./polymorphic.js";
import { checkThroughNames, goesThrough, resolveThrough } from "./through-definition.js";
import { ASSOCIATION, type AssociationSlot } from "./slot.js";

const byModel = new WeakMap<Function, Map<string, ResolvedAssociation>>();

function slotOf(value: unknown): AssociationSlot | undefined {
  return (typeof value === "function" || (typeof value === "object" && value !== null)) && ASSOCIATION in value
    ? (value as { [ASSOCIATION]: AssociationSlot })[ASSOCIATION]
    : undefined;
}

/** Resolves one declared association; a polymorphic one, and one declared `as` it, by their own rules. */
function resolveDeclared(model: Function, name: string, definition: AssociationDefinition): ResolvedAssociation {
  if (definition instanceof PolymorphicDefinition) return resolvePolymorphicBelongsTo(model, name, definition);
  const as = isPlainObject(definition.options) ? definition.options.as : undefined;
  if (as === undefined || typeof definition.target !== "function") return resolveAssociation(model, name, definition);
  return resolveAs(model, name, definition, associationsOf(definition.target).get(as));
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
      associations.set(name, goesThrough(definition.options) ? resolveThrough(model, name, definition, probe) : resolveDeclared(model, name, definition));
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
