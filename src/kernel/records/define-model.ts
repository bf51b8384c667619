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
  for (const [name, attribute] of Object.entries(declarations)) {
    declaration.attributes.set(name, defineAttribute(owner, name, attribute));
    defineAccessor(Declared.prototype, name);
  }
  return Declared;
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
