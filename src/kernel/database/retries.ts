import { UnconfirmedWrite } from "../errors.js";
import { argumentError, optionsArgument } from "../records/arguments.js";
import { isReadOnlySql } from "../sql/read-only-sql.js";
import type { Statement } from "../sql/statement.js";

/** How a connection retries a round trip after one of D1's transient errors (`connect`'s `retries`). */
export interface RetryOptions {
  /** Tries in all, the first included (1 retries nothing). Default 3. */
  attempts?: number;
  /** Milliseconds before the first retry; each later one waits twice as long, with jitter. Default 100. */
  delayMs?: number;
}

/** The retry settings of a connection, checked. */
export interface RetrySettings {
  readonly attempts: number;
  readonly delayMs: number;
}

const DEFAULT_RETRIES: RetrySettings = { attempts: 3, delayMs: 100 };
const NO_RETRIES: RetrySettings = { attempts: 1, delayMs: 0 };

/** `connect`'s `retries`, checked: the defaults when not given, one try with `false`. */
export function retrySettings(given: RetryOptions | false | undefined): RetrySettings {
  if (given === undefined) return DEFAULT_RETRIES;
  if (given === false) return NO_RETRIES;
  const { attempts = DEFAULT_RETRIES.attempts, delayMs = DEFAULT_RETRIES.delayMs } = optionsArgument("connect: retries", given, ["attempts", "delayMs"]);
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 10) throw argumentError("connect: retries: attempts", "a whole number from 1 to 10", attempts);
  if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > 10_000) throw argumentError("connect: retries: delayMs", "milliseconds from 0 to 10000", delayMs);
  return { attempts, delayMs };
}

/**
 * The errors D1 documents as transient, whose recommended action is to retry the operation: a network error, and the
 * Durable Object holding the database restarting or failing to start.
 */
const TRANSIENT = /Network connection lost|storage caused object to be reset|reset because its code was updated/;

/** Whether D1 failed with an error it documents as transient (its message or its cause's). */
export function isTransientError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return TRANSIENT.test(error.message) || (error.cause instanceof Error && TRANSIENT.test(error.cause.message));
}

/**
 * Whether a Statement may be sent again after a transient error that may have come after D1 committed it: a read,
 * or a write whose second try has the effect and the result of one (it says so, or has a form for the retry).
 */
export function isRetrySafe(statement: Statement): boolean {
  return statement.idempotent || isReadOnlySql(statement.sql);
}

/**
 * The error of a round trip that failed with a transient error and was not sent again because a write in it is not
 * safe to send twice: the app learns that the write may have been committed. Undefined for any other failure.
 */
export function unconfirmedWrite(error: unknown, statements: readonly Statement[]): UnconfirmedWrite | undefined {
  if (!isTransientError(error)) return undefined;
  const once = statements.find((statement) => !isRetrySafe(statement));
  if (once === undefined) return undefined;
  const owner = once.model ? `${once.model.name}: ` : "";
  const reason = `${owner}D1 failed with a transient error (${(error as Error).message}) on a write that is not safe to send twice, so it was not sent again`;
  return new UnconfirmedWrite(`${reason}; D1 may or may not have committed it`, { cause: error });
}

/** The wait before retry number `retry` (1 for the first): exponential backoff with jitter, half to all of it. */
export function backoffMs(settings: RetrySettings, retry: number): number {
  const full = settings.delayMs * 2 ** (retry - 1);
  return full / 2 + Math.random() * (full / 2);
}

/** Resolves after `ms` milliseconds. */
export function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
