/** SPEC.md, States and transitions: the rows of the table for records with validations or callbacks. */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, RecordInvalid } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { countRows } from "../helpers/queries.js";
import { ApplicationRecord } from "../models/items-and-counters.js";

beforeEach(resetDatabase);

class Item extends ApplicationRecord("sal_items") {}

describe("States and transitions: rows with validation or callbacks", () => {
  // "New | save(), create(), update() | validation passes and no callback aborts | Persisted | row inserted; defaults
  // and generated ids already present; after-callbacks run; updatedAt/createdAt set"
  it("New -> Persisted: the before-callback already sees the generated id; after-callbacks see the timestamps", async () => {
    const seen: unknown[] = [];
    class Tracked extends Item {
      static {
        this.beforeSave((record) => void seen.push(typeof record.id, record.createdAt));
        this.afterCreate((record) => void seen.push(record.createdAt instanceof Date, record.updatedAt instanceof Date));
      }
    }
    const record = Tracked.build({ name: "Ada" });
    const id = record.id;
    expect(await record.update({ qty: 2 })).toBe(true);
    expect(record.id).toBe(id);
    expect(seen).toEqual(["string", null, true, true]);
  });

  // "New | save(), create() | validation fails | New | returns false (or record for create); reasons in errors"
  it("New -> New on validation failure: createOrThrow throws RecordInvalid carrying the New record", async () => {
    class Named extends Item {
      static {
        this.validates("name", { presence: true });
      }
    }
    const error = (await thrown(() => Named.createOrThrow({ name: "" }))) as RecordInvalid;
    expect(error).toBeInstanceOf(RecordInvalid);
    const record = error.record as Named;
    expect(record.isNewRecord()).toBe(true);
    expect(record.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(await countRows("sal_items")).toBe(0);
  });

  // "Persisted | save(), update() | validation fails or callback aborts | Persisted | returns false": the abort of one
  // save does not stick to the next.
  it("Persisted -> Persisted on abort; the next save that passes clears abortReason", async () => {
    class Guarded extends Item {
      static {
        this.beforeUpdate((record) => {
          if (record.status === "locked") throw abort("locked");
        });
      }
    }
    const record = await Guarded.createOrThrow({ status: "open" });
    expect(await record.update({ status: "locked" })).toBe(false);
    expect(record.abortReason).toBe("locked");
    expect(record.isPersisted()).toBe(true);
    expect(await record.update({ status: "open", name: "x" })).toBe(true);
    expect(record.abortReason).toBeUndefined();
  });
});
