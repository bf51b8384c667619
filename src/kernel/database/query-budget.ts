import { countArgument } from "../records/arguments.js";
import { QueryBudgetExceeded } from "../errors.js";

/** The opt-in budgets of `connect`: how many statements a connection may send and how many rows D1 may read for it. */
export interface QueryBudgets {
  /** Statements this connection may send, as D1 counts them: each statement of a batch, guards included. */
  maxQueries?: number;
  /**
   * Rows D1 may read (as billed, from its `meta`, failed statements' included when reported) for this connection
   * before the next query is refused. With it, the connection sends its queries one at a time, so that each is
   * checked with the rows of every query before it counted.
   */
  maxRowsRead?: number;
}

function budgetOf(name: keyof QueryBudgets, value: unknown): number | undefined {
  return value === undefined ? undefined : countArgument(`connect: ${name}`, value);
}

/** Marks a call admitted by `QueryBudget.admit` as answered, once the rows it read are counted. */
export type Answered = () => void;

const nothingToWaitFor: Answered = () => {};

/**
 * Counts what a connection spends, as D1 bills it, and refuses before sending a call (one statement, or a batch)
 * that would pass a budget. Statements are counted before they are sent (a batch of n counts n); rows read when D1
 * answers, failed calls included when D1's error reports them. Rows are known only once D1 answers, so under
 * `maxRowsRead` calls are admitted one at a time, in the order made: each waits until every call admitted before it
 * was answered, then is refused if the rows read so far already pass the budget. The call that passes it completes;
 * every later one, parallel ones included, is refused.
 */
export class QueryBudget {
  readonly #maxQueries: number | undefined;
  readonly #maxRowsRead: number | undefined;
  #queries = 0;
  #rowsRead = 0;
  /** Settles once every call admitted so far was answered; kept only under `maxRowsRead`. */
  #lastAnswered: Promise<void> = Promise.resolve();

  constructor(budgets: QueryBudgets) {
    this.#maxQueries = budgetOf("maxQueries", budgets.maxQueries);
    this.#maxRowsRead = budgetOf("maxRowsRead", budgets.maxRowsRead);
  }

  /**
   * Admits the statements of one call about to be sent, counting them, or throws `QueryBudgetExceeded`. Resolves to
   * the function that marks the call answered, which the caller runs once its rows are counted (or it failed).
   */
  async admit(sqls: readonly string[]): Promise<Answered> {
    if (this.#maxRowsRead === undefined) {
      this.#spend(sqls);
      return nothingToWaitFor;
    }
    const before = this.#lastAnswered;
    let answered!: Answered;
    this.#lastAnswered = new Promise((resolve) => (answered = resolve));
    await before;
    try {
      this.#spend(sqls);
    } catch (error) {
      answered();
      throw error;
    }
    return answered;
  }

  #spend(sqls: readonly string[]): void {
    const sql = sqls[0] ?? "";
    if (this.#maxRowsRead !== undefined && this.#rowsRead > this.#maxRowsRead) {
      throw new QueryBudgetExceeded("maxRowsRead", this.#maxRowsRead, this.#rowsRead, sql);
    }
    if (this.#maxQueries !== undefined && this.#queries + sqls.length > this.#maxQueries) {
      throw new QueryBudgetExceeded("maxQueries", this.#maxQueries, this.#queries, sql);
    }
    this.#queries += sqls.length;
  }

  /** Adds the rows D1 reports it read, in a statement's `meta` or a failed call's. */
  read(meta: Record<string, unknown> | undefined): void {
    this.#rowsRead += Number(meta?.["rows_read"] ?? 0);
  }
}
