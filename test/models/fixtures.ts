import { ActiveRecord, defineApplicationRecord, Model } from "../../src/index.js";
import { schema } from "./schema.js";

export { schema };

/** The app's base class, as the generator writes it. */
export class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
}

export const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

export class User extends ApplicationRecord("users") {}
export class Post extends ApplicationRecord("posts") {}
export class Counter extends ApplicationRecord("counters") {}
export class Note extends Model({ id: "string", body: "string" }) {
  static override binding = "DB";
}
