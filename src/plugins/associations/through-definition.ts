import { InvalidModel, primaryKeyOf } from "../../kernel/index.js";
import { type AssociationDefinition, checkOptions, dependentOption, type OptionChecks, type ResolvedAssociation } from "./definition.js";
import { ASSOCIATION } from "./slot.js";

/** Whether options declare a through association (even `through: undefined`, a field named before its declaration). */
export const goesThrough = (options: unknown): boolean => typeof options === "object" && options !== null && "through" in options;

const isName = (value: unknown) => typeof value === "string" && value !== "";
const isField = (value: unknown) => (typeof value === "function" || (typeof value === "object" && value !== null)) && ASSOCIATION in value;

const THROUGH = { expected: "one of the Model's association fields (this.taggings) or its name", fits: (value: unknown) => isName(value) || isField(value) };
const SOURCE = { expected: "an association name of the Model gone through", fits: isName };
const SOURCE_TYPE = { expected: "the name of the Model to reach, one of those the polymorphic source lists", fits: isName };
const SCOPE = { expected: "a function of the targets' Relation", fits: (value: unknown) => typeof value === "function" };

/** The options a through association takes: `dependent` on a `hasMany` only (it deletes the join rows). */
const THROUGH_OPTIONS: Record<"hasMany" | "hasOne", OptionChecks> = {
  hasMany: { through: THROUGH, source: SOURCE, sourceType: SOURCE_TYPE, scope: SCOPE, dependent: dependentOption("hasMany") },
  hasOne: { through: THROUGH, source: SOURCE, sourceType: SOURCE_TYPE, scope: SCOPE },
};

/** Why options of a direct association are refused on a through one: its keys and rows are those of its hops. */
const NOT_THROUGH: Record<string, string> = {
  foreignKey: "the keys of a through association are those of the associations it goes through",
};

/** The name of the owner's association that `through` designates: a name, or the field itself (`this.taggings`). */
function throughName(owner: Function, name: string, through: unknown, fields: Record<string, unknown>): string {
  if (typeof through === "string") return through;
  const found = Object.keys(fields).find((field) => fields[field] === through);
  if (found === undefined) {
    throw new InvalidModel(`${owner.name}.${name}: through must be an association of ${owner.name} declared before ${name} (this.<association>)`);
  }
  return found;
}

/**
 * Resolves a through association (`hasMany(Tag, { through: this.taggings })`) declared on `owner` under `name`:
 * checks its options and names the association it goes through. Its hops are resolved at first use (see
 * `throughHops`), once every association of the Models it crosses is declared.
 */
export function resolveThrough(owner: Function, name: string, definition: AssociationDefinition, fields: Record<string, unknown>): ResolvedAssociation {
  const { kind, options } = definition;
  if (kind === "belongsTo") throw new InvalidModel(`${owner.name}.${name} (belongsTo): through is an option of hasMany and hasOne`);
  for (const option of Object.keys(NOT_THROUGH)) {
    if (option in options) throw new InvalidModel(`${owner.name}.${name} (${kind} through): ${option} is not taken: ${NOT_THROUGH[option]}`);
  }
  checkOptions(owner, name, definition, THROUGH_OPTIONS[kind]);
  const through = throughName(owner, name, options.through, fields);
  if (through === name) throw new InvalidModel(`${owner.name}.${name}: an association cannot go through itself`);
  const primaryKey = primaryKeyOf(owner).name;
  return { ...definition, name, foreignKey: primaryKey, primaryKey, through };
}

/** Refuses a through association whose `through` names no association of its Model (a misspelt name in JavaScript). */
export function checkThroughNames(owner: Function, associations: ReadonlyMap<string, ResolvedAssociation>): void {
  for (const { name, through } of associations.values()) {
    if (through !== undefined && !associations.has(through)) {
      throw new InvalidModel(`${owner.name}.${name}: through ${through} is not an association of ${owner.name}`);
    }
  }
}
