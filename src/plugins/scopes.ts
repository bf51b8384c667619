import {
  type AnyModel,
  argumentError,
  databaseOfRelation,
  defineRelationMethod,
  definePlugin,
  InvalidModel,
  pluginRelationOf,
  type RecordOfModel,
  refuseExtraArguments,
  Relation,
  relationOf,
  type RelationOf,
  type TypedRelation,
} from "../kernel/index.js";

declare const scopeBrand: unique symbol;

/**
 * The type of a scope static. Write it out (`static recent: ScopeStatic<[days: number]> = this.scope(...)`)
 * when the scope's body names its own class, which TypeScript cannot infer through.
 */
export interface ScopeStatic<Args extends unknown[]> {
  <M extends AnyModel>(this: M, ...args: Args): RelationOf<M>;
  /** @internal Marks scopes apart from other statics (it exists only in types). */
  readonly [scopeBrand]: Args;
}

type ScopeMethods<M> = {
  [K in keyof M as M[K] extends ScopeStatic<any> ? K : never]: M[K] extends ScopeStatic<infer Args> ? (...args: Args) => RelationOf<M> : never;
};

const SCOPE_BODY = Symbol("recordflare.scope");

type ScopeBody = (relation: Relation, ...args: unknown[]) => unknown;

/** A declared scope: its body, how many arguments it takes (see `argumentsTaken`), and its name once known. */
interface Scope {
  readonly body: ScopeBody;
  readonly taken: number;
  /** The name of its static, learnt when its Model is finalized: the static's errors name the scope. */
  name?: string;
}

/**
 * How many arguments a scope's body takes after the Relation, when its source says so for sure: an arrow function
 * of plain parameters, which has no `arguments` of its own (a trailing comma counts one more: never a refusal too
 * many). Any number (Infinity) for any other body: its `length` cannot tell `(q)` from `(q, ...rest)` or
 * `(q, days = 7)`, nor a `function` that reads `arguments`.
 */
function argumentsTaken(body: ScopeBody): number {
  const parameters = /^\(?([\w$\s,]*)\)?\s*=>/.exec(String(body));
  return parameters ? parameters[1]!.split(",").length - 1 : Infinity;
}

/**
 * Runs a scope's body on a plain Relation (no other scopes inside), then gives the result the Model's methods. An
 * argument past those its body takes is refused: ignored, it would silently query other rows than asked.
 */
function runScope(relation: Relation, name: string, { body, taken }: Scope, args: unknown[]): Relation {
  // Checked first, so that a call of the right arity builds no text.
  if (args.length > taken) refuseExtraArguments(`${relation.model.name}.${name}`, args.length, taken);
  const result = body(pluginRelationOf(relation), ...args);
  if (!(result instanceof Relation)) throw new TypeError(`${relation.model.name}.${name}: a scope must return a Relation`);
  return relationOf(modelClassOf(relation, result), result);
}

/**
 * A body that names its own class (`Post.where(...)`) returns a Relation of the unbound Model: on a Model bound with
 * `db.model(M)`, the scope still queries that database.
 */
function modelClassOf(relation: Relation, result: Relation): Function {
  const database = databaseOfRelation(result) ?? (result.model === relation.model ? databaseOfRelation(relation) : undefined);
  return database ? database.model(result.model.model) : result.model.model;
}

function scopesOf(model: Function): Map<string, Scope> {
  const scopes = new Map<string, Scope>();
  for (let current = model; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    for (const name of Object.getOwnPropertyNames(current)) {
      const value = Object.getOwnPropertyDescriptor(current, name)?.value;
      if (typeof value !== "function" || !(SCOPE_BODY in value) || scopes.has(name)) continue;
      const scope = (value as unknown as Record<symbol, Scope>)[SCOPE_BODY]!;
      scope.name ??= name;
      scopes.set(name, scope);
    }
  }
  return scopes;
}

/**
 * Names a scope may not take beyond the Relation methods and Model statics: a Relation's own fields, which would
 * hide it, and `then`, which would make Relations awaitable.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["data", "model", "modelClass", "then"]);

function checkName(model: Function, base: Function, name: string): void {
  if (name in Relation.prototype || name in base || RESERVED_NAMES.has(name)) {
    throw new InvalidModel(`${model.name}: the scope ${name} has the name of a Relation method or Model static`);
  }
}

/**
 * Scopes: `static published = this.scope((q) => q.where({ published: true }))` declares a named query, callable
 * as a static and on any Relation of the Model. Arguments are evaluated at each call; subclasses inherit scopes
 * and may replace one with `static override`.
 */
export const scopes = definePlugin({
  name: "scopes",
  setup(base: Function & { scope?: unknown }) {
    base.scope = function scope(this: Function, body: ScopeBody) {
      if (typeof body !== "function") throw argumentError(`${this.name}.scope`, "a function of the Relation", body);
      const scope: Scope = { body, taken: argumentsTaken(body) };
      // Not `this.all()`: a scope may itself be named like a static (the name check then refuses it).
      const scopeStatic = function (this: Function, ...args: unknown[]) {
        // relationOf first: resolving the Model finalizes it, which names the scope.
        return runScope(relationOf(this), scope.name ?? "scope", scope, args);
      };
      Object.defineProperty(scopeStatic, SCOPE_BODY, { value: scope });
      return scopeStatic;
    };
  },
  hooks: {
    "model:finalize"(model: Function) {
      for (const [name, scope] of scopesOf(model)) {
        checkName(model, scopesBaseOf(model), name);
        defineRelationMethod(model, name, function (this: Relation, ...args: unknown[]) {
          return runScope(this, name, scope, args);
        });
      }
    },
  },
});

/** The class whose statics a scope may not shadow: the one the plugin was registered on (it owns `scope`). */
function scopesBaseOf(model: Function): Function {
  for (let current = model; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (Object.hasOwn(current, "scope")) return current;
  }
  return model;
}

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /** Declares a scope: `static published = this.scope((q) => q.where({ published: true }))`. */
    scope<M extends AnyModel, Args extends unknown[]>(
      this: M,
      body: (q: TypedRelation<RecordOfModel<M>>, ...args: Args) => TypedRelation<RecordOfModel<M>>,
    ): ScopeStatic<Args>;
  }

  interface PluginModelRelation<M> {
    /** The Model's scopes, callable on each of its Relations. */
    scopes: ScopeMethods<M>;
  }
}
