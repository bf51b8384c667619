/** The callbacks plugin: declaration, order, abort, and what each callback sees. */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, batch, RecordNotSaved } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { User } from "../models/fixtures.js";

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
});
