import { comparableStored, type Condition } from "../../kernel/index.js";

/** An SQL truth value: true, false, or NULL (unknown to SQL: a comparison with a NULL column). */
type Truth = boolean | null;

/** Thrown inside the check when a condition cannot be decided in memory (SQL of the user's, an ordering comparison). */
const UNDECIDED = Symbol("undecided");

/** A record's value of an attribute, in its database form as a condition holds its values (see `comparableStored`); null for NULL. */
type ValueOf = (attribute: Extract<Condition, { attribute: unknown }>["attribute"]) => unknown;

/** SQL's AND of truth values: false if any is, else NULL if any is, else true. */
function and(truths: Iterable<Truth>): Truth {
  let result: Truth = true;
  for (const truth of truths) {
    if (truth === false) return false;
    if (truth === null) result = null;
  }
  return result;
}

function truthOf(condition: Condition, valueOf: ValueOf): Truth {
  switch (condition.kind) {
    case "equal": {
      const value = valueOf(condition.attribute);
      return value === null ? null : value === comparableStored(condition.value);
    }
    case "null":
      return valueOf(condition.attribute) === null;
    case "in": {
      const value = valueOf(condition.attribute);
      if (value === null) return condition.orNull ? true : null;
      return condition.values.some((each) => comparableStored(each) === value);
    }
    case "never":
      return false;
    case "not": {
      const truth = allOf(condition.conditions, valueOf);
      return truth === null ? null : !truth;
    }
    case "or": {
      let result: Truth = false;
      for (const branch of condition.branches) {
        const truth = allOf(branch, valueOf);
        if (truth === true) return true;
        if (truth === null) result = null;
      }
      return result;
    }
    default:
      throw UNDECIDED;
  }
}

const allOf = (conditions: readonly Condition[], valueOf: ValueOf): Truth => and(conditions.map((condition) => truthOf(condition, valueOf)));

/**
 * Whether a record's values meet `conditions` as the database would decide it on its row (SQL's NULL logic: a row
 * whose column is NULL meets neither `= 1` nor `NOT (= 1)`); undefined when that cannot be told in memory (an `sql`
 * condition, an ordering comparison, whose SQLite collation and affinity memory does not share).
 */
export function meetsConditions(conditions: readonly Condition[], read: (name: string) => unknown): boolean | undefined {
  const valueOf: ValueOf = (attribute) => {
    const value = read(attribute.name);
    return value === null || value === undefined ? null : comparableStored(attribute.type.toDatabase(value));
  };
  try {
    return allOf(conditions, valueOf) === true;
  } catch (error) {
    if (error === UNDECIDED) return undefined;
    throw error;
  }
}
