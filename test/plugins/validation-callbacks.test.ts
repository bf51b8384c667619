import { beforeEach, describe, expect, it } from "vitest";
import { abort } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord } from "../models/fixtures.js";

beforeEach(resetDatabase);

describe("beforeValidation and afterValidation", () => {
  it("run around the validations, before the save callbacks, in Rails' order", async () => {
    const calls: string[] = [];
    class Traced extends ApplicationRecord("users") {
      static {
        this.beforeSave(() => void calls.push("beforeSave"));
        this.afterValidation((record) => void calls.push(`afterValidation ${record.errors.size}`));
        this.validates("name", { presence: true });
        this.beforeValidation((record) => {
          calls.push("beforeValidation");
          record.name = record.name.trim();
        });
      }
    }
    const refused = await Traced.create({ name: "   " });
    expect(refused.isPersisted()).toBe(false);
    expect(calls).toEqual(["beforeValidation", "afterValidation 1"]);
    calls.length = 0;
    const saved = await Traced.create({ name: " Ada " });
    expect(saved.name).toBe("Ada");
    expect(calls).toEqual(["beforeValidation", "afterValidation 0", "beforeSave"]);
  });

  it("an abort in beforeValidation stops the save with its reason and sends nothing", async () => {
    class Frozen extends ApplicationRecord("users") {
      static {
        this.beforeValidation(() => {
          throw abort("frozen");
        });
      }
    }
    const { db, events } = listen();
    const record = db.model(Frozen).build({ name: "Ada" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("frozen");
    await expect(record.saveOrThrow()).rejects.toThrow("frozen");
    expect(events).toEqual([]);
  });

  it("errors added in afterValidation refuse the save", async () => {
    class Picky extends ApplicationRecord("users") {
      static {
        this.afterValidation((record) => {
          if (record.name === "Bob") record.errors.add("name", "invalid", "is not welcome");
        });
      }
    }
    const bob = await Picky.create({ name: "Bob" });
    expect(bob.isPersisted()).toBe(false);
    expect(bob.errors.fullMessages()).toEqual(["Name is not welcome"]);
    await expect(Picky.createOrThrow({ name: "Bob" })).rejects.toThrow(/Name is not welcome/);
  });

  it("take a function", () => {
    expect(() => {
      class Wrong extends ApplicationRecord("users") {
        static {
          this.beforeValidation("trim" as never);
        }
      }
      return Wrong;
    }).toThrow(/beforeValidation takes a function/);
  });
});
