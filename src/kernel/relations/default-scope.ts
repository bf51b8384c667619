/**
 * Default scopes as plugins declare and lift them: what the `defaultScopes` plugin (which evaluates them, narrows
 * every query with them and gives Models `defaultScope` and `unscoped`) shares with a plugin built on one (soft
 * delete). The kernel compiles none of this itself.
 */
import { InvalidModel } from "../errors.js";
import type { Condition } from "../sql/conditions.js";
import { declareModelState, modelState } from "../records/declaration.js";
import { defineModelState } from "../plugin-api/plugin.js";
import type { Relation } from "./relation.js";
import { relationOf } from "./model-relations.js";

/** A default scope a Model declared or inherited. */
export interface DefaultScopeDeclaration {
  /** Narrows the Relation it gets, as a scope's body does: its conditions are the default scope's. */
  readonly body: (relation: Relation) => unknown;
  /** The name a plugin gives the scope it declares (`softDelete`), to lift that one alone; the Model's own have none. */
  readonly name?: string;
  /** Whether it applies to a Model below the class it is declared on (a plugin's, by the Model's attributes); all by default. */
  readonly appliesTo?: (model: Function) => boolean;
  /** Whether `reload()` reads through it; true unless false (soft delete reloads a deleted record's row). */
  readonly reload?: boolean;
}

/** One default scope as a query started with it: its name ("" for the Model's own) and the conditions its body gave. */
export interface AppliedDefaultScope {
  readonly name: string;
  readonly conditions: readonly Condition[];
}

/**
 * The name of a Relation's own entry (`relation.extension(...)`) that holds the default scopes it reads through,
 * evaluated when it was started (`all()`): a list of `AppliedDefaultScope`, empty once `unscoped()`. Plain data, so
 * that `or` compares two Relations' entries by what they hold.
 */
export const DEFAULT_SCOPE = "defaultScope";

const DECLARED = defineModelState<DefaultScopeDeclaration[]>("defaultScopes", () => [], (declared) => [...declared]);

/** Each Model's default scopes that apply to it, read once its declaration is fixed. */
const applicable = new WeakMap<Function, readonly DefaultScopeDeclaration[]>();

/** The classes the plugin that applies default scopes (`defaultScopes`) is registered on. */
const applying = new WeakSet<Function>();

/**
 * Marks the class a plugin that applies default scopes is registered on (in its `setup`), so that default scopes may
 * be declared there and below. Plugin API: the `defaultScopes` plugin marks its classes.
 */
export function applyDefaultScopes(model: Function): void {
  applying.add(model);
}

/** Whether default scopes of `model` would narrow its queries: the class or one above it is marked. */
function appliesDefaultScopes(model: Function): boolean {
  for (let above = model; typeof above === "function"; above = Object.getPrototypeOf(above)) if (applying.has(above)) return true;
  return false;
}

/**
 * Declares a default scope on a Model or base class (in a `static {}` block or a plugin's `setup`), so that Models
 * below inherit it; one of the same `name` replaces it. Plugin API: the `defaultScopes` plugin evaluates them; where
 * it is not registered (on the class or above it), `InvalidModel`, as the scope would silently narrow no query.
 */
export function declareDefaultScope(model: Function, declared: DefaultScopeDeclaration): void {
  if (!appliesDefaultScopes(model)) {
    throw new InvalidModel(`${model.name}: the default scope${declared.name ? ` ${declared.name}` : ""} would narrow no query; register the defaultScopes plugin on ${model.name} or above it first`);
  }
  const list = declareModelState(model, DECLARED);
  const index = declared.name === undefined ? -1 : list.findIndex((each) => each.name === declared.name);
  if (index === -1) list.push(declared);
  else list[index] = declared;
}

/** The default scopes that apply to a Model (declared on it or above it, where `appliesTo` agrees), at its first use on. */
export function defaultScopesOf(model: Function): readonly DefaultScopeDeclaration[] {
  let found = applicable.get(model);
  if (!found) applicable.set(model, (found = modelState(model, DECLARED).filter((declared) => declared.appliesTo?.(model) ?? true)));
  return found;
}

/** The default scopes a Relation reads through; for one not started by `all()` (made by a plugin), those of a new one. */
export function appliedDefaultScopes(relation: Relation): readonly AppliedDefaultScope[] {
  const own = relation.extension(DEFAULT_SCOPE) as readonly AppliedDefaultScope[] | undefined;
  return own ?? (relationOf(relation.model.model).extension(DEFAULT_SCOPE) as readonly AppliedDefaultScope[] | undefined) ?? [];
}

/**
 * The Relation without its default scopes (`unscoped()`), or without the one a plugin declared under `name`
 * (`withDeleted()`); its own conditions stay.
 */
export function withoutDefaultScope<R extends Relation>(relation: R, name?: string): R {
  // A Model without default scopes keeps its Relations as they are, so that `or` still takes them with any other.
  if (defaultScopesOf(relation.model.model).length === 0) return relation;
  const kept = name === undefined ? [] : appliedDefaultScopes(relation).filter((scope) => scope.name !== name);
  return relation.withExtension(DEFAULT_SCOPE, kept);
}
