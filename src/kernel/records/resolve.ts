import type { Attribute } from "./attributes.js";
import { declarationOf, ownDeclaration } from "./declaration.js";
import { InvalidModel } from "../errors.js";
import { previewText } from "./display.js";
import { HookPoints } from "../plugin-api/hook-points.js";
import { isHookName } from "../plugin-api/hook-names.js";
import type { ModelHooks, ResolvedModel } from "../plugin-api/hooks.js";
import { quoteIdentifier } from "../sql/naming.js";
import { hidesRowId, isReservedName, RESERVED_PREFIX, ROW_ID_REASON } from "../sql/reserved-names.js";
import type { HookRegistration, Plugin } from "../plugin-api/plugin.js";

export type { ResolvedModel };

const RESOLVED = Symbol("recordflare.resolved");

type Resolvable = Function & { [RESOLVED]?: ResolvedModel; tableName: string; primaryKey: string; hiddenAttributes: string[] };

/** Classes from this one up to the class `Model()` made, nearest first. */
function chainToDeclarationClass(model: Function): Function[] {
  const top = declarationOf(model).declarationClass;
  const chain: Function[] = [];
  for (let current = model; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    chain.push(current);
    if (current === top) break;
  }
  return chain;
}

/**
 * The table a Model maps to without checks: a `tableName` set on the Model or its parents, the table named in
 * `ApplicationRecord('<table>')`, or what the `model:tableName` hooks make of the name of the class just below
 * the declaration class.
 */
export function inferTableName(model: Function): { tableName: string; inferred: boolean } {
  const chain = chainToDeclarationClass(model);
  const explicit = chain.map(ownTableName).find((name) => name !== undefined);
  if (explicit !== undefined) return { tableName: explicit, inferred: false };
  const declared = declarationOf(model).declaredTable;
  if (declared) return { tableName: declared, inferred: false };
  // The chain ends at the declaration class; the Model itself when it is that class.
  const top = chain.at(-2) ?? chain[0]!;
  return { tableName: tableNameOfClass(model, top) ?? "", inferred: true };
}

/** The table the `model:tableName` hooks infer from a class's name; none for a nameless class or without hooks. */
function tableNameOfClass(model: Function, cls: Function): string | undefined {
  if (!cls.name) return undefined;
  const context = { className: cls.name, tableName: undefined as string | undefined };
  for (const [name, fn] of declarationOf(model).hooks) if (name === "model:tableName") fn(context);
  return context.tableName;
}

/** A named class gets no table only on a base whose plugins infer none (no `tableNaming`). */
function missingTableAdvice(model: Function): string {
  const infers = declarationOf(model).hooks.some(([name]) => name === "model:tableName");
  return model.name && !infers ? "set static tableName, or register the tableNaming plugin to infer it from the class name" : "set static tableName";
}

/** A `tableName` the class itself sets (a data property; the kernel's inferring accessor does not count). */
function ownTableName(cls: Function): string | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(cls, "tableName");
  return descriptor && "value" in descriptor ? String(descriptor.value) : undefined;
}

/** The table is set by the top of the chain; a class below may repeat it but not change it (no STI). */
function checkTableName(model: Function): void {
  const chain = chainToDeclarationClass(model).reverse();
  const top = declarationOf(model).declarationClass;
  let table = declarationOf(model).declaredTable;
  for (const cls of chain) {
    const own = ownTableName(cls);
    if (own !== undefined && table !== undefined && own !== table) {
      throw new InvalidModel(`${model.name}: tableName ${previewText(own)} differs from the inherited ${previewText(table)}; single-table inheritance is not supported`);
    }
    if (table === undefined && cls !== top) table = own ?? tableNameOfClass(model, cls);
  }
}

const RESERVED = new Set<string>();

/**
 * Names an attribute cannot take because records already answer to them, those every object has included
 * (`valueOf`, `hasOwnProperty`, `__proto__`): an accessor of that name would replace them, as the CLI refuses too.
 */
export function reserveRecordMethods(prototype: object): void {
  for (let current: object | null = prototype; current; current = Object.getPrototypeOf(current)) {
    reserveRecordMethodNames(Object.getOwnPropertyNames(current));
  }
}

/** Reserves names a plugin gave records (its setup added them to a base class's prototype). */
export function reserveRecordMethodNames(names: Iterable<string>): void {
  for (const name of names) RESERVED.add(name);
}


/**
 * Refuses a table or column name that recordflare keeps for the names it adds to its statements, and a column that
 * hides the row id it reads.
 */
function checkReservedNames(model: Function, tableName: string, attributes: Map<string, Attribute>): void {
  const advice = `names starting with ${RESERVED_PREFIX} are reserved for the names recordflare adds to its queries`;
  if (isReservedName(tableName)) throw new InvalidModel(`${model.name || tableName}: table ${JSON.stringify(tableName)}: ${advice}; rename the table`);
  for (const attribute of attributes.values()) {
    const reason = isReservedName(attribute.column) ? advice : hidesRowId(attribute.column) ? ROW_ID_REASON : undefined;
    if (reason) throw new InvalidModel(`${model.name}: attribute ${attribute.name} has the column ${JSON.stringify(attribute.column)}: ${reason}; rename the column`);
  }
}

