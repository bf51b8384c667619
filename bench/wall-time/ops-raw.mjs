/**
 * The same operations as hand-written raw D1 prepared statements: same SQL, same generated id and timestamps,
 * and no work on the rows D1 returns.
 */
import { newUserAttributes } from "../shared/new-user.mjs";
import { RAW_SQL } from "../shared/raw-sql.mjs";

export function rawOps(d1) {
  return {
    find: {
      run: ({ ids }, i) => d1.prepare(RAW_SQL.find).bind(ids[i % ids.length]).first(),
    },
    create: {
      run: ({ tag }, i) => {
        const { name, email, age } = newUserAttributes(tag, i);
        const now = new Date().toISOString();
        return d1.prepare(RAW_SQL.create).bind(crypto.randomUUID(), name, email, age, 0, now, now).first();
      },
    },
    update: {
      run: ({ updateIds, tag }, i) =>
        d1.prepare(RAW_SQL.update).bind(`Renamed ${tag}-${i}`, new Date().toISOString(), updateIds[i % updateIds.length]).run(),
    },
    query: {
      run: () => d1.prepare(RAW_SQL.query).bind(0).all(),
    },
    paginate: {
      // The count and the page in one batch, as recordflare sends them.
      run: () => d1.batch([d1.prepare(RAW_SQL.paginateCount).bind(0), d1.prepare(RAW_SQL.paginate).bind(0)]),
    },
  };
}
