/**
 * The recordflare Models every benchmark uses: the `users` table of
 * test/fixtures/migrations/0001_create_users.sql, with the schema the tests use (as the generator writes it).
 */
import { ActiveRecord, defineApplicationRecord } from "../../dist/index.mjs";
import { schema } from "../../test/models/schema.ts";

class ApplicationBase extends ActiveRecord {
  static binding = "DB";
}

export const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

export class User extends ApplicationRecord("users") {}
