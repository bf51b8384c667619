/** The callbacks plugin: declaration, order, abort, and what each callback sees. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  batch,
  RecordNotSaved,
  hasMany,
  hasOne,
  Model,
  RecordNotDestroyed,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { User, ApplicationRecord as FixtureApplicationRecord } from "../models/fixtures.js";
import { countRows, listen } from "../helpers/queries.js";
import { thrown, rejectionOf } from "../helpers/errors.js";
import { ApplicationRecord } from "../models/items-and-counters.js";
import { SaaItem, SaaOwner } from "../models/titled-items-and-owners.js";

beforeEach(resetDatabase);

describe("callbacks", () => {
  it("run validations, then before-callbacks, the write, then after-callbacks", async () => {
    const order: string[] = [];
    class Traced extends User {
      static {
        this.validates("name", { presence: true });
        this.hook("record:validate", () => void order.push("validate"));
        this.beforeSave(() => void order.push("beforeSave"));
        this.beforeCreate(() => void order.push("beforeCreate"));
        this.beforeUpdate(() => void order.push("beforeUpdate"));
        this.afterCreate((record) => void order.push(`afterCreate persisted=${record.isPersisted()}`));
        this.afterSave(() => void order.push("afterSave"));
      }
    }
    const record = await Traced.create({ name: "Ada" });
    expect(order).toEqual(["validate", "beforeSave", "beforeCreate", "afterCreate persisted=true", "afterSave"]);
    order.length = 0;
    await record.update({ name: "Ada L" });
    expect(order).toEqual(["validate", "beforeSave", "beforeUpdate", "afterSave"]);
  });

  it("a callback may change the record, e.g. normalize an attribute", async () => {
    class Normalized extends User {
      static {
        this.beforeSave((record) => {
          record.email = record.email?.trim().toLowerCase() ?? null;
        });
      }
    }
    const record = await Normalized.create({ name: "Ada", email: "  ADA@X.IO " });
    expect((await User.find(record.id)).email).toBe("ada@x.io");
  });

  it("throw abort(reason) stops the save: false, abortReason, RecordNotSaved for OrThrow", async () => {
    class Frozen extends User {
      static {
        this.beforeSave(() => {
          throw abort("frozen");
        });
      }
    }
    const record = Frozen.build({ name: "Ada" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("frozen");
    await expect(record.saveOrThrow()).rejects.toThrow(new RecordNotSaved("frozen"));
    expect(await User.count()).toBe(0);
  });

  it("an error thrown by an after-callback propagates after the row is saved", async () => {
    class Failing extends User {
      static {
        this.afterSave(() => {
          throw new Error("after failed");
        });
      }
    }
    await expect(Failing.create({ name: "Ada" })).rejects.toThrow("after failed");
    expect(await User.count()).toBe(1);
  });

  it("abort in an after-callback cannot undo the write: later after-callbacks are skipped and the call answers false", async () => {
    const ran: string[] = [];
    class Late extends User {
      static {
        this.afterSave((record) => {
          if (record.name === "late") throw abort("too late");
        });
        this.afterSave(() => void ran.push("second afterSave"));
        this.afterDestroy(() => {
          throw abort("gone anyway");
        });
      }
    }
    const record = Late.build({ name: "late" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("too late");
    expect(record.isPersisted()).toBe(true);
    expect(ran).toEqual([]);
    expect(await User.count()).toBe(1);
    record.age = 3;
    await expect(record.saveOrThrow()).rejects.toThrow(new RecordNotSaved("too late"));
    expect((await User.find(record.id)).age).toBe(3);
    expect(await record.update({ name: "fine" })).toBe(true);
    expect(ran).toEqual(["second afterSave"]);
    expect(await record.destroy()).toBe(false);
    expect(record.abortReason).toBe("gone anyway");
    expect(record.isDestroyed()).toBe(true);
    expect(await User.count()).toBe(0);
  });

  it("in a batch, every record is finished even when one's after-callback fails; the first error is thrown", async () => {
    class Loud extends User {
      static {
        this.afterSave((record) => {
          if (record.name === "bad") throw new Error("after failed");
          if (record.name === "late") throw abort("too late");
        });
      }
    }
    const bad = Loud.build({ name: "bad" });
    const late = Loud.build({ name: "late" });
    const good = Loud.build({ name: "good" });
    await expect(batch([bad.toSave(), late.toSave(), good.toSave()])).rejects.toThrow("after failed");
    expect([bad, late, good].map((record) => record.isPersisted())).toEqual([true, true, true]);
    expect(late.abortReason).toBe("too late");
    expect(await User.count()).toBe(3);
    late.age = 4;
    await expect(batch([late.toSave()])).rejects.toThrow(new RecordNotSaved("too late"));
    expect(late.isChanged()).toBe(false);
  });

  it("beforeDestroy may abort; afterDestroy runs after the delete", async () => {
    let kept = true;
    const seen: boolean[] = [];
    class Guarded extends User {
      static {
        this.beforeDestroy(() => {
          if (kept) throw abort("kept");
        });
        this.afterDestroy((record) => void seen.push(record.isDestroyed()));
      }
    }
    const record = await Guarded.create({ name: "Ada" });
    expect(await record.destroy()).toBe(false);
    expect(record.abortReason).toBe("kept");
    kept = false;
    expect(await record.destroy()).toBe(record);
    expect(seen).toEqual([true]);
    expect(await User.count()).toBe(0);
  });

  it("do not run for bulk writes", async () => {
    let ran = 0;
    class Counted extends User {
      static {
        this.beforeSave(() => void ran++);
      }
    }
    await Counted.insertAll([{ name: "a" }, { name: "b" }]);
    await Counted.updateAll({ name: "c" });
    await Counted.deleteAll();
    expect(ran).toBe(0);
  });

  it("registration refuses what is no function and any second argument (a function, Rails' if: options) that it would ignore", () => {
    const declare = (register: (model: typeof User) => void) => () => {
      class Declared extends User {
        static {
          register(this);
        }
      }
      return Declared;
    };
    expect(declare((model) => model.beforeSave(5 as never))).toThrow(new TypeError("Declared.beforeSave takes a function receiving the record"));
    expect(declare((model) => (model.beforeSave as Function)(() => {}, { if: () => false }))).toThrow(
      new TypeError("Declared.beforeSave takes one argument, not 2"),
    );
    expect(declare((model) => (model.afterDestroy as Function)(() => {}, () => {}))).toThrow(new TypeError("Declared.afterDestroy takes one argument, not 2"));
  });
});

const log: string[] = [];

beforeEach(() => {
  log.length = 0;
});

describe("Callbacks (SPEC: Callbacks, Events 2-3)", () => {
  it("run on a save that changes nothing, as in Rails", async () => {
    class Counted extends SaaOwner {
      static {
        this.beforeSave(() => void log.push("beforeSave"));
        this.afterSave(() => void log.push("afterSave"));
      }
    }
    const owner = await Counted.create({ name: "Ada" });
    log.length = 0;
    expect(await owner.save()).toBe(true);
    expect(log).toEqual(["beforeSave", "afterSave"]);
  });

  it("in one batch, all before-callbacks run before any write and all after-callbacks after all writes", async () => {
    class Logged extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave((record) => void log.push(`beforeSave ${record.name}`));
        this.afterSave((record) => void log.push(`afterSave ${record.name}`));
        this.beforeDestroy((record) => void log.push(`beforeDestroy ${record.name}`));
        this.afterDestroy((record) => void log.push(`afterDestroy ${record.name}`));
      }
    }
    const gone = await Logged.create({ name: "C" });
    log.length = 0;
    const { db, events } = listen();
    const a = db.model(Logged).build({ name: "A" });
    const b = db.model(Logged).build({ name: "B" });
    const c = await db.model(Logged).find(gone.id);
    events.length = 0;
    const original = events.push.bind(events);
    events.push = (...items) => (log.push("write"), original(...items));
    await db.batch([a.toSave(), b.toSave(), c.toDestroy()]);
    expect(log).toEqual(["beforeSave A", "beforeSave B", "beforeDestroy C", "write", "write", "write", "afterSave A", "afterSave B", "afterDestroy C"]);
  });

  it("a statement failing half-way through a batch writes nothing, and the records stay as they were", async () => {
    class Logged extends SaaOwner {
      static {
        this.afterSave(() => void log.push("afterSave"));
      }
    }
    const a = Logged.build({ name: "A" });
    const b = SaaItem.build({ title: "x", saaOwnerId: "missing" });
    await expect(batch([a.toSave(), b.toSave()])).rejects.toThrow(/FOREIGN KEY/);
    expect(await countRows("saa_owners")).toBe(0);
    expect(a.isNewRecord()).toBe(true);
    expect(b.isNewRecord()).toBe(true);
    expect(log).toEqual([]);
  });

  it("do not run for any bulk write", async () => {
    class Guarded extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave(() => {
          throw abort("no");
        });
        this.beforeDestroy(() => {
          throw abort("no");
        });
      }
    }
    await Guarded.insert({ id: "a", name: "" });
    await Guarded.insertAll([{ id: "b", name: "" }]);
    await Guarded.upsert({ id: "a", name: "" });
    await Guarded.upsertAll([{ id: "c", name: "" }]);
    expect(await Guarded.all().updateAll({ name: "" })).toBe(3);
    await batch([Guarded.all().toUpdateAll({ rank: 1 })]);
    expect(await Guarded.all().deleteAll()).toBe(3);
  });
});

class Item extends ApplicationRecord("sal_items") {}

class Counter extends ApplicationRecord("sal_counters") {}

describe("Callbacks: order, abort and what they see", () => {
  // SPEC: "`this.beforeSave(fn)` and `this.beforeDestroy(fn)` take a function receiving the record."
  it("beforeSave and beforeDestroy receive the record itself", async () => {
    const seen: unknown[] = [];
    class Watched extends Item {
      static {
        this.beforeSave((record) => void seen.push(record));
        this.beforeDestroy((record) => void seen.push(record));
      }
    }
    const record = await Watched.createOrThrow({ name: "Ada" });
    await record.destroy();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(record);
    expect(seen[1]).toBe(record);
  });

  // SPEC (Events 2): "`beforeSave` and `beforeDestroy` run before the write, and after-callbacks run after it."
  it("before-callbacks see the record as it is before the write; after-callbacks see it written", async () => {
    const seen: string[] = [];
    class Watched extends Counter {
      static {
        this.beforeSave(async (record) => {
          seen.push(`beforeSave new=${record.isNewRecord()} id=${record.id} rows=${await countRows("sal_counters")}`);
        });
        this.afterSave(async (record) => {
          seen.push(`afterSave persisted=${record.isPersisted()} id=${typeof record.id} hits=${record.hits} rows=${await countRows("sal_counters")}`);
        });
        this.beforeDestroy(async (record) => {
          seen.push(`beforeDestroy destroyed=${record.isDestroyed()} rows=${await countRows("sal_counters")}`);
        });
        this.afterDestroy(async (record) => {
          seen.push(`afterDestroy destroyed=${record.isDestroyed()} rows=${await countRows("sal_counters")}`);
        });
      }
    }
    const record = Watched.build({ label: "visits" });
    expect(await record.save()).toBe(true);
    expect(await record.destroy()).toBe(record);
    expect(seen).toEqual([
      "beforeSave new=true id=null rows=0",
      "afterSave persisted=true id=number hits=0 rows=1",
      "beforeDestroy destroyed=false rows=1",
      "afterDestroy destroyed=true rows=0",
    ]);
  });

  // SPEC: "A callback stops the operation with `throw abort('<reason>')`": nothing is written.
  it("abort in beforeSave stops the save before any write; abort in beforeDestroy before the DELETE", async () => {
    class Guarded extends Item {
      static {
        this.beforeSave((record) => {
          if (record.status === "locked") throw abort("locked records are read-only");
        });
        this.beforeDestroy(() => {
          throw abort("kept forever");
        });
      }
    }
    const { db, events } = listen();
    const Bound = db.model(Guarded);
    const refused = Bound.build({ status: "locked" });
    expect(await refused.save()).toBe(false);
    expect(refused.abortReason).toBe("locked records are read-only");
    expect(refused.isNewRecord()).toBe(true);
    expect(events).toEqual([]);
    const kept = await Bound.createOrThrow({ status: "open" });
    events.length = 0;
    expect(await kept.destroy()).toBe(false);
    expect(kept.abortReason).toBe("kept forever");
    expect(events).toEqual([]);
    expect(kept.isPersisted()).toBe(true);
  });

  // SPEC: `abort(reason)`; Persistence: "`RecordNotSaved` (message is the abort reason)".
  it("abort() without a reason still stops the save and gives a reason", async () => {
    class Stopped extends Item {
      static {
        this.beforeSave(() => {
          throw abort();
        });
      }
    }
    const record = Stopped.build({});
    expect(await record.save()).toBe(false);
    expect(typeof record.abortReason).toBe("string");
    const error = await thrown(() => record.saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe(record.abortReason);
  });

  // SPEC (Events 2): "A callback may change the record (for example normalizing an attribute)".
  it("a beforeSave change on a clean persisted record is written by that save", async () => {
    class Stamped extends Item {
      static {
        this.beforeSave((record) => {
          record.qty = (record.qty ?? 0) + 1;
        });
      }
    }
    const record = await Stamped.createOrThrow({ name: "Ada" });
    expect(record.qty).toBe(1);
    expect(await record.save()).toBe(true);
    expect(record.isChanged()).toBe(false);
    expect((await Item.find(record.id)).qty).toBe(2);
  });

  // SPEC (Events 2): "A thrown error other than an abort propagates from the save call".
  it("an error from beforeDestroy propagates from destroy; the row stays and the record Persisted", async () => {
    class Fragile extends Item {
      static {
        this.beforeDestroy(() => {
          throw new RangeError("boom");
        });
      }
    }
    const record = await Fragile.createOrThrow({ name: "Ada" });
    expect(await thrown(() => record.destroy())).toBeInstanceOf(RangeError);
    expect(record.isPersisted()).toBe(true);
    expect(await countRows("sal_items")).toBe(1);
  });

  // SPEC (Events 3): "`save`, `create`, `update` run validations then save callbacks".
  it("an invalid record runs no save callback; a valid one runs them after every validation", async () => {
    const order: string[] = [];
    class Ordered extends Item {
      static {
        this.beforeSave(() => void order.push("beforeSave"));
        this.validates("name", { presence: true });
        this.validates("email", { uniqueness: true });
      }
    }
    const { db, events } = listen();
    const Bound = db.model(Ordered);
    expect(await Bound.build({ email: "a@x" }).save()).toBe(false);
    expect(order).toEqual([]);
    expect(await Bound.build({ name: "Ada", email: "a@x" }).save()).toBe(true);
    expect(order).toEqual(["beforeSave"]);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["SELECT", "SELECT", "INSERT"]);
  });

  // SPEC (Events 2): "Callbacks run on every save and destroy, (not on bulk writes)."
  it("run on a save with nothing to change, which still sends nothing", async () => {
    let calls = 0;
    class Counted extends Item {
      static {
        this.beforeSave(() => void calls++);
        this.afterSave(() => void calls++);
      }
    }
    const record = await Counted.createOrThrow({ name: "Ada" });
    const { db, events } = listen();
    const bound = await db.model(Counted).find(record.id);
    events.length = 0;
    calls = 0;
    expect(await bound.save()).toBe(true);
    expect(calls).toBe(2);
    expect(events).toEqual([]);
  });
});

class Kid extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_children";
}

class Owner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_owners";
  kids = hasMany(Kid, { dependent: "destroy" });
  onlyKid = hasOne(Kid);
}

// ---- Callbacks ------------------------------------------------------------------------------------------------

describe("guide: Callbacks", () => {
  const welcomed: string[] = [];
  class Profile extends FixtureApplicationRecord("users") {
    static {
      this.beforeSave((user) => {
        if (user.email !== null) user.email = user.email.trim().toLowerCase();
      });
      this.afterCreate(async (user) => {
        welcomed.push(`welcome ${user.name}`);
      });
      this.beforeDestroy((user) => {
        if (user.admin) throw abort("admins cannot be deleted");
      });
    }
  }

  it("normalizes, welcomes and refuses the destroy", async () => {
    const admin = await Profile.create({ name: "Root", email: " ROOT@Example.com ", admin: true });
    expect(admin.email).toBe("root@example.com");
    expect(welcomed).toEqual(["welcome Root"]);
    expect(await admin.destroy()).toBe(false);
    expect(admin.abortReason).toBe("admins cannot be deleted");
    await expect(admin.destroyOrThrow()).rejects.toBeInstanceOf(RecordNotDestroyed);
  });

  it("an abort in an after-callback: row written, save answers false with the reason", async () => {
    class Late extends FixtureApplicationRecord("users") {
      static {
        this.afterSave(() => {
          throw abort("too late");
        });
      }
    }
    const late = Late.build({ name: "x" });
    expect(await late.save()).toBe(false);
    expect(late.isPersisted()).toBe(true);
    expect(late.abortReason).toBe("too late");
    expect(await countRows("users")).toBe(1);
    const error = await rejectionOf(Late.build({ name: "y" }).saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect(error.message).toBe("too late");
  });
});

describe("guide: Callbacks, prose claims", () => {
  it("run in declaration order, not grouped; parent first", async () => {
    const ran: string[] = [];
    class P extends FixtureApplicationRecord("users") {
      static {
        this.afterSave(() => void ran.push("P.afterSave"));
        this.beforeCreate(() => void ran.push("P.beforeCreate"));
        this.beforeSave(() => void ran.push("P.beforeSave"));
      }
    }
    class C extends P {
      static {
        this.beforeSave(() => void ran.push("C.beforeSave"));
      }
    }
    await C.createOrThrow({ name: "x" });
    expect(ran).toEqual(["P.beforeCreate", "P.beforeSave", "C.beforeSave", "P.afterSave"]);
  });

  it("in a batch, every record is finished before the first callback error is thrown", async () => {
    class Boom extends FixtureApplicationRecord("users") {
      static {
        this.afterSave(() => {
          throw new Error("boom");
        });
      }
    }
    const a = Boom.build({ name: "a" });
    const b = User.build({ name: "b" });
    const error = await rejectionOf(batch([a.toSave(), b.toSave()]));
    expect(error.message).toBe("boom");
    expect(a.isPersisted()).toBe(true);
    expect(b.isPersisted()).toBe(true);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("beforeSave and afterSave callbacks run on a save with nothing to change (Events 2: on every save)", async () => {
    const calls: string[] = [];
    class Watched extends User {
      static {
        this.beforeSave(() => void calls.push("before"));
        this.hook("record:afterSave", () => void calls.push("after"));
      }
    }
    const record = await Watched.create({ name: "a" });
    calls.length = 0;
    expect(await record.save()).toBe(true);
    expect(calls).toEqual(["before", "after"]);
  });

  it("beforeDestroy runs before dependents are loaded and the delete (Events 3)", async () => {
    const { db, events } = listen();
    const order: string[] = [];
    class WatchedOwner extends Owner {
      static {
        this.beforeDestroy(() => void order.push(`callback after ${events.length} queries`));
      }
    }
    const owner = await db.model(WatchedOwner).create({ id: "o1", name: "a" });
    await db.model(Kid).create({ id: "k1", ownerId: "o1", name: "x" });
    events.length = 0;
    await owner.destroy();
    expect(order).toEqual(["callback after 0 queries"]);
    // Kids have no destroy callbacks: they are deleted set-based, without being read.
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["DELETE", "DELETE"]);
  });
});
