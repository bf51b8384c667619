import { AsyncLocalStorage } from "node:async_hooks";
import {
  type AnyModel,
  type AppliedDefaultScope,
  appliedDefaultScopes,
  applyDefaultScopes,
  argumentError,
  compileConditions,
  type Condition,
  databaseOfModel,
  DEFAULT_SCOPE,
  declareDefaultScope,
  type DefaultScopeDeclaration,
  defaultScopesOf,
  definePlugin,
  installRelationChecks,
  differencesBesidesConditions,
  pluginRelationOf,
  previewText,
  type QueryPurpose,
  type RecordOfModel,
  type RelationPrepareContext,
  Relation,
  type RelationData,
  relationOf,
  type RelationOf,
  type ResolvedModel,
  type TypedRelation,
  withoutDefaultScope,
} from "../kernel/index.js";

/** The Models whose default scopes `Model.unscoped(fn)` lifted for the queries `fn` makes (each with its subclasses). */
const liftedModels = new AsyncLocalStorage<ReadonlySet<Function>>();

function isLifted(model: Function): boolean {
  const lifted = liftedModels.getStore();
  if (!lifted) return false;
  for (let current = model; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (lifted.has(current)) return true;
  }
  return false;
}

/** The Models whose default scope is being evaluated: a body that names its class (`Note.where`) starts from none. */
const evaluating = new Set<ResolvedModel>();

/** The conditions a default scope's body gives for a Relation of the Model just started; refused unless it only narrows. */
function conditionsOf(relation: Relation, declared: DefaultScopeDeclaration): readonly Condition[] {
  const { model } = relation;
  evaluating.add(model);
  let result: unknown;
  try {
    result = declared.body(pluginRelationOf(relation));
  } finally {
    evaluating.delete(model);
  }
  const where = `${model.name}.defaultScope`;
  if (!(result instanceof Relation) || (result.model.model !== model.model && !(model.model.prototype instanceof result.model.model))) {
    throw new TypeError(`${where}: the body must return a Relation of ${model.name}, not ${previewText(result)}`);
  }
  const description = result.description;
  const differences = differencesBesidesConditions(relation.description, description, model);
  if (differences.length > 0) throw new TypeError(`${where}: a default scope only narrows (where, whereNot, or, none); this one sets ${differences.join(", ")}`);
  return description.none ? [{ kind: "never" }] : description.conditions;
}

/** The default scopes a Relation of the Model just started reads through: none when lifted, else each body's conditions. */
function scopesFor(relation: Relation): AppliedDefaultScope[] {
  if (isLifted(relation.model.model)) return [];
  return defaultScopesOf(relation.model.model).map((declared) => ({ name: declared.name ?? "", conditions: conditionsOf(relation, declared) }));
}

/** Whether `reload()` reads through a default scope: unless the plugin that declared it said not. */
function readsOnReload(model: ResolvedModel, scope: AppliedDefaultScope): boolean {
  return defaultScopesOf(model.model).find((declared) => (declared.name ?? "") === scope.name)?.reload !== false;
}

/**
 * The conditions of the default scopes a Relation with these entries reads through, for `purpose`: one not started
 * by all() (reload's lookup by key) reads through the scopes a new one would.
 */
function scopeConditions(model: ResolvedModel, extensions: RelationData["extensions"], purpose: QueryPurpose): Condition[] {
  const scopes = (extensions[DEFAULT_SCOPE] as readonly AppliedDefaultScope[] | undefined) ?? appliedDefaultScopes(relationOf(model.model));
  return scopes.filter((scope) => purpose !== "reload" || readsOnReload(model, scope)).flatMap((scope) => scope.conditions);
}

/** The scope `record:initialize` reads for a record a Relation builds: that Relation's, evaluated when it started. */
let building: { readonly model: Function; readonly relation: Relation } | undefined;

/**
 * `relation.build`, `create` and `createOrThrow` build with the default scopes that Relation reads through (none
 * after `unscoped()`): the record is built before their first await, so the scope is set for that part alone. Outside
 * the associations plugin's wraps (registered after it), which build through the owner's un-narrowed association.
 */
function buildingFromThis(next: (this: Relation, ...args: unknown[]) => unknown) {
  // Every argument is passed on, so that build refuses those it does not take.
  return function (this: Relation, ...args: unknown[]): unknown {
    const outer = building;
    building = { model: this.model.model, relation: this };
    try {
      return next.apply(this, args);
    } finally {
      building = outer;
    }
  };
}

/** `Model.unscoped(fn)` runs `fn` with the Model's default scopes lifted for its queries; `Model.unscoped()` is `all().unscoped()`. */
function wrapUnscoped(next: (this: Function) => unknown) {
  return function (this: Function, ...args: unknown[]): unknown {
    if (args.length === 0) return next.call(this);
    const [fn] = args;
    if (args.length > 1 || typeof fn !== "function") throw argumentError(`${this.name}.unscoped`, "no argument, or a function to run without the default scope", fn);
    const model = databaseOfModel(this) ? Object.getPrototypeOf(this) : this;
    return liftedModels.run(new Set([...(liftedModels.getStore() ?? []), model]), fn as () => unknown);
  };
}