function checkAttributes(model: Resolvable, attributes: Map<string, Attribute>, hiddenChecked: string[]): void {
  for (const name of attributes.keys()) {
    if (RESERVED.has(name)) throw new InvalidModel(`${model.name}: attribute ${name} has the name of a record method`);
  }
  // Also what an override ignoring the primary key leads to: checked here, since a subclass may set another one.
  if (!attributes.has(model.primaryKey)) {
    throw new InvalidModel(`${model.name}: primaryKey ${previewText(model.primaryKey)} is not an attribute`);
  }
  // Text ("email") would be read as its letters, on a base class silently: nothing would be hidden.
  if (!Array.isArray(model.hiddenAttributes)) {
    throw new InvalidModel(`${model.name}: hiddenAttributes must be a list of attribute names, not ${previewText(model.hiddenAttributes)}`);
  }
  for (const name of hiddenChecked) {
    if (!attributes.has(name)) throw new InvalidModel(`${model.name}: hiddenAttributes names ${name}, which is not an attribute`);
  }
  const probe = new (model as unknown as new () => object)();
  for (const name of attributes.keys()) {
    if (Object.hasOwn(probe, name)) throw new InvalidModel(`${model.name}: the class field ${name} hides the attribute of that name`);
  }
}

/** The hidden attributes the Model itself declared (a base class's list may name attributes it lacks). */
function ownHiddenAttributes(model: Resolvable): string[] {
  const chain = chainToDeclarationClass(model);
  const owner = chain.find((cls) => Object.hasOwn(cls, "hiddenAttributes"));
  return owner ? (owner as Resolvable).hiddenAttributes : [];
}

/**
 * The registrations that run for a Model once it is finalized: a plugin whose `appliesTo` says no for the Model
 * drops out, and `model:finalize` has run its course.
 */
function applyingRegistrations(model: Function, registrations: ReadonlyArray<HookRegistration>): HookRegistration[] {
  const answers = new Map<Plugin, boolean>();
  const applies = (plugin: Plugin | undefined): boolean => {
    if (!plugin?.appliesTo) return true;
    if (!answers.has(plugin)) answers.set(plugin, plugin.appliesTo(model));
    return answers.get(plugin)!;
  };
  return registrations.filter(([name, , plugin]) => name !== "model:finalize" && applies(plugin));
}

/** Checks a Model's declaration and works out what its queries need; once per Model, at its first use. */
export function resolveModel(model: Function): ResolvedModel {
  const cls = model as Resolvable;
  if (Object.hasOwn(cls, RESOLVED)) return cls[RESOLVED]!;
  const declaration = ownDeclaration(model);
  const { tableName, inferred } = inferTableName(model);
  if (!tableName) throw new InvalidModel(`${model.name || "An anonymous Model"} has no table name: ${missingTableAdvice(model)}`);
  checkTableName(model);
  checkReservedNames(model, tableName, declaration.attributes);
  checkAttributes(cls, declaration.attributes, ownHiddenAttributes(cls));
  // Each Model gets its own attribute objects, so that plugins may mark them (filtered) per Model.
  const attributes = [...declaration.attributes.values()].map((attribute) => ({ ...attribute }));
  const byName = new Map(attributes.map((attribute) => [attribute.name, attribute]));
  const resolved: ResolvedModel = {
    model,
    name: model.name || tableName,
    tableName,
    tableInferred: inferred,
    quotedTable: quoteIdentifier(tableName),
    primaryKey: byName.get(cls.primaryKey)!,
    attributes,
    byName,
    byColumn: new Map(attributes.map((attribute) => [attribute.column, attribute])),
    selectList: declaration.ignoredColumns.length === 0 ? "*" : attributes.map((a) => quoteIdentifier(a.column)).join(", "),
    hiddenAttributes: new Set(cls.hiddenAttributes),
    hooks: new HookPoints<ModelHooks>(isHookName, declaration.hooks),
  };
  declaration.fixed = true;
  // Visible while the finalize hooks run (they may ask for the Model's attributes); withdrawn if one throws,
  // so that every later use fails the same way.
  Object.defineProperty(cls, RESOLVED, { value: resolved, enumerable: false, configurable: true });
  try {
    if (resolved.hooks.has("model:finalize")) resolved.hooks.callSync("model:finalize", model);
    resolved.hooks = new HookPoints<ModelHooks>(isHookName, applyingRegistrations(model, declaration.hooks));
  } catch (error) {
    delete cls[RESOLVED];
    declaration.fixed = false;
    throw error;
  }
  return resolved;
}
