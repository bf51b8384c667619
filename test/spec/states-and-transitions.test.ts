/** SPEC.md, States and transitions: each row of the table (New, Persisted, Destroyed), what each method does in each state. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  RecordDestroyed,
  RecordInvalid,
  RecordNotFound,
  RecordNotSaved,
  UnknownAttribute,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { ItemApplicationRecord, Item } from "../models/typed-items.js";
import { stateOf, NEW, PERSISTED, DESTROYED } from "../helpers/record-states.js";

beforeEach(resetDatabase);

class Guarded extends ItemApplicationRecord("sar_items") {
  static stop: string | undefined;
  static stopDestroy: string | undefined;
  static {
    this.validates("name", { presence: true });
    this.beforeSave(() => {
      if (Guarded.stop) throw abort(Guarded.stop);
    });
    this.beforeDestroy(() => {
      if (Guarded.stopDestroy) throw abort(Guarded.stopDestroy);
    });
  }
}

describe("states and transitions", () => {
  beforeEach(() => {
    Guarded.stop = undefined;
    Guarded.stopDestroy = undefined;
  });

  it("New after build; Persisted after create and when loaded; Destroyed after destroy", async () => {
    expect(stateOf(Guarded.build())).toEqual(NEW);
    const created = await Guarded.create({ name: "a" });
    expect(stateOf(created)).toEqual(PERSISTED);
    expect(stateOf(await Guarded.find(created.id))).toEqual(PERSISTED);
    expect(await created.destroy()).toBe(created);
    expect(stateOf(created)).toEqual(DESTROYED);
  });

  it("New -> New when validation fails: false (record for create), reasons in errors, nothing written", async () => {
    const { db, events } = listen();
    const record = db.model(Guarded).build();
    expect(await record.save()).toBe(false);
    expect(stateOf(record)).toEqual(NEW);
    expect(record.errors.toArray()).toEqual([{ attribute: "name", type: "blank", message: "can't be blank" }]);
    expect(record.abortReason).toBeUndefined();
    const created = await db.model(Guarded).create({});
    expect(stateOf(created)).toEqual(NEW);
    expect(created.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(events).toHaveLength(0);
    expect(created.createdAt).toBeNull();
    const error = await thrown(() => db.model(Guarded).createOrThrow({}));
    expect(error).toBeInstanceOf(RecordInvalid);
    expect((error as RecordInvalid).record).toBeInstanceOf(Guarded);
    expect(stateOf((error as RecordInvalid).record as Guarded)).toEqual(NEW);
    expect((error as Error).message).toContain("Name can't be blank");
  });

  it("New -> New when a callback aborts: false, reason in abortReason; OrThrow throws RecordNotSaved with the reason", async () => {
    Guarded.stop = "closed";
    const record = Guarded.build({ name: "a" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("closed");
    expect(record.errors.isEmpty()).toBe(true);
    expect(stateOf(record)).toEqual(NEW);
    const created = await Guarded.create({ name: "a" });
    expect(stateOf(created)).toEqual(NEW);
    expect(created.abortReason).toBe("closed");
    const error = await thrown(() => Guarded.createOrThrow({ name: "a" }));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("closed");
    expect(await thrown(() => record.saveOrThrow())).toBeInstanceOf(RecordNotSaved);
    expect(await Guarded.all().count()).toBe(0);
  });

  it("New -> Persisted by update(); after-callbacks see the saved changes", async () => {
    const seen: unknown[] = [];
    class Watched extends Item {
      static {
        this.afterSave((record) => {
          seen.push([record.isChanged(), record.hasSavedChangeTo("name"), record.savedChangeTo("name"), record.isPersisted()]);
        });
      }
    }
    const record = Watched.build();
    expect(await record.update({ name: "a" })).toBe(true);
    expect(stateOf(record)).toEqual(PERSISTED);
    expect(seen).toEqual([[false, true, [null, "a"], true]]);
  });

  it("Persisted -> Persisted: only changed attributes written, saved changes recorded, record clean", async () => {
    const record = await Item.create({ name: "a", qty: 2 });
    const { db, events } = listen();
    const bound = await db.model(Item).find(record.id);
    events.length = 0;
    bound.name = "b";
    bound.qty = "2" as never;
    expect(bound.changed()).toEqual(["name"]);
    expect(await bound.save()).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe('UPDATE "sar_items" SET "name" = ?1, "updated_at" = ?2 WHERE "id" = ?3');
    expect(bound.isChanged()).toBe(false);
    expect(Object.keys(bound.savedChanges())).toEqual(["name", "updatedAt"]);
    expect(bound.savedChangeTo("name")).toEqual(["a", "b"]);
    expect(bound.attributeBeforeLastSave("name")).toBe("a");
    expect(bound.attributeBeforeLastSave("qty")).toBe(2);
  });

  it("Persisted -> Persisted when validation fails or a callback aborts: false, changes kept", async () => {
    const record = await Guarded.create({ name: "a" });
    expect(await record.update({ name: "" })).toBe(false);
    expect(stateOf(record)).toEqual(PERSISTED);
    expect(record.changes()).toEqual({ name: ["a", ""] });
    expect(await thrown(() => record.updateOrThrow({ name: null }))).toBeInstanceOf(RecordInvalid);
    Guarded.stop = "no";
    expect(await record.update({ name: "b" })).toBe(false);
    expect(record.abortReason).toBe("no");
    expect(record.errors.isEmpty()).toBe(true);
    expect(stateOf(record)).toEqual(PERSISTED);
    const error = await thrown(() => record.updateOrThrow({ name: "c" }));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("no");
    expect((await Guarded.find(record.id)).name).toBe("a");
  });

  it("a later successful save clears the reasons of a refused one", async () => {
    const record = Guarded.build();
    await record.save();
    record.name = "ok";
    expect(await record.save()).toBe(true);
    expect(record.errors.isEmpty()).toBe(true);
    Guarded.stop = "x";
    record.name = "again";
    await record.save();
    Guarded.stop = undefined;
    expect(await record.save()).toBe(true);
    expect(record.abortReason).toBeUndefined();
  });

  it("Persisted -> Persisted when destroy is aborted: false; destroyOrThrow throws RecordNotDestroyed", async () => {
    const record = await Guarded.create({ name: "a" });
    Guarded.stopDestroy = "keep";
    expect(await record.destroy()).toBe(false);
    expect(record.abortReason).toBe("keep");
    expect(stateOf(record)).toEqual(PERSISTED);
    const error = await thrown(() => record.destroyOrThrow());
    expect((error as Error).name).toBe("RecordNotDestroyed");
    expect((error as Error).message).toBe("keep");
    expect(await Guarded.all().count()).toBe(1);
  });

  it("destroy succeeds even if the row is already gone", async () => {
    const record = await Item.create({ name: "a" });
    await Item.where({ id: record.id }).deleteAll();
    expect(await record.destroy()).toBe(record);
    expect(stateOf(record)).toEqual(DESTROYED);
    const other = await Item.create({ name: "b" });
    await Item.where({ id: other.id }).deleteAll();
    expect(await other.destroyOrThrow()).toBe(other);
  });

  it("reload: row exists discards unsaved changes; row gone throws RecordNotFound and stays Persisted; never saved throws and stays New", async () => {
    const record = await Item.create({ name: "a" });
    record.name = "b";
    expect(await record.reload()).toBe(record);
    expect(record.name).toBe("a");
    expect(record.isChanged()).toBe(false);
    await Item.where({ id: record.id }).deleteAll();
    record.name = "c";
    expect(await thrown(() => record.reload())).toBeInstanceOf(RecordNotFound);
    expect(stateOf(record)).toEqual(PERSISTED);
    const fresh = Item.build();
    expect(await thrown(() => fresh.reload())).toBeInstanceOf(RecordNotFound);
    expect(stateOf(fresh)).toEqual(NEW);
  });

  it("Destroyed: every assignment, save, update, destroy and reload throws RecordDestroyed; attributes remain readable", async () => {
    const record = await Item.create({ name: "a", data: { k: 1 } });
    await record.destroy();
    const attempts: [string, () => unknown][] = [
      ["setter", () => (record.name = "b")],
      ["setter null", () => (record.name = null)],
      ["writeAttribute", () => record.writeAttribute("name", "b")],
      ["assign", () => record.assign({ name: "b" })],
      ["save", () => record.save()],
      ["saveOrThrow", () => record.saveOrThrow()],
      ["update", () => record.update({ name: "b" })],
      ["update {}", () => record.update({})],
      ["updateOrThrow", () => record.updateOrThrow({ name: "b" })],
      ["destroy", () => record.destroy()],
      ["destroyOrThrow", () => record.destroyOrThrow()],
      ["reload", () => record.reload()],
    ];
    for (const [label, attempt] of attempts) expect(await thrown(attempt), label).toBeInstanceOf(RecordDestroyed);
    expect(record.name).toBe("a");
    expect(record.data).toEqual({ k: 1 });
    expect(record.attributes()["name"]).toBe("a");
    expect(record.toJSON()["name"]).toBe("a");
    expect(stateOf(record)).toEqual(DESTROYED);
    expect(String(record)).toContain('name: "a"');
  });

  it("update() with a bad value rejects rather than throws, and leaves the record unchanged", async () => {
    const record = await Item.create({ name: "a", qty: 1 });
    const pending = record.update({ name: "b", qty: "x" });
    expect(pending).toBeInstanceOf(Promise);
    expect(await thrown(() => pending)).toBeInstanceOf(TypeError);
    expect(record.name).toBe("a");
    expect(record.isChanged()).toBe(false);
    const pendingOrThrow = record.updateOrThrow({ nope: 1 } as never);
    expect(pendingOrThrow).toBeInstanceOf(Promise);
    expect(await thrown(() => pendingOrThrow)).toBeInstanceOf(UnknownAttribute);
  });
});
