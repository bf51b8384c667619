import type { Attribute } from "./attributes.js";
import { InvalidModel } from "../errors.js";
import type { HookRegistration, ModelStateKey, Plugin } from "../plugin-api/plugin.js";

/** What a Model declares; each Model class owns a copy of its parent's, made at its first declaration. */
export interface Declaration {
  /** The attributes, in column order. */
  attributes: Map<string, Attribute>;
  /** Columns an override ignores: never read or written. */
  ignoredColumns: string[];
  /** The table named by `ApplicationRecord('<table>')`; absent until a declaration class sets it. */
  declaredTable?: string | undefined;
  /** The class `Model()` or `ApplicationRecord()` made: the top of this Model's own chain; absent above it. */
  declarationClass?: Function | undefined;
  hooks: HookRegistration[];
  plugins: Plugin[];
  state: Map<ModelStateKey<any>, unknown>;
  /** Set once the Model has been used; declarations are fixed after that. */
  fixed: boolean;
}

const DECLARATION = Symbol("recordflare.declaration");

type Declared = Function & { [DECLARATION]?: Declaration };

function emptyDeclaration(): Declaration {
  return {
    attributes: new Map(),
    ignoredColumns: [],
    hooks: [],
    plugins: [],
    state: new Map(),
    fixed: false,
  };
}

function copyDeclaration(parent: Declaration): Declaration {
  const state = new Map<ModelStateKey<any>, unknown>();
  for (const [key, value] of parent.state) state.set(key, key.copy(value));
  return {
    ...parent,
    attributes: new Map(parent.attributes),
    ignoredColumns: [...parent.ignoredColumns],
    hooks: [...parent.hooks],
    plugins: [...parent.plugins],
    state,
    fixed: false,
  };
}

/**
 * For each class, a subclass with a declaration of its own (one that declared or was used): a copy of its parent's,
 * which what the class registers later would not reach. A named subclass replaces an anonymous one (`Model({...})`'s).
 */
const declaredBelow = new WeakMap<Function, Function>();

function noteDeclaredBelow(model: Function): void {
  for (let above = Object.getPrototypeOf(model); typeof above === "function" && !declaredBelow.get(above)?.name; above = Object.getPrototypeOf(above)) {
    declaredBelow.set(above, model);
  }
}

/**
 * Refuses a declaration on `model` (`declared` names it, `instead` says what to do) once a subclass has a declaration of
 * its own (see `declaredBelow`): a copy of this one, which what `model` declares now would not reach, while Ruby's
 * reaches every subclass.
 */
export function refuseAfterSubclass(model: Function, declared: string, instead: string): void {
  const below = declaredBelow.get(model);
  if (!below) return;
  const table = declarationOf(below).declaredTable;
  const subclass = below.name || (table ? `the Model of table ${table}` : "a Model({...}) class");
  throw new InvalidModel(`${declared} would not reach ${subclass}, a subclass declared before it; ${instead}`);
}

/** The declaration a class reads: its own, or the nearest ancestor's. */
export function declarationOf(model: Function): Declaration {
  const own = (model as Declared)[DECLARATION];
  return own ?? emptyDeclaration();
}

/** The class's own declaration, copied from its parent's at the first call, for declaring more. */
export function ownDeclaration(model: Function): Declaration {
  const declared = model as Declared;
  if (Object.hasOwn(declared, DECLARATION)) {
    const own = declared[DECLARATION]!;
    if (own.fixed) throw new InvalidModel(`${model.name || "Model"}: declarations are fixed after the Model's first use`);
    return own;
  }
  const parent = Object.getPrototypeOf(model) as Declared;
  const declaration = parent[DECLARATION] ? copyDeclaration(parent[DECLARATION]) : emptyDeclaration();
  Object.defineProperty(model, DECLARATION, { value: declaration, enumerable: false, configurable: true });
  noteDeclaredBelow(model);
  return declaration;
}

/**
 * A plugin's per-Model state, for declaring more on this Model (in its `static {}` block): `InvalidModel` once
 * the Model has been used, since its declarations are fixed then, and once a subclass declared (see
 * `refuseAfterSubclass`).
 */
export function declareModelState<T>(model: Function, key: ModelStateKey<T>): T {
  const name = model.name || "Model";
  refuseAfterSubclass(model, `${name}: ${key.description}`, `declare on ${name} before declaring its subclasses`);
  return stateIn(ownDeclaration(model), key);
}

/** A declaration's entry for a plugin's state, made from its initial value on first need. */
function stateIn<T>(declaration: Declaration, key: ModelStateKey<T>): T {
  if (!declaration.state.has(key)) declaration.state.set(key, key.initial());
  return declaration.state.get(key) as T;
}

/**
 * A plugin's per-Model state, for reading (in hooks, `appliesTo`). Once the Model is fixed it gives the fixed
 * value without complaint, so declaring goes through `declareModelState`, which refuses late declarations.
 */
export function modelState<T>(model: Function, key: ModelStateKey<T>): T {
  const own = Object.hasOwn(model, DECLARATION) ? (model as Declared)[DECLARATION]! : undefined;
  return stateIn(own?.fixed ? own : ownDeclaration(model), key);
}
