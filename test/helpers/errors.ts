import { expect } from "vitest";

/** Runs `fn` and returns what it threw (synchronously or as a rejection), or undefined when it did not throw. */
export async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The rejection of a promise (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${String(value)}`);
    },
    (error: unknown) => error as Error,
  );
}

/** The message of the TypeError `fn` throws (fails the test when it throws anything else, or nothing). */
export function typeError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error("expected a TypeError");
}
