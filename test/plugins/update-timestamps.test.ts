import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { Base, bulkWrites, defineApplicationRecord, idGeneration, Model } from "../../src/index.js";
import { attributesOf, definePlugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

const STAMP = new Date("2020-01-01T00:00:00Z");

/** A user's plugin that keeps its own update timestamp, `touchedAt`, knowing nothing of the timestamps plugin. */
const touching = definePlugin({
  name: "touching",
  hooks: {
    "model:finalize"(model: Function) {
      for (const attribute of attributesOf(model)) attribute.updateTimestamp ||= attribute.name === "touchedAt";
    },
    "record:write"({ record, operation, values }) {
      if (operation === "create" && (values.get("touchedAt") ?? null) === null) record.writeAttribute("touchedAt", new Date());
    },
  },
});

class Touched extends Model({
  id: { type: "string", null: false, generateId: true },
  name: { type: "string", null: false },
  createdAt: { type: "datetime", null: false },
  touchedAt: { type: "datetime", column: "updated_at", null: false },
}) {
  static override tableName = "users";
  static {
    this.use(touching);
  }
}

describe("update timestamps a plugin marks", () => {
  it("an upsert touches a marked attribute only when a value it sets changes, whatever the attribute is called", async () => {
    const { db, events } = listen();
    const model = db.model(Touched);
    await model.insertAll([
      { id: "same", name: "a", createdAt: STAMP, touchedAt: STAMP },
      { id: "other", name: "b", createdAt: STAMP, touchedAt: STAMP },
    ]);
    await model.upsertAll([
      { id: "same", name: "a" },
      { id: "other", name: "c" },
    ]);
    expect(events.at(-1)!.sql).toContain(`"updated_at" = CASE WHEN`);
    expect((await model.find("same")).touchedAt.toISOString()).toBe(STAMP.toISOString());
    const other = await model.find("other");
    expect(other.touchedAt.getTime()).toBeGreaterThan(STAMP.getTime());
    expect(other.createdAt.toISOString()).toBe(STAMP.toISOString());
  });

  it("the timestamps plugin marks updatedAt, when it is a datetime, and nothing else", () => {
    expect(attributesOf(Touched).filter((attribute) => attribute.updateTimestamp).map((attribute) => attribute.name)).toEqual(["touchedAt"]);
    class Stamped extends Model({ id: "string", createdAt: "datetime", updatedAt: "datetime" }) {
      static override tableName = "users";
    }
    expect(attributesOf(Stamped).filter((attribute) => attribute.updateTimestamp).map((attribute) => attribute.name)).toEqual(["updatedAt"]);
    class TextStamped extends Model({ id: "string", updatedAt: "string" }) {
      static override tableName = "users";
    }
    expect(attributesOf(TextStamped).some((attribute) => attribute.updateTimestamp)).toBe(false);
  });

  it("without a plugin marking it, an attribute named updatedAt is set by an upsert only when given", async () => {
    class PlainBase extends Base {
      static {
        this.use(idGeneration, bulkWrites);
      }
    }
    const now = () => new Date();
    class Unstamped extends defineApplicationRecord({}, PlainBase)({
      id: { type: "string", null: false, generateId: true },
      name: { type: "string", null: false },
      createdAt: { type: "datetime", null: false, default: now },
      updatedAt: { type: "datetime", null: false, default: now },
    }) {
      static override tableName = "users";
    }
    const { db, events } = listen();
    const model = db.model(Unstamped) as unknown as typeof Touched;
    await model.insert({ id: "u", name: "a", createdAt: STAMP, updatedAt: STAMP } as never);
    await model.upsert({ id: "u", name: "b" } as never);
    expect(events.at(-1)!.sql).not.toContain("CASE");
    const row = await env.DB.prepare("SELECT name, updated_at FROM users").first();
    expect(row).toEqual({ name: "b", updated_at: STAMP.toISOString() });
  });
});
