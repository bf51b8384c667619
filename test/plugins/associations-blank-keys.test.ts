/** A blank foreign key of a belongsTo (an HTML form's unchosen reference) becomes null, on real local D1. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, CastError, Model } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { Item, Owner } from "../models/owners-and-items.js";

beforeEach(resetDatabase);

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** An integer foreign key that may be null (dc_posts.dc_user_id REFERENCES dc_users). */
class Writer extends Model({ id: "integer", name: "string" }) {
  static override binding = "DB";
  static override tableName = "dc_users";
}
class Entry extends Model({ id: "integer", dcUserId: "integer", title: "string" }) {
  static override binding = "DB";
  static override tableName = "dc_posts";
  writer = belongsTo(Writer, { foreignKey: "dcUserId", optional: true });
}

async function storedOwnerId(id: string): Promise<unknown> {
  return (await env.DB.prepare("SELECT owner_id FROM saq_items WHERE id = ?").bind(id).first<{ owner_id: unknown }>())!.owner_id;
}

describe("guide: Request input and security, blank foreign keys", () => {
  it("a blank text foreign key from a form is null, with or without emptyAsNull, and the row is saved", async () => {
    const withOption = Item.permit(form({ ownerId: "", name: "" }), ["ownerId", "name"], { emptyAsNull: true });
    expect(withOption).toEqual({ ownerId: null, name: "" });
    const without = Item.permit(form({ ownerId: "  ", name: "" }), "ownerId", "name");
    expect(without).toEqual({ ownerId: null, name: "" });
    const item = await Item.create({ id: "i1", ...without });
    expect(item.isPersisted()).toBe(true);
    expect(await storedOwnerId("i1")).toBeNull();
  });

  it("assignment, update and updateAll read a blank foreign key as null too; a key that names a row is kept", async () => {
    const owner = await Owner.create({ id: "o1", name: "Ada" });
    const item = await Item.create({ id: "i1", ownerId: owner.id });
    expect(Item.build({ ownerId: "" }).ownerId).toBeNull();
    await item.update({ ownerId: " " });
    expect(item.ownerId).toBeNull();
    expect(await storedOwnerId("i1")).toBeNull();
    await item.update({ ownerId: "o1" });
    expect(await storedOwnerId("i1")).toBe("o1");
    await Item.where({ id: "i1" }).updateAll({ ownerId: "" });
    expect(await storedOwnerId("i1")).toBeNull();
  });

  it("an integer foreign key left blank is null without emptyAsNull, where another integer attribute is refused", async () => {
    expect(Entry.permit(form({ dcUserId: "", title: "t" }), "dcUserId", "title")).toEqual({ dcUserId: null, title: "t" });
    const entry = await Entry.create({ dcUserId: "" as never, title: "t" });
    expect(entry.dcUserId).toBeNull();
    expect(() => Entry.permit(form({ id: "" }), "id")).toThrow(CastError);
  });

  it("a foreign key that is no belongsTo's keeps its blank text, as any text attribute does", () => {
    class Unrelated extends Model({ id: { type: "string", null: false }, ownerId: "string" }) {
      static override binding = "DB";
      static override tableName = "saq_items";
    }
    expect(Unrelated.build({ ownerId: "" }).ownerId).toBe("");
  });
});
