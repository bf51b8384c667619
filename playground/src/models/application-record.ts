import { ActiveRecord, defineApplicationRecord } from "recordflare";
import { schema } from "../db/schema.js";

/** The app's base class: app-wide settings and plugins go here. */
class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
}

export const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);
