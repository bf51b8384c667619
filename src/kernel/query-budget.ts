import { argumentError } from "./arguments.js";
import { QueryBudgetExceeded } from "./errors.js";

/** The opt-in budgets of `connect`: how many statements a connection may send and how many rows D1 may read for it. */
export interface QueryBudgets {
  /** Statements this connection may send; each statement of a batch counts as one. */
  maxQueries?: number;
  /** Rows D1 may read (as billed, from its `meta`) for this connection before the next query is refused. */
  maxRowsRead?: number;
}

function budgetOf(name: keyof QueryBudgets, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0) throw argumentError(`connect: ${name}`, "a whole number from 0", value);
  return value as number;
}

/**
 * Counts what a connection spends and refuses, before sending, a query that would pass a budget: statements are
 * counted before they are sent (a batch of n counts n), rows read after D1 answers, so the query that passes
 * `maxRowsRead` completes and the next one is refused.
 */
export class QueryBudget {
  readonly #maxQueries: number | undefined;
  readonly #maxRowsRead: number | undefined;
  #queries = 0;
  #rowsRead = 0;

  constructor(budgets: QueryBudgets) {
    this.#maxQueries = budgetOf("maxQueries", budgets.maxQueries);
    this.#maxRowsRead = budgetOf("maxRowsRead", budgets.maxRowsRead);
  }

  /** Whether any budget was given (without one, nothing is counted). */
  get isSet(): boolean {
    return this.#maxQueries !== undefined || this.#maxRowsRead !== undefined;
  }

  /** Throws `QueryBudgetExceeded` if sending these statements would pass a budget; otherwise counts them as sent. */
  spend(sqls: readonly string[]): void {
    const sql = sqls[0] ?? "";
    if (this.#maxRowsRead !== undefined && this.#rowsRead > this.#maxRowsRead) {
      throw new QueryBudgetExceeded("maxRowsRead", this.#maxRowsRead, this.#rowsRead, sql);
    }
    if (this.#maxQueries !== undefined && this.#queries + sqls.length > this.#maxQueries) {
      throw new QueryBudgetExceeded("maxQueries", this.#maxQueries, this.#queries, sql);
    }
    this.#queries += sqls.length;
  }

  /** Adds the rows D1 reports it read for a query. */
  read(meta: Record<string, unknown> | undefined): void {
    this.#rowsRead += Number(meta?.["rows_read"] ?? 0);
  }
}
