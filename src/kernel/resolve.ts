import type { Attribute } from "./attributes.js";
import type { Plugin } from "./plugin.js";
import { declarationOf, ownDeclaration } from "./declaration.js";
import { InvalidModel } from "./errors.js";
import { applyingRegistrations, ResolvedHooks } from "./hooks.js";
import { quoteIdentifier } from "./naming.js";
import { Relation } from "./relation.js";
import { unboundModel } from "./database.js";

/** What the kernel needs of a Model at run time, worked out once at its first use. */
export interface ResolvedModel {
  readonly model: Function;
  readonly name: string;
  readonly tableName: string;
  /** Whether the table name was inferred from the class name (a bundler may have renamed the class). */
  readonly tableInferred: boolean;
  readonly quotedTable: string;
  readonly primaryKey: Attribute;
  readonly attributes: readonly Attribute[];
  readonly byName: ReadonlyMap<string, Attribute>;
  readonly byColumn: ReadonlyMap<string, Attribute>;
  /** What a SELECT lists: `*`, or the columns when some are ignored. */
  readonly selectList: string;
  /** The attributes `toJSON` leaves out, as `hiddenAttributes` said at first use. */
  readonly hiddenAttributes: ReadonlySet<string>;
  /** Every registered hook while `model:finalize` runs; then only those that apply to the Model. */
  hooks: ResolvedHooks;
  /** The Model's own Relation class: the plugins' relation methods plus those defined for it (its scopes). */
  readonly relationClass: typeof Relation;
  /** The Relation class with the plugins' relation methods only (what a scope's body receives). */
  readonly pluginRelationClass: typeof Relation;
}

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
  const top = chain.length > 1 ? chain[chain.length - 2]! : chain[0]!;
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
      throw new InvalidModel(`${model.name}: tableName ${JSON.stringify(own)} differs from the inherited ${JSON.stringify(table)}; single-table inheritance is not supported`);
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

function checkAttributes(model: Resolvable, attributes: Map<string, Attribute>, hiddenChecked: string[]): void {
  for (const name of attributes.keys()) {
    if (RESERVED.has(name)) throw new InvalidModel(`${model.name}: attribute ${name} has the name of a record method`);
  }
  // Also what an override ignoring the primary key leads to: checked here, since a subclass may set another one.
  if (!attributes.has(model.primaryKey)) {
    throw new InvalidModel(`${model.name}: primaryKey ${JSON.stringify(model.primaryKey)} is not an attribute`);
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

function pluginRelationClassFor(plugins: readonly Plugin[]): typeof Relation {
  const PluginRelation = class extends Relation {};
  for (const plugin of plugins) {
    for (const [name, method] of Object.entries(plugin.relationMethods ?? {})) {
      Object.defineProperty(PluginRelation.prototype, name, { value: method, writable: true, configurable: true });
    }
  }
  return PluginRelation;
}

/** Adds a method to a Model's Relations (and Relations of its subclasses made later); for plugins. */
export function defineRelationMethod(model: Function, name: string, method: (this: Relation, ...args: any[]) => unknown): void {
  const { relationClass } = resolveModel(model);
  Object.defineProperty(relationClass.prototype, name, { value: method, writable: true, configurable: true });
}

/** A new Relation of every record of the Model (or of a view of it bound to a database). */
export function relationOf(model: Function): Relation {
  return new (resolveModel(unboundModel(model)).relationClass)(model);
}

/** Checks a Model's declaration and works out what its queries need; once per Model, at its first use. */
export function resolveModel(model: Function): ResolvedModel {
  const cls = model as Resolvable;
  if (Object.hasOwn(cls, RESOLVED)) return cls[RESOLVED]!;
  const declaration = ownDeclaration(model);
  const { tableName, inferred } = inferTableName(model);
  if (!tableName) throw new InvalidModel(`${model.name || "An anonymous Model"} has no table name: ${missingTableAdvice(model)}`);
  checkTableName(model);
  checkAttributes(cls, declaration.attributes, ownHiddenAttributes(cls));
  // Each Model gets its own attribute objects, so that plugins may mark them (filtered) per Model.
  const attributes = [...declaration.attributes.values()].map((attribute) => ({ ...attribute }));
  const byName = new Map(attributes.map((attribute) => [attribute.name, attribute]));
  const pluginRelationClass = pluginRelationClassFor(declaration.plugins);
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
    hooks: new ResolvedHooks(declaration.hooks),
    pluginRelationClass,
    relationClass: class extends pluginRelationClass {},
  };
  declaration.fixed = true;
  // Visible while the finalize hooks run (they may ask for the Model's attributes); withdrawn if one throws,
  // so that every later use fails the same way.
  Object.defineProperty(cls, RESOLVED, { value: resolved, enumerable: false, configurable: true });
  try {
    if (resolved.hooks.has("model:finalize")) resolved.hooks.callSync("model:finalize", model);
    resolved.hooks = new ResolvedHooks(applyingRegistrations(model, declaration.hooks));
  } catch (error) {
    delete cls[RESOLVED];
    declaration.fixed = false;
    throw error;
  }
  return resolved;
}
