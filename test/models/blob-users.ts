import { ActiveRecord, defineApplicationRecord } from "../../src/index.js";
import { type AttributeTypeDefinition, defineAttributeType, definePlugin } from "../../src/plugin.js";

/** Bytes stored as a blob as they are (a `Uint8Array`, whatever part of its buffer it views); text as its UTF-8. */
const blob: AttributeTypeDefinition<Uint8Array> = {
  cast: (value) => (value instanceof Uint8Array ? value : typeof value === "string" ? new TextEncoder().encode(value) : undefined),
  toDatabase: (value) => value,
  fromDatabase: (stored) => new Uint8Array(stored as ArrayBuffer),
};

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    blob: Uint8Array;
  }
  interface AttributeInputMap {
    blob: string;
  }
}

/** The default base with a `blob` attribute type: bytes stored as they are. */
export class BlobBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(definePlugin({ name: "blob-type", setup: () => defineAttributeType("blob", blob) }));
  }
}

const schema = {
  users: { id: { type: "string", null: false }, name: { type: "string", null: false }, email: "string", settings: "json", createdAt: "datetime", updatedAt: "datetime" },
} as const;

/** Users (migration 0001) keyed by bytes, with bytes for an email (a unique, nullable column): both stored as blobs. */
export class BlobUser extends defineApplicationRecord(schema, BlobBase)("users", { id: "blob", email: "blob" }) {}

/** The bytes given, in a `Uint8Array`. */
export const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

/** How the users table holds each row's key and email: their SQLite type and hex, ordered by key. */
export async function storedBlobs(db: D1Database): Promise<{ id: string; email: string | null; type: string }[]> {
  const { results } = await db.prepare("SELECT hex(id) AS id, hex(email) AS email, typeof(id) || ',' || typeof(email) AS type FROM users ORDER BY id").all();
  return results as { id: string; email: string | null; type: string }[];
}
