import type { D1DatabaseLike } from "./d1.js";

/**
 * @internal What every database sends its calls through in place of its binding while the testing helpers count
 * queries (`countQueries`): a database they did not open (the one a record loaded before keeps) is counted too.
 * Unset otherwise, which costs a call one check.
 */
export const sendingSlot: { through?: (binding: D1DatabaseLike) => D1DatabaseLike } = {};
