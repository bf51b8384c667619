import {
  compileConditions,
  type Condition,
  defaultScopesOf,
  fragmentOf,
  ParamWriter,
  pluginRelationOf,
  prepareRelationNow,
  type Relation,
  relationOf,
  type SqlFragment,
  withoutDefaultScope,
} from "../../kernel/index.js";

/**
 * The child rows a counter cache counts: those within the child Model's default scopes (soft delete's among them),
 * the rows its associations read. A counter statement ANDs `sql` to the rows it counts, so that a create adds only a
 * row within the scopes, a destroy takes only a row that was, and an update that moves a row into or out of them
 * adjusts its parent.
 */
export interface CountedScope {
  /** The scopes' conditions as their bodies give them (cast, not prepared): what a record is checked against in memory. */
  readonly conditions: readonly Condition[];
  /** The same conditions prepared (an encryption's ciphertext) and compiled on the child's table, with their values. */
  readonly sql: SqlFragment;
  /** The attributes the conditions read; undefined when an `sql` condition may read any. */
  readonly attributes: ReadonlySet<string> | undefined;
}

/** The attributes `conditions` read, or undefined when one is SQL of the user's, which may read any. */
function attributesRead(conditions: readonly Condition[], into = new Set<string>()): Set<string> | undefined {
  for (const condition of conditions) {
    switch (condition.kind) {
      case "sql":
        return undefined;
      case "never":
        break;
      case "not":
        if (!attributesRead(condition.conditions, into)) return undefined;
        break;
      case "or":
        for (const branch of condition.branches) if (!attributesRead(branch, into)) return undefined;
        break;
      default:
        into.add(condition.attribute.name);
    }
  }
  return into;
}

/**
 * The conditions of the default scopes that apply to a Model, each body run on a Relation of it: the rows its
 * counters count, whether or not `Model.unscoped(fn)` lifted them for the queries being made, since the stored count
 * is the same whatever the request. None when it has no default scope.
 */
export function scopeConditionsOf(model: Function): Condition[] {
  const declared = defaultScopesOf(model);
  if (declared.length === 0) return [];
  const start = pluginRelationOf(withoutDefaultScope(relationOf(model)));
  return declared.flatMap(({ body }) => {
    const { description } = body(start) as Relation;
    return description.none ? [{ kind: "never" as const }] : description.conditions;
  });
}

/**
 * The default scopes a child's counters count within (see `scopeConditionsOf`); undefined when it has none, so that
 * its counter statements stay as they are. The statements are planned synchronously: a scope whose conditions a
 * plugin must prepare with work that is awaited (an encryption) is refused with `TypeError`, before anything is sent.
 */
export function countedScopeOf(child: Function): CountedScope | undefined {
  const conditions = scopeConditionsOf(child);
  if (conditions.length === 0) return undefined;
  const instead = `a counter cache of ${child.name} cannot tell which rows it counts; count with await ${child.name}.count() instead`;
  const prepared = prepareRelationNow(withoutDefaultScope(relationOf(child)).with({ conditions }), "count", "defaultScope", instead);
  const params = new ParamWriter();
  const text = compileConditions(prepared.description.conditions, prepared.model, params);
  return { conditions, sql: fragmentOf(text, params.params), attributes: attributesRead(conditions) };
}

/** Whether a write that sets `values` may move a row into or out of the scope: it sets an attribute the scope reads. */
export function mayChangeScope(scope: CountedScope | undefined, values: ReadonlyMap<string, unknown>): boolean {
  if (!scope) return false;
  const { attributes } = scope;
  if (!attributes) return true;
  for (const name of values.keys()) if (attributes.has(name)) return true;
  return false;
}
