/** The benchmarked operations written with recordflare, as an app would inside a request. */
import { connect } from "../../dist/index.mjs";
import { User } from "../shared/models.mjs";
import { newUserAttributes } from "../shared/new-user.mjs";

export function recordflareOps(d1) {
  const Users = connect(d1).model(User);
  return {
    find: {
      run: ({ ids }, i) => Users.find(ids[i % ids.length]),
    },
    create: {
      run: ({ tag }, i) => Users.create(newUserAttributes(tag, i)),
    },
    update: {
      // Loading the records is not timed: the benchmark is `record.update(...)` itself.
      setup: async (fixture) => ({ ...fixture, records: await Promise.all(fixture.updateIds.map((id) => Users.find(id))) }),
      run: ({ records, tag }, i) => records[i % records.length].update({ name: `Renamed ${tag}-${i}` }),
    },
    query: {
      run: () => Users.where({ admin: false }).order({ createdAt: "desc" }).limit(25).toArray(),
    },
    paginate: {
      run: () => Users.where({ admin: false }).order({ createdAt: "desc" }).paginate({ page: 2, perPage: 25 }),
    },
  };
}
