import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, AssociationNotLoaded, attributeFiltering, Base, batch, defineApplicationRecord, idGeneration, pagination, RecordflareError } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { schema } from "../models/fixtures.js";

beforeEach(resetDatabase);

type Settings = { perPage?: unknown; maxPerPage?: unknown; filterAttributes?: unknown; generateId?: unknown };

const DEFAULT_FILTERS = ["passw", "email", "secret", "token", "_key", "crypt", "salt", "certificate", "otp", "ssn", "cvv", "cvc"];

describe("a plugin's settings are statics its setup gives the class it is registered on", () => {
  it("the kernel's Base has none of them: page sizes, filtered attributes and the id generator are the plugins'", () => {
    class Bare extends Base {}
    for (const name of ["perPage", "maxPerPage", "filterAttributes", "generateId"]) {
      expect(name in Bare, name).toBe(false);
    }
  });

  it("each plugin sets its defaults on the class it is registered on; ActiveRecord has them all", () => {
    class Paged extends Base {
      static {
        this.use(pagination, attributeFiltering, idGeneration);
      }
    }
    const settings = Paged as unknown as Settings;
    expect([settings.perPage, settings.maxPerPage]).toEqual([25, 100]);
    expect(settings.filterAttributes).toEqual(DEFAULT_FILTERS);
    expect((settings.generateId as (name: string) => string)("id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect([ActiveRecord.perPage, ActiveRecord.maxPerPage, ActiveRecord.filterAttributes]).toEqual([25, 100, DEFAULT_FILTERS]);
  });

  it("a class that set its own before registering the plugin keeps them, and the plugins use them on real D1", async () => {
    const made: string[] = [];
    class OwnSettings extends Base {
      static override binding = "DB";
      static perPage = 2;
      static maxPerPage = 3;
      static filterAttributes = ["body"];
      static generateId = (name: string) => `own-${made.push(name)}`;
      static {
        this.use(pagination, attributeFiltering, idGeneration);
      }
    }
    const Record = defineApplicationRecord(schema, OwnSettings);
    class Note extends Record({ id: { type: "string", null: false }, body: "string" }) {
      static override tableName = "notes";
    }
    const { db, events } = listen();
    const notes = [Note.build({ body: "a" }), Note.build({ body: "b" }), Note.build({ body: "c" })];
    expect(notes.map((note) => note.id)).toEqual(["own-1", "own-2", "own-3"]);
    await batch(notes.map((note) => note.toSave()));
    const page = await db.model(Note).all().paginate({ page: 1 });
    expect(page.records.map((note) => note.body)).toEqual(["a", "b"]);
    expect((await db.model(Note).all().paginate({ perPage: 10 })).perPage).toBe(3);
    await db.model(Note).findBy({ body: "secret text" });
    expect(events.at(-1)!.params).toEqual(["[FILTERED]"]);
  });

  it("AssociationNotLoaded is the associations plugin's error, exported from the main entry", () => {
    expect(new AssociationNotLoaded("x")).toBeInstanceOf(RecordflareError);
    expect(new AssociationNotLoaded("x").name).toBe("AssociationNotLoaded");
  });
});
