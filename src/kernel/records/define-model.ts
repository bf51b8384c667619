import { type AttributeDeclarations, type AttributeOverrides, applyOverrides, defineAttribute } from "./attributes.js";
import type { Base } from "../base.js";
import { ownDeclaration } from "./declaration.js";
import { writeAttribute, assertLoaded } from "./assign.js";
import { InvalidModel } from "../errors.js";
import { previewText } from "./display.js";
import { isPlainObject } from "./plain-object.js";
import { currentValue, STATE } from "./record-state.js";

function defineAccessor(prototype: object, name: string): void {
  Object.defineProperty(prototype, name, {
    get(this: Base) {
      const state = this[STATE];
      const attribute = state.model.byName.get(name)!;
      assertLoaded(state, attribute);
      return currentValue(state, attribute);
    },
    set(this: Base, value: unknown) {
      writeAttribute(this, this[STATE], name, value);
    },
    enumerable: true,
    configurable: true,
  });
}

/** Makes a Model base class below `base` with these attributes: the runtime of `Model({...})`. */
export function defineModel(
  base: typeof Base,
  declarations: AttributeDeclarations,
  options: { table?: string; ignoredColumns?: string[] } = {},
): typeof Base {
  const Declared = class extends base {};
  Object.defineProperty(Declared, "name", { value: "" });
  const declaration = ownDeclaration(Declared);
  declaration.declarationClass = Declared;
  declaration.declaredTable = options.table;
  declaration.ignoredColumns = options.ignoredColumns ?? [];
  declaration.attributes = new Map();
  const owner = options.table ?? "Model";
  if (!isPlainObject(declarations)) throw new InvalidModel(`${owner} takes an object of attribute declarations, not ${previewText(declarations)}`);
  // By column as SQLite compares names, ignoring case.
  const byColumn = new Map<string, string>();
  for (const [name, attribute] of Object.entries(declarations)) {
    refuseBreakingName(owner, name);
    const defined = defineAttribute(owner, name, attribute);
    const column = defined.column.toLowerCase();
    const other = byColumn.get(column);
    if (other !== undefined) {
      throw new InvalidModel(`${owner}.${name}: column ${JSON.stringify(defined.column)} is ${other}'s too`);
    }
    byColumn.set(column, name);
    declaration.attributes.set(name, defined);
    defineAccessor(Declared.prototype, name);
  }
  return Declared;
}

/**
 * Refuses the attribute names no record can have, whatever its methods (those are refused at the Model's first use,
 * once its plugins are known): `then` would make every record a thenable, which `await` takes for a promise, and the
 * empty name no column.
 */
function refuseBreakingName(owner: string, name: string): void {
  if (name === "then") throw new InvalidModel(`${owner}.then would make records thenables, which await takes for promises; name the attribute otherwise`);
  if (name === "") throw new InvalidModel(`${owner}: an attribute has the empty name`);
}

/** The runtime of `ApplicationRecord('<table>', overrides)`: the table's generated attributes with overrides. */
export function defineTableModel(
  base: typeof Base,
  schema: { readonly [table: string]: AttributeDeclarations },
  table: string,
  overrides: AttributeOverrides = {},
): typeof Base {
  const generated = schema[table];
  if (!generated) throw new InvalidModel(`The schema has no table ${table}; run the generator or declare the attributes by hand`);
  const { declarations, ignoredColumns } = applyOverrides(table, generated, overrides);
  return defineModel(base, declarations, { table, ignoredColumns });
}
