/**
 * The statements hooks add around a write (`WritePlan.before` and `after`), placed next to it, and what the writes
 * without records report to the `write:outcome` hooks. Only plugins add such hooks, and a plugin that does calls
 * `installWritePlans`, which installs this: a Worker whose plugins have none bundles none of it.
 */
import { compileFragment } from "../sql/compiler.js";
import { ParamWriter } from "../sql/param-writer.js";
import type { SqlFragment } from "../sql/sql.js";
import { Statement } from "../sql/statement.js";
import { insertedKeys, newestRowKey, setWriteKeys } from "./written-keys.js";
import { insertedKeysSlot } from "./row-inserts.js";
import { bulkWritePlansSlot } from "./write-batch.js";
import { assertWhereTerms } from "./write-compiler.js";
import { outcomeReport } from "./write-outcome.js";
import type { PlannedWrite } from "./write-plan.js";

const ignored = () => undefined;

/** A statement a hook added, compiled on its own (so it binds at most D1's limit, whatever the write binds). */
function extraStatement(plan: PlannedWrite, fragment: SqlFragment): Statement {
  const params = new ParamWriter();
  const sql = compileFragment(fragment, plan.model, params);
  return new Statement({ sql, params: params.params, sources: params.sources }, plan.model, "meta", ignored);
}

/**
 * The statements of a write in the order they are sent: the before-statements, then each own statement with its
 * after-statements next to it (directly after it, or directly before it when its keys hold only there). Adjacency is
 * what makes `last_insert_rowid()` and `changes()` in an after-statement read the write's own.
 */
export function placeExtras(plan: PlannedWrite, own: readonly Statement[], keysOf: (index: number) => { keys: () => SqlFragment; keysBefore: boolean }): { statements: Statement[]; extras: Set<Statement> } {
  const extras = new Set<Statement>();
  const add = (fragment: SqlFragment) => {
    const statement = extraStatement(plan, fragment);
    extras.add(statement);
    return statement;
  };
  const statements = (plan.befores ?? []).map((build) => add(build()));
  own.forEach((statement, index) => {
    const { keys, keysBefore } = keysOf(index);
    const afters = (plan.afters ?? []).map((build) => add(build({ keys: keys() })));
    statements.push(...(keysBefore ? [...afters, statement] : [statement, ...afters]));
  });
  return { statements, extras };
}

/**
 * Installs the planning of the writes without records: the checks of the `where` terms hooks add, the placing of
 * the statements they add around them, the SELECTs of the keys written those read, and the reports to the
 * `write:outcome` hooks.
 */
export function installBulkWritePlans(): void {
  bulkWritePlansSlot.plans ??= { assertWhere: assertWhereTerms, place: placeExtras, report: outcomeReport, newestRowKey, setWriteKeys };
  insertedKeysSlot.keys ??= insertedKeys;
}
