/**
 * The recordflare Models every benchmark uses: the `users` table of
 * test/fixtures/migrations/0001_create_users.sql, declared as the generator would
 * (compare test/models/fixtures.ts).
 */
import { ActiveRecord, defineApplicationRecord } from "../../dist/index.mjs";

export const schema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    email: "string",
    age: "integer",
    score: "real",
    admin: { type: "boolean", null: false, default: false },
    bornAt: "datetime",
    settings: "json",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
};

class ApplicationBase extends ActiveRecord {
  static binding = "DB";
}

export const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

export class User extends ApplicationRecord("users") {}