/** The attributes a new record starts with: the equality conditions of the default scopes (Rails' `scope_attributes`). */
function scopeAttributesOf(record: object): Record<string, unknown> {
  const Class = record.constructor;
  const source = building?.model === Class ? building.relation : relationOf(Class);
  const conditions = appliedDefaultScopes(source).flatMap((scope) => scope.conditions);
  return conditions.length === 0 ? {} : source.with({ conditions }).scopeAttributes();
}

/** Moves the scopes' conditions among the Relation's own, as its prepare stage runs. */
function moveScopesAmongConditions(context: RelationPrepareContext): void {
  const conditions = scopeConditions(context.model, context.extensions, context.purpose);
  if (conditions.length === 0) return;
  context.conditions = [...context.conditions, ...conditions];
  context.extensions = { ...context.extensions, [DEFAULT_SCOPE]: [] };
}

/**
 * Default scopes (Rails' `default_scope`): `static { this.defaultScope((q) => q.where({ archived: false })) }` narrows
 * every query of the Model and its subclasses (several combine with AND), and a new record starts with its equality
 * conditions. The body runs once per query, when the query starts (`all()`); `unscoped()` on a Relation and
 * `Model.unscoped()` lift it, and `Model.unscoped(fn)` lifts it for the queries `fn` makes.
 */
export const defaultScopes = definePlugin({
  name: "defaultScopes",
  setup(base: Function & { defaultScope?: unknown }) {
    installRelationChecks();
    applyDefaultScopes(base);
    base.defaultScope = function defaultScope(this: Function, body: unknown) {
      if (typeof body !== "function") throw argumentError(`${this.name}.defaultScope`, "a function of the Relation", body);
      declareDefaultScope(this, { body: body as DefaultScopeDeclaration["body"] });
    };
  },
  relationMethods: {
    /** This Relation without the Model's default scopes; its own conditions stay. */
    unscoped(this: Relation, ...args: unknown[]) {
      if (args.length > 0) throw argumentError(`${this.model.name}: Relation.unscoped`, "no argument (Model.unscoped(fn) runs a function)", args[0]);
      return withoutDefaultScope(this);
    },
  },
  wrap: { relation: { build: buildingFromThis, create: buildingFromThis, createOrThrow: buildingFromThis }, static: { unscoped: wrapUnscoped } },
  appliesTo: (model: Function) => defaultScopesOf(model).length > 0,
  hooks: {
    "relation:start"(context) {
      if (evaluating.has(context.relation.model)) return;
      context.relation = context.relation.withExtension(DEFAULT_SCOPE, scopesFor(context.relation));
    },
    "record:initialize"({ record }) {
      for (const [name, value] of Object.entries(scopeAttributesOf(record))) {
        // An attribute that reads null already stays unassigned: no change to report, and the column's default applies.
        if (value !== null || record.readAttribute(name) !== null) record.writeAttribute(name, value);
      }
    },
    // Every compile path runs the prepare stage first (the sync forms too), which moves the scopes' conditions among
    // the Relation's own: the relation:prepare hooks after this one (an encryption's) and the relation:where checks
    // see them as any other condition, and they are compiled once, with the rest.
    "relation:prepare": moveScopesAmongConditions,
    // A plugin's own compile of an unprepared Relation still gets the scopes' conditions, compiled here; unless
    // another plugin's prepare stage would have rewritten them (an encryption), which only preparing can do.
    "relation:where"({ data, parts, model, purpose }) {
      const conditions = scopeConditions(model, data.extensions, purpose);
      if (conditions.length === 0) return;
      if (model.hooks.functionsOf("relation:prepare").some((hook) => hook !== moveScopesAmongConditions)) {
        throw new TypeError(
          `${model.name}: a Relation of ${model.name} was compiled without the prepare stage, which applies its default scope; prepare it first (prepareRelation, prepareRelationNow)`,
        );
      }
      parts.where.push(compileConditions(conditions, model, parts.params));
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /**
     * Declares a default scope (in the Model's `static {}` block): `this.defaultScope((q) => q.where({ archived: false }))`
     * narrows every query of the Model and its subclasses; a new record starts with its equality conditions.
     */
    defaultScope<M extends AnyModel>(this: M, body: (q: TypedRelation<RecordOfModel<M>>) => TypedRelation<RecordOfModel<M>>): void;
    /** A Relation of every record, without the Model's default scopes. */
    unscoped<M extends AnyModel>(this: M): RelationOf<M>;
    /** Runs `fn` with the Model's default scopes (and its subclasses') lifted for the queries it makes; returns what it returns. */
    unscoped<M extends AnyModel, T>(this: M, fn: () => T): T;
  }

  interface PluginRelationMethods<R> {
    /** This Relation without its Model's default scopes; its own conditions stay (a tenant's condition too). */
    unscoped(): this;
  }
}
